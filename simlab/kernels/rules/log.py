"""The game log, the options of the waiting decision, and the changes every rule makes: Power gained, a win."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel


@kernel
def log_nb(st, ev, seat, a, b, c, d):
    n = st.g[K.G_LOG_N]
    if n < st.log.shape[0]:
        st.log[n, 0] = ev
        st.log[n, 1] = seat
        st.log[n, 2] = a
        st.log[n, 3] = b
        st.log[n, 4] = c
        st.log[n, 5] = d
        st.g[K.G_LOG_N] = n + 1


@kernel
def opt_clear_nb(st):
    st.g[K.G_NOPT] = 0


@kernel
def opt_add_nb(st, code, a, b, c):
    n = st.g[K.G_NOPT]
    if n >= K.MAX_OPTS:
        raise IndexError("too many options for one decision")
    st.opts[n, 0] = code
    st.opts[n, 1] = a
    st.opts[n, 2] = b
    st.opts[n, 3] = c
    st.g[K.G_NOPT] = n + 1


@kernel
def gain_power_nb(st, s, amount):
    st.sv[s, K.SV_POWER] += amount
    log_nb(st, K.EV_GAIN, s, amount, st.sv[s, K.SV_POWER], 0, 0)


@kernel
def declare_win_nb(st, s):
    if st.g[K.G_WINNER] < 0:
        st.g[K.G_WINNER] = s
        st.g[K.G_END] = K.END_OBJECTIVE
        st.g[K.G_PHASE] = K.PH_OVER
        log_nb(st, K.EV_WIN, s, st.g[K.G_ROUND], 0, 0, 0)


@kernel
def over_nb(st):
    return st.g[K.G_PHASE] == K.PH_OVER
