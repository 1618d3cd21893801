"""The Horned King's plan: a Cauldron Born at every location."""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, count_nb, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import flip_cost_nb, hero_count_nb, passive_count_nb, zone_bits_nb
from simlab.villains.horned_king.codes import (
    AB_ATTACHED_NEEDS_TWO_ALLIES,
    AB_BLOCKS_GRANTING_ITEMS_HERE,
    AB_CLAIM_CAULDRON,
    AB_CLAIM_OR_GAIN,
    AB_DEPOWER_CAULDRON,
    AB_DISCARD_HAND_DRAW,
    AB_DRAW,
    AB_FIND_OR_DEFEAT_STRENGTH,
    AB_FLIP_CAULDRON,
    AB_FREE_ITEM,
    AB_GATHER_ALLIES,
    AB_GRANTS_ACTIVATE,
    AB_LOSE_POWER_OR_DISCARD,
    AB_MAY_MOVE_EACH_HERO,
    AB_MOVES_TO_VILLAIN_AFTER_VANQUISH,
    AB_NO_EFFECTS,
    AB_OTHER_HEROES_PLUS,
    AB_PLUS_PER_OTHER_HERO_HERE,
    AB_POWER_CAULDRON,
    AB_POWER_PER_HERO,
    AB_RESHUFFLE_FATE_PLAY_TWO,
    AB_RESHUFFLE_OR_PAY_CLAIM,
    AB_RETURNS_TO_FATE_DECK,
    AB_TILE_ALLY,
    AB_VANQUISH_ADJACENT,
    OBJECTIVE,
    R_TILE_ALLY_PLAY_CARD,
)
from strategies import heuristic
from strategies.heuristic import (
    P_DEAD_CARD,
    P_DRAW_VALUE,
    P_HERO_COMPANY_HARM,
    P_PLAN,
    P_POWER_VALUE,
    P_SMALL_HERO_HARM,
    W_ACTIONS_AT,
    W_ACTIVATION,
    W_ALLIES_GATHERED,
    W_ALLY_KEPT,
    W_CARD,
    W_DEFEAT_GAIN,
    W_DEFEAT_VALUE,
    W_EFFECT,
    W_FATE_CARD,
    W_GRANTED_AT,
    W_HERO_HARM,
    W_HERO_ON_PLAY,
    W_KEEP,
    W_KEEPS_COPIES,
    W_LOCATION_PICK,
    W_NOT_PLAYED_BY_SYMBOL,
    W_OWN_CARD,
    W_PLAY,
    W_POSITION,
    W_PROGRESS,
    W_REACHES_NEIGHBOURS,
    W_SWAP,
    allies_at_nb,
    allies_moved_to_one_harm_nb,
    best_activation_nb,
    best_defeat_nb,
    earlier_copy_in_hand_nb,
    group,
    objective_nb,
    realm_passive_at_nb,
)
from strategies.plans import slots

PLAN = "the Horned King spreads Ancient Soldiers, claims and powers the Cauldron, swaps every turn"

