"""Routines of the Vanquish, Move an Item or Ally and Activate actions."""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import activation_cost_nb, strength_nb, vanquish_min_allies_nb, zone_bits_nb
from simlab.kernels.rules.abilities import (
    ASK_VANQUISH_RETURNS_ALLIES,
    CARD_INSTANCE,
    CARD_SEAT,
    RESOLVE_USED_IN_VANQUISH,
    _ability_r,
    own_ability_says_nb,
    realm_checks_nb,
)
from simlab.kernels.rules.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    A5,
    RT_ACTIVATE,
    RT_VANQUISH,
    START,
    ask_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.heroes import defeat_hero_nb
from simlab.kernels.rules.log import log_nb, opt_add_nb, opt_clear_nb
from simlab.kernels.rules.moving import add_activate_options_nb, add_move_options_nb
from simlab.kernels.rules.realm import discard_nb, leave_realm_nb, move_card_nb
from simlab.kernels.rules.vanquish import add_vanquish_options_nb, vanquish_ally_strength_nb

# vanquish_r's (and vanquish_done_r's) frame; st.tmp holds each eligible Ally's Strength (-1: not eligible) and
# st.mark the Allies picked
VQ_SEAT = A0  # whose Realm
VQ_HERO = A1  # the Hero vanquished
VQ_STRENGTH_NEEDED = A2
VQ_ALLIES_NEEDED = A3
VQ_STRENGTH = A4  # the Strength of the Allies picked so far
VQ_ALLIES = A5  # how many Allies are picked
VQ_AFTER_ALLY = 1  # resume point: an Ally, or done, was picked


@kernel
def vanquish_r(st, tb, ru, f):
    """Vanquish Hero ``h`` of seat ``s`` with Allies its owner picks one by one (done once they suffice).

    The frame: VQ_*.
    """
    s = st.fr[f, VQ_SEAT]
    h = st.fr[f, VQ_HERO]
    pc = st.fr[f, K.FR_PC]
    if pc == START:
        here = st.inst[s, h, K.I_LOC]
        st.fr[f, VQ_STRENGTH_NEEDED] = strength_nb(st, tb, s, h)
        st.fr[f, VQ_ALLIES_NEEDED] = vanquish_min_allies_nb(st, tb, s, h)
        for k in range(K.N_INST):
            st.mark[k] = 0
            st.tmp[k] = -1
        # only an Ally in the Realm can join, and Allies are Villain cards (the card data's load checks)
        m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            st.tmp[k] = vanquish_ally_strength_nb(st, tb, ru, s, k, here)
    elif pc == VQ_AFTER_ALLY:
        if chosen_nb(st, 0) == K.O_PASS:
            return vanquish_done_r(st, tb, ru, f)
        k = chosen_nb(st, 1)
        st.mark[k] = 1
        st.fr[f, VQ_STRENGTH] += st.tmp[k]
        st.fr[f, VQ_ALLIES] += 1
    opt_clear_nb(st)
    if st.fr[f, VQ_STRENGTH] >= st.fr[f, VQ_STRENGTH_NEEDED] and st.fr[f, VQ_ALLIES] >= st.fr[f, VQ_ALLIES_NEEDED]:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for k in range(K.N_INST):
        if st.tmp[k] >= 0 and st.mark[k] == 0:
            opt_add_nb(st, K.O_CARD, k, s, 0)
    if st.g[K.G_NOPT] == 0:
        return vanquish_done_r(st, tb, ru, f)
    return ask_nb(st, f, VQ_AFTER_ALLY, s, s, K.DK_VANQUISH_ALLY, h)


@kernel
def vanquish_done_r(st, tb, ru, f):
    """The Allies are chosen: they leave (or go back to hand where a card returns them), the Hero is
    defeated."""
    s = st.fr[f, VQ_SEAT]
    h = st.fr[f, VQ_HERO]
    here = st.inst[s, h, K.I_LOC]
    log_nb(st, K.EV_VANQUISH, s, h, st.fr[f, VQ_ALLIES], st.fr[f, VQ_STRENGTH_NEEDED], 0)
    returns_allies = realm_checks_nb(st, tb, ru, ASK_VANQUISH_RETURNS_ALLIES, s, here, -1)
    for k in range(K.N_VCARDS):
        if st.mark[k] == 0:
            continue
        if own_ability_says_nb(st, tb, ru, RESOLVE_USED_IN_VANQUISH, s, st.inst[s, k, K.I_CARD], k) == 1:
            continue  # its ongoing ability kept or moved it
        if returns_allies:
            leave_realm_nb(st, s, k, K.Z_HAND)
            log_nb(st, K.EV_TO_HAND, s, k, 0, 0, 0)
        else:
            discard_nb(st, s, k)
    defeat_hero_nb(st, tb, ru, s, h, 1, s)
    st.g[K.G_TRIGGERS] |= K.TRIG_VANQUISH
    return ret_nb(st, f)


# choose_vanquish_r's, choose_move_r's and choose_activate_r's frame
CH_SEAT = A0  # who takes the action
CH_CTX = A1  # the ability granting it (0: a symbol)
CH_AFTER_PICK = 1  # resume point: what the action is done on was picked


@kernel
def choose_vanquish_r(st, tb, ru, f):
    """Perform a Vanquish action (the Hero chosen by seat ``s``)."""
    s = st.fr[f, CH_SEAT]
    if st.fr[f, K.FR_PC] == CH_AFTER_PICK:
        return tail_nb(st, f, RT_VANQUISH, s, chosen_nb(st, 1), 0, 0, 0, 0, 0)
    opt_clear_nb(st)
    add_vanquish_options_nb(st, tb, ru, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, CH_AFTER_PICK, s, s, K.DK_CARD, st.fr[f, CH_CTX])
    return ret_nb(st, f)


@kernel
def choose_move_r(st, tb, ru, f):
    """Perform a Move an Item or Ally action."""
    s = st.fr[f, CH_SEAT]
    if st.fr[f, K.FR_PC] == CH_AFTER_PICK:
        move_card_nb(st, tb, ru, s, chosen_nb(st, 1), chosen_nb(st, 2))
        return ret_nb(st, f)
    opt_clear_nb(st)
    add_move_options_nb(st, tb, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, CH_AFTER_PICK, s, s, K.DK_CARD, st.fr[f, CH_CTX])
    return ret_nb(st, f)


@kernel
def activate_r(st, tb, ru, f):
    """Pay and resolve card ``k``'s Activated Ability (-1: the villain's tile, its villain's routine pays), by the
    routine of the villain whose cards print it, on this card frame (CARD_*; from CARD_CHOOSER on its locals)."""
    s = st.fr[f, CARD_SEAT]
    k = st.fr[f, CARD_INSTANCE]
    pc = st.fr[f, K.FR_PC]
    if pc == START:
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
    s = st.fr[f, CH_SEAT]
    if st.fr[f, K.FR_PC] == CH_AFTER_PICK:
        return tail_nb(st, f, RT_ACTIVATE, s, chosen_nb(st, 1), 0, 0, 0, 0, 0)
    opt_clear_nb(st)
    add_activate_options_nb(st, tb, ru, s)
    if st.g[K.G_NOPT] > 0:
        return ask_nb(st, f, CH_AFTER_PICK, s, s, K.DK_CARD, st.fr[f, CH_CTX])
    return ret_nb(st, f)
