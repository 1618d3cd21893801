"""Small readings of the position the scoring terms share: the villain's objective, the ongoing and activated
abilities in a Realm. Plain queries with no weights, kept apart from the terms so that every terms module can read
them without importing another.
"""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import zone_bits_nb


@kernel
def objective_nb(st, tb, s):
    return tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE]


@kernel
def realm_passive_at_nb(st, tb, s, passive, loc):
    """Cards with ongoing ability ``passive`` in seat ``s``'s Realm at ``loc`` (any location if loc < 0)."""
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if (loc < 0 or st.inst[s, k, K.I_LOC] == loc) and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == passive:
            n += 1
    return n


@kernel
def activate_in_realm_nb(st, tb, s, ab):
    """Instance in seat ``s``'s Realm whose Activated Ability is ``ab``, or -1."""
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_ACTIVATE] == ab:
            return k
    return -1
