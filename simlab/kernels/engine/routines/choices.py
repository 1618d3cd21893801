"""Routines for the small choices cards ask for: a location, a Hero to move, a mode, cards to discard."""

from simlab.kernels import const as K
from simlab.kernels.engine.frame import A0, A1, A2, A3, A4, A5, A6, ask_nb, chosen_nb, ret_nb
from simlab.kernels.engine.log import opt_add_nb, opt_clear_nb
from simlab.kernels.engine.realm import discard_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import can_enter_nb, hero_can_move_nb


@kernel
def pick_location_r(st, tb, ru, f):
    """``chooser`` picks a location of seat ``s`` that card row ``c`` may enter (not ``exclude``).

    Returns (G_RET0) the location, -1 if there is none."""
    chooser = st.fr[f, A0]
    s = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    c = st.fr[f, A2]
    exclude = st.fr[f, A3]
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if loc != exclude and can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, st.fr[f, A4])


@kernel
def pick_hero_to_move_r(st, tb, ru, f):
    """``chooser`` picks (Hero, destination) among Heroes a card may move.

    Returns (G_RET0, G_RET1) the Hero and its destination, -1, -1 if none or declined."""
    chooser = st.fr[f, A0]
    s = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        if chosen_nb(st, 0) == K.O_PASS:
            st.g[K.G_RET0] = -1
            st.g[K.G_RET1] = -1
        else:
            st.g[K.G_RET0] = chosen_nb(st, 1)
            st.g[K.G_RET1] = chosen_nb(st, 2)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, A2]:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for h in range(K.N_INST):
        for dest in range(K.N_LOC):
            if hero_can_move_nb(st, tb, s, h, dest):
                opt_add_nb(st, K.O_MOVE, h, dest, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        st.g[K.G_RET1] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, chooser, K.DK_CARD, st.fr[f, A3])


@kernel
def pick_mode_r(st, tb, ru, f):
    """``chooser`` picks mode m0 (if ok0) or m1 (if ok1): G_RET0, -1 if neither is allowed."""
    if st.fr[f, K.FR_PC] == 1:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, A4]:
        opt_add_nb(st, K.O_MODE, st.fr[f, A3], 0, 0)
    if st.fr[f, A6]:
        opt_add_nb(st, K.O_MODE, st.fr[f, A5], 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, 1, st.fr[f, A0], st.fr[f, A1], K.DK_MODE, st.fr[f, A2])


@kernel
def discard_picks_r(st, tb, ru, f):
    """Seat ``s`` discards cards from hand one at a time until it says done (``at_least_one``: not before one)."""
    s = st.fr[f, A0]
    if st.fr[f, K.FR_PC] == 1:
        if chosen_nb(st, 0) == K.O_PASS:
            return ret_nb(st, f)
        discard_nb(st, s, chosen_nb(st, 1))
        st.fr[f, A3] = 1  # no longer the first
    opt_clear_nb(st)
    if not (st.fr[f, A3] == 0 and st.fr[f, A1] != 0):
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
            opt_add_nb(st, K.O_CARD, k, s, 0)
    if st.g[K.G_NOPT] == 0:
        return ret_nb(st, f)
    return ask_nb(st, f, 1, s, s, K.DK_DISCARD, st.fr[f, A2])
