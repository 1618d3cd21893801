"""The flags every kernel is compiled with, and where compiled kernels are cached.

numba links the compiled code of every callee into each caller and optimises the result again, so a
deep call graph of separately compiled functions costs time that grows with the square of its depth.
The engine's routines are therefore ``helper``s, inlined into their one dispatcher at numba-IR level, and
the heuristic strategy is not linked into the driver at all: the driver calls it through a symbol
(``simlab/driver.py``), so it compiles once, on its own.

numba's cache is keyed on each function's own source file only: a kernel does not notice that a constant
it uses (``const.py``) or a kernel it calls changed in another file. The cache therefore lives in a
directory named after a hash of the sources it depends on: the engine's (the kernels, the driver and the
``random`` strategy it links) and, separately, the strategies' (the kernels they read plus the
strategies), so editing a strategy recompiles only the strategies; the search player, which reads the
other strategies and is read by none, has its own.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba import njit

JIT_FLAGS = {"cache": True, "nogil": True}

_ROOT = Path(__file__).resolve().parents[2]
# the invariant checks (tests and benchmarks only) are cached apart: editing them recompiles nothing else
_CHECKS = _ROOT / "simlab" / "invariants.py"
_KERNELS = sorted(p for p in (_ROOT / "simlab" / "kernels").glob("*.py") if p != _CHECKS)
_STRATEGIES = sorted((_ROOT / "strategies").glob("*.py"))
_DRIVER = _ROOT / "simlab" / "driver.py"
_ENGINE_LINKED = ("strategies.random",)  # strategy modules compiled into the driver itself
_PLAYERS = ("strategies.search",)  # strategy modules that play other strategies (cached apart: see below)


def _source_hash(paths) -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for path in paths:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_base() -> str:
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "simlab-numba"
    )


ENGINE_CACHE_DIR = os.path.join(
    _cache_base(), "engine-" + _source_hash(_KERNELS + [_DRIVER] + [p for p in _STRATEGIES if p.stem == "random"])
)
STRATEGY_CACHE_DIR = os.path.join(
    _cache_base(),
    "strategies-" + _source_hash(_KERNELS + [p for p in _STRATEGIES if f"strategies.{p.stem}" not in _PLAYERS]),
)
# A player (the search strategy) links parts of the other strategies, which never read it: editing it
# recompiles only itself.
PLAYER_CACHE_DIR = os.path.join(_cache_base(), "players-" + _source_hash(_KERNELS + _STRATEGIES))
_RANDOM = [p for p in _STRATEGIES if p.stem == "random"]
CHECKS_CACHE_DIR = os.path.join(_cache_base(), "checks-" + _source_hash(_KERNELS + [_DRIVER, _CHECKS] + _RANDOM))

numba.config.CACHE_DIR = ENGINE_CACHE_DIR


def _decorate(fn, **flags):
    # numba picks the cache directory when the dispatcher is created.
    separate = fn.__module__.startswith("strategies.") and fn.__module__ not in _ENGINE_LINKED
    checks = fn.__module__ == "simlab.invariants"
    numba.config.CACHE_DIR = STRATEGY_CACHE_DIR if separate else CHECKS_CACHE_DIR if checks else ENGINE_CACHE_DIR
    if fn.__module__ in _PLAYERS:
        numba.config.CACHE_DIR = PLAYER_CACHE_DIR
    try:
        return njit(**flags, **JIT_FLAGS)(fn)
    finally:
        numba.config.CACHE_DIR = ENGINE_CACHE_DIR


# Kernels only read and write arrays they are given, so they run without numba's reference counting
# (NRT, numba's ``_nrt`` option): with it, every call increfed and decrefed each of the ~20 arrays of
# (State, Tables) on entry and exit, atomically, and kept LLVM from optimising across calls; games ran
# 4.5-5.7x slower. Such a kernel must never allocate an array or hand one back (a view it returned would
# be released by its caller without having been counted).
def kernel(fn):
    """A separately compiled kernel (no allocation: see above)."""
    return _decorate(fn, _nrt=False)


def helper(fn):
    """A kernel inlined into its callers (no allocation)."""
    return _decorate(fn, inline="always", _nrt=False)


def allocating_kernel(fn):
    """A separately compiled kernel that allocates arrays (with reference counting)."""
    return _decorate(fn)


def batch_kernel(fn):
    """A kernel that plays many games in parallel (``prange``), allocating each game's state."""
    return _decorate(fn, parallel=True)
