"""Gaston's plan: remove all of his Obstacles."""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    activation_cost_nb,
    can_remove_obstacle_nb,
    hero_count_nb,
    missing_at_nb,
    missing_total_nb,
    obstacles_total_nb,
    passive_count_nb,
    play_cost_nb,
    realm_instance_nb,
    zone_bits_nb,
)
from simlab.villains.gaston.codes import (
    AB_ALLIES_HERE_MINUS,
    AB_ATTACHED_STRENGTH,
    AB_BLOCKS_OBSTACLE_REMOVAL,
    AB_CLEAR_OBSTACLES_AT,
    AB_DEFEAT_HERO_MAX_STRENGTH,
    AB_EXTRA_MOVE,
    AB_EXTRA_VANQUISH,
    AB_FETCH_ATTACHMENT_HERE,
    AB_FIND_HERO_RESHUFFLE_FATE,
    AB_MAY_MOVE_HEROES_OR_ITEMS,
    AB_MAY_MOVE_ONE_HERO,
    AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN,
    AB_OTHER_HEROES_HERE_PLUS,
    AB_PLAY_OTHER_REVEAL_AGAIN,
    AB_PUSH_ALLIES_OUT,
    AB_REMOVE_OBSTACLES,
    AB_REMOVE_OBSTACLES_ONE_LOCATION,
    AB_REPLACE_ALL_ONE_LOCATION,
    AB_REPLACE_OBSTACLES,
    AB_REPLACE_ONE_EACH_LOCATION,
    AB_REPLACE_ONE_GAIN_OR_DRAW,
    AB_REVEAL_UNTIL_ALLY,
    AB_REVEAL_UNTIL_HERO,
    AB_WOLF_PACK,
    OBJECTIVE,
)
from strategies.heuristic import (
    BIG,
    P_ALLY_VALUE,
    P_DEAD_CARD,
    P_DRAW_VALUE,
    P_HERO_COMPANY_HARM,
    P_POWER_VALUE,
    P_SMALL_HERO_HARM,
    W_ACTIONS_AT,
    W_ACTIVATION,
    W_ACTIVATION_IDLE,
    W_ALLY,
    W_CARD,
    W_DEFEAT_GAIN,
    W_EFFECT,
    W_FATE_CARD,
    W_HERO_HARM,
    W_HERO_ON_PLAY,
    W_KEEP,
    W_KEEPS_COPIES,
    W_LOCATION_PICK,
    W_PROGRESS,
    W_REVEALED,
    W_STRENGTH_ADDED,
    allies_at_nb,
    ally_help_nb,
    basic_fate_harm_nb,
    best_defeat_nb,
    best_move_nb,
    best_vanquish_nb,
    group,
    keep_removal_nb,
    objective_nb,
)
from strategies.plans import slots

PLAN = "Gaston clears Belle and values removal per Power"

PARAMS = (
    *group(
        "allies",
        ("attached_help_share", 0.5, 0.0, 1.5, "an Item adding Strength: share of the help its host gains"),
    ),
    *group(
        "effects",
        ("reveal_ally_draws", 1.5, 0.0, 4.0, "revealing cards until an Ally, in draws"),
    ),
    *group(
        "fate",
        ("move_hero_harm", 1.0, 0.0, 4.0, "a Hero moving a Hero or fetching an attachment"),
        ("magic_mirror_harm", 4.0, 0.0, 10.0, "Magic Mirror"),
        ("allies_minus_harm", 1.5, 0.0, 5.0, "an Item weakening Allies"),
        ("rose_min_obstacles", 2, 0, 8, "Fating Gaston: play The Rose only while he has more Obstacles", True),
        ("rose_harm", 3.0, 0.0, 8.0, "Fating Gaston: The Rose's harm besides the cards it plays"),
        ("rose_removal_share", 0.5, 0.0, 1.5, "... less this share of obstacle_value when it removes one"),
        ("rose_other_harm", 1.5, 0.0, 5.0, "... the card it plays, with no other card revealed"),
        ("replace_each_harm", 4.0, 0.0, 9.0, "Fating Gaston: It Is You (an Obstacle back everywhere), in Obstacles"),
    ),
    *group(
        "gaston",
        ("obstacle_value", 4.0, 0.5, 12.0, "worth of removing one Obstacle"),
        ("swoon_min_obstacles", 5, 0, 9, "play Swoon only while at least this many Obstacles remain", True),
        ("swoon_cost_share", 0.5, 0.0, 2.0, "Swoon: share of obstacle_value it costs (Obstacles come back)"),
        ("take_me_share", 0.8, 0.0, 1.5, "Take Me Instead: share of obstacle_value per Obstacle removed"),
        ("take_me_cost", 2.0, 0.0, 6.0, "Take Me Instead: its cost beyond Power"),
        ("remover_ally", 1.2, 0.0, 3.0, "an Ally that activates to remove Obstacles (Monsieur D'Arque), Obstacles"),
        ("remover_ally_min", 2, 0, 6, "... while at least this many Obstacles remain", True),
        ("blocks_removal_harm", 3.0, 0.0, 6.0, "a Hero blocking Obstacle removal (Belle), in Obstacles"),
        ("cleared_by_hero", 1.5, 0.0, 5.0, "removing at a location a Hero clears when defeated: penalty, Obstacles"),
    ),
)

