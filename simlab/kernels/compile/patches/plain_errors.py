"""Build numba's typing error messages without colorama (compile time only; the same code).

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

CHECKED_ON = ("0.68.1",)
COST = "a cold compile takes 2-4% more CPU"  # what not applying costs


def apply() -> bool:
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
