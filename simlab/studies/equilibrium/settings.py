"""What decides an equilibrium run besides the run settings: the defaults (games per table entry, epsilon, the
best responses' budget and first step, the library's games) and :class:`EquilibriumSettings`, checked."""

from __future__ import annotations

from dataclasses import dataclass

from simlab.errors import InputError

SEED_LEVELS = ("novice", "expert", "tuned")  # each side's population starts with these (those available here)
DEFAULT_TABLE_GAMES = 1_200  # per entry of the payoff table: a standard error of at most 1.44 points
DEFAULT_EPSILON = 0.02
DEFAULT_ITERATIONS = 8
DEFAULT_BUDGET = 150_000  # search games of one best response
DEFAULT_CANDIDATE_GAMES = 1_000
# the best response's first CMA-ES step, in units of the tuner's spread (a fifth of each parameter's range): at the
# tuner's 1 a best response from a strong strategy drew candidates far worse than it and returned its start (gain 0
# in every last iteration); at 0.3 the same searches found validated gains of +5.9 and +7.3 points against the
# mixtures shipped before (gaston-vs-horned-king, benchmarks/br_step.py)
DEFAULT_STEP = 0.3
# levels each best response is also tuned from, the budget split between the starts (--br-from); none by default:
# at the shipped budget, starts from expert and tuned made two differently seeded runs agree within 0.8 points on
# two matchups (3.96 against 3.85 allowed on the third), yet each converged in 2 to 4 iterations to mixtures the
# shipped equilibrium's strategies beat by up to 13.6 points (docs/studies/equilibrium.md)
DEFAULT_BR_FROM: tuple[str, ...] = ()
# games each library strategy (every strategy of the villain in a mixture file: the shipped equilibria and any
# --library folder) plays against the other side's mixture in each iteration; the best of them is validated like
# the tuner's best response and counts as one (0: no library). Without it two runs from different starts stopped
# at mixtures the other run's strategies beat by up to 13.6 points: the tuner's local search found a nearby optimum
DEFAULT_LIBRARY_GAMES = 2_000
DEFAULT_VALIDATION_GAMES = 4_000  # fresh games of a best response and of its side's mixture, paired
DEFAULT_VALUE_GAMES = 10_000  # fresh games of mixture against mixture for the value's interval


@dataclass(frozen=True)
class EquilibriumSettings:
    """What decides an equilibrium run besides the run settings (seed, rules, turn cap)."""

    table_games: int = DEFAULT_TABLE_GAMES
    epsilon: float = DEFAULT_EPSILON
    iterations: int = DEFAULT_ITERATIONS
    budget: int = DEFAULT_BUDGET
    candidate_games: int = DEFAULT_CANDIDATE_GAMES
    validation_games: int = DEFAULT_VALIDATION_GAMES
    value_games: int = DEFAULT_VALUE_GAMES
    popsize: int | None = None
    step: float = DEFAULT_STEP
    br_from: tuple[str, ...] = DEFAULT_BR_FROM  # levels a best response is also tuned from (the budget split)
    library_games: int = DEFAULT_LIBRARY_GAMES  # games of each library strategy against the mixture (0: none)

    def __post_init__(self):
        lg = self.library_games
        if isinstance(lg, bool) or not isinstance(lg, int) or lg < 0 or lg % 2:
            raise InputError(f"--library-games must be 0 or an even whole number (seats rotate), got {lg!r}")
        for name in ("table_games", "iterations", "budget", "candidate_games", "validation_games", "value_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"--{name.replace('_', '-')} must be a whole number of at least 1, got {value!r}")
        if self.table_games % 2:
            raise InputError(f"--table-games must be even (seats rotate), got {self.table_games}")
        ps = self.popsize
        if ps is not None and (isinstance(ps, bool) or not isinstance(ps, int) or ps < 2):
            raise InputError(f"--popsize must be a whole number of at least 2 (CMA-ES compares candidates), got {ps!r}")
        from simlab.runs.sizes import plan_size

        for name in ("table_games", "budget", "candidate_games", "validation_games", "value_games"):
            plan_size(f"--{name.replace('_', '-')}", getattr(self, name), what="games")  # each must be able to end
        if not (isinstance(self.epsilon, int | float) and 0 < self.epsilon < 1):
            raise InputError(f"--epsilon must be a win-rate gain between 0 and 1, got {self.epsilon!r}")
        if isinstance(self.step, bool) or not isinstance(self.step, int | float) or not 0 < self.step <= 10:
            raise InputError(f"--step must be a number above 0 and at most 10, got {self.step!r}")
        if isinstance(self.br_from, str):
            object.__setattr__(self, "br_from", (self.br_from,))
        for lv in self.br_from:
            if str(lv).strip().lower() not in SEED_LEVELS:
                raise InputError(
                    f"--br-from {lv!r} is not a level the tuner starts from; choose from " + ", ".join(SEED_LEVELS)
                )
        object.__setattr__(self, "br_from", tuple(dict.fromkeys(str(lv).strip().lower() for lv in self.br_from)))
