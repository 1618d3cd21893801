"""Routines playing and moving Heroes, and their "when played" and "when moved" abilities."""

from simlab.kernels import const as K
from simlab.kernels.engine.abilities import _ability_r
from simlab.kernels.engine.frame import A0, A1, A2, A3, RT_ON_ENTER, RT_ON_PLAY, call_nb, ret_nb
from simlab.kernels.engine.log import log_nb
from simlab.kernels.engine.realm import put_in_realm_nb, trap_sweep_nb
from simlab.kernels.jit import kernel


@kernel
def on_enter_r(st, tb, ru, f):
    """A Hero's "when played or moved" ability (seat ``s``, Hero ``h``; ``chooser`` makes its choices): the routine of
    the villain whose cards print it. Locals: A3 the Hero's location, A4.. per ability."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_ENTER]
    if st.fr[f, K.FR_PC] == 0:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0 or st.inst[s, h, K.I_ZONE] != K.Z_REALM:
            return ret_nb(st, f)
        st.fr[f, A3] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)


@kernel
def move_hero_r(st, tb, ru, f):
    """Move Hero ``h`` of seat ``s`` to ``dest`` (attached Items go along), then its "when moved" ability."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    dest = st.fr[f, A2]
    src = st.inst[s, h, K.I_LOC]
    st.inst[s, h, K.I_LOC] = dest
    for j in range(K.N_INST):
        if st.inst[s, j, K.I_HOST] == h and st.inst[s, j, K.I_ZONE] == K.Z_REALM:
            st.inst[s, j, K.I_LOC] = dest
    log_nb(st, K.EV_MOVE_CARD, s, h, src, dest, 0)
    return call_nb(st, f, 1, RT_ON_ENTER, s, h, st.fr[f, A3], 0, 0, 0, 0)


@kernel
def place_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc`` without its "when played" ability (Heroes played by other Heroes)."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    if st.fr[f, K.FR_PC] == 1:
        trap_sweep_nb(st, tb, ru, s)
        return ret_nb(st, f)
    put_in_realm_nb(st, s, h, st.fr[f, A2], -1)
    st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
    return call_nb(st, f, 1, RT_ON_ENTER, s, h, st.fr[f, A3], 0, 0, 0, 0)


@kernel
def play_hero_r(st, tb, ru, f):
    """Play Hero ``h`` to ``loc``: its "when played" ability, its "when played or moved" one, then Lucifer."""
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    chooser = st.fr[f, A3]
    pc = st.fr[f, K.FR_PC]
    if pc == 0:
        put_in_realm_nb(st, s, h, st.fr[f, A2], -1)
        st.inst[s, h, K.I_FLAGS] |= K.FLAG_PLAYED
        return call_nb(st, f, 1, RT_ON_PLAY, s, h, chooser, 0, 0, 0, 0)
    if pc == 1:
        return call_nb(st, f, 2, RT_ON_ENTER, s, h, chooser, 0, 0, 0, 0)
    trap_sweep_nb(st, tb, ru, s)
    return ret_nb(st, f)


@kernel
def on_play_r(st, tb, ru, f):
    """A Hero's or Item's "when played" ability (seat ``s``, card ``h``); ``chooser`` makes its choices.

    Locals: A3 ``here``, A4.. per ability.
    """
    s = st.fr[f, A0]
    h = st.fr[f, A1]
    ab = tb.card[st.inst[s, h, K.I_CARD], K.CF_ON_PLAY]
    if st.fr[f, K.FR_PC] == 0:
        if ab == K.AB_NONE or st.inst[s, h, K.I_TRAPPED] != 0:
            return ret_nb(st, f)
        st.fr[f, A3] = st.inst[s, h, K.I_LOC]
    return _ability_r(ab, st, tb, ru, f)
