"""Routines removing and replacing Obstacles one at a time, each where a player picks."""

from simlab.kernels import const as K
from simlab.kernels.engine.frame import A0, A1, A2, A3, A4, ask_nb, chosen_nb, ret_nb
from simlab.kernels.engine.log import opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.engine.obstacles import remove_obstacle_at_nb, replace_obstacle_at_nb
from simlab.kernels.jit import kernel
from simlab.kernels.query import can_remove_obstacle_nb, missing_at_nb, missing_total_nb


@kernel
def remove_obstacles_r(st, tb, ru, f):
    """Remove up to ``n`` Obstacles of seat ``s``, one at a time, each from a location ``chooser`` picks."""
    s = st.fr[f, A0]
    n = st.fr[f, A1]
    chooser = st.fr[f, A2]
    ctx = st.fr[f, A3]
    if st.fr[f, K.FR_PC] == 1:
        remove_obstacle_at_nb(st, tb, ru, s, chosen_nb(st, 1))
        st.fr[f, A4] += 1
    if st.fr[f, A4] >= n or not can_remove_obstacle_nb(st, tb, s) or over_nb(st):
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if st.sv[s, K.SV_OBST + loc] > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ctx)


@kernel
def replace_obstacles_r(st, tb, ru, f):
    """Replace up to ``n`` Obstacles of seat ``s``, each where ``chooser`` picks."""
    s = st.fr[f, A0]
    n = st.fr[f, A1]
    chooser = st.fr[f, A2]
    ctx = st.fr[f, A3]
    if st.fr[f, K.FR_PC] == 1:
        replace_obstacle_at_nb(st, s, chosen_nb(st, 1))
        st.fr[f, A4] += 1
    if st.fr[f, A4] >= n or missing_total_nb(st, tb, s) == 0:
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if missing_at_nb(st, tb, s, loc) > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, 1, s, chooser, K.DK_LOCATION, ctx)
