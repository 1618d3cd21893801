"""The Horned King's ability routines: the branches of the engine's routines (``resolve_effect_r``, ``on_play_r``,
``on_enter_r``, ``activate_r`` in :mod:`simlab.kernels.rules`) for the ability codes only his cards use
(``HANDLES``). The engine reaches :func:`ability_r` through its table of ability routines, filled from the
registry (:func:`simlab.villains.bind_abilities`); it runs on the engine's frame, as the branches did.
"""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import helper, kernel
from simlab.kernels.query import (
    can_enter_nb,
    flip_cost_nb,
    hero_count_nb,
    passive_count_nb,
    realm_heroes_nb,
    realm_instance_nb,
    strength_nb,
    zone_bits_nb,
    zone_instance_nb,
)
from simlab.kernels.rules.abilities import (
    ASK_NO_EFFECTS,
    ASK_PLAYABLE,
    CARD_HERE,
    CARD_LOCALS,
    CARD_SEAT,
    CHECK_ACTIVATE,
    CHECK_EFFECT,
    CHECK_OBJECTIVE,
    CHECK_TAKES_OVER_FATE_ACTION,
    NO_CHECK,
    RESOLVE_DEFEATED_BY_VANQUISH,
    RESOLVE_ON_DEFEAT,
    RESOLVE_USED_IN_VANQUISH,
    card_frame_nb,
)
from simlab.kernels.rules.cards import add_card_placements_nb
from simlab.kernels.rules.fate import discard_revealed_nb
from simlab.kernels.rules.frame import (
    A4,
    A5,
    GO,
    RT_ACTIVATE,
    RT_FATE_ACTION,
    RT_MOVE_HERO,
    RT_PICK_LOCATION,
    RT_PICK_MODE,
    RT_PLAY_HERO,
    RT_PLAY_ITEM,
    RT_PLAY_REVEALED,
    RT_RESOLVE_EFFECT,
    RT_TILE,
    TILE_PHASE,
    TILE_SEAT,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.heroes import defeat_hero_nb
from simlab.kernels.rules.log import gain_power_nb, log_nb, opt_add_nb, opt_clear_nb
from simlab.kernels.rules.piles import (
    draw_n_nb,
    fate_discard_into_deck_nb,
    hand_size_nb,
    put_on_fate_deck_nb,
    reveal_fate_nb,
    shuffle_fate_deck_nb,
    villain_discard_into_deck_nb,
)
from simlab.kernels.rules.realm import discard_nb, find_nb, leave_realm_nb, move_card_nb, put_in_realm_nb
from simlab.kernels.rules.routines.fate import (
    FA_ACTOR,
    FA_END,
    FA_OTHER,
    FA_PICKED,
    FA_TAKEN_OVER_LOCAL,
    FA_TARGET,
    PC_TAKEN_OVER,
)
from simlab.villains.horned_king.codes import (
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
    AB_POWER_CAULDRON,
    AB_POWER_PER_HERO,
    AB_RESHUFFLE_FATE_PLAY_TWO,
    AB_RESHUFFLE_OR_PAY_CLAIM,
    AB_RETURNS_TO_FATE_DECK,
    AB_TILE_ALLY,
    OBJECTIVE,
    R_MOVE_EACH_HERO_SINGLE_DESTINATION,
    R_TILE_ALLY_ANY_LOCATION,
    R_TILE_ALLY_PLAY_CARD,
)

HANDLES = (
    AB_RETURNS_TO_FATE_DECK,
    AB_CLAIM_CAULDRON,
    OBJECTIVE,
    AB_FREE_ITEM,
    AB_POWER_CAULDRON,
    AB_CLAIM_OR_GAIN,
    AB_POWER_PER_HERO,
    AB_FIND_OR_DEFEAT_STRENGTH,
    AB_RESHUFFLE_OR_PAY_CLAIM,
    AB_DRAW,
    AB_DISCARD_HAND_DRAW,
    AB_DEPOWER_CAULDRON,
    AB_MAY_MOVE_EACH_HERO,
    AB_GATHER_ALLIES,
    AB_LOSE_POWER_OR_DISCARD,
    AB_RESHUFFLE_FATE_PLAY_TWO,
    AB_FLIP_CAULDRON,
    AB_TILE_ALLY,
    AB_GRANTS_ACTIVATE,
    AB_NO_EFFECTS,
    AB_MOVES_TO_VILLAIN_AFTER_VANQUISH,
)
# the engine's questions (engine.ASK_*, RESOLVE_USED_IN_VANQUISH) check_nb answers, and for which ongoing abilities
ASKED = {
    ASK_PLAYABLE: (AB_TILE_ALLY, AB_GRANTS_ACTIVATE),
    ASK_NO_EFFECTS: (AB_NO_EFFECTS,),
    RESOLVE_USED_IN_VANQUISH: (AB_TILE_ALLY, AB_MOVES_TO_VILLAIN_AFTER_VANQUISH),
}


# the locals of the Horned King's routines on the engine's frames (after CARD_HERE on on_play_r's)
HERO_FOUND = CARD_LOCALS  # find_or_defeat_strength: the Hero found
NEXT_HERO = A4  # may_move_each_hero: the next Hero to look at,
HERO_DEST = A5  # and the destination picked
DISCARDED = A4  # lose_power_or_discard: the cards discarded so far
SECOND_CARD = FA_TAKEN_OVER_LOCAL  # reshuffle_fate_play_two: the second card revealed


@kernel
def claim_cauldron_nb(st, s):
    """Seat ``s`` claims the Black Cauldron, front side up, unless it has."""
    if st.sv[s, K.SV_TILE] == 0:
        st.sv[s, K.SV_TILE] = 1
        log_nb(st, K.EV_TILE, s, 1, 0, 0, 0)


@kernel
def set_cauldron_nb(st, s, side):
    """The Black Cauldron of seat ``s`` shows ``side`` (1 front, 2 the Power side)."""
    st.sv[s, K.SV_TILE] = side
    log_nb(st, K.EV_TILE, s, side, 0, 0, 0)


@kernel
def tile_allies_everywhere_nb(st, tb, s):
    """A Cauldron Born (a tile Ally) at each of seat ``s``'s locations."""
    locs = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY:
            locs |= 1 << st.inst[s, k, K.I_LOC]
    return locs == (1 << K.N_LOC) - 1


@kernel
def granting_items_blocked_nb(st, tb, s, loc):
    """An Item granting an Activate may not be played to ``loc``: an untrapped Hero there blocks it."""
    m = realm_heroes_nb(st, tb, s)
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        if (
            st.inst[s, h, K.I_LOC] == loc
            and st.inst[s, h, K.I_TRAPPED] == 0
            and tb.card[st.inst[s, h, K.I_CARD], K.CF_PASSIVE] == AB_BLOCKS_GRANTING_ITEMS_HERE
        ):
            return True
    return False


@kernel
def find_ok_nb(st, tb, s, c):
    """The Hero card row ``c`` names can be found (Hen Wen: not in the Realm, in the Fate deck or discard pile)."""
    hero = tb.card[c, K.CF_REF0]
    if realm_instance_nb(st, s, hero) >= 0:
        return False
    return zone_instance_nb(st, s, hero, K.Z_FDECK) >= 0 or zone_instance_nb(st, s, hero, K.Z_FDISCARD) >= 0


@kernel
def defeat_strength_ok_nb(st, tb, s, c):
    """A Hero of exactly card row ``c``'s number in Strength is in seat ``s``'s Realm."""
    m = realm_heroes_nb(st, tb, s)
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        if strength_nb(st, tb, s, h) == tb.card[c, K.CF_N]:
            return True
    return False


@helper
def effect_nb(st, tb, ru, f):
    """The Horned King's Effects and Conditions: resolve ``k`` in seat ``s``'s Realm (on ``resolve_effect_r``'s
    frame); ``chooser`` makes its choices."""
    s, k, chooser, pc, c, ab, n = card_frame_nb(st, tb, f, K.CF_EFFECT)
    if ab == AB_FREE_ITEM:
        if pc == 0:
            opt_clear_nb(st)
            for j in range(K.N_VCARDS):
                if st.inst[s, j, K.I_ZONE] == K.Z_HAND and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                    add_card_placements_nb(st, tb, ru, s, j)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_PLACE, ab)
            return ret_nb(st, f)
        return tail_nb(st, f, RT_PLAY_ITEM, s, chosen_nb(st, 1), chosen_nb(st, 2), chosen_nb(st, 3), 1, 0, 0)
    if ab == AB_POWER_CAULDRON:
        if st.sv[s, K.SV_TILE] == 1:
            set_cauldron_nb(st, s, 2)
        return ret_nb(st, f)
    if ab == AB_CLAIM_OR_GAIN:
        if pc == 0:
            unclaimed = 1 if st.sv[s, K.SV_TILE] == 0 else 0
            return call_nb(st, f, 1, RT_PICK_MODE, s, chooser, ab, K.M_CLAIM, unclaimed, K.M_GAIN, 1)
        if st.g[K.G_RET0] == K.M_CLAIM:
            claim_cauldron_nb(st, s)
        else:
            gain_power_nb(st, s, n)
        return ret_nb(st, f)
    if ab == AB_POWER_PER_HERO:
        gain_power_nb(st, s, hero_count_nb(st, tb, s))
        return ret_nb(st, f)
    if ab == AB_FIND_OR_DEFEAT_STRENGTH:
        if pc == 0:
            find_ok = 1 if find_ok_nb(st, tb, s, c) else 0
            defeat_ok = 1 if defeat_strength_ok_nb(st, tb, s, c) else 0
            return call_nb(st, f, 1, RT_PICK_MODE, s, chooser, ab, K.M_FIND, find_ok, K.M_DEFEAT, defeat_ok)
        if pc == 1:
            mode = st.g[K.G_RET0]
            if mode == K.M_FIND:
                st.fr[f, HERO_FOUND] = find_nb(st, s, tb.card[c, K.CF_REF0], 0)
                return call_nb(st, f, 2, RT_PICK_LOCATION, chooser, s, tb.card[c, K.CF_REF0], -1, ab, 0, 0)
            if mode == K.M_DEFEAT:
                opt_clear_nb(st)
                m = realm_heroes_nb(st, tb, s)
                while m != 0:
                    h = lowest_nb(m)
                    m &= m - 1
                    if strength_nb(st, tb, s, h) == n:
                        opt_add_nb(st, K.O_CARD, h, s, 0)
                return ask_nb(st, f, 3, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        if pc == 2:
            h = st.fr[f, HERO_FOUND]
            loc = st.g[K.G_RET0]
            log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
            return tail_nb(st, f, RT_PLAY_HERO, s, h, loc, chooser, 0, 0, 0)
        defeat_hero_nb(st, tb, ru, s, chosen_nb(st, 1), 0, chooser)
        return ret_nb(st, f)
    if ab == AB_RESHUFFLE_OR_PAY_CLAIM:
        if pc == 0:
            can_claim = 1 if st.sv[s, K.SV_TILE] == 0 and st.sv[s, K.SV_POWER] >= n else 0
            return call_nb(st, f, 1, RT_PICK_MODE, s, chooser, ab, K.M_SHUFFLE, 1, K.M_CLAIM, can_claim)
        if st.g[K.G_RET0] == K.M_CLAIM:
            st.sv[s, K.SV_POWER] -= n
            log_nb(st, K.EV_POWER_LOSS, s, n, st.sv[s, K.SV_POWER], 0, 0)
            d = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
            if d >= 0:
                discard_nb(st, s, d)
            claim_cauldron_nb(st, s)
        else:
            villain_discard_into_deck_nb(st, s)
        return ret_nb(st, f)
    if ab == AB_DRAW:
        draw_n_nb(st, s, n)
    elif ab == AB_DISCARD_HAND_DRAW:
        for j in range(K.N_VCARDS):
            if st.inst[s, j, K.I_ZONE] == K.Z_HAND:
                discard_nb(st, s, j)
        draw_n_nb(st, s, n)
    elif ab == AB_DEPOWER_CAULDRON:
        if st.sv[s, K.SV_TILE] == 2:
            set_cauldron_nb(st, s, 1)
    return ret_nb(st, f)


@helper
def on_play_nb(st, tb, ru, f):
    """The "when played" abilities of the Horned King's Heroes and Items (on ``on_play_r``'s frame)."""
    s, h, chooser, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ON_PLAY)
    here = st.fr[f, CARD_HERE]
    if ab == AB_MAY_MOVE_EACH_HERO:
        single = ru[R_MOVE_EACH_HERO_SINGLE_DESTINATION] != 0
        if pc == 0:
            opt_clear_nb(st)
            opt_add_nb(st, K.O_MODE, K.M_NOTHING, 0, 0)
            opt_add_nb(st, K.O_MODE, K.M_MOVE_HEROES, 0, 0)
            return ask_nb(st, f, 1, s, chooser, K.DK_MODE, ab)
        if pc == 1:
            if chosen_nb(st, 1) != K.M_MOVE_HEROES:
                return ret_nb(st, f)
            st.fr[f, NEXT_HERO] = 0
            st.fr[f, HERO_DEST] = -1
            if single:
                return call_nb(st, f, 2, RT_PICK_LOCATION, chooser, s, c, -1, ab, 0, 0)
            pc = 3
        if pc == 2:
            # the single destination was picked
            st.fr[f, HERO_DEST] = st.g[K.G_RET0]
            pc = 3
        if pc == 4:
            # a destination was picked for Hero NEXT_HERO (each-destination reading)
            j = st.fr[f, NEXT_HERO]
            dest = st.g[K.G_RET0]
            st.fr[f, HERO_DEST] = dest
            if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                return call_nb(st, f, 5, RT_MOVE_HERO, s, j, dest, chooser, 0, 0, 0)
            pc = 5
        if pc == 5:
            st.fr[f, NEXT_HERO] += 1
        # pc 3, 4 or 5: the next Hero
        for j in range(st.fr[f, NEXT_HERO], K.N_INST):
            cj = st.inst[s, j, K.I_CARD]
            if (
                st.inst[s, j, K.I_ZONE] == K.Z_REALM
                and tb.card[cj, K.CF_TYPE] == K.T_HERO
                and st.inst[s, j, K.I_TRAPPED] == 0
            ):
                st.fr[f, NEXT_HERO] = j
                if not single:
                    return call_nb(st, f, 4, RT_PICK_LOCATION, chooser, s, cj, st.inst[s, j, K.I_LOC], ab, 0, 0)
                dest = st.fr[f, HERO_DEST]
                if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                    return call_nb(st, f, 5, RT_MOVE_HERO, s, j, dest, chooser, 0, 0, 0)
        return ret_nb(st, f)
    if ab == AB_GATHER_ALLIES:
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY
                and st.inst[s, k, K.I_LOC] != here
                and st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] == 0
                and can_enter_nb(st, tb, s, st.inst[s, k, K.I_CARD], here)
            ):
                move_card_nb(st, tb, ru, s, k, here)
        return ret_nb(st, f)
    if ab == AB_LOSE_POWER_OR_DISCARD:
        n = tb.card[c, K.CF_N]
        if pc == 0:
            opt_clear_nb(st)
            if st.sv[s, K.SV_POWER] >= n:
                opt_add_nb(st, K.O_MODE, K.M_LOSE_POWER, 0, 0)
            if hand_size_nb(st, s) > 0:
                opt_add_nb(st, K.O_MODE, K.M_DISCARD_CARDS, 0, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_MODE, ab)
            return ret_nb(st, f)
        if pc == 1:
            if chosen_nb(st, 1) == K.M_LOSE_POWER:
                st.sv[s, K.SV_POWER] -= n
                log_nb(st, K.EV_POWER_LOSS, s, n, st.sv[s, K.SV_POWER], 0, 0)
                return ret_nb(st, f)
        else:
            discard_nb(st, s, chosen_nb(st, 1))
            st.fr[f, DISCARDED] += 1
        if st.fr[f, DISCARDED] >= n:
            return ret_nb(st, f)
        opt_clear_nb(st)
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
                opt_add_nb(st, K.O_CARD, k, s, 0)
        if st.g[K.G_NOPT] == 0:
            return ret_nb(st, f)
        return ask_nb(st, f, 2, s, s, K.DK_DISCARD, ab)
    return ret_nb(st, f)


