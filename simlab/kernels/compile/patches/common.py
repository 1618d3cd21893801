"""What the patches share: reading numba's code, and running one of numba's methods with a module global swapped."""


def source(obj) -> str:
    """The source of numba's ``obj``, to check it looks as a patch expects ("" if it cannot be read)."""
    import inspect

    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def run_with_global(module, name: str, make, method):
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
