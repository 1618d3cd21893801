"""Gaston's ability routines: the branches of the engine's routines (``resolve_effect_r``, ``on_play_r``,
``on_enter_r``, ``activate_r`` in :mod:`simlab.kernels.rules`) for the ability codes only his cards use
(``HANDLES``). The engine reaches :func:`ability_r` through its table of ability routines, filled from the
registry (:func:`simlab.villains.bind_abilities`); it runs on the engine's frame, as the branches did.
"""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import helper, kernel
from simlab.kernels.query import (
    any_move_nb,
    any_vanquish_possible_nb,
    can_enter_nb,
    can_remove_obstacle_nb,
    hero_count_nb,
    missing_at_nb,
    missing_total_nb,
    obstacles_total_nb,
    realm_heroes_nb,
    realm_instance_nb,
    strength_nb,
)
from simlab.kernels.rules.abilities import (
    ASK_VANQUISH_RETURNS_ALLIES,
    CARD_HERE,
    CARD_LOCALS,
    CHECK_ACTIVATE,
    CHECK_EFFECT,
    CHECK_OBJECTIVE,
    CHECK_TAKES_OVER_FATE_ACTION,
    NO_CHECK,
    RESOLVE_ON_DEFEAT,
    card_frame_nb,
)
from simlab.kernels.rules.fate import hero_placements_nb
from simlab.kernels.rules.frame import (
    A4,
    A5,
    A6,
    A7,
    GO,
    RT_CHOOSE_MOVE,
    RT_CHOOSE_VANQUISH,
    RT_FATE_ACTION,
    RT_MOVE_HERO,
    RT_ON_ENTER,
    RT_ON_PLAY,
    RT_PICK_HERO_TO_MOVE,
    RT_PICK_LOCATION,
    RT_PICK_MODE,
    RT_PLAY_HERO,
    RT_PLAY_REVEALED,
    RT_REMOVE_OBSTACLES,
    RT_REPLACE_OBSTACLES,
    RT_RESOLVE_EFFECT,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.heroes import defeat_hero_nb
from simlab.kernels.rules.log import gain_power_nb, log_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.obstacles import clear_obstacles_at_nb, remove_obstacle_at_nb, replace_obstacle_at_nb
from simlab.kernels.rules.piles import (
    draw_n_nb,
    fate_discard_into_deck_nb,
    put_on_fate_deck_nb,
    reveal_fate_nb,
    shuffle_fate_deck_nb,
    villain_discard_into_deck_nb,
)
from simlab.kernels.rules.realm import discard_nb, find_nb, move_card_nb, put_in_realm_nb
from simlab.kernels.rules.routines.fate import (
    FA_ACTOR,
    FA_OTHER,
    FA_PICK,
    FA_PICKED,
    FA_R0,
    FA_R1,
    FA_REMOVALS_FOR,
    FA_REMOVALS_OWED,
    FA_TARGET,
    PC_TAKEN_OVER,
)
from simlab.kernels.state import set_zone_nb
from simlab.villains.gaston.codes import (
    AB_CLEAR_OBSTACLES_AT,
    AB_DEFEAT_HERO_MAX_STRENGTH,
    AB_EXTRA_MOVE,
    AB_EXTRA_VANQUISH,
    AB_FETCH_ATTACHMENT_HERE,
    AB_FIND_HERO_RESHUFFLE_FATE,
    AB_MAY_MOVE_HEROES_OR_ITEMS,
    AB_MAY_MOVE_ONE_HERO,
    AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN,
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
    AB_VANQUISH_HERE_RETURNS_ALLIES,
    OBJECTIVE,
    R_MOVE_HEROES_SINGLE_DESTINATION,
    R_OBSTACLE_WIN_AT_START_OF_TURN,
    R_PUSH_ALLIES_SINGLE_DESTINATION,
    R_REMOVE_N_NEEDS_N,
)

HANDLES = (
    AB_CLEAR_OBSTACLES_AT,
    OBJECTIVE,
    AB_REMOVE_OBSTACLES,
    AB_REMOVE_OBSTACLES_ONE_LOCATION,
    AB_REPLACE_ONE_GAIN_OR_DRAW,
    AB_EXTRA_VANQUISH,
    AB_EXTRA_MOVE,
    AB_DEFEAT_HERO_MAX_STRENGTH,
    AB_REVEAL_UNTIL_ALLY,
    AB_REVEAL_UNTIL_HERO,
    AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN,
    AB_REPLACE_ONE_EACH_LOCATION,
    AB_REPLACE_OBSTACLES,
    AB_FIND_HERO_RESHUFFLE_FATE,
    AB_REPLACE_ALL_ONE_LOCATION,
    AB_MAY_MOVE_ONE_HERO,
    AB_FETCH_ATTACHMENT_HERE,
    AB_MAY_MOVE_HEROES_OR_ITEMS,
    AB_PUSH_ALLIES_OUT,
    AB_PLAY_OTHER_REVEAL_AGAIN,
    AB_VANQUISH_HERE_RETURNS_ALLIES,
)
# the engine's questions (engine.ASK_*) check_nb answers, and for which ongoing abilities
ASKED = {ASK_VANQUISH_RETURNS_ALLIES: (AB_VANQUISH_HERE_RETURNS_ALLIES,)}


# the locals of Gaston's routines on the engine's card frames (after CARD_HERE on on_play_r's and on_enter_r's)
HERO_FOUND = CARD_LOCALS  # find_hero_reshuffle_fate: the Hero found
ATTACHMENT = A4  # fetch_attachment_here: the Item found
MOVE_MODE = A4  # may_move_heroes_or_items: the mode picked,
NEXT_HERO = A5  # the next Hero to look at,
HERO_DEST = A6  # the destination (single-destination reading),
NEXT_ITEM = A7  # the next Item to look at
NEXT_ALLY = A4  # push_allies_out: the next Ally to look at,
ALLY_DEST = A5  # the destination (single-destination reading)


@kernel
def reveal_until_ally_nb(st, tb, s):
    """reveal_until_ally: reveal from the deck until an Ally (to hand); the rest is discarded.

    With no Ally left in deck or discard pile, the card only reshuffles the discard pile into the deck.
    """
    ally_left = False
    for k in range(K.N_VCARDS):
        if (st.inst[s, k, K.I_ZONE] == K.Z_VDECK or st.inst[s, k, K.I_ZONE] == K.Z_VDISCARD) and tb.card[
            st.inst[s, k, K.I_CARD], K.CF_TYPE
        ] == K.T_ALLY:
            ally_left = True
    if not ally_left:
        villain_discard_into_deck_nb(st, s)
        return
    for k in range(K.N_VCARDS):
        st.mark[k] = 0
    while True:
        if st.sv[s, K.SV_VDECK_N] == 0:
            villain_discard_into_deck_nb(st, s)
        n = st.sv[s, K.SV_VDECK_N] - 1
        k = st.vdeck[s, n]
        st.sv[s, K.SV_VDECK_N] = n
        st.inst[s, k, K.I_FLAGS] |= K.FLAG_DRAWN
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY:
            set_zone_nb(st, s, k, K.Z_HAND)
            log_nb(st, K.EV_TO_HAND, s, k, 0, 0, 0)
            break
        set_zone_nb(st, s, k, K.Z_LIMBO)
        st.mark[k] = 1
    for k in range(K.N_VCARDS):
        if st.mark[k] != 0:
            discard_nb(st, s, k)


@helper
def reveal_until_hero_nb(st, tb, s):
    """Reveal seat ``s``'s Fate cards until a Hero that can be played; the others go back and the Fate deck is
    shuffled. The Hero (in limbo), or -1 if none is left."""
    for k in range(K.N_INST):
        st.mark[k] = 0
    hero = -1
    while True:
        k = reveal_fate_nb(st, s)
        if k < 0:
            break
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO and hero_placements_nb(st, tb, s, k, k) > 0:
            opt_clear_nb(st)
            hero = k
            break
        opt_clear_nb(st)
        st.mark[k] = 1
    for k in range(K.N_VCARDS, K.N_INST):
        if st.mark[k] != 0:
            put_on_fate_deck_nb(st, s, k)
    shuffle_fate_deck_nb(st, s)
    return hero


@helper
def effect_nb(st, tb, ru, f):
    """Gaston's Effects and Conditions: resolve ``k`` in seat ``s``'s Realm (on ``resolve_effect_r``'s
    frame); ``chooser`` makes its choices."""
    s, k, chooser, pc, c, ab, n = card_frame_nb(st, tb, f, K.CF_EFFECT)
    if ab == AB_REMOVE_OBSTACLES:
        return tail_nb(st, f, RT_REMOVE_OBSTACLES, s, n, chooser, ab, 0, 0, 0)
    if ab == AB_REMOVE_OBSTACLES_ONE_LOCATION:
        if pc == 0:
            if can_remove_obstacle_nb(st, tb, s):
                opt_clear_nb(st)
                for loc in range(K.N_LOC):
                    if st.sv[s, K.SV_OBST + loc] > 0:
                        opt_add_nb(st, K.O_LOC, loc, 0, 0)
                return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ab)
            return ret_nb(st, f)
        loc = chosen_nb(st, 1)
        for _ in range(n):
            if st.sv[s, K.SV_OBST + loc] > 0 and not over_nb(st):
                remove_obstacle_at_nb(st, tb, ru, s, loc)
        return ret_nb(st, f)
    if ab == AB_REPLACE_ONE_GAIN_OR_DRAW:
        if pc == 0:
            return call_nb(st, f, 1, RT_REPLACE_OBSTACLES, s, 1, chooser, ab, 0, 0, 0)
        if pc == 1:
            return call_nb(st, f, 2, RT_PICK_MODE, s, chooser, ab, K.M_GAIN, 1, K.M_DRAW, 1)
        if st.g[K.G_RET0] == K.M_GAIN:
            gain_power_nb(st, s, n)
        else:
            draw_n_nb(st, s, n)
        return ret_nb(st, f)
    if ab == AB_EXTRA_VANQUISH:
        st.g[K.G_ACTIONS] += 1
        return tail_nb(st, f, RT_CHOOSE_VANQUISH, s, ab, 0, 0, 0, 0, 0)
    if ab == AB_EXTRA_MOVE:
        st.g[K.G_ACTIONS] += 1
        return tail_nb(st, f, RT_CHOOSE_MOVE, s, ab, 0, 0, 0, 0, 0)
    if ab == AB_DEFEAT_HERO_MAX_STRENGTH:
        if pc == 0:
            opt_clear_nb(st)
            m = realm_heroes_nb(st, tb, s)
            while m != 0:
                h = lowest_nb(m)
                m &= m - 1
                if strength_nb(st, tb, s, h) <= n:
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        defeat_hero_nb(st, tb, ru, s, chosen_nb(st, 1), 0, chooser)
        return ret_nb(st, f)
    if ab == AB_REVEAL_UNTIL_ALLY:
        reveal_until_ally_nb(st, tb, s)
        return ret_nb(st, f)
    if ab == AB_REVEAL_UNTIL_HERO:
        # Take Me Instead: the Hero revealed is played to the card's location, then the Obstacles are removed.
        if pc == 0:
            hero = reveal_until_hero_nb(st, tb, s)
            if hero >= 0:
                loc = tb.card[c, K.CF_LOCATION]
                log_nb(st, K.EV_FATE_PLAY, s, hero, loc, -1, chooser)
                return call_nb(st, f, 1, RT_PLAY_HERO, s, hero, loc, chooser, 0, 0, 0)
        return tail_nb(st, f, RT_REMOVE_OBSTACLES, s, n, chooser, ab, 0, 0, 0)
    if ab == AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN:
        beast = realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0
        belle = realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        if beast and belle:
            gain_power_nb(st, s, n)
        elif beast:
            return tail_nb(st, f, RT_REMOVE_OBSTACLES, s, 1, chooser, ab, 0, 0, 0)
        elif belle:
            return tail_nb(st, f, RT_REPLACE_OBSTACLES, s, 1, chooser, ab, 0, 0, 0)
        return ret_nb(st, f)
    if ab == AB_REPLACE_ONE_EACH_LOCATION:
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) > 0:
                replace_obstacle_at_nb(st, s, loc)
        return ret_nb(st, f)
    if ab == AB_REPLACE_OBSTACLES:
        return tail_nb(st, f, RT_REPLACE_OBSTACLES, s, n, chooser, ab, 0, 0, 0)
    if ab == AB_FIND_HERO_RESHUFFLE_FATE:
        beast = tb.card[c, K.CF_REF0]
        if pc == 0:
            if realm_instance_nb(st, s, beast) < 0:
                h = find_nb(st, s, beast, 0)
                if h >= 0:
                    st.fr[f, HERO_FOUND] = h
                    return call_nb(st, f, 1, RT_PICK_LOCATION, chooser, s, beast, -1, ab, 0, 0)
            pc = 3
        if pc == 1:
            h = st.fr[f, HERO_FOUND]
            loc = st.g[K.G_RET0]
            log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
            return call_nb(st, f, 3, RT_PLAY_HERO, s, h, loc, chooser, 0, 0, 0)
        discard_nb(st, s, k)
        fate_discard_into_deck_nb(st, s)
        return ret_nb(st, f)
    if ab == AB_REPLACE_ALL_ONE_LOCATION:
        if pc == 0:
            opt_clear_nb(st)
            for loc in range(K.N_LOC):
                if missing_at_nb(st, tb, s, loc) > 0:
                    opt_add_nb(st, K.O_LOC, loc, 0, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ab)
            return ret_nb(st, f)
        loc = chosen_nb(st, 1)
        while missing_at_nb(st, tb, s, loc) > 0:
            replace_obstacle_at_nb(st, s, loc)
        return ret_nb(st, f)
    return ret_nb(st, f)  # a code this routine does not resolve (refused by the card data): nothing


