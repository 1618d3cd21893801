"""How kernels are declared and compiled (simlab.kernels.compile): one specialisation per argument types, no Python
wrapper unless Python calls them, parts called through their symbols, the patches of numba, the cache groups."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba import njit, types

from simlab.kernels.compile import as_ptr, entry_kernel, kernel, ref
from simlab.kernels.compile import flags as jit


@kernel
def twice_nb(x):
    return 2 * x


@kernel
def twice_plus_one_nb(x):
    return twice_nb(x) + twice_nb(0) + 1  # a constant argument: no second specialisation


@entry_kernel
def twice_plus_two_nb(x):
    return twice_nb(x) + 2


def _has_python_wrapper(dispatcher, argtypes) -> bool:
    cres = dispatcher.overloads[argtypes]
    return bool(cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name))


def check_twins() -> None:
    """The checks of the test below, in a process whose numba cache is empty."""
    assert twice_plus_two_nb(20) == 42  # an entry kernel: Python calls it, it calls the kernel
    assert _has_python_wrapper(twice_plus_two_nb, (types.int64,))
    assert not _has_python_wrapper(twice_nb, (types.int64,))
    assert f"{__name__}.twice_nb" not in jit.PYTHON_TWINS
    assert twice_nb(4) == 8 and twice_nb(5) == 10  # from Python: the twin, compiled once
    assert jit.PYTHON_TWINS.count(f"{__name__}.twice_nb") == 1
    assert twice_plus_one_nb(20) == 41
    assert list(twice_nb.overloads) == [(types.int64,)]  # twice_nb(0) did not compile a Literal[int](0) version
    print("checked")


@pytest.mark.slow
def test_python_calls_a_kernel_through_a_twin_and_kernels_call_the_kernel(tmp_path):
    # a kernel loaded from numba's cache (its entries are keyed by the source's content, so another checkout or run
    # finds them) compiles none of its callees, and the checks would see no overloads: they run with an empty cache
    out = subprocess.run(
        [sys.executable, "-c", "import test_compile; test_compile.check_twins()"],
        cwd=Path(__file__).parent,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-1:] == ["checked"]


def test_a_state_from_python_is_the_state_a_kernel_allocates():
    from simlab.kernels.state import new_state, new_state_nb

    for P, log_cap in ((2, 0), (3, 7)):
        mine, theirs = new_state(P, log_cap), new_state_nb(P, log_cap)
        assert mine._fields == theirs._fields
        for field, a, b in zip(mine._fields, mine, theirs, strict=True):
            assert (a.shape, a.dtype) == (b.shape, b.dtype), field
            assert not a.any() and not b.any(), field


_REF_IN_A_COUNTING_FUNCTION = """
import collections, numba, numpy as np
from simlab.kernels.compile import as_ptr, ref
Pair = collections.namedtuple("Pair", "a b")

@numba.njit(cache=False)  # reference counting on, as in a test's own wrapper or an allocating kernel
def total(p):
    r = ref(p)
    t = 0
    for i in range(100):
        t += r.a[i % 3] + r.b[0]
    return t

