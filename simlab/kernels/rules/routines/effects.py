"""Routines resolving Effects and Conditions, and the Condition windows."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.rules.abilities import _ability_r, card_frame_nb
from simlab.kernels.rules.fate import effect_doable_nb, hero_placements_nb
from simlab.kernels.rules.frame import (
    A0,
    A1,
    A2,
    A3,
    RT_PLAY_HERO,
    RT_RESOLVE_EFFECT,
    START,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.log import log_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.realm import discard_nb
from simlab.kernels.state import set_zone_nb

FROM_FATE_DISCARD_AFTER_PICK = 1  # resolve_effect_r's resume point: the Hero to play from the Fate discard was picked


@kernel
def resolve_effect_r(st, tb, ru, f):
    """Resolve the Effect or Condition ``k`` in seat ``s``'s Realm; ``chooser`` makes its choices.

    The routine of the villain whose cards print it runs on this card frame (CARD_*; from CARD_LOCALS on its own).
    """
    s, k, chooser, pc, c, ab, _ = card_frame_nb(st, tb, f, K.CF_EFFECT)
    if ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
        if pc == START:
            opt_clear_nb(st)
            for h in range(K.N_VCARDS, K.N_INST):
                if st.inst[s, h, K.I_ZONE] == K.Z_FDISCARD and tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                    hero_placements_nb(st, tb, s, h, h)
            if st.g[K.G_NOPT] > 0:
                return ask_nb(st, f, FROM_FATE_DISCARD_AFTER_PICK, s, chooser, K.DK_FATE_PICK, ab)
            return ret_nb(st, f)
        h = chosen_nb(st, 1)
        loc = chosen_nb(st, 2)
        set_zone_nb(st, s, h, K.Z_LIMBO)
        log_nb(st, K.EV_FATE_PLAY, s, h, loc, -1, chooser)
        return tail_nb(st, f, RT_PLAY_HERO, s, h, loc, chooser, 0, 0, 0)
    return _ability_r(ab, st, tb, ru, f)  # the card's villain's routine (simlab/villains/<folder>/abilities.py)


# condition_window_r's frame
CW_TRIGGER = A0  # the Conditions' trigger (C_*)
CW_ACTOR = A1  # whose action raised it
CW_OFFSET = A2  # the opponent being offered, as an offset from CW_ACTOR in turn order
CW_CONDITION = A3  # the Condition being resolved
CW_AFTER_PICK = 1  # resume points: the opponent picked a Condition or passed,
CW_AFTER_CONDITION = 2  # the Condition resolved


@kernel
def condition_window_r(st, tb, ru, f):
    """Each opponent of ``actor``, in turn order, may play Conditions that ``trigger`` allows.

    The frame: CW_*.
    """
    trigger = st.fr[f, CW_TRIGGER]
    actor = st.fr[f, CW_ACTOR]
    P = st.g[K.G_NSEATS]
    pc = st.fr[f, K.FR_PC]
    if pc == START:
        st.fr[f, CW_OFFSET] = 1
    elif pc == CW_AFTER_PICK:
        o = (actor + st.fr[f, CW_OFFSET]) % P
        if chosen_nb(st, 0) == K.O_PASS:
            st.fr[f, CW_OFFSET] += 1
        else:
            k = chosen_nb(st, 1)
            st.inst[o, k, K.I_FLAGS] |= K.FLAG_PLAYED
            set_zone_nb(st, o, k, K.Z_LIMBO)
            log_nb(st, K.EV_CONDITION, o, k, 0, 0, 0)
            st.fr[f, CW_CONDITION] = k
            return call_nb(st, f, CW_AFTER_CONDITION, RT_RESOLVE_EFFECT, o, k, o, 0, 0, 0, 0)
    elif pc == CW_AFTER_CONDITION:
        o = (actor + st.fr[f, CW_OFFSET]) % P
        k = st.fr[f, CW_CONDITION]
        if st.inst[o, k, K.I_ZONE] == K.Z_LIMBO:
            discard_nb(st, o, k)
    while st.fr[f, CW_OFFSET] < P:
        o = (actor + st.fr[f, CW_OFFSET]) % P
        if over_nb(st):
            st.fr[f, CW_OFFSET] += 1
            continue
        opt_clear_nb(st)
        opt_add_nb(st, K.O_PASS, 0, 0, 0)
        for k in range(K.N_VCARDS):
            c = st.inst[o, k, K.I_CARD]
            if (
                st.inst[o, k, K.I_ZONE] != K.Z_HAND
                or tb.card[c, K.CF_CONDITION] != trigger
                or tb.card[c, K.CF_BLOCKED] != 0
            ):
                continue
            dup = False
            for j in range(1, st.g[K.G_NOPT]):
                if st.inst[o, st.opts[j, 1], K.I_CARD] == c:
                    dup = True
            if not dup and effect_doable_nb(st, tb, ru, o, c, st.sv[o, K.SV_POWER]):
                opt_add_nb(st, K.O_CARD, k, o, 0)
        if st.g[K.G_NOPT] == 1:
            st.fr[f, CW_OFFSET] += 1
            continue
        return ask_nb(st, f, CW_AFTER_PICK, o, o, K.DK_CONDITION, trigger)
    return ret_nb(st, f)
