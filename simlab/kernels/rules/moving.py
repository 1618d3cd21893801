"""Moving and activating: the Move an Item or Ally and Activate actions offered."""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import activation_cost_nb, can_move_card_nb, zone_bits_nb
from simlab.kernels.rules.abilities import CHECK_ACTIVATE, _check
from simlab.kernels.rules.log import opt_add_nb


@kernel
def add_move_options_nb(st, tb, s):
    """Add (O_MOVE, k, dest) for every move of an Ally or Item a Move an Item or Ally action can make."""
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, 0):
                opt_add_nb(st, K.O_MOVE, k, dest, 0)


@kernel
def add_activate_options_nb(st, tb, ru, s):
    """Add (O_ACTIVATE, k) for every card seat ``s`` can activate now (k = -1: the villain's tile)."""
    budget = st.sv[s, K.SV_POWER]
    if can_activate_nb(st, tb, ru, s, -1, budget):
        opt_add_nb(st, K.O_ACTIVATE, -1, 0, 0)
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if can_activate_nb(st, tb, ru, s, k, budget):
            opt_add_nb(st, K.O_ACTIVATE, k, 0, 0)


@kernel
def can_activate_nb(st, tb, ru, s, k, budget):
    """Card ``k`` (-1: the villain's claimed tile, its villain's check) can be activated now with ``budget`` Power."""
    if k < 0:
        tile = tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_TILE]
        return tile != 0 and st.sv[s, K.SV_TILE] != 0 and _check(tile, st, tb, ru, CHECK_ACTIVATE, s, -1, budget) == 1
    if st.inst[s, k, K.I_ZONE] != K.Z_REALM or st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] != 0:
        return False
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    if ab == K.AB_NONE or budget < activation_cost_nb(tb, ru, c):
        return False
    return _check(ab, st, tb, ru, CHECK_ACTIVATE, s, c, budget) == 1  # NO_CHECK: it cannot


@kernel
def any_activate_nb(st, tb, ru, s, budget):
    if can_activate_nb(st, tb, ru, s, -1, budget):
        return True
    for k in range(K.N_VCARDS):
        if can_activate_nb(st, tb, ru, s, k, budget):
            return True
    return False