@helper
def on_play_nb(st, tb, ru, f):
    """The "when played" abilities of Gaston's Heroes and Items (on ``on_play_r``'s frame)."""
    s, h, chooser, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ON_PLAY)
    here = st.fr[f, CARD_HERE]
    if ab == AB_MAY_MOVE_ONE_HERO:
        if pc == 0:
            return call_nb(st, f, 1, RT_PICK_HERO_TO_MOVE, chooser, s, 1, ab, 0, 0, 0)
        if pc == 1:
            hero = st.g[K.G_RET0]
            if hero >= 0:
                return tail_nb(st, f, RT_MOVE_HERO, s, hero, st.g[K.G_RET1], chooser, 0, 0, 0)
        return ret_nb(st, f)
    if ab == AB_FETCH_ATTACHMENT_HERE:
        # Maurice: find his Invention and attach it to a Hero at his location.
        if pc == 0:
            k = find_nb(st, s, tb.card[c, K.CF_REF0], 0)
            if k < 0:
                return ret_nb(st, f)
            st.fr[f, ATTACHMENT] = k
            opt_clear_nb(st)
            for j in range(K.N_INST):
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and st.inst[s, j, K.I_LOC] == here
                    and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_HERO
                ):
                    opt_add_nb(st, K.O_CARD, j, s, 0)
            return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
        k = st.fr[f, ATTACHMENT]
        host = chosen_nb(st, 1)
        put_in_realm_nb(st, s, k, here, host)
        st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
        log_nb(st, K.EV_FATE_PLAY, s, k, here, host, chooser)
        return ret_nb(st, f)
    if ab == AB_MAY_MOVE_HEROES_OR_ITEMS:
        if pc == 0:
            opt_clear_nb(st)
            opt_add_nb(st, K.O_MODE, K.M_NOTHING, 0, 0)
            opt_add_nb(st, K.O_MODE, K.M_MOVE_HEROES, 0, 0)
            items = False
            for j in range(K.N_VCARDS, K.N_INST):
                if st.inst[s, j, K.I_ZONE] == K.Z_REALM and st.inst[s, j, K.I_HOST] >= 0:
                    items = True
            if items and hero_count_nb(st, tb, s) > 1:
                opt_add_nb(st, K.O_MODE, K.M_MOVE_ITEMS, 0, 0)
            return ask_nb(st, f, 1, s, chooser, K.DK_MODE, ab)
        if pc == 1:
            mode = chosen_nb(st, 1)
            st.fr[f, MOVE_MODE] = mode
            if mode == K.M_MOVE_HEROES:
                st.fr[f, NEXT_HERO] = 0
                st.fr[f, HERO_DEST] = -1
                pc = 2
            elif mode == K.M_MOVE_ITEMS:
                st.fr[f, NEXT_ITEM] = K.N_VCARDS
                pc = 5
            else:
                return ret_nb(st, f)
        if pc == 3:
            # a destination was picked for Hero NEXT_HERO
            j = st.fr[f, NEXT_HERO]
            dest = st.g[K.G_RET0]
            st.fr[f, HERO_DEST] = dest
            if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                return call_nb(st, f, 4, RT_MOVE_HERO, s, j, dest, chooser, 0, 0, 0)
            pc = 4
        if pc == 4:
            st.fr[f, NEXT_HERO] += 1
            pc = 2
        if pc == 2:
            single = ru[R_MOVE_HEROES_SINGLE_DESTINATION] != 0
            for j in range(st.fr[f, NEXT_HERO], K.N_INST):
                cj = st.inst[s, j, K.I_CARD]
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[cj, K.CF_TYPE] == K.T_HERO
                    and st.inst[s, j, K.I_TRAPPED] == 0
                ):
                    st.fr[f, NEXT_HERO] = j
                    dest = st.fr[f, HERO_DEST]
                    if not single or dest < 0 or dest == st.inst[s, j, K.I_LOC]:
                        return call_nb(st, f, 3, RT_PICK_LOCATION, chooser, s, cj, st.inst[s, j, K.I_LOC], ab, 0, 0)
                    if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                        return call_nb(st, f, 4, RT_MOVE_HERO, s, j, dest, chooser, 0, 0, 0)
            return ret_nb(st, f)
        if pc == 6:
            # a new host was picked for Item NEXT_ITEM
            j = st.fr[f, NEXT_ITEM]
            host = chosen_nb(st, 1)
            st.inst[s, j, K.I_HOST] = host
            st.inst[s, j, K.I_LOC] = st.inst[s, host, K.I_LOC]
            log_nb(st, K.EV_MOVE_CARD, s, j, -1, st.inst[s, host, K.I_LOC], host)
            st.fr[f, NEXT_ITEM] = j + 1
        # pc 5 or 6: the next attached Fate Item
        for j in range(st.fr[f, NEXT_ITEM], K.N_INST):
            if st.inst[s, j, K.I_ZONE] == K.Z_REALM and st.inst[s, j, K.I_HOST] >= 0:
                opt_clear_nb(st)
                for x in range(K.N_INST):
                    if (
                        x != st.inst[s, j, K.I_HOST]
                        and st.inst[s, x, K.I_ZONE] == K.Z_REALM
                        and tb.card[st.inst[s, x, K.I_CARD], K.CF_TYPE] == K.T_HERO
                        and can_enter_nb(st, tb, s, st.inst[s, j, K.I_CARD], st.inst[s, x, K.I_LOC])
                    ):
                        opt_add_nb(st, K.O_CARD, x, s, 0)
                if st.g[K.G_NOPT] > 0:
                    st.fr[f, NEXT_ITEM] = j
                    return ask_nb(st, f, 6, s, chooser, K.DK_CARD, ab)
        return ret_nb(st, f)
    return ret_nb(st, f)


