"""Lady Tremaine's ability routines: the branches of the engine's routines (``resolve_effect_r``, ``on_play_r``,
``on_enter_r``, ``activate_r`` in :mod:`simlab.kernels.rules`) for the ability codes only her cards use
(``HANDLES``). The engine reaches :func:`ability_r` through its table of ability routines, filled from the
registry (:func:`simlab.villains.bind_abilities`); it runs on the engine's frame, as the branches did.
"""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import helper, kernel
from simlab.kernels.query import (
    ally_fate_move_ok_nb,
    any_move_nb,
    any_trappable_nb,
    can_enter_nb,
    hero_can_move_nb,
    hero_count_nb,
    passive_count_nb,
    realm_instance_nb,
    trappable_nb,
    trapped_move_ok_nb,
    zone_bits_nb,
    zone_count_nb,
)
from simlab.kernels.rules.abilities import (
    ASK_COVERS,
    ASK_PLAYED_INTO_LOCKED,
    CARD_HERE,
    CARD_LOCALS,
    CHECK_ACTIVATE,
    CHECK_EFFECT,
    CHECK_OBJECTIVE,
    NO_CHECK,
    RESOLVE_ON_DEFEAT,
    RESOLVE_REALM_CHANGED,
    card_frame_nb,
)
from simlab.kernels.rules.frame import (
    A2,
    A3,
    A4,
    RT_CHOOSE_ACTIVATE,
    RT_CHOOSE_MOVE,
    RT_DISCARD_PICKS,
    RT_MOVE_HERO,
    RT_ON_ENTER,
    RT_ON_PLAY,
    RT_PASSIVE_PLAYED,
    RT_PICK_LOCATION,
    RT_PICK_MODE,
    RT_PLACE_HERO,
    RT_RESOLVE_EFFECT,
    START,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.heroes import defeat_hero_nb
from simlab.kernels.rules.log import declare_win_nb, log_nb, opt_add_nb, opt_clear_nb
from simlab.kernels.rules.moving import any_activate_nb
from simlab.kernels.rules.piles import (
    draw_n_nb,
    draw_nb,
    fate_discard_into_deck_nb,
    hand_size_nb,
    put_on_fate_deck_nb,
    reveal_fate_nb,
    shuffle_fate_deck_nb,
    take_from_deck_nb,
    villain_discard_into_deck_nb,
)
from simlab.kernels.rules.realm import discard_nb, find_nb, move_card_nb, put_in_realm_nb, trap_nb, untrap_nb
from simlab.kernels.state import set_zone_nb
from simlab.villains.lady_tremaine.codes import (
    AB_ACTIVATE_TO_WIN,
    AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS,
    AB_DEFEAT_NAMED_HERO,
    AB_DISCARD_GLASS_SLIPPER,
    AB_DISCARD_ITEM_HERE,
    AB_EXTRA_MOVE_OR_ACTIVATE,
    AB_FETCH_ALLY_HERE,
    AB_FIND_NAMED_HERO_PLAY,
    AB_GLASS_SLIPPER,
    AB_MOVE_HERO_HERE_TRAP,
    AB_MOVE_NAMED_HERE_TRAP,
    AB_MOVE_OPPONENT_ALLY,
    AB_PEEK_FATE_DISCARD_ONE,
    AB_PLAY_GLASS_SLIPPERS,
    AB_REFRESH_HAND,
    AB_RESHUFFLE_DISCARD_DRAW,
    AB_RESHUFFLE_FATE_ARRANGE,
    AB_TRAP_HERO,
    AB_TRAPS_HEROES_HERE,
    AB_UNLOCK_PLAY_NAMED,
    AB_UNTRAP_AND_MOVE,
    OBJECTIVE,
    R_GLASS_SLIPPERS_COVER,
    R_PLAYED_WHEN_REVEALED_INTO_LOCKED,
    R_TRAPS_HEROES_HERE_CONTINUOUS,
)
from simlab.villains.lady_tremaine.queries import wedding_ready_nb

HANDLES = (
    AB_TRAPS_HEROES_HERE,
    AB_GLASS_SLIPPER,
    AB_PLAY_GLASS_SLIPPERS,
    OBJECTIVE,
    AB_EXTRA_MOVE_OR_ACTIVATE,
    AB_RESHUFFLE_DISCARD_DRAW,
    AB_TRAP_HERO,
    AB_REFRESH_HAND,
    AB_RESHUFFLE_FATE_ARRANGE,
    AB_DEFEAT_NAMED_HERO,
    AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS,
    AB_UNTRAP_AND_MOVE,
    AB_MOVE_OPPONENT_ALLY,
    AB_UNLOCK_PLAY_NAMED,
    AB_MOVE_NAMED_HERE_TRAP,
    AB_FIND_NAMED_HERO_PLAY,
    AB_PEEK_FATE_DISCARD_ONE,
    AB_DISCARD_GLASS_SLIPPER,
    AB_MOVE_HERO_HERE_TRAP,
    AB_ACTIVATE_TO_WIN,
    AB_FETCH_ALLY_HERE,
    AB_DISCARD_ITEM_HERE,
)
# the engine's questions (engine.ASK_*) check_nb answers, and for which ongoing abilities
ASKED = {ASK_COVERS: (AB_GLASS_SLIPPER,)}


# the locals of Lady Tremaine's routines on the engine's card frames (after CARD_HERE on on_play_r's)
CARDS_TAKEN = CARD_LOCALS  # reshuffle_fate_arrange: how many cards were taken,
CARDS_PLACED = A4  # and how many are put back
HERO_FOUND = A4  # move_named_here_trap, find_named_hero_play: the Hero found
PEEKED0 = A2  # peek_fate_discard_one: the two cards looked at (activate_r's frame: its locals)
PEEKED1 = A3
HERO_PICKED = A2  # move_hero_here_trap: the Hero picked


@kernel
def fetch_slippers_nb(st, tb, s):
    """Find both Glass Slippers (Fate deck and discard) and play them to their locations."""
    for k in range(K.N_VCARDS, K.N_INST):
        c = st.inst[s, k, K.I_CARD]
        if (
            tb.card[c, K.CF_PASSIVE] == AB_GLASS_SLIPPER
            and st.inst[s, k, K.I_ZONE] != K.Z_REALM
            and st.inst[s, k, K.I_ZONE] != K.Z_LIMBO
        ):
            if st.inst[s, k, K.I_ZONE] == K.Z_FDECK:
                take_from_deck_nb(st, s, k)
                shuffle_fate_deck_nb(st, s)
            if can_enter_nb(st, tb, s, c, tb.card[c, K.CF_LOCATION]):
                put_in_realm_nb(st, s, k, tb.card[c, K.CF_LOCATION], -1)
                st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
                log_nb(st, K.EV_FATE_PLAY, s, k, tb.card[c, K.CF_LOCATION], -1, s)
            else:
                set_zone_nb(st, s, k, K.Z_FDISCARD)


@kernel
def trap_sweep_nb(st, tb, ru, s):
    """Under the continuous reading, every Hero sharing a location with Lucifer (traps_heroes_here) gets a Trapped
    token while tokens last."""
    if ru[R_TRAPS_HEROES_HERE_CONTINUOUS] == 0:
        return
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_TRAPS_HEROES_HERE:
            heroes = zone_bits_nb(st, s, K.Z_REALM)
            while heroes != 0:
                h = lowest_nb(heroes)
                heroes &= heroes - 1
                if st.inst[s, h, K.I_LOC] == st.inst[s, k, K.I_LOC] and trappable_nb(st, tb, s, h):
                    trap_nb(st, s, h)


@helper
def passive_played_nb(st, tb, ru, f):
    """Lucifer played, under the on-play reading (on ``passive_played_r``'s frame): a Hero at his location, picked
    by ``chooser``, gets a Trapped token."""
    s, k, chooser, pc, _, ab, _ = card_frame_nb(st, tb, f, K.CF_PASSIVE)
    if pc == START:
        if ru[R_TRAPS_HEROES_HERE_CONTINUOUS] != 0:
            return ret_nb(st, f)
        here = st.inst[s, k, K.I_LOC]
        opt_clear_nb(st)
        for h in range(K.N_INST):
            if st.inst[s, h, K.I_LOC] == here and trappable_nb(st, tb, s, h):
                opt_add_nb(st, K.O_CARD, h, s, 0)
        if st.g[K.G_NOPT] > 0:
            return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
        return ret_nb(st, f)
    trap_nb(st, s, chosen_nb(st, 1))
    return ret_nb(st, f)


@kernel
def key_target_nb(st, tb, s, h, where):
    """The Key's Activate can act on Hero ``h``: move it to ``where``, or Trap it there."""
    return hero_can_move_nb(st, tb, s, h, where) or (st.inst[s, h, K.I_LOC] == where and trappable_nb(st, tb, s, h))


@helper
def effect_nb(st, tb, ru, f):
    """Lady Tremaine's Effects and Conditions: resolve ``k`` in seat ``s``'s Realm (on ``resolve_effect_r``'s
    frame); ``chooser`` makes its choices."""
    s, k, chooser, pc, c, ab, n = card_frame_nb(st, tb, f, K.CF_EFFECT)
    if ab == AB_EXTRA_MOVE_OR_ACTIVATE:
        if pc == 0:
            st.g[K.G_ACTIONS] += 1
            can_move = 1 if any_move_nb(st, tb, s, 0) else 0
            can_activate = 1 if any_activate_nb(st, tb, ru, s, st.sv[s, K.SV_POWER]) else 0
            return call_nb(st, f, 1, RT_PICK_MODE, s, chooser, ab, K.M_MOVE, can_move, K.M_ACTIVATE, can_activate)
        mode = st.g[K.G_RET0]
        if mode == K.M_MOVE:
            return tail_nb(st, f, RT_CHOOSE_MOVE, s, ab, 0, 0, 0, 0, 0)
        if mode == K.M_ACTIVATE:
            return tail_nb(st, f, RT_CHOOSE_ACTIVATE, s, ab, 0, 0, 0, 0, 0)
        return ret_nb(st, f)
    if ab == AB_RESHUFFLE_DISCARD_DRAW:
        villain_discard_into_deck_nb(st, s)
        draw_n_nb(st, s, n)
        return ret_nb(st, f)
    if ab == AB_TRAP_HERO:
        if pc == 0:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                if trappable_nb(st, tb, s, h):
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        trap_nb(st, s, chosen_nb(st, 1))
        return ret_nb(st, f)
    if ab == AB_REFRESH_HAND:
        if pc == 0:
            return call_nb(st, f, 1, RT_DISCARD_PICKS, s, 0, ab, 0, 0, 0, 0)
        while hand_size_nb(st, s) < 4:
            if draw_nb(st, s) < 0:
                break
        return ret_nb(st, f)
    if ab == AB_RESHUFFLE_FATE_ARRANGE:
        # Take the top n and put them back one by one: the first chosen ends on top. st.mark holds the cards
        # taken (-1 once placed), st.tmp the order chosen.
        if pc == 0:
            fate_discard_into_deck_nb(st, s)
            got = 0
            for _ in range(n):
                if st.sv[s, K.SV_FDECK_N] == 0:
                    break
                top = st.fdeck[s, st.sv[s, K.SV_FDECK_N] - 1]
                st.sv[s, K.SV_FDECK_N] -= 1
                st.mark[got] = top
                got += 1
            st.fr[f, CARDS_TAKEN] = got
        else:
            j = chosen_nb(st, 3)
            st.tmp[st.fr[f, CARDS_PLACED]] = st.mark[j]
            st.mark[j] = -1
            st.fr[f, CARDS_PLACED] += 1
        got = st.fr[f, CARDS_TAKEN]
        if st.fr[f, CARDS_PLACED] < got:
            opt_clear_nb(st)
            for j in range(got):
                if st.mark[j] >= 0:
                    opt_add_nb(st, K.O_CARD, st.mark[j], s, j)
            return ask_nb(st, f, 1, s, chooser, K.DK_ARRANGE, ab)
        for placed in range(got - 1, -1, -1):
            put_on_fate_deck_nb(st, s, st.tmp[placed])
        return ret_nb(st, f)
    if ab == AB_DEFEAT_NAMED_HERO:
        if pc == 0:
            opt_clear_nb(st)
            h = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
            if h >= 0:
                opt_add_nb(st, K.O_CARD, h, s, 0)
            h = realm_instance_nb(st, s, tb.card[c, K.CF_REF1])
            if h >= 0:
                opt_add_nb(st, K.O_CARD, h, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        defeat_hero_nb(st, tb, ru, s, chosen_nb(st, 1), 0, chooser)
        return ret_nb(st, f)
    if ab == AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS:
        for h in range(K.N_INST):
            if st.inst[s, h, K.I_ZONE] == K.Z_REALM and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                defeat_hero_nb(st, tb, ru, s, h, 0, chooser)
        fetch_slippers_nb(st, tb, s)
        return ret_nb(st, f)
    if ab == AB_UNTRAP_AND_MOVE:
        if pc == 0:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                for dest in range(K.N_LOC):
                    if trapped_move_ok_nb(st, tb, s, h, dest):
                        opt_add_nb(st, K.O_MOVE, h, dest, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        h = chosen_nb(st, 1)
        dest = chosen_nb(st, 2)
        untrap_nb(st, s, h)
        return tail_nb(st, f, RT_MOVE_HERO, s, h, dest, chooser, 0, 0, 0)
    if ab == AB_MOVE_OPPONENT_ALLY:
        if pc == 0:
            opt_clear_nb(st)
            for j in range(K.N_VCARDS):
                for dest in range(K.N_LOC):
                    if ally_fate_move_ok_nb(st, tb, s, j, dest):
                        opt_add_nb(st, K.O_MOVE, j, dest, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
            return ret_nb(st, f)
        move_card_nb(st, tb, ru, s, chosen_nb(st, 1), chosen_nb(st, 2))
        return ret_nb(st, f)
    return ret_nb(st, f)  # a code this routine does not resolve (refused by the card data): nothing


@helper
def on_play_nb(st, tb, ru, f):
    """The "when played" abilities of Lady Tremaine's Heroes and Items (on ``on_play_r``'s frame)."""
    s, h, chooser, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ON_PLAY)
    if ab == AB_UNLOCK_PLAY_NAMED:
        where = tb.card[c, K.CF_LOCATION]
        if st.sv[s, K.SV_LOCK + where] != 0:
            st.sv[s, K.SV_LOCK + where] = 0
            log_nb(st, K.EV_UNLOCK, s, where, 0, 0, 0)
        if realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) < 0:
            p = find_nb(st, s, tb.card[c, K.CF_REF0], 0)
            if p >= 0:
                put_in_realm_nb(st, s, p, where, -1)
                st.inst[s, p, K.I_FLAGS] |= K.FLAG_PLAYED
                log_nb(st, K.EV_FATE_PLAY, s, p, where, -1, s)
        return ret_nb(st, f)
    if ab == AB_MOVE_NAMED_HERE_TRAP:
        # The Key: Cinderella is moved to Cinderella's Room and Trapped.
        k = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
        where = tb.card[c, K.CF_LOCATION]
        if pc == 0:
            if k >= 0 and st.inst[s, k, K.I_TRAPPED] == 0:
                if st.inst[s, k, K.I_LOC] != where and hero_can_move_nb(st, tb, s, k, where):
                    st.fr[f, HERO_FOUND] = k
                    return call_nb(st, f, 1, RT_MOVE_HERO, s, k, where, chooser, 0, 0, 0)
                if trappable_nb(st, tb, s, k):
                    trap_nb(st, s, k)
            return ret_nb(st, f)
        k = st.fr[f, HERO_FOUND]
        if trappable_nb(st, tb, s, k):
            trap_nb(st, s, k)
        return ret_nb(st, f)
    if ab == AB_FIND_NAMED_HERO_PLAY:
        # FIND Ball Gown Cinderella (Realm first) and play her: to Cinderella's location if Cinderella is in
        # play (she is discarded), otherwise to any unlocked location.
        bgc = tb.card[c, K.CF_REF0]
        if pc == 0:
            k = find_nb(st, s, bgc, 1)
            if k < 0:
                return ret_nb(st, f)
            st.fr[f, HERO_FOUND] = k
            old = realm_instance_nb(st, s, tb.card[bgc, K.CF_SWAP_FROM])
            if old < 0:
                return call_nb(st, f, 1, RT_PICK_LOCATION, chooser, s, bgc, -1, ab, 0, 0)
            dest = st.inst[s, old, K.I_LOC]
            discard_nb(st, s, old)
        else:
            dest = st.g[K.G_RET0]
        k = st.fr[f, HERO_FOUND]
        if dest >= 0:
            log_nb(st, K.EV_FATE_PLAY, s, k, dest, -1, chooser)
            return tail_nb(st, f, RT_PLACE_HERO, s, k, dest, chooser, 0, 0, 0)
        set_zone_nb(st, s, k, K.Z_FDISCARD)
        return ret_nb(st, f)
    return ret_nb(st, f)


@helper
def on_enter_nb(st, tb, ru, f):
    """Bruno's and Jaq's "when played or moved" abilities (CARD_HERE: their location)."""
    s, h, chooser, _, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ON_ENTER)
    if st.fr[f, K.FR_PC] == 1:
        discard_nb(st, s, chosen_nb(st, 1))
        return ret_nb(st, f)
    here = st.fr[f, CARD_HERE]
    if ab == AB_FETCH_ALLY_HERE:
        # Bruno: Lucifer comes to Bruno's location.
        k = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
        if (
            k >= 0
            and st.inst[s, k, K.I_LOC] != here
            and st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] == 0
            and can_enter_nb(st, tb, s, tb.card[c, K.CF_REF0], here)
        ):
            move_card_nb(st, tb, ru, s, k, here)
        return ret_nb(st, f)
    if ab == AB_DISCARD_ITEM_HERE:
        # Jaq: discard one of the villain's own Items at his location.
        opt_clear_nb(st)
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and st.inst[s, k, K.I_LOC] == here
                and st.inst[s, k, K.I_HOST] < 0
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ITEM
            ):
                opt_add_nb(st, K.O_CARD, k, s, 0)
        if st.g[K.G_NOPT] > 0:
            return ask_nb(st, f, 1, s, chooser, K.DK_CARD, ab)
    return ret_nb(st, f)


