"""What the compile seam knows of the kernels declared through it: the modules that declare them and the parts.

A part is a kernel compiled on its own for the argument types its decorator declares and called through a
process-wide symbol (:func:`simlab.kernels.compile.flags.part`, :mod:`simlab.kernels.compile.link`). A binder fills
one of the tables of kernels (the engine's routines, the villains' abilities, the plans), registered by the module
that owns the table. :func:`simlab.kernels.compile.link.bind_all` binds every part, callees first, then runs every
binder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    dispatcher: object
    argtypes: tuple
    restype: object
    lazy: bool  # bound on first use (bind_all(lazy=True)), not when the driver starts


PARTS: dict[str, Part] = {}  # symbol -> part, in declaration order
BINDERS: list[tuple[Callable[[], None], bool]] = []  # (fills a table, lazy), in registration order
_MODULES: list[str] = []  # every module that declared a kernel, in order
_own: tuple[str, ...] = ()
_own_names: dict[str, bool] = {}  # LLVM function name -> own_code(name), asked once per function lowered


def mangled(module: str) -> str:
    """The start of the LLVM name numba gives a function of ``module`` (Itanium-mangled, ``_ZN6simlab7kernels...``)."""
    return "_ZN" + "".join(f"{len(p)}{p}" for p in module.split("."))


def declare_module(module: str) -> None:
    """``module`` declares kernels through the compile seam."""
    global _own
    if module not in _MODULES:
        _MODULES.append(module)
        # a module's prefix followed by its next part's length: module "a.b" does not claim module "a.bc"
        _own = tuple(mangled(m) + d for m in _MODULES for d in "0123456789")
        _own_names.clear()


def own_code(llvm_name: str) -> bool:
    """The LLVM function ``llvm_name`` was compiled from a module that declares kernels here."""
    own = _own_names.get(llvm_name)
    if own is None:
        own = _own_names[llvm_name] = llvm_name.startswith(_own)
    return own


def modules() -> tuple[str, ...]:
    return tuple(_MODULES)


def add_part(symbol: str, part: Part) -> None:
    PARTS.setdefault(symbol, part)


def add_binder(binder: Callable[[], None], lazy: bool = False) -> None:
    """``binder()`` fills a table of kernels (once per process; it must be cheap to call again)."""
    if all(b is not binder for b, _ in BINDERS):
        BINDERS.append((binder, lazy))
