"""Positions of played games as each seat saw them: the data the learned value model is fitted on.

:func:`record_game_nb` plays a game set up by the caller to its end, every seat's own strategy deciding (as
:func:`simlab.game.driver.play_nb` does: the same game), and at the start of every turn writes every seat's
features (:mod:`strategies.learned.features`) into ``out[turn, seat]``. The features are computed on a copy of the
state whose seats' ``sparams`` rows are the given heuristic vectors (``progress``: one per villain row), so recording
changes nothing in the game, whoever plays it (a search player's row holds its settings, not a heuristic vector).
"""

from simlab.game.driver import decide_nb
from simlab.kernels import const as K
from simlab.kernels.compile import as_ptr, entry_kernel, ref
from simlab.kernels.rules import advance_by_ref_nb, apply_nb
from strategies.learned.features import features_nb
from strategies.search import copy_state_nb


@entry_kernel
def record_game_nb(st, tb, ru, work, progress, out):
    """Play ``st`` to its end and write each seat's features at the start of every turn into ``out[t, seat]``
    (float64 (turns, seats, N_FEATURES)); returns the turns written (at most ``out``'s length; later turns are
    played, not written). ``work``: a state of the same seat count; ``progress``: float64 (villain rows, W), the
    heuristic vector each villain's progress is measured with."""
    rst = ref(st)
    rtb = ref(tb)
    rru = as_ptr(ru)
    t = 0
    last = -1
    P = st.g[K.G_NSEATS]
    while not (st.g[K.G_PHASE] == K.PH_OVER and st.g[K.G_SP] == 0):
        turn = st.g[K.G_ROUND] * 8 + st.g[K.G_ACTIVE]
        if st.g[K.G_PHASE] == K.PH_START and st.g[K.G_SP] == 0 and turn != last and t < out.shape[0]:
            last = turn
            copy_state_nb(work, st)
            for s in range(P):
                row = st.sv[s, K.SV_VILLAIN]
                for j in range(progress.shape[1]):
                    work.sparams[s, j] = progress[row, j]
                work.memo_ok[s, :] = 0
            for s in range(P):
                features_nb(work, tb, ru, s, out[t, s])
            t += 1
        if advance_by_ref_nb.call(rst, rtb, rru, 1):
            apply_nb(rst, decide_nb(st, tb, ru, rst, rtb))
    return t
