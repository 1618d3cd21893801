"""Compile numba's functions with frame pointers, so that ``perf record -g`` can walk the jitted calls.

``benchmarks/profile_engine.py --call-graph`` puts this directory first on ``PYTHONPATH`` (so that the processes a
cold start compiles in load it too), sets ``SIMLAB_FRAME_POINTERS=1`` and a numba cache of its own. Every LLVM
function numba defines gets the ``"frame-pointer"="all"`` attribute; the code is otherwise the same.
"""

import os
import re

if os.environ.get("SIMLAB_FRAME_POINTERS") == "1":
    import numba.core.cgutils as _cgutils

    _normalize = _cgutils.normalize_ir_text
    _DEFINE = re.compile(r"^(define [^\n]*)$", re.MULTILINE)  # llvmlite prints a definition's "{" on the next line

    def _with_frame_pointers(text):
        return _DEFINE.sub(lambda m: m.group(1) + ' "frame-pointer"="all"', _normalize(text))

    _cgutils.normalize_ir_text = _with_frame_pointers
