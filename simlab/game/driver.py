"""The driver: plays games by answering the engine's decisions with each seat's strategy.

The engine (:mod:`simlab.kernels.rules`) knows nothing of strategies: ``advance_nb`` plays until a player
must choose and returns with the decision held in the state. This module asks the deciding seat's
strategy kernel and hands the answer back with ``apply_nb``, one game at a time (:func:`play_nb`) or many
in parallel (:func:`play_batch`, each game's stream from (seed, game index) alone).

``random`` (kernel id 0) is small and compiled in here. The engine's ``advance_nb``, the heuristic kernel (id 1,
behind ``novice``, ``expert`` and ``fate-heavy``), the search player (id 2, ``search``) and the apprentice (id 3,
``apprentice``) are large: linked in, their code would be copied into and re-optimised with every kernel that calls
them. Each is a part, compiled on its own for the one signature it is called with and called as ``name.call``
through a process-wide symbol, or an entry of a table of kernels (:mod:`simlab.kernels.compile`); ``bind_all()``,
when this module is imported, binds every part and fills every table before any caller is compiled or loaded from
the cache. The search player and the apprentice compile on first use only (:func:`bind_search`, about 20 s;
:func:`bind_apprentice`): until then each one's table entry holds a kernel that says so.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import types

from simlab.kernels import const as K
from simlab.kernels.compile import add_binder, as_ptr, bind_all, entry_kernel, fill, helper, kernel, ref, table_caller
from simlab.kernels.rules import advance_by_ref_nb, apply_nb, setup_nb
from simlab.kernels.state import ENGINE_TYPES, STRATEGY_ARG_TYPES, clear_state_nb, new_state
from simlab.villains import bind_abilities
from strategies import apprentice, search
from strategies.heuristic import choose_by_ref_nb as heuristic_choose_by_ref_nb
from strategies.plans import bind_plans
from strategies.random import choose_nb as random_choose_nb

GAME_FIELDS = ("winner", "end", "rounds", "steps", "decisions")  # columns of play_batch's out_games
ALL_STEPS = 1 << 62
ARG_TYPES = STRATEGY_ARG_TYPES
ADVANCE_ARG_TYPES = ENGINE_TYPES + (types.int64,)  # (st, tb, ru, steps): play_nb's

# Every part (the big kernels, each compiled once and called through its symbol) and every table of kernels (the
# rules' routines, the villains' abilities, the plans), callees first, before any kernel calling them is compiled or
# loaded from the cache. State and Tables cross these calls as references (one pointer each), not unpacked.
add_binder(bind_abilities)  # each villain's routines, in the rules' tables (simlab/villains/<folder>/)
add_binder(bind_plans)  # each villain's plan, in the heuristic's table (strategies/plans/<folder>.py)
bind_all()
# The players compiled on first use, each an entry of a table of kernels: entry 0 the search player (kernel id 2),
# entry 1 the apprentice (kernel id 3); until bound (bind_search, bind_apprentice) an entry holds a kernel that says so.
PLAYER_TABLE = "simlab_driver_players"
N_LATE_PLAYERS = 2
call_player = table_caller(PLAYER_TABLE, N_LATE_PLAYERS, ARG_TYPES, types.int64)


@kernel
def search_not_bound_nb(st, tb, ru, realm, player, kind, ctx, n):
    raise RuntimeError("the search player is not compiled: call simlab.game.warmup.ensure(search=True) first")


@kernel
def apprentice_not_bound_nb(st, tb, ru, realm, player, kind, ctx, n):
    raise RuntimeError("the apprentice is not compiled: call simlab.game.warmup.ensure(apprentice=True) first")


fill(PLAYER_TABLE, N_LATE_PLAYERS, 0, search_not_bound_nb, ARG_TYPES)
fill(PLAYER_TABLE, N_LATE_PLAYERS, 1, apprentice_not_bound_nb, ARG_TYPES)
_bound = [False, False]


def search_bound() -> bool:
    """The search player is behind kernel id 2 in this process."""
    return _bound[0]


def apprentice_bound() -> bool:
    """The apprentice is behind kernel id 3 in this process."""
    return _bound[1]


def bind_search() -> bool:
    """Compile the search player (or load it from the cache) and put it behind kernel id 2; False if it was
    there already."""
    return _bind(0, search.choose_nb)


def bind_apprentice() -> bool:
    """Compile the apprentice (or load it from the cache) and put it behind kernel id 3; False if it was there
    already."""
    return _bind(1, apprentice.choose_nb)


def _bind(entry: int, choose) -> bool:
    if _bound[entry]:
        return False
    fill(PLAYER_TABLE, N_LATE_PLAYERS, entry, choose, ARG_TYPES)
    _bound[entry] = True
    return True


@entry_kernel
def choose_nb(st, tb, ru):
    """Index in ``st.opts`` the deciding seat's strategy picks for the waiting decision (kernel id in
    ``sv[player, SV_STRATEGY]``: 0 random, 1 heuristic, 2 search, 3 apprentice)."""
    return decide_nb(st, tb, ru, ref(st), ref(tb))


@helper
def decide_nb(st, tb, ru, rst, rtb):
    """:func:`choose_nb`, given also references to ``st`` and ``tb`` (made by the caller, valid in its frame);
    inlined where it is called, so that no call passes the tuples unpacked."""
    player = st.g[K.G_PEND_PLAYER]
    realm = st.g[K.G_PEND_REALM]
    kind = st.g[K.G_PEND_KIND]
    ctx = st.g[K.G_PEND_CTX]
    n = st.g[K.G_PEND_N]
    strategy = st.sv[player, K.SV_STRATEGY]
    if strategy == 1:
        return heuristic_choose_by_ref_nb.call(rst, rtb, as_ptr(ru), realm, player, kind, ctx, n)
    if strategy >= 2:
        return call_player(strategy - 2, st, tb, ru, realm, player, kind, ctx, n)
    return random_choose_nb(rst, rtb, as_ptr(ru), realm, player, kind, ctx, n)


@entry_kernel
def play_nb(st, tb, ru, max_steps):
    """Play ``max_steps`` more steps (or to the end), each seat's strategy answering its decisions."""
    end = st.g[K.G_STEPS] + max_steps
    rst = ref(st)
    rtb = ref(tb)
    rru = as_ptr(ru)
    while advance_by_ref_nb.call(rst, rtb, rru, end - st.g[K.G_STEPS]):
        apply_nb(rst, decide_nb(st, tb, ru, rst, rtb))