@helper
def activate_nb(st, tb, ru, f):
    """The Activated Abilities of Lady Tremaine's cards, paid for (on ``activate_r``'s frame)."""
    s, k, _, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_ACTIVATE)
    if ab == AB_PEEK_FATE_DISCARD_ONE:
        # Look at the top two Fate cards: discard one, the other goes back on top.
        if pc == 0:
            a = reveal_fate_nb(st, s)
            b = reveal_fate_nb(st, s)
            st.fr[f, PEEKED0] = a
            st.fr[f, PEEKED1] = b
            opt_clear_nb(st)
            if a >= 0:
                opt_add_nb(st, K.O_CARD, a, s, 0)
            if b >= 0:
                opt_add_nb(st, K.O_CARD, b, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, s, K.DK_CARD, ab)
            return ret_nb(st, f)
        a = st.fr[f, PEEKED0]
        b = st.fr[f, PEEKED1]
        gone = chosen_nb(st, 1)
        discard_nb(st, s, gone)
        keep = b if gone == a else a
        if keep >= 0:
            put_on_fate_deck_nb(st, s, keep)
        return ret_nb(st, f)
    if ab == AB_DISCARD_GLASS_SLIPPER:
        if pc == 0:
            opt_clear_nb(st)
            for j in range(K.N_VCARDS, K.N_INST):
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE] == AB_GLASS_SLIPPER
                ):
                    opt_add_nb(st, K.O_CARD, j, s, 0)
            return ask_nb(st, f, 1, s, s, K.DK_CARD, ab)
        discard_nb(st, s, chosen_nb(st, 1))
        return ret_nb(st, f)
    if ab == AB_MOVE_HERO_HERE_TRAP:
        where = tb.card[c, K.CF_LOCATION]
        if pc == 0:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                if key_target_nb(st, tb, s, h, where):
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            return ask_nb(st, f, 1, s, s, K.DK_CARD, ab)
        if pc == 1:
            h = chosen_nb(st, 1)
            st.fr[f, HERO_PICKED] = h
            if st.inst[s, h, K.I_LOC] != where:
                return call_nb(st, f, 2, RT_MOVE_HERO, s, h, where, s, 0, 0, 0)
        h = st.fr[f, HERO_PICKED]
        if trappable_nb(st, tb, s, h):
            trap_nb(st, s, h)
        return ret_nb(st, f)
    if ab == AB_ACTIVATE_TO_WIN:
        declare_win_nb(st, s)
    return ret_nb(st, f)


