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
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import Z95
from simlab.studies.difficulty import derived_seed
from strategies import StrategySpec
from strategies.mixture import MixedSpec, mixture

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
TIE = 1e-9  # payoffs within this of the optimum count as optimal when a tie between mixtures is broken
NEGLIGIBLE = 1e-6  # a weight below this is the linear program's rounding, not a strategy played


# ============================================================================ the meta-solver


@dataclass(frozen=True)
class MatrixGameSolution:
    """The equilibrium of a constant-sum table: the row player's value and both mixtures."""

    value: float  # what the row player's mixture guarantees (the column player's holds the row player to it)
    rows: np.ndarray  # the row player's mixture
    cols: np.ndarray  # the column player's mixture


def _maximin(payoff: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's maximin mixture of ``payoff`` (rows maximise) and its value, by linear programming; among
    the optimal mixtures the one that puts its weight on the earliest rows (a second program), so a tie is always
    broken the same way, towards the population's first strategies."""
    from scipy.optimize import linprog

    m, n = payoff.shape
    # variables: x_1..x_m, v; maximise v subject to (payoff^T x)_j >= v for every column, sum x = 1
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, 1.0)] * m + [(None, None)]
    first = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if first.status != 0:
        raise RuntimeError(f"the equilibrium's linear program failed: {first.message}")
    value = float(first.x[-1])
    # among mixtures guaranteeing the value, the one with its weight earliest: minimise sum_i i * x_i
    second = linprog(
        np.arange(m, dtype=float),
        A_ub=-payoff.T,
        b_ub=-(value - TIE) * np.ones(n),
        A_eq=np.ones((1, m)),
        b_eq=[1.0],
        bounds=[(0.0, 1.0)] * m,
        method="highs",
    )
    x = second.x if second.status == 0 else first.x[:m]
    x = np.where(x > NEGLIGIBLE, x, 0.0)
    return value, x / x.sum()


def solve_matrix_game(payoff) -> MatrixGameSolution:
    """The Nash equilibrium of the constant-sum game ``payoff`` (m x n: the row player's score, the column player's
    is a constant minus it): the value, the row player's maximin mixture and the column player's minimax one."""
    payoff = np.asarray(payoff, np.float64)
    if payoff.ndim != 2 or payoff.size == 0 or not np.isfinite(payoff).all():
        raise ValueError(f"a payoff table must be a finite, non-empty 2-d array, got shape {payoff.shape}")
    value, rows = _maximin(payoff)
    _, cols = _maximin(-payoff.T)
    return MatrixGameSolution(value, rows, cols)


# ============================================================================ settings and the checkpoint


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


def spec_key(spec: StrategySpec) -> str:
    """A short hash of what a strategy plays (its kernel and parameters, not its name)."""
    blob = json.dumps([int(spec.kernel), sorted((k, float(v)) for k, v in spec.params.items())])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def mixture_key(mix: MixedSpec) -> str:
    return hashlib.sha256(json.dumps([[spec_key(s), round(w, 12)] for s, w in mix.components]).encode()).hexdigest()[
        :16
    ]


class StepStore:
    """The finished steps of an equilibrium run: ``settings.json`` and one JSON file per step, each written whole
    (a temporary file renamed into place) as soon as its step finishes. A step's key holds everything its result
    depends on beyond the settings (the strategies, the mixtures, its games), so a run with more iterations or other
    games per step reuses what still applies. The settings (matchup, seed, rules, the install's rules hash) must
    match. Without a directory, steps live in memory only."""

    def __init__(self, path: str | Path | None, settings: dict):
        from simlab.runs.checkpoint import _write_durably

        self._write = _write_durably
        self.path = Path(path) if path is not None else None
        self.memory: dict[str, dict] = {}
        if self.path is None:
            return
        meta = self.path / "settings.json"
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if meta.exists():
                try:
                    old = json.loads(meta.read_text())
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise InputError(f"cannot read the checkpoint settings {str(meta)!r}: {exc}") from None
                diffs = [
                    f"{k}: {old.get(k)!r} there, {settings.get(k)!r} here"
                    for k in settings
                    if old.get(k) != settings.get(k)
                ]
                if diffs:
                    raise InputError(
                        f"checkpoint {str(self.path)!r} was made with other settings: " + "; ".join(diffs) + " (give "
                        "another --checkpoint, or delete that directory to start again)"
                    )
            else:
                self._write(meta, json.dumps(settings, indent=2, sort_keys=True).encode())
            for stale in self.path.glob(".step-*.tmp.json"):
                stale.unlink()
        except OSError as exc:
            raise InputError(f"cannot use --checkpoint {str(self.path)!r}: {exc.strerror or exc}") from None

    def _file(self, key: str) -> Path:
        return self.path / f"step-{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"

    def get(self, key: str) -> dict | None:
        if key in self.memory:
            return self.memory[key]
        if self.path is None or not self._file(key).exists():
            return None
        try:
            doc = json.loads(self._file(key).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"checkpoint step {str(self._file(key))!r} cannot be read ({exc}); delete it") from None
        if doc.get("key") != key:
            raise InputError(f"checkpoint step {str(self._file(key))!r} belongs to another step; delete it")
        self.memory[key] = doc["data"]
        return doc["data"]

    def put(self, key: str, data: dict) -> dict:
        self.memory[key] = data
        if self.path is not None:
            self._write(self._file(key), json.dumps({"key": key, "data": data}).encode())
        return data

    @property
    def steps(self) -> int:
        return len(self.memory)


