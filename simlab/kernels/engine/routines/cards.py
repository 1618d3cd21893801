"""Routines playing Villain cards from hand."""

from simlab.kernels import const as K
from simlab.kernels.engine.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    RT_ON_PLAY,
    RT_PLAY_ITEM,
    RT_RESOLVE_EFFECT,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.engine.log import log_nb, opt_add_nb, opt_clear_nb
from simlab.kernels.engine.realm import discard_nb, put_in_realm_nb, trap_nb, trap_sweep_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import play_cost_nb, trappable_nb
from simlab.kernels.state import set_zone_nb


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
