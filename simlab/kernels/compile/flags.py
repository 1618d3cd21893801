"""The decorators every kernel is declared with, and the flags they compile it with.

numba links the compiled code of every callee into each caller and optimises the result again, so a deep call graph
of separately compiled functions costs time that grows with the square of its depth. The large kernels (the rules'
routines, the villains' routines, the heuristic's largest scoring kernels) are therefore declared as parts
(:func:`part`): compiled once each and called through a symbol (``name.call``) or a table
(:mod:`simlab.kernels.compile.link`); a cold start compiles them in parallel processes.

Every decorator takes ``cache=``, the tag of the directory its kernels are cached in
(:func:`simlab.kernels.compile.cache.cache_dir`).
"""

from __future__ import annotations

import types as pytypes

import numba
from numba import njit

from simlab.kernels.compile import cache, registry

# numpy's error model: a division by zero gives inf or NaN (integers: 0) instead of raising, so no division
# carries a zero test and a raise path. No game divides by zero (the regression fixture plays the same games);
# the weights the heuristic divides by are refused at 0 when a strategy file is read (heuristic.params.DIVISORS).
JIT_FLAGS = {"cache": True, "nogil": True, "error_model": "numpy"}
DEFAULT_TAG = "kernels"
PYTHON_TWINS: list[str] = []  # kernels compiled again for a call from Python (``module.name``), in order


def _njit(fn, flags, tag: str):
    module = fn.__module__
    registry.declare_module(module)
    cache.follow(module.partition(".")[0])
    # numba picks the cache directory when the dispatcher is created
    before = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = cache.cache_dir(tag, module)
    try:
        return njit(**flags, **JIT_FLAGS)(fn)
    finally:
        numba.config.CACHE_DIR = before


def _decorate(fn, tag: str, python: bool = False, **flags):
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
    dispatcher = _njit(fn, flags, tag)
    registry.add_kernel(dispatcher, fn, flags.get("_nrt", True))
    if not numba.config.DISABLE_JIT:
        _one_specialisation_per_type(dispatcher)
        if not python:
            twin_flags = {k: v for k, v in flags.items() if k != "no_cpython_wrapper"}
            _python_calls_use_a_twin(dispatcher, fn, twin_flags, tag)
    return dispatcher


def _python_calls_use_a_twin(dispatcher, fn, flags, tag: str) -> None:
    """Let Python call a kernel compiled without numba's Python wrapper, through a twin compiled with one.

    A kernel's own overloads have no entry point Python can call, so they are kept out of numba's C-level
    dispatch table; a call from Python then misses it and reaches ``_compile_for_args``, which here compiles
    (or loads from the cache) a twin of the function under its own name (``<name>__from_python``, so its
    cache entries never mix with the kernel's) and puts the twin's entry point in the table for those
    argument types. Other kernels keep calling the kernel itself.
    """
    twin = []

    def add_overload(cres):
        dispatcher.overloads[tuple(cres.signature.args)] = cres

    def compile_for_args(*args, **kws):
        if not twin:
            copy = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
            copy.__qualname__ = f"{fn.__qualname__}__from_python"
            copy.__module__, copy.__doc__ = fn.__module__, fn.__doc__
            twin.append(_njit(copy, flags, tag))
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


def _declarator(python: bool = False, **flags):
    """A decorator usable bare (``@kernel``) or with a cache tag (``@kernel(cache="strategies")``)."""

    def declare(fn=None, *, cache: str = DEFAULT_TAG):
        if fn is None:
            return lambda f: _decorate(f, cache, python=python, **flags)
        return _decorate(fn, cache, python=python, **flags)

    return declare


# Kernels only read and write arrays they are given, so they run without numba's reference counting
# (NRT, numba's ``_nrt`` option): with it, every call increfed and decrefed each of the ~20 arrays of
# (State, Tables) on entry and exit, atomically, and kept LLVM from optimising across calls; games ran
# 4.5-5.7x slower. Such a kernel must never allocate an array or hand one back (a view it returned would
# be released by its caller without having been counted).
kernel = _declarator(_nrt=False)
kernel.__doc__ = "A separately compiled kernel (no allocation: see above); LLVM may inline it into its callers."
# A kernel inlined into its callers at numba-IR level (no allocation): for a large body called from one place (a
# villain's ``effect_nb`` inside its ``ability_r``, the routine dispatcher inside ``advance_nb``). A small function
# called from many places is a plain kernel: LLVM inlines it just the same, and numba types and lowers it once
# instead of at every call site (the engine's frame helpers and ``zone_bits_nb`` as helpers cost a cold start about
# 15% more compiling).
helper = _declarator(inline="always", _nrt=False)
# A kernel that Python calls in normal use (no allocation), with numba's Python wrapper (see _decorate).
entry_kernel = _declarator(python=True, _nrt=False)
allocating_kernel = _declarator()  # a kernel that allocates arrays (with reference counting)
allocating_entry_kernel = _declarator(python=True)  # an allocating kernel that Python calls in normal use
# A kernel that plays many games in parallel (``prange``), allocating each game's state; Python calls it.
batch_kernel = _declarator(python=True, parallel=True)


def part(*argtypes, returns, cache: str = DEFAULT_TAG, python: bool = False, lazy: bool = False):
    """Declare a part: a kernel compiled on its own for ``argtypes`` (numba types), returning ``returns``, and
    called from other kernels through its symbol as ``name.call(...)`` (its code is not linked into theirs).

    ``python``: Python calls it too (an entry kernel); ``lazy``: bound on first use, not when the driver starts
    (the search player's). The kernel itself stays callable as ``name(...)``, linked in as any kernel.
    """
    from simlab.kernels.compile import link

    def declare(fn):
        dispatcher = _decorate(fn, cache, python=python, _nrt=False)
        link.declare_part(dispatcher, tuple(argtypes), returns, lazy)
        return dispatcher

    return declare
