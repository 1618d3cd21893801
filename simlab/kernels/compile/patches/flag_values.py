"""Make numba's compile flags list their values as one merge of two dicts (compile time only; the same

The patch is :func:`apply`; see its docstring. Checked on the numba versions in ``CHECKED_ON``."""

from simlab.kernels.compile.patches.common import source

CHECKED_ON = ("0.68.1",)
COST = "a cold compile takes 3-4% more CPU"  # what not applying costs


def apply() -> bool:
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
    reads_values = "self._values.get(name, option.default)" in source(type(config))
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
