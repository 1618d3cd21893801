"""Read-only questions about a game state (no mutation, no decisions).

Strategies may import these; the engine's mutating kernels live in :mod:`simlab.kernels.rules`.
``st`` is a :class:`~simlab.kernels.state.State`, ``tb`` the card :class:`~simlab.kernels.state.Tables`,
``ru`` the int64 rule-variant array (``R_*``); ``s`` a seat, ``k`` a card instance of that seat.
"""

from numba import types

from simlab.kernels import compile
from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS, count_nb, lowest_nb
from simlab.kernels.compile import as_ptr, as_ref, kernel
from simlab.kernels.state import ENGINE_REF_TYPES

# ----------------------------------------------------------------------------- what the queries ask the villains
# A query turning on an ongoing ability asks the villain's folder handling it: ``answer_nb(st, tb, q, p, s, a, b)``
# in the folder's queries.py, reached through a table by ability code ``p`` (filled from the registry by
# simlab.villains.bind_abilities), for the abilities in the seat's Realm (SV_REALM_PASSIVES), or the card's own,
# that the folder says answer question ``q`` (its ANSWERS; a value table of bits by question: a clear bit is not
# asked, so a game without such an ability pays one bit test). An answer reads the state only.
QUERY_TABLE = "simlab_villain_queries"
QUERY_TYPES = ENGINE_REF_TYPES[:2] + (types.int64,) * 5  # (ref(st), ref(tb), q, p, s, a, b)
_answer = compile.table_caller(QUERY_TABLE, K.N_ABILITY_CODES, QUERY_TYPES, types.int64)
ANSWERED_TABLE = "simlab_villain_answered"
N_QUESTIONS = 16
_answered = compile.table_reader(ANSWERED_TABLE, N_QUESTIONS)
NO_ANSWER = -1
Q_COST_PLUS = 0  # (the Realm's) the Power more a card of type a costs to play
Q_ENTRY_BARRED = 1  # (the Realm's) 1 if card row a, though admitted, may not be played or moved to the admits-only
# location b
Q_OBSTACLE_REMOVAL_BLOCKED = 2  # (the Realm's) 1 if no Obstacle may be removed
Q_VANQUISH_REACH = 3  # (the Ally's own) 1 if Ally card row a may join a Vanquish at a location b - its own away
Q_MIN_ALLIES = 4  # (the Realm's) the Allies a Vanquish of Hero instance a needs at least (0: nothing to say)
Q_ALLY_MOVE_BARRED = 5  # (the Realm's) 1 if the seat's Allies may not be moved by a Move action
Q_GRANTED_ACTIVATES = 6  # (the Realm's) the Activate actions the cards at location a grant
# Strength (strength_nb): every ability asked answers a number, the Strength it adds (negative: takes away)
Q_OWN_STRENGTH = 7  # (its own) what the ability of Ally or Hero instance a adds to its printed Strength
Q_ALLY_STRENGTH = 8  # (the Realm's) what ability p in the Realm adds to Ally instance a's Strength
Q_HERO_STRENGTH = 9  # (the Realm's) what ability p in the Realm adds to Hero instance a's Strength

# The top row's cover turns on a rule variant too: asked through the engine's check table (the folders' check_nb,
# simlab.kernels.rules.abilities), which takes the rules array; its bits by question are ASKED_TABLE's.
CHECK_TABLE = "simlab_ability_checks"
# (ref(st), ref(tb), ru, slot, seat, card row, budget)
CHECK_TYPES = ENGINE_REF_TYPES + (types.int64, types.int64, types.int64, types.int64)
NO_CHECK = -1
_check = compile.table_caller(CHECK_TABLE, K.N_ABILITY_CODES, CHECK_TYPES, types.int64)
ASKED_TABLE = "simlab_ability_asked"
N_ASKS = 16
_asked = compile.table_reader(ASKED_TABLE, N_ASKS)
ASK_COVERS = 12  # (the Realm's) 1 if a card at location c covers its top row


