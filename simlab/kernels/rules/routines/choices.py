"""Routines for the small choices cards ask for: a location, a Hero to move, a mode, cards to discard."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import can_enter_nb, hero_can_move_nb, realm_heroes_nb
from simlab.kernels.rules.frame import A0, A1, A2, A3, A4, A5, A6, ask_nb, chosen_nb, ret_nb
from simlab.kernels.rules.log import opt_add_nb, opt_clear_nb
from simlab.kernels.rules.realm import discard_nb

# pick_location_r's frame
PL_CHOOSER = A0
PL_SEAT = A1  # whose Realm
PL_CARD = A2  # the card row that is to enter the location
PL_EXCLUDE = A3  # a location not to offer (-1: none)
PL_CTX = A4  # the ability asking (the decision's context)
PL_AFTER_PICK = 1  # resume point: a location was picked


@kernel
def pick_location_r(st, tb, ru, f):
    """``chooser`` picks a location of seat ``s`` that card row ``c`` may enter (not ``exclude``).

    Returns (G_RET0) the location, -1 if there is none."""
    chooser = st.fr[f, PL_CHOOSER]
    s = st.fr[f, PL_SEAT]
    if st.fr[f, K.FR_PC] == PL_AFTER_PICK:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    c = st.fr[f, PL_CARD]
    exclude = st.fr[f, PL_EXCLUDE]
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if loc != exclude and can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, PL_AFTER_PICK, s, chooser, K.DK_LOCATION, st.fr[f, PL_CTX])


# pick_hero_to_move_r's frame
PH_CHOOSER = A0
PH_SEAT = A1  # whose Realm
PH_MAY_DECLINE = A2  # 1: the chooser may move none
PH_CTX = A3  # the ability asking
PH_AFTER_PICK = 1  # resume point: a Hero and its destination were picked


@kernel
def pick_hero_to_move_r(st, tb, ru, f):
    """``chooser`` picks (Hero, destination) among Heroes a card may move.

    Returns (G_RET0, G_RET1) the Hero and its destination, -1, -1 if none or declined."""
    chooser = st.fr[f, PH_CHOOSER]
    s = st.fr[f, PH_SEAT]
    if st.fr[f, K.FR_PC] == PH_AFTER_PICK:
        if chosen_nb(st, 0) == K.O_PASS:
            st.g[K.G_RET0] = -1
            st.g[K.G_RET1] = -1
        else:
            st.g[K.G_RET0] = chosen_nb(st, 1)
            st.g[K.G_RET1] = chosen_nb(st, 2)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, PH_MAY_DECLINE]:
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    m = realm_heroes_nb(st, tb, s)
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if hero_can_move_nb(st, tb, s, h, dest):
                opt_add_nb(st, K.O_MOVE, h, dest, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        st.g[K.G_RET1] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, PH_AFTER_PICK, s, chooser, K.DK_CARD, st.fr[f, PH_CTX])


# pick_mode_r's frame
PM_SEAT = A0  # whose Realm the decision concerns
PM_CHOOSER = A1
PM_CTX = A2  # the ability asking
PM_MODE0 = A3  # the first mode (M_*) and whether it is allowed
PM_OK0 = A4
PM_MODE1 = A5  # the second mode and whether it is allowed
PM_OK1 = A6
PM_AFTER_PICK = 1  # resume point: a mode was picked


@kernel
def pick_mode_r(st, tb, ru, f):
    """``chooser`` picks mode m0 (if ok0) or m1 (if ok1): G_RET0, -1 if neither is allowed."""
    if st.fr[f, K.FR_PC] == PM_AFTER_PICK:
        st.g[K.G_RET0] = chosen_nb(st, 1)
        return ret_nb(st, f)
    opt_clear_nb(st)
    if st.fr[f, PM_OK0]:
        opt_add_nb(st, K.O_MODE, st.fr[f, PM_MODE0], 0, 0)
    if st.fr[f, PM_OK1]:
        opt_add_nb(st, K.O_MODE, st.fr[f, PM_MODE1], 0, 0)
    if st.g[K.G_NOPT] == 0:
        st.g[K.G_RET0] = -1
        return ret_nb(st, f)
    return ask_nb(st, f, PM_AFTER_PICK, st.fr[f, PM_SEAT], st.fr[f, PM_CHOOSER], K.DK_MODE, st.fr[f, PM_CTX])


# discard_picks_r's frame
DP_SEAT = A0  # who discards
DP_AT_LEAST_ONE = A1  # 1: not done before one card
DP_CTX = A2  # the ability asking
DP_ONE_DISCARDED = A3  # 1 once a card is discarded
DP_AFTER_PICK = 1  # resume point: a card, or done, was picked


@kernel
def discard_picks_r(st, tb, ru, f):
    """Seat ``s`` discards cards from hand one at a time until it says done (``at_least_one``: not before one)."""
    s = st.fr[f, DP_SEAT]
    if st.fr[f, K.FR_PC] == DP_AFTER_PICK:
        if chosen_nb(st, 0) == K.O_PASS:
            return ret_nb(st, f)
        discard_nb(st, s, chosen_nb(st, 1))
        st.fr[f, DP_ONE_DISCARDED] = 1  # no longer the first
    opt_clear_nb(st)
    if not (st.fr[f, DP_ONE_DISCARDED] == 0 and st.fr[f, DP_AT_LEAST_ONE] != 0):
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
    for k in range(K.N_VCARDS):
        if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
            opt_add_nb(st, K.O_CARD, k, s, 0)
    if st.g[K.G_NOPT] == 0:
        return ret_nb(st, f)
    return ask_nb(st, f, DP_AFTER_PICK, s, s, K.DK_DISCARD, st.fr[f, DP_CTX])
