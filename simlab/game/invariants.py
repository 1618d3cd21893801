"""Invariants of a game between steps: the one definition that the hypothesis test
(``tests/test_invariants.py``, through :class:`simlab.game.api.Game`) and the million-game check
(``benchmarks/check_invariants.py``, through :func:`play_checked_batch_nb`) both use.

:func:`check_nb` returns 0 when every invariant holds, else the code of the first one broken; the codes
index :data:`INVARIANTS` from 1. A state is checked between steps (``G_SP == 0``: no routine under way, no
decision waiting), so nothing may be left in limbo. Only tests and benchmarks use this module; its kernels
are cached by their own import closure (:mod:`simlab.kernels.compile.cache`), so editing it recompiles nothing else.
"""

import numpy as np
from numba import prange

from simlab.game.driver import play_nb, start_game_nb
from simlab.kernels import const as K
from simlab.kernels.bits import count_nb
from simlab.kernels.compile import as_ptr, batch_kernel, entry_kernel, kernel, ref
from simlab.kernels.query import (
    Q_ALLY_STRENGTH,
    Q_HERO_STRENGTH,
    Q_MIN_ALLIES,
    Q_OWN_STRENGTH,
    ability_answer_nb,
    answers_for_nb,
    available_symbols_nb,
    dearest_in_hand_nb,
    passive_count_nb,
    passive_sum_nb,
    play_cost_nb,
    strength_nb,
    symbol_available_nb,
    vanquish_min_allies_nb,
)
from simlab.kernels.rules import finished_nb
from simlab.kernels.rules.abilities import objective_met_nb
from simlab.kernels.state import new_state_nb

INVARIANTS = (
    "each card in exactly one place",  # 1: deck arrays, zones, locations, attachments, limbo, identity
    "Power >= 0",  # 2
    "Obstacles in range",  # 3: 0 <= Obstacles <= the location's spots
    "one version per character",  # 4: an everyday and a Ball Gown version never both in play
    "Trapped tokens conserved",  # 5: on Heroes in the Realm + in the supply = the villain's tokens
    "termination",  # 6: the round never passes the turn cap; a game ends within its step budget
    "a legal winner",  # 7: a winner whose objective holds, or none and the turn cap reached
    "between steps",  # 8: no routine under way and no decision waiting after a whole step
    "queries agree with their definitions",  # 9: the engine's shortcuts (VF_PASSIVES, symbol bitmasks) change no answer
)
CARDS, POWER, OBSTACLES, VERSIONS, TRAPS, TERMINATION, WINNER, BETWEEN, QUERIES = range(1, 10)
CHECKED_FIELDS = ("steps", "broken", "round", "winner", "end")  # columns of play_checked_batch_nb's out


