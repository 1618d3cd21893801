"""The game state: a named tuple of fixed-dtype arrays.

Seats are numbered in turn order (seat 0 plays first). Each seat owns 45 card instances: indices 0-29
are its Villain deck, 30-44 its Fate deck; a Fate card played by an opponent still belongs to the seat
whose Realm it is in. ``inst[s, k, I_CARD]`` is the card-table row of instance ``k`` of seat ``s``.
"""

from collections import namedtuple

import numba
import numpy as np
from numba import types

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import RefType, allocating_kernel, entry_kernel, kernel

State = namedtuple(
    "State",
    [
        "inst",  # int64 (P, 45, N_I): per card instance: card row, zone, location, host, trapped, flags, ongoing
        # ability (I_*)
        "vdeck",  # int64 (P, 30): Villain deck, bottom first; top = vdeck[s, sv[s, SV_VDECK_N] - 1]
        "fdeck",  # int64 (P, 15): Fate deck, bottom first
        "sv",  # int64 (P, N_SV): per-seat scalars SV_* (Power, mover, tile, Obstacles, locks, ...)
        "g",  # int64 (N_G,): game scalars G_*
        "rng",  # uint64 (1,): the game's random stream
        "opts",  # int64 (MAX_OPTS, 4): options of the current decision (code, a, b, c)
        "fr",  # int64 (MAX_DEPTH, N_FR): the routines under way, outermost first (FR_*); see engine/frame.py
        "log",  # int64 (L, 6): event log (ev, seat, a, b, c, d); L = 0 disables logging
        "tmp",  # int64 (45,): scratch (strength snapshots)
        "mark",  # int64 (45,): scratch (selections)
        "sparams",  # float64 (P, N_SPARAMS): strategy parameters per seat
        "memo",  # float64 (P, N_MEMO, 45): values a strategy worked out while scoring the decision under way
        # (rows M_* of strategies.heuristic; by instance, or by location)
        "memo_ok",  # int64 (P, N_MEMO): bit k of [s, m]: memo[s, m, k] is this decision's; read only while
        # G_SCORING is 1 (the strategy clears it when it starts scoring, so states copied or edited meanwhile
        # keep nothing stale; it keeps it for the next decision only where one known thing changes between them:
        # G_MEMO_KEPT)
    ],
)

Tables = namedtuple(
    "Tables",
    [
        "card",  # int64 (n_cards, N_CF): one row per card, columns CF_* (type, cost, strength, opcodes, ...)
        "vil",  # int64 (V, N_VF): per villain, columns VF_*
        "v_deck",  # int64 (V, 30): card rows of the Villain deck, one per copy
        "v_fate",  # int64 (V, 15): card rows of the Fate deck
        "syms",  # int64 (V, 4, MAX_SYMBOLS, N_SY): action symbols of each location, top row first
        "locs",  # int64 (V, 4, N_LC): per location: symbol count, Obstacle spots, locked, admits-only
        "v_out",  # int64 (V, 45): 1 = that instance slot is out of the game (a card edit shortened the deck)
    ],
)

N_SPARAMS = 8192  # room for every named weight of the heuristic (strategies.plans.PARAMS), and for the search
# player: its own settings, the rollout policy's weights for each villain and a learned value model (strategies.search)

# The sizes of every axis but the first, which every state and every card table has (new_state_nb, cards.py): a
# kernel reading an array through a reference (simlab/kernels/compile/ref.py) knows them as constants, so LLVM turns the
# multiplications of an index by them into shifts and adds. ref() checks them each time it is made.
State.AXES = {
    "inst": (K.N_INST, K.N_I),
    "vdeck": (K.N_VCARDS,),
    "fdeck": (K.N_FCARDS,),
    "sv": (K.N_SV,),
    "opts": (4,),
    "fr": (K.N_FR,),
    "log": (6,),
    "sparams": (N_SPARAMS,),
    "memo": (K.N_MEMO, K.N_INST),
    "memo_ok": (K.N_MEMO,),
}
Tables.AXES = {
    "card": (K.N_CF,),
    "vil": (K.N_VF,),
    "v_deck": (K.N_VCARDS,),
    "v_fate": (K.N_FCARDS,),
    "syms": (K.N_LOC, K.MAX_SYMBOLS, K.N_SY),
    "locs": (K.N_LOC, K.N_LC),
    "v_out": (K.N_INST,),
}


