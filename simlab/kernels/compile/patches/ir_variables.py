"""Make numba list the variables of an IR statement into one list as it walks it (compile time only; the same

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

from simlab.kernels.compile.patches.common import source

CHECKED_ON = ("0.68.1",)
COST = "a cold compile takes 4-6% more CPU"  # what not applying costs


def apply() -> bool:
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
    code = source(inst._rec_list_vars)
    walk = (
        "isinstance(val, Var)",
        "isinstance(val, Inst)",
        "val.list_vars()",
        "isinstance(val, (list, tuple))",
        "isinstance(val, dict)",
        "val.values()",
    )
    if not all(step in code for step in walk):
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