@helper
def fate_action_nb(st, tb, ru, f):
    """Gurgi's Happy Day, picked in a Fate action, takes it over (on ``fate_action_r``'s frame, from
    ``PC_TAKEN_OVER``): the other revealed card is discarded, the Fate discard pile shuffled into the deck, the top
    two revealed and both played, then Gurgi's Happy Day is discarded."""
    actor = st.fr[f, FA_ACTOR]
    s = st.fr[f, FA_TARGET]
    pc = st.fr[f, K.FR_PC]
    if pc == PC_TAKEN_OVER:
        discard_revealed_nb(st, s, st.fr[f, FA_OTHER])
        fate_discard_into_deck_nb(st, s)
        first = reveal_fate_nb(st, s)
        st.fr[f, SECOND_CARD] = reveal_fate_nb(st, s)
        if first >= 0:
            return call_nb(st, f, PC_TAKEN_OVER + 1, RT_PLAY_REVEALED, s, first, actor, 0, 0, 0, 0)
        pc = PC_TAKEN_OVER + 1
    if pc == PC_TAKEN_OVER + 1 and st.fr[f, SECOND_CARD] >= 0:
        return call_nb(st, f, PC_TAKEN_OVER + 2, RT_PLAY_REVEALED, s, st.fr[f, SECOND_CARD], actor, 0, 0, 0, 0)
    discard_nb(st, s, st.fr[f, FA_PICKED])
    st.fr[f, K.FR_PC] = FA_END
    return GO