PARAMS = (
    *group(
        "heroes",
        ("no_effects_harm", 3.0, 0.0, 8.0, "a Hero stopping Effects"),
    ),
    *group(
        "effects",
        ("free_item", 2.0, 0.0, 6.0, "playing an Item for free"),
    ),
    *group(
        "progress",
        ("progress_soldier", 0.05, 0.0, 0.2, "Horned King: per location with Ancient Soldiers or a Cauldron Born"),
        ("progress_born", 0.15, 0.0, 0.3, "Horned King: per location with a Cauldron Born (on top)"),
        ("progress_claimed", 0.1, 0.0, 0.3, "Horned King: the Cauldron claimed"),
        ("progress_powered", 0.1, 0.0, 0.3, "Horned King: the Cauldron powered (on top)"),
    ),
    *group(
        "fate",
        ("gather_born_share", 1.0, 0.0, 2.0, "... per Cauldron Born location he empties: share of cauldron_value"),
        ("witches_harm", 2.0, 0.0, 6.0, "a Hero making the target lose Power or discard cards"),
        ("discard_hand_share", 0.5, 0.0, 2.0, "a Fate Effect discarding the target's hand: share of its keep worth"),
        ("fresh_card_keep", 5.0, 0.0, 10.0, "... less this for each card it draws instead"),
        ("dyrnwyn_harm", 2.0, 0.0, 6.0, "Dyrnwyn"),
        ("happy_day_harm", 6.0, 0.0, 15.0, "Fating the Horned King: Gurgi's Happy Day"),
        ("depower_share", 1.2, 0.0, 3.0, "Fating the Horned King: Gurgi's Sacrifice, powered: share of cauldron"),
    ),
    *group(
        "horned-king",
        ("soldier_value", 8.0, 0.0, 25.0, "Ancient Soldiers at a location without one"),
        ("cauldron_value", 9.0, 0.0, 25.0, "claiming / powering the Cauldron, each new Cauldron Born location"),
        ("swap_reserve", 1.0, 0.0, 2.0, "keep Power for next turn's swap when a swap is pending"),
        ("swap_reserve_share", 0.5, 0.0, 1.5, "... spending it costs this share of swap_reserve * cauldron_value"),
        ("swap_power", 2.0, 0.0, 8.0, "each Power a location gives that next turn's swap still lacks"),
        ("swap_onto_born", -1.0, -5.0, 0.0, "swapping where a Cauldron Born stands already"),
        ("soldier_alone_share", 0.5, 0.0, 1.5, "Soldiers where no other Soldier stands: share of soldier_value"),
        ("spare_soldier", 1.0, 0.0, 5.0, "Ancient Soldiers for a location that has them already"),
        ("spare_born", 1.0, 0.0, 5.0, "a Cauldron Born for a location that has one already"),
        ("new_born_bonus", 1.0, 0.0, 5.0, "a Cauldron Born played to a new location: on top of cauldron_value"),
        ("spare_born_lost", 1.0, 0.0, 5.0, "losing a Cauldron Born that shares its location (keep one everywhere)"),
        ("pig_keeper_share", 0.4, 0.0, 1.0, "We Got You Now, Pig Keeper before the claim: share of cauldron_value"),
        ("bargain_fallback", 0.2, 0.0, 2.0, "We Have Made a Bargain when it cannot claim"),
        ("keep_born_unclaimed", 5.0, 0.0, 15.0, "keeping the first Cauldron Born in hand before the claim"),
        ("keep_born_extra_unclaimed", 1.0, 0.0, 5.0, "... a further one before the claim"),
        ("keep_born_share", 0.7, 0.0, 1.5, "... the first after the claim: share of cauldron_value"),
        ("keep_born_needed", 6.0, 0.0, 15.0, "... a further one after the claim, while locations still lack one"),
        ("keep_born_extra", 2.0, 0.0, 8.0, "... a spare one after the claim (those before it cover every empty place)"),
        ("keep_our_hour_unclaimed", 3.0, 0.0, 8.0, "keeping Our Hour Has Arrived before the claim"),
        ("keep_our_hour_share", 0.8, 0.0, 1.5, "... once claimed: share of cauldron_value"),
        ("keep_our_hour_powered", 2.0, 0.0, 8.0, "... once the Cauldron is powered"),
        ("keep_our_hour_hedge", 4.0, 0.0, 10.0, "... powered, opponents, no Ancient Soldiers to re-power it: one copy"),
        ("keep_powered_other", 0.5, 0.0, 3.0, "keeping any other card once the Cauldron is powered"),
        ("blocks_soldiers_harm", 2.0, 0.0, 6.0, "a Hero blocking Ancient Soldiers (Fair Folk): base harm"),
        ("blocks_soldiers_share", 0.5, 0.0, 1.5, "... plus this share of soldier_value per Soldiers it blocks"),
        ("gurgi_harm_discount", 0.5, 0.0, 2.0, "Gurgi (he comes back when defeated): less harm"),
        ("gurgi_defeat_discount", 0.5, 0.0, 2.0, "defeating Gurgi untrapped: worth less (he comes back)"),
    ),
)

