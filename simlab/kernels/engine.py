"""The rules: kernels that change a game state, and the turn driver.

Every choice the rules give a player goes through :func:`decide_nb`: the caller fills ``st.opts`` with
the legal options (``O_*`` rows, a "pass/done" option always first when there is one) and gets back
an index chosen by the seat's strategy, or by the script in scenario mode.
Names follow the game: ``s`` is the seat whose Realm is affected, ``chooser`` the seat deciding.
"""

from simlab.kernels import const as K
from simlab.kernels.choose import choose_nb
from simlab.kernels.jit import helper, kernel
from simlab.kernels.query import (
    activation_cost_nb,
    any_move_nb,
    any_trappable_nb,
    any_vanquish_nb,
    can_enter_nb,
    can_move_card_nb,
    can_remove_obstacle_nb,
    can_vanquish_nb,
    cauldron_born_everywhere_nb,
    first_symbol_nb,
    flip_cost_nb,
    granted_activates_nb,
    hero_can_move_nb,
    hero_count_nb,
    missing_at_nb,
    missing_total_nb,
    obstacles_total_nb,
    passive_count_nb,
    play_cost_nb,
    realm_instance_nb,
    strength_nb,
    symbol_available_nb,
    trappable_nb,
    vanquish_eligible_nb,
    vanquish_min_allies_nb,
    wedding_ready_nb,
    zone_count_nb,
    zone_instance_nb,
)
from simlab.kernels.rng import seed_stream_nb, shuffle_nb

# ============================================================================ log, options, decisions


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
def decide_nb(st, tb, ru, realm, player, kind, ctx):
    """Index of the option in ``st.opts`` chosen by ``player``; the options concern seat ``realm``'s Realm.

    A forced choice (one option) asks nobody.
    """
    n = st.g[K.G_NOPT]
    if n <= 1:
        return 0
    if st.g[K.G_SCRIPT_N] >= 0:
        pos = st.g[K.G_SCRIPT_POS]
        if pos < st.g[K.G_SCRIPT_N]:
            idx = st.script[pos]
            st.g[K.G_SCRIPT_POS] = pos + 1
        else:
            if st.g[K.G_STOP] == 0:
                st.g[K.G_STOP] = 1
                st.g[K.G_PEND_N] = n
                st.g[K.G_PEND_KIND] = kind
                st.g[K.G_PEND_PLAYER] = player
                st.g[K.G_PEND_CTX] = ctx
                st.g[K.G_PEND_REALM] = realm
                for j in range(n):
                    for m in range(4):
                        st.pend[j, m] = st.opts[j, m]
                if st.g[K.G_SUGGEST] != 0:
                    st.g[K.G_SUGGESTED] = choose_nb(
                        st.sv[player, K.SV_STRATEGY], st, tb, ru, realm, player, kind, ctx, n
                    )
            idx = 0
    else:
        idx = choose_nb(st.sv[player, K.SV_STRATEGY], st, tb, ru, realm, player, kind, ctx, n)
    st.g[K.G_DECISIONS] += 1
    log_nb(st, K.EV_CHOICE, player, kind, idx, n, ctx)
    return idx


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
            st.inst[s, k, K.I_ZONE] = K.Z_VDECK
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
            st.inst[s, k, K.I_ZONE] = K.Z_FDECK
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
    st.inst[s, k, K.I_ZONE] = K.Z_HAND
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
    st.inst[s, k, K.I_ZONE] = K.Z_LIMBO
    log_nb(st, K.EV_REVEAL, s, k, 0, 0, 0)
    return k


@kernel
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


@kernel
def put_on_fate_deck_nb(st, s, k):
    n = st.sv[s, K.SV_FDECK_N]
    st.fdeck[s, n] = k
    st.sv[s, K.SV_FDECK_N] = n + 1
    st.inst[s, k, K.I_ZONE] = K.Z_FDECK
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1


# ============================================================================ cards entering and leaving the Realm


@kernel
def put_in_realm_nb(st, s, k, loc, host):
    st.inst[s, k, K.I_ZONE] = K.Z_REALM
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
    st.inst[s, k, K.I_ZONE] = zone
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == k and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_ZONE] = K.Z_FDISCARD if j >= K.N_VCARDS else K.Z_VDISCARD
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
        st.inst[s, k, K.I_ZONE] = K.Z_LIMBO
        return k
    k = zone_instance_nb(st, s, card, K.Z_FDECK if fate else K.Z_VDECK)
    if k >= 0:
        take_from_deck_nb(st, s, k)
        st.inst[s, k, K.I_ZONE] = K.Z_LIMBO
        if fate:
            shuffle_fate_deck_nb(st, s)
        else:
            shuffle_villain_deck_nb(st, s)
        return k
    return -1


@kernel
def lucifer_sweep_nb(st, tb, ru, s):
    """Lucifer (continuous reading): every Hero sharing his location gets a Trapped token while tokens last."""
    if ru[K.R_LUCIFER_CONTINUOUS] == 0:
        return
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_REALM and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_LUCIFER_TRAP:
            for h in range(K.N_INST):
                if st.inst[s, h, K.I_LOC] == st.inst[s, k, K.I_LOC] and trappable_nb(st, tb, s, h):
                    trap_nb(st, s, h)


@kernel
def move_card_nb(st, tb, ru, s, k, dest):
    """Move an Ally or Item (attached Items go along)."""
    src = st.inst[s, k, K.I_LOC]
    st.inst[s, k, K.I_LOC] = dest
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == k and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, k, src, dest, 0)
    lucifer_sweep_nb(st, tb, ru, s)


# ============================================================================ Obstacles


@kernel
def remove_obstacle_at_nb(st, tb, ru, s, loc):
    st.sv[s, K.SV_OBST + loc] -= 1
    left = obstacles_total_nb(st, s)
    log_nb(st, K.EV_OBSTACLE_REMOVE, s, loc, left, 0, 0)
    if left == 0 and ru[K.R_GASTON_WINS_AT_START_OF_TURN] == 0:
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
def remove_obstacles_nb(st, tb, ru, s, n, chooser, ctx):
    """Remove up to ``n`` Obstacles, one at a time, each from a location ``chooser`` picks."""
    for _ in range(n):
        if not can_remove_obstacle_nb(st, tb, s) or over_nb(st):
            return
        opt_clear_nb(st)
        for loc in range(K.N_LOC):
            if st.sv[s, K.SV_OBST + loc] > 0:
                opt_add_nb(st, K.O_LOC, loc, 0, 0)
        i = decide_nb(st, tb, ru, s, chooser, K.DK_LOCATION, ctx)
        remove_obstacle_at_nb(st, tb, ru, s, st.opts[i, 1])


@kernel
def replace_obstacles_nb(st, tb, ru, s, n, chooser, ctx):
    for _ in range(n):
        if missing_total_nb(st, tb, s) == 0:
            return
        opt_clear_nb(st)
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) > 0:
                opt_add_nb(st, K.O_LOC, loc, 0, 0)
        i = decide_nb(st, tb, ru, s, chooser, K.DK_LOCATION, ctx)
        replace_obstacle_at_nb(st, s, st.opts[i, 1])


@kernel
def clear_obstacles_at_nb(st, tb, ru, s, loc):
    while st.sv[s, K.SV_OBST + loc] > 0 and can_remove_obstacle_nb(st, tb, s) and not over_nb(st):
        remove_obstacle_at_nb(st, tb, ru, s, loc)


# ============================================================================ Heroes


@kernel
def pick_location_nb(st, tb, ru, chooser, s, c, exclude, ctx):
    """``chooser`` picks a location of seat ``s`` that card row ``c`` may enter (not ``exclude``); -1 if none."""
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if loc != exclude and can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    if st.g[K.G_NOPT] == 0:
        return -1
    return st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_LOCATION, ctx), 1]


@kernel
def on_enter_nb(st, tb, ru, s, h, chooser):
    """A Hero's "when played or moved" ability."""
    c = st.inst[s, h, K.I_CARD]
    ab = tb.card[c, K.CF_ON_ENTER]
    if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0 or st.inst[s, h, K.I_ZONE] != K.Z_REALM:
        return
    here = st.inst[s, h, K.I_LOC]
    if ab == K.AB_PUSH_ALLIES_OUT:
        # Beast: the Allies at his location must leave it (mandatory).
        single = ru[K.R_BEAST_SINGLE_DESTINATION] != 0
        dest = -1
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and st.inst[s, k, K.I_LOC] == here
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY
            ):
                if dest < 0 or not single:
                    dest = pick_location_nb(st, tb, ru, chooser, s, st.inst[s, k, K.I_CARD], here, ab)
                if dest >= 0:
                    move_card_nb(st, tb, ru, s, k, dest)
    elif ab == K.AB_FETCH_ALLY_HERE:
        # Bruno: Lucifer comes to Bruno's location.
        k = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
        if (
            k >= 0
            and st.inst[s, k, K.I_LOC] != here
            and st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] == 0
            and can_enter_nb(st, tb, s, tb.card[c, K.CF_REF0], here)
        ):
            move_card_nb(st, tb, ru, s, k, here)
    elif ab == K.AB_DISCARD_ITEM_HERE:
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
            discard_nb(st, s, st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1])


