"""Heroes: the harm they do and what defeating one is worth.

The harm a Hero does where it stands (the top-row actions it covers, its Strength, its ongoing ability; the plan
adds its own Heroes' harm), what defeating it gains, and the best Vanquish, defeat and trap open to a seat. The
terms of the villain's own cards and of Fate read these, so they sit first.
"""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel, part
from simlab.kernels.query import (
    realm_heroes_nb,
    trappable_nb,
    vanquish_eligible_nb,
    zone_bits_nb,
)
from strategies.heuristic.memo import (
    M_DEFEAT,
    M_HEROES_AT,
    M_SEAT,
    M_TOP_ROW,
    instance_strength_nb,
    memo_has_nb,
    memo_put_nb,
    vanquishable_nb,
)
from strategies.heuristic.params import (
    BIG,
    P_ALLY_VALUE,
    P_COVER_FATE,
    P_COVER_GAIN,
    P_COVER_OTHER,
    P_COVER_PLAY,
    P_COVER_VALUE,
    P_COVER_VANQUISH,
    P_HERO_STRENGTH_HARM,
    P_THREAT_WEIGHT,
    P_VANQUISH_VALUE,
)
from strategies.heuristic.questions import (
    _F,
    _I,
    _RU,
    _SP,
    _ST,
    _TB,
    W_ALLY_KEPT,
    W_DEFEAT_GAIN,
    W_DEFEAT_VALUE,
    W_HERO_HARM,
    ask_plan_nb,
)


@kernel
def top_row_value_nb(st, tb, sp, s, loc):
    """Worth to seat ``s`` of the top-row actions of ``loc`` (what a Hero there covers; found once per decision)."""
    if memo_has_nb(st, s, M_TOP_ROW, loc):
        return st.memo[s, M_TOP_ROW, loc]
    return memo_put_nb(st, s, M_TOP_ROW, loc, top_row_worth_nb(st, tb, sp, s, loc))


@kernel
def top_row_worth_nb(st, tb, sp, s, loc):
    """:func:`top_row_value_nb` worked out."""
    v = st.sv[s, K.SV_VILLAIN]
    total = 0.0
    for j in range(tb.locs[v, loc, K.LC_NSYM]):
        if tb.syms[v, loc, j, K.SY_TOP] == 0:
            continue
        kind = tb.syms[v, loc, j, K.SY_KIND]
        if kind == K.S_GAIN:
            total += sp[P_COVER_GAIN] * tb.syms[v, loc, j, K.SY_VAL]
        elif kind == K.S_PLAY or kind == K.S_ACTIVATE:
            total += sp[P_COVER_PLAY]
        elif kind == K.S_VANQUISH or kind == K.S_MOVE:
            total += sp[P_COVER_VANQUISH]
        elif kind == K.S_FATE:
            total += sp[P_COVER_FATE]
        else:
            total += sp[P_COVER_OTHER]
    return total * sp[P_COVER_VALUE] / 1.5  # the cover_* weights are set for cover_value 1.5


@kernel
def heroes_at_nb(st, tb, s, loc):
    """Bitmask of the Heroes in seat ``s``'s Realm at ``loc`` (found once per decision)."""
    if memo_has_nb(st, s, M_HEROES_AT, loc):
        return int(st.memo[s, M_HEROES_AT, loc])
    here = 0
    m = heroes_nb(st, tb, s)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_LOC] == loc:
            here |= 1 << k
    return int(memo_put_nb(st, s, M_HEROES_AT, loc, float(here)))


@kernel
def heroes_nb(st, tb, s):
    """Bitmask of the Heroes in seat ``s``'s Realm (found once per decision)."""
    if memo_has_nb(st, s, M_SEAT, 2):
        return int(st.memo[s, M_SEAT, 2])
    return int(memo_put_nb(st, s, M_SEAT, 2, float(realm_heroes_nb(st, tb, s))))