@kernel
def cards_in_place_nb(st, tb, s):
    """Every card instance of seat ``s`` is in exactly one place: each deck array lists exactly the instances
    whose zone is that deck, each once; Villain cards never reach a Fate pile and Fate cards never a Villain
    deck or a hand; an instance has a location exactly when it is in the Realm and is attached only to a card
    at that location; nothing is in limbo between steps; a slot is out of the game exactly where a card edit
    left it empty; an instance keeps the card it was dealt (and that card's ongoing ability in ``I_PASSIVE``); the
    zone masks the engine keeps (``SV_ZONE``) hold each instance in its zone's mask and nowhere else; and
    ``SV_REALM_PASSIVES`` holds the ongoing abilities of the cards in the Realm, no more."""
    v = st.sv[s, K.SV_VILLAIN]
    nv = st.sv[s, K.SV_VDECK_N]
    nf = st.sv[s, K.SV_FDECK_N]
    if nv < 0 or nv > K.N_VCARDS or nf < 0 or nf > K.N_FCARDS:
        return False
    seen = np.uint64(0)
    for j in range(nv):
        k = st.vdeck[s, j]
        if k < 0 or k >= K.N_VCARDS or st.inst[s, k, K.I_ZONE] != K.Z_VDECK:
            return False
        bit = np.uint64(1) << np.uint64(k)
        if seen & bit:
            return False
        seen |= bit
    for j in range(nf):
        k = st.fdeck[s, j]
        if k < K.N_VCARDS or k >= K.N_INST or st.inst[s, k, K.I_ZONE] != K.Z_FDECK:
            return False
        bit = np.uint64(1) << np.uint64(k)
        if seen & bit:
            return False
        seen |= bit
    in_vdeck = 0
    in_fdeck = 0
    masked = 0
    for z in range(K.N_ZONES):
        masked += count_nb(st.sv[s, K.SV_ZONE + z])
    if masked != K.N_INST:  # with each instance in its own zone's mask (below): in no other mask, no stray bits
        return False
    realm_passives = 0
    for k in range(K.N_INST):
        c = st.inst[s, k, K.I_CARD]
        if st.inst[s, k, K.I_PASSIVE] != tb.card[c, K.CF_PASSIVE]:
            return False
        if st.inst[s, k, K.I_ZONE] == K.Z_REALM and tb.card[c, K.CF_PASSIVE] != K.AB_NONE:
            realm_passives |= 1 << (tb.card[c, K.CF_PASSIVE] - K.FIRST_PASSIVE)
    if st.sv[s, K.SV_REALM_PASSIVES] != realm_passives:
        return False
    for k in range(K.N_INST):
        zone = st.inst[s, k, K.I_ZONE]
        fate = k >= K.N_VCARDS
        if zone < K.Z_VDECK or zone > K.Z_OUT or zone == K.Z_LIMBO:
            return False
        if (st.sv[s, K.SV_ZONE + zone] >> k) & 1 == 0:
            return False
        if fate and (zone == K.Z_VDECK or zone == K.Z_HAND or zone == K.Z_VDISCARD):
            return False
        if not fate and (zone == K.Z_FDECK or zone == K.Z_FDISCARD):
            return False
        if (zone == K.Z_OUT) != (tb.v_out[v, k] != 0):
            return False
        dealt = tb.v_fate[v, k - K.N_VCARDS] if fate else tb.v_deck[v, k]
        if zone != K.Z_OUT and st.inst[s, k, K.I_CARD] != dealt:
            return False
        if zone == K.Z_VDECK:
            in_vdeck += 1
        elif zone == K.Z_FDECK:
            in_fdeck += 1
        loc = st.inst[s, k, K.I_LOC]
        in_realm = zone == K.Z_REALM
        if in_realm != (0 <= loc < K.N_LOC):
            return False
        host = st.inst[s, k, K.I_HOST]
        if host >= 0:
            if host >= K.N_INST or host == k or not in_realm:
                return False
            if st.inst[s, host, K.I_ZONE] != K.Z_REALM or st.inst[s, host, K.I_LOC] != loc:
                return False
    return in_vdeck == nv and in_fdeck == nf


@kernel
def one_version_nb(st, tb, s):
    """No character is in seat ``s``'s Realm in two versions (an everyday one and its Ball Gown one)."""
    for k in range(K.N_INST):
        if st.inst[s, k, K.I_ZONE] != K.Z_REALM:
            continue
        c = st.inst[s, k, K.I_CARD]
        other = tb.card[c, K.CF_EXCLUSIVE] if tb.card[c, K.CF_EXCLUSIVE] >= 0 else tb.card[c, K.CF_SWAP_FROM]
        if other < 0:
            continue
        for j in range(K.N_INST):
            if j != k and st.inst[s, j, K.I_ZONE] == K.Z_REALM and st.inst[s, j, K.I_CARD] == other:
                return False
    return True


@kernel
def traps_conserved_nb(st, tb, s):
    """Trapped tokens sit only on Heroes in the Realm, and those plus the supply are the villain's tokens."""
    on_heroes = 0
    for k in range(K.N_INST):
        if st.inst[s, k, K.I_TRAPPED] != 0:
            if st.inst[s, k, K.I_ZONE] != K.Z_REALM or tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] != K.T_HERO:
                return False
            on_heroes += 1
    supply = st.sv[s, K.SV_TRAPS]
    return supply >= 0 and on_heroes + supply == tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TRAPS]


