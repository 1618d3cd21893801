"""Driving the rules: the routine table, ``advance_nb`` and the game's setup."""

from numba import types

from simlab.kernels import const as K
from simlab.kernels import link
from simlab.kernels.engine.abilities import ADVANCE_REF_TYPES, ROUTINE_TYPES, _ability_r
from simlab.kernels.engine.frame import (
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
    TILE_SEAT,
    push_nb,
)
from simlab.kernels.engine.piles import draw_n_nb, shuffle_fate_deck_nb, shuffle_villain_deck_nb
from simlab.kernels.engine.routines.actions import (
    activate_r,
    choose_activate_r,
    choose_move_r,
    choose_vanquish_r,
    vanquish_r,
)
from simlab.kernels.engine.routines.cards import play_item_r, play_villain_card_r
from simlab.kernels.engine.routines.choices import discard_picks_r, pick_hero_to_move_r, pick_location_r, pick_mode_r
from simlab.kernels.engine.routines.effects import condition_window_r, resolve_effect_r
from simlab.kernels.engine.routines.fate import fate_action_r, play_fate_card_r, play_revealed_r
from simlab.kernels.engine.routines.heroes import move_hero_r, on_enter_r, on_play_r, place_hero_r, play_hero_r
from simlab.kernels.engine.routines.obstacles import remove_obstacles_r, replace_obstacles_r
from simlab.kernels.engine.routines.turn import after_action_r, step_r, take_action_r
from simlab.kernels.jit import entry_kernel, helper, kernel
from simlab.kernels.ref import ref
from simlab.kernels.rng import seed_stream_nb
from simlab.kernels.state import set_zone_nb

# Each routine is compiled once, on its own, and called through a process-wide symbol (simlab.kernels.link):
# linked in, the code of every routine would be optimised and generated again inside advance_nb, which inlines
# the dispatcher run_routine_nb (measured when the dispatcher was still its own kernel: advance_nb compiled in
# 202 s CPU and 1.36 GB linked in; bound, 117 s and 0.66 GB).
# bind_routines() must run before advance_nb is compiled or loaded from the cache; the
# driver does it when imported. _NAME_r is the symbol call of NAME_r.
ROUTINES = (
    step_r,
    take_action_r,
    after_action_r,
    condition_window_r,
    remove_obstacles_r,
    replace_obstacles_r,
    pick_location_r,
    pick_hero_to_move_r,
    pick_mode_r,
    on_enter_r,
    move_hero_r,
    place_hero_r,
    on_play_r,
    play_hero_r,
    play_fate_card_r,
    play_revealed_r,
    fate_action_r,
    vanquish_r,
    choose_vanquish_r,
    choose_move_r,
    activate_r,
    choose_activate_r,
    play_item_r,
    play_villain_card_r,
    discard_picks_r,
    resolve_effect_r,
)
_step_r = link.caller(step_r, ROUTINE_TYPES, types.int64)
_take_action_r = link.caller(take_action_r, ROUTINE_TYPES, types.int64)
_after_action_r = link.caller(after_action_r, ROUTINE_TYPES, types.int64)
_condition_window_r = link.caller(condition_window_r, ROUTINE_TYPES, types.int64)
_remove_obstacles_r = link.caller(remove_obstacles_r, ROUTINE_TYPES, types.int64)
_replace_obstacles_r = link.caller(replace_obstacles_r, ROUTINE_TYPES, types.int64)
_pick_location_r = link.caller(pick_location_r, ROUTINE_TYPES, types.int64)
_pick_hero_to_move_r = link.caller(pick_hero_to_move_r, ROUTINE_TYPES, types.int64)
_pick_mode_r = link.caller(pick_mode_r, ROUTINE_TYPES, types.int64)
_on_enter_r = link.caller(on_enter_r, ROUTINE_TYPES, types.int64)
_move_hero_r = link.caller(move_hero_r, ROUTINE_TYPES, types.int64)
_place_hero_r = link.caller(place_hero_r, ROUTINE_TYPES, types.int64)
_on_play_r = link.caller(on_play_r, ROUTINE_TYPES, types.int64)
_play_hero_r = link.caller(play_hero_r, ROUTINE_TYPES, types.int64)
_play_fate_card_r = link.caller(play_fate_card_r, ROUTINE_TYPES, types.int64)
_play_revealed_r = link.caller(play_revealed_r, ROUTINE_TYPES, types.int64)
_fate_action_r = link.caller(fate_action_r, ROUTINE_TYPES, types.int64)
_vanquish_r = link.caller(vanquish_r, ROUTINE_TYPES, types.int64)
_choose_vanquish_r = link.caller(choose_vanquish_r, ROUTINE_TYPES, types.int64)
_choose_move_r = link.caller(choose_move_r, ROUTINE_TYPES, types.int64)
_activate_r = link.caller(activate_r, ROUTINE_TYPES, types.int64)
_choose_activate_r = link.caller(choose_activate_r, ROUTINE_TYPES, types.int64)
_play_item_r = link.caller(play_item_r, ROUTINE_TYPES, types.int64)
_play_villain_card_r = link.caller(play_villain_card_r, ROUTINE_TYPES, types.int64)
_discard_picks_r = link.caller(discard_picks_r, ROUTINE_TYPES, types.int64)
_resolve_effect_r = link.caller(resolve_effect_r, ROUTINE_TYPES, types.int64)


