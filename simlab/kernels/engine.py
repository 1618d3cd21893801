"""The rules: kernels that change a game state, and the routines that wait for players' decisions.

The engine never asks a strategy. :func:`advance_nb` plays on until a player must choose, leaves the
decision in the state (the legal options in ``st.opts``: ``O_*`` rows, a "pass/done" option first when
there is one; who decides and why in ``G_PEND_*``) and returns; whoever drives the game (the batch driver,
the scenario API, a search player) answers with :func:`apply_nb` and calls ``advance_nb`` again.
Names follow the game: ``s`` is the seat whose Realm is affected, ``chooser`` the seat deciding.
"""

from numba import types

from simlab.kernels import const as K
from simlab.kernels import link
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.jit import entry_kernel, helper, kernel
from simlab.kernels.query import (
    activation_cost_nb,
    available_symbols_nb,
    can_enter_nb,
    can_move_card_nb,
    can_remove_obstacle_nb,
    first_symbol_nb,
    granted_activates_nb,
    hero_can_move_nb,
    missing_at_nb,
    missing_total_nb,
    obstacles_total_nb,
    passive_count_nb,
    play_cost_nb,
    realm_instance_nb,
    strength_nb,
    symbol_kinds_nb,
    tile_allies_everywhere_nb,
    trappable_nb,
    vanquish_eligible_nb,
    vanquish_min_allies_nb,
    vanquish_possible_nb,
    zone_bits_nb,
    zone_count_nb,
    zone_instance_nb,
)
from simlab.kernels.ref import ref
from simlab.kernels.rng import seed_stream_nb, shuffle_nb
from simlab.kernels.state import set_zone_nb

# ============================================================================ log, options


@kernel
def log_nb(st, ev, seat, a, b, c, d):
    n = st.g[K.G_LOG_N]
    if n < st.log.shape[0]:
        st.log[n, 0] = ev
        st.log[n, 1] = seat
        st.log[n, 2] = a
        st.log[n, 3] = b
        st.log[n, 4] = c
        st.log[n, 5] = d
        st.g[K.G_LOG_N] = n + 1


@kernel
def opt_clear_nb(st):
    st.g[K.G_NOPT] = 0


@kernel
def opt_add_nb(st, code, a, b, c):
    n = st.g[K.G_NOPT]
    if n >= K.MAX_OPTS:
        raise IndexError("too many options for one decision")
    st.opts[n, 0] = code
    st.opts[n, 1] = a
    st.opts[n, 2] = b
    st.opts[n, 3] = c
    st.g[K.G_NOPT] = n + 1


@kernel
def gain_power_nb(st, s, amount):
    st.sv[s, K.SV_POWER] += amount
    log_nb(st, K.EV_GAIN, s, amount, st.sv[s, K.SV_POWER], 0, 0)


@kernel
def declare_win_nb(st, s):
    if st.g[K.G_WINNER] < 0:
        st.g[K.G_WINNER] = s
        st.g[K.G_END] = K.END_OBJECTIVE
        st.g[K.G_PHASE] = K.PH_OVER
        log_nb(st, K.EV_WIN, s, st.g[K.G_ROUND], 0, 0, 0)


@kernel
def over_nb(st):
    return st.g[K.G_PHASE] == K.PH_OVER


# ============================================================================ decks and piles


@kernel
def shuffle_villain_deck_nb(st, s):
    shuffle_nb(st.rng, st.vdeck[s], st.sv[s, K.SV_VDECK_N])


@kernel
def shuffle_fate_deck_nb(st, s):
    shuffle_nb(st.rng, st.fdeck[s], st.sv[s, K.SV_FDECK_N])


@kernel
def villain_discard_into_deck_nb(st, s):
    """Shuffle the Villain discard pile into the Villain deck (the whole deck is shuffled)."""
    n = st.sv[s, K.SV_VDECK_N]
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_VDISCARD:
            set_zone_nb(st, s, k, K.Z_VDECK)
            st.vdeck[s, n] = k
            n += 1
    st.sv[s, K.SV_VDECK_N] = n
    shuffle_villain_deck_nb(st, s)
    log_nb(st, K.EV_SHUFFLE, s, 0, n, 0, 0)


@kernel
def fate_discard_into_deck_nb(st, s):
    n = st.sv[s, K.SV_FDECK_N]
    for k in range(K.N_VCARDS, K.N_INST):
        if st.inst[s, k, K.I_ZONE] == K.Z_FDISCARD:
            set_zone_nb(st, s, k, K.Z_FDECK)
            st.fdeck[s, n] = k
            n += 1
    st.sv[s, K.SV_FDECK_N] = n
    shuffle_fate_deck_nb(st, s)
    log_nb(st, K.EV_SHUFFLE, s, 1, n, 0, 0)


@kernel
def draw_nb(st, s):
    """Draw one card (reshuffling the discard pile into an empty deck); -1 if there is none."""
    if st.sv[s, K.SV_VDECK_N] == 0:
        villain_discard_into_deck_nb(st, s)
        if st.sv[s, K.SV_VDECK_N] == 0:
            return -1
    n = st.sv[s, K.SV_VDECK_N] - 1
    k = st.vdeck[s, n]
    st.sv[s, K.SV_VDECK_N] = n
    set_zone_nb(st, s, k, K.Z_HAND)
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_DRAWN
    log_nb(st, K.EV_DRAW, s, k, 0, 0, 0)
    return k


@kernel
def draw_n_nb(st, s, n):
    for _ in range(n):
        if draw_nb(st, s) < 0:
            break


@kernel
def hand_size_nb(st, s):
    return zone_count_nb(st, s, K.Z_HAND)


@kernel
def reveal_fate_nb(st, s):
    """Take the top Fate card of seat ``s`` into limbo (reshuffling if needed); -1 if there is none."""
    if st.sv[s, K.SV_FDECK_N] == 0:
        fate_discard_into_deck_nb(st, s)
        if st.sv[s, K.SV_FDECK_N] == 0:
            return -1
    n = st.sv[s, K.SV_FDECK_N] - 1
    k = st.fdeck[s, n]
    st.sv[s, K.SV_FDECK_N] = n
    set_zone_nb(st, s, k, K.Z_LIMBO)
    log_nb(st, K.EV_REVEAL, s, k, 0, 0, 0)
    return k


@entry_kernel  # the scenario API builds positions with it
def take_from_deck_nb(st, s, k):
    """Remove instance ``k`` from whichever deck holds it (the rest keeps its order)."""
    if k < K.N_VCARDS:
        n = st.sv[s, K.SV_VDECK_N]
        j = 0
        for i in range(n):
            if st.vdeck[s, i] != k:
                st.vdeck[s, j] = st.vdeck[s, i]
                j += 1
        st.sv[s, K.SV_VDECK_N] = j
    else:
        n = st.sv[s, K.SV_FDECK_N]
        j = 0
        for i in range(n):
            if st.fdeck[s, i] != k:
                st.fdeck[s, j] = st.fdeck[s, i]
                j += 1
        st.sv[s, K.SV_FDECK_N] = j


@entry_kernel  # the scenario API builds positions with it
def put_on_fate_deck_nb(st, s, k):
    n = st.sv[s, K.SV_FDECK_N]
    st.fdeck[s, n] = k
    st.sv[s, K.SV_FDECK_N] = n + 1
    set_zone_nb(st, s, k, K.Z_FDECK)
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1


# ============================================================================ cards entering and leaving the Realm


@entry_kernel  # the scenario API builds positions with it
def put_in_realm_nb(st, s, k, loc, host):
    set_zone_nb(st, s, k, K.Z_REALM)
    st.inst[s, k, K.I_LOC] = loc
    st.inst[s, k, K.I_HOST] = host
    st.inst[s, k, K.I_TRAPPED] = 0


@kernel
def untrap_nb(st, s, k):
    if st.inst[s, k, K.I_TRAPPED] != 0:
        st.inst[s, k, K.I_TRAPPED] = 0
        st.sv[s, K.SV_TRAPS] += 1
        log_nb(st, K.EV_UNTRAP, s, k, 0, 0, 0)


@kernel
def leave_realm_nb(st, s, k, zone):
    """Send ``k`` to ``zone``; its attached Items are discarded and its Trapped token returns."""
    untrap_nb(st, s, k)
    set_zone_nb(st, s, k, zone)
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_HOST] == k:
            set_zone_nb(st, s, j, K.Z_FDISCARD if j >= K.N_VCARDS else K.Z_VDISCARD)
            st.inst[s, j, K.I_LOC] = -1
            st.inst[s, j, K.I_HOST] = -1
            log_nb(st, K.EV_DISCARD, s, j, 0, 0, 0)


@kernel
def discard_nb(st, s, k):
    """Discard ``k`` (from anywhere) to its own discard pile."""
    leave_realm_nb(st, s, k, K.Z_FDISCARD if k >= K.N_VCARDS else K.Z_VDISCARD)
    log_nb(st, K.EV_DISCARD, s, k, 0, 0, 0)


@kernel
def trap_nb(st, s, k):
    st.inst[s, k, K.I_TRAPPED] = 1
    st.sv[s, K.SV_TRAPS] -= 1
    log_nb(st, K.EV_TRAP, s, k, 0, 0, 0)


@kernel
def find_nb(st, s, card, search_realm):
    """FIND card row ``card`` in seat ``s``'s cards: the Realm (if ``search_realm``), its discard pile, its deck.

    A card found in the Realm is taken out of it (attached Items are discarded); one found in the
    deck is taken out and the deck reshuffled. Returns the instance, now in limbo, or -1.
    """
    fate = False
    for k in range(K.N_INST):
        if st.inst[s, k, K.I_CARD] == card:
            fate = k >= K.N_VCARDS
            break
    if search_realm:
        k = zone_instance_nb(st, s, card, K.Z_REALM)
        if k >= 0:
            leave_realm_nb(st, s, k, K.Z_LIMBO)
            return k
    k = zone_instance_nb(st, s, card, K.Z_FDISCARD if fate else K.Z_VDISCARD)
    if k >= 0:
        set_zone_nb(st, s, k, K.Z_LIMBO)
        return k
    k = zone_instance_nb(st, s, card, K.Z_FDECK if fate else K.Z_VDECK)
    if k >= 0:
        take_from_deck_nb(st, s, k)
        set_zone_nb(st, s, k, K.Z_LIMBO)
        if fate:
            shuffle_fate_deck_nb(st, s)
        else:
            shuffle_villain_deck_nb(st, s)
        return k
    return -1


