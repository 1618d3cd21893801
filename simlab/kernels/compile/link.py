"""Calling a separately compiled kernel through a process-wide symbol or a table instead of linking its code in.

numba links the compiled code of every callee into each separately compiled caller and optimises and generates its
machine code again there (see :mod:`simlab.kernels.compile.flags`). A large kernel called from several places is
instead declared a part (``@part(...)``): compiled once, on its own, for the one signature its decorator declares,
and its native entry point registered under a symbol name (:func:`bind`); callers write ``name.call(...)``, an
intrinsic that emits a call to that symbol, so their own code stays small. A symbol must be bound before any of its
callers is compiled or loaded from the cache: :func:`bind` binds first every part the kernel's code reaches (found
from the kernels its source names), and :func:`bind_all` binds every declared part and fills every table before the
first game (the driver calls it when imported).
"""

import inspect
import types as pytypes

import llvmlite.binding as ll
import numba
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic, lower_getattr

from simlab.kernels.compile import registry

_BOUND: dict[str, int] = {}
# A compile-only process (a parallel cold start's) defers compiling: bind() and fill() register a
# stub address instead, so kernels that call the symbol can be compiled (and cached) before the callee exists
# anywhere, and note what they would have compiled in DEFERRED, for the process to compile on request. Its
# code never runs: the cached object code keeps its references to the symbols by name, resolved when a
# playing process loads it after binding the real kernels.
_DEFER = False
DEFERRED: dict[str, tuple] = {}  # symbol (or table entry's kernel) name -> (dispatcher, argtypes), in bind order
_STUBBED: set[str] = set()
_RESTYPES: dict = {}  # symbol -> the return type its callers are compiled for (_caller())
CALLS: dict[str, tuple] = {}  # symbol or table -> the argument types every call passes (parts' calls, table_caller())
_STUB = None
_REACHED: dict[int, tuple] = {}  # id of a dispatcher -> _parts_reached(it)
_BINDING: set[str] = set()  # symbols whose callees are being bound (a part calling itself back waits for its turn)


def defer_compiling() -> None:
    """Make this process compile-only (see above); it must never play a game afterwards."""
    global _DEFER, _STUB
    import ctypes

    _DEFER = True
    _STUB = (ctypes.c_int64 * 1)()  # any valid address: nothing here calls it


def _defer(dispatcher, argtypes: tuple) -> str:
    symbol = symbol_name(dispatcher)
    DEFERRED.setdefault(symbol, (dispatcher, argtypes))
    return symbol


def symbol_name(dispatcher) -> str:
    """The symbol a kernel is bound as: its module and name (``simlab_strategies_heuristic_choose_choose_nb``)."""
    fn = getattr(dispatcher, "py_func", dispatcher)  # a plain function under NUMBA_DISABLE_JIT
    return "simlab_" + f"{fn.__module__}.{fn.__name__}".replace(".", "_")


def _kernels_named(fn) -> list:
    """The dispatchers the source of ``fn`` names: globals, and attributes of modules it names."""
    out = []
    names: set[str] = set()
    todo = [fn.__code__]
    while todo:
        code = todo.pop()
        names.update(code.co_names)
        todo.extend(c for c in code.co_consts if hasattr(c, "co_names"))
    g = fn.__globals__
    for name in sorted(names):
        value = g.get(name)
        if isinstance(value, pytypes.ModuleType):
            out.extend(getattr(value, n, None) for n in sorted(names))
        else:
            out.append(value)
    return [d for d in out if hasattr(d, "py_func")]


def _parts_reached(dispatcher) -> tuple:
    """The parts the code of ``dispatcher`` calls through their symbols, itself or through the kernels linked into
    it (memoised: the kernels' sources do not change in a process)."""
    key = id(dispatcher)
    if key not in _REACHED:
        _REACHED[key] = ()  # a kernel calling itself back ends the walk here
        out = []
        for callee in _kernels_named(dispatcher.py_func):
            part = registry.PARTS.get(symbol_name(callee))
            out.extend((callee,) if part is not None and part.dispatcher is callee else _parts_reached(callee))
        _REACHED[key] = tuple(dict.fromkeys(out))
    return _REACHED[key]


def _bind_callees(dispatcher) -> None:
    """Bind every part the code of ``dispatcher`` reaches, each after its own callees."""
    for callee in _parts_reached(dispatcher):
        bind(callee, registry.PARTS[symbol_name(callee)].argtypes)