@allocating_kernel
def new_state_nb(n_seats, log_cap):
    """:func:`new_state` inside a kernel (the search player's worlds). The kernels that play games take a state
    their caller allocated (no allocation: numba's array allocation alone compiles its error messages' string
    formatting, about 5 s)."""
    P = n_seats
    return State(
        np.zeros((P, K.N_INST, K.N_I), np.int64),
        np.zeros((P, K.N_VCARDS), np.int64),
        np.zeros((P, K.N_FCARDS), np.int64),
        np.zeros((P, K.N_SV), np.int64),
        np.zeros(K.N_G, np.int64),
        np.zeros(1, np.uint64),
        np.zeros((K.MAX_OPTS, 4), np.int64),
        np.zeros((K.MAX_DEPTH, K.N_FR), np.int64),
        np.zeros((log_cap, 6), np.int64),
        np.zeros(K.N_INST, np.int64),
        np.zeros(K.N_INST, np.int64),
        np.zeros((P, N_SPARAMS), np.float64),
        np.zeros((P, K.N_MEMO, K.N_INST), np.float64),
        np.zeros((P, K.N_MEMO), np.int64),
    )


def new_state(n_seats: int, log_cap: int) -> State:
    """An empty state for ``n_seats`` players, allocated by numpy (:func:`new_state_nb` run as Python)."""
    return getattr(new_state_nb, "py_func", new_state_nb)(n_seats, log_cap)


@kernel
def clear_state_nb(st):
    """Every array of ``st`` but ``sparams`` back to zeros, as :func:`new_state` leaves them (a state reused for the
    next game; :func:`simlab.kernels.rules.setup_nb` writes the parameters)."""
    st.inst[:] = 0
    st.vdeck[:] = 0
    st.fdeck[:] = 0
    st.sv[:] = 0
    st.g[:] = 0
    st.rng[:] = 0
    st.opts[:] = 0
    st.fr[:] = 0
    st.log[:] = 0
    st.tmp[:] = 0
    st.mark[:] = 0
    # sparams is left as it is: setup_nb writes every seat's row up to the width of the parameters it is given
    st.memo[:] = 0.0
    st.memo_ok[:] = 0


def copy_state(st: State) -> State:
    """A deep copy (Python side): the copy continues exactly as the original would, from any decision."""
    return State(*(a.copy() for a in st))


@kernel
def set_zone_nb(st, s, k, zone):
    """Put instance ``k`` of seat ``s`` in ``zone``, keeping the seat's zone masks (``SV_ZONE + zone``) and the
    mask of the ongoing abilities in its Realm (``SV_REALM_PASSIVES``) true."""
    old = st.inst[s, k, K.I_ZONE]
    st.sv[s, K.SV_ZONE + old] &= ~(1 << k)
    st.sv[s, K.SV_ZONE + zone] |= 1 << k
    st.inst[s, k, K.I_ZONE] = zone
    if (old == K.Z_REALM or zone == K.Z_REALM) and st.inst[s, k, K.I_PASSIVE] != K.AB_NONE:
        index_realm_passives_nb(st, s)


@kernel
def realm_passives_nb(st, s):
    """Bit ``p - FIRST_PASSIVE`` for the ongoing ability ``p`` of each card in seat ``s``'s Realm."""
    bits = 0
    m = st.sv[s, K.SV_ZONE + K.Z_REALM]
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_PASSIVE] != K.AB_NONE:
            bits |= 1 << (st.inst[s, j, K.I_PASSIVE] - K.FIRST_PASSIVE)
    return bits


@kernel
def index_realm_passives_nb(st, s):
    st.sv[s, K.SV_REALM_PASSIVES] = realm_passives_nb(st, s)


@entry_kernel
def index_zones_nb(st):
    """Rebuild every seat's zone masks from the instances' zones (after a state is written by hand)."""
    for s in range(st.inst.shape[0]):
        for z in range(K.N_ZONES):
            st.sv[s, K.SV_ZONE + z] = 0
        for k in range(K.N_INST):
            st.sv[s, K.SV_ZONE + st.inst[s, k, K.I_ZONE]] |= 1 << k
        index_realm_passives_nb(st, s)
    st.g[K.G_MEMO_KEPT] = 0  # a state written by hand keeps no strategy's memo


def engine_arg_types() -> tuple:
    """numba types of (st, tb, ru) exactly as every driver passes them (arrays allocated by numpy or numba)."""
    z = np.zeros
    tb = Tables(
        z((1, K.N_CF), np.int64),
        z((1, K.N_VF), np.int64),
        z((1, 30), np.int64),
        z((1, 15), np.int64),
        z((1, K.N_LOC, K.MAX_SYMBOLS, K.N_SY), np.int64),
        z((1, K.N_LOC, K.N_LC), np.int64),
        z((1, K.N_INST), np.int64),
    )
    return numba.typeof(new_state(1, 0)), numba.typeof(tb), numba.typeof(z(K.N_RULES, np.int64))


ENGINE_TYPES = engine_arg_types()
# the same, as the routines take them: one pointer to each tuple, and to the rules' data (as_ptr)
ENGINE_REF_TYPES = (RefType(ENGINE_TYPES[0]), RefType(ENGINE_TYPES[1]), types.CPointer(types.int64))
STRATEGY_ARG_TYPES = ENGINE_TYPES + (types.int64,) * 5  # (st, tb, ru, realm, player, kind, ctx, n)
