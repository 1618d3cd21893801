"""Gaston's queries: the answers of his ongoing abilities to the questions the queries ask
(:mod:`simlab.kernels.query`, ``Q_*``; reached through its table, filled by :func:`simlab.villains.bind_abilities`).
They read the state only (tests/test_layout.py)."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    NO_ANSWER,
    Q_ALLY_STRENGTH,
    Q_HERO_STRENGTH,
    Q_OBSTACLE_REMOVAL_BLOCKED,
    Q_OWN_STRENGTH,
    passive_count_nb,
    zone_bits_nb,
)
from simlab.villains.gaston.codes import (
    AB_ALLIES_HERE_MINUS,
    AB_ATTACHED_STRENGTH,
    AB_BLOCKS_OBSTACLE_REMOVAL,
    AB_OTHER_HEROES_HERE_PLUS,
    AB_WOLF_PACK,
)

# the questions answer_nb answers, and for which of his ongoing abilities
ANSWERS = {
    Q_OBSTACLE_REMOVAL_BLOCKED: (AB_BLOCKS_OBSTACLE_REMOVAL,),
    Q_OWN_STRENGTH: (AB_WOLF_PACK,),
    Q_ALLY_STRENGTH: (AB_ATTACHED_STRENGTH, AB_ALLIES_HERE_MINUS),
    Q_HERO_STRENGTH: (AB_ATTACHED_STRENGTH, AB_OTHER_HEROES_HERE_PLUS),
}


@kernel
def answer_nb(st, tb, q, p, s, a, b):
    """Ongoing ability ``p``'s answer to question ``q`` for seat ``s`` (``a``, ``b``: its arguments)."""
    if q == Q_OBSTACLE_REMOVAL_BLOCKED:  # an untrapped Hero of his blocks every removal
        return 1 if passive_count_nb(st, tb, s, p) > 0 else 0
    if q == Q_OWN_STRENGTH or q == Q_ALLY_STRENGTH or q == Q_HERO_STRENGTH:
        return strength_added_nb(st, tb, q, p, s, a)
    return NO_ANSWER


@kernel
def strength_added_nb(st, tb, q, p, s, k):
    """The Strength ability ``p`` adds to instance ``k``: its own (wolf_pack: +1 for each other copy of it in the
    Realm), or a card's in the Realm (attached_strength: its number, to the card it is attached to;
    allies_here_minus: less its number, to each Ally at its location; other_heroes_here_plus: untrapped, its number,
    to each other Hero at its location)."""
    c = st.inst[s, k, K.I_CARD]
    here = st.inst[s, k, K.I_LOC]
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & ~(1 << k)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        cj = st.inst[s, j, K.I_CARD]
        if q == Q_OWN_STRENGTH:
            if cj == c:
                n += 1
            continue
        if tb.card[cj, K.CF_PASSIVE] != p:
            continue
        if p == AB_ATTACHED_STRENGTH:
            if st.inst[s, j, K.I_HOST] == k:
                n += tb.card[cj, K.CF_N]
        elif p == AB_ALLIES_HERE_MINUS:
            if st.inst[s, j, K.I_LOC] == here:
                n -= tb.card[cj, K.CF_N]
        elif p == AB_OTHER_HEROES_HERE_PLUS:
            if (
                tb.card[cj, K.CF_TYPE] == K.T_HERO
                and st.inst[s, j, K.I_TRAPPED] == 0
                and st.inst[s, j, K.I_LOC] == here
            ):
                n += tb.card[cj, K.CF_N]
    return n
