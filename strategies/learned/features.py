"""A position as one seat sees it: the features the learned value model reads (:mod:`strategies.learned.value`).

From seat ``s``'s view, using only what that player may see: its own hand (what each card is), every seat's Power,
each Realm's public cards (Allies, Items, Heroes and their current Strength), objective progress, the counts of
every deck, discard pile and hand, locked locations, the turn and the seats. The opponents are summed up by the one
furthest along (its block of features) and, in a 3-player game, the other's progress. Nothing an opponent holds
hidden (its hand's cards, any deck's order) is read, so redrawing the hidden cards leaves the features unchanged
(``tests/test_learned.py``).

Beyond those (:func:`all_features_nb`, :data:`ALL_FEATURE_NAMES`), which of its own cards a seat holds: each card
of its Villain deck (by its place in the data, so slot ``j`` is a different card for each villain, read beside the
villain's one-hot) counted in its hand, its Realm and its discard pile; each card of its Fate deck in its Realm;
and each card of the furthest opponent's Villain deck in that opponent's Realm and discard pile. Counting cards by
kind misses what a villain's objective hunts (Lady Tremaine's daughters and their Ball Gowns, the Invitation,
Wedding Bells). Then the board (:data:`BOARD_NAMES`, for the seat and the furthest opponent): where the Heroes and
Allies stand, which top rows are covered, and what the locations the seat can move to next offer. A model reads the
first features of :data:`ALL_FEATURE_NAMES` (:data:`strategies.learned.value.FEATURE_SETS`): the base ones, those
and the key cards, or all of them.

Progress is each villain's objective as the heuristic measures it with the parameters in that seat's
``State.sparams`` row: compute features on a state whose rows are heuristic vectors (a scripted game's, or a search
world's), and on a copy if the game goes on (the measure is memoised in the state).
"""

from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS, count_nb, lowest_nb
from simlab.kernels.compile import as_ptr, kernel, ref
from simlab.kernels.query import allies_strength_at_nb, can_vanquish_nb, covered_nb, strength_nb
from strategies.heuristic import progress_nb

# one seat's public block (PUBLIC names, in order); a value is scaled to about 0..1 by the divisor beside it
PUBLIC = (
    ("progress", 1.0),
    ("progress4", 1.0),  # a villain one step from its objective wins more often than a line says
    ("power", 10.0),
    ("allies", 4.0),
    ("ally_strength", 12.0),
    ("items", 4.0),
    ("heroes", 4.0),
    ("hero_strength", 16.0),
    ("fate_items", 4.0),  # Fate Items, on Heroes or at a location
    ("trapped", 2.0),
    ("hand", 6.0),
    ("villain_deck", 30.0),
    ("villain_discard", 30.0),
    ("fate_deck", 15.0),
    ("fate_discard", 15.0),
    ("locked", 2.0),
    ("obstacles", 8.0),
    ("turns", 20.0),
)
# the deciding seat's own hand, which only it sees
HAND = (
    ("hand_cost", 20.0),
    ("hand_top_cost", 8.0),
    ("hand_allies", 4.0),
    ("hand_items", 3.0),
    ("hand_effects", 4.0),
    ("hand_conditions", 2.0),
)
GAME = (
    ("first_seat", 1.0),  # this seat plays first
    ("my_turn", 1.0),  # this seat's turn is the one under way (or next)
    ("three_players", 1.0),
    ("round", 20.0),
    ("third_progress", 1.0),  # in a 3-player game, the other opponent's progress (else 0)
)
N_VILLAIN_ROWS = 3  # one-hot villain rows (a row beyond them reads as none)
N_PUBLIC = len(PUBLIC)
N_HAND = len(HAND)
N_GAME = len(GAME)
PUBLIC_SCALE = tuple(d for _, d in PUBLIC)
HAND_SCALE = tuple(d for _, d in HAND)
GAME_SCALE = tuple(d for _, d in GAME)
ME = 0
RIVAL = N_PUBLIC
HAND_AT = 2 * N_PUBLIC
GAME_AT = HAND_AT + len(HAND)
MY_VILLAIN = GAME_AT + len(GAME)
RIVAL_VILLAIN = MY_VILLAIN + N_VILLAIN_ROWS
N_FEATURES = RIVAL_VILLAIN + N_VILLAIN_ROWS
FEATURE_NAMES = (
    tuple(f"my_{n}" for n, _ in PUBLIC)
    + tuple(f"rival_{n}" for n, _ in PUBLIC)
    + tuple(n for n, _ in HAND)
    + tuple(n for n, _ in GAME)
    + tuple(f"my_villain_{i}" for i in range(N_VILLAIN_ROWS))
    + tuple(f"rival_villain_{i}" for i in range(N_VILLAIN_ROWS))
)

