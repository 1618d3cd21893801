"""simlab: Monte Carlo balance analysis for Villainous: Despicable Plots.

``simlab.run(...)`` and ``simlab.matrix(...)`` are the entry points for notebooks; they are imported on
first use so that ``import simlab`` stays cheap (the numba kernels load with them).
"""

__all__ = ["run", "matrix", "goldfish"]


def __getattr__(name):
    if name in ("run", "goldfish"):
        from simlab import sim

        return getattr(sim, name)
    if name == "matrix":
        from simlab.matchups import matrix

        return matrix
    raise AttributeError(name)
