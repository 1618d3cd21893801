"""Dispatch a decision to the strategy kernel of the deciding seat (by integer kernel id).

``random`` (id 0) is small and compiled into the engine. The heuristic kernel (id 1, behind ``novice``,
``expert`` and ``fate-heavy``) is large: linked into the engine, its code would be copied into and
re-optimised with every engine kernel that can reach a decision. It is therefore compiled on its own,
for the one signature the engine calls it with, and called through a process-wide symbol: the engine's
compiled code refers to :data:`HEURISTIC_SYMBOL`, which this module binds to the heuristic's native entry
point at import, before any engine kernel is compiled or loaded from the cache.
"""

import llvmlite.binding as ll
import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from simlab.cards import Tables
from simlab.kernels import const as K
from simlab.kernels.jit import kernel
from simlab.kernels.state import N_SPARAMS, State
from strategies.heuristic import choose_nb as heuristic_choose_nb
from strategies.random import choose_nb as random_choose_nb

HEURISTIC_SYMBOL = "simlab_strategies_heuristic_choose_nb"


def _engine_arg_types() -> tuple:
    """numba types of (st, tb, ru) exactly as the engine passes them."""
    z = np.zeros
    st = State(
        z((1, K.N_INST, K.N_I), np.int64),
        z((1, K.N_VCARDS), np.int64),
        z((1, K.N_FCARDS), np.int64),
        z((1, K.N_SV), np.int64),
        z(K.N_G, np.int64),
        z(1, np.uint64),
        z((K.MAX_OPTS, 4), np.int64),
        z((K.MAX_OPTS, 4), np.int64),
        z(0, np.int64),
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
def choose_nb(kernel_id, st, tb, ru, realm, player, kind, ctx, n):
    """Index in ``st.opts[:n]`` chosen for ``player`` by strategy kernel ``kernel_id`` (0 random, 1 heuristic)."""
    if kernel_id == 1:
        return call_heuristic(st, tb, ru, realm, player, kind, ctx, n)
    return random_choose_nb(st, tb, ru, realm, player, kind, ctx, n)