@kernel
def trap_sweep_nb(st, tb, ru, s):
    """Under the continuous reading, every Hero sharing a location with a card that traps Heroes there (Lucifer) gets
    a Trapped token while tokens last."""
    if ru[K.R_TRAPS_HEROES_HERE_CONTINUOUS] == 0:
        return
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_TRAPS_HEROES_HERE:
            heroes = zone_bits_nb(st, s, K.Z_REALM)
            while heroes != 0:
                h = lowest_nb(heroes)
                heroes &= heroes - 1
                if st.inst[s, h, K.I_LOC] == st.inst[s, k, K.I_LOC] and trappable_nb(st, tb, s, h):
                    trap_nb(st, s, h)


@kernel
def move_card_nb(st, tb, ru, s, k, dest):
    """Move an Ally or Item (attached Items go along)."""
    src = st.inst[s, k, K.I_LOC]
    st.inst[s, k, K.I_LOC] = dest
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_HOST] == k:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, k, src, dest, 0)
    trap_sweep_nb(st, tb, ru, s)


# ============================================================================ Obstacles


@kernel
def remove_obstacle_at_nb(st, tb, ru, s, loc):
    st.sv[s, K.SV_OBST + loc] -= 1
    left = obstacles_total_nb(st, s)
    log_nb(st, K.EV_OBSTACLE_REMOVE, s, loc, left, 0, 0)
    if left == 0 and ru[K.R_OBSTACLE_WIN_AT_START_OF_TURN] == 0:
        declare_win_nb(st, s)


@kernel
def replace_obstacle_at_nb(st, s, loc):
    st.sv[s, K.SV_OBST + loc] += 1
    log_nb(
        st,
        K.EV_OBSTACLE_REPLACE,
        s,
        loc,
        st.sv[s, K.SV_OBST + 0] + st.sv[s, K.SV_OBST + 1] + st.sv[s, K.SV_OBST + 2] + st.sv[s, K.SV_OBST + 3],
        0,
        0,
    )


@kernel
def clear_obstacles_at_nb(st, tb, ru, s, loc):
    while st.sv[s, K.SV_OBST + loc] > 0 and can_remove_obstacle_nb(st, tb, s) and not over_nb(st):
        remove_obstacle_at_nb(st, tb, ru, s, loc)


# ============================================================================ Heroes


@kernel
def fetch_slippers_nb(st, tb, s):
    """Find both Glass Slippers (Fate deck and discard) and play them to their locations."""
    for k in range(K.N_VCARDS, K.N_INST):
        c = st.inst[s, k, K.I_CARD]
        if (
            tb.card[c, K.CF_PASSIVE] == K.AB_GLASS_SLIPPER
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
def claim_cauldron_nb(st, s):
    if st.sv[s, K.SV_CAULDRON] == 0:
        st.sv[s, K.SV_CAULDRON] = 1
        log_nb(st, K.EV_CAULDRON, s, 1, 0, 0, 0)


@kernel
def set_cauldron_nb(st, s, side):
    st.sv[s, K.SV_CAULDRON] = side
    log_nb(st, K.EV_CAULDRON, s, side, 0, 0, 0)


@kernel
def defeat_hero_nb(st, tb, ru, s, h, by_vanquish, chooser):
    """Defeat Hero ``h``: it goes to the Fate discard pile, then its "when defeated" ability resolves."""
    c = st.inst[s, h, K.I_CARD]
    ignored = st.inst[s, h, K.I_TRAPPED] != 0
    log_nb(st, K.EV_DEFEAT, s, h, 0, 0, 0)
    if by_vanquish and not ignored and tb.card[c, K.CF_PASSIVE] == K.AB_RETURNS_TO_FATE_DECK:
        leave_realm_nb(st, s, h, K.Z_LIMBO)
        if st.sv[s, K.SV_FDECK_N] == 0:
            fate_discard_into_deck_nb(st, s)
        put_on_fate_deck_nb(st, s, h)
        shuffle_fate_deck_nb(st, s)
    else:
        discard_nb(st, s, h)
    if ignored:
        return
    ab = tb.card[c, K.CF_ON_DEFEAT]
    if ab == K.AB_CLEAR_OBSTACLES_AT:
        clear_obstacles_at_nb(st, tb, ru, s, tb.card[c, K.CF_LOCATION])
    elif ab == K.AB_PLAY_GLASS_SLIPPERS:
        fetch_slippers_nb(st, tb, s)
    elif ab == K.AB_CLAIM_CAULDRON:
        claim_cauldron_nb(st, s)


# ============================================================================ Fate cards


@kernel
def hero_placements_nb(st, tb, s, k, tag):
    """Add (O_FATE_PLAY, tag, loc, -1) for each location Hero ``k`` may be played to; return how many."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_EXCLUSIVE] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_EXCLUSIVE]) >= 0:
        return 0
    if realm_instance_nb(st, s, c) >= 0:
        return 0
    n = 0
    if tb.card[c, K.CF_SWAP_FROM] >= 0:
        base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
        if base >= 0:
            opt_add_nb(st, K.O_FATE_PLAY, tag, st.inst[s, base, K.I_LOC], -1)
            n += 1
        return n
    for loc in range(K.N_LOC):
        if can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_FATE_PLAY, tag, loc, -1)
            n += 1
    return n


@kernel
def effect_doable_nb(st, tb, ru, s, c, budget):
    """Effect or Condition ``c`` (a Villain or a Fate card) can do what it says in seat ``s``'s Realm now;
    ``budget`` is the Power left after paying it. The villain whose cards print the ability checks it (its
    ``check_nb``, through the check table), but for the core's own code, a Hero played from the Fate discard pile."""
    ab = tb.card[c, K.CF_EFFECT]
    if ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
        # Probe with the option list, then give it back as it was: the caller may be building it.
        n0 = st.g[K.G_NOPT]
        found = False
        for k in range(K.N_VCARDS, K.N_INST):
            if st.inst[s, k, K.I_ZONE] == K.Z_FDISCARD and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                if hero_placements_nb(st, tb, s, k, k) > 0:
                    found = True
                    break
        st.g[K.G_NOPT] = n0
        return found
    return _check(ab, st, tb, ru, CHECK_EFFECT, s, c, budget) != 0  # NO_CHECK: it can


@kernel
def fate_placements_nb(st, tb, ru, s, k):
    """Add the ways revealed Fate card ``k`` can be played into seat ``s``'s Realm; return how many."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if tb.card[c, K.CF_BLOCKED] != 0:
        return 0
    if t == K.T_HERO:
        return hero_placements_nb(st, tb, s, k, k)
    if t == K.T_ITEM:
        n = 0
        if tb.card[c, K.CF_ATTACH] == K.A_HERO:
            for h in range(K.N_INST):
                if (
                    st.inst[s, h, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO
                    and can_enter_nb(st, tb, s, c, st.inst[s, h, K.I_LOC])
                ):
                    opt_add_nb(st, K.O_FATE_PLAY, k, st.inst[s, h, K.I_LOC], h)
                    n += 1
        elif tb.card[c, K.CF_LOCATION] >= 0:
            if can_enter_nb(st, tb, s, c, tb.card[c, K.CF_LOCATION]):
                opt_add_nb(st, K.O_FATE_PLAY, k, tb.card[c, K.CF_LOCATION], -1)
                n += 1
        return n
    if t == K.T_EFFECT:
        if effect_doable_nb(st, tb, ru, s, c, 0):
            opt_add_nb(st, K.O_FATE_PLAY, k, -1, -1)
            return 1
    return 0


@kernel
def discard_revealed_nb(st, s, k):
    if k >= 0 and st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)


@kernel
def played_when_revealed_nb(tb, c):
    """Card ``c`` is played at once to the location it names when revealed (the Prince card type; an ablated one
    is discarded)."""
    return tb.card[c, K.CF_TYPE] == K.T_PRINCE and tb.card[c, K.CF_BLOCKED] == 0


# ============================================================================ Vanquish


@kernel
def vanquish_ally_strength_nb(st, tb, ru, s, k, loc):
    """Strength instance ``k`` brings to a Vanquish at ``loc``, or -1 if it cannot join one."""
    if not vanquish_eligible_nb(st, tb, s, k, loc):
        return -1
    v = strength_nb(st, tb, s, k)
    if v == 0 and ru[K.R_ZERO_STRENGTH_NO_VANQUISH] != 0:
        return -1
    return v


@kernel
def can_vanquish_rules_nb(st, tb, ru, s, h):
    """Hero ``h`` can be defeated by a Vanquish with the Allies in the Realm, under the rule variants."""
    return vanquish_possible_nb(st, tb, s, h, ru[K.R_ZERO_STRENGTH_NO_VANQUISH] == 0)


@kernel
def add_vanquish_options_nb(st, tb, ru, s):
    """Add (O_VANQUISH, h) for every Hero seat ``s`` can vanquish now."""
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        if can_vanquish_rules_nb(st, tb, ru, s, h):
            opt_add_nb(st, K.O_VANQUISH, h, 0, 0)


# ============================================================================ moving, activating


@kernel
def add_move_options_nb(st, tb, s):
    """Add (O_MOVE, k, dest) for every move of an Ally or Item a Move an Item or Ally action can make."""
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, 0):
                opt_add_nb(st, K.O_MOVE, k, dest, 0)


@kernel
def add_activate_options_nb(st, tb, ru, s):
    """Add (O_ACTIVATE, k) for every card seat ``s`` can activate now (k = -1: the Black Cauldron)."""
    budget = st.sv[s, K.SV_POWER]
    if can_activate_nb(st, tb, ru, s, -1, budget):
        opt_add_nb(st, K.O_ACTIVATE, -1, 0, 0)
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if can_activate_nb(st, tb, ru, s, k, budget):
            opt_add_nb(st, K.O_ACTIVATE, k, 0, 0)


@kernel
def can_activate_nb(st, tb, ru, s, k, budget):
    """Card ``k`` (-1: the villain's claimed tile, its villain's check) can be activated now with ``budget`` Power."""
    if k < 0:
        tile = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TILE]
        return (
            tile != 0 and st.sv[s, K.SV_CAULDRON] != 0 and _check(tile, st, tb, ru, CHECK_ACTIVATE, s, -1, budget) == 1
        )
    if st.inst[s, k, K.I_ZONE] != K.Z_REALM or st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] != 0:
        return False
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    if ab == K.AB_NONE or budget < activation_cost_nb(tb, ru, c):
        return False
    return _check(ab, st, tb, ru, CHECK_ACTIVATE, s, c, budget) == 1  # NO_CHECK: it cannot


@kernel
def any_activate_nb(st, tb, ru, s, budget):
    if can_activate_nb(st, tb, ru, s, -1, budget):
        return True
    for k in range(K.N_VCARDS):
        if can_activate_nb(st, tb, ru, s, k, budget):
            return True
    return False


# ============================================================================ Villain cards


@kernel
def add_card_placements_nb(st, tb, ru, s, k):
    """Add (O_PLAY, k, loc, host) for each way seat ``s`` may play Ally or Item ``k`` (cost aside)."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    n = 0
    if tb.card[c, K.CF_EXCLUSIVE] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_EXCLUSIVE]) >= 0:
        return 0
    if t == K.T_ALLY:
        if tb.card[c, K.CF_PASSIVE] == K.AB_TILE_ALLY:
            if ru[K.R_TILE_ALLY_PLAY_CARD] == 0 or st.sv[s, K.SV_CAULDRON] != 2:
                return 0
        if tb.card[c, K.CF_SWAP_FROM] >= 0:
            base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
            if base >= 0 and st.sv[s, K.SV_LOCK + st.inst[s, base, K.I_LOC]] == 0:
                opt_add_nb(st, K.O_PLAY, k, st.inst[s, base, K.I_LOC], base)
                n += 1
            return n
        for loc in range(K.N_LOC):
            if can_enter_nb(st, tb, s, c, loc):
                opt_add_nb(st, K.O_PLAY, k, loc, -1)
                n += 1
    elif t == K.T_ITEM:
        if tb.card[c, K.CF_ATTACH] == K.A_ALLY or tb.card[c, K.CF_ATTACH] == K.A_HERO:
            want = K.T_ALLY if tb.card[c, K.CF_ATTACH] == K.A_ALLY else K.T_HERO
            for j in range(K.N_INST):
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == want
                    and can_enter_nb(st, tb, s, c, st.inst[s, j, K.I_LOC])
                ):
                    opt_add_nb(st, K.O_PLAY, k, st.inst[s, j, K.I_LOC], j)
                    n += 1
        else:
            for loc in range(K.N_LOC):
                if not can_enter_nb(st, tb, s, c, loc):
                    continue
                if tb.card[c, K.CF_PASSIVE] == K.AB_GRANTS_ACTIVATE and granting_items_blocked_nb(st, tb, s, loc):
                    continue
                opt_add_nb(st, K.O_PLAY, k, loc, -1)
                n += 1
    return n


