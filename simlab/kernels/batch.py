"""Many games at once, in parallel: each game's stream comes from (seed, game index) alone."""

import numpy as np
from numba import njit, prange

from simlab.kernels import const as K
from simlab.kernels.engine import advance_nb, setup_nb
from simlab.kernels.jit import JIT_FLAGS
from simlab.kernels.state import N_SPARAMS, new_state_nb

GAME_FIELDS = ("winner", "end", "rounds", "steps", "decisions")  # columns of out_games


@njit(parallel=True, **JIT_FLAGS)
def play_batch_nb(
    tb, ru, seat_villains, seat_slots, slot_kernels, slot_params, seed, first_index, out_games, out_turns, out_flags
):
    """Play games ``first_index .. first_index + n - 1``.

    seat_villains: int64 (n, P) villain row of each seat, seat 0 first.
    seat_slots: int64 (n, P) strategy slot of each seat; slot_kernels int64 (S,) and slot_params float64
    (S, N_SPARAMS) give each slot's kernel id and parameters.
    out_games: int64 (n, 5) winner seat (-1 none), end reason, rounds, steps, decisions.
    out_turns: int64 (n, P) turns taken by each seat.
    out_flags: int8 (n, P, 45) FLAG_DRAWN | FLAG_PLAYED per card instance, or shape (0, P, 45) to skip.
    """
    n = seat_villains.shape[0]
    P = seat_villains.shape[1]
    for i in prange(n):
        st = new_state_nb(P, 0, 0)
        kernels = np.empty(P, np.int64)
        params = np.empty((P, N_SPARAMS), np.float64)
        for s in range(P):
            kernels[s] = slot_kernels[seat_slots[i, s]]
            params[s, :] = slot_params[seat_slots[i, s], :]
        setup_nb(st, tb, ru, seat_villains[i], kernels, params, seed, first_index + np.uint64(i))
        advance_nb(st, tb, ru, 1 << 40)
        out_games[i, 0] = st.g[K.G_WINNER]
        out_games[i, 1] = st.g[K.G_END]
        out_games[i, 2] = min(st.g[K.G_ROUND], ru[K.R_MAX_TURNS])
        out_games[i, 3] = st.g[K.G_STEPS]
        out_games[i, 4] = st.g[K.G_DECISIONS]
        for s in range(P):
            out_turns[i, s] = st.sv[s, K.SV_TURNS]
        if out_flags.shape[0] > 0:
            for s in range(P):
                for k in range(K.N_INST):
                    out_flags[i, s, k] = st.inst[s, k, K.I_FLAGS]