@kernel
def move_hero_nb(st, tb, ru, s, h, dest, chooser):
    src = st.inst[s, h, K.I_LOC]
    st.inst[s, h, K.I_LOC] = dest
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == h and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, h, src, dest, 0)
    on_enter_nb(st, tb, ru, s, h, chooser)
    lucifer_sweep_nb(st, tb, ru, s)


@kernel
def place_hero_nb(st, tb, ru, s, h, loc, chooser):
    """Play a Hero to ``loc`` without its "when played" ability (used for Heroes played by other Heroes)."""
    put_in_realm_nb(st, s, h, loc, -1)
    st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
    on_enter_nb(st, tb, ru, s, h, chooser)
    lucifer_sweep_nb(st, tb, ru, s)


@kernel
def pick_hero_to_move_nb(st, tb, ru, chooser, s, may, ctx):
    """``chooser`` picks (Hero, destination) among Heroes a card may move; (-1, -1) if none or declined."""
    opt_clear_nb(st)
    if may:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for h in range(K.N_INST):
        for dest in range(K.N_LOC):
            if hero_can_move_nb(st, tb, s, h, dest):
                opt_add_nb(st, K.O_MOVE, h, dest, 0)
    if st.g[K.G_NOPT] == 0:
        return -1, -1
    i = decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ctx)
    if st.opts[i, 0] == K.O_PASS:
        return -1, -1
    return st.opts[i, 1], st.opts[i, 2]


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
                st.inst[s, k, K.I_ZONE] = K.Z_FDISCARD


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
    if by_vanquish and not ignored and tb.card[c, K.CF_PASSIVE] == K.AB_GURGI_RETURNS:
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


@kernel
def on_play_nb(st, tb, ru, s, h, chooser):
    """A Hero's or Item's "when played" ability; ``chooser`` makes its choices."""
    c = st.inst[s, h, K.I_CARD]
    ab = tb.card[c, K.CF_ON_PLAY]
    if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0:
        return
    here = st.inst[s, h, K.I_LOC]
    if ab == K.AB_MAY_MOVE_ONE_HERO:
        hero, dest = pick_hero_to_move_nb(st, tb, ru, chooser, s, 1, ab)
        if hero >= 0:
            move_hero_nb(st, tb, ru, s, hero, dest, chooser)
    elif ab == K.AB_FETCH_ATTACHMENT_HERE:
        # Maurice: find his Invention and attach it to a Hero at his location.
        k = find_nb(st, s, tb.card[c, K.CF_REF0], 0)
        if k >= 0:
            opt_clear_nb(st)
            for j in range(K.N_INST):
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and st.inst[s, j, K.I_LOC] == here
                    and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_HERO
                ):
                    opt_add_nb(st, K.O_CARD, j, s, 0)
            host = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1]
            put_in_realm_nb(st, s, k, here, host)
            st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
            log_nb(st, K.EV_FATE_PLAY, s, k, here, host, chooser)
    elif ab == K.AB_MRS_POTTS:
        opt_clear_nb(st)
        opt_add_nb(st, K.O_MODE, K.M_NOTHING, 0, 0)
        opt_add_nb(st, K.O_MODE, K.M_MOVE_HEROES, 0, 0)
        items = False
        for j in range(K.N_VCARDS, K.N_INST):
            if st.inst[s, j, K.I_ZONE] == K.Z_REALM and st.inst[s, j, K.I_HOST] >= 0:
                items = True
        if items and hero_count_nb(st, tb, s) > 1:
            opt_add_nb(st, K.O_MODE, K.M_MOVE_ITEMS, 0, 0)
        mode = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_MODE, ab), 1]
        if mode == K.M_MOVE_HEROES:
            single = ru[K.R_POTTS_SINGLE_DESTINATION] != 0
            dest = -1
            for j in range(K.N_INST):
                cj = st.inst[s, j, K.I_CARD]
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[cj, K.CF_TYPE] == K.T_HERO
                    and st.inst[s, j, K.I_TRAPPED] == 0
                ):
                    if not single or dest < 0 or dest == st.inst[s, j, K.I_LOC]:
                        dest = pick_location_nb(st, tb, ru, chooser, s, cj, st.inst[s, j, K.I_LOC], ab)
                    if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                        move_hero_nb(st, tb, ru, s, j, dest, chooser)
        elif mode == K.M_MOVE_ITEMS:
            for j in range(K.N_VCARDS, K.N_INST):
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
                        host = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1]
                        st.inst[s, j, K.I_HOST] = host
                        st.inst[s, j, K.I_LOC] = st.inst[s, host, K.I_LOC]
                        log_nb(st, K.EV_MOVE_CARD, s, j, -1, st.inst[s, host, K.I_LOC], host)
    elif ab == K.AB_INVITATION:
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
    elif ab == K.AB_KEY_TRAP_NAMED:
        # The Key: Cinderella is moved to Cinderella's Room and Trapped.
        k = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
        where = tb.card[c, K.CF_LOCATION]
        if k >= 0 and st.inst[s, k, K.I_TRAPPED] == 0:
            if st.inst[s, k, K.I_LOC] != where and hero_can_move_nb(st, tb, s, k, where):
                move_hero_nb(st, tb, ru, s, k, where, chooser)
            if trappable_nb(st, tb, s, k):
                trap_nb(st, s, k)
    elif ab == K.AB_FAIRY_GODMOTHER:
        # FIND Ball Gown Cinderella (Realm first) and play her: to Cinderella's location if Cinderella is in
        # play (she is discarded), otherwise to any unlocked location.
        bgc = tb.card[c, K.CF_REF0]
        k = find_nb(st, s, bgc, 1)
        if k >= 0:
            old = realm_instance_nb(st, s, tb.card[bgc, K.CF_SWAP_FROM])
            if old >= 0:
                dest = st.inst[s, old, K.I_LOC]
                discard_nb(st, s, old)
            else:
                dest = pick_location_nb(st, tb, ru, chooser, s, bgc, -1, ab)
            if dest >= 0:
                log_nb(st, K.EV_FATE_PLAY, s, k, dest, -1, chooser)
                place_hero_nb(st, tb, ru, s, k, dest, chooser)
            else:
                st.inst[s, k, K.I_ZONE] = K.Z_FDISCARD
    elif ab == K.AB_DOLI:
        opt_clear_nb(st)
        opt_add_nb(st, K.O_MODE, K.M_NOTHING, 0, 0)
        opt_add_nb(st, K.O_MODE, K.M_MOVE_HEROES, 0, 0)
        if st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_MODE, ab), 1] == K.M_MOVE_HEROES:
            single = ru[K.R_DOLI_SINGLE_DESTINATION] != 0
            dest = -1
            if single:
                dest = pick_location_nb(st, tb, ru, chooser, s, c, -1, ab)
            for j in range(K.N_INST):
                cj = st.inst[s, j, K.I_CARD]
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[cj, K.CF_TYPE] == K.T_HERO
                    and st.inst[s, j, K.I_TRAPPED] == 0
                ):
                    if not single:
                        dest = pick_location_nb(st, tb, ru, chooser, s, cj, st.inst[s, j, K.I_LOC], ab)
                    if dest >= 0 and dest != st.inst[s, j, K.I_LOC]:
                        move_hero_nb(st, tb, ru, s, j, dest, chooser)
    elif ab == K.AB_GATHER_ALLIES:
        for k in range(K.N_VCARDS):
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY
                and st.inst[s, k, K.I_LOC] != here
                and st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] == 0
                and can_enter_nb(st, tb, s, st.inst[s, k, K.I_CARD], here)
            ):
                move_card_nb(st, tb, ru, s, k, here)
    elif ab == K.AB_WITCHES:
        opt_clear_nb(st)
        if st.sv[s, K.SV_POWER] >= tb.card[c, K.CF_N]:
            opt_add_nb(st, K.O_MODE, K.M_LOSE_POWER, 0, 0)
        if hand_size_nb(st, s) > 0:
            opt_add_nb(st, K.O_MODE, K.M_DISCARD_CARDS, 0, 0)
        if st.g[K.G_NOPT] > 0:
            mode = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_MODE, ab), 1]
            if mode == K.M_LOSE_POWER:
                st.sv[s, K.SV_POWER] -= tb.card[c, K.CF_N]
                log_nb(st, K.EV_POWER_LOSS, s, tb.card[c, K.CF_N], st.sv[s, K.SV_POWER], 0, 0)
            else:
                for _ in range(tb.card[c, K.CF_N]):
                    opt_clear_nb(st)
                    for k in range(K.N_VCARDS):
                        if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
                            opt_add_nb(st, K.O_CARD, k, s, 0)
                    if st.g[K.G_NOPT] == 0:
                        break
                    discard_nb(st, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_DISCARD, ab), 1])