@kernel
def granting_items_blocked_nb(st, tb, s, loc):
    for h in range(K.N_INST):
        if (
            st.inst[s, h, K.I_ZONE] == K.Z_REALM
            and st.inst[s, h, K.I_LOC] == loc
            and st.inst[s, h, K.I_TRAPPED] == 0
            and tb.card[st.inst[s, h, K.I_CARD], K.CF_PASSIVE] == K.AB_BLOCKS_GRANTING_ITEMS_HERE
        ):
            return True
    return False


@kernel
def add_play_options_nb(st, tb, ru, s):
    """Add every card play seat ``s`` can make with a Play a Card action (one per distinct card)."""
    power = st.sv[s, K.SV_POWER]
    no_effects = passive_count_nb(st, tb, s, K.AB_NO_EFFECTS) > 0
    hand = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    m = hand
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        dup = False
        earlier = hand & ((1 << k) - 1)
        while earlier != 0:
            j = lowest_nb(earlier)
            earlier &= earlier - 1
            if st.inst[s, j, K.I_CARD] == c:
                dup = True
                break
        if dup:
            continue
        t = tb.card[c, K.CF_TYPE]
        cost = play_cost_nb(st, tb, s, c)
        if cost > power or t == K.T_CONDITION or tb.card[c, K.CF_BLOCKED] != 0:
            continue
        if t == K.T_EFFECT:
            if not no_effects and effect_doable_nb(st, tb, ru, s, c, power - cost):
                opt_add_nb(st, K.O_PLAY, k, -1, -1)
        else:
            add_card_placements_nb(st, tb, ru, s, k)


