"""simlab: Monte Carlo balance analysis for Villainous: Despicable Plots.

``simlab.run(...)``, ``simlab.matrix(...)`` and ``simlab.calibrate(...)`` are the entry points for notebooks; they
are imported on first use so that ``import simlab`` stays cheap (the numba kernels load with them).
"""

__all__ = ["run", "matrix", "goldfish", "calibrate"]


def __getattr__(name):
    if name in ("run", "goldfish"):
        from simlab import sim

        return getattr(sim, name)
    if name == "matrix":
        from simlab.matchups import matrix

        return matrix
    if name == "calibrate":  # the function; its module is simlab.calibration, so importing it cannot shadow this
        from simlab.calibration import calibrate

        return calibrate
    raise AttributeError(name)