@helper
def tile_nb(st, tb, ru, f):
    """The Black Cauldron's turn rules (on an RT_TILE frame: TILE_SEAT, TILE_PHASE), once claimed: its front side
    discards one Cauldron Born at the start of the turn; before the move, its Power side may swap an Ancient
    Soldiers (an Item granting Activates) for a Cauldron Born (a tile Ally) from hand, once a turn, paying its cost."""
    s = st.fr[f, TILE_SEAT]
    pc = st.fr[f, K.FR_PC]
    if st.fr[f, TILE_PHASE] == K.PH_START:
        if pc == 1:
            discard_nb(st, s, chosen_nb(st, 1))
            return ret_nb(st, f)
        if st.sv[s, K.SV_TILE] == 1:
            opt_clear_nb(st)
            for k in range(K.N_VCARDS):
                if (
                    st.inst[s, k, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY
                ):
                    opt_add_nb(st, K.O_CARD, k, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, s, K.DK_CARD, AB_FLIP_CAULDRON)
        return ret_nb(st, f)
    # before the move
    cost = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_SWAP_COST]
    if pc == 1:
        if chosen_nb(st, 0) == K.O_SWAP:
            soldier = chosen_nb(st, 1)
            cb = chosen_nb(st, 2)
            dest = chosen_nb(st, 3)
            st.sv[s, K.SV_POWER] -= cost
            st.sv[s, K.SV_SWAP_USED] = 1
            log_nb(st, K.EV_SWAP, s, soldier, cb, dest, cost)
            discard_nb(st, s, soldier)
            put_in_realm_nb(st, s, cb, dest, -1)
            st.inst[s, cb, K.I_FLAGS] |= K.FLAG_PLAYED
        return ret_nb(st, f)
    if st.sv[s, K.SV_TILE] == 2 and st.sv[s, K.SV_SWAP_USED] == 0 and st.sv[s, K.SV_POWER] >= cost:
        opt_clear_nb(st)
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
        cb = -1
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_HAND
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_TILE_ALLY
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_BLOCKED] == 0
            ):
                cb = k
                break
        if cb >= 0:
            for k in range(K.N_VCARDS):
                if (
                    st.inst[s, k, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_GRANTS_ACTIVATE
                ):
                    dup = False
                    for j in range(1, st.g[K.G_NOPT]):
                        if st.inst[s, st.opts[j, 1], K.I_LOC] == st.inst[s, k, K.I_LOC]:
                            dup = True
                    if dup:
                        continue
                    for dest in range(K.N_LOC):
                        same = dest == st.inst[s, k, K.I_LOC]
                        if (same or ru[R_TILE_ALLY_ANY_LOCATION] != 0) and can_enter_nb(
                            st, tb, s, st.inst[s, cb, K.I_CARD], dest
                        ):
                            opt_add_nb(st, K.O_SWAP, k, cb, dest)
        if st.g[K.G_NOPT] > 1:
            return ask_nb(st, f, 1, s, s, K.DK_SWAP, 0)
    return ret_nb(st, f)


@helper
def tile_activate_nb(st, tb, ru, f):
    """Activating the Black Cauldron (on ``activate_r``'s frame, CARD_INSTANCE = -1): pay and flip it to its Power
    side."""
    s = st.fr[f, CARD_SEAT]
    cost = flip_cost_nb(st, tb, ru, s)
    st.sv[s, K.SV_POWER] -= cost
    log_nb(st, K.EV_ACTIVATE, s, -1, cost, 0, 0)
    set_cauldron_nb(st, s, 2)
    return ret_nb(st, f)


@kernel
def check_nb(st, tb, ru, slot, s, c, budget):
    """The Horned King's answers to the engine's check table (``engine.CHECK_TABLE``; 1, 0 or NO_CHECK) for card row
    ``c`` of seat ``s`` (-1: his tile, whose front side can be flipped for ``budget``); Gurgi's Happy Day takes a
    Fate action over; his Effects need Heroes, the Cauldron's front side, Hen Wen to find or a Hero to defeat, an
    Item to play; his objective holds with his tile claimed and a tile Ally at every location."""
    if slot == RESOLVE_ON_DEFEAT:  # claim_cauldron
        claim_cauldron_nb(st, s)
        return 1
    if slot == ASK_PLAYABLE:
        p = tb.card[c, K.CF_PASSIVE]
        if p == AB_TILE_ALLY:  # played by the tile's Power side, or also from hand while that side shows
            return 1 if ru[R_TILE_ALLY_PLAY_CARD] != 0 and st.sv[s, K.SV_TILE] == 2 else 0
        if p == AB_GRANTS_ACTIVATE and budget >= 0:
            return 0 if granting_items_blocked_nb(st, tb, s, budget) else 1
        return NO_CHECK
    if slot == ASK_NO_EFFECTS:
        return 1 if passive_count_nb(st, tb, s, AB_NO_EFFECTS) > 0 else 0
    if slot == RESOLVE_USED_IN_VANQUISH:
        p = tb.card[c, K.CF_PASSIVE]
        if p == AB_TILE_ALLY:  # not discarded
            return 1
        if p == AB_MOVES_TO_VILLAIN_AFTER_VANQUISH:
            mover = st.sv[s, K.SV_MOVER]
            if st.inst[s, budget, K.I_LOC] != mover:
                move_card_nb(st, tb, ru, s, budget, mover)
            return 1
        return NO_CHECK
    if slot == RESOLVE_DEFEATED_BY_VANQUISH:
        if tb.card[st.inst[s, c, K.I_CARD], K.CF_PASSIVE] != AB_RETURNS_TO_FATE_DECK:
            return NO_CHECK
        leave_realm_nb(st, s, c, K.Z_LIMBO)
        if st.sv[s, K.SV_FDECK_N] == 0:
            fate_discard_into_deck_nb(st, s)
        put_on_fate_deck_nb(st, s, c)
        shuffle_fate_deck_nb(st, s)
        return 1
    if slot == CHECK_OBJECTIVE:
        return 1 if st.sv[s, K.SV_TILE] > 0 and tile_allies_everywhere_nb(st, tb, s) else 0
    if slot == CHECK_ACTIVATE:
        if c < 0:  # the Black Cauldron: its front side can be flipped
            return 1 if st.sv[s, K.SV_TILE] == 1 and budget >= flip_cost_nb(st, tb, ru, s) else 0
        return NO_CHECK
    if slot == CHECK_TAKES_OVER_FATE_ACTION:
        return 1 if tb.card[c, K.CF_EFFECT] == AB_RESHUFFLE_FATE_PLAY_TWO else NO_CHECK
    if slot != CHECK_EFFECT:
        return NO_CHECK
    ab = tb.card[c, K.CF_EFFECT]
    if ab == AB_POWER_PER_HERO:
        return 1 if hero_count_nb(st, tb, s) > 0 else 0
    if ab == AB_POWER_CAULDRON:
        return 1 if st.sv[s, K.SV_TILE] == 1 else 0
    if ab == AB_FIND_OR_DEFEAT_STRENGTH:
        return 1 if find_ok_nb(st, tb, s, c) or defeat_strength_ok_nb(st, tb, s, c) else 0
    if ab == AB_FREE_ITEM:
        # Probe with the option list, then give it back as it was: the caller may be building it.
        n0 = st.g[K.G_NOPT]
        found = 0
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_HAND and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                if add_card_placements_nb(st, tb, ru, s, k) > 0:
                    found = 1
                    break
        st.g[K.G_NOPT] = n0
        return found
    return NO_CHECK


@kernel
def ability_r(st, tb, ru, f):
    """The routine of frame ``f`` for one of the Horned King's ability codes (``HANDLES``), by the engine routine that
    reached it."""
    r = st.fr[f, K.FR_ROUTINE]
    if r == RT_RESOLVE_EFFECT:
        return effect_nb(st, tb, ru, f)
    if r == RT_FATE_ACTION:
        return fate_action_nb(st, tb, ru, f)
    if r == RT_TILE:
        return tile_nb(st, tb, ru, f)
    if r == RT_ACTIVATE:
        return tile_activate_nb(st, tb, ru, f)
    return on_play_nb(st, tb, ru, f)  # RT_ON_PLAY
