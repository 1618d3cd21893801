"""Driving the rules: the routine table, ``advance_nb`` and the game's setup."""

from numba import types

from simlab.kernels import compile
from simlab.kernels import const as K
from simlab.kernels.compile import add_binder, as_ptr, entry_kernel, helper, part, ref
from simlab.kernels.rng import seed_stream_nb
from simlab.kernels.rules.abilities import ADVANCE_REF_TYPES, ROUTINE_TYPES
from simlab.kernels.rules.frame import (
    RT_ACTIVATE,
    RT_AFTER_ACTION,
    RT_CHOOSE_ACTIVATE,
    RT_CHOOSE_MOVE,
    RT_CHOOSE_VANQUISH,
    RT_CONDITION_WINDOW,
    RT_DISCARD_PICKS,
    RT_FATE_ACTION,
    RT_MOVE_HERO,
    RT_ON_ENTER,
    RT_ON_PLAY,
    RT_PASSIVE_PLAYED,
    RT_PICK_HERO_TO_MOVE,
    RT_PICK_LOCATION,
    RT_PICK_MODE,
    RT_PLACE_HERO,
    RT_PLAY_FATE_CARD,
    RT_PLAY_HERO,
    RT_PLAY_ITEM,
    RT_PLAY_REVEALED,
    RT_PLAY_VILLAIN_CARD,
    RT_REMOVE_OBSTACLES,
    RT_REPLACE_OBSTACLES,
    RT_RESOLVE_EFFECT,
    RT_STEP,
    RT_TAKE_ACTION,
    RT_TILE,
    RT_VANQUISH,
    push_nb,
)
from simlab.kernels.rules.piles import draw_n_nb, shuffle_fate_deck_nb, shuffle_villain_deck_nb
from simlab.kernels.rules.routines.actions import (
    activate_r,
    choose_activate_r,
    choose_move_r,
    choose_vanquish_r,
    vanquish_r,
)
from simlab.kernels.rules.routines.cards import passive_played_r, play_item_r, play_villain_card_r
from simlab.kernels.rules.routines.choices import discard_picks_r, pick_hero_to_move_r, pick_location_r, pick_mode_r
from simlab.kernels.rules.routines.effects import condition_window_r, resolve_effect_r
from simlab.kernels.rules.routines.fate import fate_action_r, play_fate_card_r, play_revealed_r
from simlab.kernels.rules.routines.heroes import move_hero_r, on_enter_r, on_play_r, place_hero_r, play_hero_r
from simlab.kernels.rules.routines.obstacles import remove_obstacles_r, replace_obstacles_r
from simlab.kernels.rules.routines.turn import after_action_r, step_r, take_action_r, tile_r
from simlab.kernels.state import set_zone_nb

# Each routine is compiled once, on its own, and reached through a table of routines indexed by RT code
# (simlab.kernels.compile.link): linked in, the code of every routine would be optimised and generated again inside
# advance_nb, which inlines the dispatcher run_routine_nb (measured when the dispatcher was still its own kernel:
# advance_nb compiled in 202 s CPU and 1.36 GB linked in; reached through symbols, 117 s and 0.66 GB).
# ROUTINES is the one list of them: bind_routines() fills the table from it, before a game is played (a binder:
# simlab.kernels.compile.bind_all, which the driver calls when imported).
ROUTINE_TABLE = "simlab_routines"
ROUTINES = {
    RT_STEP: step_r,
    RT_TAKE_ACTION: take_action_r,
    RT_AFTER_ACTION: after_action_r,
    RT_CONDITION_WINDOW: condition_window_r,
    RT_REMOVE_OBSTACLES: remove_obstacles_r,
    RT_REPLACE_OBSTACLES: replace_obstacles_r,
    RT_PICK_LOCATION: pick_location_r,
    RT_PICK_HERO_TO_MOVE: pick_hero_to_move_r,
    RT_PICK_MODE: pick_mode_r,
    RT_ON_ENTER: on_enter_r,
    RT_MOVE_HERO: move_hero_r,
    RT_PLACE_HERO: place_hero_r,
    RT_ON_PLAY: on_play_r,
    RT_PLAY_HERO: play_hero_r,
    RT_PLAY_FATE_CARD: play_fate_card_r,
    RT_PLAY_REVEALED: play_revealed_r,
    RT_FATE_ACTION: fate_action_r,
    RT_VANQUISH: vanquish_r,
    RT_CHOOSE_VANQUISH: choose_vanquish_r,
    RT_CHOOSE_MOVE: choose_move_r,
    RT_ACTIVATE: activate_r,
    RT_CHOOSE_ACTIVATE: choose_activate_r,
    RT_PLAY_ITEM: play_item_r,
    RT_PLAY_VILLAIN_CARD: play_villain_card_r,
    RT_DISCARD_PICKS: discard_picks_r,
    RT_RESOLVE_EFFECT: resolve_effect_r,
    RT_TILE: tile_r,
    RT_PASSIVE_PLAYED: passive_played_r,
}
N_ROUTINE_CODES = max(ROUTINES) + 1  # RT codes are 1 to N_ROUTINE_CODES - 1
_routine = compile.table_caller(ROUTINE_TABLE, N_ROUTINE_CODES, ROUTINE_TYPES, types.int64)


# Inlined into advance_nb: one hop per routine run (perf: the dispatcher alone, as its own kernel, took about a
# tenth of an expert game's kernel time).
@helper
def run_routine_nb(st, tb, ru, f):
    """Run the routine of frame ``f`` until it waits (WAIT), calls, or finishes (GO)."""
    r = st.fr[f, K.FR_ROUTINE]
    if r < 1 or r >= N_ROUTINE_CODES:
        raise IndexError("unknown routine")
    return _routine(r, st, tb, ru, f)


