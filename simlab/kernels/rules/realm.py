"""Cards entering and leaving the Realm: played, discarded, trapped, found, moved."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import entry_kernel, kernel
from simlab.kernels.query import zone_bits_nb, zone_instance_nb
from simlab.kernels.rules.abilities import RESOLVE_REALM_CHANGED, _check
from simlab.kernels.rules.log import log_nb
from simlab.kernels.rules.piles import shuffle_fate_deck_nb, shuffle_villain_deck_nb, take_from_deck_nb
from simlab.kernels.state import set_zone_nb


@entry_kernel  # the scenario API builds positions with it
def put_in_realm_nb(st, s, k, loc, host):
    set_zone_nb(st, s, k, K.Z_REALM)
    st.inst[s, k, K.I_LOC] = loc
    st.inst[s, k, K.I_HOST] = host
    st.inst[s, k, K.I_TRAPPED] = 0


@kernel
def untrap_nb(st, s, k):
    if st.inst[s, k, K.I_TRAPPED] != 0:
        st.inst[s, k, K.I_TRAPPED] = 0
        st.sv[s, K.SV_TRAPS] += 1
        log_nb(st, K.EV_UNTRAP, s, k, 0, 0, 0)


@kernel
def leave_realm_nb(st, s, k, zone):
    """Send ``k`` to ``zone``; its attached Items are discarded and its Trapped token returns."""
    untrap_nb(st, s, k)
    set_zone_nb(st, s, k, zone)
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_HOST] == k:
            set_zone_nb(st, s, j, K.Z_FDISCARD if j >= K.N_VCARDS else K.Z_VDISCARD)
            st.inst[s, j, K.I_LOC] = -1
            st.inst[s, j, K.I_HOST] = -1
            log_nb(st, K.EV_DISCARD, s, j, 0, 0, 0)


@kernel
def discard_nb(st, s, k):
    """Discard ``k`` (from anywhere) to its own discard pile."""
    leave_realm_nb(st, s, k, K.Z_FDISCARD if k >= K.N_VCARDS else K.Z_VDISCARD)
    log_nb(st, K.EV_DISCARD, s, k, 0, 0, 0)


@kernel
def trap_nb(st, s, k):
    st.inst[s, k, K.I_TRAPPED] = 1
    st.sv[s, K.SV_TRAPS] -= 1
    log_nb(st, K.EV_TRAP, s, k, 0, 0, 0)


@kernel
def find_nb(st, s, card, search_realm):
    """FIND card row ``card`` in seat ``s``'s cards: the Realm (if ``search_realm``), its discard pile, its deck.

    A card found in the Realm is taken out of it (attached Items are discarded); one found in the
    deck is taken out and the deck reshuffled. Returns the instance, now in limbo, or -1.
    """
    fate = False
    for k in range(K.N_INST):
        if st.inst[s, k, K.I_CARD] == card:
            fate = k >= K.N_VCARDS
            break
    if search_realm:
        k = zone_instance_nb(st, s, card, K.Z_REALM)
        if k >= 0:
            leave_realm_nb(st, s, k, K.Z_LIMBO)
            return k
    k = zone_instance_nb(st, s, card, K.Z_FDISCARD if fate else K.Z_VDISCARD)
    if k >= 0:
        set_zone_nb(st, s, k, K.Z_LIMBO)
        return k
    k = zone_instance_nb(st, s, card, K.Z_FDECK if fate else K.Z_VDECK)
    if k >= 0:
        take_from_deck_nb(st, s, k)
        set_zone_nb(st, s, k, K.Z_LIMBO)
        if fate:
            shuffle_fate_deck_nb(st, s)
        else:
            shuffle_villain_deck_nb(st, s)
        return k
    return -1


@kernel
def realm_changed_nb(st, tb, ru, s):
    """A card entered or moved in seat ``s``'s Realm: each ongoing ability there that watches where cards stand (its
    villain's folder names it: VF_WATCHING) acts, by its villain's routine (RESOLVE_REALM_CHANGED)."""
    watch = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_WATCHING] & st.sv[s, K.SV_REALM_PASSIVES]
    while watch != 0:
        b = lowest_nb(watch)
        watch &= watch - 1
        _check(K.FIRST_PASSIVE + b, st, tb, ru, RESOLVE_REALM_CHANGED, s, -1, 0)


@kernel
def watches_realm_nb(tb, v, p):
    """Ongoing ability ``p`` of villain ``v``'s cards watches where cards stand (VF_WATCHING)."""
    return p >= K.FIRST_PASSIVE and (tb.vil[v, K.VF_WATCHING] >> (p - K.FIRST_PASSIVE)) & 1 != 0


@kernel
def move_card_nb(st, tb, ru, s, k, dest):
    """Move an Ally or Item (attached Items go along)."""
    src = st.inst[s, k, K.I_LOC]
    st.inst[s, k, K.I_LOC] = dest
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_HOST] == k:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, k, src, dest, 0)
    realm_changed_nb(st, tb, ru, s)
