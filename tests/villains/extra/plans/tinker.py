"""The Tinker's plan: his progress is the Power he has hoarded; the heuristic's core terms value the rest."""

from simlab.villains.tinker.abilities import HOARD

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from strategies.heuristic import W_PROGRESS

PLAN = "the Tinker hoards Power"


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """His terms of the heuristic's scoring: only how far he is towards his objective."""
    if what == W_PROGRESS:
        return min(st.sv[s, K.SV_POWER] / HOARD, 1.0)
    return x
