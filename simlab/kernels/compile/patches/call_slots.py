"""Make a call to a compiled function zero its return slot and its exception slot where the call is made, not

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

from simlab.kernels.compile.patches.common import run_with_global, source

CHECKED_ON = ("0.68.1",)
COST = "kernels zero two slots per call site on every entry (slower play)"  # what not applying costs


def apply() -> bool:
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
        source(conv.call_function).count("cgutils.alloca_once(") != 2
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
    call_function_filling_at_the_call = run_with_global(
        callconv, "cgutils", lambda: slots_at_the_call, conv.call_function
    )
    call_function_filling_at_the_call.simlab_fills_at_the_call = True
    conv.call_function = call_function_filling_at_the_call
    return True