P = slots(__name__, PARAMS)
P_ATTACHED_HELP_SHARE = P["attached_help_share"]
P_REVEAL_ALLY_DRAWS = P["reveal_ally_draws"]
P_MOVE_HERO_HARM = P["move_hero_harm"]
P_ALLIES_MINUS_HARM = P["allies_minus_harm"]
P_MAGIC_MIRROR_HARM = P["magic_mirror_harm"]
P_ROSE_MIN_OBSTACLES = P["rose_min_obstacles"]
P_ROSE_HARM = P["rose_harm"]
P_ROSE_REMOVAL_SHARE = P["rose_removal_share"]
P_ROSE_OTHER_HARM = P["rose_other_harm"]
P_REPLACE_EACH_HARM = P["replace_each_harm"]
P_OBSTACLE_VALUE = P["obstacle_value"]
P_SWOON_MIN_OBSTACLES = P["swoon_min_obstacles"]
P_SWOON_COST_SHARE = P["swoon_cost_share"]
P_TAKE_ME_SHARE = P["take_me_share"]
P_TAKE_ME_COST = P["take_me_cost"]
P_REMOVER_ALLY = P["remover_ally"]
P_REMOVER_ALLY_MIN = P["remover_ally_min"]
P_BLOCKS_REMOVAL_HARM = P["blocks_removal_harm"]
P_CLEARED_BY_HERO = P["cleared_by_hero"]


@kernel
def removal_of_nb(st, tb, s, c):
    """Obstacles card row ``c`` (an Effect, Condition or activated Ally) removes from seat ``s`` now."""
    obst = obstacles_total_nb(st, s)
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    if ab == AB_REMOVE_OBSTACLES or ab == AB_REVEAL_UNTIL_HERO:
        return min(n, obst)
    if ab == AB_REMOVE_OBSTACLES_ONE_LOCATION:
        most = 0
        for loc in range(K.N_LOC):
            most = max(most, st.sv[s, K.SV_OBST + loc])
        return min(n, most)
    if ab == AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN:
        if realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) < 0:
            return min(1, obst)
    return 0


@kernel
def clears_location_nb(st, tb, s, loc):
    """1 if a Hero of seat ``s``'s Fate deck removes every Obstacle at ``loc`` when defeated."""
    for j in range(K.N_VCARDS, K.N_INST):
        c = st.inst[s, j, K.I_CARD]
        if tb.card[c, K.CF_ON_DEFEAT] == AB_CLEAR_OBSTACLES_AT and tb.card[c, K.CF_LOCATION] == loc:
            return 1
    return 0


@kernel
def can_finish_here_nb(st, tb, s, plays, budget):
    """Removal cards in hand, at most ``plays`` of them within ``budget`` Power, clear every Obstacle left."""
    if not can_remove_obstacle_nb(st, tb, s):
        return False
    need = obstacles_total_nb(st, s)
    used = 0
    for _ in range(plays):
        best = 0
        bk = -1
        m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if (used >> k) & 1:
                continue
            c = st.inst[s, k, K.I_CARD]
            if tb.card[c, K.CF_TYPE] != K.T_EFFECT or play_cost_nb(st, tb, s, c) > budget:
                continue
            r = removal_of_nb(st, tb, s, c)
            if r > best:
                best = r
                bk = k
        if bk < 0:
            break
        used |= 1 << bk
        budget -= play_cost_nb(st, tb, s, st.inst[s, bk, K.I_CARD])
        need -= best
    return need <= 0


