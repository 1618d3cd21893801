"""Lady Tremaine's queries: readings of the state her routines (``abilities.py``) and her plan
(``strategies/plans/lady_tremaine.py``) both make. Like :mod:`simlab.kernels.query`, they read the state only and
call no engine kernel, so the heuristic may ask them (tests/test_layout.py)."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import zone_bits_nb


@kernel
def wedding_ready_nb(st, tb, s, c):
    """Wedding Bells (card row ``c``) can win: the Prince and a Ball Gown daughter at its location, no Glass
    Slipper."""
    where = tb.card[c, K.CF_LOCATION]
    prince = False
    bride = False
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        ck = st.inst[s, k, K.I_CARD]
        if tb.card[ck, K.CF_PASSIVE] == K.AB_GLASS_SLIPPER:
            return False
        if st.inst[s, k, K.I_LOC] == where:
            if ck == tb.card[c, K.CF_REF0]:
                prince = True
            if tb.card[ck, K.CF_MARKED] != 0:
                bride = True
    return prince and bride