P = slots(__name__, PARAMS)
P_NO_EFFECTS_HARM = P["no_effects_harm"]
P_WITCHES_HARM = P["witches_harm"]
P_DISCARD_HAND_SHARE = P["discard_hand_share"]
P_FRESH_CARD_KEEP = P["fresh_card_keep"]
P_FREE_ITEM = P["free_item"]
P_PROGRESS_SOLDIER = P["progress_soldier"]
P_PROGRESS_BORN = P["progress_born"]
P_PROGRESS_CLAIMED = P["progress_claimed"]
P_PROGRESS_POWERED = P["progress_powered"]
P_GATHER_BORN_SHARE = P["gather_born_share"]
P_DYRNWYN_HARM = P["dyrnwyn_harm"]
P_HAPPY_DAY_HARM = P["happy_day_harm"]
P_DEPOWER_SHARE = P["depower_share"]
P_SOLDIER_VALUE = P["soldier_value"]
P_CAULDRON_VALUE = P["cauldron_value"]
P_SWAP_RESERVE = P["swap_reserve"]
P_SWAP_RESERVE_SHARE = P["swap_reserve_share"]
P_SWAP_POWER = P["swap_power"]
P_SWAP_ONTO_BORN = P["swap_onto_born"]
P_SOLDIER_ALONE_SHARE = P["soldier_alone_share"]
P_SPARE_SOLDIER = P["spare_soldier"]
P_SPARE_BORN = P["spare_born"]
P_NEW_BORN_BONUS = P["new_born_bonus"]
P_SPARE_BORN_LOST = P["spare_born_lost"]
P_PIG_KEEPER_SHARE = P["pig_keeper_share"]
P_BARGAIN_FALLBACK = P["bargain_fallback"]
P_KEEP_BORN_UNCLAIMED = P["keep_born_unclaimed"]
P_KEEP_BORN_EXTRA_UNCLAIMED = P["keep_born_extra_unclaimed"]
P_KEEP_BORN_SHARE = P["keep_born_share"]
P_KEEP_BORN_NEEDED = P["keep_born_needed"]
P_KEEP_BORN_EXTRA = P["keep_born_extra"]
P_KEEP_OUR_HOUR_UNCLAIMED = P["keep_our_hour_unclaimed"]
P_KEEP_OUR_HOUR_SHARE = P["keep_our_hour_share"]
P_KEEP_OUR_HOUR_POWERED = P["keep_our_hour_powered"]
P_KEEP_OUR_HOUR_HEDGE = P["keep_our_hour_hedge"]
P_KEEP_POWERED_OTHER = P["keep_powered_other"]
P_BLOCKS_SOLDIERS_HARM = P["blocks_soldiers_harm"]
P_BLOCKS_SOLDIERS_SHARE = P["blocks_soldiers_share"]
P_GURGI_HARM_DISCOUNT = P["gurgi_harm_discount"]
P_GURGI_DEFEAT_DISCOUNT = P["gurgi_defeat_discount"]


@kernel
def soldier_locations_nb(st, tb, s):
    """Locations holding an Ancient Soldiers or a Cauldron Born (bitmask), and those with a Cauldron Born."""
    soldiers = 0
    born = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        p = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
        if p == AB_GRANTS_ACTIVATE:
            soldiers |= 1 << st.inst[s, k, K.I_LOC]
        elif p == AB_TILE_ALLY:
            born |= 1 << st.inst[s, k, K.I_LOC]
    return soldiers | born, born


@kernel
def swap_pending_nb(st, tb, s):
    """The Power of the Black Cauldron is showing, a Cauldron Born waits in hand and an Ancient Soldiers stands
    where no Cauldron Born does: next turn's swap needs only its Power."""
    if st.sv[s, K.SV_TILE] != 2:
        return False
    in_hand = False
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY:
            in_hand = True
    if not in_hand:
        return False
    _, born = soldier_locations_nb(st, tb, s)
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if (
            tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_GRANTS_ACTIVATE
            and (born >> st.inst[s, k, K.I_LOC]) & 1 == 0
        ):
            return True
    return False


