"""Vanquish: which Allies can join one, and which Heroes can be vanquished."""

from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import strength_nb, vanquish_eligible_nb, vanquish_possible_nb, zone_bits_nb
from simlab.kernels.rules.log import opt_add_nb


@kernel
def vanquish_ally_strength_nb(st, tb, ru, s, k, loc):
    """Strength instance ``k`` brings to a Vanquish at ``loc``, or -1 if it cannot join one."""
    if not vanquish_eligible_nb(st, tb, s, k, loc):
        return -1
    v = strength_nb(st, tb, s, k)
    if v == 0 and ru[K.R_ZERO_STRENGTH_NO_VANQUISH] != 0:
        return -1
    return v


@kernel
def can_vanquish_rules_nb(st, tb, ru, s, h):
    """Hero ``h`` can be defeated by a Vanquish with the Allies in the Realm, under the rule variants."""
    return vanquish_possible_nb(st, tb, s, h, ru[K.R_ZERO_STRENGTH_NO_VANQUISH] == 0)


@kernel
def add_vanquish_options_nb(st, tb, ru, s):
    """Add (O_VANQUISH, h) for every Hero seat ``s`` can vanquish now."""
    m = zone_bits_nb(st, s, K.Z_REALM) & FATE_BITS  # Heroes are Fate cards (the card data's load checks)
    while m != 0:
        h = lowest_nb(m)
        m &= m - 1
        if can_vanquish_rules_nb(st, tb, ru, s, h):
            opt_add_nb(st, K.O_VANQUISH, h, 0, 0)