@kernel
def reveal_until_ally_nb(st, tb, s):
    """Intimidating: reveal from the deck until an Ally (to hand); the rest is discarded.

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


# ============================================================================ Conditions


# ============================================================================ the turn


@helper
def add_action_options_nb(st, tb, ru, s):
    """Fill ``st.opts`` with the actions available now (O_PASS = end the actions first)."""
    opt_clear_nb(st)
    opt_add_nb(st, K.O_PASS, 0, 0, 0)
    loc = st.sv[s, K.SV_MOVER]
    v = st.sv[s, K.SV_VILLAIN]
    # adding options changes nothing these read: the available symbols are looked up once
    available = available_symbols_nb(st, tb, ru, s, loc)
    m = available
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if tb.syms[v, loc, j, K.SY_KIND] == K.S_GAIN:
            opt_add_nb(st, K.O_GAIN, j, tb.syms[v, loc, j, K.SY_VAL], 0)
    kinds = symbol_kinds_nb(tb, v, loc, available)
    if (kinds >> K.S_PLAY) & 1:
        add_play_options_nb(st, tb, ru, s)
    if (kinds >> K.S_ACTIVATE) & 1 or granted_activates_nb(st, tb, s) > 0:
        add_activate_options_nb(st, tb, ru, s)
    if (kinds >> K.S_MOVE) & 1:
        add_move_options_nb(st, tb, s)
    if (kinds >> K.S_FATE) & 1:
        P = st.g[K.G_NSEATS]
        for d in range(1, P):
            opt_add_nb(st, K.O_FATE, (s + d) % P, 0, 0)
    if (kinds >> K.S_VANQUISH) & 1:
        add_vanquish_options_nb(st, tb, ru, s)
    if (kinds >> K.S_DISCARD) & 1 and hand_size_nb(st, s) > 0:
        opt_add_nb(st, K.O_DISCARD, 0, 0, 0)


@kernel
def use_symbol_nb(st, tb, ru, s, kind):
    j = first_symbol_nb(st, tb, ru, s, kind)
    if j >= 0:
        st.g[K.G_USED] |= 1 << j
    elif kind == K.S_ACTIVATE:
        st.g[K.G_AS_USED] += 1


@kernel
def check_objectives_nb(st, tb, ru):
    """Objectives checked between steps (the Horned King's; Gaston's in the start-of-turn variant is in step)."""
    for s in range(st.g[K.G_NSEATS]):
        if over_nb(st):
            return
        if tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE] == K.OBJ_CAULDRON and st.sv[s, K.SV_CAULDRON] > 0:
            if tile_allies_everywhere_nb(st, tb, s):
                declare_win_nb(st, s)


# ============================================================================ routines: rules that wait for decisions
#
# A rule that needs a player's choice is a routine: it runs from a frame of ``st.fr`` (its arguments and
# locals in FR_A.., the point to resume at in FR_PC) and returns to :func:`advance_nb` whenever it needs a
# decision (``ask_nb``: the options are in ``st.opts``) or a sub-routine (``call_nb``). The driver answers
# the decision with :func:`apply_nb` and calls ``advance_nb`` again, which re-enters the routine on top of
# the stack at its saved point, the chosen index in ``G_CHOICE``. Everything a game is lives in the state's
# arrays, so a state copied at any decision continues exactly as the original would.

A0 = K.FR_A
A1 = K.FR_A + 1
A2 = K.FR_A + 2
A3 = K.FR_A + 3
A4 = K.FR_A + 4
A5 = K.FR_A + 5
A6 = K.FR_A + 6
A7 = K.FR_A + 7
A8 = K.FR_A + 8
A9 = K.FR_A + 9
A10 = K.FR_A + 10
A11 = K.FR_A + 11

GO = 0  # the routine on top of the stack can run on
WAIT = 1  # a decision waits for a player

RT_STEP = 1
RT_TAKE_ACTION = 2
RT_AFTER_ACTION = 3
RT_CONDITION_WINDOW = 4
RT_REMOVE_OBSTACLES = 5
RT_REPLACE_OBSTACLES = 6
RT_PICK_LOCATION = 7
RT_PICK_HERO_TO_MOVE = 8
RT_PICK_MODE = 9
RT_ON_ENTER = 10
RT_MOVE_HERO = 11
RT_PLACE_HERO = 12
RT_ON_PLAY = 13
RT_PLAY_HERO = 14
RT_PLAY_FATE_CARD = 15
RT_PLAY_REVEALED = 16
RT_FATE_ACTION = 17
RT_VANQUISH = 18
RT_CHOOSE_VANQUISH = 19
RT_CHOOSE_MOVE = 20
RT_ACTIVATE = 21
RT_CHOOSE_ACTIVATE = 22
RT_PLAY_ITEM = 23
RT_PLAY_VILLAIN_CARD = 24
RT_DISCARD_PICKS = 25
RT_RESOLVE_EFFECT = 26
RT_TILE = 27  # a villain's tile (A0 seat, A1 the phase): its villain's routine, reached through the ability table

# fate_action_r's resume points a card that takes the Fate action over uses (see fate_action_r)
FA_PICK = 1  # pick one of the revealed cards A2, A3
FA_END = 8  # the Obstacle removals owed, then done
PC_TAKEN_OVER = 16  # from here on, the card's villain's routine resolves it on the Fate action's frame


@kernel
def push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6):
    d = st.g[K.G_SP]
    if d >= K.MAX_DEPTH:
        raise IndexError("routine stack overflow")
    st.fr[d, K.FR_ROUTINE] = routine
    st.fr[d, K.FR_PC] = 0
    st.fr[d, A0] = a0
    st.fr[d, A1] = a1
    st.fr[d, A2] = a2
    st.fr[d, A3] = a3
    st.fr[d, A4] = a4
    st.fr[d, A5] = a5
    st.fr[d, A6] = a6
    for j in range(A7, K.N_FR):
        st.fr[d, j] = 0
    st.g[K.G_SP] = d + 1


@kernel
def call_nb(st, f, pc, routine, a0, a1, a2, a3, a4, a5, a6):
    """Run ``routine`` now; the routine of frame ``f`` resumes at ``pc`` when it is done."""
    st.fr[f, K.FR_PC] = pc
    push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6)
    return GO


@kernel
def tail_nb(st, f, routine, a0, a1, a2, a3, a4, a5, a6):
    """Finish the routine of frame ``f`` by running ``routine`` in its place."""
    st.g[K.G_SP] = f
    push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6)
    return GO


@kernel
def ret_nb(st, f):
    """Finish the routine of frame ``f``."""
    st.g[K.G_SP] = f
    return GO


@kernel
def ask_nb(st, f, pc, realm, player, kind, ctx):
    """``player`` picks one of ``st.opts`` (about seat ``realm``'s Realm); frame ``f`` resumes at ``pc``.

    A forced choice (one option, or none) asks nobody: option 0 is taken at once.
    """
    st.fr[f, K.FR_PC] = pc
    n = st.g[K.G_NOPT]
    if n <= 1:
        st.g[K.G_CHOICE] = 0
        return GO
    st.g[K.G_PEND_N] = n
    st.g[K.G_PEND_KIND] = kind
    st.g[K.G_PEND_PLAYER] = player
    st.g[K.G_PEND_CTX] = ctx
    st.g[K.G_PEND_REALM] = realm
    st.g[K.G_ASK] = 1
    return WAIT


@entry_kernel
def apply_nb(st, i):
    """Answer the waiting decision with option ``i`` (checked by the caller); ``advance_nb`` carries on."""
    st.g[K.G_ASK] = 0
    st.g[K.G_CHOICE] = i
    st.g[K.G_DECISIONS] += 1
    log_nb(st, K.EV_CHOICE, st.g[K.G_PEND_PLAYER], st.g[K.G_PEND_KIND], i, st.g[K.G_PEND_N], st.g[K.G_PEND_CTX])


@kernel
def chosen_nb(st, col):
    """Column ``col`` of the option chosen for the last decision."""
    return st.opts[st.g[K.G_CHOICE], col]


# ---------------------------------------------------------------------------- ability routines

# The ability codes printed by one villain's cards are resolved by that villain's routine
# (simlab/villains/<folder>/abilities.py: ability_r, compiled on its own), reached through a table of
# routines indexed by ability code and filled from the registry when the driver is imported
# (simlab.villains.bind_abilities): adding a villain adds entries, not code here, so this module's cache stays
# valid. A villain routine runs on the frame of the engine routine that reached it (resolve_effect_r,
# on_play_r, on_enter_r, activate_r), as the branches it holds did when they were written here.
ABILITY_TABLE = "simlab_ability_routines"
N_ABILITY_CODES = 128  # ability codes are below this
ROUTINE_TYPES = link.ENGINE_REF_TYPES + (types.int64,)  # (ref(st), ref(tb), ru, frame): every routine's arguments
ADVANCE_REF_TYPES = link.ENGINE_REF_TYPES + (types.int64,)  # (ref(st), ref(tb), ru, steps): advance_by_ref_nb
ABILITY_TYPES = ROUTINE_TYPES
_ability_r = link.table_caller(ABILITY_TABLE, N_ABILITY_CODES, ABILITY_TYPES, types.int64)

# Whether an ability printed by one villain's cards can do what it says (before an Effect or Condition is offered,
# before an Activated Ability is) is that villain's too: ``check_nb`` in its abilities.py, compiled on its own and
# reached through a second table indexed by ability code, filled with the first. It answers 1 (it can), 0 (it
# cannot) or NO_CHECK (its text leaves nothing to check: an Effect can be played, an Activated Ability cannot).
CHECK_TABLE = "simlab_ability_checks"
# (ref(st), ref(tb), ru, slot, seat, card row, budget): the Power left after paying the card
CHECK_TYPES = link.ENGINE_REF_TYPES + (types.int64, types.int64, types.int64, types.int64)
CHECK_EFFECT = 0  # an Effect or Condition, of a Villain or a Fate deck
CHECK_ACTIVATE = 1  # an Activated Ability in the Realm, at an unlocked location, its cost affordable
CHECK_TAKES_OVER_FATE_ACTION = 2  # a Fate Effect picked in a Fate action: 1 if it resolves the Fate action itself
NO_CHECK = -1
_check = link.table_caller(CHECK_TABLE, N_ABILITY_CODES, CHECK_TYPES, types.int64)


@kernel
def card_frame_nb(st, tb, f, col):
    """What a routine resolving card instance A1 of seat A0 (choices by A2) reads first: (seat, instance,
    chooser, resume point, card row, the card's code in column ``col``, the card's number)."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    c = st.inst[s, k, K.I_CARD]
    return s, k, st.fr[f, A2], st.fr[f, K.FR_PC], c, tb.card[c, col], tb.card[c, K.CF_N]


@kernel
def no_ability_r(st, tb, ru, f):
    """The table's entry for a code no villain's routine handles (or the core resolves elsewhere): nothing."""
    return ret_nb(st, f)


@kernel
def no_check_nb(st, tb, ru, slot, s, c, budget):
    """The check table's entry for a code no villain checks: NO_CHECK."""
    return NO_CHECK


# ---------------------------------------------------------------------------- Obstacles


@kernel
def remove_obstacles_r(st, tb, ru, f):
    """Remove up to ``n`` Obstacles of seat ``s``, one at a time, each from a location ``chooser`` picks."""
    s = st.fr[f, A0]
    n = st.fr[f, A1]
    chooser = st.fr[f, A2]
    ctx = st.fr[f, A3]
    if st.fr[f, K.FR_PC] == 1:
        remove_obstacle_at_nb(st, tb, ru, s, chosen_nb(st, 1))
        st.fr[f, A4] += 1
    if st.fr[f, A4] >= n or not can_remove_obstacle_nb(st, tb, s) or over_nb(st):
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if st.sv[s, K.SV_OBST + loc] > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ctx)


@kernel
def replace_obstacles_r(st, tb, ru, f):
    """Replace up to ``n`` Obstacles of seat ``s``, each where ``chooser`` picks."""
    s = st.fr[f, A0]
    n = st.fr[f, A1]
    chooser = st.fr[f, A2]
    ctx = st.fr[f, A3]
    if st.fr[f, K.FR_PC] == 1:
        replace_obstacle_at_nb(st, s, chosen_nb(st, 1))
        st.fr[f, A4] += 1
    if st.fr[f, A4] >= n or missing_total_nb(st, tb, s) == 0:
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if missing_at_nb(st, tb, s, loc) > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ctx)


# ---------------------------------------------------------------------------- small choices


@kernel
def pick_location_r(st, tb, ru, f):
    """``chooser`` picks a location of seat ``s`` that card row ``c`` may enter (not ``exclude``).

    Returns (G_RET0) the location, -1 if there is none."""
    chooser = st.fr[f, A0]
    s = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    c = st.fr[f, A2]
    exclude = st.fr[f, A3]
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if loc != exclude and can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, st.fr[f, A4])


@kernel
def pick_hero_to_move_r(st, tb, ru, f):
    """``chooser`` picks (Hero, destination) among Heroes a card may move.

    Returns (G_RET0, G_RET1) the Hero and its destination, -1, -1 if none or declined."""
    chooser = st.fr[f, A0]
    s = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        if chosen_nb(st, 0) == K.O_PASS:
            st.g[K.G_RET0] = -1
            st.g[K.G_RET1] = -1
        else:
            st.g[K.G_RET0] = chosen_nb(st, 1)
            st.g[K.G_RET1] = chosen_nb(st, 2)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, A2]:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for h in range(K.N_INST):
        for dest in range(K.N_LOC):
            if hero_can_move_nb(st, tb, s, h, dest):
                opt_add_nb(st, K.O_MOVE, h, dest, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        st.g[K.G_RET1] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, chooser, K.DK_CARD, st.fr[f, A3])


@kernel
def pick_mode_r(st, tb, ru, f):
    """``chooser`` picks mode m0 (if ok0) or m1 (if ok1): G_RET0, -1 if neither is allowed."""
    if st.fr[f, K.FR_PC] == 1:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, A4]:
        opt_add_nb(st, K.O_MODE, st.fr[f, A3], 0, 0)
    if st.fr[f, A6]:
        opt_add_nb(st, K.O_MODE, st.fr[f, A5], 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, st.fr[f, A0], st.fr[f, A1], K.DK_MODE, st.fr[f, A2])


@kernel
def discard_picks_r(st, tb, ru, f):
    """Seat ``s`` discards cards from hand one at a time until it says done (``at_least_one``: not before one)."""
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        if chosen_nb(st, 0) == K.O_PASS:
            return ret_nb(st, f)
        discard_nb(st, s, chosen_nb(st, 1))
        st.fr[f, A3] = 1  # no longer the first
    opt_clear_nb(st)
    if not (st.fr[f, A3] == 0 and st.fr[f, A1] != 0):
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
            opt_add_nb(st, K.O_CARD, k, s, 0)
    if st.g[K.G_NOPT] == 0:
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, s, K.DK_DISCARD, st.fr[f, A2])


# ---------------------------------------------------------------------------- Heroes


@kernel
def on_enter_r(st, tb, ru, f):
    """A Hero's "when played or moved" ability (seat ``s``, Hero ``h``; ``chooser`` makes its choices): the routine of
    the villain whose cards print it. Locals: A3 the Hero's location, A4.. per ability."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_ENTER]
    if st.fr[f, K.FR_PC] == 0:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0 or st.inst[s, h, K.I_ZONE] != K.Z_REALM:
            return ret_nb(st, f)
        st.fr[f, A3] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)


@kernel
def move_hero_r(st, tb, ru, f):
    """Move Hero ``h`` of seat ``s`` to ``dest`` (attached Items go along), then its "when moved" ability."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    dest = st.fr[f, A2]
    src = st.inst[s, h, K.I_LOC]
    st.inst[s, h, K.I_LOC] = dest
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == h and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, h, src, dest, 0)
    return call_nb(st, f, 1, RT_ON_ENTER, s, h, st.fr[f, A3], 0, 0, 0, 0)