@kernel
def others_at_nb(st, tb, s, k, loc, pa, pb):
    """Villain cards of seat ``s``'s Realm at ``loc``, other than instance ``k``, whose ongoing ability is ``pa`` or
    ``pb``."""
    n = 0
    mj = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while mj != 0:
        j = lowest_nb(mj)
        mj &= mj - 1
        p = tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE]
        if j != k and st.inst[s, j, K.I_LOC] == loc and (p == pa or p == pb):
            n += 1
    return n


@kernel
def position_value_nb(st, tb, sp, s, k, loc, v):
    """``v`` plus the worth of Ancient Soldiers or a Cauldron Born ``k`` standing at ``loc``."""
    p = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
    if p == AB_GRANTS_ACTIVATE:
        if others_at_nb(st, tb, s, k, loc, AB_GRANTS_ACTIVATE, AB_TILE_ALLY) == 0:
            v += sp[P_SOLDIER_ALONE_SHARE] * sp[P_SOLDIER_VALUE]
    elif p == AB_TILE_ALLY:
        # a Cauldron Born counts for the objective only where no other one stands
        if others_at_nb(st, tb, s, k, loc, AB_TILE_ALLY, AB_TILE_ALLY) == 0:
            v += sp[P_CAULDRON_VALUE]
    return v


@kernel
def effect_value_nb(st, tb, ru, sp, s, c, budget):
    """Worth of resolving the Horned King's Effect card row ``c`` if it claims or powers the Cauldron, defeats a
    Hero, draws, gains Power per Hero or plays an Item for free, else NaN."""
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    if ab == AB_POWER_CAULDRON:
        return sp[P_CAULDRON_VALUE] if st.sv[s, K.SV_TILE] == 1 else sp[P_DEAD_CARD]
    if ab == AB_CLAIM_OR_GAIN:
        return sp[P_CAULDRON_VALUE] if st.sv[s, K.SV_TILE] == 0 else n * sp[P_POWER_VALUE]
    if ab == AB_FIND_OR_DEFEAT_STRENGTH:
        v = best_defeat_nb.call(st, tb, ru, sp, s, n)
        if st.sv[s, K.SV_TILE] == 0:
            v = max(v, sp[P_PIG_KEEPER_SHARE] * sp[P_CAULDRON_VALUE])
        return v
    if ab == AB_RESHUFFLE_OR_PAY_CLAIM:
        if st.sv[s, K.SV_TILE] == 0 and budget >= n:
            return sp[P_CAULDRON_VALUE] - n * sp[P_POWER_VALUE]
        return sp[P_BARGAIN_FALLBACK]
    if ab == AB_DRAW:
        return n * sp[P_DRAW_VALUE]
    if ab == AB_POWER_PER_HERO:
        return hero_count_nb(st, tb, s) * sp[P_POWER_VALUE]
    if ab == AB_FREE_ITEM:
        return sp[P_FREE_ITEM]
    return np.nan