@helper
def on_enter_nb(st, tb, ru, f):
    """Beast's "when played or moved": the Allies at his location (CARD_HERE) must leave it (mandatory)."""
    s, _, chooser, pc, _, ab, _ = card_frame_nb(st, tb, f, K.CF_ON_ENTER)
    if pc == 0:
        st.fr[f, NEXT_ALLY] = 0
        st.fr[f, ALLY_DEST] = -1
        pc = 2
    if pc == 3:
        # the destination of Ally NEXT_ALLY was picked
        k = st.fr[f, NEXT_ALLY]
        dest = st.g[K.G_RET0]
        st.fr[f, ALLY_DEST] = dest
        if dest >= 0:
            move_card_nb(st, tb, ru, s, k, dest)
        st.fr[f, NEXT_ALLY] = k + 1
    # pc 2 or 3: the Allies still at Beast's location, in instance order
    here = st.fr[f, CARD_HERE]
    single = ru[R_PUSH_ALLIES_SINGLE_DESTINATION] != 0
    for k in range(st.fr[f, NEXT_ALLY], K.N_VCARDS):
        if (
            st.inst[s, k, K.I_ZONE] == K.Z_REALM
            and st.inst[s, k, K.I_LOC] == here
            and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY
        ):
            dest = st.fr[f, ALLY_DEST]
            if dest < 0 or not single:
                st.fr[f, NEXT_ALLY] = k
                return call_nb(st, f, 3, RT_PICK_LOCATION, chooser, s, st.inst[s, k, K.I_CARD], here, ab, 0, 0)
            move_card_nb(st, tb, ru, s, k, dest)
    return ret_nb(st, f)


