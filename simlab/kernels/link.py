"""Calling a separately compiled kernel through a process-wide symbol instead of linking its code in.

numba links the compiled code of every callee into each separately compiled caller and optimises and
generates its machine code again there (see :mod:`simlab.kernels.jit`). A large kernel called from
several places (the heuristic strategy, the engine's ``advance_nb`` called from a search player) is
instead compiled once, on its own, for the one signature it is called with, and its native entry point
is registered under a symbol name (:func:`bind`); callers reach it through an intrinsic that emits a call
to that symbol (:func:`caller`), so their own code stays small. A symbol must be bound before any of its
callers is compiled or loaded from the cache: the driver binds every strategy kernel and their callees
when it is imported (:mod:`simlab.game.driver`).
"""

import inspect

import llvmlite.binding as ll
import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from simlab.kernels import const as K
from simlab.kernels.ref import RefType
from simlab.kernels.state import Tables, new_state

_BOUND: dict[str, int] = {}
# A compile-only process (simlab.game.warmup's parallel cold start) defers compiling: bind() and fill() register a
# stub address instead, so kernels that call the symbol can be compiled (and cached) before the callee exists
# anywhere, and note what they would have compiled in DEFERRED, for the process to compile on request. Its
# code never runs: the cached object code keeps its references to the symbols by name, resolved when a
# playing process loads it after binding the real kernels.
_DEFER = False
DEFERRED: dict[str, tuple] = {}  # symbol (or table entry's kernel) name -> (dispatcher, argtypes), in bind order
_STUBBED: set[str] = set()
_RESTYPES: dict = {}  # symbol -> the return type its callers are compiled for (caller())
CALLS: dict[str, tuple] = {}  # symbol or table -> the argument types every call passes (caller(), table_caller())
_STUB = None


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


def engine_arg_types() -> tuple:
    """numba types of (st, tb, ru) exactly as every driver passes them (arrays allocated by numpy or numba)."""
    z = np.zeros
    st = new_state(1, 0)
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


ENGINE_TYPES = engine_arg_types()
# the same, as the routines take them: one pointer to each tuple, and to the rules' data (simlab/kernels/ref.py)
ENGINE_REF_TYPES = (RefType(ENGINE_TYPES[0]), RefType(ENGINE_TYPES[1]), types.CPointer(types.int64))
STRATEGY_ARG_TYPES = ENGINE_TYPES + (types.int64,) * 5  # (st, tb, ru, realm, player, kind, ctx, n)


def symbol_name(dispatcher) -> str:
    """The symbol a kernel is bound as: its module and name (``simlab_strategies_heuristic_choose_choose_nb``)."""
    fn = getattr(dispatcher, "py_func", dispatcher)  # a plain function under NUMBA_DISABLE_JIT
    return "simlab_" + f"{fn.__module__}.{fn.__name__}".replace(".", "_")


def bind(dispatcher, argtypes: tuple) -> str:
    """Compile ``dispatcher`` for ``argtypes`` (or load it from the cache) and register its entry point as
    its :func:`symbol_name` (once per process); the symbol's name."""
    if numba.config.DISABLE_JIT:  # plain Python functions: nothing to bind
        return ""
    symbol = symbol_name(dispatcher)
    if symbol in _BOUND:
        return symbol
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
            f"{symbol} returns {cres.signature.return_type}, its callers expect {_RESTYPES[symbol]} (see caller())"
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


def caller(dispatcher, argtypes: tuple, restype):
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
