"""Make simlab's kernels take a signed array index as it is, without numba's Python wraparound.

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

from simlab.kernels.compile import registry

CHECKED_ON = ("0.68.1",)
COST = "every signed index carries numba's wraparound (about 7% more machine code)"  # what not applying costs


def apply() -> bool:
    """Make simlab's kernels take a signed array index as it is, without numba's Python wraparound.

    numba reads ``a[i]`` with a signed ``i`` as ``a[i + n if i < 0 else i]`` (``arrayobj.fix_integer_index``): three
    instructions an index, about 7% of the kernels' machine code. simlab's kernels never mean a negative index (none
    is written as a literal: ``tests/test_compile.py`` reads every kernel's source and refuses one), and none
    reaches an index by mistake as far as play shows: with numba's bounds checks on (``NUMBA_BOUNDSCHECK=1``),
    where a negative index raises, the regression fixture's games and the whole test suite pass, and
    ``tests/test_regression.py`` keeps checking the first games of every fixture run that way. So in functions
    compiled from the modules that declare kernels through the compile seam (LLVM names starting with their
    Itanium-mangled module paths, :func:`simlab.kernels.compile.registry.own_code`) a signed index is only cast;
    everywhere else (numba's own code, functions compiled with numba's own decorators) it wraps as before. Where
    numba's code does not look as expected nothing is patched: the code is only slower.
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
        if idxty.signed and registry.own_code(builder.function.name):
            return context.cast(builder, idx, idxty, types.intp)
        return wrapping(context, builder, idxty, idx, size)

    fix_integer_index.simlab_index_as_given = True
    arrayobj.fix_integer_index = fix_integer_index
    return True