@kernel
def place_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc`` without its "when played" ability (Heroes played by other Heroes)."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    put_in_realm_nb(st, s, h, st.fr[f, A2], -1)
    st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
    return call_nb(st, f, 1, RT_ON_ENTER, s, h, st.fr[f, A3], 0, 0, 0, 0)


@kernel
def play_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc``: its "when played" ability, its "when played or moved" one, then Lucifer."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    chooser = st.fr[f, A3]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        put_in_realm_nb(st, s, h, st.fr[f, A2], -1)
        st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
        return call_nb(st, f, 1, RT_ON_PLAY, s, h, chooser, 0, 0, 0, 0)
    if pc == 1:
        return call_nb(st, f, 2, RT_ON_ENTER, s, h, chooser, 0, 0, 0, 0)
    trap_sweep_nb(st, tb, ru, s)
    return ret_nb(st, f)


@kernel
def on_play_r(st, tb, ru, f):
    """A Hero's or Item's "when played" ability (seat ``s``, card ``h``); ``chooser`` makes its choices.

    Locals: A3 ``here``, A4.. per ability.
    """
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_PLAY]
    if st.fr[f, K.FR_PC] == 0:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0:
            return ret_nb(st, f)
        st.fr[f, A3] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)


# ---------------------------------------------------------------------------- Fate cards


@kernel
def play_fate_card_r(st, tb, ru, f):
    """Play revealed Fate card ``k`` into seat ``s``'s Realm at ``loc``/``host``; ``actor`` (the Fating player)
    makes its choices."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        # after an Effect
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)
        return ret_nb(st, f)
    loc = st.fr[f, A2]
    host = st.fr[f, A3]
    actor = st.fr[f, A4]
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_FATE_PLAY, s, k, loc, host, actor)
    if t == K.T_HERO:
        if tb.card[c, K.CF_SWAP_FROM] >= 0:
            base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
            loc = st.inst[s, base, K.I_LOC]
            discard_nb(st, s, base)
        return tail_nb(st, f, RT_PLAY_HERO, s, k, loc, actor, 0, 0, 0)
    if t == K.T_ITEM:
        put_in_realm_nb(st, s, k, st.inst[s, host, K.I_LOC] if host >= 0 else loc, host)
        st.g[K.G_TRIGGERS] |= K.TRIG_ITEM
        st.g[K.G_ITEM_ACTOR] = actor
        return ret_nb(st, f)
    if t == K.T_EFFECT:
        return call_nb(st, f, 1, RT_RESOLVE_EFFECT, s, k, actor, 0, 0, 0, 0)
    return ret_nb(st, f)


@kernel
def play_revealed_r(st, tb, ru, f):
    """Play revealed card ``k`` of seat ``s`` if it can be played (``actor`` picks where), else discard it."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    actor = st.fr[f, A2]
    if st.fr[f, K.FR_PC] == 1:
        return tail_nb(st, f, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0)
    opt_clear_nb(st)
    if fate_placements_nb(st, tb, ru, s, k) == 0:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, actor, K.DK_PLACE, k)


@kernel
def fate_action_r(st, tb, ru, f):
    """Fate action by ``actor`` against seat ``s``: reveal two, play one, discard the other.

    Locals: A2 r0, A3 r1 (the revealed cards), A4 Obstacle removals owed at the end, A5 1 until the target has had
    its chance to take over the choice, A6 the player picking, A7 the card picked, A8 the other card, A9 the
    removals done, A10 the ability they are owed to (the decisions' context), A11 for a card that takes over.

    A Fate card whose villain's check says it takes the Fate action over (CHECK_TAKES_OVER_FATE_ACTION: The Rose,
    Gurgi's Happy Day) is, once picked, resolved by that villain's routine on this frame, from FR_PC =
    PC_TAKEN_OVER on (as ability_r runs on the engine routines' frames): it plays or discards the other card (A8)
    and itself (A7), and hands the Fate action back at FA_PICK (pick from A2, A3, revealed anew) or FA_END,
    having added to A4 (with A10) any Obstacle removals owed at the end.
    """
    actor = st.fr[f, A0]
    s = st.fr[f, A1]
    pc = st.fr[f, K.FR_PC]
    if pc >= PC_TAKEN_OVER:
        return _ability_r(tb.card[st.inst[s, st.fr[f, A7], K.I_CARD], K.CF_EFFECT], st, tb, ru, f)
    if pc == 0:
        log_nb(st, K.EV_FATE, actor, s, 0, 0, 0)
        st.fr[f, A2] = reveal_fate_nb(st, s)
        st.fr[f, A3] = reveal_fate_nb(st, s)
        st.fr[f, A5] = 1
        pc = 1
    if pc == 2:
        # the target answered Vicious Practical Jokes' window
        if chosen_nb(st, 0) == K.O_CARD:
            vpj = chosen_nb(st, 1)
            st.inst[s, vpj, K.I_FLAGS] |= K.FLAG_PLAYED
            log_nb(st, K.EV_CONDITION, s, vpj, 0, 0, 0)
            discard_nb(st, s, vpj)
            st.fr[f, A6] = s
        pc = 3
    if pc == 4:
        # the picker chose a card (and where), or to pass
        r0 = st.fr[f, A2]
        r1 = st.fr[f, A3]
        if chosen_nb(st, 0) == K.O_PASS:
            discard_revealed_nb(st, s, r0)
            discard_revealed_nb(st, s, r1)
            pc = 8
        else:
            k = chosen_nb(st, 1)
            other = r1 if k == r0 else r0
            st.fr[f, A7] = k
            st.fr[f, A8] = other
            c = st.inst[s, k, K.I_CARD]
            ab = tb.card[c, K.CF_EFFECT]
            if (
                tb.card[c, K.CF_TYPE] == K.T_EFFECT
                and _check(ab, st, tb, ru, CHECK_TAKES_OVER_FATE_ACTION, s, c, 0) == 1
            ):
                st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
                log_nb(st, K.EV_FATE_PLAY, s, k, -1, -1, actor)
                st.fr[f, K.FR_PC] = PC_TAKEN_OVER
                return _ability_r(ab, st, tb, ru, f)
            if ru[K.R_OTHER_REVEALED_AFTER] == 0:
                discard_revealed_nb(st, s, other)
                return call_nb(st, f, 8, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0)
            else:
                return call_nb(st, f, 9, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0)
    if pc == 9:
        # the chosen card resolved; the other one goes to the discard pile now (other_revealed_card variant)
        discard_revealed_nb(st, s, st.fr[f, A8])
        pc = 8
    if pc == 1:
        r0 = st.fr[f, A2]
        r1 = st.fr[f, A3]
        if (r0 < 0 and r1 < 0) or over_nb(st):
            pc = 8
        else:
            # A card played when revealed (the Prince) goes at once to its location; the other card is discarded.
            at_once = -1
            if r0 >= 0 and played_when_revealed_nb(tb, st.inst[s, r0, K.I_CARD]):
                at_once = r0
            elif r1 >= 0 and played_when_revealed_nb(tb, st.inst[s, r1, K.I_CARD]):
                at_once = r1
            if at_once >= 0:
                where = tb.card[st.inst[s, at_once, K.I_CARD], K.CF_LOCATION]
                if st.sv[s, K.SV_LOCK + where] == 0 or ru[K.R_PLAYED_WHEN_REVEALED_INTO_LOCKED] != 0:
                    put_in_realm_nb(st, s, at_once, where, -1)
                    st.inst[s, at_once, K.I_FLAGS] |= K.FLAG_PLAYED
                    log_nb(st, K.EV_FATE_PLAY, s, at_once, where, -1, actor)
                else:
                    discard_revealed_nb(st, s, at_once)
                discard_revealed_nb(st, s, r1 if at_once == r0 else r0)
                pc = 8
            else:
                st.fr[f, A6] = actor
                pc = 3
                if st.fr[f, A5] != 0:
                    st.fr[f, A5] = 0
                    # Vicious Practical Jokes: the target may take over the choice of card and location.
                    opt_clear_nb(st)
                    opt_add_nb(st, K.O_PASS, 0, 0, 0)
                    for k in range(K.N_VCARDS):
                        if (
                            st.inst[s, k, K.I_ZONE] == K.Z_HAND
                            and tb.card[st.inst[s, k, K.I_CARD], K.CF_CONDITION] == K.C_FATED
                            and tb.card[st.inst[s, k, K.I_CARD], K.CF_BLOCKED] == 0
                        ):
                            opt_add_nb(st, K.O_CARD, k, s, 0)
                            break
                    if st.g[K.G_NOPT] > 1:
                        return ask_nb(st, f, 2, s, s, K.DK_CONDITION, K.C_FATED)
    if pc == 3:
        r0 = st.fr[f, A2]
        r1 = st.fr[f, A3]
        picker = st.fr[f, A6]
        opt_clear_nb(st)
        if picker == s:
            opt_add_nb(st, K.O_PASS, 0, 0, 0)
        n = 0
        if r0 >= 0:
            n += fate_placements_nb(st, tb, ru, s, r0)
        if r1 >= 0:
            n += fate_placements_nb(st, tb, ru, s, r1)
        if n == 0:
            discard_revealed_nb(st, s, r0)
            discard_revealed_nb(st, s, r1)
            pc = 8
        else:
            return ask_nb(st, f, 4, s, picker, K.DK_FATE_PICK, actor)
    # pc 8 (FA_END): the Obstacle removals owed, one at a time
    if st.fr[f, A9] < st.fr[f, A4]:
        st.fr[f, A9] += 1
        return call_nb(st, f, FA_END, RT_REMOVE_OBSTACLES, s, 1, actor, st.fr[f, A10], 0, 0, 0)
    return ret_nb(st, f)


