"""Routines playing and moving Heroes, and their "when played" and "when moved" abilities."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.rules.abilities import CARD_HERE, CARD_INSTANCE, CARD_SEAT, _ability_r
from simlab.kernels.rules.frame import A0, A1, A2, A3, RT_ON_ENTER, RT_ON_PLAY, START, call_nb, ret_nb
from simlab.kernels.rules.log import log_nb
from simlab.kernels.rules.realm import put_in_realm_nb, realm_changed_nb


@kernel
def on_enter_r(st, tb, ru, f):
    """A Hero's "when played or moved" ability (seat ``s``, Hero ``h``; ``chooser`` makes its choices): the routine of
    the villain whose cards print it, on this card frame (CARD_*: CARD_HERE the Hero's location)."""
    s = st.fr[f, CARD_SEAT]
    h = st.fr[f, CARD_INSTANCE]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_ENTER]
    if st.fr[f, K.FR_PC] == START:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0 or st.inst[s, h, K.I_ZONE] != K.Z_REALM:
            return ret_nb(st, f)
        st.fr[f, CARD_HERE] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)


# move_hero_r's, place_hero_r's and play_hero_r's frame
HERO_SEAT = A0  # whose Realm
HERO = A1  # the Hero instance
HERO_LOC = A2  # where it goes
HERO_CHOOSER = A3  # who makes the choices of its abilities
# move_hero_r's and place_hero_r's resume point: its "when played or moved" ability resolved
MOVE_HERO_AFTER_ON_ENTER = 1
PLAY_HERO_AFTER_ON_PLAY = 1  # play_hero_r's resume points: its "when played" ability resolved,
PLAY_HERO_AFTER_ON_ENTER = 2  # then its "when played or moved" one


@kernel
def move_hero_r(st, tb, ru, f):
    """Move Hero ``h`` of seat ``s`` to ``dest`` (attached Items go along), then its "when moved" ability."""
    s = st.fr[f, HERO_SEAT]
    h = st.fr[f, HERO]
    if st.fr[f, K.FR_PC] == MOVE_HERO_AFTER_ON_ENTER:
        realm_changed_nb(st, tb, ru, s)
        return ret_nb(st, f)
    dest = st.fr[f, HERO_LOC]
    src = st.inst[s, h, K.I_LOC]
    st.inst[s, h, K.I_LOC] = dest
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == h and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, h, src, dest, 0)
    return call_nb(st, f, MOVE_HERO_AFTER_ON_ENTER, RT_ON_ENTER, s, h, st.fr[f, HERO_CHOOSER], 0, 0, 0, 0)


@kernel
def place_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc`` without its "when played" ability (Heroes played by other Heroes)."""
    s = st.fr[f, HERO_SEAT]
    h = st.fr[f, HERO]
    if st.fr[f, K.FR_PC] == MOVE_HERO_AFTER_ON_ENTER:
        realm_changed_nb(st, tb, ru, s)
        return ret_nb(st, f)
    put_in_realm_nb(st, s, h, st.fr[f, HERO_LOC], -1)
    st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
    return call_nb(st, f, MOVE_HERO_AFTER_ON_ENTER, RT_ON_ENTER, s, h, st.fr[f, HERO_CHOOSER], 0, 0, 0, 0)


@kernel
def play_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc``: its "when played" ability, its "when played or moved" one, then the ongoing
    abilities that answer a change of the Realm."""
    s = st.fr[f, HERO_SEAT]
    h = st.fr[f, HERO]
    chooser = st.fr[f, HERO_CHOOSER]
    pc = st.fr[f, K.FR_PC]
    if pc == START:
        put_in_realm_nb(st, s, h, st.fr[f, HERO_LOC], -1)
        st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
        return call_nb(st, f, PLAY_HERO_AFTER_ON_PLAY, RT_ON_PLAY, s, h, chooser, 0, 0, 0, 0)
    if pc == PLAY_HERO_AFTER_ON_PLAY:
        return call_nb(st, f, PLAY_HERO_AFTER_ON_ENTER, RT_ON_ENTER, s, h, chooser, 0, 0, 0, 0)
    realm_changed_nb(st, tb, ru, s)
    return ret_nb(st, f)


@kernel
def on_play_r(st, tb, ru, f):
    """A Hero's or Item's "when played" ability (seat ``s``, card ``h``); ``chooser`` makes its choices.

    The routine of the villain whose cards print it runs on this card frame (CARD_*: CARD_HERE the card's location).
    """
    s = st.fr[f, CARD_SEAT]
    h = st.fr[f, CARD_INSTANCE]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_PLAY]
    if st.fr[f, K.FR_PC] == START:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0:
            return ret_nb(st, f)
        st.fr[f, CARD_HERE] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)
