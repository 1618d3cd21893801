"""Heroes defeated, and what their defeat sets off."""

from simlab.kernels import const as K
from simlab.kernels.engine.log import log_nb
from simlab.kernels.engine.obstacles import clear_obstacles_at_nb
from simlab.kernels.engine.piles import (
    fate_discard_into_deck_nb,
    put_on_fate_deck_nb,
    shuffle_fate_deck_nb,
    take_from_deck_nb,
)
from simlab.kernels.engine.realm import discard_nb, leave_realm_nb, put_in_realm_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import can_enter_nb
from simlab.kernels.state import set_zone_nb


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
                set_zone_nb(st, s, k, K.Z_FDISCARD)


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
    if by_vanquish and not ignored and tb.card[c, K.CF_PASSIVE] == K.AB_RETURNS_TO_FATE_DECK:
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