@kernel
def play_hero_nb(st, tb, ru, s, h, loc, chooser):
    """Play Hero ``h`` to ``loc``: its "when played" ability, its "when played or moved" one, then Lucifer."""
    put_in_realm_nb(st, s, h, loc, -1)
    st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
    on_play_nb(st, tb, ru, s, h, chooser)
    on_enter_nb(st, tb, ru, s, h, chooser)
    lucifer_sweep_nb(st, tb, ru, s)


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
def fate_effect_doable_nb(st, tb, ru, s, c):
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
    if ab == K.AB_REPLACE_ONE_EACH_LOCATION:
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) == 0:
                return False
        return True
    if ab == K.AB_REPLACE_OBSTACLES or ab == K.AB_REPLACE_ALL_ONE_LOCATION:
        return missing_total_nb(st, tb, s) > 0
    if ab == K.AB_UNTRAP_AND_MOVE:
        for h in range(K.N_INST):
            if (
                st.inst[s, h, K.I_ZONE] == K.Z_REALM
                and st.inst[s, h, K.I_TRAPPED] != 0
                and st.sv[s, K.SV_LOCK + st.inst[s, h, K.I_LOC]] == 0
            ):
                for dest in range(K.N_LOC):
                    if dest != st.inst[s, h, K.I_LOC] and can_enter_nb(st, tb, s, st.inst[s, h, K.I_CARD], dest):
                        return True
        return False
    if ab == K.AB_MOVE_OPPONENT_ALLY:
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_REALM and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY:
                for dest in range(K.N_LOC):
                    if can_move_card_nb(st, tb, s, k, dest, 1):
                        return True
        return False
    return True


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
        if fate_effect_doable_nb(st, tb, ru, s, c):
            opt_add_nb(st, K.O_FATE_PLAY, k, -1, -1)
            return 1
    return 0


@kernel
def play_fate_card_nb(st, tb, ru, s, k, loc, host, actor):
    """Play revealed Fate card ``k`` into seat ``s``'s Realm; ``actor`` (the Fating player) makes its choices."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_FATE_PLAY, s, k, loc, host, actor)
    if t == K.T_HERO:
        if tb.card[c, K.CF_SWAP_FROM] >= 0:
            base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
            loc = st.inst[s, base, K.I_LOC]
            discard_nb(st, s, base)
        play_hero_nb(st, tb, ru, s, k, loc, actor)
    elif t == K.T_ITEM:
        put_in_realm_nb(st, s, k, st.inst[s, host, K.I_LOC] if host >= 0 else loc, host)
        st.g[K.G_TRIGGERS] |= K.TRIG_ITEM
        st.g[K.G_ITEM_ACTOR] = actor
    elif t == K.T_EFFECT:
        resolve_effect_nb(st, tb, ru, s, k, actor)
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)


@kernel
def play_revealed_nb(st, tb, ru, s, k, actor):
    """Play revealed card ``k`` if it can be played (``actor`` picks where), else discard it."""
    opt_clear_nb(st)
    if fate_placements_nb(st, tb, ru, s, k) == 0:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)
        return
    i = decide_nb(st, tb, ru, s, actor, K.DK_PLACE, k)
    play_fate_card_nb(st, tb, ru, s, k, st.opts[i, 2], st.opts[i, 3], actor)


@kernel
def discard_revealed_nb(st, s, k):
    if k >= 0 and st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)


@kernel
def is_prince_nb(tb, c):
    """Card ``c`` is a Prince who goes straight to The Ballroom when revealed (an ablated one is discarded)."""
    return tb.card[c, K.CF_TYPE] == K.T_PRINCE and tb.card[c, K.CF_BLOCKED] == 0


@kernel
def fate_action_nb(st, tb, ru, actor, s):
    """Fate action by ``actor`` against seat ``s``: reveal two, play one, discard the other."""
    log_nb(st, K.EV_FATE, actor, s, 0, 0, 0)
    r0 = reveal_fate_nb(st, s)
    r1 = reveal_fate_nb(st, s)
    rose_removals = 0
    first = True
    while r0 >= 0 or r1 >= 0:
        if over_nb(st):
            break
        # The Prince is played at once to The Ballroom; the other card is discarded.
        prince = -1
        if r0 >= 0 and is_prince_nb(tb, st.inst[s, r0, K.I_CARD]):
            prince = r0
        elif r1 >= 0 and is_prince_nb(tb, st.inst[s, r1, K.I_CARD]):
            prince = r1
        if prince >= 0:
            where = tb.card[st.inst[s, prince, K.I_CARD], K.CF_LOCATION]
            if st.sv[s, K.SV_LOCK + where] == 0 or ru[K.R_PRINCE_INTO_LOCKED_BALLROOM] != 0:
                put_in_realm_nb(st, s, prince, where, -1)
                st.inst[s, prince, K.I_FLAGS] |= K.FLAG_PLAYED
                log_nb(st, K.EV_FATE_PLAY, s, prince, where, -1, actor)
            else:
                discard_revealed_nb(st, s, prince)
            discard_revealed_nb(st, s, r1 if prince == r0 else r0)
            break
        picker = actor
        if first:
            first = False
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
                i = decide_nb(st, tb, ru, s, s, K.DK_CONDITION, K.C_FATED)
                if st.opts[i, 0] == K.O_CARD:
                    vpj = st.opts[i, 1]
                    st.inst[s, vpj, K.I_FLAGS] |= K.FLAG_PLAYED
                    log_nb(st, K.EV_CONDITION, s, vpj, 0, 0, 0)
                    discard_nb(st, s, vpj)
                    picker = s
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
            break
        i = decide_nb(st, tb, ru, s, picker, K.DK_FATE_PICK, actor)
        if st.opts[i, 0] == K.O_PASS:
            discard_revealed_nb(st, s, r0)
            discard_revealed_nb(st, s, r1)
            break
        k = st.opts[i, 1]
        loc = st.opts[i, 2]
        host = st.opts[i, 3]
        other = r1 if k == r0 else r0
        ab = tb.card[st.inst[s, k, K.I_CARD], K.CF_EFFECT]
        if ab == K.AB_THE_ROSE:
            # Play the other card, discard The Rose, reveal two more and play one; then remove an Obstacle.
            st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
            log_nb(st, K.EV_FATE_PLAY, s, k, -1, -1, actor)
            if other >= 0:
                play_revealed_nb(st, tb, ru, s, other, actor)
            discard_nb(st, s, k)
            rose_removals += 1
            r0 = reveal_fate_nb(st, s)
            r1 = reveal_fate_nb(st, s)
            continue
        if ab == K.AB_GURGI_HAPPY_DAY:
            st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
            log_nb(st, K.EV_FATE_PLAY, s, k, -1, -1, actor)
            discard_revealed_nb(st, s, other)
            fate_discard_into_deck_nb(st, s)
            a = reveal_fate_nb(st, s)
            b = reveal_fate_nb(st, s)
            if a >= 0:
                play_revealed_nb(st, tb, ru, s, a, actor)
            if b >= 0:
                play_revealed_nb(st, tb, ru, s, b, actor)
            discard_nb(st, s, k)
            break
        discard_revealed_nb(st, s, other)
        play_fate_card_nb(st, tb, ru, s, k, loc, host, actor)
        break
    for _ in range(rose_removals):
        remove_obstacles_nb(st, tb, ru, s, 1, actor, K.AB_THE_ROSE)


# ============================================================================ Vanquish


@kernel
def vanquish_nb(st, tb, ru, s, h):
    """Vanquish Hero ``h`` with Allies the owner of ``s`` picks one by one (done once they suffice)."""
    here = st.inst[s, h, K.I_LOC]
    need = strength_nb(st, tb, s, h)
    min_allies = vanquish_min_allies_nb(st, tb, s, h)
    for k in range(K.N_INST):
        st.mark[k] = 0
        st.tmp[k] = strength_nb(st, tb, s, k) if vanquish_eligible_nb(st, tb, s, k, here) else -1
    total = 0
    count = 0
    while True:
        opt_clear_nb(st)
        if total >= need and count >= min_allies:
            opt_add_nb(st, K.O_PASS, 0, 0, 0)
        for k in range(K.N_INST):
            if st.tmp[k] >= 0 and st.mark[k] == 0:
                opt_add_nb(st, K.O_CARD, k, s, 0)
        if st.g[K.G_NOPT] == 0:
            break
        i = decide_nb(st, tb, ru, s, s, K.DK_VANQUISH_ALLY, h)
        if st.opts[i, 0] == K.O_PASS:
            break
        k = st.opts[i, 1]
        st.mark[k] = 1
        total += st.tmp[k]
        count += 1
    log_nb(st, K.EV_VANQUISH, s, h, count, need, 0)
    lefou = False
    for k in range(K.N_VCARDS):
        if (
            st.inst[s, k, K.I_ZONE] == K.Z_REALM
            and st.inst[s, k, K.I_LOC] == here
            and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_LEFOU
        ):
            lefou = True
    mover = st.sv[s, K.SV_MOVER]
    for k in range(K.N_VCARDS):
        if st.mark[k] == 0:
            continue
        p = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
        if p == K.AB_CAULDRON_BORN:
            continue
        if p == K.AB_CREEPER:
            if st.inst[s, k, K.I_LOC] != mover:
                move_card_nb(st, tb, ru, s, k, mover)
        elif lefou:
            leave_realm_nb(st, s, k, K.Z_HAND)
            log_nb(st, K.EV_TO_HAND, s, k, 0, 0, 0)
        else:
            discard_nb(st, s, k)
    defeat_hero_nb(st, tb, ru, s, h, 1, s)
    st.g[K.G_TRIGGERS] |= K.TRIG_VANQUISH


@kernel
def add_vanquish_options_nb(st, tb, s):
    """Add (O_VANQUISH, h) for every Hero seat ``s`` can vanquish now."""
    for h in range(K.N_INST):
        if can_vanquish_nb(st, tb, s, h):
            opt_add_nb(st, K.O_VANQUISH, h, 0, 0)


@kernel
def choose_vanquish_nb(st, tb, ru, s, ctx):
    """Perform a Vanquish action (the Hero chosen by ``s``)."""
    opt_clear_nb(st)
    add_vanquish_options_nb(st, tb, s)
    if st.g[K.G_NOPT] > 0:
        vanquish_nb(st, tb, ru, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, ctx), 1])


# ============================================================================ moving, activating


@kernel
def add_move_options_nb(st, tb, s, by_fate, allies_only):
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] != K.Z_REALM:
            continue
        if allies_only and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] != K.T_ALLY:
            continue
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, by_fate):
                opt_add_nb(st, K.O_MOVE, k, dest, 0)


@kernel
def choose_move_nb(st, tb, ru, s, ctx):
    """Perform a Move an Item or Ally action."""
    opt_clear_nb(st)
    add_move_options_nb(st, tb, s, 0, 0)
    if st.g[K.G_NOPT] > 0:
        i = decide_nb(st, tb, ru, s, s, K.DK_CARD, ctx)
        move_card_nb(st, tb, ru, s, st.opts[i, 1], st.opts[i, 2])


@kernel
def key_target_nb(st, tb, s, h, where):
    """The Key's Activate can act on Hero ``h``: move it to ``where``, or Trap it there."""
    return hero_can_move_nb(st, tb, s, h, where) or (st.inst[s, h, K.I_LOC] == where and trappable_nb(st, tb, s, h))


