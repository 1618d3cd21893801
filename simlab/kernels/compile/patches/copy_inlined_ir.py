"""Make numba copy a ``helper``'s IR in one pass when it inlines it (compile time only; the same code).

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

from simlab.kernels.compile.patches.common import run_with_global

CHECKED_ON = ("0.68.1",)
COST = "compiling the villains' ability routines takes about 60% longer"  # what not applying costs


def apply() -> bool:
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

    inline_ir_copying_once = run_with_global(inline_closurecall, "copy", copying_once, worker.inline_ir)
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
