"""Fate: the harm a Fate card does to its target, and what a Fate action is worth.

A Fate Hero by the harm it does where it is played (less what its defeat will give back), a Fate Item or Effect
by ability code (the plan adds the harm of its own Fate cards), and a Fate action by the target's progress. Both
who Fates (which card, where) and the target's own picks inside a Fate effect read these.
"""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel, part
from simlab.kernels.query import (
    can_enter_nb,
    zone_bits_nb,
)
from strategies.heuristic.memo import allies_at_nb, progress_nb
from strategies.heuristic.params import (
    BIG,
    P_FATE_DEFEAT_SHARE,
    P_FATE_EFFECT_HARM,
    P_FATE_ITEM_HARM,
    P_FATE_OUTMATCHED_SHARE,
    P_FATE_TARGET_PROGRESS,
    P_FATE_VALUE,
    P_GATHER_ALLY_HARM,
    P_REPLAY_HERO_HARM,
)
from strategies.heuristic.questions import (
    _F,
    _I,
    _RU,
    _SP,
    _ST,
    _TB,
    W_ALLIES_GATHERED,
    W_FATE_CARD,
    W_HERO_ON_ENTER,
    W_HERO_ON_PLAY,
    W_REVEALED,
    ask_plan_nb,
)
from strategies.heuristic.terms.heroes import defeat_gain_nb, hero_threat_nb


@kernel
def hero_fate_harm_nb(st, tb, ru, sp, s, c, loc):
    """Harm to seat ``s`` of Fate Hero card ``c`` played to ``loc``."""
    if loc < 0:
        loc = 0
    h = hero_threat_nb(st, tb, ru, sp, s, c, loc, -1)
    # a Hero the villain will defeat at once gives it the defeat bonus instead
    h -= sp[P_FATE_DEFEAT_SHARE] * defeat_gain_nb(st, tb, ru, sp, s, c)
    if allies_at_nb(st, tb, s, loc) >= tb.card[c, K.CF_STRENGTH]:
        h -= sp[P_FATE_OUTMATCHED_SHARE] * h if h > 0 else 0.0
    if tb.card[c, K.CF_ON_PLAY] != K.AB_NONE:
        h = ask_plan_nb(st, tb, ru, sp, W_HERO_ON_PLAY, s, c, loc, 0, h)
    if tb.card[c, K.CF_ON_ENTER] != K.AB_NONE:
        h = ask_plan_nb(st, tb, ru, sp, W_HERO_ON_ENTER, s, c, loc, 0, h)
    return h


@kernel
def allies_moved_to_one_harm_nb(st, tb, ru, sp, s, loc):
    """Harm to seat ``s`` of every Ally of its Realm moved to ``loc``: the Allies moved, and what its plan loses
    besides (``W_ALLIES_GATHERED``)."""
    moved = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_LOC] != loc and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY:
            moved += 1
    return sp[P_GATHER_ALLY_HARM] * moved + ask_plan_nb(st, tb, ru, sp, W_ALLIES_GATHERED, s, loc, 0, 0, 0.0)


@part(_ST, _TB, _RU, _SP, _I, _I, _I, _I, returns=_F, cache="strategies")
def basic_fate_harm_nb(st, tb, ru, sp, s, k, loc, host):
    """Harm to seat ``s`` of its revealed Fate card ``k`` played to ``loc`` / ``host`` (loc < 0: best spot).

    A card whose harm depends on the other cards revealed is valued as if they were average;
    :func:`fate_card_harm_nb` knows better.
    """
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_HERO:
        if loc >= 0:
            return hero_fate_harm_nb(st, tb, ru, sp, s, c, loc)
        best = -BIG
        for x in range(K.N_LOC):
            if can_enter_nb(st, tb, s, c, x):
                best = max(best, hero_fate_harm_nb(st, tb, ru, sp, s, c, x))
        return best if best > -BIG else 0.0
    if t == K.T_ITEM or t == K.T_EFFECT:
        v = ask_plan_nb(st, tb, ru, sp, W_FATE_CARD, s, k, loc, host, np.nan)
        if not np.isnan(v):
            return v
    if t == K.T_ITEM:
        return sp[P_FATE_ITEM_HARM]
    if t == K.T_EFFECT:
        if tb.card[c, K.CF_EFFECT] == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
            return sp[P_REPLAY_HERO_HARM]
        return sp[P_FATE_EFFECT_HARM]
    return 0.0


@part(_ST, _TB, _RU, _SP, _I, _I, _I, _I, returns=_F, cache="strategies")
def fate_card_harm_nb(st, tb, ru, sp, s, k, loc, host):
    """Harm to seat ``s`` of its revealed Fate card ``k`` played to ``loc`` / ``host`` (loc < 0: best spot)."""
    v = ask_plan_nb(st, tb, ru, sp, W_REVEALED, s, k, loc, host, np.nan)
    if not np.isnan(v):
        return v
    return basic_fate_harm_nb.call(st, tb, ru, sp, s, k, loc, host)


@kernel
def fate_action_value_nb(st, tb, ru, sp, target):
    return sp[P_FATE_VALUE] + sp[P_FATE_TARGET_PROGRESS] * progress_nb(st, tb, ru, sp, target)
