"""Routines of the Fate action: reveal two, play one, discard the other."""

from simlab.kernels import const as K
from simlab.kernels.engine.abilities import CHECK_TAKES_OVER_FATE_ACTION, _ability_r, _check
from simlab.kernels.engine.fate import discard_revealed_nb, fate_placements_nb, played_when_revealed_nb
from simlab.kernels.engine.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    A5,
    A6,
    A7,
    A8,
    A9,
    A10,
    FA_END,
    PC_TAKEN_OVER,
    RT_PLAY_FATE_CARD,
    RT_PLAY_HERO,
    RT_REMOVE_OBSTACLES,
    RT_RESOLVE_EFFECT,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.engine.log import log_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.engine.piles import reveal_fate_nb
from simlab.kernels.engine.realm import discard_nb, put_in_realm_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import realm_instance_nb


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
