"""A matchup's value at strong play: the Nash equilibrium of a population of strategies, grown by best responses.

Re-tuning each villain against the others' current strategies can cycle (it does in rock-paper-scissors), so the
answer depends on who was tuned last. The double-oracle method (McMahan, Gordon and Blum 2003; PSRO, Lanctot et al.
2017) gives one answer instead: keep a population of strategies for each side, play every pair of them on common
seeds (the payoff table), solve the table's constant-sum game by linear programming (each side's equilibrium
mixture and the value), then let each side's best response to the other's mixture (the tuner, CMA-ES, playing
against the mixture) join its population if it beats its side's mixture beyond its validation interval on fresh
games. It stops when neither best response gains more than epsilon: the mixtures are then at most epsilon (per
side, as far as the tuner can find) from an equilibrium of the whole game, and the gains are its exploitability.

Scores count a win 1 and an unfinished game (the turn cap; about 1 game in 2,000) a half to each side, so the table
is constant-sum. The value is measured again on fresh games, mixture against mixture, with its 95% interval.

Every game is fixed by (seed, purpose): the table's entries share one seed (common random numbers), each best
response searches and is validated on seeds of its own iteration and side. A checkpoint directory keeps every
finished step (table entries, best responses, validations, the value); the same command with the same directory
skips them, so an interrupted run resumes where it stopped and ends with the same result.

The package, one step a module: :mod:`.settings` (the defaults, :class:`EquilibriumSettings`), :mod:`.solver` (the
payoff table's equilibrium), :mod:`.store` (the checkpoint's steps), :mod:`.play` (scores of games),
:mod:`.result` (:class:`EquilibriumResult`), :mod:`.oracle` (the populations and the double oracle), :mod:`.files`
(mixture files and report folders), :mod:`.probe` (the search player's check) and :mod:`.starts` (two starts
compared). Every public name is importable from here.
"""

from simlab.studies.equilibrium.files import (
    SHIPPED_DIR,
    ShippedEquilibrium,
    StoredValue,
    probe_provenance,
    read_equilibrium_file,
    read_values,
    record_probe,
    shipped_files,
    write_mixture_file,
    write_outputs,
)
from simlab.studies.equilibrium.oracle import equilibrium, library_strategies, pairings, seed_population, seeds_from
from simlab.studies.equilibrium.play import Interrupted
from simlab.studies.equilibrium.probe import search_probe
from simlab.studies.equilibrium.result import EquilibriumResult
from simlab.studies.equilibrium.settings import (
    DEFAULT_BR_FROM,
    DEFAULT_BUDGET,
    DEFAULT_CANDIDATE_GAMES,
    DEFAULT_EPSILON,
    DEFAULT_ITERATIONS,
    DEFAULT_LIBRARY_GAMES,
    DEFAULT_STEP,
    DEFAULT_TABLE_GAMES,
    DEFAULT_VALIDATION_GAMES,
    DEFAULT_VALUE_GAMES,
    SEED_LEVELS,
    EquilibriumSettings,
)
from simlab.studies.equilibrium.solver import NEGLIGIBLE, TIE, MatrixGameSolution, solve_matrix_game
from simlab.studies.equilibrium.starts import compare_starts, start_robustness
from simlab.studies.equilibrium.store import StepStore, mixture_key, spec_key

__all__ = [
    "SEED_LEVELS",
    "DEFAULT_TABLE_GAMES",
    "DEFAULT_EPSILON",
    "DEFAULT_ITERATIONS",
    "DEFAULT_BUDGET",
    "DEFAULT_CANDIDATE_GAMES",
    "DEFAULT_STEP",
    "DEFAULT_BR_FROM",
    "DEFAULT_LIBRARY_GAMES",
    "DEFAULT_VALIDATION_GAMES",
    "DEFAULT_VALUE_GAMES",
    "TIE",
    "NEGLIGIBLE",
    "MatrixGameSolution",
    "solve_matrix_game",
    "EquilibriumSettings",
    "spec_key",
    "mixture_key",
    "StepStore",
    "Interrupted",
    "EquilibriumResult",
    "seed_population",
    "seeds_from",
    "library_strategies",
    "equilibrium",
    "pairings",
    "write_mixture_file",
    "ShippedEquilibrium",
    "read_equilibrium_file",
    "probe_provenance",
    "SHIPPED_DIR",
    "shipped_files",
    "record_probe",
    "search_probe",
    "start_robustness",
    "StoredValue",
    "read_values",
    "compare_starts",
    "write_outputs",
]
