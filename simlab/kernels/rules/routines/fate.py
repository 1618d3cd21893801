"""Routines of the Fate action: reveal two, play one, discard the other."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import realm_instance_nb
from simlab.kernels.rules.abilities import (
    ASK_PLAYED_INTO_LOCKED,
    CHECK_TAKES_OVER_FATE_ACTION,
    _ability_r,
    _check,
    villain_says_nb,
)
from simlab.kernels.rules.fate import discard_revealed_nb, fate_placements_nb, played_when_revealed_nb
from simlab.kernels.rules.frame import (
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
    A11,
    RT_PLAY_FATE_CARD,
    RT_PLAY_HERO,
    RT_REMOVE_OBSTACLES,
    RT_RESOLVE_EFFECT,
    START,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.log import log_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.piles import reveal_fate_nb
from simlab.kernels.rules.realm import discard_nb, put_in_realm_nb

# play_fate_card_r's frame
PF_SEAT = A0  # whose Realm
PF_CARD = A1  # the revealed Fate card (instance)
PF_LOC = A2  # where it is played
PF_HOST = A3  # the instance it attaches to (-1: none)
PF_ACTOR = A4  # the Fating player, who makes its choices
PF_AFTER_EFFECT = 1  # resume point: its Effect resolved


@kernel
def play_fate_card_r(st, tb, ru, f):
    """Play revealed Fate card ``k`` into seat ``s``'s Realm at ``loc``/``host``; ``actor`` (the Fating player)
    makes its choices."""
    s = st.fr[f, PF_SEAT]
    k = st.fr[f, PF_CARD]
    if st.fr[f, K.FR_PC] == PF_AFTER_EFFECT:
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)
        return ret_nb(st, f)
    loc = st.fr[f, PF_LOC]
    host = st.fr[f, PF_HOST]
    actor = st.fr[f, PF_ACTOR]
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
        return call_nb(st, f, PF_AFTER_EFFECT, RT_RESOLVE_EFFECT, s, k, actor, 0, 0, 0, 0)
    return ret_nb(st, f)


# play_revealed_r's frame
PR_SEAT = A0  # whose Realm
PR_CARD = A1  # the revealed card (instance)
PR_ACTOR = A2  # who picks where it is played
PR_AFTER_PLACE = 1  # resume point: where it is played was picked


@kernel
def play_revealed_r(st, tb, ru, f):
    """Play revealed card ``k`` of seat ``s`` if it can be played (``actor`` picks where), else discard it."""
    s = st.fr[f, PR_SEAT]
    k = st.fr[f, PR_CARD]
    actor = st.fr[f, PR_ACTOR]
    if st.fr[f, K.FR_PC] == PR_AFTER_PLACE:
        return tail_nb(st, f, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0)
    opt_clear_nb(st)
    if fate_placements_nb(st, tb, ru, s, k) == 0:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)
        return ret_nb(st, f)
    return ask_nb(st, f, PR_AFTER_PLACE, s, actor, K.DK_PLACE, k)


# fate_action_r's frame
FA_ACTOR = A0  # the player taking the Fate action
FA_TARGET = A1  # the seat whose Fate deck it reveals
FA_R0 = A2  # the two revealed cards (-1: none)
FA_R1 = A3
FA_REMOVALS_OWED = A4  # Obstacle removals owed at the end
FA_TARGET_MAY_TAKE_OVER = A5  # 1 until the target has had its chance to take over the choice
FA_PICKER = A6  # the player picking
FA_PICKED = A7  # the card picked
FA_OTHER = A8  # the other card
FA_REMOVALS_DONE = A9
FA_REMOVALS_FOR = A10  # the ability the removals are owed to (the decisions' context)
FA_TAKEN_OVER_LOCAL = A11  # a local of the routine that took the Fate action over
# fate_action_r's resume points
FA_PICK = 1  # the cards revealed (FA_R0, FA_R1): played at once, or the target's window, then the pick
FA_AFTER_TAKE_OVER = 2  # the target answered whether it takes over the choice
FA_OFFER = 3  # the picker is offered the cards
FA_AFTER_PICK = 4  # the picker chose a card (and where), or to pass
FA_END = 8  # the Obstacle removals owed, then done
FA_AFTER_PLAYED = 9  # the card picked resolved; the other goes to the discard pile now (other_revealed_after)
PC_TAKEN_OVER = 16  # from here on, the card's villain's routine resolves it on the Fate action's frame


@kernel
def fate_action_r(st, tb, ru, f):
    """Fate action by ``actor`` against seat ``s``: reveal two, play one, discard the other (the frame: FA_*).

    A Fate card whose villain's check says it takes the Fate action over (CHECK_TAKES_OVER_FATE_ACTION) is, once
    picked, resolved by that villain's routine on this frame, from FR_PC = PC_TAKEN_OVER on (as ability_r runs on
    the engine routines' frames): it plays or discards the other card (FA_OTHER) and itself (FA_PICKED), and hands
    the Fate action back at FA_PICK (pick from FA_R0, FA_R1, revealed anew) or FA_END, having added to
    FA_REMOVALS_OWED (with FA_REMOVALS_FOR) any Obstacle removals owed at the end.
    """
    actor = st.fr[f, FA_ACTOR]
    s = st.fr[f, FA_TARGET]
    pc = st.fr[f, K.FR_PC]
    if pc >= PC_TAKEN_OVER:
        return _ability_r(tb.card[st.inst[s, st.fr[f, FA_PICKED], K.I_CARD], K.CF_EFFECT], st, tb, ru, f)
    if pc == START:
        log_nb(st, K.EV_FATE, actor, s, 0, 0, 0)
        st.fr[f, FA_R0] = reveal_fate_nb(st, s)
        st.fr[f, FA_R1] = reveal_fate_nb(st, s)
        st.fr[f, FA_TARGET_MAY_TAKE_OVER] = 1
        pc = FA_PICK
    if pc == FA_AFTER_TAKE_OVER:
        # the target answered the window of the Condition that lets it take over
        if chosen_nb(st, 0) == K.O_CARD:
            vpj = chosen_nb(st, 1)
            st.inst[s, vpj, K.I_FLAGS] |= K.FLAG_PLAYED
            log_nb(st, K.EV_CONDITION, s, vpj, 0, 0, 0)
            discard_nb(st, s, vpj)
            st.fr[f, FA_PICKER] = s
        pc = FA_OFFER
    if pc == FA_AFTER_PICK:
        r0 = st.fr[f, FA_R0]
        r1 = st.fr[f, FA_R1]
        if chosen_nb(st, 0) == K.O_PASS:
            discard_revealed_nb(st, s, r0)
            discard_revealed_nb(st, s, r1)
            pc = FA_END
        else:
            k = chosen_nb(st, 1)
            other = r1 if k == r0 else r0
            st.fr[f, FA_PICKED] = k
            st.fr[f, FA_OTHER] = other
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
                return call_nb(st, f, FA_END, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0)
            else:
                return call_nb(
                    st, f, FA_AFTER_PLAYED, RT_PLAY_FATE_CARD, s, k, chosen_nb(st, 2), chosen_nb(st, 3), actor, 0, 0
                )
    if pc == FA_AFTER_PLAYED:
        discard_revealed_nb(st, s, st.fr[f, FA_OTHER])
        pc = FA_END
    if pc == FA_PICK:
        r0 = st.fr[f, FA_R0]
        r1 = st.fr[f, FA_R1]
        if (r0 < 0 and r1 < 0) or over_nb(st):
            pc = FA_END
        else:
            # A card played when revealed goes at once to its location; the other card is discarded.
            at_once = -1
            if r0 >= 0 and played_when_revealed_nb(tb, st.inst[s, r0, K.I_CARD]):
                at_once = r0
            elif r1 >= 0 and played_when_revealed_nb(tb, st.inst[s, r1, K.I_CARD]):
                at_once = r1
            if at_once >= 0:
                where = tb.card[st.inst[s, at_once, K.I_CARD], K.CF_LOCATION]
                if st.sv[s, K.SV_LOCK + where] == 0 or (
                    villain_says_nb(st, tb, ru, ASK_PLAYED_INTO_LOCKED, s, st.inst[s, at_once, K.I_CARD], where) == 1
                ):
                    put_in_realm_nb(st, s, at_once, where, -1)
                    st.inst[s, at_once, K.I_FLAGS] |= K.FLAG_PLAYED
                    log_nb(st, K.EV_FATE_PLAY, s, at_once, where, -1, actor)
                else:
                    discard_revealed_nb(st, s, at_once)
                discard_revealed_nb(st, s, r1 if at_once == r0 else r0)
                pc = FA_END
            else:
                st.fr[f, FA_PICKER] = actor
                pc = FA_OFFER
                if st.fr[f, FA_TARGET_MAY_TAKE_OVER] != 0:
                    st.fr[f, FA_TARGET_MAY_TAKE_OVER] = 0
                    # a fated Condition: the target may take over the choice of card and location.
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
                        return ask_nb(st, f, FA_AFTER_TAKE_OVER, s, s, K.DK_CONDITION, K.C_FATED)
    if pc == FA_OFFER:
        r0 = st.fr[f, FA_R0]
        r1 = st.fr[f, FA_R1]
        picker = st.fr[f, FA_PICKER]
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
            pc = FA_END
        else:
            return ask_nb(st, f, FA_AFTER_PICK, s, picker, K.DK_FATE_PICK, actor)
    # FA_END: the Obstacle removals owed, one at a time
    if st.fr[f, FA_REMOVALS_DONE] < st.fr[f, FA_REMOVALS_OWED]:
        st.fr[f, FA_REMOVALS_DONE] += 1
        return call_nb(st, f, FA_END, RT_REMOVE_OBSTACLES, s, 1, actor, st.fr[f, FA_REMOVALS_FOR], 0, 0, 0)
    return ret_nb(st, f)
