"""The Horned King's plan: a Cauldron Born at every location."""

from simlab.kernels import const as K
from simlab.kernels.bits import count_nb
from simlab.kernels.jit import kernel
from strategies.heuristic import W_PROGRESS, group, soldier_locations_nb
from strategies.plans import slots

PLAN = "the Horned King spreads Ancient Soldiers, claims and powers the Cauldron, swaps every turn"

PARAMS = (
    *group(
        "progress",
        ("progress_soldier", 0.05, 0.0, 0.2, "Horned King: per location with Ancient Soldiers or a Cauldron Born"),
        ("progress_born", 0.15, 0.0, 0.3, "Horned King: per location with a Cauldron Born (on top)"),
        ("progress_claimed", 0.1, 0.0, 0.3, "Horned King: the Cauldron claimed"),
        ("progress_powered", 0.1, 0.0, 0.3, "Horned King: the Cauldron powered (on top)"),
        at=75,
    ),
)
P = slots(__name__, PARAMS)
P_PROGRESS_SOLDIER = P["progress_soldier"]
P_PROGRESS_BORN = P["progress_born"]
P_PROGRESS_CLAIMED = P["progress_claimed"]
P_PROGRESS_POWERED = P["progress_powered"]


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """The Horned King's terms of the heuristic's scoring (``what``: the ``W_*`` codes of
    :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        both, born = soldier_locations_nb(st, tb, s)
        p = sp[P_PROGRESS_SOLDIER] * count_nb(both) + sp[P_PROGRESS_BORN] * count_nb(born)
        if st.sv[s, K.SV_CAULDRON] >= 1:
            p += sp[P_PROGRESS_CLAIMED]
        if st.sv[s, K.SV_CAULDRON] == 2:
            p += sp[P_PROGRESS_POWERED]
        return min(p, 1.0)
    return x
