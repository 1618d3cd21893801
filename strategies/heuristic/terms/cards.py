"""The villain's own cards: what playing, activating, moving, keeping and discarding each is worth, and Power.

An Ally or Item where it stands, an activation, a move, an Effect resolved, a card played or kept in hand (by
ability code, the plan adding its own cards' terms), the discard threshold and the worth of digging, and the worth
of Power by what the hand can spend. ``effect_value_nb``, ``card_value_nb``, ``keep_value_nb`` and
``best_move_nb`` are parts, compiled on their own and called through their symbols as ``name.call``.
"""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, count_nb, lowest_nb
from simlab.kernels.compile import kernel, part
from simlab.kernels.query import (
    activation_cost_nb,
    can_enter_nb,
    can_move_card_nb,
    flip_cost_nb,
    play_cost_nb,
    vanquish_eligible_nb,
    zone_bits_nb,
)
from strategies.heuristic.memo import (
    M_CARD,
    M_KEEP,
    M_STAYING,
    allies_at_nb,
    dearest_nb,
    instance_strength_nb,
    memo_has_nb,
    memo_put_nb,
    progress_nb,
    vanquishable_nb,
)
from strategies.heuristic.params import (
    BIG,
    P_ACTIVATE_DEFAULT,
    P_ALLY_ENABLES_DEFEAT,
    P_ALLY_NEAR_HERO,
    P_ALLY_NEAR_HERO_SHARE,
    P_ALLY_VALUE,
    P_CARD_DEFAULT,
    P_DIG_SURPLUS_BOOST,
    P_DIG_VALUE,
    P_DISCARD_ACTION_COST,
    P_DISCARD_ACTION_SHARE,
    P_DISCARD_BELOW,
    P_DRAW_VALUE,
    P_EFFECT_DEFAULT,
    P_HIJACK_FATE,
    P_ITEM_DEFAULT,
    P_KEEP_CONDITION_MAX,
    P_KEEP_CONDITION_MIN,
    P_KEEP_REMOVAL_MIN,
    P_KEEP_REMOVAL_SECOND,
    P_KEEP_REMOVAL_SHARE,
    P_KEEP_SPEND_SHARE,
    P_MOVE_COST,
    P_NOVICE_ACTIVATE,
    P_NOVICE_ACTIVATE_COST,
    P_NOVICE_BASE,
    P_NOVICE_COST,
    P_NOVICE_KEEP,
    P_NOVICE_KEEP_COST,
    P_NOVICE_STRENGTH,
    P_PLAN,
    P_POWER_GLUT_FLOOR,
    P_POWER_GLUT_SPAN,
    P_POWER_TARGET,
    P_POWER_VALUE,
    P_SECOND_COPY_KEEP,
    P_SPEND_WEIGHT,
    P_SURPLUS_SCALE,
)
from strategies.heuristic.questions import (
    _F,
    _I,
    _RU,
    _SP,
    _ST,
    _TB,
    W_ACTIVATE_WINS,
    W_ACTIVATION,
    W_ACTIVATION_IDLE,
    W_ALLY,
    W_CARD,
    W_EFFECT,
    W_KEEP,
    W_KEEP_ITEM,
    W_KEEPS_COPIES,
    W_MOVE,
    W_POSITION,
    W_REACHES_NEIGHBOURS,
    W_STRENGTH_ADDED,
    ask_plan_nb,
)
from strategies.heuristic.terms.heroes import (
    defeat_value_nb,
    heroes_at_nb,
    heroes_nb,
)


@kernel
def position_value_nb(st, tb, ru, sp, s, k, loc):
    """Worth to seat ``s`` of its Ally or Item ``k`` standing at ``loc`` (what moving it changes; where it stands:
    found once per decision)."""
    if loc != st.inst[s, k, K.I_LOC]:
        return position_worth_nb(st, tb, ru, sp, s, k, loc)
    if memo_has_nb(st, s, M_STAYING, k):
        return st.memo[s, M_STAYING, k]
    return memo_put_nb(st, s, M_STAYING, k, position_worth_nb(st, tb, ru, sp, s, k, loc))