p = Pair(np.arange(3), np.ones(1, np.int64))
print(sum(total(p) for _ in range(200)), np.zeros(10**4).sum())
"""


@pytest.mark.slow
def test_a_counting_function_reading_a_reference_keeps_the_arrays_alive():
    # numba releases what a getattr returns: without an incref the reference's arrays were freed (heap corruption)
    out = subprocess.run(
        [sys.executable, "-c", _REF_IN_A_COUNTING_FUNCTION], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == [str(200 * (33 * 1 + 33 * 2 + 100)), "0.0"]


@numba.njit(cache=False)
def _read_through_pointers(ru, sp, i):
    # as the parts are called: the pointer made once, given on (as_ptr of a pointer is the pointer), indexed
    p, q = as_ptr(ru), as_ptr(sp)
    return as_ptr(p)[i] + p[0], q[i] * 2.0


def test_as_ptr_reads_an_arrays_data_as_the_array_does():
    ru = np.arange(7, 14, dtype=np.int64)
    rows = np.arange(12.0).reshape(3, 4)
    for i in range(4):
        assert _read_through_pointers(ru, rows[2], i) == (ru[i] + ru[0], rows[2, i] * 2.0)
    with pytest.raises(numba.TypingError):
        _read_through_pointers(ru, rows, 0)  # a 2-D array has no pointer form: refused when it is typed


def _unpacked(calls: dict, allowed=()) -> dict:
    return {
        name: argtypes
        for name, argtypes in calls.items()
        if name not in allowed and any(isinstance(t, (types.Array, types.BaseTuple)) for t in argtypes)
    }


def test_no_call_across_a_part_or_a_table_passes_an_array_unpacked():
    # an array argument is seven machine words at every call LLVM cannot inline; the state and the tables go as
    # ref(), the rules and the parameters as as_ptr(). The search player's entry is called once per decision.
    import simlab.game.driver as driver
    from simlab.kernels.compile import link
    from simlab.kernels.state import ENGINE_REF_TYPES

    assert len(link.CALLS) > 20
    assert not _unpacked(link.CALLS, allowed=(driver.PLAYER_TABLE,))
    assert _unpacked({"some_part": (ENGINE_REF_TYPES[0], types.Array(types.float64, 1, "C"))})


_CALL_SLOTS = """
import re, numba
import simlab.kernels.compile  # its patches apply when it is imported

@numba.njit(cache=False)
def one_more(x):
    return x + 1

@numba.njit(cache=False)
def twice_one_more(x):
    return one_more(x) * 2 + one_more(x + 1)

assert twice_one_more(3) == 13
ir = twice_one_more.inspect_llvm(twice_one_more.signatures[0])
name = [n for n in re.findall(r"define i32 @(\\S+)\\(", ir) if "twice_one_more" in n][0]
body = ir[ir.index("define i32 @" + name):]
entry = body[: body.index(" br ")]  # the entry block: numba's allocas, then a jump to the function's code
slots = re.findall(r"(%excinfo\\.\\d+) = alloca", entry)
print(len(slots), sum(f"ptr {s}," in entry for s in slots), sum(f"store ptr null, ptr {s}," in body for s in slots))
"""


@pytest.mark.slow
def test_a_call_zeroes_its_slots_at_the_call_not_on_entry():
    # unoptimised (NUMBA_OPT=0), so that LLVM neither inlines the callee nor moves the stores
    out = subprocess.run(
        [sys.executable, "-c", _CALL_SLOTS],
        env=dict(os.environ, NUMBA_OPT="0"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    # two calls: two exception slots allocated on entry, none written there, each zeroed at its call
    assert out.stdout.split() == ["2", "0", "2"]


_INDEX_AS_GIVEN = """
import numba, numpy as np
from simlab.kernels.query import zone_bits_nb
from simlab.kernels.state import new_state

@numba.njit(cache=False)
def last(a, i):
    return a[i]

print(last(np.arange(5), -1))  # outside simlab's modules a negative index still counts from the end
try:
    zone_bits_nb(new_state(2, 0), -1, 0)  # in them it is taken as given: out of bounds
    print("wrapped")
except IndexError:
    print("IndexError")