@kernel
def realm_answers_nb(st, tb, q, s, a, b):
    """Some ongoing ability in seat ``s``'s Realm answers 1 to question ``q`` about ``a`` and ``b``."""
    m = _answered(q) & st.sv[s, K.SV_REALM_PASSIVES]
    if m == 0:
        return False
    rst = as_ref(st)
    rtb = as_ref(tb)
    while m != 0:
        p = K.FIRST_PASSIVE + lowest_nb(m)
        m &= m - 1
        if _answer(p, rst, rtb, q, p, s, a, b) == 1:
            return True
    return False


@kernel
def realm_fold_nb(st, tb, q, s, a, b, largest, m):
    """The answers of the ongoing abilities ``m`` (bits) in seat ``s``'s Realm to question ``q``, each at least 0,
    summed, or with ``largest`` the largest of them."""
    rst = as_ref(st)
    rtb = as_ref(tb)
    n = 0
    while m != 0:
        p = K.FIRST_PASSIVE + lowest_nb(m)
        m &= m - 1
        x = max(_answer(p, rst, rtb, q, p, s, a, b), 0)
        n = max(n, x) if largest else n + x
    return n


@kernel
def realm_sum_nb(st, tb, q, s, a, b):
    """The sum of the answers of the ongoing abilities in seat ``s``'s Realm to question ``q`` (0 if none answers)."""
    m = _answered(q) & st.sv[s, K.SV_REALM_PASSIVES]  # tested here, so the common case (none) stays inline
    return 0 if m == 0 else realm_fold_nb(st, tb, q, s, a, b, False, m)


@kernel
def realm_max_nb(st, tb, q, s, a, b):
    """The largest answer of the ongoing abilities in seat ``s``'s Realm to question ``q`` (0 if none answers)."""
    m = _answered(q) & st.sv[s, K.SV_REALM_PASSIVES]
    return 0 if m == 0 else realm_fold_nb(st, tb, q, s, a, b, True, m)


@kernel
def own_answer_nb(st, tb, q, s, c, b):
    """Card row ``c``'s own ongoing ability's answer to question ``q`` (about ``c`` and ``b``), or NO_ANSWER."""
    p = tb.card[c, K.CF_PASSIVE]
    if not answers_for_nb(q, p):
        return NO_ANSWER
    return _answer(p, as_ref(st), as_ref(tb), q, p, s, c, b)


@kernel
def answers_for_nb(q, p):
    """Ongoing ability ``p`` is asked question ``q`` (its folder's queries.py answers it for ``p``)."""
    return p >= K.FIRST_PASSIVE and (_answered(q) >> (p - K.FIRST_PASSIVE)) & 1 != 0


@kernel
def ability_answer_nb(st, tb, q, p, s, a, b):
    """Ongoing ability ``p``'s answer to question ``q``, asked whatever the Realm holds (for
    :func:`answers_for_nb` abilities)."""
    return _answer(p, as_ref(st), as_ref(tb), q, p, s, a, b)


@kernel
def no_answer_nb(st, tb, q, p, s, a, b):
    """The query table's entry for an ability no villain's queries answer for: NO_ANSWER."""
    return NO_ANSWER


@kernel
def realm_checks_nb(st, tb, ru, ask, s, c, arg):
    """Some ongoing ability in seat ``s``'s Realm answers 1 to the check table's question ``ask`` (``ASKED_TABLE``)."""
    m = _asked(ask) & st.sv[s, K.SV_REALM_PASSIVES]
    if m == 0:
        return False
    rst = as_ref(st)
    rtb = as_ref(tb)
    rru = as_ptr(ru)
    while m != 0:
        b = lowest_nb(m)
        m &= m - 1
        if _check(K.FIRST_PASSIVE + b, rst, rtb, rru, ask, s, c, arg) == 1:
            return True
    return False