# ============================================================================ playing


class Interrupted(Exception):
    """Ctrl-C during an equilibrium: what finished is in the checkpoint."""


def _scores(villains, strategies, n, seed, settings: RunSettings, stop, on_chunk=None) -> np.ndarray:
    """Entry 0's score in each of games 0..n-1 (1 win, 0.5 unfinished, 0 loss), seats rotated; ``on_chunk`` is
    called with the games done after each chunk."""
    from simlab.runs.backend import current, play_chunk
    from simlab.runs.gameplan import GamePlan

    plan = GamePlan(villains, tuple(strategies), n, seed, settings.variant_dict, settings.max_turns)
    out = np.zeros(n, np.float64)
    jobs = list(plan.jobs("games"))
    done = 0
    for job, res in zip(jobs, current().map(play_chunk, jobs), strict=True):
        seats = job.seats()
        ws = res["winner_seat"].astype(np.int64)
        entry = np.where(ws >= 0, seats[np.arange(job.n), np.maximum(ws, 0)], -1)
        out[job.first : job.first + job.n] = np.where(entry == 0, 1.0, np.where(entry < 0, 0.5, 0.0))
        done += job.n
        if on_chunk is not None:
            on_chunk(done)
        if stop():
            raise Interrupted
    return out


def _mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else float("nan")
    return m, m - half, m + half


# ============================================================================ the result


@dataclass
class EquilibriumResult:
    """One matchup's equilibrium: the value at strong play, both mixtures, and how the search got there."""

    matchup: str
    villains: tuple[str, str]
    value: float  # villains[0]'s score (win rate, unfinished games counting a half) at the equilibrium
    value_low: float
    value_high: float
    value_games: int
    mixtures: pl.DataFrame  # villain, strategy, weight (every population member; weight 0 outside the support)
    iterations: pl.DataFrame  # one row per iteration: table value, each side's best-response gain [95%], joined
    table: pl.DataFrame  # one row per entry: row strategy, column strategy, score, games, standard error
    converged: bool
    stopped_by: str
    populations: dict[str, list[StrategySpec]]
    weights: dict[str, np.ndarray]
    provenance: dict = field(default_factory=dict)
    seconds: float = 0.0
    games: int = 0  # games played by this run (checkpointed steps not counted)
    checkpoint: Path | None = None

    def mixture(self, villain: str) -> MixedSpec:
        pop, w = self.populations[villain], self.weights[villain]
        return mixture(f"strong-{self.matchup}#{villain}", list(zip(pop, w, strict=True)))

    @property
    def exploitability(self) -> float:
        """The last iteration's sum of both sides' best-response gains (each at least 0): NashConv."""
        last = self.iterations.row(-1, named=True)
        return max(last["gain_a"], 0.0) + max(last["gain_b"], 0.0)

    def frames(self) -> dict[str, pl.DataFrame]:
        value = pl.DataFrame(
            [
                {
                    "matchup": self.matchup,
                    "villain": self.villains[0],
                    "value": self.value,
                    "value_low": self.value_low,
                    "value_high": self.value_high,
                    "games": self.value_games,
                    "exploitability": self.exploitability,
                    "converged": self.converged,
                    "stopped_by": self.stopped_by,
                }
            ]
        )
        return {"value": value, "mixtures": self.mixtures, "iterations": self.iterations, "table": self.table}


# ============================================================================ the double oracle


def seed_population(villain: str, levels=SEED_LEVELS, extra=()) -> list[StrategySpec]:
    """A side's first strategies: each of ``levels`` available here (``tuned`` once its file exists), then
    ``extra`` (strategy names or specs), without repeats of what plays the same."""
    from simlab.game.api import strategy_spec
    from simlab.runs.levels import available_levels, level_strategy

    have = available_levels((villain,))
    out, seen = [], set()
    for s in [level_strategy(lv, villain) for lv in levels if lv in have] + list(extra):
        spec = strategy_spec(s)
        if spec.kernel != 1:
            raise InputError(f"--seed-strategy {spec.name!r} is not a heuristic strategy (the tuner starts from one)")
        if spec_key(spec) not in seen:
            seen.add(spec_key(spec))
            out.append(spec)
    if not out:
        raise InputError(f"no seed strategy for {villain}: give a level or --seed-strategy")
    return out