@kernel
def hero_threat_nb(st, tb, ru, sp, s, c, loc, self_k):
    """Harm Hero card ``c`` at ``loc`` does seat ``s`` (``self_k``: its instance if already in play, else -1)."""
    others = heroes_at_nb(st, tb, s, loc)
    if self_k >= 0:
        others &= ~(1 << self_k)
    other_cover = others != 0
    h = 0.0
    if not other_cover:
        h += top_row_value_nb(st, tb, sp, s, loc)
    h += sp[P_HERO_STRENGTH_HARM] * tb.card[c, K.CF_STRENGTH]
    if self_k >= 0 and st.inst[s, self_k, K.I_TRAPPED] != 0:
        return h * sp[P_THREAT_WEIGHT]
    if tb.card[c, K.CF_PASSIVE] != K.AB_NONE:
        h = ask_plan_nb(st, tb, ru, sp, W_HERO_HARM, s, c, loc, self_k, h)
    return h * sp[P_THREAT_WEIGHT]


@kernel
def defeat_gain_nb(st, tb, ru, sp, s, c):
    """What seat ``s`` gains from Hero card ``c``'s "when defeated" ability (negative: it hurts)."""
    if tb.card[c, K.CF_ON_DEFEAT] == K.AB_NONE:
        return 0.0
    return ask_plan_nb(st, tb, ru, sp, W_DEFEAT_GAIN, s, c, 0, 0, 0.0)


@kernel
def defeat_value_nb(st, tb, ru, sp, s, h):
    """Worth to seat ``s`` of defeating its Hero instance ``h`` (found once per decision)."""
    if memo_has_nb(st, s, M_DEFEAT, h):
        return st.memo[s, M_DEFEAT, h]
    return memo_put_nb(st, s, M_DEFEAT, h, defeat_worth_nb(st, tb, ru, sp, s, h))


@kernel
def defeat_worth_nb(st, tb, ru, sp, s, h):
    """:func:`defeat_value_nb` worked out."""
    c = st.inst[s, h, K.I_CARD]
    v = hero_threat_nb(st, tb, ru, sp, s, c, st.inst[s, h, K.I_LOC], h) + defeat_gain_nb(st, tb, ru, sp, s, c)
    if tb.card[c, K.CF_PASSIVE] != K.AB_NONE:
        v = ask_plan_nb(st, tb, ru, sp, W_DEFEAT_VALUE, s, h, 0, 0, v)
    return v


@kernel
def vanquish_value_nb(st, tb, ru, sp, s, h):
    """Worth of a Vanquish of ``h``: the Hero's harm and defeat gain, less the Allies it costs."""
    here = st.inst[s, h, K.I_LOC]
    need = instance_strength_nb(st, tb, s, h)
    free = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if vanquish_eligible_nb(st, tb, s, k, here) and ally_kept_nb(st, tb, ru, sp, s, k):
            free += instance_strength_nb(st, tb, s, k)
    lost = max(need - free, 0)
    return sp[P_VANQUISH_VALUE] + defeat_value_nb(st, tb, ru, sp, s, h) - sp[P_ALLY_VALUE] * lost


@kernel
def ally_kept_nb(st, tb, ru, sp, s, k):
    """Seat ``s``'s Ally ``k``, used in a Vanquish, is not discarded (its plan says; only an ongoing ability keeps
    one)."""
    if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_NONE:
        return False
    return ask_plan_nb(st, tb, ru, sp, W_ALLY_KEPT, s, k, 0, 0, 0.0) != 0.0


@part(_ST, _TB, _RU, _SP, _I, returns=_F, cache="strategies")
def best_vanquish_nb(st, tb, ru, sp, s):
    best = -BIG
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if vanquishable_nb(st, tb, s, h):
            best = max(best, vanquish_value_nb(st, tb, ru, sp, s, h))
    return best


@part(_ST, _TB, _RU, _SP, _I, _I, returns=_F, cache="strategies")
def best_defeat_nb(st, tb, ru, sp, s, max_strength):
    """Best worth of defeating one Hero of Strength <= max_strength (no Allies needed)."""
    best = -BIG
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if instance_strength_nb(st, tb, s, h) <= max_strength:
            best = max(best, defeat_value_nb(st, tb, ru, sp, s, h))
    return best


@part(_ST, _TB, _RU, _SP, _I, _F, returns=_F, cache="strategies")
def best_trap_nb(st, tb, ru, sp, s, floor):
    """The largest threat of a Hero seat ``s`` could trap, at least ``floor``."""
    best = floor
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if trappable_nb(st, tb, s, h):
            c = st.inst[s, h, K.I_CARD]
            best = max(best, hero_threat_nb(st, tb, ru, sp, s, c, st.inst[s, h, K.I_LOC], h))
    return best
