"""Routines of the Vanquish, Move an Item or Ally and Activate actions."""

from simlab.kernels import const as K
from simlab.kernels.engine.abilities import _ability_r
from simlab.kernels.engine.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    A5,
    RT_ACTIVATE,
    RT_VANQUISH,
    ask_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.engine.heroes import defeat_hero_nb
from simlab.kernels.engine.log import log_nb, opt_add_nb, opt_clear_nb
from simlab.kernels.engine.moving import add_activate_options_nb, add_move_options_nb
from simlab.kernels.engine.realm import discard_nb, leave_realm_nb, move_card_nb
from simlab.kernels.engine.vanquish import add_vanquish_options_nb, vanquish_ally_strength_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import activation_cost_nb, strength_nb, vanquish_min_allies_nb


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