"""


@pytest.mark.slow
def test_simlab_kernels_take_a_negative_index_as_given_and_other_code_wraps(tmp_path):
    # numba's bounds checks on: an index below zero raises where it is not wrapped first
    out = subprocess.run(
        [sys.executable, "-c", _INDEX_AS_GIVEN],
        env=dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["4", "IndexError"]


@njit(cache=False)
def _read_through_a_reference(st):
    r = ref(st)
    return r.inst[1, 44, 6] + r.memo_ok[1, 9] + r.sparams.shape[1]


def test_a_reference_reads_fixed_axes_as_constants_and_refuses_other_sizes():
    from simlab.kernels.state import State, new_state

    st = new_state(2, 0)
    st.inst[1, 44, 6] = 5
    st.memo_ok[1, 9] = 7
    assert _read_through_a_reference(st) == 5 + 7 + st.sparams.shape[1]
    for field, shape in (("inst", (2, 45, 8)), ("memo", (2, st.memo.shape[1] + 1, 45)), ("sparams", (2, 10))):
        wrong = st._replace(**{field: np.zeros(shape, getattr(st, field).dtype)})
        with pytest.raises(ValueError, match=rf"State\.{field}: axis \d must be \d+ long"):
            _read_through_a_reference(wrong)
    assert set(State.AXES) <= set(State._fields)


def test_the_flags_list_the_same_values_in_the_same_order_as_numbas_properties():
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    assert getattr(TargetConfig.values, "simlab_one_pass", False)  # patched at import
    flags = Flags()
    flags.nrt = True
    flags.error_model = "numpy"
    flags.no_cpython_wrapper = True
    by_property = {name: getattr(flags, name) for name in flags.options}  # numba's own reading
    assert list(flags.values().items()) == list(by_property.items())
    assert flags == Flags(flags) and hash(flags) == hash(Flags(flags))
    other = Flags(flags)
    other.nrt = False
    assert flags != other


def _numba_rec_list_vars(self, val):
    """numba's own walk (numba.core.ir.Inst._rec_list_vars), kept here to compare the patched one against."""
    from numba.core import ir

    if isinstance(val, ir.Var):
        return [val]
    elif isinstance(val, ir.Inst):
        return val.list_vars()
    elif isinstance(val, (list, tuple)):
        return [v for x in val for v in _numba_rec_list_vars(self, x)]
    elif isinstance(val, dict):
        return [v for x in val.values() for v in _numba_rec_list_vars(self, x)]
    return []


def test_an_ir_statement_lists_the_same_variables_in_the_same_order_as_numbas_walk(monkeypatch):
    from numba.core import ir
    from numba.core.compiler import run_frontend

    from simlab.villains.gaston.abilities import ability_r
    from strategies.heuristic.choose import choose_by_ref_nb, score_nb
    from strategies.heuristic.terms.mover import location_value_nb

    assert getattr(ir.Inst._rec_list_vars, "simlab_one_list", False)  # patched at import
    patched = ir.Inst._rec_list_vars
    statements = 0
    for fn in (choose_by_ref_nb.py_func, score_nb.py_func, location_value_nb.py_func, ability_r.py_func):
        for block in run_frontend(fn).blocks.values():
            for stmt in block.body:
                listed = stmt.list_vars()
                monkeypatch.setattr(ir.Inst, "_rec_list_vars", _numba_rec_list_vars)
                walked = stmt.list_vars()
                monkeypatch.setattr(ir.Inst, "_rec_list_vars", patched)
                assert [id(v) for v in listed] == [id(v) for v in walked], stmt
                statements += 1
    assert statements > 100


def test_numba_typing_errors_keep_their_text_without_terminal_escapes():
    from numba import njit as plain_njit
    from numba.core import errors

    assert errors.termcolor().highlight("x") == "x"

    @plain_njit(cache=False)
    def bad(x):
        return x.no_such_attribute

    with pytest.raises(errors.TypingError, match="no_such_attribute") as raised:
        bad(1)
    assert "\x1b[" not in str(raised.value)


def test_a_bound_kernel_takes_its_own_types_or_an_integer_cast_to_an_int64_or_float64():
    from numba import types

    from simlab.kernels.compile.link import _args_fit

    bound = (types.int64, types.float64)
    assert _args_fit((types.int64, types.float64), bound)
    assert _args_fit((types.int32, types.int64), bound)  # integers cast to the bound argument
    assert not _args_fit((types.float64, types.float64), bound)  # a float never narrows to an integer
    assert not _args_fit((types.int64, types.boolean), bound)