def bind_routines() -> None:
    """Compile (or load from the cache) every routine and put it in the routine table, once per process, before a
    game is played."""
    if sorted(ROUTINES) != list(range(1, N_ROUTINE_CODES)):
        raise RuntimeError(f"routine codes must be 1 to {N_ROUTINE_CODES - 1}, one routine each: {sorted(ROUTINES)}")
    if len(compile.filled(ROUTINE_TABLE, N_ROUTINE_CODES)) == len(ROUTINES):
        return
    for code, routine in ROUTINES.items():
        compile.fill(ROUTINE_TABLE, N_ROUTINE_CODES, code, routine, ROUTINE_TYPES)


add_binder(bind_routines)


@entry_kernel
def advance_nb(st, tb, ru, steps):
    """Play on until a decision waits for a player (True: its options are in ``st.opts[:G_PEND_N]``, the
    deciding seat in ``G_PEND_PLAYER``; answer it with :func:`apply_nb`), or ``steps`` more steps are
    done, or the game is over (False)."""
    # the routines get State and Tables as one pointer each (simlab/kernels/compile/ref.py), valid in this frame
    return advance_by_ref_nb.call(ref(st), ref(tb), as_ptr(ru), steps)


@part(*ADVANCE_REF_TYPES, returns=types.boolean)
def advance_by_ref_nb(st, tb, ru, steps):
    """:func:`advance_nb` for the state and the tables passed as references: what the drivers call (a bound
    call passes a tuple's every array field, about 185 machine words; a reference is one)."""
    return advance_ref_nb(st, tb, ru, steps)


@helper
def advance_ref_nb(st, tb, ru, steps):
    end = st.g[K.G_STEPS] + steps
    while st.g[K.G_ASK] == 0:
        f = st.g[K.G_SP] - 1
        if f < 0:
            if st.g[K.G_PHASE] == K.PH_OVER or st.g[K.G_STEPS] >= end:
                return False
            push_nb(st, RT_STEP, 0, 0, 0, 0, 0, 0, 0)
            continue
        run_routine_nb(st, tb, ru, f)
    return True


@entry_kernel
def finished_nb(st):
    """The game is over and nothing is left to resolve."""
    return st.g[K.G_PHASE] == K.PH_OVER and st.g[K.G_SP] == 0 and st.g[K.G_ASK] == 0


@entry_kernel
def setup_nb(st, tb, ru, villains, slots, slot_kernels, slot_params, seed, game_index):
    """Set up a game per the rulebook: shuffled decks, 4-card hands, Power 0/1/2 by seat, movers left-most.

    villains, slots: int64 (P,) villain row and strategy slot per seat; slot_kernels int64 (S,) and slot_params
    float64 (S, N_SPARAMS): each slot's strategy kernel id and parameters. ``st`` is fresh or cleared.
    """
    P = villains.shape[0]
    st.g[:] = 0
    st.g[K.G_NSEATS] = P
    st.g[K.G_WINNER] = -1
    st.g[K.G_ROUND] = 1
    st.g[K.G_PHASE] = K.PH_START
    seed_stream_nb(st.rng, seed, game_index)
    for s in range(P):
        v = villains[s]
        st.sv[s, :] = 0
        st.sv[s, K.SV_VILLAIN] = v
        st.sv[s, K.SV_POWER] = s if s < 3 else 3
        st.sv[s, K.SV_STRATEGY] = slot_kernels[slots[s]]
        for j in range(slot_params.shape[1]):
            st.sparams[s, j] = slot_params[slots[s], j]
        st.sv[s, K.SV_TRAPS] = tb.vil[v, K.VF_TRAPS]
        st.sv[s, K.SV_SEAT_ORDER] = s
        for loc in range(K.N_LOC):
            st.sv[s, K.SV_LOCK + loc] = tb.locs[v, loc, K.LC_LOCKED]
            st.sv[s, K.SV_OBST + loc] = tb.locs[v, loc, K.LC_SPOTS]
        for k in range(K.N_INST):
            st.inst[s, k, K.I_CARD] = tb.v_deck[v, k] if k < K.N_VCARDS else tb.v_fate[v, k - K.N_VCARDS]
            st.inst[s, k, K.I_LOC] = -1
            st.inst[s, k, K.I_HOST] = -1
            st.inst[s, k, K.I_TRAPPED] = 0
            st.inst[s, k, K.I_FLAGS] = 0
            st.inst[s, k, K.I_PASSIVE] = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
        # A deck shortened by a card edit leaves its last slots out of the game.
        nv = 0
        for k in range(K.N_VCARDS):
            if tb.v_out[v, k] != 0:
                set_zone_nb(st, s, k, K.Z_OUT)
            else:
                set_zone_nb(st, s, k, K.Z_VDECK)
                st.vdeck[s, nv] = k
                nv += 1
        nf = 0
        for k in range(K.N_FCARDS):
            if tb.v_out[v, K.N_VCARDS + k] != 0:
                set_zone_nb(st, s, K.N_VCARDS + k, K.Z_OUT)
            else:
                set_zone_nb(st, s, K.N_VCARDS + k, K.Z_FDECK)
                st.fdeck[s, nf] = K.N_VCARDS + k
                nf += 1
        st.sv[s, K.SV_VDECK_N] = nv
        st.sv[s, K.SV_FDECK_N] = nf
    for s in range(P):
        shuffle_villain_deck_nb(st, s)
        shuffle_fate_deck_nb(st, s)
    for s in range(P):
        draw_n_nb(st, s, 4)