@kernel
def card_value_nb(st, tb, sp, s, k, loc):
    """Worth of playing a Cauldron Born or Ancient Soldiers ``k`` to ``loc`` (-1: wherever fits best), else NaN."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    p = tb.card[c, K.CF_PASSIVE]
    if t == K.T_ALLY and p == AB_TILE_ALLY:
        _, born = soldier_locations_nb(st, tb, s)
        if loc < 0:
            return sp[P_CAULDRON_VALUE] if count_nb(born) < K.N_LOC else sp[P_SPARE_BORN]
        return sp[P_CAULDRON_VALUE] + sp[P_NEW_BORN_BONUS] if (born >> loc) & 1 == 0 else sp[P_SPARE_BORN]
    if t == K.T_ITEM and p == AB_GRANTS_ACTIVATE:
        if objective_nb(st, tb, s) != OBJECTIVE:
            return sp[P_SPARE_SOLDIER]
        both, _ = soldier_locations_nb(st, tb, s)
        if loc < 0:
            return sp[P_SOLDIER_VALUE] if count_nb(both) < K.N_LOC else sp[P_SPARE_SOLDIER]
        return sp[P_SOLDIER_VALUE] if (both >> loc) & 1 == 0 else sp[P_SPARE_SOLDIER]
    return np.nan


@kernel
def keep_value_nb(st, tb, sp, s, k):
    """Worth of keeping hand card ``k`` if it is a Cauldron Born or Our Hour Has Arrived, or once the Cauldron is
    powered; else NaN."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if tb.card[c, K.CF_PASSIVE] == AB_TILE_ALLY:
        # one Cauldron Born in hand is worth keeping for the next swap; more wait longer
        earlier = 0
        mj = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS & ((1 << k) - 1)
        while mj != 0:
            j = lowest_nb(mj)
            mj &= mj - 1
            if tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY:
                earlier += 1
        if st.sv[s, K.SV_TILE] == 0:
            return sp[P_KEEP_BORN_UNCLAIMED] if earlier == 0 else sp[P_KEEP_BORN_EXTRA_UNCLAIMED]
        if earlier == 0:
            return sp[P_KEEP_BORN_SHARE] * sp[P_CAULDRON_VALUE]
        # once the Cauldron is claimed, a further one is kept while locations still lack a Cauldron Born
        _, born = soldier_locations_nb(st, tb, s)
        return sp[P_KEEP_BORN_NEEDED] if earlier < K.N_LOC - count_nb(born) else sp[P_KEEP_BORN_EXTRA]
    if sp[P_PLAN] != 0 and objective_nb(st, tb, s) == OBJECTIVE and st.sv[s, K.SV_TILE] == 2:
        # the Cauldron is powered: only Cauldron Born and Soldiers for empty locations still matter
        if tb.card[c, K.CF_PASSIVE] == AB_GRANTS_ACTIVATE:
            both, _ = soldier_locations_nb(st, tb, s)
            if count_nb(both) < K.N_LOC:
                return sp[P_SOLDIER_VALUE]
        if t == K.T_EFFECT and tb.card[c, K.CF_EFFECT] == AB_POWER_CAULDRON:
            if (
                st.g[K.G_NSEATS] > 1
                and passive_count_nb(st, tb, s, AB_GRANTS_ACTIVATE) == 0
                and not earlier_copy_in_hand_nb(st, s, k)
            ):
                # the only answer left to Gurgi's Sacrifice: no Ancient Soldiers' Activate could power it again
                return max(sp[P_KEEP_OUR_HOUR_POWERED], sp[P_KEEP_OUR_HOUR_HEDGE])
            return sp[P_KEEP_OUR_HOUR_POWERED]
        return sp[P_KEEP_POWERED_OTHER]
    if t == K.T_EFFECT and tb.card[c, K.CF_EFFECT] == AB_POWER_CAULDRON:
        # dead now, it may come alive: valued by its best case
        side = st.sv[s, K.SV_TILE]
        if side == 0:
            return sp[P_KEEP_OUR_HOUR_UNCLAIMED]
        return sp[P_KEEP_OUR_HOUR_SHARE] * sp[P_CAULDRON_VALUE] if side == 1 else sp[P_KEEP_OUR_HOUR_POWERED]
    return np.nan


@kernel
def play_value_nb(st, tb, sp, s, cost, v):
    """``v``, the worth of a card costing ``cost`` Power, less the swap it would delay: keep the Power for next
    turn's swap when a Cauldron Born is waiting in hand."""
    if st.sv[s, K.SV_TILE] >= 1 and sp[P_SWAP_RESERVE] > 0:
        swap_cost = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_SWAP_COST]
        if st.sv[s, K.SV_POWER] - cost < swap_cost and realm_passive_at_nb(st, tb, s, AB_GRANTS_ACTIVATE, -1) > 0:
            mj = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
            while mj != 0:
                j = lowest_nb(mj)
                mj &= mj - 1
                if tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY:
                    v -= sp[P_SWAP_RESERVE] * sp[P_CAULDRON_VALUE] * sp[P_SWAP_RESERVE_SHARE]
                    break
    return v