# ------------------------------------------------------------------------------------------ the seam's declarations


def test_every_patch_of_numba_applies_on_the_numba_versions_it_was_checked_on():
    from simlab.kernels.compile import patches

    for patch in patches.PATCHES:
        name = patches.name_of(patch)
        if numba.__version__ not in patch.CHECKED_ON:
            pytest.skip(f"numba {numba.__version__}: patch {name} checked on {patch.CHECKED_ON} only")
        assert patches.APPLIED[name], f"{name} did not apply to numba {numba.__version__}"
    assert patches.not_applied() == []


def test_a_patch_that_did_not_apply_is_said_so_with_its_cost(monkeypatch):
    from simlab.kernels.compile import patches

    monkeypatch.setitem(patches.APPLIED, "index_as_given", False)
    lines = patches.not_applied()
    assert len(lines) == 1 and "'index_as_given' did not apply" in lines[0] and "wraparound" in lines[0]


def test_numbas_version_is_pinned_below_the_next_minor_release():
    import re
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    (spec,) = [d for d in pyproject["project"]["dependencies"] if d.startswith("numba")]
    upper = re.search(r"<\s*([\d.]+)", spec)
    assert upper, f"numba has no upper version pin: {spec!r}"
    major, minor = (int(x) for x in numba.__version__.split(".")[:2])
    assert tuple(int(x) for x in upper.group(1).split(".")[:2]) == (major, minor + 1)


def _negative_literal_indices(path: Path) -> list[str]:
    """Every subscript of a kernel in ``path`` (a function under one of the seam's decorators) with a negative
    integer literal in its index, as ``path:line``."""
    import ast

    decorators = {"kernel", "helper", "entry_kernel", "allocating_kernel", "allocating_entry_kernel", "batch_kernel"}
    decorators |= {"part"}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        names = {
            (d.func if isinstance(d, ast.Call) else d).id
            for d in fn.decorator_list
            if isinstance(d.func if isinstance(d, ast.Call) else d, ast.Name)
        }
        if not names & decorators:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript):
                for item in ast.walk(node.slice):
                    if (
                        isinstance(item, ast.UnaryOp)
                        and isinstance(item.op, ast.USub)
                        and isinstance(item.operand, ast.Constant)
                        and isinstance(item.operand.value, int)
                    ):
                        out.append(f"{path.name}:{node.lineno}")
    return out


def test_no_kernel_indexes_with_a_negative_literal():
    # the kernels take a signed index as given (patches/index_as_given.py): a[-1] would read before the array
    root = Path(__file__).resolve().parents[1]
    files = [*(root / "simlab").rglob("*.py"), *(root / "strategies").rglob("*.py")]
    files += (root / "tests" / "villains").rglob("*.py")
    found = [hit for path in files for hit in _negative_literal_indices(path)]
    assert found == [], "a negative index reads the wrong element in a kernel: use n - 1"


