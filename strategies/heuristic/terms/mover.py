"""The Villain Mover: what each location offers, by the actions its available symbols allow.

``location_value_nb`` adds up a location's symbols (Power, plays, activations, moves, Vanquish, Fate, discards),
given the worths that do not depend on the location, which ``choose_scored_nb`` works out once per decision.
"""

from numba import types

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel, part
from simlab.kernels.query import (
    play_cost_nb,
    realm_instance_nb,
    symbol_kinds_nb,
    zone_bits_nb,
)
from strategies.heuristic.memo import symbols_at_nb
from strategies.heuristic.params import P_ACTIVATION_LOOKAHEAD, P_DISCARD_SYMBOL_SHARE, P_PLAN, P_SPEND_WEIGHT
from strategies.heuristic.questions import (
    _F,
    _I,
    _RU,
    _SP,
    _ST,
    _TB,
    W_ACTIONS_AT,
    W_GRANTED_AT,
    W_NOT_PLAYED_BY_SYMBOL,
    W_READY_AT,
    ask_plan_nb,
)
from strategies.heuristic.terms.cards import best_activation_nb, card_value_nb, power_worth_nb


@kernel
def symbols_offered_nb(st, tb, ru, s, n):
    """Bit ``kind`` set if a board symbol of that kind is available at the location of one of the ``n`` options of
    a DK_MOVE decision of seat ``s``."""
    v = st.sv[s, K.SV_VILLAIN]
    offered = 0
    for i in range(n):
        loc = st.opts[i, 1]
        offered |= symbol_kinds_nb(tb, v, loc, symbols_at_nb(st, tb, ru, s, loc))
    return offered


@part(_ST, _TB, _RU, _SP, _I, _I, _F, _F, _F, _F, types.boolean, returns=_F, cache="strategies")
def location_value_nb(st, tb, ru, sp, s, loc, move_worth, fate_worth, vanquish_worth, dig_worth, ready):
    """Worth to seat ``s`` of moving its Villain Mover to ``loc``: the actions it could take there.

    The worths that do not depend on the location are computed once per decision by the caller, and so is
    ``ready``: the plan's ``W_READY``.
    """
    v = st.sv[s, K.SV_VILLAIN]
    gains = 0
    plays = 0
    total = 0.0
    available = symbols_at_nb(st, tb, ru, s, loc)
    while available != 0:
        j = lowest_nb(available)
        available &= available - 1
        kind = tb.syms[v, loc, j, K.SY_KIND]
        if kind == K.S_GAIN:
            gains += tb.syms[v, loc, j, K.SY_VAL]
        elif kind == K.S_PLAY:
            plays += 1
        elif kind == K.S_ACTIVATE:
            lookahead = st.sv[s, K.SV_POWER] + sp[P_ACTIVATION_LOOKAHEAD]
            total += max(best_activation_nb.call(st, tb, ru, sp, s, lookahead), 0.0)
        elif kind == K.S_MOVE:
            total += move_worth
        elif kind == K.S_FATE:
            total += fate_worth
        elif kind == K.S_VANQUISH:
            total += vanquish_worth
        elif kind == K.S_DISCARD:
            total += sp[P_DISCARD_SYMBOL_SHARE] * dig_worth
    total = ask_plan_nb(st, tb, ru, sp, W_GRANTED_AT, s, loc, gains, 0, total)
    if ready:
        total = ask_plan_nb(st, tb, ru, sp, W_READY_AT, s, loc, 0, 0, total)
    total += power_worth_nb(st, tb, sp, s, gains)
    if sp[P_PLAN] != 0 and (gains > 0 or plays > 0):
        total = ask_plan_nb(st, tb, ru, sp, W_ACTIONS_AT, s, loc, gains, plays, total)
    if plays > 0:
        # the best cards the Power here pays for, one per Play symbol
        budget = st.sv[s, K.SV_POWER] + gains
        used = 0  # bitmask of hand cards already counted
        for _ in range(plays):
            best = 0.0
            bk = -1
            m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
            while m != 0:
                k = lowest_nb(m)
                m &= m - 1
                if (used >> k) & 1:
                    continue
                c = st.inst[s, k, K.I_CARD]
                t = tb.card[c, K.CF_TYPE]
                cost = play_cost_nb(st, tb, s, c)
                if t == K.T_CONDITION or cost > budget:
                    continue
                if (
                    tb.card[c, K.CF_PASSIVE] != K.AB_NONE
                    and ask_plan_nb(st, tb, ru, sp, W_NOT_PLAYED_BY_SYMBOL, s, k, 0, 0, 0.0) != 0.0
                ):
                    continue  # an ongoing ability keeps it from a Play symbol
                if tb.card[c, K.CF_SWAP_FROM] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM]) < 0:
                    continue
                val = card_value_nb.call(st, tb, ru, sp, s, k, -1, -1) - sp[P_SPEND_WEIGHT] * cost
                if val > best:
                    best = val
                    bk = k
            if bk < 0:
                break
            used |= 1 << bk
            budget -= play_cost_nb(st, tb, s, st.inst[s, bk, K.I_CARD])
            total += best
    return total