@kernel
def add_activate_options_nb(st, tb, ru, s):
    """Add (O_ACTIVATE, k) for every card seat ``s`` can activate now (k = -1: the Black Cauldron)."""
    budget = st.sv[s, K.SV_POWER]
    if can_activate_nb(st, tb, ru, s, -1, budget):
        opt_add_nb(st, K.O_ACTIVATE, -1, 0, 0)
    for k in range(K.N_VCARDS):
        if can_activate_nb(st, tb, ru, s, k, budget):
            opt_add_nb(st, K.O_ACTIVATE, k, 0, 0)


@kernel
def can_activate_nb(st, tb, ru, s, k, budget):
    """Card ``k`` (-1: the Black Cauldron tile) can be activated now with ``budget`` Power."""
    if k < 0:
        return st.sv[s, K.SV_CAULDRON] == 1 and budget >= flip_cost_nb(st, tb, ru, s)
    if st.inst[s, k, K.I_ZONE] != K.Z_REALM or st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] != 0:
        return False
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    if ab == K.AB_NONE or budget < activation_cost_nb(tb, ru, c):
        return False
    if ab == K.AB_REMOVE_OBSTACLES:
        return can_remove_obstacle_nb(st, tb, s)
    if ab == K.AB_PEEK_FATE_DISCARD_ONE:
        return st.sv[s, K.SV_FDECK_N] + zone_count_nb(st, s, K.Z_FDISCARD) > 0
    if ab == K.AB_DISCARD_GLASS_SLIPPER:
        return passive_count_nb(st, tb, s, K.AB_GLASS_SLIPPER) > 0
    if ab == K.AB_KEY_MOVE_TRAP:
        where = tb.card[c, K.CF_LOCATION]
        for h in range(K.N_INST):
            if key_target_nb(st, tb, s, h, where):
                return True
        return False
    if ab == K.AB_WEDDING_BELLS:
        return wedding_ready_nb(st, tb, s, c)
    return False


@kernel
def any_activate_nb(st, tb, ru, s, budget):
    if can_activate_nb(st, tb, ru, s, -1, budget):
        return True
    for k in range(K.N_VCARDS):
        if can_activate_nb(st, tb, ru, s, k, budget):
            return True
    return False


@kernel
def activate_nb(st, tb, ru, s, k):
    """Pay and resolve card ``k``'s Activated Ability (-1: flip the Black Cauldron)."""
    if k < 0:
        cost = flip_cost_nb(st, tb, ru, s)
        st.sv[s, K.SV_POWER] -= cost
        log_nb(st, K.EV_ACTIVATE, s, -1, cost, 0, 0)
        set_cauldron_nb(st, s, 2)
        return
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    cost = activation_cost_nb(tb, ru, c)
    st.sv[s, K.SV_POWER] -= cost
    log_nb(st, K.EV_ACTIVATE, s, k, cost, 0, 0)
    if ab == K.AB_REMOVE_OBSTACLES:
        remove_obstacles_nb(st, tb, ru, s, tb.card[c, K.CF_N], s, ab)
    elif ab == K.AB_PEEK_FATE_DISCARD_ONE:
        # Look at the top two Fate cards: discard one, the other goes back on top.
        a = reveal_fate_nb(st, s)
        b = reveal_fate_nb(st, s)
        opt_clear_nb(st)
        if a >= 0:
            opt_add_nb(st, K.O_CARD, a, s, 0)
        if b >= 0:
            opt_add_nb(st, K.O_CARD, b, s, 0)
        if st.g[K.G_NOPT] > 0:
            gone = st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, ab), 1]
            discard_nb(st, s, gone)
            keep = b if gone == a else a
            if keep >= 0:
                put_on_fate_deck_nb(st, s, keep)
    elif ab == K.AB_DISCARD_GLASS_SLIPPER:
        opt_clear_nb(st)
        for j in range(K.N_VCARDS, K.N_INST):
            if (
                st.inst[s, j, K.I_ZONE] == K.Z_REALM
                and tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE] == K.AB_GLASS_SLIPPER
            ):
                opt_add_nb(st, K.O_CARD, j, s, 0)
        discard_nb(st, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, ab), 1])
    elif ab == K.AB_KEY_MOVE_TRAP:
        where = tb.card[c, K.CF_LOCATION]
        opt_clear_nb(st)
        for h in range(K.N_INST):
            if key_target_nb(st, tb, s, h, where):
                opt_add_nb(st, K.O_CARD, h, s, 0)
        h = st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, ab), 1]
        if st.inst[s, h, K.I_LOC] != where:
            move_hero_nb(st, tb, ru, s, h, where, s)
        if trappable_nb(st, tb, s, h):
            trap_nb(st, s, h)
    elif ab == K.AB_WEDDING_BELLS:
        declare_win_nb(st, s)


@kernel
def choose_activate_nb(st, tb, ru, s, ctx):
    opt_clear_nb(st)
    add_activate_options_nb(st, tb, ru, s)
    if st.g[K.G_NOPT] > 0:
        activate_nb(st, tb, ru, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, ctx), 1])


# ============================================================================ Villain cards


