"""The patches of numba's internals simlab compiles with, one module each.

Each module holds one patch: ``apply()`` patches numba and says whether it did (True), and ``CHECKED_ON`` names the
numba versions its expectations of numba's code were checked on. A patch first checks that numba's code looks as it
expects; where it does not, it patches nothing and compiling (or the compiled code) is only slower, never different.
:func:`apply_all` applies them all once, when the compile seam is imported; :func:`not_applied` names the ones that
did not apply, which ``simlab warmup`` and a cold compile print.
"""

from __future__ import annotations

import numba

from simlab.kernels.compile.patches import (
    call_slots,
    copy_inlined_ir,
    flag_values,
    index_as_given,
    ir_variables,
    plain_errors,
)

PATCHES = (copy_inlined_ir, call_slots, flag_values, plain_errors, ir_variables, index_as_given)
APPLIED: dict[str, bool] = {}  # patch module's short name -> whether it applied in this process


def name_of(patch) -> str:
    return patch.__name__.rpartition(".")[2]


def apply_all() -> dict[str, bool]:
    """Apply every patch (once per process); each patch's name -> whether it applied."""
    for patch in PATCHES:
        if name_of(patch) not in APPLIED:
            APPLIED[name_of(patch)] = bool(patch.apply())
    return dict(APPLIED)


def not_applied() -> list[str]:
    """What the patches that did not apply cost, one line each (empty when all applied)."""
    out = []
    for patch in PATCHES:
        if not APPLIED.get(name_of(patch), True):
            checked = ", ".join(patch.CHECKED_ON)
            out.append(
                f"numba patch {name_of(patch)!r} did not apply to numba {numba.__version__} (checked on {checked}): "
                f"{patch.COST}"
            )
    return out
