"""Scoring one option and choosing, by decision kind: the kernels the driver calls.

``choose_nb`` (and ``choose_by_ref_nb``, what the driver and the search player call) opens the decision's memo,
scores every option (``score_nb``, by decision kind: the villain's turn, then the choices inside card effects)
with a small random term (``noise``) and takes the best; the Villain Mover and discard decisions work out what is
the same for every option once (``choose_scored_nb``).
"""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.compile import as_ptr, helper, kernel, part, ref
from simlab.kernels.query import (
    covered_nb,
    play_cost_nb,
)
from simlab.kernels.rng import next_u64_nb
from strategies.heuristic.memo import close_memo_nb, instance_strength_nb, open_memo_nb
from strategies.heuristic.params import (
    BIG,
    P_CONDITION_MIN,
    P_FATE_SMART,
    P_KEEP_ACTIVATE_ALLY,
    P_LOSE_EXACT,
    P_LOSE_FREE_ALLY,
    P_LOSE_OVERKILL,
    P_LOSE_PARTIAL,
    P_MODE_CLAIM,
    P_MODE_DEFEAT,
    P_MODE_DISCARD,
    P_MODE_DRAW,
    P_MODE_FIND,
    P_MODE_GAIN,
    P_MODE_GAIN_SHORT,
    P_MODE_LOSE_POWER,
    P_MODE_MOVE_HEROES,
    P_MODE_POWER_SHORT,
    P_NOISE,
    P_NOVICE_BASE,
    P_OPPONENT_ITEM,
    P_PLAN,
    P_SPEND_WEIGHT,
)
from strategies.heuristic.questions import (
    _F,
    _I,
    _RU,
    _SP,
    _ST,
    _TB,
    W_LOCATION_PICK,
    W_OWN_CARD,
    W_PLAY,
    W_READY,
    W_SWAP,
    ask_plan_nb,
)
from strategies.heuristic.terms.cards import (
    activation_value_nb,
    best_activation_nb,
    best_move_nb,
    card_value_nb,
    dig_worth_nb,
    discard_action_ceiling_nb,
    discard_action_value_nb,
    discard_threshold_nb,
    keep_value_nb,
    move_value_nb,
)
from strategies.heuristic.terms.fate import fate_action_value_nb, fate_card_harm_nb
from strategies.heuristic.terms.heroes import (
    ally_kept_nb,
    best_vanquish_nb,
    defeat_value_nb,
    hero_threat_nb,
    top_row_value_nb,
    vanquish_value_nb,
)
from strategies.heuristic.terms.mover import location_value_nb, symbols_offered_nb


