"""Positions and decisions of played games as each seat saw them: the data the learned models are fitted on.

:func:`record_game_nb` plays a game set up by the caller to its end, every seat's own strategy deciding (as
:func:`simlab.game.driver.play_nb` does: the same game), and writes

* at the start of every turn, every seat's features with its key cards (:mod:`strategies.learned.features`,
  ``ALL_FEATURE_NAMES``) into ``out[turn, seat]``: the value model's data;
* at every decision with more than one option, each option's features as the apprentice sees them
  (:func:`strategies.apprentice.option_features_nb`) into ``x`` and what the decision was into ``meta``: the
  apprentice's data. The apprentice's look ahead is drawn from the number the game's stream gives next, without
  taking it, so an apprentice seat would see exactly the recorded features. Where the deciding seat is a search
  player, what its search measured of each option goes into ``gains`` (the mean gain over the rollout policy's
  option, the worlds it was measured in, and what the search estimates the option is worth): the search's
  estimates, not only its pick, to learn from.

Features are computed on copies of the state whose seats' ``sparams`` rows are the given heuristic vectors
(``progress``: one per villain row; the apprentice's look-ahead states ``world`` and ``ws`` the caller fills the
same way), so recording changes nothing in the game, whoever plays it (a search player's row holds its settings,
not a heuristic vector).
"""

import numpy as np

from simlab.game.driver import decide_nb
from simlab.kernels import const as K
from simlab.kernels.compile import allocating_entry_kernel, as_ptr, ref
from simlab.kernels.rng import next_u64_nb
from simlab.kernels.rules import advance_by_ref_nb, apply_nb
from strategies import KERNELS
from strategies.apprentice import option_features_nb
from strategies.learned.features import all_features_nb
from strategies.search import choose_with_stats_nb, copy_state_nb

# the columns of ``meta``: the decision's number in the game, the option, whether it was taken, the deciding seat,
# the decision kind (``DK_*``), its options, and the turns begun before it
M_DECISION, M_OPTION, M_CHOSEN, M_SEAT, M_KIND, M_OPTIONS, M_TURN = range(7)
N_META = 7
# the columns of ``gains``: a search player's mean gain of the option over its rollout policy's option (NaN where it
# measured none: the reference option itself, a kind it leaves to the policy, another player), the worlds, and its
# estimate of the deciding seat's chance to win after the option (its mean score over the worlds it was scored in,
# the reference option's too; NaN where it scored none)
G_MEAN, G_WORLDS, G_VALUE = range(3)
N_GAINS = 3
SEARCH = KERNELS["search"]


# with reference counting: it calls the search's choose_with_stats_nb, which allocates, and numba compiled that
# callee under this caller's flags when a fresh cache met this caller first (a TypingError, seen on fresh clones)
@allocating_entry_kernel
def record_game_nb(st, tb, ru, work, progress, out, world, ws, local, scratch, x, meta, stats, gains, counts):
    """Play ``st`` to its end, writing each seat's features at the start of every turn into ``out[t, seat]``
    (float64 (turns, seats, N_ALL_FEATURES)) and each option of every decision with more than one into ``x`` (float64
    (rows, N_OPTION_FEATURES)) and ``meta`` (int64 (rows, N_META)). ``counts[0]``, ``counts[1]``: the turns and
    the option rows written (at most the arrays' lengths; later ones are played, not written); ``gains`` (float64
    (rows, N_GAINS)) what a search seat measured of them, ``stats`` its scratch (float64 (N_STATS, MAX_OPTS)). ``work``,
    ``world``, ``ws``: states of the same seat count; ``progress``: float64 (villain rows, W), the heuristic vector each
    villain's progress is measured with; ``local``: uint64[1]; ``scratch``: int64 (N_INST,)."""
    rst = ref(st)
    rtb = ref(tb)
    rru = as_ptr(ru)
    t = 0
    r = 0
    d = 0
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
                all_features_nb(work, tb, ru, s, out[t, s])
            t += 1
        if advance_by_ref_nb.call(rst, rtb, rru, 1):
            n = st.g[K.G_PEND_N]
            player = st.g[K.G_PEND_PLAYER]
            kind = st.g[K.G_PEND_KIND]
            written = n > 1 and r + n <= x.shape[0]
            if written:
                local[0] = st.rng[0]
                local[0] = next_u64_nb(local)  # the number the game's stream gives next, not taken from it
                option_features_nb(st, tb, ru, player, n, world, ws, local, scratch, x[r : r + n])
            searched = written and st.sv[player, K.SV_STRATEGY] == SEARCH
            if searched:  # the search's own choice, the same stream: its statistics kept
                chosen = choose_with_stats_nb(st, tb, ru, player, n, stats)
            else:
                chosen = decide_nb(st, tb, ru, rst, rtb)
            if written:
                for i in range(n):
                    worlds = stats[2, i] if searched else 0.0
                    gains[r + i, G_MEAN] = stats[0, i] / worlds if worlds > 0 else np.nan
                    gains[r + i, G_WORLDS] = worlds
                    scored = stats[7, i] if searched else 0.0
                    gains[r + i, G_VALUE] = stats[6, i] / scored if scored > 0 else np.nan
                    meta[r + i, M_DECISION] = d
                    meta[r + i, M_OPTION] = i
                    meta[r + i, M_CHOSEN] = 1 if i == chosen else 0
                    meta[r + i, M_SEAT] = player
                    meta[r + i, M_KIND] = kind
                    meta[r + i, M_OPTIONS] = n
                    meta[r + i, M_TURN] = t
                r += n
                d += 1
            apply_nb(rst, chosen)
    counts[0] = t
    counts[1] = r
