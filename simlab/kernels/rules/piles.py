"""Decks and piles: shuffling, drawing, revealing, and taking a card out of a deck."""

from simlab.kernels import const as K
from simlab.kernels.compile import entry_kernel, kernel
from simlab.kernels.query import zone_count_nb
from simlab.kernels.rng import shuffle_nb
from simlab.kernels.rules.log import log_nb
from simlab.kernels.state import set_zone_nb


@kernel
def shuffle_villain_deck_nb(st, s):
    shuffle_nb(st.rng, st.vdeck[s], st.sv[s, K.SV_VDECK_N])


@kernel
def shuffle_fate_deck_nb(st, s):
    shuffle_nb(st.rng, st.fdeck[s], st.sv[s, K.SV_FDECK_N])


@kernel
def villain_discard_into_deck_nb(st, s):
    """Shuffle the Villain discard pile into the Villain deck (the whole deck is shuffled)."""
    n = st.sv[s, K.SV_VDECK_N]
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_VDISCARD:
            set_zone_nb(st, s, k, K.Z_VDECK)
            st.vdeck[s, n] = k
            n += 1
    st.sv[s, K.SV_VDECK_N] = n
    shuffle_villain_deck_nb(st, s)
    log_nb(st, K.EV_SHUFFLE, s, 0, n, 0, 0)


@kernel
def fate_discard_into_deck_nb(st, s):
    n = st.sv[s, K.SV_FDECK_N]
    for k in range(K.N_VCARDS, K.N_INST):
        if st.inst[s, k, K.I_ZONE] == K.Z_FDISCARD:
            set_zone_nb(st, s, k, K.Z_FDECK)
            st.fdeck[s, n] = k
            n += 1
    st.sv[s, K.SV_FDECK_N] = n
    shuffle_fate_deck_nb(st, s)
    log_nb(st, K.EV_SHUFFLE, s, 1, n, 0, 0)


@kernel
def draw_nb(st, s):
    """Draw one card (reshuffling the discard pile into an empty deck); -1 if there is none."""
    if st.sv[s, K.SV_VDECK_N] == 0:
        villain_discard_into_deck_nb(st, s)
        if st.sv[s, K.SV_VDECK_N] == 0:
            return -1
    n = st.sv[s, K.SV_VDECK_N] - 1
    k = st.vdeck[s, n]
    st.sv[s, K.SV_VDECK_N] = n
    set_zone_nb(st, s, k, K.Z_HAND)
    st.inst[s, k, K.I_FLAGS] |= K.FLAG_DRAWN
    log_nb(st, K.EV_DRAW, s, k, 0, 0, 0)
    return k


@kernel
def draw_n_nb(st, s, n):
    for _ in range(n):
        if draw_nb(st, s) < 0:
            break


@kernel
def hand_size_nb(st, s):
    return zone_count_nb(st, s, K.Z_HAND)


@kernel
def reveal_fate_nb(st, s):
    """Take the top Fate card of seat ``s`` into limbo (reshuffling if needed); -1 if there is none."""
    if st.sv[s, K.SV_FDECK_N] == 0:
        fate_discard_into_deck_nb(st, s)
        if st.sv[s, K.SV_FDECK_N] == 0:
            return -1
    n = st.sv[s, K.SV_FDECK_N] - 1
    k = st.fdeck[s, n]
    st.sv[s, K.SV_FDECK_N] = n
    set_zone_nb(st, s, k, K.Z_LIMBO)
    log_nb(st, K.EV_REVEAL, s, k, 0, 0, 0)
    return k


@entry_kernel  # the scenario API builds positions with it
def take_from_deck_nb(st, s, k):
    """Remove instance ``k`` from whichever deck holds it (the rest keeps its order)."""
    if k < K.N_VCARDS:
        n = st.sv[s, K.SV_VDECK_N]
        j = 0
        for i in range(n):
            if st.vdeck[s, i] != k:
                st.vdeck[s, j] = st.vdeck[s, i]
                j += 1
        st.sv[s, K.SV_VDECK_N] = j
    else:
        n = st.sv[s, K.SV_FDECK_N]
        j = 0
        for i in range(n):
            if st.fdeck[s, i] != k:
                st.fdeck[s, j] = st.fdeck[s, i]
                j += 1
        st.sv[s, K.SV_FDECK_N] = j


@entry_kernel  # the scenario API builds positions with it
def put_on_fate_deck_nb(st, s, k):
    n = st.sv[s, K.SV_FDECK_N]
    st.fdeck[s, n] = k
    st.sv[s, K.SV_FDECK_N] = n + 1
    set_zone_nb(st, s, k, K.Z_FDECK)
    st.inst[s, k, K.I_LOC] = -1
    st.inst[s, k, K.I_HOST] = -1
