"""The flags every kernel is compiled with, and where compiled kernels are cached.

numba links the compiled code of every callee into each caller and optimises the result again, so a
deep call graph of separately compiled functions costs time that grows with the square of its depth.
The large kernels (the engine's routines, the villains' routines, the heuristic's largest scoring kernels)
are therefore compiled once each and called through symbols or tables (:mod:`simlab.kernels.link`), and a
cold start compiles them in parallel processes (:mod:`simlab.game.warmup`).

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

# numpy's error model: a division by zero gives inf or NaN (integers: 0) instead of raising, so no division
# carries a zero test and a raise path. No game divides by zero (the regression fixture plays the same games);
# the weights the heuristic divides by are refused at 0 when a strategy file is read (heuristic.params.DIVISORS).
JIT_FLAGS = {"cache": True, "nogil": True, "error_model": "numpy"}

_ROOT = Path(__file__).resolve().parents[2]


def _module_file(name: str) -> Path:
    """The source file of module ``name`` (dotted), found from the tree without importing it."""
    path = _ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


# The modules whose kernels are cached apart from the engine's, by the dotted name numba sees (fn.__module__).
# the invariant checks (tests and benchmarks only): editing them recompiles nothing else
_CHECKS_MODULE = "simlab.game.invariants"
_DRIVER_MODULE = "simlab.game.driver"
_ENGINE_LINKED = ("strategies.random",)  # strategy modules compiled into the driver itself
_PLAYERS = ("strategies.search",)  # strategy modules that play other strategies (cached apart: see below)

_CHECKS = _module_file(_CHECKS_MODULE)
# with the kernels, a villain folder's queries (queries.py), which its routines and its plan both call: numba's
# cache, keyed on the caller's source, would not see them change
_KERNELS = sorted(p for p in (_ROOT / "simlab" / "kernels").rglob("*.py") if p != _CHECKS)
_KERNELS += sorted((_ROOT / "simlab" / "villains").glob("*/queries.py"))
# strategies/plans/<villain>.py are strategy code too (each villain's plan), as is every sub-package
_STRATEGIES = sorted((_ROOT / "strategies").rglob("*.py"))
_DRIVER = _module_file(_DRIVER_MODULE)


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


_RANDOM = [_module_file(m) for m in _ENGINE_LINKED]
ENGINE_CACHE_DIR = os.path.join(_cache_base(), "engine-" + _source_hash(_KERNELS + [_DRIVER] + _RANDOM))
STRATEGY_CACHE_DIR = os.path.join(
    _cache_base(),
    "strategies-" + _source_hash(_KERNELS + [p for p in _STRATEGIES if p not in map(_module_file, _PLAYERS)]),
)
# A player (the search strategy) links parts of the other strategies, which never read it: editing it
# recompiles only itself.
PLAYER_CACHE_DIR = os.path.join(_cache_base(), "players-" + _source_hash(_KERNELS + _STRATEGIES))
CHECKS_CACHE_DIR = os.path.join(_cache_base(), "checks-" + _source_hash(_KERNELS + [_DRIVER, _CHECKS] + _RANDOM))

numba.config.CACHE_DIR = ENGINE_CACHE_DIR


def _source(obj) -> str:
    """The source of numba's ``obj``, to check it looks as a patch expects ("" if it cannot be read)."""
    import inspect

    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def _run_with_global(module, name: str, make, method):
    """``method`` (a numba method) made to run with ``module.<name>`` set to ``make()``, and put back after (numba
    compiles under its global lock: one compilation at a time)."""
    original = getattr(module, name)

    def run(self, *args, **kwargs):
        setattr(module, name, make())
        try:
            return method(self, *args, **kwargs)
        finally:
            setattr(module, name, original)

    return run