@kernel
def effect_value_nb(st, tb, ru, sp, s, c):
    """Worth of resolving Gaston's Effect card row ``c`` if it removes or replaces his Obstacles, gives him an extra
    Vanquish or Move, defeats a Hero or reveals cards until an Ally, else NaN."""
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    obst = obstacles_total_nb(st, s)
    ov = sp[P_OBSTACLE_VALUE]
    removes = removal_of_nb(st, tb, s, c)
    if removes > 0 and removes >= obst and can_remove_obstacle_nb(st, tb, s):
        return 0.5 * BIG  # the last Obstacles: this card wins
    if ab == AB_REMOVE_OBSTACLES or ab == AB_REMOVE_OBSTACLES_ONE_LOCATION:
        if not can_remove_obstacle_nb(st, tb, s):
            return sp[P_DEAD_CARD]
        return ov * removes
    if ab == AB_REPLACE_ONE_GAIN_OR_DRAW:
        if obst < sp[P_SWOON_MIN_OBSTACLES] or missing_total_nb(st, tb, s) == 0:
            return sp[P_DEAD_CARD]
        return max(n * sp[P_POWER_VALUE], n * sp[P_DRAW_VALUE]) - sp[P_SWOON_COST_SHARE] * ov
    if ab == AB_REVEAL_UNTIL_HERO:
        if not can_remove_obstacle_nb(st, tb, s):
            return sp[P_DEAD_CARD]
        return sp[P_TAKE_ME_SHARE] * ov * removes - sp[P_TAKE_ME_COST]
    if ab == AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN:
        beast = realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0
        belle = realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        if beast and belle:
            return n * sp[P_POWER_VALUE]
        if beast:
            return ov if can_remove_obstacle_nb(st, tb, s) else sp[P_DEAD_CARD]
        return sp[P_DEAD_CARD]
    if ab == AB_EXTRA_VANQUISH:
        return best_vanquish_nb.call(st, tb, ru, sp, s)
    if ab == AB_EXTRA_MOVE:
        return best_move_nb.call(st, tb, ru, sp, s)
    if ab == AB_DEFEAT_HERO_MAX_STRENGTH:
        return best_defeat_nb.call(st, tb, ru, sp, s, n)
    if ab == AB_REVEAL_UNTIL_ALLY:
        return sp[P_REVEAL_ALLY_DRAWS] * sp[P_DRAW_VALUE]
    return np.nan


@kernel
def item_value_nb(st, tb, ru, sp, s, k, host):
    """Worth of playing Gaston's Item ``k`` (to ``host``, -1: none yet) if it adds Strength to an Ally, else NaN."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_TYPE] != K.T_ITEM or tb.card[c, K.CF_PASSIVE] != AB_ATTACHED_STRENGTH:
        return np.nan
    v = sp[P_ALLY_VALUE] * tb.card[c, K.CF_N]
    if host >= 0:
        help_host = ally_help_nb.call(st, tb, ru, sp, s, st.inst[s, host, K.I_CARD], st.inst[s, host, K.I_LOC])
        v += help_host * sp[P_ATTACHED_HELP_SHARE]
    return v


@kernel
def location_pick_nb(st, tb, sp, s, loc, ctx, mine):
    """Score of location ``loc`` picked for ability ``ctx`` in Gaston's Realm (``mine``: by Gaston), else NaN."""
    if ctx == AB_PUSH_ALLIES_OUT:
        # Allies pushed out near his other Allies: good for Gaston
        return (1.0 if mine else -1.0) * allies_at_nb(st, tb, s, loc)
    if ctx == AB_REMOVE_OBSTACLES_ONE_LOCATION:
        return st.sv[s, K.SV_OBST + loc] + 0.0
    if (
        ctx == AB_REMOVE_OBSTACLES
        or ctx == AB_REVEAL_UNTIL_HERO
        or ctx == AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN
        or (ctx == AB_PLAY_OTHER_REVEAL_AGAIN)
    ):
        # Empty one location before the next: It Is You needs every location to miss one, and the
        # locations a Hero clears when defeated are left for that Hero.
        sc = -st.sv[s, K.SV_OBST + loc] - sp[P_CLEARED_BY_HERO] * clears_location_nb(st, tb, s, loc)
        replacing = passive_count_nb(st, tb, s, AB_BLOCKS_OBSTACLE_REMOVAL) > 0
        return sc if mine != replacing else -sc
    if ctx == AB_REPLACE_ONE_GAIN_OR_DRAW or ctx == AB_REPLACE_OBSTACLES or ctx == AB_REPLACE_ALL_ONE_LOCATION:
        return missing_at_nb(st, tb, s, loc) + 0.0
    return np.nan