@kernel
def zone_bits_nb(st, s, zone):
    """Bitmask of seat ``s``'s instances in ``zone`` (walk it with lowest_nb; see simlab/kernels/bits.py)."""
    return st.sv[s, K.SV_ZONE + zone]


@kernel
def may_have_passive_nb(st, tb, s, passive):
    """Some card of seat ``s``'s decks has ongoing ability ``passive`` (if not, none is in its Realm)."""
    return (tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_PASSIVES] >> (passive - K.FIRST_PASSIVE)) & 1 != 0


@kernel
def passive_count_nb(st, tb, s, passive):
    """Cards in seat ``s``'s Realm whose ongoing ability ``passive`` applies."""
    if not may_have_passive_nb(st, tb, s, passive):
        return 0
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_TRAPPED] == 0 and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == passive:
            n += 1
    return n


@kernel
def passive_sum_nb(st, tb, s, passive):
    """Sum of the numbers on cards whose ability ``passive`` applies in seat ``s``'s Realm."""
    if not may_have_passive_nb(st, tb, s, passive):
        return 0
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        if st.inst[s, k, K.I_TRAPPED] == 0 and tb.card[c, K.CF_PASSIVE] == passive:
            n += tb.card[c, K.CF_N]
    return n


@kernel
def realm_instance_nb(st, s, card):
    """Instance of card row ``card`` in the Realm, or -1."""
    return zone_instance_nb(st, s, card, K.Z_REALM)


@kernel
def zone_instance_nb(st, s, card, zone):
    """First instance of card row ``card`` in ``zone``, or -1."""
    if card < 0:
        return -1
    m = zone_bits_nb(st, s, zone)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_CARD] == card:
            return k
    return -1


@kernel
def zone_count_nb(st, s, zone):
    return count_nb(zone_bits_nb(st, s, zone))


@kernel
def realm_heroes_nb(st, tb, s):
    """Bitmask of the Heroes in seat ``s``'s Realm."""
    heroes = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & FATE_BITS  # Heroes are Fate cards (the card data's load checks)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO:
            heroes |= 1 << k
    return heroes


@kernel
def hero_count_nb(st, tb, s):
    return count_nb(realm_heroes_nb(st, tb, s))