def _copy_inlined_ir_once() -> bool:
    """Make numba copy a ``helper``'s IR in one pass when it inlines it (compile time only; the same code).

    numba's ``InlineWorker.inline_ir`` deep-copies the callee's IR block by block, each block with a fresh
    memo, so every block drags along its own copy of the function's whole variable scope: the work grows
    with blocks x variables. For the villains' ability routines (large helpers with a few hundred blocks) that
    was about 60% of their compile time (the largest ``ability_r``: 28.6 s of 47 s in ``copy.deepcopy`` under
    cProfile). One memo for the whole inlining copies each object once, as one ``deepcopy`` of all the blocks
    would; an IR ``Loc`` keeps its read-only source-line cache instead of copying it. Where numba's code does
    not look as expected nothing is patched: compiling is only slower.
    """
    import copy
    import types

    from numba.core import inline_closurecall, ir

    worker = getattr(inline_closurecall, "InlineWorker", None)
    if worker is None or getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return False
    if getattr(worker.inline_ir, "simlab_copies_once", False):
        return True

    def copying_once():  # a fresh memo for each inlining
        memo: dict = {}

        def deepcopy(x, m=None):
            return copy.deepcopy(x, memo if m is None else m)

        return types.SimpleNamespace(deepcopy=deepcopy, copy=copy.copy)

    inline_ir_copying_once = _run_with_global(inline_closurecall, "copy", copying_once, worker.inline_ir)
    inline_ir_copying_once.simlab_copies_once = True
    worker.inline_ir = inline_ir_copying_once
    fields = {"filename", "line", "col", "maybe_decorator", "lines"}
    if "__deepcopy__" not in vars(ir.Loc) and fields <= set(vars(ir.Loc("x", 1))):

        def loc_deepcopy(self, memo):
            out = ir.Loc(self.filename, self.line, self.col, self.maybe_decorator)
            out.lines = self.lines
            return out

        ir.Loc.__deepcopy__ = loc_deepcopy
    return True


_copy_inlined_ir_once()


def _fill_call_slots_at_the_call() -> bool:
    """Make a call to a compiled function zero its return slot and its exception slot where the call is made, not
    on entry to the caller (the same code, less of it run).

    numba's ``CPUCallConv.call_function`` allocates the two slots with ``cgutils.alloca_once``, which always
    zero-fills in the entry block (and it zero-fills the return slot again at the call). Their addresses go to the
    callee, so LLVM keeps every entry store: a kernel with many calls it does not inline zeroes two slots a call
    site each time it is entered, whichever calls it makes (the heuristic's ``score_nb``: about 60 stores a call; a
    villain's ``ability_r``: about 110). Here ``call_function`` runs with an ``alloca_once`` that allocates in the
    entry block unfilled and zeroes the slot at the call, just before it, so the callee sees what it saw before.
    Where numba's code does not look as expected nothing is patched: the code is only slower.
    """
    import types

    from numba.core import callconv, cgutils

    conv = callconv.CPUCallConv
    if getattr(conv.call_function, "simlab_fills_at_the_call", False):
        return True
    if (
        _source(conv.call_function).count("cgutils.alloca_once(") != 2
        or getattr(callconv, "cgutils", None) is not cgutils
    ):
        return False

    def alloca_filled_at_the_call(builder, ty, size=None, name="", zfill=False):
        with builder.goto_entry_block():
            ptr = builder.alloca(ty, size=size, name=name)
        builder.store(ty(None), ptr)
        return ptr

    slots_at_the_call = types.SimpleNamespace(**vars(cgutils))
    slots_at_the_call.alloca_once = alloca_filled_at_the_call
    call_function_filling_at_the_call = _run_with_global(
        callconv, "cgutils", lambda: slots_at_the_call, conv.call_function
    )
    call_function_filling_at_the_call.simlab_fills_at_the_call = True
    conv.call_function = call_function_filling_at_the_call
    return True


_fill_call_slots_at_the_call()