@kernel
def fate_card_harm_nb(st, tb, sp, s, k):
    """Harm to Gaston of his revealed Fate card ``k`` if it weakens his Allies, puts Obstacles back, plays another
    card (The Rose, valued as if the other were average) or brings Beast, else NaN."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_TYPE] == K.T_ITEM and tb.card[c, K.CF_PASSIVE] == AB_ALLIES_HERE_MINUS:
        return sp[P_ALLIES_MINUS_HARM]
    if tb.card[c, K.CF_TYPE] != K.T_EFFECT:
        return np.nan
    ab = tb.card[c, K.CF_EFFECT]
    ov = sp[P_OBSTACLE_VALUE]
    if ab == AB_REPLACE_ONE_EACH_LOCATION:
        return sp[P_REPLACE_EACH_HARM] * ov
    if ab == AB_REPLACE_OBSTACLES:
        return ov * min(tb.card[c, K.CF_N], missing_total_nb(st, tb, s))
    if ab == AB_REPLACE_ALL_ONE_LOCATION:
        most = 0
        for x in range(K.N_LOC):
            most = max(most, missing_at_nb(st, tb, s, x))
        return ov * most
    if ab == AB_PLAY_OTHER_REVEAL_AGAIN:
        return sp[P_ROSE_HARM] - (ov if can_remove_obstacle_nb(st, tb, s) else 0.0) * sp[P_ROSE_REMOVAL_SHARE]
    if ab == AB_FIND_HERO_RESHUFFLE_FATE:
        return sp[P_MAGIC_MIRROR_HARM]
    return np.nan


@kernel
def rose_harm_nb(st, tb, ru, sp, s, k):
    """Harm to Gaston of his revealed Fate card ``k`` if it is The Rose, knowing the other card revealed, else
    NaN."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_TYPE] != K.T_EFFECT or tb.card[c, K.CF_EFFECT] != AB_PLAY_OTHER_REVEAL_AGAIN:
        return np.nan
    removes = can_remove_obstacle_nb(st, tb, s)
    if objective_nb(st, tb, s) == OBJECTIVE and removes and obstacles_total_nb(st, s) <= sp[P_ROSE_MIN_OBSTACLES]:
        return -BIG  # it could hand Gaston the win
    # The Rose plays the other revealed card, then one of two more, then removes an Obstacle; it also
    # brings the Fate reshuffle (and the Obstacle replacers) round sooner.
    other = sp[P_ROSE_OTHER_HARM]
    mj = zone_bits_nb(st, s, K.Z_LIMBO) & FATE_BITS
    while mj != 0:
        j = lowest_nb(mj)
        mj &= mj - 1
        if j != k:
            other = basic_fate_harm_nb.call(st, tb, ru, sp, s, j, -1, -1)
            break
    return other + sp[P_ROSE_HARM] - (sp[P_ROSE_REMOVAL_SHARE] * sp[P_OBSTACLE_VALUE] if removes else 0.0)


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """Gaston's terms of the heuristic's scoring (``what``: the ``W_*`` codes of :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        # the share of his Obstacle spots cleared
        v = st.sv[s, K.SV_VILLAIN]
        spots = 0
        for loc in range(K.N_LOC):
            spots += tb.locs[v, loc, K.LC_SPOTS]
        return 1.0 - obstacles_total_nb(st, s) / max(spots, 1)
    if what == W_EFFECT:
        return effect_value_nb(st, tb, ru, sp, s, a)
    if what == W_KEEP:
        # an Effect that defeats Heroes, kept by the worst Hero in play
        card = st.inst[s, a, K.I_CARD]
        ab = tb.card[card, K.CF_EFFECT]
        if tb.card[card, K.CF_TYPE] == K.T_EFFECT and (ab == AB_EXTRA_VANQUISH or ab == AB_DEFEAT_HERO_MAX_STRENGTH):
            return keep_removal_nb.call(st, tb, ru, sp, s, a)
        return x
    if what == W_ALLY:
        # an Ally that activates to remove Obstacles
        if tb.card[st.inst[s, a, K.I_CARD], K.CF_ACTIVATE] == AB_REMOVE_OBSTACLES:
            x += (
                sp[P_REMOVER_ALLY] * sp[P_OBSTACLE_VALUE]
                if obstacles_total_nb(st, s) >= sp[P_REMOVER_ALLY_MIN]
                else 0.0
            )
        # a Wolf, stronger by every Wolf in play
        if tb.card[st.inst[s, a, K.I_CARD], K.CF_PASSIVE] == AB_WOLF_PACK:
            x += sp[P_ALLY_VALUE] * passive_count_nb(st, tb, s, AB_WOLF_PACK)
        return x
    if what == W_STRENGTH_ADDED:
        if tb.card[a, K.CF_PASSIVE] == AB_WOLF_PACK:
            # the new Wolf counts every Wolf in play, and each Wolf at location b grows by one
            m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
            while m != 0:
                k = lowest_nb(m)
                m &= m - 1
                if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_WOLF_PACK:
                    x += 1 + (1 if st.inst[s, k, K.I_LOC] == b else 0)
        return x
    if what == W_CARD:
        return item_value_nb(st, tb, ru, sp, s, a, c)
    if what == W_ACTIVATION:
        if a >= 0:
            card = st.inst[s, a, K.I_CARD]
            if tb.card[card, K.CF_ACTIVATE] == AB_REMOVE_OBSTACLES:
                cost = sp[P_POWER_VALUE] * activation_cost_nb(tb, ru, card)
                return sp[P_OBSTACLE_VALUE] * min(tb.card[card, K.CF_N], obstacles_total_nb(st, s)) - cost
        return x
    if what == W_ACTIVATION_IDLE:
        ab = tb.card[st.inst[s, a, K.I_CARD], K.CF_ACTIVATE]
        return 1.0 if ab == AB_REMOVE_OBSTACLES and not can_remove_obstacle_nb(st, tb, s) else x
    if what == W_KEEPS_COPIES:
        # a second removal card is worth keeping
        return 1.0 if removal_of_nb(st, tb, s, a) != 0 else x
    if what == W_ACTIONS_AT:
        # Play symbols enough to clear every Obstacle left: the game is won here
        if c > 0 and objective_nb(st, tb, s) == OBJECTIVE:
            if can_finish_here_nb(st, tb, s, c, st.sv[s, K.SV_POWER] + b):
                x += 0.5 * BIG
        return x
    if what == W_LOCATION_PICK:
        return location_pick_nb(st, tb, sp, s, a, b, c != 0)
    if what == W_FATE_CARD:
        return fate_card_harm_nb(st, tb, sp, s, a)
    if what == W_REVEALED:
        return rose_harm_nb(st, tb, ru, sp, s, a)
    if what == W_HERO_ON_PLAY:
        # a Hero moving Heroes or fetching an attachment
        op = tb.card[a, K.CF_ON_PLAY]
        if op == AB_MAY_MOVE_ONE_HERO or op == AB_FETCH_ATTACHMENT_HERE:
            x += sp[P_MOVE_HERO_HARM]
        elif op == AB_MAY_MOVE_HEROES_OR_ITEMS:
            x += sp[P_SMALL_HERO_HARM]
        return x
    if what == W_HERO_HARM:
        p = tb.card[a, K.CF_PASSIVE]
        if p == AB_BLOCKS_OBSTACLE_REMOVAL:
            # a Hero blocking Obstacle removal
            if objective_nb(st, tb, s) == OBJECTIVE:
                x += sp[P_BLOCKS_REMOVAL_HARM] * sp[P_OBSTACLE_VALUE]
        elif p == AB_OTHER_HEROES_HERE_PLUS:
            # a Hero stronger beside other Heroes
            x += sp[P_HERO_COMPANY_HARM] * hero_count_nb(st, tb, s)
        return x
    if what == W_DEFEAT_GAIN:
        # a Hero who, defeated, removes the Obstacles at his location
        if tb.card[a, K.CF_ON_DEFEAT] == AB_CLEAR_OBSTACLES_AT:
            if passive_count_nb(st, tb, s, AB_BLOCKS_OBSTACLE_REMOVAL) > 0 and tb.card[a, K.CF_PASSIVE] == 0:
                return 0.0
            return sp[P_OBSTACLE_VALUE] * st.sv[s, K.SV_OBST + tb.card[a, K.CF_LOCATION]]
        return x
    return x