@kernel
def fate_card_harm_nb(st, tb, ru, sp, s, k):
    """Harm to the Horned King of his revealed Fate card ``k`` if it is Dyrnwyn, Gurgi's Happy Day, Gurgi's
    Sacrifice or discards his hand, else NaN."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_ITEM and tb.card[c, K.CF_PASSIVE] == AB_ATTACHED_NEEDS_TWO_ALLIES:
        return sp[P_DYRNWYN_HARM]
    if t == K.T_EFFECT:
        ab = tb.card[c, K.CF_EFFECT]
        if ab == AB_RESHUFFLE_FATE_PLAY_TWO:
            return sp[P_HAPPY_DAY_HARM]
        if ab == AB_DEPOWER_CAULDRON:
            return sp[P_DEPOWER_SHARE] * sp[P_CAULDRON_VALUE] if st.sv[s, K.SV_TILE] == 2 else 0.0
        if ab == AB_DISCARD_HAND_DRAW:
            # what the hand is worth keeping, against the cards drawn instead
            kept = 0.0
            mj = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
            while mj != 0:
                j = lowest_nb(mj)
                mj &= mj - 1
                kept += heuristic.keep_value_nb.call(st, tb, ru, sp, s, j)
            return sp[P_DISCARD_HAND_SHARE] * (kept - tb.card[c, K.CF_N] * sp[P_FRESH_CARD_KEEP])
    return np.nan


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """The Horned King's terms of the heuristic's scoring (``what``: the ``W_*`` codes of
    :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        both, born = soldier_locations_nb(st, tb, s)
        p = sp[P_PROGRESS_SOLDIER] * count_nb(both) + sp[P_PROGRESS_BORN] * count_nb(born)
        if st.sv[s, K.SV_TILE] >= 1:
            p += sp[P_PROGRESS_CLAIMED]
        if st.sv[s, K.SV_TILE] == 2:
            p += sp[P_PROGRESS_POWERED]
        return min(p, 1.0)
    if what == W_POSITION:
        return position_value_nb(st, tb, sp, s, a, b, x)
    if what == W_CARD:
        return card_value_nb(st, tb, sp, s, a, b)
    if what == W_EFFECT:
        return effect_value_nb(st, tb, ru, sp, s, a, b)
    if what == W_KEEP:
        return keep_value_nb(st, tb, sp, s, a)
    if what == W_KEEPS_COPIES:
        # a second Our Hour Has Arrived is worth keeping
        return 1.0 if tb.card[a, K.CF_EFFECT] == AB_POWER_CAULDRON else x
    if what == W_ACTIVATION:
        if a < 0:  # flipping the Black Cauldron to its Power side
            return sp[P_CAULDRON_VALUE] - sp[P_POWER_VALUE] * flip_cost_nb(st, tb, ru, s)
        return x
    if what == W_ACTIONS_AT:
        if b > 0 and swap_pending_nb(st, tb, s):
            # Power the next swap still lacks: without it the Cauldron Born waits another turn
            short = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_SWAP_COST] - st.sv[s, K.SV_POWER]
            if short > 0:
                x += sp[P_SWAP_POWER] * min(b, short)
        return x
    if what == W_PLAY:
        return play_value_nb(st, tb, sp, s, b, x)
    if what == W_GRANTED_AT:
        # Ancient Soldiers there grant an Activate
        if realm_passive_at_nb(st, tb, s, AB_GRANTS_ACTIVATE, a) > 0:
            x += max(best_activation_nb.call(st, tb, ru, sp, s, st.sv[s, K.SV_POWER] + b), 0.0)
        return x
    if what == W_NOT_PLAYED_BY_SYMBOL:
        # a Cauldron Born comes into play by the swap, unless the rule lets it be played on the Power side
        card = st.inst[s, a, K.I_CARD]
        if tb.card[card, K.CF_PASSIVE] == AB_TILE_ALLY and (ru[R_TILE_ALLY_PLAY_CARD] == 0 or st.sv[s, K.SV_TILE] != 2):
            return 1.0
        return x
    if what == W_SWAP:
        # a Cauldron Born swapped in where none stands yet
        _, born = soldier_locations_nb(st, tb, s)
        return sp[P_CAULDRON_VALUE] if (born >> a) & 1 == 0 else sp[P_SWAP_ONTO_BORN]
    if what == W_LOCATION_PICK:
        if b == AB_FIND_OR_DEFEAT_STRENGTH:
            # a Hero placed near the Horned King's Allies: good for him
            return (1.0 if c != 0 else -1.0) * allies_at_nb(st, tb, s, a)
        return x
    if what == W_OWN_CARD:
        if b == AB_FLIP_CAULDRON:
            # losing a Cauldron Born: keep one at every location if possible
            here = st.inst[s, a, K.I_LOC]
            return sp[P_SPARE_BORN_LOST] if realm_passive_at_nb(st, tb, s, AB_TILE_ALLY, here) > 1 else 0.0
        return x
    if what == W_ALLIES_GATHERED:
        # the Cauldron Born locations emptied
        _, born = soldier_locations_nb(st, tb, s)
        emptied = count_nb(born) - 1 if born != 0 else 0
        return sp[P_GATHER_BORN_SHARE] * sp[P_CAULDRON_VALUE] * emptied
    if what == W_FATE_CARD:
        return fate_card_harm_nb(st, tb, ru, sp, s, a)
    if what == W_HERO_ON_PLAY:
        # a Hero gathering his Allies, making him lose Power or discard, or moving Heroes
        op = tb.card[a, K.CF_ON_PLAY]
        if op == AB_GATHER_ALLIES:
            x += allies_moved_to_one_harm_nb(st, tb, ru, sp, s, b)
        elif op == AB_LOSE_POWER_OR_DISCARD:
            x += sp[P_WITCHES_HARM]
        elif op == AB_MAY_MOVE_EACH_HERO:
            x += sp[P_SMALL_HERO_HARM]
        return x
    if what == W_HERO_HARM:
        p = tb.card[a, K.CF_PASSIVE]
        if p == AB_BLOCKS_GRANTING_ITEMS_HERE:
            # a Hero blocking the Ancient Soldiers at its location
            if objective_nb(st, tb, s) == OBJECTIVE:
                soldiers = realm_passive_at_nb(st, tb, s, AB_GRANTS_ACTIVATE, b)
                x += sp[P_BLOCKS_SOLDIERS_HARM] + sp[P_BLOCKS_SOLDIERS_SHARE] * sp[P_SOLDIER_VALUE] * soldiers
        elif p == AB_RETURNS_TO_FATE_DECK:
            # Gurgi comes back when defeated
            x -= sp[P_GURGI_HARM_DISCOUNT]
        elif p == AB_NO_EFFECTS:
            x += sp[P_NO_EFFECTS_HARM]
        elif p == AB_OTHER_HEROES_PLUS or p == AB_PLUS_PER_OTHER_HERO_HERE:
            # a Hero stronger beside other Heroes
            x += sp[P_HERO_COMPANY_HARM] * hero_count_nb(st, tb, s)
        return x
    if what == W_REACHES_NEIGHBOURS:
        return 1.0 if tb.card[a, K.CF_PASSIVE] == AB_VANQUISH_ADJACENT else x
    if what == W_ALLY_KEPT:
        # a Cauldron Born stays, Creeper goes to the Villain Mover
        p = tb.card[st.inst[s, a, K.I_CARD], K.CF_PASSIVE]
        return 1.0 if p == AB_TILE_ALLY or p == AB_MOVES_TO_VILLAIN_AFTER_VANQUISH else x
    if what == W_DEFEAT_GAIN:
        # a Hero who, defeated, lets the Horned King claim the Cauldron
        if tb.card[a, K.CF_ON_DEFEAT] == AB_CLAIM_CAULDRON:
            if st.sv[s, K.SV_TILE] == 0:
                return sp[P_CAULDRON_VALUE]
            return 0.0
        return x
    if what == W_DEFEAT_VALUE:
        card = st.inst[s, a, K.I_CARD]
        if tb.card[card, K.CF_PASSIVE] == AB_RETURNS_TO_FATE_DECK and st.inst[s, a, K.I_TRAPPED] == 0:
            x -= sp[P_GURGI_DEFEAT_DISCOUNT]
        return x
    return x
