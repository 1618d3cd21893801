"""simlab: Monte Carlo balance analysis for Villainous: Despicable Plots.

``simlab.run(...)``, ``simlab.matrix(...)`` and ``simlab.calibrate(...)`` are the entry points for notebooks; they
are imported on first use so that ``import simlab`` stays cheap (the numba kernels load with them).
"""

__all__ = ["run", "matrix", "goldfish", "calibrate"]


def __getattr__(name):
    if name in ("run", "goldfish"):
        from simlab.runs import sim

        return getattr(sim, name)
    if name == "matrix":
        from simlab.studies.matchups import matrix

        return matrix
    # the function; its module is simlab.studies.calibration, so importing it cannot shadow this
    if name == "calibrate":
        from simlab.studies.calibration import calibrate

        return calibrate
    raise AttributeError(name)
