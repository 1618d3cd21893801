"""The flags every kernel is compiled with.

numba links the compiled code of every callee into each caller and optimises the result again, so a
deep call graph of separately compiled functions costs time that grows with the square of its depth.
Most functions are therefore ``helper``s, inlined into their callers at numba-IR level; only a few
hubs (entry points, the decision point, the Effect resolver) are compiled on their own.
"""

from numba import njit

JIT_FLAGS = {"cache": True, "nogil": True}


def kernel(fn):
    """A separately compiled kernel (an entry point or a hub)."""
    return njit(**JIT_FLAGS)(fn)


def helper(fn):
    """A kernel inlined into its callers."""
    return njit(inline="always", **JIT_FLAGS)(fn)