@kernel
def check_nb(st, tb, ru, slot, s, c, budget):
    """Lady Tremaine's answers to the engine's check table (``engine.CHECK_TABLE``; 1, 0 or NO_CHECK) for card row
    ``c`` of seat ``s``: her Items' Activates need a Fate card, a Glass Slipper, a Hero to move or trap, the wedding
    ready; her Effects need a move or an Activate (``budget``: the Power left), a Hero to trap or defeat, and her Fate
    Effects a Hero to free or an Ally to move; her objective is won by activating Wedding Bells, which holds when
    it could be activated."""
    if slot == ASK_COVERS:  # a Glass Slipper at location c covers its top row, in that reading
        if ru[R_GLASS_SLIPPERS_COVER] == 0:
            return 0
        m = zone_bits_nb(st, s, K.Z_REALM)
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if st.inst[s, k, K.I_LOC] == c and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == AB_GLASS_SLIPPER:
                return 1
        return 0
    if slot == ASK_PLAYED_INTO_LOCKED:  # the Prince, revealed while the Ballroom is locked
        return 1 if ru[R_PLAYED_WHEN_REVEALED_INTO_LOCKED] != 0 else 0
    if slot == RESOLVE_REALM_CHANGED:  # traps_heroes_here
        trap_sweep_nb(st, tb, ru, s)
        return 1
    if slot == RESOLVE_ON_DEFEAT:  # play_glass_slippers
        fetch_slippers_nb(st, tb, s)
        return 1
    if slot == CHECK_OBJECTIVE:
        if c != K.OBJECTIVE_MET:
            return 0
        m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if tb.card[st.inst[s, k, K.I_CARD], K.CF_ACTIVATE] == AB_ACTIVATE_TO_WIN:
                return 1 if wedding_ready_nb(st, tb, s, st.inst[s, k, K.I_CARD]) else 0
        return 0
    if slot == CHECK_ACTIVATE:
        ab = tb.card[c, K.CF_ACTIVATE]
        if ab == AB_PEEK_FATE_DISCARD_ONE:
            return 1 if st.sv[s, K.SV_FDECK_N] + zone_count_nb(st, s, K.Z_FDISCARD) > 0 else 0
        if ab == AB_DISCARD_GLASS_SLIPPER:
            return 1 if passive_count_nb(st, tb, s, AB_GLASS_SLIPPER) > 0 else 0
        if ab == AB_MOVE_HERO_HERE_TRAP:
            where = tb.card[c, K.CF_LOCATION]
            for h in range(K.N_INST):
                if st.inst[s, h, K.I_ZONE] == K.Z_REALM and key_target_nb(st, tb, s, h, where):
                    return 1
            return 0
        if ab == AB_ACTIVATE_TO_WIN:
            return 1 if wedding_ready_nb(st, tb, s, c) else 0
        return NO_CHECK
    if slot != CHECK_EFFECT:
        return NO_CHECK
    ab = tb.card[c, K.CF_EFFECT]
    if ab == AB_EXTRA_MOVE_OR_ACTIVATE:
        return 1 if any_move_nb(st, tb, s, 0) or any_activate_nb(st, tb, ru, s, budget) else 0
    if ab == AB_TRAP_HERO:
        return 1 if any_trappable_nb(st, tb, s) else 0
    if ab == AB_DEFEAT_NAMED_HERO:
        named = (
            realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0 or realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        )
        return 1 if named else 0
    if ab == AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS:
        return 1 if hero_count_nb(st, tb, s) > 0 else 0
    if ab == AB_UNTRAP_AND_MOVE or ab == AB_MOVE_OPPONENT_ALLY:
        # a Trapped Hero to free and move, or an Ally to move
        untrap = ab == AB_UNTRAP_AND_MOVE
        for k in range(K.N_INST):
            for dest in range(K.N_LOC):
                if trapped_move_ok_nb(st, tb, s, k, dest) if untrap else ally_fate_move_ok_nb(st, tb, s, k, dest):
                    return 1
        return 0
    return NO_CHECK


@kernel
def ability_r(st, tb, ru, f):
    """The routine of frame ``f`` for one of Lady Tremaine's ability codes (``HANDLES``), by the engine routine that
    reached it."""
    r = st.fr[f, K.FR_ROUTINE]
    if r == RT_RESOLVE_EFFECT:
        return effect_nb(st, tb, ru, f)
    if r == RT_ON_PLAY:
        return on_play_nb(st, tb, ru, f)
    if r == RT_ON_ENTER:
        return on_enter_nb(st, tb, ru, f)
    if r == RT_PASSIVE_PLAYED:
        return passive_played_nb(st, tb, ru, f)
    return activate_nb(st, tb, ru, f)  # RT_ACTIVATE
