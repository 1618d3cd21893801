"""Routines playing Villain cards from hand."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import play_cost_nb
from simlab.kernels.rules.abilities import CARD_INSTANCE, CARD_SEAT, _ability_r
from simlab.kernels.rules.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    RT_ON_PLAY,
    RT_PASSIVE_PLAYED,
    RT_PLAY_ITEM,
    RT_RESOLVE_EFFECT,
    call_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.log import log_nb
from simlab.kernels.rules.realm import (
    discard_nb,
    put_in_realm_nb,
    realm_changed_nb,
    watches_realm_nb,
)
from simlab.kernels.state import set_zone_nb

# play_item_r's frame
PI_SEAT = A0  # who plays it
PI_CARD = A1  # the Item (instance)
PI_LOC = A2  # where
PI_HOST = A3  # the instance it attaches to (-1: none)
PI_FREE = A4  # 1: not paid for (and no Condition window opens)
PI_AFTER_ON_PLAY = 1  # resume point: its "when played" ability resolved


@kernel
def play_item_r(st, tb, ru, f):
    """Play Item ``k`` from seat ``s``'s hand to ``loc`` or attached to ``host`` (paying unless ``free``)."""
    s = st.fr[f, PI_SEAT]
    k = st.fr[f, PI_CARD]
    free = st.fr[f, PI_FREE]
    if st.fr[f, K.FR_PC] == PI_AFTER_ON_PLAY:
        if free == 0:
            st.g[K.G_TRIGGERS] |= K.TRIG_ITEM
            st.g[K.G_ITEM_ACTOR] = s
        return ret_nb(st, f)
    loc = st.fr[f, PI_LOC]
    host = st.fr[f, PI_HOST]
    c = st.inst[s, k, K.I_CARD]
    cost = 0 if free != 0 else play_cost_nb(st, tb, s, c)
    st.sv[s, K.SV_POWER] -= cost
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_PLAYED
    log_nb(st, K.EV_PLAY, s, k, loc, host, cost)
    put_in_realm_nb(st, s, k, st.inst[s, host, K.I_LOC] if host >= 0 else loc, host)
    return call_nb(st, f, PI_AFTER_ON_PLAY, RT_ON_PLAY, s, k, s, 0, 0, 0, 0)


# play_villain_card_r's frame
PV_SEAT = A0  # who plays it
PV_CARD = A1  # the card (instance)
PV_LOC = A2  # where
PV_HOST = A3  # the instance an Ally replaces or an Item attaches to (-1: none)
PV_AFTER_PASSIVE = 1  # resume points: the Ally's ongoing ability acted as it was played (passive_played_r),
PV_AFTER_EFFECT = 2  # the Effect resolved


@kernel
def play_villain_card_r(st, tb, ru, f):
    """Play card ``k`` from seat ``s``'s hand with a Play a Card action, paying its cost."""
    s = st.fr[f, PV_SEAT]
    k = st.fr[f, PV_CARD]
    pc = st.fr[f, K.FR_PC]
    if pc == PV_AFTER_PASSIVE:
        realm_changed_nb(st, tb, ru, s)
        return ret_nb(st, f)
    if pc == PV_AFTER_EFFECT:
        if st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, s, k)
        return ret_nb(st, f)
    loc = st.fr[f, PV_LOC]
    host = st.fr[f, PV_HOST]
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
        if watches_realm_nb(tb, st.sv[s, K.SV_VILLAIN], tb.card[c, K.CF_PASSIVE]):
            return call_nb(st, f, PV_AFTER_PASSIVE, RT_PASSIVE_PLAYED, s, k, s, 0, 0, 0, 0)
        realm_changed_nb(st, tb, ru, s)
        return ret_nb(st, f)
    set_zone_nb(st, s, k, K.Z_LIMBO)
    return call_nb(st, f, PV_AFTER_EFFECT, RT_RESOLVE_EFFECT, s, k, s, 0, 0, 0, 0)


@kernel
def passive_played_r(st, tb, ru, f):
    """An Ally's ongoing ability that watches where cards stand, as the Ally is played: the routine of the villain
    whose cards print it, on this card frame (CARD_*)."""
    s = st.fr[f, CARD_SEAT]
    ab = tb.card[st.inst[s, st.fr[f, CARD_INSTANCE], K.I_CARD], K.CF_PASSIVE]
    return _ability_r(ab, st, tb, ru, f)