def test_the_negative_index_check_finds_one(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("@kernel\ndef last_nb(a, n):\n    return a[n] + a[-1]\n\n\ndef python(a):\n    return a[-1]\n")
    assert _negative_literal_indices(bad) == ["bad.py:3"]


def test_a_part_is_called_through_its_symbol_and_bound_before_its_callers():
    import simlab.game.driver  # noqa: F401  (binds every part)
    from simlab.kernels.compile import link, registry
    from strategies.heuristic.terms import heroes

    symbol = link.symbol_name(heroes.best_defeat_nb)
    part = registry.PARTS[symbol]
    assert part.dispatcher is heroes.best_defeat_nb and part.restype == types.float64
    assert symbol in link._BOUND  # bound when the driver was imported
    assert heroes.best_defeat_nb.call is not heroes.best_defeat_nb  # the symbol call, not the linked kernel
    # the plans call it by symbol: binding a plan binds it first
    from strategies.plans import horned_king

    assert heroes.best_defeat_nb in link._parts_reached(horned_king.plan_nb)


def test_the_cache_directory_of_a_module_changes_when_a_module_it_imports_changes(tmp_path, monkeypatch):
    from simlab.kernels.compile import cache

    pkg = tmp_path / "toypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "consts.py").write_text("N = 3\n")
    (pkg / "kernels.py").write_text("from toypkg.consts import N\n")
    (pkg / "other.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    cache.follow("toypkg")
    before = cache.cache_dir("toy", "toypkg.kernels")
    assert os.path.basename(before).startswith("toy-")
    (pkg / "other.py").write_text("X = 2\n")  # not imported by toypkg.kernels
    cache.closure.cache_clear()
    assert cache.cache_dir("toy", "toypkg.kernels") == before
    (pkg / "consts.py").write_text("N = 4\n")
    cache.closure.cache_clear()
    assert cache.cache_dir("toy", "toypkg.kernels") != before


def test_the_compile_plumbing_names_no_module_of_another_package():
    import re

    root = Path(__file__).resolve().parents[1]
    seam = root / "simlab" / "kernels" / "compile"
    for path in seam.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        named = set(re.findall(r"\b(?:simlab|strategies)\.[\w.]+", text))
        assert all(n.startswith("simlab.kernels.compile") for n in named), (path.name, named)
    outside = [
        p.relative_to(root).as_posix()
        for pkg in ("simlab", "strategies")
        for p in (root / pkg).rglob("*.py")
        if seam not in p.parents and re.search(r"link\.caller|_PARTS\b", p.read_text(encoding="utf-8"))
    ]
    assert outside == []


def test_no_kernel_without_reference_counting_calls_an_allocating_one():
    # numba refuses such a call only when it compiles the caller afresh: on a warm cache the defect hid until a
    # fresh clone (record_game_nb, a plain entry kernel calling the search's allocating choose_with_stats_nb)
    import simlab.game.driver  # noqa: F401
    import simlab.game.invariants  # noqa: F401
    import simlab.game.positions  # noqa: F401
    import simlab.studies.learn  # noqa: F401
    import strategies.apprentice  # noqa: F401
    import strategies.search  # noqa: F401
    from simlab.kernels.compile import registry

    assert sum(allocates for *_, allocates in registry.KERNELS) >= 5
    assert registry.unsafe_calls() == []


UNSAFE = """
import numpy as np
from simlab.kernels import query as Q
from simlab.kernels.compile import allocating_kernel, entry_kernel, kernel

@allocating_kernel
def fresh_nb(n):
    return np.zeros(n)

@kernel
def direct_nb(n):
    return fresh_nb(n)[0]

@entry_kernel
def nested_nb(n):
    def inner(m):
        return fresh_nb(m)
    return inner(n)[0]

@allocating_kernel
def allowed_nb(n):
    return fresh_nb(n)[0]
"""


def test_a_kernel_without_reference_counting_calling_an_allocating_one_is_refused_before_compiling(tmp_path):
    (tmp_path / "unsafe_kernels.py").write_text(UNSAFE)
    (tmp_path / "attribute_kernels.py").write_text(
        "import unsafe_kernels as U\nfrom simlab.kernels.compile import kernel\n\n"
        "@kernel\ndef through_nb(n):\n    return U.fresh_nb(n)[0]\n"
    )
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import attribute_kernels\n"
        "from simlab.kernels.compile import registry, link\n"
        "print(registry.unsafe_calls())\n"
        "try:\n    link.bind_all()\nexcept RuntimeError as exc:\n    print('refused:', exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        cwd=Path(__file__).parent,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache")),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    found, refused = out.stdout.splitlines()[-2:]
    assert found == str(
        [
            "unsafe_kernels.direct_nb calls fresh_nb",
            "unsafe_kernels.nested_nb calls fresh_nb",
            "attribute_kernels.through_nb calls U.fresh_nb",
        ]
    )
    assert refused.startswith("refused: declare these kernels @allocating_kernel") and "direct_nb" in refused