# ---------------------------------------------------------------------------- Vanquish, Move, Activate


@kernel
def vanquish_r(st, tb, ru, f):
    """Vanquish Hero ``h`` of seat ``s`` with Allies its owner picks one by one (done once they suffice).

    Locals: A2 Strength needed, A3 Allies needed, A4 Strength so far, A5 Allies so far; ``st.tmp`` holds each
    eligible Ally's Strength (-1: not eligible) and ``st.mark`` the Allies picked.
    """
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        here = st.inst[s, h, K.I_LOC]
        st.fr[f, A2] = strength_nb(st, tb, s, h)
        st.fr[f, A3] = vanquish_min_allies_nb(st, tb, s, h)
        for k in range(K.N_INST):
            st.mark[k] = 0
            st.tmp[k] = vanquish_ally_strength_nb(st, tb, ru, s, k, here)
    elif pc == 1:
        if chosen_nb(st, 0) == K.O_PASS:
            return vanquish_done_r(st, tb, ru, f)
        k = chosen_nb(st, 1)
        st.mark[k] = 1
        st.fr[f, A4] += st.tmp[k]
        st.fr[f, A5] += 1
    opt_clear_nb(st)
    if st.fr[f, A4] >= st.fr[f, A2] and st.fr[f, A5] >= st.fr[f, A3]:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for k in range(K.N_INST):
        if st.tmp[k] >= 0 and st.mark[k] == 0:
            opt_add_nb(st, K.O_CARD, k, s, 0)
    if st.g[K.G_NOPT] == 0:
        return vanquish_done_r(st, tb, ru, f)
    return ask_nb(st, f, 1, s, s, K.DK_VANQUISH_ALLY, h)


@kernel
def vanquish_done_r(st, tb, ru, f):
    """The Allies are chosen: they leave (or go back to hand where a card returns them, LeFou), the Hero is
    defeated."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    here = st.inst[s, h, K.I_LOC]
    log_nb(st, K.EV_VANQUISH, s, h, st.fr[f, A5], st.fr[f, A2], 0)
    returns_allies = False
    for k in range(K.N_VCARDS):
        if (
            st.inst[s, k, K.I_ZONE] == K.Z_REALM
            and st.inst[s, k, K.I_LOC] == here
            and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_VANQUISH_HERE_RETURNS_ALLIES
        ):
            returns_allies = True
    mover = st.sv[s, K.SV_MOVER]
    for k in range(K.N_VCARDS):
        if st.mark[k] == 0:
            continue
        p = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
        if p == K.AB_TILE_ALLY:
            continue
        if p == K.AB_MOVES_TO_VILLAIN_AFTER_VANQUISH:
            if st.inst[s, k, K.I_LOC] != mover:
                move_card_nb(st, tb, ru, s, k, mover)
        elif returns_allies:
            leave_realm_nb(st, s, k, K.Z_HAND)
            log_nb(st, K.EV_TO_HAND, s, k, 0, 0, 0)
        else:
            discard_nb(st, s, k)
    defeat_hero_nb(st, tb, ru, s, h, 1, s)
    st.g[K.G_TRIGGERS] |= K.TRIG_VANQUISH
    return ret_nb(st, f)


@kernel
def choose_vanquish_r(st, tb, ru, f):
    """Perform a Vanquish action (the Hero chosen by seat ``s``)."""
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        return tail_nb(st, f, RT_VANQUISH, s, chosen_nb(st, 1), 0, 0, 0, 0, 0)
    opt_clear_nb(st)
    add_vanquish_options_nb(st, tb, ru, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, 1, s, s, K.DK_CARD, st.fr[f, A1])
    return ret_nb(st, f)


@kernel
def choose_move_r(st, tb, ru, f):
    """Perform a Move an Item or Ally action."""
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        move_card_nb(st, tb, ru, s, chosen_nb(st, 1), chosen_nb(st, 2))
        return ret_nb(st, f)
    opt_clear_nb(st)
    add_move_options_nb(st, tb, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, 1, s, s, K.DK_CARD, st.fr[f, A1])
    return ret_nb(st, f)


@kernel
def activate_r(st, tb, ru, f):
    """Pay and resolve card ``k``'s Activated Ability (-1: the villain's tile, its villain's routine pays). Locals:
    A2, A3 per ability."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        if k < 0:
            return _ability_r(tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TILE], st, tb, ru, f)  # the tile's villain's
        cost = activation_cost_nb(tb, ru, st.inst[s, k, K.I_CARD])
        st.sv[s, K.SV_POWER] -= cost
        log_nb(st, K.EV_ACTIVATE, s, k, cost, 0, 0)
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    return _ability_r(ab, st, tb, ru, f)


@kernel
def choose_activate_r(st, tb, ru, f):
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        return tail_nb(st, f, RT_ACTIVATE, s, chosen_nb(st, 1), 0, 0, 0, 0, 0)
    opt_clear_nb(st)
    add_activate_options_nb(st, tb, ru, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, 1, s, s, K.DK_CARD, st.fr[f, A1])
    return ret_nb(st, f)


# ---------------------------------------------------------------------------- Villain cards


@kernel
def play_item_r(st, tb, ru, f):
    """Play Item ``k`` from seat ``s``'s hand to ``loc`` or attached to ``host`` (paying unless ``free``)."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    free = st.fr[f, A4]
    if st.fr[f, K.FR_PC] == 1:
        if free == 0:
            st.g[K.G_TRIGGERS] |= K.TRIG_ITEM
            st.g[K.G_ITEM_ACTOR] = s
        return ret_nb(st, f)
    loc = st.fr[f, A2]
    host = st.fr[f, A3]
    c = st.inst[s, k, K.I_CARD]
    cost = 0 if free != 0 else play_cost_nb(st, tb, s, c)
    st.sv[s, K.SV_POWER] -= cost
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_PLAY, s, k, loc, host, cost)
    put_in_realm_nb(st, s, k, st.inst[s, host, K.I_LOC] if host >= 0 else loc, host)
    return call_nb(st, f, 1, RT_ON_PLAY, s, k, s, 0, 0, 0, 0)


@kernel
def play_villain_card_r(st, tb, ru, f):
    """Play card ``k`` from seat ``s``'s hand with a Play a Card action, paying its cost."""
    s = st.fr[f, A0]
    k = st.fr[f, A1]
    pc = st.fr[f, K.FR_PC]
    if pc == 1:
        # Lucifer (on-play reading) traps the Hero picked
        trap_nb(st, s, chosen_nb(st, 1))
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    if pc == 2:
        # after an Effect
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)
        return ret_nb(st, f)
    loc = st.fr[f, A2]
    host = st.fr[f, A3]
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_ITEM:
        return tail_nb(st, f, RT_PLAY_ITEM, s, k, loc, host, 0, 0, 0)
    cost = play_cost_nb(st, tb, s, c)
    st.sv[s, K.SV_POWER] -= cost
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_PLAY, s, k, loc, host, cost)
    if t == K.T_ALLY:
        if tb.card[c, K.CF_SWAP_FROM] >= 0:
            base = host
            loc = st.inst[s, base, K.I_LOC]
            discard_nb(st, s, base)
        put_in_realm_nb(st, s, k, loc, -1)
        if tb.card[c, K.CF_PASSIVE] == K.AB_TRAPS_HEROES_HERE and ru[K.R_TRAPS_HEROES_HERE_CONTINUOUS] == 0:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                if st.inst[s, h, K.I_LOC] == loc and trappable_nb(st, tb, s, h):
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, s, K.DK_CARD, K.AB_TRAPS_HEROES_HERE)
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    set_zone_nb(st, s, k, K.Z_LIMBO)
    return call_nb(st, f, 2, RT_RESOLVE_EFFECT, s, k, s, 0, 0, 0, 0)


# ---------------------------------------------------------------------------- Effects and Conditions


@kernel
def resolve_effect_r(st, tb, ru, f):
    """Resolve the Effect or Condition ``k`` in seat ``s``'s Realm; ``chooser`` makes its choices.

    Locals A3.. per ability.
    """
    s, k, chooser, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_EFFECT)
    if ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
        if pc == 0:
            opt_clear_nb(st)
            for h in range(K.N_VCARDS, K.N_INST):
                if st.inst[s, h, K.I_ZONE] == K.Z_FDISCARD and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                    hero_placements_nb(st, tb, s, h, h)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, 1, s, chooser, K.DK_FATE_PICK, ab)
            return ret_nb(st, f)
        h = chosen_nb(st, 1)
        loc = chosen_nb(st, 2)
        set_zone_nb(st, s, h, K.Z_LIMBO)
        log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
        return tail_nb(st, f, RT_PLAY_HERO, s, h, loc, chooser, 0, 0, 0)
    return _ability_r(ab, st, tb, ru, f)  # the card's villain's routine (simlab/villains/<folder>/abilities.py)


@kernel
def condition_window_r(st, tb, ru, f):
    """Each opponent of ``actor``, in turn order, may play Conditions that ``trigger`` allows.

    Locals: A2 the opponent's offset from ``actor``, A3 the Condition being resolved.
    """
    trigger = st.fr[f, A0]
    actor = st.fr[f, A1]
    P = st.g[K.G_NSEATS]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        st.fr[f, A2] = 1
    elif pc == 1:
        o = (actor + st.fr[f, A2]) % P
        if chosen_nb(st, 0) == K.O_PASS:
            st.fr[f, A2] += 1
        else:
            k = chosen_nb(st, 1)
            st.inst[o, k, K.I_FLAGS] |= K.FLAG_PLAYED
            set_zone_nb(st, o, k, K.Z_LIMBO)
            log_nb(st, K.EV_CONDITION, o, k, 0, 0, 0)
            st.fr[f, A3] = k
            return call_nb(st, f, 2, RT_RESOLVE_EFFECT, o, k, o, 0, 0, 0, 0)
    elif pc == 2:
        o = (actor + st.fr[f, A2]) % P
        k = st.fr[f, A3]
        if st.inst[o, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, o, k)
    while st.fr[f, A2] < P:
        o = (actor + st.fr[f, A2]) % P
        if over_nb(st):
            st.fr[f, A2] += 1
            continue
        opt_clear_nb(st)
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
        for k in range(K.N_VCARDS):
            c = st.inst[o, k, K.I_CARD]
            if (
                st.inst[o, k, K.I_ZONE] != K.Z_HAND
                or tb.card[c, K.CF_CONDITION] != trigger
                or tb.card[c, K.CF_BLOCKED] != 0
            ):
                continue
            dup = False
            for j in range(1, st.g[K.G_NOPT]):
                if st.inst[o, st.opts[j, 1], K.I_CARD] == c:
                    dup = True
            if not dup and effect_doable_nb(st, tb, ru, o, c, st.sv[o, K.SV_POWER]):
                opt_add_nb(st, K.O_CARD, k, o, 0)
        if st.g[K.G_NOPT] == 1:
            st.fr[f, A2] += 1
            continue
        return ask_nb(st, f, 1, o, o, K.DK_CONDITION, trigger)
    return ret_nb(st, f)