def _compare_flags_faster() -> bool:
    """Make numba's compile flags list their values as one merge of two dicts (compile time only; the same
    values, in the same order).

    numba keys each overload template's cache by the flags in force, so typing hashes and compares them about
    110,000 times in a cold start, and each time ``TargetConfig.values`` reads every option through its property
    (about 8 million property calls, 3-4% of a cold start's CPU). The options' defaults updated by ``_values``
    (which only the options' setters write) give the same dict. Where numba's code does not look as expected
    nothing is patched: compiling is only slower.
    """
    from numba.core import targetconfig

    config = targetconfig.TargetConfig
    if getattr(config.values, "simlab_one_pass", False):
        return True
    # an option's property reads ``self._values.get(name, option.default)``
    reads_values = "self._values.get(name, option.default)" in _source(type(config))
    if not reads_values or "_values" not in getattr(config, "__slots__", ()):
        return False

    defaults: dict[type, dict] = {}  # each config class's options' defaults, in the options' order

    def values(self):
        cls = type(self)
        if cls not in defaults:
            defaults[cls] = {name: option.default for name, option in cls.options.items()}
        return {**defaults[cls], **self._values}  # a set option keeps its place in the options' order

    values.simlab_one_pass = True
    config.values = values
    return True


_compare_flags_faster()


def _plain_error_messages() -> bool:
    """Build numba's typing error messages without colorama (compile time only; the same code).

    Typing a call tries numba's templates in turn, and each that does not fit builds an error message, about
    60,000 in a cold start; with colorama installed each message's markup wraps and unwraps the standard streams
    (``ColorShell``), 2-4% of a cold start's CPU. The messages keep their text, without terminal escapes.
    Where numba's code does not look as expected nothing is patched: compiling is only slower.
    """
    from numba.core import errors

    dummy = getattr(errors, "_DummyColorScheme", None)
    if dummy is None or not hasattr(errors, "_termcolor_inst") or not callable(getattr(errors, "termcolor", None)):
        return False
    if isinstance(errors._termcolor_inst, dummy) and getattr(errors._termcolor_inst, "simlab_plain", False):
        return True

    class PlainColorScheme(dummy):
        simlab_plain = True

        def code(self, msg):
            return msg

        errmsg = filename = indicate = highlight = reset = code

    plain = PlainColorScheme()
    errors._termcolor_inst = plain
    # the modules that kept numba's scheme when they were imported
    from numba.core import compiler_machinery, ir, typeinfer
    from numba.core.typing import typeof

    for module in (compiler_machinery, ir, typeinfer, typeof):
        if isinstance(getattr(module, "_termcolor", None), dummy):
            module._termcolor = plain
    return True


_plain_error_messages()


def _list_ir_variables_faster() -> bool:
    """Make numba list the variables of an IR statement into one list as it walks it (compile time only; the same
    variables, in the same order).

    numba's analyses list each statement's variables many times over (``Inst._rec_list_vars``: about 5 million
    calls in a cold start, 4-6% of its CPU), and its walk returns a new list from every value it visits, a
    statement's source location and constants included, each then copied into its parent's. Here the walk
    appends to one list, with a call per container rather than per value, testing each value's type in the
    same order. Where numba's code does not look as expected nothing is patched: compiling is only slower.
    """
    from numba.core import ir

    inst = ir.Inst
    if getattr(inst._rec_list_vars, "simlab_one_list", False):
        return True
    source = _source(inst._rec_list_vars)
    walk = (
        "isinstance(val, Var)",
        "isinstance(val, Inst)",
        "val.list_vars()",
        "isinstance(val, (list, tuple))",
        "isinstance(val, dict)",
        "val.values()",
    )
    if not all(step in source for step in walk):
        return False
    var, node = ir.Var, ir.Inst

    def collect(values, out):  # a call per container, not per value
        for val in values:
            if isinstance(val, var):
                out.append(val)
            elif isinstance(val, node):
                out.extend(val.list_vars())
            elif isinstance(val, (list, tuple)):
                collect(val, out)
            elif isinstance(val, dict):
                collect(val.values(), out)

    def rec_list_vars(self, val):
        out: list = []
        collect((val,), out)
        return out

    rec_list_vars.simlab_one_list = True
    inst._rec_list_vars = rec_list_vars
    return True


_list_ir_variables_faster()

# LLVM names of the functions compiled from simlab's and the strategies' modules (Itanium-mangled module paths)
OWN_CODE = ("_ZN6simlab", "_ZN10strategies")