@kernel
def villain_effect_doable_nb(st, tb, ru, s, c, budget):
    """An Effect (or Condition) of seat ``s`` can do what it says; ``budget`` is the Power left after paying it."""
    ab = tb.card[c, K.CF_EFFECT]
    if ab == K.AB_REMOVE_OBSTACLES:
        if ru[K.R_GET_OUT_EXACTLY] != 0 and tb.card[c, K.CF_N] > 1 and obstacles_total_nb(st, s) < tb.card[c, K.CF_N]:
            return False
        return can_remove_obstacle_nb(st, tb, s)
    if ab == K.AB_REMOVE_OBSTACLES_ONE_LOCATION:
        return can_remove_obstacle_nb(st, tb, s)
    if ab == K.AB_SWOON:
        return missing_total_nb(st, tb, s) > 0
    if ab == K.AB_EXTRA_VANQUISH:
        return any_vanquish_nb(st, tb, s)
    if ab == K.AB_EXTRA_MOVE:
        return any_move_nb(st, tb, s, 0)
    if ab == K.AB_EXTRA_MOVE_OR_ACTIVATE:
        return any_move_nb(st, tb, s, 0) or any_activate_nb(st, tb, ru, s, budget)
    if ab == K.AB_DEFEAT_HERO_MAX_STRENGTH:
        for h in range(K.N_INST):
            if (
                st.inst[s, h, K.I_ZONE] == K.Z_REALM
                and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO
                and strength_nb(st, tb, s, h) <= tb.card[c, K.CF_N]
            ):
                return True
        return False
    if ab == K.AB_SHOW_ME_THE_BEAST:
        beast = realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0
        belle = realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        if belle and not beast:
            return missing_total_nb(st, tb, s) > 0
        return True
    if ab == K.AB_TRAP_HERO:
        return any_trappable_nb(st, tb, s)
    if ab == K.AB_DEFEAT_NAMED_HERO:
        return (
            realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0 or realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        )
    if ab == K.AB_MIDNIGHT or ab == K.AB_POWER_PER_HERO:
        return hero_count_nb(st, tb, s) > 0
    if ab == K.AB_POWER_CAULDRON:
        return st.sv[s, K.SV_CAULDRON] == 1
    if ab == K.AB_PIG_KEEPER:
        return pig_keeper_find_ok_nb(st, tb, s, c) or pig_keeper_defeat_ok_nb(st, tb, s, c)
    if ab == K.AB_FREE_ITEM:
        # Probe with the option list, then give it back as it was: the caller may be building it.
        n0 = st.g[K.G_NOPT]
        found = False
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_HAND and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                if add_card_placements_nb(st, tb, ru, s, k) > 0:
                    found = True
                    break
        st.g[K.G_NOPT] = n0
        return found
    return True


@kernel
def pig_keeper_find_ok_nb(st, tb, s, c):
    hen = tb.card[c, K.CF_REF0]
    if realm_instance_nb(st, s, hen) >= 0:
        return False
    return zone_instance_nb(st, s, hen, K.Z_FDECK) >= 0 or zone_instance_nb(st, s, hen, K.Z_FDISCARD) >= 0


@kernel
def pig_keeper_defeat_ok_nb(st, tb, s, c):
    for h in range(K.N_INST):
        if (
            st.inst[s, h, K.I_ZONE] == K.Z_REALM
            and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO
            and strength_nb(st, tb, s, h) == tb.card[c, K.CF_N]
        ):
            return True
    return False


@kernel
def add_card_placements_nb(st, tb, ru, s, k):
    """Add (O_PLAY, k, loc, host) for each way seat ``s`` may play Ally or Item ``k`` (cost aside)."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    n = 0
    if tb.card[c, K.CF_EXCLUSIVE] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_EXCLUSIVE]) >= 0:
        return 0
    if t == K.T_ALLY:
        if tb.card[c, K.CF_PASSIVE] == K.AB_CAULDRON_BORN:
            if ru[K.R_CAULDRON_BORN_PLAY_CARD] == 0 or st.sv[s, K.SV_CAULDRON] != 2:
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
                if tb.card[c, K.CF_PASSIVE] == K.AB_GRANTS_ACTIVATE and blocked_for_soldiers_nb(st, tb, s, loc):
                    continue
                opt_add_nb(st, K.O_PLAY, k, loc, -1)
                n += 1
    return n


@kernel
def blocked_for_soldiers_nb(st, tb, s, loc):
    for h in range(K.N_INST):
        if (
            st.inst[s, h, K.I_ZONE] == K.Z_REALM
            and st.inst[s, h, K.I_LOC] == loc
            and st.inst[s, h, K.I_TRAPPED] == 0
            and tb.card[st.inst[s, h, K.I_CARD], K.CF_PASSIVE] == K.AB_BLOCKS_ANCIENT_SOLDIERS
        ):
            return True
    return False


@kernel
def add_play_options_nb(st, tb, ru, s):
    """Add every card play seat ``s`` can make with a Play a Card action (one per distinct card)."""
    power = st.sv[s, K.SV_POWER]
    no_effects = passive_count_nb(st, tb, s, K.AB_NO_EFFECTS) > 0
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] != K.Z_HAND:
            continue
        c = st.inst[s, k, K.I_CARD]
        dup = False
        for j in range(k):
            if st.inst[s, j, K.I_ZONE] == K.Z_HAND and st.inst[s, j, K.I_CARD] == c:
                dup = True
                break
        if dup:
            continue
        t = tb.card[c, K.CF_TYPE]
        cost = play_cost_nb(st, tb, s, c)
        if cost > power or t == K.T_CONDITION or tb.card[c, K.CF_BLOCKED] != 0:
            continue
        if t == K.T_EFFECT:
            if not no_effects and villain_effect_doable_nb(st, tb, ru, s, c, power - cost):
                opt_add_nb(st, K.O_PLAY, k, -1, -1)
        else:
            add_card_placements_nb(st, tb, ru, s, k)


@kernel
def play_item_nb(st, tb, ru, s, k, loc, host, free):
    """Play Item ``k`` from seat ``s``'s hand to ``loc`` or attached to ``host`` (paying unless ``free``)."""
    c = st.inst[s, k, K.I_CARD]
    cost = 0 if free else play_cost_nb(st, tb, s, c)
    st.sv[s, K.SV_POWER] -= cost
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_PLAY, s, k, loc, host, cost)
    put_in_realm_nb(st, s, k, st.inst[s, host, K.I_LOC] if host >= 0 else loc, host)
    on_play_nb(st, tb, ru, s, k, s)
    if not free:
        st.g[K.G_TRIGGERS] |= K.TRIG_ITEM
        st.g[K.G_ITEM_ACTOR] = s


