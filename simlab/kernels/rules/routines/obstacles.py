"""Routines removing and replacing Obstacles one at a time, each where a player picks."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import can_remove_obstacle_nb, missing_at_nb, missing_total_nb
from simlab.kernels.rules.frame import A0, A1, A2, A3, A4, ask_nb, chosen_nb, ret_nb
from simlab.kernels.rules.log import opt_add_nb, opt_clear_nb, over_nb
from simlab.kernels.rules.obstacles import remove_obstacle_at_nb, replace_obstacle_at_nb

# remove_obstacles_r's and replace_obstacles_r's frame
OBS_SEAT = A0  # whose Obstacles
OBS_N = A1  # how many, at most
OBS_CHOOSER = A2  # who picks each location
OBS_CTX = A3  # the ability they are for (the decisions' context)
OBS_DONE = A4  # how many so far
OBS_AFTER_PICK = 1  # resume point: a location was picked


@kernel
def remove_obstacles_r(st, tb, ru, f):
    """Remove up to ``n`` Obstacles of seat ``s``, one at a time, each from a location ``chooser`` picks."""
    s = st.fr[f, OBS_SEAT]
    n = st.fr[f, OBS_N]
    chooser = st.fr[f, OBS_CHOOSER]
    ctx = st.fr[f, OBS_CTX]
    if st.fr[f, K.FR_PC] == OBS_AFTER_PICK:
        remove_obstacle_at_nb(st, tb, ru, s, chosen_nb(st, 1))
        st.fr[f, OBS_DONE] += 1
    if st.fr[f, OBS_DONE] >= n or not can_remove_obstacle_nb(st, tb, s) or over_nb(st):
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if st.sv[s, K.SV_OBST + loc] > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, OBS_AFTER_PICK, s, chooser, K.DK_LOCATION, ctx)


@kernel
def replace_obstacles_r(st, tb, ru, f):
    """Replace up to ``n`` Obstacles of seat ``s``, each where ``chooser`` picks."""
    s = st.fr[f, OBS_SEAT]
    n = st.fr[f, OBS_N]
    chooser = st.fr[f, OBS_CHOOSER]
    ctx = st.fr[f, OBS_CTX]
    if st.fr[f, K.FR_PC] == OBS_AFTER_PICK:
        replace_obstacle_at_nb(st, s, chosen_nb(st, 1))
        st.fr[f, OBS_DONE] += 1
    if st.fr[f, OBS_DONE] >= n or missing_total_nb(st, tb, s) == 0:
        return ret_nb(st, f)
    opt_clear_nb(st)
    for loc in range(K.N_LOC):
        if missing_at_nb(st, tb, s, loc) > 0:
            opt_add_nb(st, K.O_LOC, loc, 0, 0)
    return ask_nb(st, f, OBS_AFTER_PICK, s, chooser, K.DK_LOCATION, ctx)