def _index_as_given() -> bool:
    """Make simlab's kernels take a signed array index as it is, without numba's Python wraparound.

    numba reads ``a[i]`` with a signed ``i`` as ``a[i + n if i < 0 else i]`` (``arrayobj.fix_integer_index``): three
    instructions an index, about 7% of the kernels' machine code. simlab's kernels never mean a negative index (none
    is written as a literal), and none reaches an index by mistake as far as play shows: with numba's bounds checks
    on (``NUMBA_BOUNDSCHECK=1``), where a negative index raises, the regression fixture's games and the whole test
    suite pass, and ``tests/test_regression.py`` keeps checking the first games of every fixture run that way. So
    in functions compiled from simlab's and the strategies' modules (LLVM names starting with :data:`OWN_CODE`) a
    signed index is only cast; everywhere else (numba's own code, tests', benchmarks' and users' functions) it wraps
    as before. Where numba's code does not look as expected nothing is patched: the code is only slower.
    """
    import inspect

    from numba.core import types
    from numba.np import arrayobj

    wrapping = getattr(arrayobj, "fix_integer_index", None)
    if wrapping is None or getattr(wrapping, "simlab_index_as_given", False):
        return wrapping is not None
    if list(inspect.signature(wrapping).parameters) != ["context", "builder", "idxty", "idx", "size"]:
        return False

    def fix_integer_index(context, builder, idxty, idx, size):
        if idxty.signed and builder.function.name.startswith(OWN_CODE):
            return context.cast(builder, idx, idxty, types.intp)
        return wrapping(context, builder, idxty, idx, size)

    fix_integer_index.simlab_index_as_given = True
    arrayobj.fix_integer_index = fix_integer_index
    return True


_index_as_given()


_APART: dict[str, str] = {}  # module -> what its kernels' cache is kept apart by (cache_apart)


def cache_apart(module: str, key: str) -> None:
    """Keep the cache of the kernels module ``module`` defines from now on in a directory of their own, named by
    ``key``: for a module whose kernels freeze values worked out when it is imported (the ability codes a villain's
    folder was assigned), which numba's cache, keyed on the module's source, would not see change."""
    _APART[module] = key


def _cache_dir_for(fn) -> str:
    # numba picks the cache directory when the dispatcher is created.
    if fn.__module__ in _PLAYERS:
        base = PLAYER_CACHE_DIR
    elif fn.__module__.startswith("strategies.") and fn.__module__ not in _ENGINE_LINKED:
        base = STRATEGY_CACHE_DIR
    else:
        base = CHECKS_CACHE_DIR if fn.__module__ == _CHECKS_MODULE else ENGINE_CACHE_DIR
    key = _APART.get(fn.__module__)
    return f"{base}-{key}" if key else base


def _njit(fn, flags):
    numba.config.CACHE_DIR = _cache_dir_for(fn)
    try:
        return njit(**flags, **JIT_FLAGS)(fn)
    finally:
        numba.config.CACHE_DIR = ENGINE_CACHE_DIR


def _decorate(fn, python: bool = False, **flags):
    """numba's dispatcher for ``fn`` with ``flags``; ``python``: Python calls it in normal use.

    numba gives every compiled function a wrapper that unboxes its arguments from Python objects (for the
    state and the tables, about 20 arrays) and one callable from C, each lowered, parsed, optimised and
    linked on its own: a third of the library modules LLVM handled, about a fifth of a cold compile. Only
    kernels Python calls need the first and none needs the second, so the others are compiled without
    (:func:`_python_calls_use_a_twin` keeps calling them from Python, in tests, working).
    """
    flags = dict(flags, no_cfunc_wrapper=True)
    if not python:
        flags["no_cpython_wrapper"] = True
    dispatcher = _njit(fn, flags)
    if not numba.config.DISABLE_JIT:
        _one_specialisation_per_type(dispatcher)
        if not python:
            _python_calls_use_a_twin(dispatcher, fn, {k: v for k, v in flags.items() if k != "no_cpython_wrapper"})
    return dispatcher


PYTHON_TWINS: list[str] = []  # kernels compiled again for a call from Python (``module.name``), in order


