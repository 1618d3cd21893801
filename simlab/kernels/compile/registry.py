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
KERNELS: list[tuple[object, object, bool]] = []  # (dispatcher, its Python function, allocates), in declaration order
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


def add_kernel(dispatcher, fn, allocates: bool) -> None:
    """``dispatcher`` compiles ``fn``; ``allocates``: with numba's reference counting (an allocating kernel)."""
    KERNELS.append((dispatcher, fn, allocates))


def _names(code) -> set[str]:
    out = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            out |= _names(const)
    return out


def allocating_callees(fn, allocating: set[int] | None = None) -> list[str]:
    """The allocating kernels ``fn`` names, directly or as a module's attribute (``module.name_nb``)."""
    if allocating is None:
        allocating = {id(d) for d, _, allocates in KERNELS if allocates}
    names = _names(fn.__code__)
    found = []
    for name in sorted(names):
        target = fn.__globals__.get(name)
        if target is None:
            continue
        if id(target) in allocating:
            found.append(name)
        elif type(target).__name__ == "module":
            found += [f"{name}.{attr}" for attr in sorted(names) if id(getattr(target, attr, None)) in allocating]
    return found


def unsafe_calls() -> list[str]:
    """Every kernel declared without reference counting that calls an allocating one, as "module.kernel calls
    callee". numba refuses such a call only when it compiles the caller afresh ("Only accept returning of array
    passed into the function as argument"), so a warm cache hides it until a fresh clone: this finds it from the
    code alone, before anything compiles."""
    allocating = {id(d) for d, _, allocates in KERNELS if allocates}
    return [
        f"{fn.__module__}.{fn.__name__} calls {callee}"
        for _, fn, allocates in KERNELS
        if not allocates
        for callee in allocating_callees(fn, allocating)
    ]