# the key-card block: per slot of a deck, in this order (a count of copies); N_VILLAIN_SLOTS and N_FATE_SLOTS hold the
# largest deck's distinct cards (tests/test_learned.py checks the card data fits)
N_VILLAIN_SLOTS = 18
N_FATE_SLOTS = 14
KEY = (
    ("my_hand_card", N_VILLAIN_SLOTS),
    ("my_realm_card", N_VILLAIN_SLOTS),
    ("my_discard_card", N_VILLAIN_SLOTS),
    ("my_realm_fate", N_FATE_SLOTS),
    ("rival_realm_card", N_VILLAIN_SLOTS),
    ("rival_discard_card", N_VILLAIN_SLOTS),
)
KEY_AT = N_FEATURES
MY_HAND_CARD = KEY_AT
MY_REALM_CARD = MY_HAND_CARD + N_VILLAIN_SLOTS
MY_DISCARD_CARD = MY_REALM_CARD + N_VILLAIN_SLOTS
MY_REALM_FATE = MY_DISCARD_CARD + N_VILLAIN_SLOTS
RIVAL_REALM_CARD = MY_REALM_FATE + N_FATE_SLOTS
RIVAL_DISCARD_CARD = RIVAL_REALM_CARD + N_VILLAIN_SLOTS
KEY_END = RIVAL_DISCARD_CARD + N_VILLAIN_SLOTS
KEY_NAMES = tuple(f"{name}_{j}" for name, n in KEY for j in range(n))

# the board block, for the seat and then its rival: per location (by its index on the villain's board) the Strength
# of the Heroes there, the Strength of the Allies that could join a Vanquish there and whether its top row is covered;
# then, over the locations the seat could move to on its next turn (not its mover's, not locked), how many offer each
# action symbol uncovered, the most Power one offers, and how many Heroes a Vanquish could defeat now. Counts by kind
# miss where things stand: a Hero covering the one Gain location, Allies at the wrong location, a mover boxed in.
# (The widest model, every feature, must fit in State.sparams beside the search's settings: strategies/search.py.)
BOARD_AT_LOCATION = (
    ("hero_strength_at", 8.0),
    ("ally_strength_at", 8.0),
    ("covered_at", 1.0),
)
BOARD_REACH = tuple((f"reach_{name}", 3.0) for name in K.SYMBOL_NAMES) + (
    ("reach_top_gain", 4.0),
    ("vanquishable", 2.0),
)
N_BOARD_AT = len(BOARD_AT_LOCATION)
N_BOARD = N_BOARD_AT * K.N_LOC + len(BOARD_REACH)
BOARD_AT_SCALE = tuple(d for _, d in BOARD_AT_LOCATION)
BOARD_REACH_SCALE = tuple(d for _, d in BOARD_REACH)
MY_BOARD = KEY_END
RIVAL_BOARD = MY_BOARD + N_BOARD
N_ALL_FEATURES = RIVAL_BOARD + N_BOARD
BOARD_NAMES = tuple(f"{name}_{loc}" for loc in range(K.N_LOC) for name, _ in BOARD_AT_LOCATION) + tuple(
    name for name, _ in BOARD_REACH
)
ALL_FEATURE_NAMES = (
    FEATURE_NAMES + KEY_NAMES + tuple(f"my_{n}" for n in BOARD_NAMES) + tuple(f"rival_{n}" for n in BOARD_NAMES)
)


@kernel
def seat_progress_nb(st, tb, ru, s):
    """Seat ``s``'s progress to its objective, 0 to 1, measured with the parameters of its ``sparams`` row."""
    return progress_nb(ref(st), ref(tb), as_ptr(ru), as_ptr(st.sparams[s]), s)


