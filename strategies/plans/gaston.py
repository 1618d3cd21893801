"""Gaston's plan: remove all of his Obstacles."""

from simlab.kernels import const as K
from simlab.kernels.jit import kernel
from simlab.kernels.query import obstacles_total_nb
from strategies.heuristic import W_PROGRESS

PLAN = "Gaston clears Belle and values removal per Power"


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """Gaston's terms of the heuristic's scoring (``what``: the ``W_*`` codes of :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        # the share of his Obstacle spots cleared
        v = st.sv[s, K.SV_VILLAIN]
        spots = 0
        for loc in range(K.N_LOC):
            spots += tb.locs[v, loc, K.LC_SPOTS]
        return 1.0 - obstacles_total_nb(st, s) / max(spots, 1)
    return x
