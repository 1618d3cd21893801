"""The flags every kernel is compiled with, and where compiled kernels are cached.

numba links the compiled code of every callee into each caller and optimises the result again, so a
deep call graph of separately compiled functions costs time that grows with the square of its depth.
The top of the turn driver is therefore made of ``helper``s, inlined into their caller at numba-IR level.

numba's cache is keyed on each function's own source file only: a kernel does not notice that a constant
it uses (``const.py``) or a kernel it calls changed in another file. The cache therefore lives in a
directory named after a hash of every kernel and strategy source, so any change starts a fresh cache.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba import njit

JIT_FLAGS = {"cache": True, "nogil": True}

_ROOT = Path(__file__).resolve().parents[2]


def _source_hash() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for folder in (_ROOT / "simlab" / "kernels", _ROOT / "strategies"):
        for path in sorted(folder.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "simlab-numba"
    )
    return os.path.join(base, _source_hash())


numba.config.CACHE_DIR = _cache_dir()


def kernel(fn):
    """A separately compiled kernel."""
    return njit(**JIT_FLAGS)(fn)


def helper(fn):
    """A kernel inlined into its callers."""
    return njit(inline="always", **JIT_FLAGS)(fn)