def bind(dispatcher, argtypes: tuple) -> str:
    """Compile ``dispatcher`` for ``argtypes`` (or load it from the cache), after binding the parts it calls, and
    register its entry point as its :func:`symbol_name` (once per process); the symbol's name."""
    if numba.config.DISABLE_JIT:  # plain Python functions: nothing to bind
        return ""
    symbol = symbol_name(dispatcher)
    if symbol in _BOUND or symbol in _BINDING:
        return symbol
    _BINDING.add(symbol)
    try:
        _bind_callees(dispatcher)
    finally:
        _BINDING.discard(symbol)
    if _DEFER:
        if symbol not in _STUBBED:
            import ctypes

            ll.add_symbol(symbol, ctypes.addressof(_STUB))
            _STUBBED.add(symbol)
        return _defer(dispatcher, argtypes)
    dispatcher.compile(argtypes)
    cres = dispatcher.overloads[argtypes]
    if symbol in _RESTYPES and types.unliteral(cres.signature.return_type) != _RESTYPES[symbol]:
        raise TypeError(
            f"{symbol} returns {cres.signature.return_type}, its callers expect {_RESTYPES[symbol]} (see _caller())"
        )
    address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    if not address:
        raise RuntimeError(f"kernel {dispatcher.__name__} has no native entry point")
    ll.add_symbol(symbol, address)
    _BOUND[symbol] = address
    return symbol


def _args_fit(args: tuple, argtypes: tuple) -> bool:
    """A call's argument types fit a bound kernel's: exactly, or an integer for an int64 or float64 argument (the
    call casts it)."""
    return all(
        a == t or (t in (types.int64, types.float64) and isinstance(a, types.Integer))
        for a, t in zip(args, argtypes, strict=True)
    )


def _caller(dispatcher, argtypes: tuple, restype):
    """A function for kernels to call: ``dispatcher`` itself without the JIT, else an intrinsic calling its
    symbol, which must be bound (:func:`bind`) before a kernel calling it is compiled or loaded from the
    cache. The arguments must have exactly ``argtypes``, integers excepted (cast to an int64 or float64 argument)."""
    if numba.config.DISABLE_JIT:
        return dispatcher
    symbol = symbol_name(dispatcher)
    _RESTYPES[symbol] = restype
    CALLS[symbol] = argtypes
    n = len(argtypes)

    def typer(typingctx, *args):
        if len(args) != n:
            raise TypingError(f"{symbol} takes {n} arguments, got {len(args)}")
        if not _args_fit(args, argtypes):
            raise TypingError(f"{symbol} is bound for {argtypes}, called with {args}")
        sig = restype(*args)
        bind(dispatcher, argtypes)  # compiling a caller: make sure the callee's symbol exists

        def codegen(context, builder, signature, values):
            values = [context.cast(builder, v, a, t) for v, a, t in zip(values, signature.args, argtypes, strict=True)]
            fnty = context.call_conv.get_function_type(restype, argtypes)
            fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
            status, res = context.call_conv.call_function(builder, fn, restype, argtypes, values)
            with builder.if_then(status.is_error, likely=False):
                context.call_conv.return_status_propagate(builder, status)
            return res

        return sig, codegen

    def typing(typingctx, *args):
        return typer(typingctx, *args)

    # numba reads the typing function's signature for the argument names
    P = inspect.Parameter
    typing.__signature__ = inspect.Signature(
        [P("typingctx", P.POSITIONAL_OR_KEYWORD)] + [P(f"a{i}", P.POSITIONAL_OR_KEYWORD) for i in range(n)]
    )
    typing.__name__ = typing.__qualname__ = f"call_{symbol}"
    return intrinsic(typing)


def declare_part(dispatcher, argtypes: tuple, restype, lazy: bool = False) -> None:
    """Register ``dispatcher`` as a part bound for ``argtypes`` and give it ``.call``, its symbol call (itself
    without the JIT)."""
    registry.add_part(symbol_name(dispatcher), registry.Part(dispatcher, argtypes, restype, lazy))
    dispatcher.call = _caller(dispatcher, argtypes, restype)


def bind_all(lazy: bool = False) -> None:
    """Bind every declared part, each after the parts it calls, and run every table's binder (once per process;
    ``lazy``: the parts and binders bound on first use too). A kernel without reference counting that calls an
    allocating one is refused first (:func:`registry.unsafe_calls`)."""
    unsafe = registry.unsafe_calls()
    if unsafe:
        raise RuntimeError(
            "declare these kernels @allocating_kernel (or @allocating_entry_kernel), since they call one that "
            "allocates: " + "; ".join(unsafe)
        )
    for part in list(registry.PARTS.values()):
        if lazy or not part.lazy:
            bind(part.dispatcher, part.argtypes)
    for binder, on_use in list(registry.BINDERS):
        if lazy or not on_use:
            binder()


@infer_getattr
class _PartCall(AttributeTemplate):
    """``name.call`` of a part, read in a kernel: the intrinsic calling its symbol (declare_part)."""

    key = types.Dispatcher

    def resolve_call(self, ty):
        target = getattr(ty.dispatcher, "call", None)
        return None if target is None else self.context.resolve_value_type(target)


@lower_getattr(types.Dispatcher, "call")
def _part_call_value(context, builder, ty, value):
    return context.get_dummy_value()  # a call of an intrinsic is lowered from its type, not from a value


# ---------------------------------------------------------------------------- tables of kernels

# A table of kernels is a process-wide array of native entry points, registered as a symbol when this module
# is imported (so it exists before any kernel that reads it is compiled or loaded from the cache) and filled
# at bind time (:func:`fill`). A caller reaches entry ``i`` through an intrinsic that loads the address and
# calls it (:func:`table_caller`): the caller's code does not change when an entry is added, so neither does
# its cache. Without the JIT, the table holds the Python functions.
_TABLES: dict[str, object] = {}
_PY_TABLES: dict[str, dict[int, object]] = {}