@kernel
def uniform_nb(rng):
    return np.float64(next_u64_nb(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def own_card_score_nb(st, tb, ru, sp, s, j, ctx):
    """Score of an O_CARD option naming instance ``j`` of seat ``s``, picked by ``s`` itself."""
    v = ask_plan_nb(st, tb, ru, sp, W_OWN_CARD, s, j, ctx, 0, np.nan)
    if not np.isnan(v):
        return v
    if tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_HERO:
        return defeat_value_nb(st, tb, ru, sp, s, j)
    return 0.0


@part(_ST, _TB, _RU, _SP, _I, _I, _I, _I, _I, returns=_F, cache="strategies")
def score_nb(st, tb, ru, sp, realm, player, kind, ctx, i):
    """Score of option ``i`` of the current decision for ``player``."""
    code = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    c3 = st.opts[i, 3]
    me = player
    mine = realm == player
    smart = sp[P_FATE_SMART] != 0
    if kind == K.DK_ACTION:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_GAIN:
            return 100.0 + b
        if code == K.O_PLAY:
            cost = play_cost_nb(st, tb, me, st.inst[me, a, K.I_CARD])
            v = card_value_nb.call(st, tb, ru, sp, me, a, b, c3) - sp[P_SPEND_WEIGHT] * cost
            if sp[P_PLAN] != 0:
                v = ask_plan_nb(st, tb, ru, sp, W_PLAY, me, a, cost, 0, v)
            return v
        if code == K.O_ACTIVATE:
            return activation_value_nb(st, tb, ru, sp, me, a)
        if code == K.O_MOVE:
            return move_value_nb(st, tb, ru, sp, me, a, b)
        if code == K.O_FATE:
            return fate_action_value_nb(st, tb, ru, sp, a)
        if code == K.O_VANQUISH:
            return vanquish_value_nb(st, tb, ru, sp, me, a)
        if code == K.O_DISCARD:
            return discard_action_value_nb(sp, dig_worth_nb(st, tb, ru, sp, me))
        return 0.0
    if kind == K.DK_SWAP:
        if code == K.O_PASS:
            return 0.0
        return ask_plan_nb(st, tb, ru, sp, W_SWAP, me, c3, 0, 0, 0.0)
    if kind == K.DK_VANQUISH_ALLY:
        if code == K.O_PASS:
            return BIG
        need = instance_strength_nb(st, tb, realm, ctx)
        total = 0
        for k in range(K.N_INST):
            if st.mark[k] != 0 and st.tmp[k] > 0:
                total += st.tmp[k]
        rest = need - total
        sc = sp[P_LOSE_FREE_ALLY] if ally_kept_nb(st, tb, ru, sp, realm, a) else 0.0
        if tb.card[st.inst[realm, a, K.I_CARD], K.CF_ACTIVATE] != K.AB_NONE:
            sc -= sp[P_KEEP_ACTIVATE_ALLY]  # an Ally with an Activate ability goes last
        s_k = st.tmp[a]
        if s_k >= rest:
            return sc + sp[P_LOSE_EXACT] - sp[P_LOSE_OVERKILL] * (s_k - rest)
        return sc + sp[P_LOSE_PARTIAL] * s_k
    if kind == K.DK_DISCARD:
        if code == K.O_PASS:
            return 0.0
        return discard_threshold_nb(st, tb, ru, sp, realm) - keep_value_nb.call(st, tb, ru, sp, realm, a)
    if kind == K.DK_CONDITION:
        if code == K.O_PASS:
            return 0.0
        if sp[P_PLAN] == 0:
            return sp[P_NOVICE_BASE]
        return max(card_value_nb.call(st, tb, ru, sp, realm, a, -1, -1), sp[P_CONDITION_MIN])
    # ---------------------------------------------------------------- choices inside card effects
    if not mine and not smart:
        return uniform_nb(st.rng)
    sign = 1.0 if mine else -1.0  # harm to the Realm's owner is good for an opponent choosing
    if kind == K.DK_FATE_PICK or kind == K.DK_PLACE or kind == K.DK_ARRANGE:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_PLAY:
            return card_value_nb.call(st, tb, ru, sp, realm, a, b, c3)
        harm = fate_card_harm_nb.call(st, tb, ru, sp, realm, a, b if kind != K.DK_ARRANGE else -1, c3)
        return -harm if mine else harm
    if kind == K.DK_MODE:
        if a == K.M_CLAIM:
            return sp[P_MODE_CLAIM]
        if a == K.M_FIND:
            return sp[P_MODE_FIND] if st.sv[realm, K.SV_TILE] == 0 else 0.0
        if a == K.M_DEFEAT:
            return sp[P_MODE_DEFEAT]
        if a == K.M_GAIN:
            return sp[P_MODE_GAIN_SHORT] if st.sv[realm, K.SV_POWER] < sp[P_MODE_POWER_SHORT] else sp[P_MODE_GAIN]
        if a == K.M_DRAW:
            return sp[P_MODE_DRAW]
        if a == K.M_MOVE:
            return best_move_nb.call(st, tb, ru, sp, realm)
        if a == K.M_ACTIVATE:
            return best_activation_nb.call(st, tb, ru, sp, realm, st.sv[realm, K.SV_POWER])
        if a == K.M_MOVE_HEROES:
            return sp[P_MODE_MOVE_HEROES] * -sign
        if a == K.M_LOSE_POWER:
            return (sp[P_MODE_LOSE_POWER] if st.sv[realm, K.SV_POWER] >= sp[P_MODE_POWER_SHORT] else 0.0) * -sign
        if a == K.M_DISCARD_CARDS:
            return sp[P_MODE_DISCARD] * -sign
        return 0.0
    if kind == K.DK_LOCATION:
        v = ask_plan_nb(st, tb, ru, sp, W_LOCATION_PICK, realm, a, ctx, 1 if mine else 0, np.nan)
        if not np.isnan(v):
            return v
        # a Hero being placed or moved: harm is where it covers most
        v = top_row_value_nb(st, tb, sp, realm, a) if not covered_nb(st, tb, ru, realm, a) else 0.0
        return -sign * v
    if kind == K.DK_CARD:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_VANQUISH:
            return vanquish_value_nb(st, tb, ru, sp, realm, a)
        if code == K.O_ACTIVATE:
            return activation_value_nb(st, tb, ru, sp, realm, a)
        if code == K.O_MOVE:
            c = st.inst[realm, a, K.I_CARD]
            if tb.card[c, K.CF_TYPE] == K.T_HERO:
                here = st.inst[realm, a, K.I_LOC]
                delta = hero_threat_nb(st, tb, ru, sp, realm, c, b, a) - hero_threat_nb(
                    st, tb, ru, sp, realm, c, here, a
                )
                return -sign * delta
            return sign * move_value_nb(st, tb, ru, sp, realm, a, b)
        if code == K.O_CARD:
            if mine:
                return own_card_score_nb(st, tb, ru, sp, realm, a, ctx)
            c = st.inst[realm, a, K.I_CARD]
            if tb.card[c, K.CF_TYPE] == K.T_ITEM:
                return keep_value_nb.call(st, tb, ru, sp, realm, a) + sp[P_OPPONENT_ITEM]

            return instance_strength_nb(st, tb, realm, a) + 0.0
        return 0.0
    return 0.0


CHOOSE_REF_TYPES = (_ST, _TB, _RU) + (_I,) * 5  # (ref(st), ref(tb), ru, realm, player, kind, ctx, n)


@kernel
def choose_nb(st, tb, ru, realm, player, kind, ctx, n):
    """Index of the best-scoring option (ties and near-ties broken by the ``noise`` term)."""
    # every scoring kernel below gets the state and the tables as one pointer each (simlab/kernels/compile/ref.py)
    return choose_by_ref_nb.call(ref(st), ref(tb), as_ptr(ru), realm, player, kind, ctx, n)


@part(*CHOOSE_REF_TYPES, returns=_I, cache="strategies")
def choose_by_ref_nb(st, tb, ru, realm, player, kind, ctx, n):
    """:func:`choose_nb` for the state and the tables passed as references: what the driver calls (a bound call
    passes a tuple's every array field, about 185 machine words; a reference is one)."""
    return choose_ref_nb(st, tb, ru, realm, player, kind, ctx, n)


@helper
def choose_ref_nb(st, tb, ru, realm, player, kind, ctx, n):
    open_memo_nb(st, kind)
    i = choose_scored_nb(st, tb, ru, realm, player, kind, ctx, n)
    close_memo_nb(st, kind, st.opts[i, 0])
    return i


@helper
def choose_scored_nb(st, tb, ru, realm, player, kind, ctx, n):
    sp = as_ptr(st.sparams[player])
    best = -np.inf
    best_i = 0
    if kind == K.DK_MOVE:
        # the worths that do not depend on the location, each only if some option's location offers its symbol
        # (they are pure: skipping an unused one changes nothing)
        offered = symbols_offered_nb(st, tb, ru, player, n)
        move_worth = max(best_move_nb.call(st, tb, ru, sp, player), 0.0) if (offered >> K.S_MOVE) & 1 else 0.0
        vanquish_worth = 0.0
        if (offered >> K.S_VANQUISH) & 1:
            vanquish_worth = max(best_vanquish_nb.call(st, tb, ru, sp, player), 0.0)
        dig_worth = dig_worth_nb(st, tb, ru, sp, player) if (offered >> K.S_DISCARD) & 1 else 0.0
        fate_worth = 0.0
        if (offered >> K.S_FATE) & 1:
            for d in range(1, st.g[K.G_NSEATS]):
                fate_worth = max(fate_worth, fate_action_value_nb(st, tb, ru, sp, (player + d) % st.g[K.G_NSEATS]))
        ready = sp[P_PLAN] != 0 and ask_plan_nb(st, tb, ru, sp, W_READY, player, 0, 0, 0, 0.0) != 0.0
        for i in range(n):
            sc = location_value_nb.call(
                st, tb, ru, sp, player, st.opts[i, 1], move_worth, fate_worth, vanquish_worth, dig_worth, ready
            )
            sc += sp[P_NOISE] * uniform_nb(st.rng)
            if sc > best:
                best = sc
                best_i = i
        return best_i
    if kind == K.DK_DISCARD:
        # score_nb's discard scores, with the threshold (the same for every option) computed once
        limit = discard_threshold_nb(st, tb, ru, sp, realm)
        for i in range(n):
            sc = 0.0 if st.opts[i, 0] == K.O_PASS else limit - keep_value_nb.call(st, tb, ru, sp, realm, st.opts[i, 1])
            sc += sp[P_NOISE] * uniform_nb(st.rng)
            if sc > best:
                best = sc
                best_i = i
        return best_i
    # An Action decision's Discard action is the dearest option to score (the keep value of every card in hand)
    # and seldom the best: it is scored last, and only if its ceiling could beat the best of the others. Scoring
    # draws nothing from the random stream, so each option's noise is drawn in order as before, and a tie still
    # goes to the first option: the choice is the same.
    late = -1
    late_noise = 0.0
    for i in range(n):
        if late < 0 and kind == K.DK_ACTION and st.opts[i, 0] == K.O_DISCARD:
            late = i
            late_noise = sp[P_NOISE] * uniform_nb(st.rng)
            continue
        sc = score_nb.call(st, tb, ru, sp, realm, player, kind, ctx, i) + sp[P_NOISE] * uniform_nb(st.rng)
        if sc > best:
            best = sc
            best_i = i
    if late >= 0 and not discard_action_ceiling_nb(st, tb, sp, player) + late_noise < best:
        sc = score_nb.call(st, tb, ru, sp, realm, player, kind, ctx, late) + late_noise
        if sc > best or (sc == best and late < best_i):
            best_i = late
    return best_i