@kernel
def position_worth_nb(st, tb, ru, sp, s, k, loc):
    """:func:`position_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    v = ask_plan_nb(st, tb, ru, sp, W_POSITION, s, k, loc, 0, 0.0)
    if tb.card[c, K.CF_TYPE] == K.T_ALLY:
        # Allies are worth more beside Heroes they help vanquish, most where they complete the Strength needed.
        mine = instance_strength_nb(st, tb, s, k)
        mh = heroes_at_nb(st, tb, s, loc)
        others = 0  # allies_strength_at_nb(loc, k): the Allies there, less this one if it is among them
        if mh != 0:
            among = (VILLAIN_BITS >> k) & 1 != 0 and vanquish_eligible_nb(st, tb, s, k, loc)
            others = allies_at_nb(st, tb, s, loc) - (mine if among else 0)
        while mh != 0:
            h = lowest_nb(mh)
            mh &= mh - 1
            need = instance_strength_nb(st, tb, s, h)
            if others < need <= others + mine:
                v += sp[P_ALLY_ENABLES_DEFEAT] * max(defeat_value_nb(st, tb, ru, sp, s, h), 0.0)
            else:
                v += sp[P_ALLY_NEAR_HERO_SHARE] * sp[P_ALLY_VALUE] * mine + sp[P_ALLY_NEAR_HERO]
    return v


@part(_ST, _TB, _RU, _SP, _I, _I, _I, returns=_F, cache="strategies")  # asked by the plans
def ally_help_nb(st, tb, ru, sp, s, c, loc):
    """Worth of adding an Ally of card ``c`` at ``loc``: Heroes it would let a Vanquish reach."""
    mh = heroes_at_nb(st, tb, s, loc)
    if reaches_neighbours_nb(st, tb, ru, sp, s, c):
        if loc > 0:
            mh |= heroes_at_nb(st, tb, s, loc - 1)
        if loc < K.N_LOC - 1:
            mh |= heroes_at_nb(st, tb, s, loc + 1)
    best = 0.0
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if vanquishable_nb(st, tb, s, h):
            continue
        best = max(best, hero_help_nb(st, tb, ru, sp, s, c, h))
    return best


@kernel
def ally_help_anywhere_nb(st, tb, ru, sp, s, c):
    """The best :func:`ally_help_nb` over the locations an Ally of card ``c`` may enter, 0 if none: each Hero's
    worth found once, where the Hero is within reach of one of those locations (its worth does not depend on
    which)."""
    enter = 0
    for x in range(K.N_LOC):
        if can_enter_nb(st, tb, s, c, x):
            enter |= 1 << x
    adjacent = reaches_neighbours_nb(st, tb, ru, sp, s, c)
    best = 0.0
    mh = heroes_nb(st, tb, s) if enter != 0 else 0
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        hl = st.inst[s, h, K.I_LOC]
        reach = 1 << hl
        if adjacent:
            reach |= (1 << (hl + 1)) | ((1 << hl) >> 1)  # the neighbours; bits past the last location are not in enter
        if reach & enter == 0 or vanquishable_nb(st, tb, s, h):
            continue
        best = max(best, hero_help_nb(st, tb, ru, sp, s, c, h))
    return best


@kernel
def reaches_neighbours_nb(st, tb, ru, sp, s, c):
    """An Ally of seat ``s``'s card ``c`` may take part in a Vanquish at the locations next to its own (its plan
    says; only an ongoing ability lets it)."""
    if tb.card[c, K.CF_PASSIVE] == K.AB_NONE:
        return False
    return ask_plan_nb(st, tb, ru, sp, W_REACHES_NEIGHBOURS, s, c, 0, 0, 0.0) != 0.0


@kernel
def hero_help_nb(st, tb, ru, sp, s, c, h):
    """Worth of an Ally of card ``c`` joining the Allies that could vanquish Hero ``h`` (not yet defeatable)."""
    hl = st.inst[s, h, K.I_LOC]
    need = instance_strength_nb(st, tb, s, h) - allies_at_nb(st, tb, s, hl)
    add = tb.card[c, K.CF_STRENGTH]
    if tb.card[c, K.CF_PASSIVE] != K.AB_NONE:
        add = int(ask_plan_nb(st, tb, ru, sp, W_STRENGTH_ADDED, s, c, hl, 0, float(add)))
    if need <= add:
        return sp[P_ALLY_ENABLES_DEFEAT] * defeat_value_nb(st, tb, ru, sp, s, h)
    # a step towards a Hero too strong for one Ally: Allies gather at his location
    return sp[P_ALLY_ENABLES_DEFEAT] * defeat_value_nb(st, tb, ru, sp, s, h) * add / max(need, 1)


@kernel
def activation_value_nb(st, tb, ru, sp, s, k):
    """Worth of activating card ``k`` (-1: flipping the villain's tile to its back side), cost included."""
    if k < 0:
        v = ask_plan_nb(st, tb, ru, sp, W_ACTIVATION, s, -1, 0, 0, np.nan)
        return v if not np.isnan(v) else sp[P_ACTIVATE_DEFAULT] - sp[P_POWER_VALUE] * flip_cost_nb(st, tb, ru, s)
    c = st.inst[s, k, K.I_CARD]
    cost = sp[P_POWER_VALUE] * activation_cost_nb(tb, ru, c)
    if ask_plan_nb(st, tb, ru, sp, W_ACTIVATE_WINS, s, k, 0, 0, 0.0) != 0.0:
        return BIG
    if sp[P_PLAN] == 0:
        return sp[P_NOVICE_ACTIVATE] - sp[P_NOVICE_ACTIVATE_COST] * cost
    v = ask_plan_nb(st, tb, ru, sp, W_ACTIVATION, s, k, 0, 0, np.nan)
    if not np.isnan(v):
        return v
    return sp[P_ACTIVATE_DEFAULT] - cost


@part(_ST, _TB, _RU, _SP, _I, _F, returns=_F, cache="strategies")  # the budget compared with costs only: as a float
def best_activation_nb(st, tb, ru, sp, s, budget):
    """Best worth among activations seat ``s`` could afford with ``budget`` (-BIG if none)."""
    best = -BIG
    if st.sv[s, K.SV_TILE] == 1 and budget >= flip_cost_nb(st, tb, ru, s):
        best = activation_value_nb(st, tb, ru, sp, s, -1)
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] != 0:
            continue
        c = st.inst[s, k, K.I_CARD]
        ab = tb.card[c, K.CF_ACTIVATE]
        if ab == K.AB_NONE or activation_cost_nb(tb, ru, c) > budget:
            continue
        wins = ask_plan_nb(st, tb, ru, sp, W_ACTIVATE_WINS, s, k, 0, 0, 0.0)
        if wins > 0.0:
            return BIG
        if wins < 0.0:  # an Activate to win that cannot win yet does nothing
            continue
        if ask_plan_nb(st, tb, ru, sp, W_ACTIVATION_IDLE, s, k, 0, 0, 0.0) != 0.0:
            continue
        best = max(best, activation_value_nb(st, tb, ru, sp, s, k))
    return best


