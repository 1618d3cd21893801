"""The Horned King's queries: the answers of his ongoing abilities to the questions the queries ask
(:mod:`simlab.kernels.query`, ``Q_*``; reached through its table, filled by :func:`simlab.villains.bind_abilities`).
They read the state only (tests/test_layout.py)."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    NO_ANSWER,
    Q_GRANTED_ACTIVATES,
    Q_HERO_STRENGTH,
    Q_MIN_ALLIES,
    Q_OWN_STRENGTH,
    Q_VANQUISH_REACH,
    zone_bits_nb,
)
from simlab.villains.horned_king.codes import (
    AB_ATTACHED_NEEDS_TWO_ALLIES,
    AB_GRANTS_ACTIVATE,
    AB_OTHER_HEROES_PLUS,
    AB_PLUS_PER_OTHER_HERO_HERE,
    AB_PLUS_WITH_ALLY_HERE,
    AB_VANQUISH_ADJACENT,
)

# the questions answer_nb answers, and for which of his ongoing abilities
ANSWERS = {
    Q_VANQUISH_REACH: (AB_VANQUISH_ADJACENT,),
    Q_MIN_ALLIES: (AB_ATTACHED_NEEDS_TWO_ALLIES,),
    Q_GRANTED_ACTIVATES: (AB_GRANTS_ACTIVATE,),
    Q_OWN_STRENGTH: (AB_PLUS_WITH_ALLY_HERE, AB_PLUS_PER_OTHER_HERO_HERE),
    Q_HERO_STRENGTH: (AB_ATTACHED_NEEDS_TWO_ALLIES, AB_OTHER_HEROES_PLUS),
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
    if q == Q_OWN_STRENGTH or q == Q_HERO_STRENGTH:
        return strength_added_nb(st, tb, q, p, s, a)
    return NO_ANSWER


@kernel
def strength_added_nb(st, tb, q, p, s, k):
    """The Strength ability ``p`` adds to instance ``k``: its own (plus_with_ally_here: its number, once, while another
    Ally is at its location; plus_per_other_hero_here, untrapped: its number for each other Hero at its location),
    or a card's in the Realm to a Hero (attached_needs_two_allies: its number, to the Hero it is attached to;
    other_heroes_plus, untrapped: its number, to every other Hero)."""
    c = st.inst[s, k, K.I_CARD]
    here = st.inst[s, k, K.I_LOC]
    if q == Q_OWN_STRENGTH and p == AB_PLUS_PER_OTHER_HERO_HERE and st.inst[s, k, K.I_TRAPPED] != 0:
        return 0
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & ~(1 << k)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        cj = st.inst[s, j, K.I_CARD]
        tj = tb.card[cj, K.CF_TYPE]
        if q == Q_OWN_STRENGTH:
            if p == AB_PLUS_WITH_ALLY_HERE:
                if st.inst[s, j, K.I_LOC] == here and tj == K.T_ALLY:
                    return tb.card[c, K.CF_N]  # once, however many Allies are there
            elif tj == K.T_HERO and st.inst[s, j, K.I_LOC] == here:
                n += tb.card[c, K.CF_N]
            continue
        if tb.card[cj, K.CF_PASSIVE] != p:
            continue
        if p == AB_ATTACHED_NEEDS_TWO_ALLIES:
            if st.inst[s, j, K.I_HOST] == k:
                n += tb.card[cj, K.CF_N]
        elif tj == K.T_HERO and st.inst[s, j, K.I_TRAPPED] == 0:  # other_heroes_plus
            n += tb.card[cj, K.CF_N]
    return n