@helper
def activate_nb(st, tb, ru, f):
    """The Activated Abilities of Gaston's cards, paid for (on ``activate_r``'s frame)."""
    s, k, _, _, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ACTIVATE)
    if ab == AB_REMOVE_OBSTACLES:
        return tail_nb(st, f, RT_REMOVE_OBSTACLES, s, tb.card[c, K.CF_N], s, ab, 0, 0, 0)
    return ret_nb(st, f)


@helper
def fate_action_nb(st, tb, ru, f):
    """The Rose, picked in a Fate action, takes it over (on ``fate_action_r``'s frame, from ``PC_TAKEN_OVER``):
    the other revealed card is played, The Rose discarded, two more revealed for the Fate action to play one
    of, and one Obstacle removal is owed at its end."""
    actor = st.fr[f, FA_ACTOR]
    s = st.fr[f, FA_TARGET]
    if st.fr[f, K.FR_PC] == PC_TAKEN_OVER and st.fr[f, FA_OTHER] >= 0:
        return call_nb(st, f, PC_TAKEN_OVER + 1, RT_PLAY_REVEALED, s, st.fr[f, FA_OTHER], actor, 0, 0, 0, 0)
    discard_nb(st, s, st.fr[f, FA_PICKED])
    st.fr[f, FA_REMOVALS_OWED] += 1
    st.fr[f, FA_REMOVALS_FOR] = AB_PLAY_OTHER_REVEAL_AGAIN
    st.fr[f, FA_R0] = reveal_fate_nb(st, s)
    st.fr[f, FA_R1] = reveal_fate_nb(st, s)
    st.fr[f, K.FR_PC] = FA_PICK
    return GO