@kernel
def move_value_nb(st, tb, ru, sp, s, k, dest):
    """Worth to seat ``s`` (the owner) of moving its Ally or Item ``k`` to ``dest``."""
    v = ask_plan_nb(st, tb, ru, sp, W_MOVE, s, k, dest, 0, np.nan)
    if not np.isnan(v):
        return v
    here = st.inst[s, k, K.I_LOC]
    gain = position_value_nb(st, tb, ru, sp, s, k, dest) - position_value_nb(st, tb, ru, sp, s, k, here)
    return gain - sp[P_MOVE_COST]


@part(_ST, _TB, _RU, _SP, _I, returns=_F, cache="strategies")
def best_move_nb(st, tb, ru, sp, s):
    best = -BIG
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, 0):
                best = max(best, move_value_nb(st, tb, ru, sp, s, k, dest))
    return best


@part(_ST, _TB, _RU, _SP, _I, _I, _I, returns=_F, cache="strategies")
def effect_value_nb(st, tb, ru, sp, s, c, budget):
    """Worth to seat ``s`` of resolving Effect (or Condition) card ``c``; ``budget``: Power left after paying."""
    v = ask_plan_nb(st, tb, ru, sp, W_EFFECT, s, c, budget, 0, np.nan)
    if not np.isnan(v):
        return v
    if tb.card[c, K.CF_EFFECT] == K.AB_HIJACK_FATE:
        return sp[P_HIJACK_FATE]
    return sp[P_EFFECT_DEFAULT]


