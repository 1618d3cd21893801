"""Obstacles removed and replaced."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import can_remove_obstacle_nb, obstacles_total_nb
from simlab.kernels.rules.abilities import objective_holds_nb
from simlab.kernels.rules.log import declare_win_nb, log_nb, over_nb


@kernel
def remove_obstacle_at_nb(st, tb, ru, s, loc):
    st.sv[s, K.SV_OBST + loc] -= 1
    left = obstacles_total_nb(st, s)
    log_nb(st, K.EV_OBSTACLE_REMOVE, s, loc, left, 0, 0)
    if objective_holds_nb(st, tb, ru, s, K.OBJECTIVE_AFTER_OBSTACLE_REMOVED):
        declare_win_nb(st, s)


@kernel
def replace_obstacle_at_nb(st, s, loc):
    st.sv[s, K.SV_OBST + loc] += 1
    log_nb(
        st,
        K.EV_OBSTACLE_REPLACE,
        s,
        loc,
        st.sv[s, K.SV_OBST + 0] + st.sv[s, K.SV_OBST + 1] + st.sv[s, K.SV_OBST + 2] + st.sv[s, K.SV_OBST + 3],
        0,
        0,
    )


@kernel
def clear_obstacles_at_nb(st, tb, ru, s, loc):
    while st.sv[s, K.SV_OBST + loc] > 0 and can_remove_obstacle_nb(st, tb, s) and not over_nb(st):
        remove_obstacle_at_nb(st, tb, ru, s, loc)