@kernel
def strength_nb(st, tb, s, k):
    """Current Strength of an Ally or Hero, with every modifier in its Realm (never below 0). The modifiers are the
    card table's Strength data (CF_STR_*, from each villain's [[strength]]), read here inline: this is asked for
    every option the strategies score."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    v = tb.card[c, K.CF_STRENGTH]
    if t != K.T_ALLY and t != K.T_HERO:
        return max(v, 0)
    if tb.card[c, K.CF_STR_CHANGES] == K.SC_OWN:
        v += own_strength_nb(st, tb, s, k)
    reach = K.VF_ALLY_STRENGTH if t == K.T_ALLY else K.VF_HERO_STRENGTH
    if tb.vil[st.sv[s, K.SV_VILLAIN], reach] & st.sv[s, K.SV_REALM_PASSIVES] != 0:
        v += given_strength_nb(st, tb, s, k, t)
    return max(v, 0)


@kernel
def own_strength_nb(st, tb, s, k):
    """What the ongoing ability of instance ``k`` adds to its own Strength (its CF_STR_* data)."""
    c = st.inst[s, k, K.I_CARD]
    flags = tb.card[c, K.CF_STR_FLAGS]
    if flags & K.SF_UNTRAPPED != 0 and st.inst[s, k, K.I_TRAPPED] != 0:
        return 0
    amount = tb.card[c, K.CF_STR_AMOUNT]
    per = tb.card[c, K.CF_STR_PER]
    if per == K.SP_FLAT:
        return amount
    here = st.inst[s, k, K.I_LOC]
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & ~(1 << k)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        cj = st.inst[s, j, K.I_CARD]
        if per == K.SP_OTHER_COPY:
            hit = cj == c
        else:
            want = K.T_ALLY if per == K.SP_ALLY_HERE else K.T_HERO
            hit = st.inst[s, j, K.I_LOC] == here and tb.card[cj, K.CF_TYPE] == want
        if hit:
            if flags & K.SF_ONCE != 0:
                return amount
            n += amount
    return n


@kernel
def given_strength_nb(st, tb, s, k, t):
    """What the ongoing abilities of the other cards in the Realm add to the Strength of instance ``k`` (of card
    type ``t``), by their CF_STR_* data."""
    here = st.inst[s, k, K.I_LOC]
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & ~(1 << k)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        cj = st.inst[s, j, K.I_CARD]
        changes = tb.card[cj, K.CF_STR_CHANGES]
        if changes <= K.SC_OWN:
            continue
        if tb.card[cj, K.CF_STR_FLAGS] & K.SF_UNTRAPPED != 0 and (
            tb.card[cj, K.CF_TYPE] != K.T_HERO or st.inst[s, j, K.I_TRAPPED] != 0
        ):
            continue
        if changes == K.SC_HOST:
            hit = st.inst[s, j, K.I_HOST] == k
        elif changes == K.SC_ALLIES_HERE:
            hit = t == K.T_ALLY and st.inst[s, j, K.I_LOC] == here
        elif changes == K.SC_HEROES_HERE:
            hit = t == K.T_HERO and st.inst[s, j, K.I_LOC] == here
        else:
            hit = t == K.T_HERO
        if hit:
            n += tb.card[cj, K.CF_STR_AMOUNT]
    return n


@kernel
def covered_nb(st, tb, ru, s, loc):
    """The top action row of ``loc`` is covered (a Hero there, or a card whose ongoing ability covers it)."""
    m = zone_bits_nb(st, s, K.Z_REALM) & FATE_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_LOC] == loc and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO:
            return True
    return realm_checks_nb(st, tb, ru, ASK_COVERS, s, loc, -1)


@kernel
def symbol_available_nb(st, tb, ru, s, loc, j):
    """Board symbol ``j`` of ``loc`` can be used now by the seat whose mover is there."""
    v = st.sv[s, K.SV_VILLAIN]
    if j >= tb.locs[v, loc, K.LC_NSYM] or (used_symbols_nb(st) >> j) & 1:
        return False
    if tb.syms[v, loc, j, K.SY_TOP]:
        if covered_nb(st, tb, ru, s, loc):
            return False
        if ru[K.R_OBSTACLES_COVER] != 0 and j < st.sv[s, K.SV_OBST + loc]:
            return False
    return True


@kernel
def available_symbols_nb(st, tb, ru, s, loc):
    """Bit ``j`` set: board symbol ``j`` of ``loc`` can be used now (:func:`symbol_available_nb` for every ``j``,
    with the top row's cover looked up once)."""
    v = st.sv[s, K.SV_VILLAIN]
    out = 0
    cover = -1  # not looked up yet
    used = used_symbols_nb(st)
    for j in range(tb.locs[v, loc, K.LC_NSYM]):
        if (used >> j) & 1:
            continue
        if tb.syms[v, loc, j, K.SY_TOP]:
            if cover < 0:
                cover = 1 if covered_nb(st, tb, ru, s, loc) else 0
            if cover != 0 or (ru[K.R_OBSTACLES_COVER] != 0 and j < st.sv[s, K.SV_OBST + loc]):
                continue
        out |= 1 << j
    return out


@kernel
def symbol_kinds_nb(tb, v, loc, symbols):
    """Bit ``kind`` set for the kind of each board symbol of ``loc`` in the bitmask ``symbols``."""
    kinds = 0
    while symbols != 0:
        j = lowest_nb(symbols)
        symbols &= symbols - 1
        kinds |= 1 << tb.syms[v, loc, j, K.SY_KIND]
    return kinds


@kernel
def mover_location_nb(st, s):
    """Where seat ``s``'s Villain Mover stands. A strategy reads it only through this: read while a decision is
    scored, it marks the memo's values as depending on it (``G_MEMO_READS``), so they are not kept across the move."""
    if st.g[K.G_SCORING] != 0:
        st.g[K.G_MEMO_READS] |= K.READ_MOVER
    return st.sv[s, K.SV_MOVER]


@kernel
def used_symbols_nb(st):
    """Bit ``j``: board symbol ``j`` at the mover's location is used this turn (``G_USED``). Read only through this,
    as :func:`mover_location_nb`, so a memo whose values read it is not kept across an action."""
    if st.g[K.G_SCORING] != 0:
        st.g[K.G_MEMO_READS] |= K.READ_USED
    return st.g[K.G_USED]


@kernel
def first_symbol_nb(st, tb, ru, s, kind):
    """Index of the first available board symbol of ``kind`` at the mover's location, or -1."""
    loc = mover_location_nb(st, s)
    v = st.sv[s, K.SV_VILLAIN]
    m = available_symbols_nb(st, tb, ru, s, loc)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if tb.syms[v, loc, j, K.SY_KIND] == kind:
            return j
    return -1


@kernel
def granted_activates_nb(st, tb, s):
    """Activate actions granted by cards at the mover's location (Q_GRANTED_ACTIVATES) and not yet used."""
    loc = mover_location_nb(st, s)
    return realm_sum_nb(st, tb, Q_GRANTED_ACTIVATES, s, loc, -1) - st.g[K.G_AS_USED]


@kernel
def can_enter_nb(st, tb, s, c, loc):
    """Card row ``c`` may be played or moved to ``loc`` of seat ``s`` (locks, an admits-only location's list)."""
    if loc < 0 or loc >= K.N_LOC or st.sv[s, K.SV_LOCK + loc] != 0:
        return False
    v = st.sv[s, K.SV_VILLAIN]
    if tb.locs[v, loc, K.LC_ADMITS_ONLY] != 0:
        if tb.card[c, K.CF_ADMITTED] == 0:
            return False
        if realm_answers_nb(st, tb, Q_ENTRY_BARRED, s, c, loc):
            return False
    return True


@kernel
def play_cost_nb(st, tb, s, c):
    t = tb.card[c, K.CF_TYPE]
    effect_plus = realm_sum_nb(st, tb, Q_COST_PLUS, s, K.T_EFFECT, -1) if t == K.T_EFFECT else 0
    item_plus = realm_sum_nb(st, tb, Q_COST_PLUS, s, K.T_ITEM, -1) if t == K.T_ITEM else 0
    return cost_with_nb(tb, c, effect_plus, item_plus)


@kernel
def cost_with_nb(tb, c, effect_plus, item_plus):
    """Card row ``c``'s play cost while the Realm makes Effects cost ``effect_plus`` more and Items ``item_plus``."""
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_EFFECT:
        return tb.card[c, K.CF_COST] + effect_plus
    if t == K.T_ITEM:
        return tb.card[c, K.CF_COST] + item_plus
    return tb.card[c, K.CF_COST]


@kernel
def dearest_in_hand_nb(st, tb, s):
    """The highest play cost of a Villain card in seat ``s``'s hand (0 if none): :func:`play_cost_nb` of each,
    with the Realm's cost changes summed once."""
    effect_plus = realm_sum_nb(st, tb, Q_COST_PLUS, s, K.T_EFFECT, -1)
    item_plus = realm_sum_nb(st, tb, Q_COST_PLUS, s, K.T_ITEM, -1)
    dearest = 0
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        dearest = max(dearest, cost_with_nb(tb, st.inst[s, k, K.I_CARD], effect_plus, item_plus))
    return dearest


@kernel
def activation_cost_nb(tb, ru, c):
    cost = tb.card[c, K.CF_ACTIVATE_COST]
    return ru[K.R_UNPRINTED_ACTIVATION_COST] if cost < 0 else cost


@kernel
def flip_cost_nb(st, tb, ru, s):
    cost = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_FLIP_COST]
    return ru[K.R_UNPRINTED_ACTIVATION_COST] if cost < 0 else cost


