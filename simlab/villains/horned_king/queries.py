"""The Horned King's queries: the answers of his ongoing abilities to the questions the queries ask
(:mod:`simlab.kernels.query`, ``Q_*``; reached through its table, filled by :func:`simlab.villains.bind_abilities`).
They read the state only (tests/test_layout.py)."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import (
    NO_ANSWER,
    Q_GRANTED_ACTIVATES,
    Q_MIN_ALLIES,
    Q_VANQUISH_REACH,
    zone_bits_nb,
)

# the questions answer_nb answers, and for which of his ongoing abilities
ANSWERS = {
    Q_VANQUISH_REACH: (K.AB_VANQUISH_ADJACENT,),
    Q_MIN_ALLIES: (K.AB_ATTACHED_NEEDS_TWO_ALLIES,),
    Q_GRANTED_ACTIVATES: (K.AB_GRANTS_ACTIVATE,),
}


@kernel
def answer_nb(st, tb, q, p, s, a, b):
    """Ongoing ability ``p``'s answer to question ``q`` for seat ``s`` (``a``, ``b``: its arguments)."""
    if q == Q_VANQUISH_REACH:  # an Ally joining a Vanquish at an adjacent location
        return 1 if b == 1 or b == -1 else 0
    if q == Q_MIN_ALLIES:  # an Item on Hero instance a: a Vanquish of it needs 2 Allies
        m = zone_bits_nb(st, s, K.Z_REALM)
        while m != 0:
            j = lowest_nb(m)
            m &= m - 1
            if st.inst[s, j, K.I_HOST] == a and tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE] == p:
                return 2
        return 0
    if q == Q_GRANTED_ACTIVATES:  # one Activate action for each card of his at location a granting one
        n = 0
        m = zone_bits_nb(st, s, K.Z_REALM)
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if st.inst[s, k, K.I_LOC] == a and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == p:
                n += 1
        return n
    return NO_ANSWER
