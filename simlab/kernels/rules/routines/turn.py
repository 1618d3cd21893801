"""Routines of the turn: one step (a phase, or one action with its Condition windows)."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.rules.abilities import _ability_r, objective_holds_nb
from simlab.kernels.rules.frame import (
    A0,
    A1,
    A2,
    A3,
    A4,
    RT_ACTIVATE,
    RT_AFTER_ACTION,
    RT_CONDITION_WINDOW,
    RT_DISCARD_PICKS,
    RT_FATE_ACTION,
    RT_PLAY_VILLAIN_CARD,
    RT_TAKE_ACTION,
    RT_TILE,
    RT_VANQUISH,
    START,
    TILE_SEAT,
    ask_nb,
    call_nb,
    chosen_nb,
    ret_nb,
    tail_nb,
)
from simlab.kernels.rules.log import declare_win_nb, gain_power_nb, log_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.piles import draw_nb, hand_size_nb
from simlab.kernels.rules.realm import move_card_nb
from simlab.kernels.rules.turn import add_action_options_nb, check_objectives_nb, use_symbol_nb

# take_action_r's frame: the action's option row (O_*)
TA_SEAT = A0  # who takes it
TA_CODE = A1
TA_A = A2
TA_B = A3
TA_C = A4
TA_AFTER_DISCARD = 1  # resume point: the cards of a Discard action were discarded


@kernel
def take_action_r(st, tb, ru, f):
    """Perform the action chosen (code, a, b, c): its symbol is used up first."""
    s = st.fr[f, TA_SEAT]
    if st.fr[f, K.FR_PC] == TA_AFTER_DISCARD:
        st.g[K.G_TRIGGERS] |= K.TRIG_DISCARD
        return ret_nb(st, f)
    code = st.fr[f, TA_CODE]
    a = st.fr[f, TA_A]
    b = st.fr[f, TA_B]
    c = st.fr[f, TA_C]
    st.g[K.G_ACTIONS] += 1
    if code == K.O_GAIN:
        st.g[K.G_USED] |= 1 << a
        gain_power_nb(st, s, b)
    elif code == K.O_PLAY:
        use_symbol_nb(st, tb, ru, s, K.S_PLAY)
        return tail_nb(st, f, RT_PLAY_VILLAIN_CARD, s, a, b, c, 0, 0, 0)
    elif code == K.O_ACTIVATE:
        use_symbol_nb(st, tb, ru, s, K.S_ACTIVATE)
        return tail_nb(st, f, RT_ACTIVATE, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_MOVE:
        use_symbol_nb(st, tb, ru, s, K.S_MOVE)
        move_card_nb(st, tb, ru, s, a, b)
    elif code == K.O_FATE:
        use_symbol_nb(st, tb, ru, s, K.S_FATE)
        return tail_nb(st, f, RT_FATE_ACTION, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_VANQUISH:
        use_symbol_nb(st, tb, ru, s, K.S_VANQUISH)
        return tail_nb(st, f, RT_VANQUISH, s, a, 0, 0, 0, 0, 0)
    elif code == K.O_DISCARD:
        use_symbol_nb(st, tb, ru, s, K.S_DISCARD)
        return call_nb(st, f, TA_AFTER_DISCARD, RT_DISCARD_PICKS, s, 1, 0, 0, 0, 0, 0)
    return ret_nb(st, f)


# after_action_r's frame
AA_SEAT = A0  # who took the action
AA_TRIGGERS = A1  # the triggers it raised (TRIG_*)
AA_AFTER_VANQUISH_WINDOW = 1  # resume points: each window that may open, in order
AA_AFTER_DISCARD_WINDOW = 2
AA_AFTER_ITEM_WINDOW = 3


@kernel
def after_action_r(st, tb, ru, f):
    """Open the Condition windows raised by the action just taken (AA_TRIGGERS: the triggers it raised)."""
    s = st.fr[f, AA_SEAT]
    pc = st.fr[f, K.FR_PC]
    if pc == START:
        st.fr[f, AA_TRIGGERS] = st.g[K.G_TRIGGERS]
        st.g[K.G_TRIGGERS] = 0
    trig = st.fr[f, AA_TRIGGERS]
    if pc < AA_AFTER_VANQUISH_WINDOW and trig & K.TRIG_VANQUISH:
        return call_nb(
            st, f, AA_AFTER_VANQUISH_WINDOW, RT_CONDITION_WINDOW, K.C_OPPONENT_VANQUISH_ACTION, s, 0, 0, 0, 0, 0
        )
    if pc < AA_AFTER_DISCARD_WINDOW and trig & K.TRIG_DISCARD:
        return call_nb(
            st, f, AA_AFTER_DISCARD_WINDOW, RT_CONDITION_WINDOW, K.C_OPPONENT_DISCARD_ACTION, s, 0, 0, 0, 0, 0
        )
    if pc < AA_AFTER_ITEM_WINDOW and trig & K.TRIG_ITEM:
        return call_nb(
            st,
            f,
            AA_AFTER_ITEM_WINDOW,
            RT_CONDITION_WINDOW,
            K.C_OPPONENT_PLAYS_ITEM,
            st.g[K.G_ITEM_ACTOR],
            0,
            0,
            0,
            0,
            0,
        )
    if (
        pc <= AA_AFTER_ITEM_WINDOW
        and st.g[K.G_ACTIONS] >= 4
        and (ru[K.R_FOUR_ACTIONS_ONCE] == 0 or st.g[K.G_FOUR_OPENED] == 0)
    ):
        st.g[K.G_FOUR_OPENED] = 1
        return tail_nb(st, f, RT_CONDITION_WINDOW, K.C_OPPONENT_FOUR_ACTIONS, s, 0, 0, 0, 0, 0)
    return ret_nb(st, f)


# step_r's resume points (its frame holds nothing else), by phase
STEP_AFTER_TILE = 1  # PH_START, PH_BEFORE_MOVE: the claimed tile's rule resolved
STEP_AFTER_MOVE = 1  # PH_MOVE: the Villain Mover's destination was picked
STEP_AFTER_PICK = 1  # PH_ACTIONS: the action, or the end of the actions, was picked,
STEP_AFTER_ACTION = 2  # the action was taken,
STEP_AFTER_WINDOWS = 3  # and its Condition windows closed


@kernel
def step_r(st, tb, ru, f):
    """One step of the game: a phase of the turn, or one action (with its Condition windows)."""
    s = st.g[K.G_ACTIVE]
    ph = st.g[K.G_PHASE]
    pc = st.fr[f, K.FR_PC]
    if ph == K.PH_START:
        if pc == START:
            st.sv[s, K.SV_TURNS] += 1
            st.g[K.G_ACTIONS] = 0
            st.g[K.G_USED] = 0
            st.g[K.G_AS_USED] = 0
            st.g[K.G_TRIGGERS] = 0
            st.g[K.G_FOUR_OPENED] = 0
            st.sv[s, K.SV_SWAP_USED] = 0
            log_nb(st, K.EV_TURN, s, st.g[K.G_ROUND], st.sv[s, K.SV_POWER], st.sv[s, K.SV_MOVER], 0)
            v = st.sv[s, K.SV_VILLAIN]
            if objective_holds_nb(st, tb, ru, s, K.OBJECTIVE_AT_TURN_START):
                declare_win_nb(st, s)
                return ret_nb(st, f)
            if st.sv[s, K.SV_TILE] != 0 and tb.vil[v, K.VF_TILE] != 0:
                # a claimed tile's start-of-turn rule (its villain's routine)
                return call_nb(st, f, STEP_AFTER_TILE, RT_TILE, s, K.PH_START, 0, 0, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_BEFORE_MOVE
    elif ph == K.PH_BEFORE_MOVE:
        if pc == START and st.sv[s, K.SV_TILE] != 0 and tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TILE] != 0:
            # a claimed tile's rule before the move (its villain's routine)
            return call_nb(st, f, STEP_AFTER_TILE, RT_TILE, s, K.PH_BEFORE_MOVE, 0, 0, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_MOVE
    elif ph == K.PH_MOVE:
        if pc == START:
            opt_clear_nb(st)
            here = st.sv[s, K.SV_MOVER]
            for loc in range(K.N_LOC):
                if loc != here and st.sv[s, K.SV_LOCK + loc] == 0:
                    opt_add_nb(st, K.O_LOC, loc, 0, 0)
            return ask_nb(st, f, STEP_AFTER_MOVE, s, s, K.DK_MOVE, 0)
        dest = chosen_nb(st, 1)
        st.sv[s, K.SV_MOVER] = dest
        log_nb(st, K.EV_MOVE_MOVER, s, dest, 0, 0, 0)
        st.g[K.G_PHASE] = K.PH_ACTIONS
    elif ph == K.PH_ACTIONS:
        if pc == START:
            add_action_options_nb(st, tb, ru, s)
            return ask_nb(st, f, STEP_AFTER_PICK, s, s, K.DK_ACTION, 0)
        if pc == STEP_AFTER_PICK:
            code = chosen_nb(st, 0)
            if code == K.O_PASS:
                st.g[K.G_PHASE] = K.PH_END
            else:
                return call_nb(
                    st,
                    f,
                    STEP_AFTER_ACTION,
                    RT_TAKE_ACTION,
                    s,
                    code,
                    chosen_nb(st, 1),
                    chosen_nb(st, 2),
                    chosen_nb(st, 3),
                    0,
                    0,
                )
        elif pc == STEP_AFTER_ACTION:
            if not over_nb(st):
                return call_nb(st, f, STEP_AFTER_WINDOWS, RT_AFTER_ACTION, s, 0, 0, 0, 0, 0, 0)
    elif ph == K.PH_END:
        while hand_size_nb(st, s) < 4:
            if draw_nb(st, s) < 0:
                break
        log_nb(st, K.EV_END_TURN, s, st.sv[s, K.SV_POWER], 0, 0, 0)
        nxt = (s + 1) % st.g[K.G_NSEATS]
        st.g[K.G_ACTIVE] = nxt
        st.g[K.G_PHASE] = K.PH_START
        if nxt == 0:
            st.g[K.G_ROUND] += 1
            if st.g[K.G_ROUND] > ru[K.R_MAX_TURNS]:
                st.g[K.G_PHASE] = K.PH_OVER
                st.g[K.G_END] = K.END_TURN_CAP
                log_nb(st, K.EV_TURN_CAP, -1, ru[K.R_MAX_TURNS], 0, 0, 0)
    if not over_nb(st):
        check_objectives_nb(st, tb, ru)
    st.g[K.G_STEPS] += 1
    return ret_nb(st, f)


@kernel
def tile_r(st, tb, ru, f):
    """A claimed tile's rule for phase TILE_PHASE of seat TILE_SEAT's turn: its villain's routine."""
    return _ability_r(tb.vil[st.sv[st.fr[f, TILE_SEAT], K.SV_VILLAIN], K.VF_TILE], st, tb, ru, f)