@kernel
def start_game_nb(st, tb, ru, villains, slots, slot_kernels, slot_params, seed, index):
    """``st`` (any state of ``villains.shape[0]`` seats) set up for game ``index``: seat ``s`` plays villain row
    ``villains[s]`` with strategy slot ``slots[s]`` (kernel id ``slot_kernels[slot]``, parameters
    ``slot_params[slot]``)."""
    clear_state_nb(st)
    setup_nb(st, tb, ru, villains, slots, slot_kernels, slot_params, seed, index)


@entry_kernel
def play_range_nb(
    st, tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, games, turns, flags, lo, hi
):
    """Play games ``first_index + lo .. first_index + hi - 1`` (rows ``lo .. hi - 1`` of the arrays below) in
    ``st``, one after the other.

    seat_villains: int64 (n, P) villain row of each seat, seat 0 first.
    seat_slots: int64 (n, P) strategy slot of each seat; slot_kernels int64 (S,) and slot_params float64
    (S, N_SPARAMS) give each slot's kernel id and parameters.
    games: int64 (n, 5) out: winner seat (-1 none), end reason, rounds, steps, decisions.
    turns: int64 (n, P) out: turns taken by each seat.
    flags: int8 (n, P, 45) out: FLAG_DRAWN | FLAG_PLAYED per card instance, or shape (0, P, 45) to skip.
    """
    P = seat_villains.shape[1]
    for i in range(lo, hi):
        start_game_nb(
            st, tb, ru, seat_villains[i], seat_slots[i], slot_kernels, slot_params, seed, first_index + np.uint64(i)
        )
        play_nb(st, tb, ru, ALL_STEPS)
        games[i, 0] = st.g[K.G_WINNER]
        games[i, 1] = st.g[K.G_END]
        games[i, 2] = min(st.g[K.G_ROUND], ru[K.R_MAX_TURNS])
        games[i, 3] = st.g[K.G_STEPS]
        games[i, 4] = st.g[K.G_DECISIONS]
        for s in range(P):
            turns[i, s] = st.sv[s, K.SV_TURNS]
        if flags.shape[0] > 0:
            for s in range(P):
                for k in range(K.N_INST):
                    flags[i, s, k] = st.inst[s, k, K.I_FLAGS]


BLOCK = 64  # games a thread plays before taking the next block (games differ in length: the threads finish together)
BLOCKS_A_THREAD = 4  # a chunk of fewer than BLOCK games a thread is cut finer: at least this many blocks a thread


def play_batch(
    tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, out_games, out_turns, out_flags
):
    """Play games ``first_index .. first_index + n - 1`` on ``numba.get_num_threads()`` threads (arrays as in
    :func:`play_range_nb`). Each thread takes the next block of games as it finishes one and plays it in
    :func:`play_range_nb`, which releases the GIL; a game's stream comes from (seed, game index) alone, so
    the results do not depend on the threads."""
    n, P = seat_villains.shape
    # a game copies its seats' parameters up to the last one any slot sets (State.sparams is wide enough for a search
    # player's learned model; a heuristic's vector fills a few hundred), into a state whose rest stays 0
    used = int(np.flatnonzero(slot_params.any(axis=0)).max(initial=0)) + 1
    slot_params = np.ascontiguousarray(slot_params[:, :used])
    args = (tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, out_games, out_turns)
    # a chunk of a few hundred search games in blocks of 64 would leave one thread idle for most of its last block
    block = max(1, min(BLOCK, -(-n // (BLOCKS_A_THREAD * numba.get_num_threads()))))
    threads = min(numba.get_num_threads(), -(-n // block))
    if threads <= 1:
        play_range_nb(new_state(P, 0), *args, out_flags, 0, n)
        return
    blocks = iter(range(0, n, block))
    lock = threading.Lock()

    def work() -> None:
        st = new_state(P, 0)  # one state a thread, cleared for each game
        while True:
            with lock:
                lo = next(blocks, None)
            if lo is None:
                return
            play_range_nb(st, *args, out_flags, lo, min(lo + block, n))

    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(work) for _ in range(threads)]:
            done.result()
