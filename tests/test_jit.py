"""How kernels are compiled: one specialisation per argument types, no Python wrapper unless Python calls them."""

from __future__ import annotations

from numba import types

from simlab.kernels import jit
from simlab.kernels.jit import entry_kernel, kernel


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


def test_python_calls_a_kernel_through_a_twin_and_kernels_call_the_kernel():
    assert twice_plus_two_nb(20) == 42  # an entry kernel: Python calls it, it calls the kernel
    assert _has_python_wrapper(twice_plus_two_nb, (types.int64,))
    assert not _has_python_wrapper(twice_nb, (types.int64,))
    assert f"{__name__}.twice_nb" not in jit.PYTHON_TWINS
    assert twice_nb(4) == 8 and twice_nb(5) == 10  # from Python: the twin, compiled once
    assert jit.PYTHON_TWINS.count(f"{__name__}.twice_nb") == 1
    assert twice_plus_one_nb(20) == 41
    assert list(twice_nb.overloads) == [(types.int64,)]  # twice_nb(0) did not compile a Literal[int](0) version


def test_a_state_from_python_is_the_state_a_kernel_allocates():
    from simlab.kernels.state import new_state, new_state_nb

    for P, log_cap in ((2, 0), (3, 7)):
        mine, theirs = new_state(P, log_cap), new_state_nb(P, log_cap)
        assert mine._fields == theirs._fields
        for field, a, b in zip(mine._fields, mine, theirs, strict=True):
            assert (a.shape, a.dtype) == (b.shape, b.dtype), field
            assert not a.any() and not b.any(), field
