"""The turn: the actions offered at the Villain Mover's location, symbols used, objectives checked between steps."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import helper, kernel
from simlab.kernels.query import (
    available_symbols_nb,
    first_symbol_nb,
    granted_activates_nb,
    symbol_kinds_nb,
)
from simlab.kernels.rules.abilities import objective_holds_nb
from simlab.kernels.rules.cards import add_play_options_nb
from simlab.kernels.rules.log import declare_win_nb, opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.moving import add_activate_options_nb, add_move_options_nb
from simlab.kernels.rules.piles import hand_size_nb
from simlab.kernels.rules.vanquish import add_vanquish_options_nb


@helper
def add_action_options_nb(st, tb, ru, s):
    """Fill ``st.opts`` with the actions available now (O_PASS = end the actions first)."""
    opt_clear_nb(st)
    opt_add_nb(st, K.O_PASS, 0, 0, 0)
    loc = st.sv[s, K.SV_MOVER]
    v = st.sv[s, K.SV_VILLAIN]
    # adding options changes nothing these read: the available symbols are looked up once
    available = available_symbols_nb(st, tb, ru, s, loc)
    m = available
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if tb.syms[v, loc, j, K.SY_KIND] == K.S_GAIN:
            opt_add_nb(st, K.O_GAIN, j, tb.syms[v, loc, j, K.SY_VAL], 0)
    kinds = symbol_kinds_nb(tb, v, loc, available)
    if (kinds >> K.S_PLAY) & 1:
        add_play_options_nb(st, tb, ru, s)
    if (kinds >> K.S_ACTIVATE) & 1 or granted_activates_nb(st, tb, s) > 0:
        add_activate_options_nb(st, tb, ru, s)
    if (kinds >> K.S_MOVE) & 1:
        add_move_options_nb(st, tb, s)
    if (kinds >> K.S_FATE) & 1:
        P = st.g[K.G_NSEATS]
        for d in range(1, P):
            opt_add_nb(st, K.O_FATE, (s + d) % P, 0, 0)
    if (kinds >> K.S_VANQUISH) & 1:
        add_vanquish_options_nb(st, tb, ru, s)
    if (kinds >> K.S_DISCARD) & 1 and hand_size_nb(st, s) > 0:
        opt_add_nb(st, K.O_DISCARD, 0, 0, 0)


@kernel
def use_symbol_nb(st, tb, ru, s, kind):
    j = first_symbol_nb(st, tb, ru, s, kind)
    if j >= 0:
        st.g[K.G_USED] |= 1 << j
    elif kind == K.S_ACTIVATE:
        st.g[K.G_AS_USED] += 1


@kernel
def check_objectives_nb(st, tb, ru):
    """The objectives checked between steps (those checked at the start of a turn are in step_r)."""
    for s in range(st.g[K.G_NSEATS]):
        if over_nb(st):
            return
        if objective_holds_nb(st, tb, ru, s, K.OBJECTIVE_BETWEEN_STEPS):
            declare_win_nb(st, s)