# ----------------------------------------------------------------------------- Obstacles


@kernel
def obstacles_total_nb(st, s):
    return st.sv[s, K.SV_OBST + 0] + st.sv[s, K.SV_OBST + 1] + st.sv[s, K.SV_OBST + 2] + st.sv[s, K.SV_OBST + 3]


@kernel
def missing_at_nb(st, tb, s, loc):
    return tb.locs[st.sv[s, K.SV_VILLAIN], loc, K.LC_SPOTS] - st.sv[s, K.SV_OBST + loc]


@kernel
def missing_total_nb(st, tb, s):
    n = 0
    for loc in range(K.N_LOC):
        n += missing_at_nb(st, tb, s, loc)
    return n


@kernel
def can_remove_obstacle_nb(st, tb, s):
    """An Obstacle can be removed: some are left and no ongoing ability blocks it."""
    return obstacles_total_nb(st, s) > 0 and not realm_answers_nb(st, tb, Q_OBSTACLE_REMOVAL_BLOCKED, s, -1, -1)


# ----------------------------------------------------------------------------- Trapped tokens


@kernel
def trappable_nb(st, tb, s, k):
    c = st.inst[s, k, K.I_CARD]
    return (
        st.inst[s, k, K.I_ZONE] == K.Z_REALM
        and tb.card[c, K.CF_TYPE] == K.T_HERO
        and st.inst[s, k, K.I_TRAPPED] == 0
        and tb.card[c, K.CF_UNTRAPPABLE] == 0
        and st.sv[s, K.SV_TRAPS] > 0
    )


