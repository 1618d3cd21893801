"""Lady Tremaine's queries: readings of the state her routines (``abilities.py``) and her plan
(``strategies/plans/lady_tremaine.py``) both make. Like :mod:`simlab.kernels.query`, they read the state only and
call no engine kernel, so the heuristic may ask them (tests/test_layout.py). :func:`answer_nb` answers the questions the
queries ask of her ongoing abilities (:mod:`simlab.kernels.query`, ``Q_*``)."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    NO_ANSWER,
    Q_ALLY_MOVE_BARRED,
    Q_COST_PLUS,
    Q_ENTRY_BARRED,
    passive_count_nb,
    passive_sum_nb,
    zone_bits_nb,
)
from simlab.villains.lady_tremaine.codes import (
    AB_ALLIES_MOVED_ONLY_BY_FATE,
    AB_EFFECT_COST_PLUS,
    AB_GLASS_SLIPPER,
    AB_ITEM_COST_PLUS,
    AB_NO_ALLIES_ENTER_BALLROOM,
)

# the questions answer_nb answers, and for which of her ongoing abilities
ANSWERS = {
    Q_COST_PLUS: (AB_EFFECT_COST_PLUS, AB_ITEM_COST_PLUS),
    Q_ENTRY_BARRED: (AB_NO_ALLIES_ENTER_BALLROOM,),
    Q_ALLY_MOVE_BARRED: (AB_ALLIES_MOVED_ONLY_BY_FATE,),
}


@kernel
def answer_nb(st, tb, q, p, s, a, b):
    """Ongoing ability ``p``'s answer to question ``q`` for seat ``s`` (``a``, ``b``: its arguments)."""
    if q == Q_COST_PLUS:  # Effects, or Items, cost the sum of her untrapped Heroes' numbers more
        if (p == AB_EFFECT_COST_PLUS and a == K.T_EFFECT) or (p == AB_ITEM_COST_PLUS and a == K.T_ITEM):
            return passive_sum_nb(st, tb, s, p)
        return 0
    if q == Q_ENTRY_BARRED:  # no Ally enters the Ballroom while her Hero is in the Realm, untrapped
        return 1 if tb.card[a, K.CF_TYPE] == K.T_ALLY and passive_count_nb(st, tb, s, p) > 0 else 0
    if q == Q_ALLY_MOVE_BARRED:  # her Allies are moved by Fate cards only while her Hero is in the Realm, untrapped
        return 1 if passive_count_nb(st, tb, s, p) > 0 else 0
    return NO_ANSWER


@kernel
def wedding_ready_nb(st, tb, s, c):
    """Wedding Bells (card row ``c``) can win: the Prince and a Ball Gown daughter at its location, no Glass
    Slipper."""
    where = tb.card[c, K.CF_LOCATION]
    prince = False
    bride = False
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        ck = st.inst[s, k, K.I_CARD]
        if tb.card[ck, K.CF_PASSIVE] == AB_GLASS_SLIPPER:
            return False
        if st.inst[s, k, K.I_LOC] == where:
            if ck == tb.card[c, K.CF_REF0]:
                prince = True
            if tb.card[ck, K.CF_MARKED] != 0:
                bride = True
    return prince and bride