# ============================================================================ the turn


@kernel
def take_action_r(st, tb, ru, f):
    """Perform the action chosen (code, a, b, c): its symbol is used up first."""
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        # after a Discard action
        st.g[K.G_TRIGGERS] |= K.TRIG_DISCARD
        return ret_nb(st, f)
    code = st.fr[f, A1]
    a = st.fr[f, A2]
    b = st.fr[f, A3]
    c = st.fr[f, A4]
    st.g[K.G_ACTIONS] += 1
    if code == K.O_GAIN:
        st.g[K.G_USED] |= 1 << a
        gain_power_nb(st, s, b)
    elif code == K.O_PLAY:
        use_symbol_nb(st, tb, ru, s, K.S_PLAY)
        return tail_nb(st, f, RT_PLAY_VILLAIN_CARD, s, a, b, c, 0, 0, 0)
    elif code == K.O_ACTIVATE:
        use_symbol_nb(st, tb, ru, s, K.S_ACTIVATE)
        return tail_nb(st, f, RT_ACTIVATE, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_MOVE:
        use_symbol_nb(st, tb, ru, s, K.S_MOVE)
        move_card_nb(st, tb, ru, s, a, b)
    elif code == K.O_FATE:
        use_symbol_nb(st, tb, ru, s, K.S_FATE)
        return tail_nb(st, f, RT_FATE_ACTION, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_VANQUISH:
        use_symbol_nb(st, tb, ru, s, K.S_VANQUISH)
        return tail_nb(st, f, RT_VANQUISH, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_DISCARD:
        use_symbol_nb(st, tb, ru, s, K.S_DISCARD)
        return call_nb(st, f, 1, RT_DISCARD_PICKS, s, 1, 0, 0, 0, 0, 0)
    return ret_nb(st, f)


@kernel
def after_action_r(st, tb, ru, f):
    """Open the Condition windows raised by the action just taken (A1: the triggers it raised)."""
    s = st.fr[f, A0]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        st.fr[f, A1] = st.g[K.G_TRIGGERS]
        st.g[K.G_TRIGGERS] = 0
    trig = st.fr[f, A1]
    if pc < 1 and trig & K.TRIG_VANQUISH:
        return call_nb(st, f, 1, RT_CONDITION_WINDOW, K.C_OPPONENT_VANQUISH_ACTION, s, 0, 0, 0, 0, 0)
    if pc < 2 and trig & K.TRIG_DISCARD:
        return call_nb(st, f, 2, RT_CONDITION_WINDOW, K.C_OPPONENT_DISCARD_ACTION, s, 0, 0, 0, 0, 0)
    if pc < 3 and trig & K.TRIG_ITEM:
        return call_nb(st, f, 3, RT_CONDITION_WINDOW, K.C_OPPONENT_PLAYS_ITEM, st.g[K.G_ITEM_ACTOR], 0, 0, 0, 0, 0)
    if pc < 4 and st.g[K.G_ACTIONS] >= 4 and (ru[K.R_FOUR_ACTIONS_ONCE] == 0 or st.g[K.G_FOUR_OPENED] == 0):
        st.g[K.G_FOUR_OPENED] = 1
        return tail_nb(st, f, RT_CONDITION_WINDOW, K.C_OPPONENT_FOUR_ACTIONS, s, 0, 0, 0, 0, 0)
    return ret_nb(st, f)


@kernel
def step_r(st, tb, ru, f):
    """One step of the game: a phase of the turn, or one action (with its Condition windows)."""
    s = st.g[K.G_ACTIVE]
    ph = st.g[K.G_PHASE]
    pc = st.fr[f, K.FR_PC]
    if ph == K.PH_START:
        if pc == 0:
            st.sv[s, K.SV_TURNS] += 1
            st.g[K.G_ACTIONS] = 0
            st.g[K.G_USED] = 0
            st.g[K.G_AS_USED] = 0
            st.g[K.G_TRIGGERS] = 0
            st.g[K.G_FOUR_OPENED] = 0
            st.sv[s, K.SV_SWAP_USED] = 0
            log_nb(st, K.EV_TURN, s, st.g[K.G_ROUND], st.sv[s, K.SV_POWER], st.sv[s, K.SV_MOVER], 0)
            v = st.sv[s, K.SV_VILLAIN]
            if (
                tb.vil[v, K.VF_OBJECTIVE] == K.OBJ_OBSTACLES
                and ru[K.R_OBSTACLE_WIN_AT_START_OF_TURN] != 0
                and obstacles_total_nb(st, s) == 0
            ):
                declare_win_nb(st, s)
                return ret_nb(st, f)
            if st.sv[s, K.SV_CAULDRON] != 0 and tb.vil[v, K.VF_TILE] != 0:
                # a claimed tile's start-of-turn rule (its villain's routine)
                return call_nb(st, f, 1, RT_TILE, s, K.PH_START, 0, 0, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_BEFORE_MOVE
    elif ph == K.PH_BEFORE_MOVE:
        if pc == 0 and st.sv[s, K.SV_CAULDRON] != 0 and tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TILE] != 0:
            # a claimed tile's rule before the move (its villain's routine)
            return call_nb(st, f, 1, RT_TILE, s, K.PH_BEFORE_MOVE, 0, 0, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_MOVE
    elif ph == K.PH_MOVE:
        if pc == 0:
            opt_clear_nb(st)
            here = st.sv[s, K.SV_MOVER]
            for loc in range(K.N_LOC):
                if loc != here and st.sv[s, K.SV_LOCK + loc] == 0:
                    opt_add_nb(st, K.O_LOC, loc, 0, 0)
            return ask_nb(st, f, 1, s, s, K.DK_MOVE, 0)
        dest = chosen_nb(st, 1)
        st.sv[s, K.SV_MOVER] = dest
        log_nb(st, K.EV_MOVE_MOVER, s, dest, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_ACTIONS
    elif ph == K.PH_ACTIONS:
        if pc == 0:
            add_action_options_nb(st, tb, ru, s)
            return ask_nb(st, f, 1, s, s, K.DK_ACTION, 0)
        if pc == 1:
            code = chosen_nb(st, 0)
            if code == K.O_PASS:
                st.g[K.G_PHASE] = K.PH_END
            else:
                return call_nb(
                    st, f, 2, RT_TAKE_ACTION, s, code, chosen_nb(st, 1), chosen_nb(st, 2), chosen_nb(st, 3), 0, 0
                )
        elif pc == 2:
            if not over_nb(st):
                return call_nb(st, f, 3, RT_AFTER_ACTION, s, 0, 0, 0, 0, 0, 0)
    elif ph == K.PH_END:
        while hand_size_nb(st, s) < 4:
            if draw_nb(st, s) < 0:
                break
        log_nb(st, K.EV_END_TURN, s, st.sv[s, K.SV_POWER], 0, 0, 0)
        nxt = (s + 1) % st.g[K.G_NSEATS]
        st.g[K.G_ACTIVE] = nxt
        st.g[K.G_PHASE] = K.PH_START
        if nxt == 0:
            st.g[K.G_ROUND] += 1
            if st.g[K.G_ROUND] > ru[K.R_MAX_TURNS]:
                st.g[K.G_PHASE] = K.PH_OVER
                st.g[K.G_END] = K.END_TURN_CAP
                log_nb(st, K.EV_TURN_CAP, -1, ru[K.R_MAX_TURNS], 0, 0, 0)
    if not over_nb(st):
        check_objectives_nb(st, tb, ru)
    st.g[K.G_STEPS] += 1
    return ret_nb(st, f)


# ============================================================================ driving the rules


# Each routine is compiled once, on its own, and called through a process-wide symbol (simlab.kernels.link):
# linked in, the code of every routine would be optimised and generated again inside advance_nb, which inlines
# the dispatcher run_routine_nb (measured when the dispatcher was still its own kernel: advance_nb compiled in
# 202 s CPU and 1.36 GB linked in; bound, 117 s and 0.66 GB).
# bind_routines() must run before advance_nb is compiled or loaded from the cache; the
# driver does it when imported. _NAME_r is the symbol call of NAME_r.
ROUTINES = (
    step_r,
    take_action_r,
    after_action_r,
    condition_window_r,
    remove_obstacles_r,
    replace_obstacles_r,
    pick_location_r,
    pick_hero_to_move_r,
    pick_mode_r,
    on_enter_r,
    move_hero_r,
    place_hero_r,
    on_play_r,
    play_hero_r,
    play_fate_card_r,
    play_revealed_r,
    fate_action_r,
    vanquish_r,
    choose_vanquish_r,
    choose_move_r,
    activate_r,
    choose_activate_r,
    play_item_r,
    play_villain_card_r,
    discard_picks_r,
    resolve_effect_r,
)
_step_r = link.caller(step_r, ROUTINE_TYPES, types.int64)
_take_action_r = link.caller(take_action_r, ROUTINE_TYPES, types.int64)
_after_action_r = link.caller(after_action_r, ROUTINE_TYPES, types.int64)
_condition_window_r = link.caller(condition_window_r, ROUTINE_TYPES, types.int64)
_remove_obstacles_r = link.caller(remove_obstacles_r, ROUTINE_TYPES, types.int64)
_replace_obstacles_r = link.caller(replace_obstacles_r, ROUTINE_TYPES, types.int64)
_pick_location_r = link.caller(pick_location_r, ROUTINE_TYPES, types.int64)
_pick_hero_to_move_r = link.caller(pick_hero_to_move_r, ROUTINE_TYPES, types.int64)
_pick_mode_r = link.caller(pick_mode_r, ROUTINE_TYPES, types.int64)
_on_enter_r = link.caller(on_enter_r, ROUTINE_TYPES, types.int64)
_move_hero_r = link.caller(move_hero_r, ROUTINE_TYPES, types.int64)
_place_hero_r = link.caller(place_hero_r, ROUTINE_TYPES, types.int64)
_on_play_r = link.caller(on_play_r, ROUTINE_TYPES, types.int64)
_play_hero_r = link.caller(play_hero_r, ROUTINE_TYPES, types.int64)
_play_fate_card_r = link.caller(play_fate_card_r, ROUTINE_TYPES, types.int64)
_play_revealed_r = link.caller(play_revealed_r, ROUTINE_TYPES, types.int64)
_fate_action_r = link.caller(fate_action_r, ROUTINE_TYPES, types.int64)
_vanquish_r = link.caller(vanquish_r, ROUTINE_TYPES, types.int64)
_choose_vanquish_r = link.caller(choose_vanquish_r, ROUTINE_TYPES, types.int64)
_choose_move_r = link.caller(choose_move_r, ROUTINE_TYPES, types.int64)
_activate_r = link.caller(activate_r, ROUTINE_TYPES, types.int64)
_choose_activate_r = link.caller(choose_activate_r, ROUTINE_TYPES, types.int64)
_play_item_r = link.caller(play_item_r, ROUTINE_TYPES, types.int64)
_play_villain_card_r = link.caller(play_villain_card_r, ROUTINE_TYPES, types.int64)
_discard_picks_r = link.caller(discard_picks_r, ROUTINE_TYPES, types.int64)
_resolve_effect_r = link.caller(resolve_effect_r, ROUTINE_TYPES, types.int64)


# Inlined into advance_nb: a bound call passes State and Tables unpacked (about 150 machine words), and one hop
# per routine run is enough (perf: the dispatcher alone took about a tenth of an expert game's kernel time).
@helper
def run_routine_nb(st, tb, ru, f):
    """Run the routine of frame ``f`` until it waits (WAIT), calls, or finishes (GO)."""
    r = st.fr[f, K.FR_ROUTINE]
    if r == RT_STEP:
        return _step_r(st, tb, ru, f)
    if r == RT_TAKE_ACTION:
        return _take_action_r(st, tb, ru, f)
    if r == RT_AFTER_ACTION:
        return _after_action_r(st, tb, ru, f)
    if r == RT_CONDITION_WINDOW:
        return _condition_window_r(st, tb, ru, f)
    if r == RT_REMOVE_OBSTACLES:
        return _remove_obstacles_r(st, tb, ru, f)
    if r == RT_REPLACE_OBSTACLES:
        return _replace_obstacles_r(st, tb, ru, f)
    if r == RT_PICK_LOCATION:
        return _pick_location_r(st, tb, ru, f)
    if r == RT_PICK_HERO_TO_MOVE:
        return _pick_hero_to_move_r(st, tb, ru, f)
    if r == RT_PICK_MODE:
        return _pick_mode_r(st, tb, ru, f)
    if r == RT_ON_ENTER:
        return _on_enter_r(st, tb, ru, f)
    if r == RT_MOVE_HERO:
        return _move_hero_r(st, tb, ru, f)
    if r == RT_PLACE_HERO:
        return _place_hero_r(st, tb, ru, f)
    if r == RT_ON_PLAY:
        return _on_play_r(st, tb, ru, f)
    if r == RT_PLAY_HERO:
        return _play_hero_r(st, tb, ru, f)
    if r == RT_PLAY_FATE_CARD:
        return _play_fate_card_r(st, tb, ru, f)
    if r == RT_PLAY_REVEALED:
        return _play_revealed_r(st, tb, ru, f)
    if r == RT_FATE_ACTION:
        return _fate_action_r(st, tb, ru, f)
    if r == RT_VANQUISH:
        return _vanquish_r(st, tb, ru, f)
    if r == RT_CHOOSE_VANQUISH:
        return _choose_vanquish_r(st, tb, ru, f)
    if r == RT_CHOOSE_MOVE:
        return _choose_move_r(st, tb, ru, f)
    if r == RT_ACTIVATE:
        return _activate_r(st, tb, ru, f)
    if r == RT_CHOOSE_ACTIVATE:
        return _choose_activate_r(st, tb, ru, f)
    if r == RT_PLAY_ITEM:
        return _play_item_r(st, tb, ru, f)
    if r == RT_PLAY_VILLAIN_CARD:
        return _play_villain_card_r(st, tb, ru, f)
    if r == RT_DISCARD_PICKS:
        return _discard_picks_r(st, tb, ru, f)
    if r == RT_RESOLVE_EFFECT:
        return _resolve_effect_r(st, tb, ru, f)
    if r == RT_TILE:
        return _ability_r(tb.vil[st.sv[st.fr[f, A0], K.SV_VILLAIN], K.VF_TILE], st, tb, ru, f)
    raise IndexError("unknown routine")


def bind_routines() -> None:
    """Compile (or load from the cache) every routine and the dispatcher, and register their symbols, once
    per process, before anything that calls them is compiled or loaded."""
    for routine in ROUTINES:
        link.bind(routine, ROUTINE_TYPES)


@entry_kernel
def advance_nb(st, tb, ru, steps):
    """Play on until a decision waits for a player (True: its options are in ``st.opts[:G_PEND_N]``, the
    deciding seat in ``G_PEND_PLAYER``; answer it with :func:`apply_nb`), or ``steps`` more steps are
    done, or the game is over (False)."""
    # the routines get State and Tables as one pointer each (simlab/kernels/ref.py), valid in this frame
    return _advance_by_ref(ref(st), ref(tb), ru, steps)


@kernel
def advance_by_ref_nb(st, tb, ru, steps):
    """:func:`advance_nb` for the state and the tables passed as references: what the drivers call (a bound
    call passes a tuple's every array field, about 185 machine words; a reference is one)."""
    return advance_ref_nb(st, tb, ru, steps)


@helper
def advance_ref_nb(st, tb, ru, steps):
    end = st.g[K.G_STEPS] + steps
    while st.g[K.G_ASK] == 0:
        f = st.g[K.G_SP] - 1
        if f < 0:
            if st.g[K.G_PHASE] == K.PH_OVER or st.g[K.G_STEPS] >= end:
                return False
            push_nb(st, RT_STEP, 0, 0, 0, 0, 0, 0, 0)
            continue
        run_routine_nb(st, tb, ru, f)
    return True


_advance_by_ref = link.caller(advance_by_ref_nb, ADVANCE_REF_TYPES, types.boolean)


@entry_kernel
def finished_nb(st):
    """The game is over and nothing is left to resolve."""
    return st.g[K.G_PHASE] == K.PH_OVER and st.g[K.G_SP] == 0 and st.g[K.G_ASK] == 0


@entry_kernel
def setup_nb(st, tb, ru, villains, slots, slot_kernels, slot_params, seed, game_index):
    """Set up a game per the rulebook: shuffled decks, 4-card hands, Power 0/1/2 by seat, movers left-most.

    villains, slots: int64 (P,) villain row and strategy slot per seat; slot_kernels int64 (S,) and slot_params
    float64 (S, N_SPARAMS): each slot's strategy kernel id and parameters. ``st`` is fresh or cleared.
    """
    P = villains.shape[0]
    st.g[:] = 0
    st.g[K.G_NSEATS] = P
    st.g[K.G_WINNER] = -1
    st.g[K.G_ROUND] = 1
    st.g[K.G_PHASE] = K.PH_START
    seed_stream_nb(st.rng, seed, game_index)
    for s in range(P):
        v = villains[s]
        st.sv[s, :] = 0
        st.sv[s, K.SV_VILLAIN] = v
        st.sv[s, K.SV_POWER] = s if s < 3 else 3
        st.sv[s, K.SV_STRATEGY] = slot_kernels[slots[s]]
        for j in range(slot_params.shape[1]):
            st.sparams[s, j] = slot_params[slots[s], j]
        st.sv[s, K.SV_TRAPS] = tb.vil[v, K.VF_TRAPS]
        st.sv[s, K.SV_SEAT_ORDER] = s
        for loc in range(K.N_LOC):
            st.sv[s, K.SV_LOCK + loc] = tb.locs[v, loc, K.LC_LOCKED]
            st.sv[s, K.SV_OBST + loc] = tb.locs[v, loc, K.LC_SPOTS]
        for k in range(K.N_INST):
            st.inst[s, k, K.I_CARD] = tb.v_deck[v, k] if k < K.N_VCARDS else tb.v_fate[v, k - K.N_VCARDS]
            st.inst[s, k, K.I_LOC] = -1
            st.inst[s, k, K.I_HOST] = -1
            st.inst[s, k, K.I_TRAPPED] = 0
            st.inst[s, k, K.I_FLAGS] = 0
            st.inst[s, k, K.I_PASSIVE] = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
        # A deck shortened by a card edit leaves its last slots out of the game.
        nv = 0
        for k in range(K.N_VCARDS):
            if tb.v_out[v, k] != 0:
                set_zone_nb(st, s, k, K.Z_OUT)
            else:
                set_zone_nb(st, s, k, K.Z_VDECK)
                st.vdeck[s, nv] = k
                nv += 1
        nf = 0
        for k in range(K.N_FCARDS):
            if tb.v_out[v, K.N_VCARDS + k] != 0:
                set_zone_nb(st, s, K.N_VCARDS + k, K.Z_OUT)
            else:
                set_zone_nb(st, s, K.N_VCARDS + k, K.Z_FDECK)
                st.fdeck[s, nf] = K.N_VCARDS + k
                nf += 1
        st.sv[s, K.SV_VDECK_N] = nv
        st.sv[s, K.SV_FDECK_N] = nf
    for s in range(P):
        shuffle_villain_deck_nb(st, s)
        shuffle_fate_deck_nb(st, s)
    for s in range(P):
        draw_n_nb(st, s, 4)