@kernel
def public_nb(st, tb, ru, s, progress, out, at):
    """Seat ``s``'s public block into ``out[at:at + N_PUBLIC]`` (``progress``: its progress, found by the caller)."""
    realm = st.sv[s, K.SV_ZONE + K.Z_REALM]
    allies = 0
    ally_strength = 0
    items = 0
    m = realm & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        kind = tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE]
        if kind == K.T_ALLY:
            allies += 1
            ally_strength += strength_nb(st, tb, s, k)
        elif kind == K.T_ITEM:
            items += 1
    heroes = 0
    hero_strength = 0
    fate_items = 0
    trapped = 0
    m = realm & FATE_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        kind = tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE]
        if kind == K.T_HERO:
            heroes += 1
            hero_strength += strength_nb(st, tb, s, k)
            trapped += st.inst[s, k, K.I_TRAPPED]
        elif kind == K.T_ITEM:
            fate_items += 1
    locked = 0
    obstacles = 0
    for loc in range(K.N_LOC):
        locked += st.sv[s, K.SV_LOCK + loc]
        obstacles += st.sv[s, K.SV_OBST + loc]
    values = (
        progress,
        progress * progress * progress * progress,
        float(st.sv[s, K.SV_POWER]),
        float(allies),
        float(ally_strength),
        float(items),
        float(heroes),
        float(hero_strength),
        float(fate_items),
        float(trapped),
        float(count_nb(st.sv[s, K.SV_ZONE + K.Z_HAND])),
        float(st.sv[s, K.SV_VDECK_N]),
        float(count_nb(st.sv[s, K.SV_ZONE + K.Z_VDISCARD])),
        float(st.sv[s, K.SV_FDECK_N]),
        float(count_nb(st.sv[s, K.SV_ZONE + K.Z_FDISCARD])),
        float(locked),
        float(obstacles),
        float(st.sv[s, K.SV_TURNS]),
    )
    for i in range(N_PUBLIC):
        out[at + i] = values[i] / PUBLIC_SCALE[i]


@kernel
def hand_nb(st, tb, s, out):
    """Seat ``s``'s own hand into ``out[HAND_AT:GAME_AT]``."""
    cost = 0
    top = 0
    allies = 0
    items = 0
    effects = 0
    conditions = 0
    m = st.sv[s, K.SV_ZONE + K.Z_HAND]
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        kind = tb.card[c, K.CF_TYPE]
        cost += tb.card[c, K.CF_COST]
        top = max(top, tb.card[c, K.CF_COST])
        if kind == K.T_ALLY:
            allies += 1
        elif kind == K.T_ITEM:
            items += 1
        elif kind == K.T_EFFECT:
            effects += 1
        elif kind == K.T_CONDITION:
            conditions += 1
    values = (float(cost), float(top), float(allies), float(items), float(effects), float(conditions))
    for i in range(N_HAND):
        out[HAND_AT + i] = values[i] / HAND_SCALE[i]


@kernel
def features_nb(st, tb, ru, s, out):
    """Seat ``s``'s view of ``st`` into ``out`` (float64, N_FEATURES; see the module's docstring); returns the
    opponent its rival block describes (the one furthest along)."""
    P = st.g[K.G_NSEATS]
    rival = -1
    best = -1.0
    third = 0.0
    for d in range(1, P):
        q = (s + d) % P
        p = seat_progress_nb(st, tb, ru, q)
        if p > best:
            if rival >= 0:
                third = best
            best = p
            rival = q
        else:
            third = p
    public_nb(st, tb, ru, s, seat_progress_nb(st, tb, ru, s), out, ME)
    public_nb(st, tb, ru, rival, best, out, RIVAL)
    hand_nb(st, tb, s, out)
    game = (
        1.0 if st.sv[s, K.SV_SEAT_ORDER] == 0 else 0.0,
        1.0 if st.g[K.G_ACTIVE] == s else 0.0,
        1.0 if P == 3 else 0.0,
        float(st.g[K.G_ROUND]),
        third,
    )
    for i in range(N_GAME):
        out[GAME_AT + i] = game[i] / GAME_SCALE[i]
    for i in range(2 * N_VILLAIN_ROWS):
        out[MY_VILLAIN + i] = 0.0
    mine = st.sv[s, K.SV_VILLAIN]
    theirs = st.sv[rival, K.SV_VILLAIN]
    if mine < N_VILLAIN_ROWS:
        out[MY_VILLAIN + mine] = 1.0
    if theirs < N_VILLAIN_ROWS:
        out[RIVAL_VILLAIN + theirs] = 1.0
    return rival