def _python_calls_use_a_twin(dispatcher, fn, flags) -> None:
    """Let Python call a kernel compiled without numba's Python wrapper, through a twin compiled with one.

    A kernel's own overloads have no entry point Python can call, so they are kept out of numba's C-level
    dispatch table; a call from Python then misses it and reaches ``_compile_for_args``, which here compiles
    (or loads from the cache) a twin of the function under its own name (``<name>__from_python``, so its
    cache entries never mix with the kernel's) and puts the twin's entry point in the table for those
    argument types. Other kernels keep calling the kernel itself.
    """
    import types as pytypes

    twin = []

    def add_overload(cres):
        dispatcher.overloads[tuple(cres.signature.args)] = cres

    def compile_for_args(*args, **kws):
        if not twin:
            copy = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
            copy.__qualname__ = f"{fn.__qualname__}__from_python"
            copy.__module__, copy.__doc__ = fn.__module__, fn.__doc__
            twin.append(_njit(copy, flags))
            _one_specialisation_per_type(twin[0])
            PYTHON_TWINS.append(f"{fn.__module__}.{fn.__name__}")
        entry = twin[0]._compile_for_args(*args, **kws)
        argtypes = [dispatcher.typeof_pyval(a) for a in args]
        dispatcher._insert([t._code for t in argtypes], entry, False)
        return entry

    dispatcher.add_overload = add_overload
    dispatcher._compile_for_args = compile_for_args


def _one_specialisation_per_type(dispatcher) -> None:
    """Compile ``dispatcher`` once per argument types when another kernel calls it, not once per constant.

    numba types a constant argument at a call site as a literal (``Literal[int](-1)``) and compiles the
    callee again for it: ``log_nb`` compiled 16 times, and the heuristic's largest scoring kernels
    (``card_value_nb``, ``basic_fate_harm_nb``, ``fate_card_harm_nb``) twice each, each time with every kernel
    they call linked in. No kernel here needs a literal argument (none indexes a tuple or picks a type by
    one), so the callee sees the plain type; the code is the same, LLVM still folds the constant once it
    inlines a small callee.
    """
    from numba.core import types

    get_call_template = dispatcher.get_call_template

    def get_call_template_unliteral(args, kws):
        return get_call_template(
            tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()}
        )

    dispatcher.get_call_template = get_call_template_unliteral


# Kernels only read and write arrays they are given, so they run without numba's reference counting
# (NRT, numba's ``_nrt`` option): with it, every call increfed and decrefed each of the ~20 arrays of
# (State, Tables) on entry and exit, atomically, and kept LLVM from optimising across calls; games ran
# 4.5-5.7x slower. Such a kernel must never allocate an array or hand one back (a view it returned would
# be released by its caller without having been counted).
def kernel(fn):
    """A separately compiled kernel (no allocation: see above)."""
    return _decorate(fn, _nrt=False)


def helper(fn):
    """A kernel inlined into its callers at numba-IR level (no allocation): for a large body called from one place
    (a villain's ``effect_nb`` inside its ``ability_r``, the routine dispatcher inside ``advance_nb``). A small
    function called from many places is a plain :func:`kernel`: LLVM inlines it just the same, and numba types
    and lowers it once instead of at every call site (the engine's frame helpers and ``zone_bits_nb`` as
    helpers cost a cold start about 15% more compiling)."""
    return _decorate(fn, inline="always", _nrt=False)


def entry_kernel(fn):
    """A separately compiled kernel that Python calls in normal use (no allocation), with numba's Python
    wrapper (see :func:`_decorate`)."""
    return _decorate(fn, python=True, _nrt=False)


def allocating_kernel(fn):
    """A separately compiled kernel that allocates arrays (with reference counting)."""
    return _decorate(fn)


def allocating_entry_kernel(fn):
    """An allocating kernel that Python calls in normal use."""
    return _decorate(fn, python=True)


def batch_kernel(fn):
    """A kernel that plays many games in parallel (``prange``), allocating each game's state; Python calls it."""
    return _decorate(fn, python=True, parallel=True)