@part(_ST, _TB, _RU, _SP, _I, _I, _I, _I, returns=_F, cache="strategies")
def card_value_nb(st, tb, ru, sp, s, k, loc, host):
    """Worth to seat ``s`` of playing its card ``k`` to ``loc`` / ``host`` (loc < 0: wherever fits best, found
    once per decision)."""
    if loc >= 0 or host >= 0:
        return card_worth_nb(st, tb, ru, sp, s, k, loc, host)
    if memo_has_nb(st, s, M_CARD, k):
        return st.memo[s, M_CARD, k]
    return memo_put_nb(st, s, M_CARD, k, card_worth_nb(st, tb, ru, sp, s, k, loc, host))


@kernel
def card_worth_nb(st, tb, ru, sp, s, k, loc, host):
    """:func:`card_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    cost = play_cost_nb(st, tb, s, c)
    if sp[P_PLAN] == 0:
        if t == K.T_ALLY:
            return sp[P_NOVICE_BASE] + sp[P_NOVICE_STRENGTH] * tb.card[c, K.CF_STRENGTH]
        return sp[P_NOVICE_BASE] + sp[P_NOVICE_COST] * cost
    if t == K.T_EFFECT or t == K.T_CONDITION:
        return effect_value_nb.call(st, tb, ru, sp, s, c, st.sv[s, K.SV_POWER] - cost)
    if t == K.T_ALLY or t == K.T_ITEM:
        v = ask_plan_nb(st, tb, ru, sp, W_CARD, s, k, loc, host, np.nan)
        if not np.isnan(v):
            return v
    if t == K.T_ALLY:
        v = sp[P_ALLY_VALUE] * tb.card[c, K.CF_STRENGTH]
        v = ask_plan_nb(st, tb, ru, sp, W_ALLY, s, k, loc, 0, v)
        if loc >= 0:
            v += ally_help_nb(st, tb, ru, sp, s, c, loc)
        else:
            v += ally_help_anywhere_nb(st, tb, ru, sp, s, c)
        return v
    if t == K.T_ITEM:
        return sp[P_ITEM_DEFAULT]
    return sp[P_CARD_DEFAULT]


@part(_ST, _TB, _RU, _SP, _I, _I, returns=_F, cache="strategies")
def keep_value_nb(st, tb, ru, sp, s, k):
    """Worth of keeping hand card ``k`` (what a discard gives up; found once per decision)."""
    if memo_has_nb(st, s, M_KEEP, k):
        return st.memo[s, M_KEEP, k]
    return memo_put_nb(st, s, M_KEEP, k, keep_worth_nb(st, tb, ru, sp, s, k))


@kernel
def keep_worth_nb(st, tb, ru, sp, s, k):
    """:func:`keep_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    if sp[P_PLAN] == 0:
        return sp[P_NOVICE_KEEP] + sp[P_NOVICE_KEEP_COST] * tb.card[c, K.CF_COST]
    t = tb.card[c, K.CF_TYPE]
    if (
        t == K.T_EFFECT
        and earlier_copy_in_hand_nb(st, s, k)
        and ask_plan_nb(st, tb, ru, sp, W_KEEPS_COPIES, s, c, 0, 0, 0.0) == 0.0
    ):
        # a second copy of a utility Effect rarely earns its place in a 4-card hand
        return sp[P_SECOND_COPY_KEEP]
    v = ask_plan_nb(st, tb, ru, sp, W_KEEP, s, k, 0, 0, np.nan)
    if not np.isnan(v):
        return v
    if t == K.T_CONDITION:
        # a Condition waits for its trigger: one copy in hand is enough
        if earlier_copy_in_hand_nb(st, s, k):
            return sp[P_SECOND_COPY_KEEP]
        worth = effect_value_nb.call(st, tb, ru, sp, s, c, st.sv[s, K.SV_POWER])
        return min(max(worth, sp[P_KEEP_CONDITION_MIN]), sp[P_KEEP_CONDITION_MAX])
    spend = sp[P_KEEP_SPEND_SHARE] * sp[P_SPEND_WEIGHT] * play_cost_nb(st, tb, s, c)
    worth = card_value_nb.call(st, tb, ru, sp, s, k, -1, -1) - spend
    if t == K.T_ITEM:
        return ask_plan_nb(st, tb, ru, sp, W_KEEP_ITEM, s, k, 0, 0, worth)
    return worth


@part(_ST, _TB, _RU, _SP, _I, _I, returns=_F, cache="strategies")  # asked by the plans
def keep_removal_nb(st, tb, ru, sp, s, k):
    """Worth of keeping hand card ``k``, an Effect that defeats or traps Heroes: what the worst Hero in play costs
    (it may be the one to remove next turn)."""
    if earlier_copy_in_hand_nb(st, s, k):
        return sp[P_KEEP_REMOVAL_SECOND]
    worst = 0.0
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        worst = max(worst, defeat_value_nb(st, tb, ru, sp, s, h))
    return max(sp[P_KEEP_REMOVAL_MIN], sp[P_KEEP_REMOVAL_SHARE] * worst)


@kernel
def discard_threshold_nb(st, tb, ru, sp, s):
    """Hand cards worth less than this are discarded: more eagerly while the plan is far from done."""
    if sp[P_DISCARD_BELOW] < 0:
        return sp[P_DISCARD_BELOW]
    # Power piling up unspent means the hand holds the wrong cards.
    surplus = power_surplus_nb(st, tb, sp, s)
    return sp[P_DISCARD_BELOW] + sp[P_DIG_VALUE] * (
        1.0 - progress_nb(st, tb, ru, sp, s) + min(max(surplus, 0) / sp[P_SURPLUS_SCALE], 1.0)
    )


@kernel
def junk_count_nb(st, tb, ru, sp, s):
    n = 0
    limit = discard_threshold_nb(st, tb, ru, sp, s)
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if keep_value_nb.call(st, tb, ru, sp, s, k) < limit:
            n += 1
    return n


@kernel
def power_surplus_nb(st, tb, sp, s):
    """Power beyond what the dearest card in hand (plus ``power_target``) needs; negative while short."""
    return st.sv[s, K.SV_POWER] - (dearest_nb(st, tb, s) + sp[P_POWER_TARGET])


@kernel
def earlier_copy_in_hand_nb(st, s, k):
    """Another copy of hand card ``k``'s card sits in hand at a lower instance (``k`` is a second copy)."""
    m = zone_bits_nb(st, s, K.Z_HAND) & ((1 << k) - 1)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_CARD] == st.inst[s, k, K.I_CARD]:
            return True
    return False


@kernel
def dig_worth_nb(st, tb, ru, sp, s):
    """Worth of discarding the junk in hand to draw afresh: more while unspent Power piles up."""
    return sp[P_DRAW_VALUE] * junk_count_nb(st, tb, ru, sp, s) * dig_boost_nb(st, tb, sp, s)


@kernel
def dig_boost_nb(st, tb, sp, s):
    surplus = power_surplus_nb(st, tb, sp, s)
    return 1.0 + sp[P_DIG_SURPLUS_BOOST] * min(max(surplus, 0) / sp[P_SURPLUS_SCALE], 1.0)


@kernel
def discard_action_value_nb(sp, dig):
    """Score of taking the Discard action, whose draw is worth ``dig`` (dig_worth_nb)."""
    return sp[P_DISCARD_ACTION_SHARE] * dig - sp[P_DISCARD_ACTION_COST]


@kernel
def discard_action_ceiling_nb(st, tb, sp, s):
    """The most :func:`discard_action_value_nb` of :func:`dig_worth_nb` can be, whatever the cards in hand are
    worth: with none of them junk or every one (the worth is monotone in the count, and so is each rounding),
    without working out a keep value. NaN if that is not a number (then nothing is ruled out)."""
    boost = dig_boost_nb(st, tb, sp, s)
    none = discard_action_value_nb(sp, sp[P_DRAW_VALUE] * 0 * boost)
    every = discard_action_value_nb(
        sp, sp[P_DRAW_VALUE] * count_nb(zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS) * boost
    )
    if np.isnan(none) or np.isnan(every):
        return np.nan
    return max(none, every)


@kernel
def power_worth_nb(st, tb, sp, s, gain):
    """Worth of gaining ``gain`` Power: full up to what the hand can spend, then less and less."""
    over = power_surplus_nb(st, tb, sp, s)
    factor = 1.0 if over <= 0 else max(sp[P_POWER_GLUT_FLOOR], 1.0 - over / sp[P_POWER_GLUT_SPAN])
    return sp[P_POWER_VALUE] * gain * factor