@kernel
def trapped_move_ok_nb(st, tb, s, h, dest):
    """Trapped instance ``h`` of seat ``s``, at an unlocked location, could be freed and moved to ``dest``
    (another location it may enter)."""
    return (
        st.inst[s, h, K.I_ZONE] == K.Z_REALM
        and st.inst[s, h, K.I_TRAPPED] != 0
        and st.sv[s, K.SV_LOCK + st.inst[s, h, K.I_LOC]] == 0
        and dest != st.inst[s, h, K.I_LOC]
        and can_enter_nb(st, tb, s, st.inst[s, h, K.I_CARD], dest)
    )


@kernel
def any_trappable_nb(st, tb, s):
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if trappable_nb(st, tb, s, k):
            return True
    return False


# ----------------------------------------------------------------------------- Vanquish


@kernel
def vanquish_eligible_nb(st, tb, s, k, loc):
    """Instance ``k`` is an Ally that can take part in a Vanquish at ``loc``."""
    if st.inst[s, k, K.I_ZONE] != K.Z_REALM:
        return False
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_TYPE] != K.T_ALLY:
        return False
    d = st.inst[s, k, K.I_LOC] - loc
    return d == 0 or own_answer_nb(st, tb, Q_VANQUISH_REACH, s, c, d) == 1


@kernel
def allies_strength_at_nb(st, tb, s, loc, skip):
    """Total Strength of seat ``s``'s Villain-deck Allies that can take part in a Vanquish at ``loc``, ``skip``
    (an instance, or -1) left out."""
    total = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if k != skip and vanquish_eligible_nb(st, tb, s, k, loc):
            total += strength_nb(st, tb, s, k)
    return total


@kernel
def vanquish_min_allies_nb(st, tb, s, h):
    """Allies a Vanquish of Hero ``h`` needs at least (2 with an Item that says so; Strength 0: none)."""
    return min_allies_at_strength_nb(st, tb, s, h, strength_nb(st, tb, s, h))


