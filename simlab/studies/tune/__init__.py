"""Tuned strategies: noisy black-box optimisation of a villain's heuristic parameters, validated on fresh
games, and iterated best response between the villains (the ``tuned`` level).

:func:`tune` searches the parameters of one villain's strategy (those of ``strategies.plans.PARAMS``
marked tunable, read at run time, less the ones only another villain reads) for the highest score on an
:class:`Objective`: a weighted mix of parts, each the villain's win rate in 2- or 3-player games against
the other villains played by one field (``current``: the opponents' current strategies; or a level such as
``novice``). A 2-player part meets each other villain, seats rotated game by game so the villain plays both
seats equally; a 3-player part plays both seat orders of the other two, seats rotated within each. The
search's score is the weighted mean of the parts' win rates less a penalty for each part that falls below
the start's rate, so a strategy cannot buy one part with a collapse in another. The optimiser is CMA-ES
(pycma): it is rank-based, so only the order of a generation's candidates matters, and every candidate
plays the same games (common random numbers: the same seed and game indices in every pairing), so two
candidates are compared on the same deals and their win rates differ only in the games their decisions
change. A generation is one batch of chunks on the current backend (:mod:`simlab.runs.backend`). The budget
counts games.

The best candidate's score on the search games is biased upward (it was chosen for it), so the result
is validated on fresh games (another seed, never played while searching): the starting strategy and the
tuned one play the same validation games in every pairing; each part's change comes with Newcombe's
paired 95% interval, the objective's (the weighted mean) with a normal one.

:func:`iterated_best_response` re-tunes each villain in turn against the others' current strategies, round
after round; a villain adopts its tuned strategy only when the objective's validation interval lies above zero
and no part is significantly worse, and the process has converged when a whole round changes nobody. The
matrix after every round is the trajectory.

The package: :mod:`.objective` (what a tune maximises, its pairings, playing them), :mod:`.search` (one villain's
tune: the plan, CMA-ES, the result), :mod:`.validation` (fresh games, paired), :mod:`.files` (strategy files and
their provenance) and :mod:`.iterated` (iterated best response). Every public name is importable from here.
"""

from simlab.studies.tune.files import read_provenance, write_strategy
from simlab.studies.tune.iterated import (
    DEFAULT_MATRIX_GAMES,
    DEFAULT_ROUNDS,
    IteratedBestResponse,
    iterated_best_response,
    save_trajectory,
)
from simlab.studies.tune.objective import (
    CURRENT,
    DEFAULT_DROP_PENALTY,
    DEFAULT_OBJECTIVE,
    Objective,
    Pairing,
    Part,
    games_per_pairing,
    pairings,
    parse_objective,
    part_seed,
)
from simlab.studies.tune.search import (
    DECIMALS,
    DEFAULT_BUDGET,
    DEFAULT_CANDIDATE_GAMES,
    DEFAULT_VALIDATION_GAMES,
    DIAGONAL_ABOVE,
    SIGMA_SHARE,
    TuneResult,
    tunable_params,
    tune,
)
from simlab.studies.tune.validation import validate

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_CANDIDATE_GAMES",
    "DEFAULT_VALIDATION_GAMES",
    "DEFAULT_ROUNDS",
    "DEFAULT_MATRIX_GAMES",
    "SIGMA_SHARE",
    "DIAGONAL_ABOVE",
    "DECIMALS",
    "tunable_params",
    "DEFAULT_OBJECTIVE",
    "DEFAULT_DROP_PENALTY",
    "CURRENT",
    "Part",
    "Objective",
    "parse_objective",
    "Pairing",
    "pairings",
    "games_per_pairing",
    "part_seed",
    "TuneResult",
    "tune",
    "validate",
    "write_strategy",
    "read_provenance",
    "IteratedBestResponse",
    "iterated_best_response",
    "save_trajectory",
]