def _table(name: str, size: int):
    if name not in _TABLES:
        import ctypes

        array = (ctypes.c_int64 * size)()
        _TABLES[name] = array
        _PY_TABLES[name] = {}
        ll.add_symbol(name, ctypes.addressof(array))
    return _TABLES[name]


def fill(name: str, size: int, index: int, dispatcher, argtypes: tuple) -> None:
    """Compile ``dispatcher`` for ``argtypes`` (or load it from the cache) and make it entry ``index`` of
    table ``name``."""
    array = _table(name, size)
    if not 0 <= index < size:
        raise IndexError(f"{name} has {size} entries, not {index}")
    _PY_TABLES[name][index] = getattr(dispatcher, "py_func", dispatcher)
    if numba.config.DISABLE_JIT:
        return
    _bind_callees(dispatcher)
    if _DEFER:  # the entry stays empty: this process never plays
        _defer(dispatcher, argtypes)
        return
    dispatcher.compile(argtypes)
    cres = dispatcher.overloads[argtypes]
    address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    if not address:
        raise RuntimeError(f"kernel {dispatcher.__name__} has no native entry point")
    array[index] = address


def table_reader(name: str, size: int):
    """A function for kernels to call as ``f(i)``: the int64 value entry ``i`` of table ``name`` holds (set by
    :func:`set_value`; 0 until then). A table of values, not of kernels: what a kernel may skip asking for."""
    array = _table(name, size)
    if numba.config.DISABLE_JIT:
        return lambda i: array[i]

    def typing(typingctx, index):
        if not isinstance(index, types.Integer):
            raise TypingError(f"{name} is read at an integer index, not {index}")

        def codegen(context, builder, signature, values):

            i = context.cast(builder, values[0], signature.args[0], types.int64)
            return _load_entry(builder, name, size, i)

        return types.int64(index), codegen

    typing.__name__ = typing.__qualname__ = f"read_{name}"
    return intrinsic(typing)


def set_value(name: str, size: int, index: int, value: int) -> None:
    """Entry ``index`` of table ``name`` (see :func:`table_reader`) holds ``value``."""
    if not 0 <= index < size:
        raise IndexError(f"{name} has {size} entries, not {index}")
    _table(name, size)[index] = value


def filled(name: str, size: int) -> set[int]:
    """The entries of table ``name`` that are filled."""
    _table(name, size)
    return set(_PY_TABLES[name])


def _load_entry(builder, name: str, size: int, i):
    """LLVM IR loading entry ``i`` (an int64 value) of table ``name``, declared in the caller's module as an
    external global the process resolves to the table's array."""
    from llvmlite import ir

    gv = builder.module.globals.get(name)
    if gv is None:
        gv = ir.GlobalVariable(builder.module, ir.ArrayType(ir.IntType(64), size), name)
        gv.linkage = "external"
    return builder.load(builder.gep(gv, [ir.Constant(ir.IntType(32), 0), i]))


def table_caller(name: str, size: int, argtypes: tuple, restype):
    """A function for kernels to call as ``f(i, *args)``: entry ``i`` of table ``name`` (filled by
    :func:`fill` before it is called; an empty entry is an error the caller must rule out)."""
    _table(name, size)
    CALLS[name] = argtypes
    if numba.config.DISABLE_JIT:
        py = _PY_TABLES[name]

        def call(i, *args):
            return py[i](*args)

        return call
    n = len(argtypes)

    def typer(typingctx, index, *args):
        if len(args) != n:
            raise TypingError(f"{name} entries take {n} arguments, got {len(args)}")
        if not _args_fit(args, argtypes):
            raise TypingError(f"{name} entries take {argtypes}, called with {args}")
        sig = restype(index, *args)

        def codegen(context, builder, signature, values):

            i = context.cast(builder, values[0], signature.args[0], types.int64)
            values = [
                context.cast(builder, v, a, t) for v, a, t in zip(values[1:], signature.args[1:], argtypes, strict=True)
            ]
            fnty = context.call_conv.get_function_type(restype, argtypes)
            address = _load_entry(builder, name, size, i)
            fn = builder.inttoptr(address, fnty.as_pointer())
            status, res = context.call_conv.call_function(builder, fn, restype, argtypes, values)
            with builder.if_then(status.is_error, likely=False):
                context.call_conv.return_status_propagate(builder, status)
            return res

        return sig, codegen

    def typing(typingctx, index, *args):
        return typer(typingctx, index, *args)

    P = inspect.Parameter
    typing.__signature__ = inspect.Signature(
        [P("typingctx", P.POSITIONAL_OR_KEYWORD), P("index", P.POSITIONAL_OR_KEYWORD)]
        + [P(f"a{i}", P.POSITIONAL_OR_KEYWORD) for i in range(n)]
    )
    typing.__name__ = typing.__qualname__ = f"call_{name}"
    return intrinsic(typing)