@kernel
def check_nb(st, tb, ru, slot, s, c, budget):
    """Gaston's answers to the engine's check table (``engine.CHECK_TABLE``; 1, 0 or NO_CHECK) for card row ``c`` of
    seat ``s``: his Item's removal when activated; The Rose takes a Fate action over; his Effects, Conditions and
    Fate Effects need Obstacles to remove or to replace, a Vanquish or a move to make, a Hero to defeat; his
    objective holds once every Obstacle is removed, at once or, in the start-of-turn reading, at his turn's start."""
    if slot == RESOLVE_ON_DEFEAT:  # clear_obstacles_at: the defeated Hero's location
        clear_obstacles_at_nb(st, tb, ru, s, tb.card[st.inst[s, c, K.I_CARD], K.CF_LOCATION])
        return 1
    if slot == ASK_VANQUISH_RETURNS_ALLIES:  # an Ally of his at the Vanquish's location (c) sends them back to hand
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and st.inst[s, k, K.I_LOC] == c
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_VANQUISH_HERE_RETURNS_ALLIES
            ):
                return 1
        return 0
    if slot == CHECK_OBJECTIVE:
        if c == K.OBJECTIVE_AFTER_OBSTACLE_REMOVED and ru[R_OBSTACLE_WIN_AT_START_OF_TURN] != 0:
            return 0
        if c == K.OBJECTIVE_AT_TURN_START and ru[R_OBSTACLE_WIN_AT_START_OF_TURN] == 0:
            return 0
        return 1 if obstacles_total_nb(st, s) == 0 else 0
    if slot == CHECK_ACTIVATE:
        if tb.card[c, K.CF_ACTIVATE] == AB_REMOVE_OBSTACLES:
            return 1 if can_remove_obstacle_nb(st, tb, s) else 0
        return NO_CHECK
    if slot == CHECK_TAKES_OVER_FATE_ACTION:
        return 1 if tb.card[c, K.CF_EFFECT] == AB_PLAY_OTHER_REVEAL_AGAIN else NO_CHECK
    if slot != CHECK_EFFECT:
        return NO_CHECK
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    if ab == AB_REMOVE_OBSTACLES:
        if ru[R_REMOVE_N_NEEDS_N] != 0 and n > 1 and obstacles_total_nb(st, s) < n:
            return 0
        return 1 if can_remove_obstacle_nb(st, tb, s) else 0
    if ab == AB_REMOVE_OBSTACLES_ONE_LOCATION:
        return 1 if can_remove_obstacle_nb(st, tb, s) else 0
    if ab == AB_REPLACE_ONE_GAIN_OR_DRAW or ab == AB_REPLACE_OBSTACLES or ab == AB_REPLACE_ALL_ONE_LOCATION:
        return 1 if missing_total_nb(st, tb, s) > 0 else 0
    if ab == AB_REPLACE_ONE_EACH_LOCATION:
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) == 0:
                return 0
        return 1
    if ab == AB_EXTRA_VANQUISH:
        return 1 if any_vanquish_possible_nb(st, tb, s, ru[K.R_ZERO_STRENGTH_NO_VANQUISH] == 0) else 0
    if ab == AB_EXTRA_MOVE:
        return 1 if any_move_nb(st, tb, s, 0) else 0
    if ab == AB_DEFEAT_HERO_MAX_STRENGTH:
        m = realm_heroes_nb(st, tb, s)
        while m != 0:
            h = lowest_nb(m)
            m &= m - 1
            if strength_nb(st, tb, s, h) <= n:
                return 1
        return 0
    if ab == AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN:
        # only the second named Hero in the Realm: it replaces an Obstacle, so one must be missing
        first = realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0
        second = realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        if second and not first:
            return 1 if missing_total_nb(st, tb, s) > 0 else 0
        return 1
    return NO_CHECK


@kernel
def ability_r(st, tb, ru, f):
    """The routine of frame ``f`` for one of Gaston's ability codes (``HANDLES``), by the engine routine that
    reached it."""
    r = st.fr[f, K.FR_ROUTINE]
    if r == RT_RESOLVE_EFFECT:
        return effect_nb(st, tb, ru, f)
    if r == RT_ON_PLAY:
        return on_play_nb(st, tb, ru, f)
    if r == RT_ON_ENTER:
        return on_enter_nb(st, tb, ru, f)
    if r == RT_FATE_ACTION:
        return fate_action_nb(st, tb, ru, f)
    return activate_nb(st, tb, ru, f)  # RT_ACTIVATE
