"""The driver: plays games by answering the engine's decisions with each seat's strategy.

The engine (:mod:`simlab.kernels.engine`) knows nothing of strategies: ``advance_nb`` plays until a player
must choose and returns with the decision held in the state. This module asks the deciding seat's
strategy kernel and hands the answer back with ``apply_nb``, one game at a time (:func:`play_nb`) or many
in parallel (:func:`play_batch_nb`, each game's stream from (seed, game index) alone).

``random`` (kernel id 0) is small and compiled in here. The heuristic kernel (id 1, behind ``novice``,
``expert`` and ``fate-heavy``) is large: linked in, its code would be copied into and re-optimised with
every kernel that calls it. It is compiled on its own, for the one signature the driver calls it with, and
called through a process-wide symbol bound at import (:data:`HEURISTIC_SYMBOL`), before any caller is
compiled or loaded from the cache.
"""

import llvmlite.binding as ll
import numba
import numpy as np
from numba import prange, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from simlab.cards import Tables
from simlab.kernels import const as K
from simlab.kernels.engine import advance_nb, apply_nb, setup_nb
from simlab.kernels.jit import JIT_FLAGS, kernel
from simlab.kernels.state import N_SPARAMS, State, new_state_nb
from strategies.heuristic import choose_nb as heuristic_choose_nb
from strategies.random import choose_nb as random_choose_nb

HEURISTIC_SYMBOL = "simlab_strategies_heuristic_choose_nb"
GAME_FIELDS = ("winner", "end", "rounds", "steps", "decisions")  # columns of play_batch_nb's out_games
ALL_STEPS = 1 << 62


def _engine_arg_types() -> tuple:
    """numba types of (st, tb, ru) exactly as the driver passes them."""
    z = np.zeros
    st = State(
        z((1, K.N_INST, K.N_I), np.int64),
        z((1, K.N_VCARDS), np.int64),
        z((1, K.N_FCARDS), np.int64),
        z((1, K.N_SV), np.int64),
        z(K.N_G, np.int64),
        z(1, np.uint64),
        z((K.MAX_OPTS, 4), np.int64),
        z((K.MAX_DEPTH, K.N_FR), np.int64),
        z((0, 6), np.int64),
        z(K.N_INST, np.int64),
        z(K.N_INST, np.int64),
        z((1, N_SPARAMS), np.float64),
    )
    tb = Tables(
        z((1, K.N_CF), np.int64),
        z((1, K.N_VF), np.int64),
        z((1, 30), np.int64),
        z((1, 15), np.int64),
        z((1, K.N_LOC, K.MAX_SYMBOLS, K.N_SY), np.int64),
        z((1, K.N_LOC, K.N_LC), np.int64),
        z((1, K.N_INST), np.int64),
    )
    return numba.typeof(st), numba.typeof(tb), numba.typeof(z(K.N_RULES, np.int64))


ARG_TYPES = _engine_arg_types() + (types.int64,) * 5


def _bind_heuristic() -> None:
    heuristic_choose_nb.compile(ARG_TYPES)
    cres = heuristic_choose_nb.overloads[ARG_TYPES]
    address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    if not address:
        raise RuntimeError("the heuristic strategy kernel has no native entry point")
    ll.add_symbol(HEURISTIC_SYMBOL, address)


@intrinsic
def _call_heuristic(typingctx, st, tb, ru, realm, player, kind, ctx, n):
    if (st, tb, ru) != ARG_TYPES[:3]:
        raise TypingError(f"the heuristic strategy is bound for {ARG_TYPES[:3]}, called with {(st, tb, ru)}")
    sig = types.int64(st, tb, ru, realm, player, kind, ctx, n)

    def codegen(context, builder, signature, args):
        args = list(args[:3]) + [
            context.cast(builder, v, t, types.int64) for v, t in zip(args[3:], signature.args[3:], strict=True)
        ]
        fnty = context.call_conv.get_function_type(types.int64, ARG_TYPES)
        fn = cgutils.get_or_insert_function(builder.module, fnty, HEURISTIC_SYMBOL)
        status, res = context.call_conv.call_function(builder, fn, types.int64, ARG_TYPES, args)
        with builder.if_then(status.is_error, likely=False):
            context.call_conv.return_status_propagate(builder, status)
        return res

    return sig, codegen


if numba.config.DISABLE_JIT:
    call_heuristic = heuristic_choose_nb
else:
    _bind_heuristic()
    call_heuristic = _call_heuristic


@kernel
def choose_nb(st, tb, ru):
    """Index in ``st.opts`` the deciding seat's strategy picks for the waiting decision (0 random, 1 heuristic)."""
    player = st.g[K.G_PEND_PLAYER]
    realm = st.g[K.G_PEND_REALM]
    kind = st.g[K.G_PEND_KIND]
    ctx = st.g[K.G_PEND_CTX]
    n = st.g[K.G_PEND_N]
    if st.sv[player, K.SV_STRATEGY] == 1:
        return call_heuristic(st, tb, ru, realm, player, kind, ctx, n)
    return random_choose_nb(st, tb, ru, realm, player, kind, ctx, n)


@kernel
def play_nb(st, tb, ru, max_steps):
    """Play ``max_steps`` more steps (or to the end), each seat's strategy answering its decisions."""
    end = st.g[K.G_STEPS] + max_steps
    while advance_nb(st, tb, ru, end - st.g[K.G_STEPS]):
        apply_nb(st, choose_nb(st, tb, ru))


@numba.njit(parallel=True, **JIT_FLAGS)
def play_batch_nb(
    tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, out_games, out_turns, out_flags
):
    """Play games ``first_index .. first_index + n - 1``.

    seat_villains: int64 (n, P) villain row of each seat, seat 0 first.
    seat_slots: int64 (n, P) strategy slot of each seat; slot_kernels int64 (S,) and slot_params float64
    (S, N_SPARAMS) give each slot's kernel id and parameters.
    out_games: int64 (n, 5) winner seat (-1 none), end reason, rounds, steps, decisions.
    out_turns: int64 (n, P) turns taken by each seat.
    out_flags: int8 (n, P, 45) FLAG_DRAWN | FLAG_PLAYED per card instance, or shape (0, P, 45) to skip.
    """
    n = seat_villains.shape[0]
    P = seat_villains.shape[1]
    for i in prange(n):
        st = new_state_nb(P, 0)
        kernels = np.empty(P, np.int64)
        params = np.empty((P, N_SPARAMS), np.float64)
        for s in range(P):
            kernels[s] = slot_kernels[seat_slots[i, s]]
            params[s, :] = slot_params[seat_slots[i, s], :]
        setup_nb(st, tb, ru, seat_villains[i], kernels, params, seed, first_index + np.uint64(i))
        play_nb(st, tb, ru, ALL_STEPS)
        out_games[i, 0] = st.g[K.G_WINNER]
        out_games[i, 1] = st.g[K.G_END]
        out_games[i, 2] = min(st.g[K.G_ROUND], ru[K.R_MAX_TURNS])
        out_games[i, 3] = st.g[K.G_STEPS]
        out_games[i, 4] = st.g[K.G_DECISIONS]
        for s in range(P):
            out_turns[i, s] = st.sv[s, K.SV_TURNS]
        if out_flags.shape[0] > 0:
            for s in range(P):
                for k in range(K.N_INST):
                    out_flags[i, s, k] = st.inst[s, k, K.I_FLAGS]