@helper
def play_villain_card_nb(st, tb, ru, s, k, loc, host):
    """Play card ``k`` from seat ``s``'s hand with a Play a Card action, paying its cost."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_ITEM:
        play_item_nb(st, tb, ru, s, k, loc, host, 0)
        return
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
        if tb.card[c, K.CF_PASSIVE] == K.AB_LUCIFER_TRAP and ru[K.R_LUCIFER_CONTINUOUS] == 0:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                if st.inst[s, h, K.I_LOC] == loc and trappable_nb(st, tb, s, h):
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            if st.g[K.G_NOPT] > 0:
                trap_nb(st, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, K.AB_LUCIFER_TRAP), 1])
        lucifer_sweep_nb(st, tb, ru, s)
    else:
        st.inst[s, k, K.I_ZONE] = K.Z_LIMBO
        resolve_effect_nb(st, tb, ru, s, k, s)
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)


@kernel
def discard_picks_nb(st, tb, ru, s, at_least_one, ctx):
    """Seat ``s`` discards cards from hand one at a time until it says done."""
    first = True
    while True:
        opt_clear_nb(st)
        if not (first and at_least_one):
            opt_add_nb(st, K.O_PASS, 0, 0, 0)
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
                opt_add_nb(st, K.O_CARD, k, s, 0)
        if st.g[K.G_NOPT] == 0:
            return
        i = decide_nb(st, tb, ru, s, s, K.DK_DISCARD, ctx)
        if st.opts[i, 0] == K.O_PASS:
            return
        discard_nb(st, s, st.opts[i, 1])
        first = False


@kernel
def pick_mode_nb(st, tb, ru, s, chooser, ctx, m0, ok0, m1, ok1):
    opt_clear_nb(st)
    if ok0:
        opt_add_nb(st, K.O_MODE, m0, 0, 0)
    if ok1:
        opt_add_nb(st, K.O_MODE, m1, 0, 0)
    if st.g[K.G_NOPT] == 0:
        return -1
    return st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_MODE, ctx), 1]


@kernel
def resolve_effect_nb(st, tb, ru, s, k, chooser):
    """Resolve the Effect or Condition ``k`` in seat ``s``'s Realm; ``chooser`` makes its choices."""
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    if ab == K.AB_REMOVE_OBSTACLES:
        remove_obstacles_nb(st, tb, ru, s, n, chooser, ab)
    elif ab == K.AB_REMOVE_OBSTACLES_ONE_LOCATION:
        if can_remove_obstacle_nb(st, tb, s):
            opt_clear_nb(st)
            for loc in range(K.N_LOC):
                if st.sv[s, K.SV_OBST + loc] > 0:
                    opt_add_nb(st, K.O_LOC, loc, 0, 0)
            loc = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_LOCATION, ab), 1]
            for _ in range(n):
                if st.sv[s, K.SV_OBST + loc] > 0 and not over_nb(st):
                    remove_obstacle_at_nb(st, tb, ru, s, loc)
    elif ab == K.AB_SWOON:
        replace_obstacles_nb(st, tb, ru, s, 1, chooser, ab)
        if pick_mode_nb(st, tb, ru, s, chooser, ab, K.M_GAIN, 1, K.M_DRAW, 1) == K.M_GAIN:
            gain_power_nb(st, s, n)
        else:
            draw_n_nb(st, s, n)
    elif ab == K.AB_EXTRA_VANQUISH:
        st.g[K.G_ACTIONS] += 1
        choose_vanquish_nb(st, tb, ru, s, ab)
    elif ab == K.AB_EXTRA_MOVE:
        st.g[K.G_ACTIONS] += 1
        choose_move_nb(st, tb, ru, s, ab)
    elif ab == K.AB_EXTRA_MOVE_OR_ACTIVATE:
        st.g[K.G_ACTIONS] += 1
        mode = pick_mode_nb(
            st,
            tb,
            ru,
            s,
            chooser,
            ab,
            K.M_MOVE,
            any_move_nb(st, tb, s, 0),
            K.M_ACTIVATE,
            any_activate_nb(st, tb, ru, s, st.sv[s, K.SV_POWER]),
        )
        if mode == K.M_MOVE:
            choose_move_nb(st, tb, ru, s, ab)
        elif mode == K.M_ACTIVATE:
            choose_activate_nb(st, tb, ru, s, ab)
    elif ab == K.AB_DEFEAT_HERO_MAX_STRENGTH:
        opt_clear_nb(st)
        for h in range(K.N_INST):
            if (
                st.inst[s, h, K.I_ZONE] == K.Z_REALM
                and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO
                and strength_nb(st, tb, s, h) <= n
            ):
                opt_add_nb(st, K.O_CARD, h, s, 0)
        if st.g[K.G_NOPT] > 0:
            defeat_hero_nb(st, tb, ru, s, st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1], 0, chooser)
    elif ab == K.AB_REVEAL_UNTIL_ALLY:
        reveal_until_ally_nb(st, tb, s)
    elif ab == K.AB_TAKE_ME_INSTEAD:
        take_me_instead_nb(st, tb, ru, s, c, chooser)
    elif ab == K.AB_SHOW_ME_THE_BEAST:
        beast = realm_instance_nb(st, s, tb.card[c, K.CF_REF0]) >= 0
        belle = realm_instance_nb(st, s, tb.card[c, K.CF_REF1]) >= 0
        if beast and belle:
            gain_power_nb(st, s, n)
        elif beast:
            remove_obstacles_nb(st, tb, ru, s, 1, chooser, ab)
        elif belle:
            replace_obstacles_nb(st, tb, ru, s, 1, chooser, ab)
    elif ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
        opt_clear_nb(st)
        for h in range(K.N_VCARDS, K.N_INST):
            if st.inst[s, h, K.I_ZONE] == K.Z_FDISCARD and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                hero_placements_nb(st, tb, s, h, h)
        if st.g[K.G_NOPT] > 0:
            i = decide_nb(st, tb, ru, s, chooser, K.DK_FATE_PICK, ab)
            h = st.opts[i, 1]
            loc = st.opts[i, 2]
            st.inst[s, h, K.I_ZONE] = K.Z_LIMBO
            log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
            play_hero_nb(st, tb, ru, s, h, loc, chooser)
    elif ab == K.AB_REPLACE_ONE_EACH_LOCATION:
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) > 0:
                replace_obstacle_at_nb(st, s, loc)
    elif ab == K.AB_REPLACE_OBSTACLES:
        replace_obstacles_nb(st, tb, ru, s, n, chooser, ab)
    elif ab == K.AB_MAGIC_MIRROR:
        beast = tb.card[c, K.CF_REF0]
        if realm_instance_nb(st, s, beast) < 0:
            h = find_nb(st, s, beast, 0)
            if h >= 0:
                loc = pick_location_nb(st, tb, ru, chooser, s, beast, -1, ab)
                log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
                play_hero_nb(st, tb, ru, s, h, loc, chooser)
        discard_nb(st, s, k)
        fate_discard_into_deck_nb(st, s)
    elif ab == K.AB_REPLACE_ALL_ONE_LOCATION:
        opt_clear_nb(st)
        for loc in range(K.N_LOC):
            if missing_at_nb(st, tb, s, loc) > 0:
                opt_add_nb(st, K.O_LOC, loc, 0, 0)
        if st.g[K.G_NOPT] > 0:
            loc = st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_LOCATION, ab), 1]
            while missing_at_nb(st, tb, s, loc) > 0:
                replace_obstacle_at_nb(st, s, loc)
    elif ab == K.AB_RESHUFFLE_DISCARD_DRAW:
        villain_discard_into_deck_nb(st, s)
        draw_n_nb(st, s, n)
    elif ab == K.AB_TRAP_HERO:
        opt_clear_nb(st)
        for h in range(K.N_INST):
            if trappable_nb(st, tb, s, h):
                opt_add_nb(st, K.O_CARD, h, s, 0)
        if st.g[K.G_NOPT] > 0:
            trap_nb(st, s, st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1])
    elif ab == K.AB_REFRESH_HAND:
        discard_picks_nb(st, tb, ru, s, 0, ab)
        while hand_size_nb(st, s) < 4:
            if draw_nb(st, s) < 0:
                break
    elif ab == K.AB_RESHUFFLE_FATE_ARRANGE:
        fate_discard_into_deck_nb(st, s)
        # Take the top n and put them back one by one: the first chosen ends on top.
        got = 0
        for _ in range(n):
            if st.sv[s, K.SV_FDECK_N] == 0:
                break
            top = st.fdeck[s, st.sv[s, K.SV_FDECK_N] - 1]
            st.sv[s, K.SV_FDECK_N] -= 1
            st.mark[got] = top
            got += 1
        for placed in range(got):
            opt_clear_nb(st)
            for j in range(got):
                if st.mark[j] >= 0:
                    opt_add_nb(st, K.O_CARD, st.mark[j], s, j)
            i = decide_nb(st, tb, ru, s, chooser, K.DK_ARRANGE, ab)
            j = st.opts[i, 3]
            st.tmp[placed] = st.mark[j]
            st.mark[j] = -1
        for placed in range(got - 1, -1, -1):
            put_on_fate_deck_nb(st, s, st.tmp[placed])
    elif ab == K.AB_DEFEAT_NAMED_HERO:
        opt_clear_nb(st)
        for ref in (tb.card[c, K.CF_REF0], tb.card[c, K.CF_REF1]):
            h = realm_instance_nb(st, s, ref)
            if h >= 0:
                opt_add_nb(st, K.O_CARD, h, s, 0)
        if st.g[K.G_NOPT] > 0:
            defeat_hero_nb(st, tb, ru, s, st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1], 0, chooser)
    elif ab == K.AB_MIDNIGHT:
        for h in range(K.N_INST):
            if st.inst[s, h, K.I_ZONE] == K.Z_REALM and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                defeat_hero_nb(st, tb, ru, s, h, 0, chooser)
        fetch_slippers_nb(st, tb, s)
    elif ab == K.AB_UNTRAP_AND_MOVE:
        opt_clear_nb(st)
        for h in range(K.N_INST):
            if (
                st.inst[s, h, K.I_ZONE] == K.Z_REALM
                and st.inst[s, h, K.I_TRAPPED] != 0
                and st.sv[s, K.SV_LOCK + st.inst[s, h, K.I_LOC]] == 0
            ):
                for dest in range(K.N_LOC):
                    if dest != st.inst[s, h, K.I_LOC] and can_enter_nb(st, tb, s, st.inst[s, h, K.I_CARD], dest):
                        opt_add_nb(st, K.O_MOVE, h, dest, 0)
        if st.g[K.G_NOPT] > 0:
            i = decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab)
            h = st.opts[i, 1]
            dest = st.opts[i, 2]
            untrap_nb(st, s, h)
            move_hero_nb(st, tb, ru, s, h, dest, chooser)
    elif ab == K.AB_MOVE_OPPONENT_ALLY:
        opt_clear_nb(st)
        add_move_options_nb(st, tb, s, 1, 1)
        if st.g[K.G_NOPT] > 0:
            i = decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab)
            move_card_nb(st, tb, ru, s, st.opts[i, 1], st.opts[i, 2])
    elif ab == K.AB_FREE_ITEM:
        opt_clear_nb(st)
        for j in range(K.N_VCARDS):
            if st.inst[s, j, K.I_ZONE] == K.Z_HAND and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                add_card_placements_nb(st, tb, ru, s, j)
        if st.g[K.G_NOPT] > 0:
            i = decide_nb(st, tb, ru, s, chooser, K.DK_PLACE, ab)
            play_item_nb(st, tb, ru, s, st.opts[i, 1], st.opts[i, 2], st.opts[i, 3], 1)
    elif ab == K.AB_POWER_CAULDRON:
        if st.sv[s, K.SV_CAULDRON] == 1:
            set_cauldron_nb(st, s, 2)
    elif ab == K.AB_CLAIM_OR_GAIN:
        if pick_mode_nb(st, tb, ru, s, chooser, ab, K.M_CLAIM, st.sv[s, K.SV_CAULDRON] == 0, K.M_GAIN, 1) == K.M_CLAIM:
            claim_cauldron_nb(st, s)
        else:
            gain_power_nb(st, s, n)
    elif ab == K.AB_POWER_PER_HERO:
        gain = hero_count_nb(st, tb, s)
        gain_power_nb(st, s, gain)
    elif ab == K.AB_PIG_KEEPER:
        mode = pick_mode_nb(
            st,
            tb,
            ru,
            s,
            chooser,
            ab,
            K.M_FIND,
            pig_keeper_find_ok_nb(st, tb, s, c),
            K.M_DEFEAT,
            pig_keeper_defeat_ok_nb(st, tb, s, c),
        )
        if mode == K.M_FIND:
            h = find_nb(st, s, tb.card[c, K.CF_REF0], 0)
            loc = pick_location_nb(st, tb, ru, chooser, s, tb.card[c, K.CF_REF0], -1, ab)
            log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
            play_hero_nb(st, tb, ru, s, h, loc, chooser)
        elif mode == K.M_DEFEAT:
            opt_clear_nb(st)
            for h in range(K.N_INST):
                if (
                    st.inst[s, h, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO
                    and strength_nb(st, tb, s, h) == n
                ):
                    opt_add_nb(st, K.O_CARD, h, s, 0)
            defeat_hero_nb(st, tb, ru, s, st.opts[decide_nb(st, tb, ru, s, chooser, K.DK_CARD, ab), 1], 0, chooser)
    elif ab == K.AB_BARGAIN:
        can_claim = st.sv[s, K.SV_CAULDRON] == 0 and st.sv[s, K.SV_POWER] >= n
        if pick_mode_nb(st, tb, ru, s, chooser, ab, K.M_SHUFFLE, 1, K.M_CLAIM, can_claim) == K.M_CLAIM:
            st.sv[s, K.SV_POWER] -= n
            log_nb(st, K.EV_POWER_LOSS, s, n, st.sv[s, K.SV_POWER], 0, 0)
            d = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
            if d >= 0:
                discard_nb(st, s, d)
            claim_cauldron_nb(st, s)
        else:
            villain_discard_into_deck_nb(st, s)
    elif ab == K.AB_DRAW:
        draw_n_nb(st, s, n)
    elif ab == K.AB_DISCARD_HAND_DRAW:
        for j in range(K.N_VCARDS):
            if st.inst[s, j, K.I_ZONE] == K.Z_HAND:
                discard_nb(st, s, j)
        draw_n_nb(st, s, n)
    elif ab == K.AB_DEPOWER_CAULDRON:
        if st.sv[s, K.SV_CAULDRON] == 2:
            set_cauldron_nb(st, s, 1)


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
            st.inst[s, k, K.I_ZONE] = K.Z_HAND
            log_nb(st, K.EV_TO_HAND, s, k, 0, 0, 0)
            break
        st.inst[s, k, K.I_ZONE] = K.Z_LIMBO
        st.mark[k] = 1
    for k in range(K.N_VCARDS):
        if st.mark[k] != 0:
            discard_nb(st, s, k)


@kernel
def take_me_instead_nb(st, tb, ru, s, c, chooser):
    """Reveal Fate cards until a Hero, play it to Beast's Castle, remove an Obstacle; the rest go back."""
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
    if hero >= 0:
        loc = tb.card[c, K.CF_LOCATION]
        log_nb(st, K.EV_FATE_PLAY, s, hero, loc, -1, chooser)
        play_hero_nb(st, tb, ru, s, hero, loc, chooser)
    remove_obstacles_nb(st, tb, ru, s, tb.card[c, K.CF_N], chooser, K.AB_TAKE_ME_INSTEAD)


# ============================================================================ Conditions


@kernel
def condition_window_nb(st, tb, ru, trigger, actor):
    """Each opponent of ``actor``, in turn order, may play Conditions that ``trigger`` allows."""
    P = st.g[K.G_NSEATS]
    for d in range(1, P):
        o = (actor + d) % P
        while not over_nb(st):
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
                if not dup and villain_effect_doable_nb(st, tb, ru, o, c, st.sv[o, K.SV_POWER]):
                    opt_add_nb(st, K.O_CARD, k, o, 0)
            if st.g[K.G_NOPT] == 1:
                break
            i = decide_nb(st, tb, ru, o, o, K.DK_CONDITION, trigger)
            if st.opts[i, 0] == K.O_PASS:
                break
            k = st.opts[i, 1]
            st.inst[o, k, K.I_FLAGS] |= K.FLAG_PLAYED
            st.inst[o, k, K.I_ZONE] = K.Z_LIMBO
            log_nb(st, K.EV_CONDITION, o, k, 0, 0, 0)
            resolve_effect_nb(st, tb, ru, o, k, o)
            if st.inst[o, k, K.I_ZONE] == K.Z_LIMBO:
                discard_nb(st, o, k)


# ============================================================================ the turn


@helper
def add_action_options_nb(st, tb, ru, s):
    """Fill ``st.opts`` with the actions available now (O_PASS = end the actions first)."""
    opt_clear_nb(st)
    opt_add_nb(st, K.O_PASS, 0, 0, 0)
    loc = st.sv[s, K.SV_MOVER]
    v = st.sv[s, K.SV_VILLAIN]
    for j in range(tb.locs[v, loc, K.LC_NSYM]):
        if tb.syms[v, loc, j, K.SY_KIND] == K.S_GAIN and symbol_available_nb(st, tb, ru, s, loc, j):
            opt_add_nb(st, K.O_GAIN, j, tb.syms[v, loc, j, K.SY_VAL], 0)
    if first_symbol_nb(st, tb, ru, s, K.S_PLAY) >= 0:
        add_play_options_nb(st, tb, ru, s)
    if first_symbol_nb(st, tb, ru, s, K.S_ACTIVATE) >= 0 or granted_activates_nb(st, tb, s) > 0:
        add_activate_options_nb(st, tb, ru, s)
    if first_symbol_nb(st, tb, ru, s, K.S_MOVE) >= 0:
        add_move_options_nb(st, tb, s, 0, 0)
    if first_symbol_nb(st, tb, ru, s, K.S_FATE) >= 0:
        P = st.g[K.G_NSEATS]
        for d in range(1, P):
            opt_add_nb(st, K.O_FATE, (s + d) % P, 0, 0)
    if first_symbol_nb(st, tb, ru, s, K.S_VANQUISH) >= 0:
        add_vanquish_options_nb(st, tb, s)
    if first_symbol_nb(st, tb, ru, s, K.S_DISCARD) >= 0 and hand_size_nb(st, s) > 0:
        opt_add_nb(st, K.O_DISCARD, 0, 0, 0)


@kernel
def use_symbol_nb(st, tb, ru, s, kind):
    j = first_symbol_nb(st, tb, ru, s, kind)
    if j >= 0:
        st.g[K.G_USED] |= 1 << j
    elif kind == K.S_ACTIVATE:
        st.g[K.G_AS_USED] += 1


@helper
def take_action_nb(st, tb, ru, s, code, a, b, c):
    """Perform the chosen action (its symbol is used up first)."""
    st.g[K.G_ACTIONS] += 1
    if code == K.O_GAIN:
        st.g[K.G_USED] |= 1 << a
        gain_power_nb(st, s, b)
    elif code == K.O_PLAY:
        use_symbol_nb(st, tb, ru, s, K.S_PLAY)
        play_villain_card_nb(st, tb, ru, s, a, b, c)
    elif code == K.O_ACTIVATE:
        use_symbol_nb(st, tb, ru, s, K.S_ACTIVATE)
        activate_nb(st, tb, ru, s, a)
    elif code == K.O_MOVE:
        use_symbol_nb(st, tb, ru, s, K.S_MOVE)
        move_card_nb(st, tb, ru, s, a, b)
    elif code == K.O_FATE:
        use_symbol_nb(st, tb, ru, s, K.S_FATE)
        fate_action_nb(st, tb, ru, s, a)
    elif code == K.O_VANQUISH:
        use_symbol_nb(st, tb, ru, s, K.S_VANQUISH)
        vanquish_nb(st, tb, ru, s, a)
    elif code == K.O_DISCARD:
        use_symbol_nb(st, tb, ru, s, K.S_DISCARD)
        discard_picks_nb(st, tb, ru, s, 1, 0)
        st.g[K.G_TRIGGERS] |= K.TRIG_DISCARD


@helper
def after_action_nb(st, tb, ru, s):
    """Open the Condition windows raised by the action just taken."""
    trig = st.g[K.G_TRIGGERS]
    st.g[K.G_TRIGGERS] = 0
    if trig & K.TRIG_VANQUISH:
        condition_window_nb(st, tb, ru, K.C_OPPONENT_VANQUISH_ACTION, s)
    if trig & K.TRIG_DISCARD:
        condition_window_nb(st, tb, ru, K.C_OPPONENT_DISCARD_ACTION, s)
    if trig & K.TRIG_ITEM:
        condition_window_nb(st, tb, ru, K.C_OPPONENT_PLAYS_ITEM, st.g[K.G_ITEM_ACTOR])
    if st.g[K.G_ACTIONS] >= 4:
        condition_window_nb(st, tb, ru, K.C_OPPONENT_FOUR_ACTIONS, s)


@kernel
def check_objectives_nb(st, tb, ru):
    """Objectives checked between steps (the Horned King's; Gaston's in the start-of-turn variant is in step)."""
    for s in range(st.g[K.G_NSEATS]):
        if over_nb(st):
            return
        if tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE] == K.OBJ_CAULDRON and st.sv[s, K.SV_CAULDRON] > 0:
            if cauldron_born_everywhere_nb(st, tb, s):
                declare_win_nb(st, s)