LAST_PASSIVE = min(K.PASSIVE_CODES.stop, K.N_ABILITY_CODES) - 1  # any a folder may be assigned


@kernel
def realm_abilities_nb(st, tb, s):
    """Bit p - FIRST_PASSIVE for the ongoing ability p of each card in seat ``s``'s Realm, found by walking all 45
    instances (what SV_REALM_PASSIVES keeps)."""
    out = 0
    for j in range(K.N_INST):
        p = tb.card[st.inst[s, j, K.I_CARD], K.CF_PASSIVE]
        if st.inst[s, j, K.I_ZONE] == K.Z_REALM and p != K.AB_NONE:
            out |= 1 << (p - K.FIRST_PASSIVE)
    return out


@kernel
def walked_strength_nb(st, tb, s, k):
    """Strength of instance ``k`` by its definition: its printed Strength, what its own ongoing ability adds and what
    every ongoing ability of the other cards in the Realm adds, each asked of its villain's queries (the abilities
    found by walking all 45 instances: what :func:`~simlab.kernels.query.strength_nb` answers with its shortcuts)."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    v = tb.card[c, K.CF_STRENGTH]
    if t != K.T_ALLY and t != K.T_HERO:
        return max(v, 0)
    own = tb.card[c, K.CF_PASSIVE]
    if answers_for_nb(Q_OWN_STRENGTH, own):
        v += ability_answer_nb(st, tb, Q_OWN_STRENGTH, own, s, k, 0)
    q = Q_ALLY_STRENGTH if t == K.T_ALLY else Q_HERO_STRENGTH
    present = realm_abilities_nb(st, tb, s)
    for p in range(K.FIRST_PASSIVE, LAST_PASSIVE + 1):
        if (present >> (p - K.FIRST_PASSIVE)) & 1 != 0 and answers_for_nb(q, p):
            v += ability_answer_nb(st, tb, q, p, s, k, 0)
    return max(v, 0)


@kernel
def walked_min_allies_nb(st, tb, s, h):
    """The Allies a Vanquish of Hero ``h`` needs by its definition: the most any ongoing ability of the Realm's cards
    asks (found by walking all 45 instances), else 1 (none at Strength 0)."""
    need = 0
    present = realm_abilities_nb(st, tb, s)
    for p in range(K.FIRST_PASSIVE, LAST_PASSIVE + 1):
        if (present >> (p - K.FIRST_PASSIVE)) & 1 != 0 and answers_for_nb(Q_MIN_ALLIES, p):
            need = max(need, ability_answer_nb(st, tb, Q_MIN_ALLIES, p, s, h, -1))
    if need > 0:
        return need
    return 1 if walked_strength_nb(st, tb, s, h) > 0 else 0


@kernel
def queries_agree_nb(st, tb, ru, s):
    """The queries with shortcuts answer as their definitions do for seat ``s``: passive counts and sums, every
    Ally's and Hero's Strength, the Allies a Vanquish needs, each location's available symbols, the dearest card
    in hand."""
    for p in range(K.FIRST_PASSIVE, LAST_PASSIVE + 1):
        n = 0
        total = 0
        for k in range(K.N_INST):
            c = st.inst[s, k, K.I_CARD]
            if (
                st.inst[s, k, K.I_ZONE] == K.Z_REALM
                and st.inst[s, k, K.I_TRAPPED] == 0
                and tb.card[c, K.CF_PASSIVE] == p
            ):
                n += 1
                total += tb.card[c, K.CF_N]
        if passive_count_nb(st, tb, s, p) != n or passive_sum_nb(st, tb, s, p) != total:
            return False
    dearest = 0
    for k in range(K.N_INST):
        zone = st.inst[s, k, K.I_ZONE]
        c = st.inst[s, k, K.I_CARD]
        if zone == K.Z_HAND and k < K.N_VCARDS:
            dearest = max(dearest, play_cost_nb(st, tb, s, c))
        if zone != K.Z_REALM or (tb.card[c, K.CF_TYPE] != K.T_ALLY and tb.card[c, K.CF_TYPE] != K.T_HERO):
            continue
        if strength_nb(st, tb, s, k) != walked_strength_nb(st, tb, s, k):
            return False
        if tb.card[c, K.CF_TYPE] == K.T_HERO and vanquish_min_allies_nb(st, tb, s, k) != walked_min_allies_nb(
            st, tb, s, k
        ):
            return False
    if dearest_in_hand_nb(st, tb, s) != dearest:
        return False
    for loc in range(K.N_LOC):
        available = available_symbols_nb(st, tb, ru, s, loc)
        for j in range(K.MAX_SYMBOLS):
            if ((available >> j) & 1 != 0) != symbol_available_nb(st, tb, ru, s, loc, j):
                return False
    return True


@entry_kernel
def check_nb(st, tb, ru):
    """0 if every invariant holds between steps, else the code (1-based index into INVARIANTS) of the first
    one broken."""
    if st.g[K.G_SP] != 0 or st.g[K.G_ASK] != 0:
        return BETWEEN
    P = st.g[K.G_NSEATS]
    for s in range(P):
        if not cards_in_place_nb(st, tb, s):
            return CARDS
        if st.sv[s, K.SV_POWER] < 0:
            return POWER
        v = st.sv[s, K.SV_VILLAIN]
        for loc in range(K.N_LOC):
            if not 0 <= st.sv[s, K.SV_OBST + loc] <= tb.locs[v, loc, K.LC_SPOTS]:
                return OBSTACLES
        if not one_version_nb(st, tb, s):
            return VERSIONS
        if not traps_conserved_nb(st, tb, s):
            return TRAPS
        if not queries_agree_nb(st, tb, ru, s):
            return QUERIES
    cap = ru[K.R_MAX_TURNS]
    if st.g[K.G_ROUND] < 1 or st.g[K.G_ROUND] > cap + 1:
        return TERMINATION
    winner = st.g[K.G_WINNER]
    if st.g[K.G_PHASE] != K.PH_OVER:
        if winner != -1 or st.g[K.G_END] != K.END_NONE:
            return WINNER
        if st.g[K.G_ROUND] > cap:
            return TERMINATION
    elif winner >= 0:
        if (
            winner >= P
            or st.g[K.G_END] != K.END_OBJECTIVE
            or not objective_met_nb(ref(st), ref(tb), as_ptr(ru), winner)
        ):
            return WINNER
    elif winner != -1 or st.g[K.G_END] != K.END_TURN_CAP or st.g[K.G_ROUND] != cap + 1:
        return WINNER
    return 0


@entry_kernel
def play_checked_nb(st, tb, ru, max_steps):
    """Play one game to its end one step at a time, checking every invariant after setup and after every step;
    stop at the first broken one. Returns (steps played, code broken or 0); more than ``max_steps`` steps
    breaks termination."""
    broken = check_nb(st, tb, ru)
    steps = 0
    while broken == 0 and not finished_nb(st):
        if steps >= max_steps:
            return steps, TERMINATION
        play_nb(st, tb, ru, 1)
        steps += 1
        broken = check_nb(st, tb, ru)
    return steps, broken


@batch_kernel
def play_checked_batch_nb(
    tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, max_steps, out
):
    """Play games ``first_index .. first_index + n - 1`` (set up as ``simlab.game.driver.play_batch`` does) one
    step at a time, every invariant checked after setup and after every step.

    out: int64 (n, 5) per game (CHECKED_FIELDS): steps played, the code of the first broken invariant (0 none),
    the round, the winner seat (-1 none), the end reason.
    """
    n = seat_villains.shape[0]
    for i in prange(n):
        st = new_state_nb(seat_villains.shape[1], 0)
        start_game_nb(
            st, tb, ru, seat_villains[i], seat_slots[i], slot_kernels, slot_params, seed, first_index + np.uint64(i)
        )
        steps, broken = play_checked_nb(st, tb, ru, max_steps)
        out[i, 0] = steps
        out[i, 1] = broken
        out[i, 2] = st.g[K.G_ROUND]
        out[i, 3] = st.g[K.G_WINNER]
        out[i, 4] = st.g[K.G_END]