@kernel
def count_slots_nb(st, tb, s, zone_bits, out, at):
    """Seat ``s``'s cards among the instances ``zone_bits``, counted by slot into ``out[at + slot]``."""
    m = zone_bits
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        out[at + tb.card[st.inst[s, k, K.I_CARD], K.CF_SLOT]] += 1.0


@kernel
def all_features_nb(st, tb, ru, s, out):
    """Seat ``s``'s view of ``st`` with its key cards into ``out`` (float64, KEY_END), and with the board too if
    ``out`` holds N_ALL_FEATURES (the module's docstring)."""
    rival = features_nb(st, tb, ru, s, out)
    for i in range(KEY_AT, KEY_END):
        out[i] = 0.0
    count_slots_nb(st, tb, s, st.sv[s, K.SV_ZONE + K.Z_HAND] & VILLAIN_BITS, out, MY_HAND_CARD)
    count_slots_nb(st, tb, s, st.sv[s, K.SV_ZONE + K.Z_REALM] & VILLAIN_BITS, out, MY_REALM_CARD)
    count_slots_nb(st, tb, s, st.sv[s, K.SV_ZONE + K.Z_VDISCARD] & VILLAIN_BITS, out, MY_DISCARD_CARD)
    count_slots_nb(st, tb, s, st.sv[s, K.SV_ZONE + K.Z_REALM] & FATE_BITS, out, MY_REALM_FATE)
    count_slots_nb(st, tb, rival, st.sv[rival, K.SV_ZONE + K.Z_REALM] & VILLAIN_BITS, out, RIVAL_REALM_CARD)
    count_slots_nb(st, tb, rival, st.sv[rival, K.SV_ZONE + K.Z_VDISCARD] & VILLAIN_BITS, out, RIVAL_DISCARD_CARD)
    if out.shape[0] >= N_ALL_FEATURES:  # a key-cards model's scratch holds only what it reads
        board_nb(st, tb, ru, s, out, MY_BOARD)
        board_nb(st, tb, ru, rival, out, RIVAL_BOARD)


@kernel
def board_nb(st, tb, ru, s, out, at):
    """Seat ``s``'s board block (:data:`BOARD_NAMES`) into ``out[at:at + N_BOARD]``."""
    for i in range(N_BOARD):
        out[at + i] = 0.0
    for loc in range(K.N_LOC):
        cell = at + loc * N_BOARD_AT
        out[cell + 1] = allies_strength_at_nb(st, tb, s, loc, -1) / BOARD_AT_SCALE[1]
        out[cell + 2] = 1.0 if covered_nb(st, tb, ru, s, loc) else 0.0
    vanquishable = 0
    m = st.sv[s, K.SV_ZONE + K.Z_REALM] & FATE_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO:
            out[at + st.inst[s, k, K.I_LOC] * N_BOARD_AT] += strength_nb(st, tb, s, k) / BOARD_AT_SCALE[0]
            if can_vanquish_nb(st, tb, s, k):
                vanquishable += 1
    reach = at + K.N_LOC * N_BOARD_AT
    v = st.sv[s, K.SV_VILLAIN]
    here = st.sv[s, K.SV_MOVER]
    top_gain = 0
    for loc in range(K.N_LOC):
        if loc == here or st.sv[s, K.SV_LOCK + loc] != 0:
            continue
        covered = out[at + loc * N_BOARD_AT + 2] != 0.0
        kinds = 0
        gain = 0
        for j in range(tb.locs[v, loc, K.LC_NSYM]):
            kind = tb.syms[v, loc, j, K.SY_KIND]
            if kind < 0:
                continue
            if tb.syms[v, loc, j, K.SY_TOP] != 0 and (
                covered or (ru[K.R_OBSTACLES_COVER] != 0 and j < st.sv[s, K.SV_OBST + loc])
            ):
                continue
            kinds |= 1 << kind
            if kind == K.S_GAIN:
                gain += tb.syms[v, loc, j, K.SY_VAL]
        for kind in range(len(K.SYMBOL_NAMES)):
            if (kinds >> kind) & 1:
                out[reach + kind] += 1.0 / BOARD_REACH_SCALE[kind]
        top_gain = max(top_gain, gain)
    n = len(K.SYMBOL_NAMES)
    out[reach + n] = top_gain / BOARD_REACH_SCALE[n]
    out[reach + n + 1] = vanquishable / BOARD_REACH_SCALE[n + 1]
