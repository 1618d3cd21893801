"""Bit tricks on int64 masks of card instances (bit k = instance k of a seat; 45 bits used).

``lowest_nb`` / ``count_nb`` compile to single machine instructions (LLVM's cttz and ctpop); walking a
mask with ``k = lowest_nb(m); m &= m - 1`` visits its instances in ascending order, as a ``for k in
range(45)`` loop with a zone test would, at the cost of the instances actually there.
"""

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from simlab.kernels.compile import helper

VILLAIN_BITS = (1 << 30) - 1  # instances 0-29: the Villain deck
FATE_BITS = ((1 << 45) - 1) ^ VILLAIN_BITS  # instances 30-44: the Fate deck


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


if numba.config.DISABLE_JIT:

    def lowest_nb(m):
        """Index of the lowest set bit of ``m`` (m != 0)."""
        return (int(m) & -int(m)).bit_length() - 1

    def count_nb(m):
        """Number of set bits of ``m``."""
        return int(m).bit_count()

else:

    @helper
    def lowest_nb(m):
        """Index of the lowest set bit of ``m`` (m != 0)."""
        return _cttz(numba.int64(m))

    @helper
    def count_nb(m):
        """Number of set bits of ``m``."""
        return _ctpop(numba.int64(m))