def seeds_from(folders, matchup: str) -> dict[str, list[StrategySpec]]:
    """Each side's strategies in the mixture files ``<folder>/<matchup>.toml`` of earlier runs, named
    ``<run>-<strategy>`` (the run is the folder's name, or its parent's for a ``mixtures`` folder), so a run can
    start from the union of other runs' equilibria: each of them is then one column of the table, and the new
    mixture is an equilibrium against all of them."""
    villains = tuple(parse_matchup(matchup))
    out: dict[str, list[StrategySpec]] = {v: [] for v in villains}
    for folder in folders:
        folder = Path(folder)
        path = folder / f"{'-vs-'.join(villains)}.toml"
        if not path.is_file():
            have = ", ".join(f.stem for f in sorted(folder.glob("*.toml"))) or "none"
            raise InputError(f"--seed-from {str(folder)!r}: no mixture file {path.name} (it has: {have})")
        run = _run_name(folder)
        shipped = read_equilibrium_file(path)
        for v in villains:
            for spec, _ in shipped.mixture(v).components:
                out[v].append(replace(spec, name=f"{run}-{spec.name}"))
    return out


def _run_name(folder: Path) -> str:
    return folder.parent.name if folder.name == "mixtures" else folder.name


def library_strategies(villain: str, folders=None) -> list[StrategySpec]:
    """Every strategy of ``villain`` in the mixture files of ``folders`` (default: the shipped equilibria, each
    matchup it plays in), named ``<run>-<strategy>`` like :func:`seeds_from`, without repeats of what plays the
    same. A best response also tries each of them (:data:`DEFAULT_LIBRARY_GAMES`), so a run stops only at a mixture
    none of them beats by more than epsilon, wherever its populations started."""
    from strategies.mixture import mixture_files

    if folders is None:
        files = mixture_files()
    else:
        files = []
        for folder in map(Path, folders):
            found = sorted(folder.glob("*.toml")) if folder.is_dir() else []
            if not found:
                raise InputError(f"--library {str(folder)!r}: no mixture files there (simlab equilibrium writes them)")
            files += found
    out, seen = [], set()
    for path in files:
        shipped = read_equilibrium_file(path)
        if villain not in shipped.villains:
            continue
        run = _run_name(path.parent)
        for spec, _ in shipped.mixture(villain).components:
            if spec_key(spec) not in seen:
                seen.add(spec_key(spec))
                name = spec.name if spec.name.startswith(f"{run}-") else f"{run}-{spec.name}"
                out.append(replace(spec, name=name))
    return out


def equilibrium(
    matchup: str,
    seed_strategies: dict[str, list] | None = None,
    seed_levels=SEED_LEVELS,
    options: EquilibriumSettings | None = None,
    checkpoint: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    *,
    library: dict[str, list[StrategySpec]] | None = None,
    settings: RunSettings | None = None,
    **given,
) -> EquilibriumResult:
    """The equilibrium of ``matchup`` (two different villains) over populations grown by best responses.

    seed_strategies: villain -> more strategies to start its population with (names, paths or specs), after
        ``seed_levels`` (default novice, expert, tuned: those available here; give ``()`` to start from the extra
        strategies alone).
    options: games per table entry, epsilon, iterations, the tuner's budget and games (:class:`EquilibriumSettings`).
    checkpoint: a directory keeping every finished step (resume by running the same call again).
    progress: called with (what is being played, games done, games planned in this step).
    library: villain -> the strategies each best response also tries (default: :func:`library_strategies`, the
        shipped equilibria; none when ``options.library_games`` is 0).
    settings and ``given`` (:class:`simlab.runs.settings.RunSettings` fields): the seed, rule variants, turn cap,
        threads; games, level and strategies are not used.
    """
    from simlab.runs.sim import _set_threads, _StopFlag

    villains = parse_matchup(matchup)
    if len(villains) != 2 or villains[0] == villains[1]:
        raise InputError(f"an equilibrium is of a 2-player matchup of two different villains, got {matchup!r}")
    a, b = villains
    matchup = f"{a}-vs-{b}"
    opts = options or EquilibriumSettings()
    settings = settings_from(settings, "the equilibrium", **given)
    _set_threads(settings.threads)
    extra = dict(seed_strategies or {})
    for v in extra:
        if v not in villains:
            raise InputError(f"--seed-strategy names {v!r}, which is not in {matchup}; choose from {a}, {b}")
    pops = {v: seed_population(v, seed_levels, extra.get(v, ())) for v in villains}
    if not opts.library_games:
        library = {}
    elif library is None:
        library = {v: library_strategies(v) for v in villains}
    library = {v: list(library.get(v, ())) for v in villains}
    oracle = _DoubleOracle(matchup, (a, b), opts, settings, pops, checkpoint, progress, library)
    with _StopFlag() as flag:
        oracle.stop = lambda: flag.stop
        try:
            rows, solution, converged, stopped_by = oracle.iterate()
            value = oracle.value(solution)
        except Interrupted:
            raise KeyboardInterrupt from None
    seeded = {v: [s.name for s in seed_population(v, seed_levels, extra.get(v, ()))] for v in villains}
    return oracle.result(rows, solution, value, converged, stopped_by, seeded)