# Inlined into advance_nb: a bound call passes State and Tables unpacked (about 150 machine words), and one hop
# per routine run is enough (perf: the dispatcher alone took about a tenth of an expert game's kernel time).
@helper
def run_routine_nb(st, tb, ru, f):
    """Run the routine of frame ``f`` until it waits (WAIT), calls, or finishes (GO)."""
    r = st.fr[f, K.FR_ROUTINE]
    if r == RT_STEP:
        return _step_r(st, tb, ru, f)
    if r == RT_TAKE_ACTION:
        return _take_action_r(st, tb, ru, f)
    if r == RT_AFTER_ACTION:
        return _after_action_r(st, tb, ru, f)
    if r == RT_CONDITION_WINDOW:
        return _condition_window_r(st, tb, ru, f)
    if r == RT_REMOVE_OBSTACLES:
        return _remove_obstacles_r(st, tb, ru, f)
    if r == RT_REPLACE_OBSTACLES:
        return _replace_obstacles_r(st, tb, ru, f)
    if r == RT_PICK_LOCATION:
        return _pick_location_r(st, tb, ru, f)
    if r == RT_PICK_HERO_TO_MOVE:
        return _pick_hero_to_move_r(st, tb, ru, f)
    if r == RT_PICK_MODE:
        return _pick_mode_r(st, tb, ru, f)
    if r == RT_ON_ENTER:
        return _on_enter_r(st, tb, ru, f)
    if r == RT_MOVE_HERO:
        return _move_hero_r(st, tb, ru, f)
    if r == RT_PLACE_HERO:
        return _place_hero_r(st, tb, ru, f)
    if r == RT_ON_PLAY:
        return _on_play_r(st, tb, ru, f)
    if r == RT_PLAY_HERO:
        return _play_hero_r(st, tb, ru, f)
    if r == RT_PLAY_FATE_CARD:
        return _play_fate_card_r(st, tb, ru, f)
    if r == RT_PLAY_REVEALED:
        return _play_revealed_r(st, tb, ru, f)
    if r == RT_FATE_ACTION:
        return _fate_action_r(st, tb, ru, f)
    if r == RT_VANQUISH:
        return _vanquish_r(st, tb, ru, f)
    if r == RT_CHOOSE_VANQUISH:
        return _choose_vanquish_r(st, tb, ru, f)
    if r == RT_CHOOSE_MOVE:
        return _choose_move_r(st, tb, ru, f)
    if r == RT_ACTIVATE:
        return _activate_r(st, tb, ru, f)
    if r == RT_CHOOSE_ACTIVATE:
        return _choose_activate_r(st, tb, ru, f)
    if r == RT_PLAY_ITEM:
        return _play_item_r(st, tb, ru, f)
    if r == RT_PLAY_VILLAIN_CARD:
        return _play_villain_card_r(st, tb, ru, f)
    if r == RT_DISCARD_PICKS:
        return _discard_picks_r(st, tb, ru, f)
    if r == RT_RESOLVE_EFFECT:
        return _resolve_effect_r(st, tb, ru, f)
    if r == RT_TILE:
        return _ability_r(tb.vil[st.sv[st.fr[f, TILE_SEAT], K.SV_VILLAIN], K.VF_TILE], st, tb, ru, f)
    raise IndexError("unknown routine")


def bind_routines() -> None:
    """Compile (or load from the cache) every routine and the dispatcher, and register their symbols, once
    per process, before anything that calls them is compiled or loaded."""
    for routine in ROUTINES:
        link.bind(routine, ROUTINE_TYPES)


@entry_kernel
def advance_nb(st, tb, ru, steps):
    """Play on until a decision waits for a player (True: its options are in ``st.opts[:G_PEND_N]``, the
    deciding seat in ``G_PEND_PLAYER``; answer it with :func:`apply_nb`), or ``steps`` more steps are
    done, or the game is over (False)."""
    # the routines get State and Tables as one pointer each (simlab/kernels/ref.py), valid in this frame
    return _advance_by_ref(ref(st), ref(tb), ru, steps)


@kernel
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


_advance_by_ref = link.caller(advance_by_ref_nb, ADVANCE_REF_TYPES, types.boolean)


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
