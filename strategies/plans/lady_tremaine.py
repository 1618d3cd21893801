"""Lady Tremaine's plan: Wedding Bells with the Prince and a Ball Gown daughter in The Ballroom."""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import passive_count_nb, zone_bits_nb
from strategies.heuristic import (
    W_PROGRESS,
    activate_in_realm_nb,
    admits_only_loc_nb,
    bride_at_nb,
    group,
    prince_in_realm_nb,
)
from strategies.plans import slots

PLAN = "Lady Tremaine builds the wedding step by step"

PARAMS = (
    *group(
        "progress",
        ("progress_bride", 0.3, 0.0, 0.6, "Lady Tremaine: a Ball Gown daughter in her Realm"),
        ("progress_daughter", 0.15, 0.0, 0.4, "Lady Tremaine: an everyday daughter, while no bride is in play"),
        ("progress_ballroom", 0.15, 0.0, 0.4, "Lady Tremaine: The Ballroom unlocked"),
        ("progress_bride_in", 0.2, 0.0, 0.5, "Lady Tremaine: a bride in The Ballroom"),
        ("progress_prince", 0.1, 0.0, 0.4, "Lady Tremaine: the Prince in her Realm"),
        ("progress_bells", 0.15, 0.0, 0.4, "Lady Tremaine: Wedding Bells in her Realm"),
        ("progress_slipper", 0.1, 0.0, 0.4, "Lady Tremaine: less per Glass Slipper in her Realm"),
        at=79,
    ),
)
P = slots(__name__, PARAMS)
P_PROGRESS_BRIDE = P["progress_bride"]
P_PROGRESS_DAUGHTER = P["progress_daughter"]
P_PROGRESS_BALLROOM = P["progress_ballroom"]
P_PROGRESS_BRIDE_IN = P["progress_bride_in"]
P_PROGRESS_PRINCE = P["progress_prince"]
P_PROGRESS_BELLS = P["progress_bells"]
P_PROGRESS_SLIPPER = P["progress_slipper"]


@kernel
def wedding_progress_nb(st, tb, sp, s):
    """The wedding's steps taken: a bride (or else a daughter), The Ballroom open, the bride in it, the Prince,
    Wedding Bells; less for each Glass Slipper."""
    ball = admits_only_loc_nb(st, tb, s)
    p = 0.0
    if bride_at_nb(st, tb, s, -1):
        p += sp[P_PROGRESS_BRIDE]
    else:
        m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if tb.card[st.inst[s, k, K.I_CARD], K.CF_EXCLUSIVE] >= 0:
                p += sp[P_PROGRESS_DAUGHTER]
                break
    if ball >= 0:
        if st.sv[s, K.SV_LOCK + ball] == 0:
            p += sp[P_PROGRESS_BALLROOM]
        if bride_at_nb(st, tb, s, ball):
            p += sp[P_PROGRESS_BRIDE_IN]
    if prince_in_realm_nb(st, tb, s):
        p += sp[P_PROGRESS_PRINCE]
    if activate_in_realm_nb(st, tb, s, K.AB_ACTIVATE_TO_WIN) >= 0:
        p += sp[P_PROGRESS_BELLS]
    p -= sp[P_PROGRESS_SLIPPER] * passive_count_nb(st, tb, s, K.AB_GLASS_SLIPPER)
    return min(max(p, 0.0), 1.0)


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """Lady Tremaine's terms of the heuristic's scoring (``what``: the ``W_*`` codes of
    :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        return wedding_progress_nb(st, tb, sp, s)
    return x