@helper
def step_nb(st, tb, ru):
    """Play one step of the game: a phase of the turn, or one action."""
    s = st.g[K.G_ACTIVE]
    ph = st.g[K.G_PHASE]
    if ph == K.PH_START:
        st.sv[s, K.SV_TURNS] += 1
        st.g[K.G_ACTIONS] = 0
        st.g[K.G_USED] = 0
        st.g[K.G_AS_USED] = 0
        st.g[K.G_TRIGGERS] = 0
        st.sv[s, K.SV_SWAP_USED] = 0
        log_nb(st, K.EV_TURN, s, st.g[K.G_ROUND], st.sv[s, K.SV_POWER], st.sv[s, K.SV_MOVER], 0)
        v = st.sv[s, K.SV_VILLAIN]
        if (
            tb.vil[v, K.VF_OBJECTIVE] == K.OBJ_OBSTACLES
            and ru[K.R_GASTON_WINS_AT_START_OF_TURN] != 0
            and obstacles_total_nb(st, s) == 0
        ):
            declare_win_nb(st, s)
            return
        if st.sv[s, K.SV_CAULDRON] == 1:
            # The Black Cauldron's front side: discard one Cauldron Born.
            opt_clear_nb(st)
            for k in range(K.N_VCARDS):
                if (
                    st.inst[s, k, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_CAULDRON_BORN
                ):
                    opt_add_nb(st, K.O_CARD, k, s, 0)
            if st.g[K.G_NOPT] > 0:
                discard_nb(st, s, st.opts[decide_nb(st, tb, ru, s, s, K.DK_CARD, K.AB_FLIP_CAULDRON), 1])
        st.g[K.G_PHASE] = K.PH_BEFORE_MOVE
    elif ph == K.PH_BEFORE_MOVE:
        cost = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_SWAP_COST]
        if st.sv[s, K.SV_CAULDRON] == 2 and st.sv[s, K.SV_SWAP_USED] == 0 and st.sv[s, K.SV_POWER] >= cost:
            opt_clear_nb(st)
            opt_add_nb(st, K.O_PASS, 0, 0, 0)
            cb = -1
            for k in range(K.N_VCARDS):
                if (
                    st.inst[s, k, K.I_ZONE] == K.Z_HAND
                    and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_CAULDRON_BORN
                    and tb.card[st.inst[s, k, K.I_CARD], K.CF_BLOCKED] == 0
                ):
                    cb = k
                    break
            if cb >= 0:
                for k in range(K.N_VCARDS):
                    if (
                        st.inst[s, k, K.I_ZONE] == K.Z_REALM
                        and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_GRANTS_ACTIVATE
                    ):
                        dup = False
                        for j in range(1, st.g[K.G_NOPT]):
                            if st.inst[s, st.opts[j, 1], K.I_LOC] == st.inst[s, k, K.I_LOC]:
                                dup = True
                        if dup:
                            continue
                        for dest in range(K.N_LOC):
                            same = dest == st.inst[s, k, K.I_LOC]
                            if (same or ru[K.R_CAULDRON_BORN_ANY_LOCATION] != 0) and can_enter_nb(
                                st, tb, s, st.inst[s, cb, K.I_CARD], dest
                            ):
                                opt_add_nb(st, K.O_SWAP, k, cb, dest)
            if st.g[K.G_NOPT] > 1:
                i = decide_nb(st, tb, ru, s, s, K.DK_SWAP, 0)
                if st.opts[i, 0] == K.O_SWAP:
                    soldier = st.opts[i, 1]
                    dest = st.opts[i, 3]
                    st.sv[s, K.SV_POWER] -= cost
                    st.sv[s, K.SV_SWAP_USED] = 1
                    log_nb(st, K.EV_SWAP, s, soldier, cb, dest, cost)
                    discard_nb(st, s, soldier)
                    put_in_realm_nb(st, s, cb, dest, -1)
                    st.inst[s, cb, K.I_FLAGS] |= K.FLAG_PLAYED
        st.g[K.G_PHASE] = K.PH_MOVE
    elif ph == K.PH_MOVE:
        opt_clear_nb(st)
        here = st.sv[s, K.SV_MOVER]
        for loc in range(K.N_LOC):
            if loc != here and st.sv[s, K.SV_LOCK + loc] == 0:
                opt_add_nb(st, K.O_LOC, loc, 0, 0)
        dest = st.opts[decide_nb(st, tb, ru, s, s, K.DK_MOVE, 0), 1]
        st.sv[s, K.SV_MOVER] = dest
        log_nb(st, K.EV_MOVE_MOVER, s, dest, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_ACTIONS
    elif ph == K.PH_ACTIONS:
        add_action_options_nb(st, tb, ru, s)
        i = decide_nb(st, tb, ru, s, s, K.DK_ACTION, 0)
        code = st.opts[i, 0]
        if code == K.O_PASS:
            st.g[K.G_PHASE] = K.PH_END
        else:
            take_action_nb(st, tb, ru, s, code, st.opts[i, 1], st.opts[i, 2], st.opts[i, 3])
            if not over_nb(st):
                after_action_nb(st, tb, ru, s)
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


@kernel
def advance_nb(st, tb, ru, max_steps):
    """Play steps until the game ends, ``max_steps`` are done, or the script runs out (scenario mode)."""
    done = 0
    while st.g[K.G_PHASE] != K.PH_OVER and done < max_steps and st.g[K.G_STOP] == 0:
        step_nb(st, tb, ru)
        done += 1
    return done


@kernel
def setup_nb(st, tb, ru, villains, strategies, params, seed, game_index):
    """Set up a game per the rulebook: shuffled decks, 4-card hands, Power 0/1/2 by seat, movers left-most.

    villains, strategies: int64 (P,) villain row and strategy kernel id per seat; params: float64 (P, N_SPARAMS).
    """
    P = villains.shape[0]
    st.g[:] = 0
    st.g[K.G_NSEATS] = P
    st.g[K.G_WINNER] = -1
    st.g[K.G_ROUND] = 1
    st.g[K.G_SCRIPT_N] = -1
    st.g[K.G_PHASE] = K.PH_START
    seed_stream_nb(st.rng, seed, game_index)
    for s in range(P):
        v = villains[s]
        st.sv[s, :] = 0
        st.sv[s, K.SV_VILLAIN] = v
        st.sv[s, K.SV_POWER] = s if s < 3 else 3
        st.sv[s, K.SV_STRATEGY] = strategies[s]
        for j in range(params.shape[1]):
            st.sparams[s, j] = params[s, j]
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
        # A deck shortened by a card edit leaves its last slots out of the game.
        nv = 0
        for k in range(K.N_VCARDS):
            if tb.v_out[v, k] != 0:
                st.inst[s, k, K.I_ZONE] = K.Z_OUT
            else:
                st.inst[s, k, K.I_ZONE] = K.Z_VDECK
                st.vdeck[s, nv] = k
                nv += 1
        nf = 0
        for k in range(K.N_FCARDS):
            if tb.v_out[v, K.N_VCARDS + k] != 0:
                st.inst[s, K.N_VCARDS + k, K.I_ZONE] = K.Z_OUT
            else:
                st.inst[s, K.N_VCARDS + k, K.I_ZONE] = K.Z_FDECK
                st.fdeck[s, nf] = K.N_VCARDS + k
                nf += 1
        st.sv[s, K.SV_VDECK_N] = nv
        st.sv[s, K.SV_FDECK_N] = nf
    for s in range(P):
        shuffle_villain_deck_nb(st, s)
        shuffle_fate_deck_nb(st, s)
    for s in range(P):
        draw_n_nb(st, s, 4)