@kernel
def min_allies_at_strength_nb(st, tb, s, h, hero_strength):
    """:func:`vanquish_min_allies_nb` for Hero ``h`` whose Strength the caller knows."""
    need = realm_max_nb(st, tb, Q_MIN_ALLIES, s, h, -1)
    if need > 0:
        return need
    return 1 if hero_strength > 0 else 0


@kernel
def vanquish_possible_nb(st, tb, s, h, zero_joins):
    """Hero ``h`` can be defeated by a Vanquish with the Allies in the Realm; ``zero_joins``: an Ally at
    Strength 0 may join it (the rule variant zero_strength_allies_vanquish)."""
    if st.inst[s, h, K.I_ZONE] != K.Z_REALM or tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] != K.T_HERO:
        return False
    loc = st.inst[s, h, K.I_LOC]
    total = 0
    count = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS  # Allies are Villain cards (the card data's load checks)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if vanquish_eligible_nb(st, tb, s, k, loc):
            v = strength_nb(st, tb, s, k)
            if v > 0 or zero_joins:
                total += v
                count += 1
    hero_strength = strength_nb(st, tb, s, h)
    return count >= min_allies_at_strength_nb(st, tb, s, h, hero_strength) and total >= hero_strength


@kernel
def any_vanquish_possible_nb(st, tb, s, zero_joins):
    m = zone_bits_nb(st, s, K.Z_REALM) & FATE_BITS
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        if vanquish_possible_nb(st, tb, s, h, zero_joins):
            return True
    return False


@kernel
def can_vanquish_nb(st, tb, s, h):
    """Hero ``h`` can be defeated by a Vanquish with the Allies in the Realm (the default reading)."""
    return vanquish_possible_nb(st, tb, s, h, True)


@kernel
def any_vanquish_nb(st, tb, s):
    return any_vanquish_possible_nb(st, tb, s, True)


# ----------------------------------------------------------------------------- moving cards


@kernel
def can_move_card_nb(st, tb, s, k, dest, by_fate):
    """Move ``k`` (an own Ally, or an own unattached Item) to ``dest``.

    A Move action goes to an adjacent location and is blocked for Allies by a Hero whose ability says so; a Fate
    card (``by_fate``) moves an Ally to any other location.
    """
    if st.inst[s, k, K.I_ZONE] != K.Z_REALM or k >= K.N_VCARDS:
        return False
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    here = st.inst[s, k, K.I_LOC]
    if dest == here or st.sv[s, K.SV_LOCK + here] != 0:
        return False
    if t == K.T_ALLY:
        if not by_fate and realm_answers_nb(st, tb, Q_ALLY_MOVE_BARRED, s, k, dest):
            return False
    elif t == K.T_ITEM:
        if by_fate or st.inst[s, k, K.I_HOST] >= 0:
            return False
    else:
        return False
    if not by_fate and dest != here - 1 and dest != here + 1:
        return False
    return can_enter_nb(st, tb, s, c, dest)


@kernel
def ally_fate_move_ok_nb(st, tb, s, k, dest):
    """Instance ``k`` of seat ``s`` is an Ally a Fate card may move to ``dest`` (a Fate Effect moving an Ally)."""
    return tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY and can_move_card_nb(st, tb, s, k, dest, 1)


@kernel
def any_move_nb(st, tb, s, by_fate):
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, by_fate):
                return True
    return False


@kernel
def hero_can_move_nb(st, tb, s, h, dest):
    """A card effect may move Hero ``h`` to ``dest`` (Trapped Heroes cannot be moved)."""
    c = st.inst[s, h, K.I_CARD]
    return (
        st.inst[s, h, K.I_ZONE] == K.Z_REALM
        and tb.card[c, K.CF_TYPE] == K.T_HERO
        and st.inst[s, h, K.I_TRAPPED] == 0
        and dest != st.inst[s, h, K.I_LOC]
        and st.sv[s, K.SV_LOCK + st.inst[s, h, K.I_LOC]] == 0
        and can_enter_nb(st, tb, s, c, dest)
    )