class _DoubleOracle:
    """One run of the double oracle: both sides' populations, the step store (every finished step, so a run
    resumes), the games played. :meth:`iterate` grows the populations, :meth:`value` plays the last mixtures
    against each other, :meth:`result` gathers the tables."""

    def __init__(self, matchup, villains, opts, settings: RunSettings, pops, checkpoint, progress, library):
        from simlab.runs.backend import fingerprint

        self.matchup, self.villains, self.opts, self.settings, self.pops = matchup, villains, opts, settings, pops
        self.progress = progress
        self.fp = fingerprint()
        run_settings = {
            "matchup": matchup,
            "seed": settings.seed,
            "variants": settings.variant_dict,
            "max_turns": settings.max_turns,
            "simlab": self.fp,
        }
        self.store = StepStore(checkpoint, run_settings)
        self.table_seed = derived_seed(settings.seed, f"equilibrium:{matchup}:table")
        self.played = 0
        self.t0 = time.perf_counter()
        self.stop = lambda: False  # Ctrl-C was pressed (set while a run plays)
        # each side's --br-from strategies, the further starts of every best response
        self.br_levels = {v: seed_population(v, opts.br_from) if opts.br_from else [] for v in villains}
        self.library = library  # each side's strategies of earlier equilibria, tried by every best response

    def say(self, what, done, total):
        if self.progress is not None:
            self.progress(what, done, total)

    def play(self, what: str, strategies, n: int, seed: int) -> np.ndarray:
        """The first villain's score in each of ``n`` games of ``strategies`` (one per villain, in order), shown as
        ``what`` in the progress and counted in the games played."""
        self.say(what, 0, n)
        s = _scores(self.villains, strategies, n, seed, self.settings, self.stop, lambda d: self.say(what, d, n))
        self.played += s.size
        return s

    def entry(self, i: int, j: int) -> dict:
        """The payoff table's entry of the first side's strategy ``i`` against the second's ``j``."""
        a, b = self.villains
        opts = self.opts
        ra, cb = self.pops[a][i], self.pops[b][j]
        key = f"entry:{opts.table_games}:{spec_key(ra)}:{spec_key(cb)}"
        got = self.store.get(key)
        if got is None:
            s = self.play(f"table: {ra.name} against {cb.name}", (ra, cb), opts.table_games, self.table_seed)
            got = self.store.put(key, {"score": float(s.mean()), "var": float(s.var(ddof=1)), "games": int(s.size)})
        return got

    def table(self) -> np.ndarray:
        a, b = self.villains
        return np.array(
            [[self.entry(i, j)["score"] for j in range(len(self.pops[b]))] for i in range(len(self.pops[a]))]
        )

    def side_mixture(self, v: str, w: np.ndarray) -> MixedSpec:
        return mixture(f"{self.matchup}#{v}", list(zip(self.pops[v], w, strict=True)))

    def br_starts(self, v: str, payoff_v: np.ndarray) -> list[StrategySpec]:
        """Where ``v``'s best response is tuned from: its best pure strategy against the other side's mixture, then
        each ``br_from`` level's strategy (those available here) that plays differently."""
        best = self.pops[v][int(np.argmax(payoff_v))]
        out, seen = [best], {spec_key(best)}
        for spec in self.br_levels[v]:
            if spec_key(spec) not in seen:
                seen.add(spec_key(spec))
                out.append(spec)
        return out

    def best_response(self, it: int, v: str, opp: str, payoff_v: np.ndarray, own: MixedSpec, theirs: MixedSpec):
        """``v``'s best response to ``theirs``: tuned from each of :meth:`br_starts` (the budget split between them),
        each validated against ``own`` on the same fresh games; the one with the largest gain."""
        starts = self.br_starts(v, payoff_v)
        budget = self.opts.budget // len(starts)
        tried = [self._tuned_from(it, v, opp, start, budget, own, theirs) for start in starts]
        from_library = self.library_best(it, v, opp, own, theirs)
        if from_library is not None:
            tried.append(from_library)
        best = max(tried, key=lambda br: br["change"])  # ties: the first start (the side's best pure strategy)
        best["tried"] = ", ".join(f"{br['start']} {br['change']:+.1%}" for br in tried)
        return best

    def library_best(self, it: int, v: str, opp: str, own: MixedSpec, theirs: MixedSpec) -> dict | None:
        """The library strategy of ``v`` (not yet in its population) that scores best against ``theirs`` on the
        same ``library_games`` games, validated against ``own`` like a tuned best response; None if there is none."""
        first = v == self.villains[0]
        n = self.opts.library_games
        have = {spec_key(s) for s in self.pops[v]}
        members = [s for s in self.library[v] if spec_key(s) not in have]
        if not members:
            return None
        seed = derived_seed(self.settings.seed, f"equilibrium:{self.matchup}:{it}:{v}:library")
        scores = []
        for spec in members:
            key = f"library:{it}:{v}:{n}:{spec_key(spec)}:{mixture_key(theirs)}"
            got = self.store.get(key)
            if got is None:
                pair = (spec, theirs) if first else (theirs, spec)
                s = self.play(f"iteration {it}: {v}'s library strategy {spec.name}", pair, n, seed)
                got = self.store.put(key, {"score": float(s.mean() if first else 1.0 - s.mean())})
            scores.append(got["score"])
        best = members[int(np.argmax(scores))]  # ties: the first in library order
        return {"spec": best, "start": f"library {best.name}", **self.validated(it, v, opp, best, own, theirs)}

    def _tuned_from(self, it, v, opp, start: StrategySpec, budget: int, own: MixedSpec, theirs: MixedSpec) -> dict:
        from simlab.studies.tune import tune

        opts, matchup = self.opts, self.matchup
        search = f"{budget}:{opts.candidate_games}:{opts.popsize}:{opts.step}"
        key = f"br:{it}:{v}:{search}:{spec_key(start)}:{mixture_key(theirs)}"
        got = self.store.get(key)
        what = f"iteration {it}: {v}'s best response from {start.name}"
        if got is None:
            self.say(what, 0, budget)
            res = tune(
                v,
                budget,
                start,
                {opp: theirs},
                opts.candidate_games,
                2,  # the tune's own validation (against its start) is not used: see below
                opts.popsize,
                purpose=f"equilibrium:{matchup}:{it}",
                objective="2p:current=1",
                drop_penalty=0.0,
                versus=opp,
                step=opts.step,
                settings=self.settings,
                progress=lambda done, total, best, first: self.say(what, done, total),
            )
            if res.interrupted:
                raise Interrupted
            self.played += int(res.provenance["search_games"])
            got = self.store.put(key, {"params": res.best.params, "kernel": int(res.best.kernel), "start": start.name})
        spec = StrategySpec(
            f"br-{v}-{it}",
            f"{v}'s best response in {matchup}, iteration {it}",
            got["kernel"],
            got["params"],
            "simlab equilibrium",
        )
        return {"spec": spec, "start": got["start"], **self.validated(it, v, opp, spec, own, theirs)}

    def validated(self, it: int, v: str, opp: str, spec: StrategySpec, own: MixedSpec, theirs: MixedSpec) -> dict:
        """``spec`` against ``own`` (``v``'s mixture), both playing ``theirs`` on the same fresh games."""
        from simlab.studies.tune import validate

        opts, settings = self.opts, self.settings
        vkey = f"validate:{it}:{v}:{opts.validation_games}:{spec_key(spec)}:{mixture_key(own)}:{mixture_key(theirs)}"
        val = self.store.get(vkey)
        if val is None:
            self.say(f"iteration {it}: validating {v}'s best response", 0, 2 * opts.validation_games)
            frame = validate(
                v,
                own,
                spec,
                {opp: theirs},
                opts.validation_games,
                derived_seed(settings.seed, f"equilibrium:{self.matchup}:{it}:{v}:validate"),
                settings.variant_dict,
                settings.max_turns,
                objective="2p:current=1",
                versus=opp,
            )
            row = frame.filter(pl.col("part") == "objective").row(0, named=True)
            self.played += 2 * opts.validation_games
            val = self.store.put(
                vkey,
                {k: float(row[k]) for k in ("start_rate", "rate", "change", "change_low", "change_high")}
                | {"games": int(row["games"])},
            )
        return val

    def iterate(self):
        """Solve the table, add each side's best response that beats its mixture, until neither gains more than
        epsilon (converged), none joins, or the iteration cap: (rows, the last solution, converged, stopped by)."""
        a, b = self.villains
        opts, pops = self.opts, self.pops
        rows, stopped_by, converged = [], f"the iteration cap ({opts.iterations})", False
        solution = None
        for it in range(1, opts.iterations + 1):
            payoff = self.table()
            solution = solve_matrix_game(payoff)
            mix_a, mix_b = self.side_mixture(a, solution.rows), self.side_mixture(b, solution.cols)
            br_a = self.best_response(it, a, b, payoff @ solution.cols, mix_a, mix_b)
            br_b = self.best_response(it, b, a, -(solution.rows @ payoff), mix_b, mix_a)
            row = _iteration_row(it, len(pops[a]), len(pops[b]), solution, br_a, br_b)
            done = br_a["change"] <= opts.epsilon and br_b["change"] <= opts.epsilon
            joined = []
            if not done and it < opts.iterations:
                for v, br in ((a, br_a), (b, br_b)):
                    if br["change_low"] > 0 and spec_key(br["spec"]) not in {spec_key(s) for s in pops[v]}:
                        pops[v].append(br["spec"])
                        joined.append(v)
            row["joined"] = ", ".join(joined)
            rows.append(row)
            if done:
                converged, stopped_by = True, f"no best response gains more than epsilon ({opts.epsilon:.0%})"
                break
            if not joined and it < opts.iterations:
                stopped_by = "no best response beat its side's mixture beyond its validation interval"
                break
        return rows, solution, converged, stopped_by

    def value(self, solution: MatrixGameSolution) -> dict:
        """The last mixtures against each other on fresh games: value, low, high."""
        a, b = self.villains
        opts = self.opts
        mix_a, mix_b = self.side_mixture(a, solution.rows), self.side_mixture(b, solution.cols)
        vkey = f"value:{opts.value_games}:{mixture_key(mix_a)}:{mixture_key(mix_b)}"
        got = self.store.get(vkey)
        if got is None:
            vseed = derived_seed(self.settings.seed, f"equilibrium:{self.matchup}:value")
            s = self.play("the value: mixture against mixture", (mix_a, mix_b), opts.value_games, vseed)
            got = self.store.put(vkey, dict(zip(("value", "low", "high"), _mean_interval(s), strict=True)))
        return got

    def result(self, rows, solution, got, converged, stopped_by, seeded) -> EquilibriumResult:
        """The :class:`EquilibriumResult`: the table behind the final mixtures, the mixtures, the provenance."""
        a, b = villains = self.villains
        from simlab.runs.backend import source_commit

        opts, settings, pops, fp = self.opts, self.settings, self.pops, self.fp
        last_payoff = self.table()
        # the table behind the final mixtures (members that joined at the cap are not in it)
        m, n = solution.rows.size, solution.cols.size
        table_rows = []
        for i in range(m):
            for j in range(n):
                e = self.entry(i, j)
                table_rows.append(
                    {
                        f"{a}_strategy": pops[a][i].name,
                        f"{b}_strategy": pops[b][j].name,
                        "score": float(last_payoff[i, j]),
                        "games": e["games"],
                        "standard_error": math.sqrt(e["var"] / e["games"]),
                    }
                )
        pops = {a: pops[a][:m], b: pops[b][:n]}
        weights = {a: solution.rows, b: solution.cols}
        mixtures = pl.DataFrame(
            [
                {"villain": v, "strategy": s.name, "weight": float(w)}
                for v in villains
                for s, w in zip(pops[v], weights[v], strict=True)
            ]
        )
        seconds = time.perf_counter() - self.t0
        provenance = {
            "matchup": self.matchup,
            "seed": settings.seed,
            "variants": settings.variant_dict,
            "max_turns": settings.max_turns,
            "options": {k: getattr(opts, k) for k in opts.__dataclass_fields__},
            "seed_population": seeded,
            "library": {v: [s.name for s in self.library[v]] for v in villains},
            "iterations": len(rows),
            "converged": converged,
            "stopped_by": stopped_by,
            "games_this_run": self.played,
            "seconds_this_run": round(seconds, 1),
            "commit": source_commit(),
            "simlab_version": fp["version"],
            "rules_hash": fp["rules_hash"],
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        return EquilibriumResult(
            self.matchup,
            (a, b),
            got["value"],
            got["low"],
            got["high"],
            opts.value_games,
            mixtures,
            pl.DataFrame(rows),
            pl.DataFrame(table_rows),
            converged,
            stopped_by,
            pops,
            weights,
            provenance,
            seconds,
            self.played,
            self.store.path,
        )


def _iteration_row(it: int, size_a: int, size_b: int, solution: MatrixGameSolution, br_a: dict, br_b: dict) -> dict:
    """One row of the iterations table: the populations, the table's value and supports, each best response."""
    row = {
        "iteration": it,
        "population_a": size_a,
        "population_b": size_b,
        "table_value": solution.value,
        "support_a": int((solution.rows > 0).sum()),
        "support_b": int((solution.cols > 0).sum()),
    }
    for side, br in (("a", br_a), ("b", br_b)):
        row |= {
            f"mixture_rate_{side}": br["start_rate"],
            f"best_response_rate_{side}": br["rate"],
            f"gain_{side}": br["change"],
            f"gain_{side}_low": br["change_low"],
            f"gain_{side}_high": br["change_high"],
            f"best_response_{side}": br["spec"].name,
            f"started_from_{side}": br["start"],
            f"tried_{side}": br.get("tried", br["start"]),
        }
    row["exploitability"] = max(br_a["change"], 0.0) + max(br_b["change"], 0.0)
    return row


def pairings(villains=VILLAIN_KEYS) -> list[str]:
    """Every 2-player matchup of two different villains, in registry order."""
    return [f"{x}-vs-{y}" for i, x in enumerate(villains) for y in villains[i + 1 :]]


# ============================================================================ the mixture file


def _without_none(value):
    """``value`` with every None left out of its tables (TOML has no null)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_none(v) for v in value if v is not None]
    return value


def write_mixture_file(
    result: EquilibriumResult, path: str | Path, command: str = "", probe: pl.DataFrame | None = None
) -> Path:
    """Write both sides' mixtures (their support) as a mixture file (:mod:`strategies.mixture`), with the value,
    the exploitability, the search probe's gains (when ``probe``, from :func:`search_probe`) and how it was made as
    ``[provenance]``."""
    import tomli_w

    from strategies import STRATEGIES

    expert = STRATEGIES["expert"].params
    strategies = []
    for v in result.villains:
        for spec, w in zip(result.populations[v], result.weights[v], strict=True):
            if w <= 0:
                continue
            params = {k: float(x) for k, x in spec.params.items() if x != expert.get(k)}
            strategies.append(
                {"villain": v, "weight": round(float(w), 6), "name": spec.name, "description": spec.description}
                | {"base": "expert", "params": params}
            )
    last = result.iterations.row(-1, named=True)
    provenance = result.provenance | {
        "value": round(result.value, 5),
        "value_low": round(result.value_low, 5),
        "value_high": round(result.value_high, 5),
        "value_games": result.value_games,
        "exploitability": round(result.exploitability, 5),
        "gain": {result.villains[0]: round(last["gain_a"], 5), result.villains[1]: round(last["gain_b"], 5)},
        "population": {v: [s.name for s in result.populations[v]] for v in result.villains},
        "command": command,
    }
    if probe is not None:
        provenance["search_probe"] = probe_provenance(probe, command)
    doc = {"matchup": result.matchup, "strategy": strategies, "provenance": _without_none(provenance)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = (
        f"# {result.matchup} at strong play: written by simlab equilibrium; regenerate with\n"
        f"# `{command or 'simlab equilibrium --matchup ' + result.matchup}`.\n"
        "# [provenance] records how it was made; the mixture loader ignores it.\n"
    )
    path.write_text(head + tomli_w.dumps(doc), encoding="utf-8")
    return path


# ============================================================================ an independent probe: the search player


@dataclass(frozen=True)
class ShippedEquilibrium:
    """A mixture file written by :func:`write_mixture_file`: its matchup, both mixtures and its provenance (what
    :func:`search_probe` needs, without the run that made it)."""

    path: Path
    matchup: str
    villains: tuple[str, str]
    mixtures: dict[str, MixedSpec]
    provenance: dict

    def mixture(self, villain: str) -> MixedSpec:
        return self.mixtures[villain]


def read_equilibrium_file(path: str | Path) -> ShippedEquilibrium:
    """The equilibrium a mixture file holds (refused unless it names its matchup and both its villains' mixtures)."""
    from strategies.mixture import load_mixture, read_mixture_file

    path = Path(path)
    doc = read_mixture_file(path)
    try:
        a, b = parse_matchup(str(doc.get("matchup", "")))
    except (InputError, ValueError):
        raise InputError(f'{path}: needs matchup = "A-vs-B" (two different villains)') from None
    mixtures = {v: load_mixture(f"{path}#{v}") for v in (a, b)}
    return ShippedEquilibrium(path, f"{a}-vs-{b}", (a, b), mixtures, dict(doc.get("provenance", {})))


def probe_provenance(probe: pl.DataFrame, command: str = "") -> dict:
    """A probe as a mixture file's ``[provenance.search_probe]``: each villain's gain [95%] and verdict under
    ``villains``, and the search strategy, commit, rules and command it was measured with."""
    from simlab.runs.backend import fingerprint, source_commit

    rows = list(probe.iter_rows(named=True))
    return {
        "search": rows[0]["search"] if rows else "",
        "commit": source_commit() or "",
        "rules_hash": fingerprint()["rules_hash"],
        "command": command,
        "villains": {
            r["villain"]: {k: r[k] for k in ("games", "mixture_score", "search_score", "gain", "gain_low", "gain_high")}
            | {"verdict": r["verdict"]}
            for r in rows
        },
    }


def shipped_files(folder: str | Path, matchups=()) -> list[Path]:
    """The mixture files in ``folder`` (``<matchup>.toml``), only ``matchups`` when given (each must be there)."""
    folder = Path(folder)
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if matchups:
        files = [f for f in files if f.stem in set(matchups)]
        missing = set(matchups) - {f.stem for f in files}
        if missing:
            raise InputError(f"no mixture file for {', '.join(sorted(missing))} in {str(folder)!r}")
    if not files:
        raise InputError(f"no mixture files in {str(folder)!r} (simlab equilibrium writes them)")
    return files


def record_probe(path: str | Path, probe: pl.DataFrame, command: str = "") -> Path:
    """Rewrite a mixture file with ``probe`` (a :func:`search_probe` frame) as its provenance's ``search_probe``,
    naming the search strategy, the commit and the rules it was measured with; the mixtures are left as they are."""
    import tomli_w

    from strategies.mixture import read_mixture_file

    path = Path(path)
    doc = read_mixture_file(path)
    head = "".join(line + "\n" for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    prov = dict(doc.get("provenance", {}))
    prov["search_probe"] = probe_provenance(probe, command)
    doc["provenance"] = _without_none(prov)
    path.write_text(head + tomli_w.dumps(doc), encoding="utf-8")
    return path


def search_probe(
    result: EquilibriumResult | ShippedEquilibrium,
    games: int = 100,
    epsilon: float = DEFAULT_EPSILON,
    search: str = "search",
    *,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """Each side's search player (``search``: a search strategy; its rollouts model each villain by that villain's
    most-weighted equilibrium strategy) against the other side's mixture, on fresh games, paired with the side's own
    mixture on the same games: one row per side with both scores, the gain [95%] and a verdict, "not converged at
    search level" when the gain's interval lies above ``epsilon``."""
    from dataclasses import replace

    from simlab.game import warmup
    from simlab.game.api import strategy_spec

    settings = settings_from(settings, "the search probe", **given)
    a, b = result.villains
    base = strategy_spec(search)
    if base.kernel != 2:
        raise InputError(f"--probe-strategy {search!r} is not a search strategy")
    models = tuple((v, result.mixture(v).most_weighted()) for v in result.villains)
    warmup.ensure(search=True)
    rows = []
    for v, opp in ((a, b), (b, a)):
        probe = replace(base, name=f"search ({base.name}) for {v}", rollouts=models)
        pseed = derived_seed(settings.seed, f"equilibrium:{result.matchup}:probe:{v}")
        own = _scores((v, opp), (result.mixture(v), result.mixture(opp)), games, pseed, settings, lambda: False)
        found = _scores((v, opp), (probe, result.mixture(opp)), games, pseed, settings, lambda: False)
        gain, low, high = _mean_interval(found - own)
        rows.append(
            {
                "matchup": result.matchup,
                "villain": v,
                "games": games,
                "search": base.name,
                "mixture_score": float(own.mean()),
                "search_score": float(found.mean()),
                "gain": gain,
                "gain_low": low,
                "gain_high": high,
                "verdict": "not converged at search level" if low > epsilon else "holds at search level",
            }
        )
    return pl.DataFrame(rows)


# ============================================================================ where the search starts


def start_robustness(results: dict[str, tuple], epsilon: float = DEFAULT_EPSILON) -> pl.DataFrame:
    """Per matchup, two equilibria from different seed populations: both values [95%], their difference and whether
    they agree, i.e. differ by less than epsilon plus the half-widths of both intervals (each value may be off by its
    interval, and each equilibrium is an epsilon-equilibrium as far as its best responses find)."""
    rows = []
    for matchup, (r1, r2) in results.items():
        diff = r1.value - r2.value
        slack = epsilon + (r1.value_high - r1.value_low) / 2 + (r2.value_high - r2.value_low) / 2
        rows.append(
            {
                "matchup": matchup,
                "villain": r1.villains[0],
                "start_1": ", ".join(r1.provenance["seed_population"][r1.villains[0]])
                + " / "
                + ", ".join(r1.provenance["seed_population"][r1.villains[1]]),
                "seed_1": r1.provenance.get("seed"),
                "value_1": r1.value,
                "value_1_low": r1.value_low,
                "value_1_high": r1.value_high,
                "start_2": ", ".join(r2.provenance["seed_population"][r2.villains[0]])
                + " / "
                + ", ".join(r2.provenance["seed_population"][r2.villains[1]]),
                "seed_2": r2.provenance.get("seed"),
                "value_2": r2.value,
                "value_2_low": r2.value_low,
                "value_2_high": r2.value_high,
                "difference": diff,
                "allowed": slack,
                "agree": abs(diff) <= slack,
            }
        )
    return pl.DataFrame(rows)


@dataclass(frozen=True)
class StoredValue:
    """An equilibrium's value as its report folder keeps it (``value.csv`` and ``provenance.json``): enough to
    compare runs without their checkpoints."""

    matchup: str
    villains: tuple[str, str]
    value: float
    value_low: float
    value_high: float
    provenance: dict


def read_values(report_dir: str | Path) -> dict[str, StoredValue]:
    """Every matchup's value under ``report_dir`` (the ``--report-dir`` of ``simlab equilibrium``), by matchup."""
    root = Path(report_dir)
    if not root.is_dir():
        raise InputError(f"no equilibrium report folder {str(root)!r} (the --report-dir of simlab equilibrium)")
    out = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        value, prov = sub / "value.csv", sub / "provenance.json"
        if not (value.exists() and prov.exists()):
            continue
        try:
            row = pl.read_csv(value).row(0, named=True)
            provenance = json.loads(prov.read_text())
            a, b = parse_matchup(row["matchup"])
        except (OSError, ValueError, KeyError, pl.exceptions.PolarsError) as exc:
            raise InputError(f"cannot read the equilibrium in {str(sub)!r}: {exc}") from None
        out[row["matchup"]] = StoredValue(
            row["matchup"], (a, b), float(row["value"]), float(row["value_low"]), float(row["value_high"]), provenance
        )
    if not out:
        raise InputError(f"{str(root)!r} holds no equilibrium (no MATCHUP/value.csv with its provenance.json)")
    return out


def compare_starts(first: str | Path, second: str | Path, epsilon: float = DEFAULT_EPSILON) -> pl.DataFrame:
    """:func:`start_robustness` of the matchups two report folders have in common."""
    one, two = read_values(first), read_values(second)
    common = [m for m in one if m in two]
    if not common:
        raise InputError(f"{str(first)!r} ({', '.join(one)}) and {str(second)!r} ({', '.join(two)}) share no matchup")
    return start_robustness({m: (one[m], two[m]) for m in common}, epsilon)


def write_outputs(
    result: EquilibriumResult, probe: pl.DataFrame | None, out_dir, report_dir, command: str = ""
) -> dict[str, Path]:
    """The mixture file (``out_dir/<matchup>.toml``: the strong level) and, under ``report_dir``, every table as
    parquet and CSV and ``provenance.json``. Returns what was written, by name."""
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    files = {"mixture_file": write_mixture_file(result, Path(out_dir) / f"{result.matchup}.toml", command, probe)}
    frames = result.frames() | ({"search_probe": probe} if probe is not None else {})
    for name, frame in frames.items():
        frame.write_parquet(report_dir / f"{name}.parquet")
        frame.write_csv(report_dir / f"{name}.csv")
        files[name] = report_dir / f"{name}.csv"
    provenance = result.provenance | {"command": command}
    (report_dir / "provenance.json").write_text(json.dumps(provenance, indent=2, sort_keys=True) + "\n")
    files["provenance"] = report_dir / "provenance.json"
    return files
