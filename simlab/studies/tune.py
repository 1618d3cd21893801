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

:func:`equilibrium` re-tunes each villain in turn against the others' current strategies, round after
round; a villain adopts its tuned strategy only when the objective's validation interval lies above zero
and no part is significantly worse, and the process has converged when a whole round changes nobody. The
matrix after every round is the trajectory.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import InputError
from simlab.game.api import check_villain, strategy_spec
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import interval_text, wilson
from simlab.studies.difficulty import derived_seed
from simlab.studies.whatif import paired_effect
from strategies import KERNELS, StrategySpec
from strategies.mixture import play_spec

DEFAULT_BUDGET = 300_000  # search games of one tune
DEFAULT_CANDIDATE_GAMES = 1_000  # games per candidate, split evenly over the opponents and seats
DEFAULT_VALIDATION_GAMES = 2_500  # validation games per pairing (opponent or seat order) of each part, per strategy
DEFAULT_ROUNDS = 3
DEFAULT_MATRIX_GAMES = 2_000  # per matchup of the matrix after each round of the equilibrium
SIGMA_SHARE = 0.2  # initial step size of each parameter, as a share of its tuning range
DIAGONAL_ABOVE = 30  # parameters beyond which CMA-ES adapts a diagonal covariance (sep-CMA)
DECIMALS = 3  # tuned values are rounded to this many decimals before they are played, so the file is exact


def tunable_params(villain: str) -> tuple:
    """The parameters tuning searches for ``villain``: every tunable one of the heuristic's table except
    those of another villain's group (only that villain reads them). Read from the table at run time."""
    from strategies.plans import PARAMS

    check_villain(villain)
    others = set(VILLAIN_KEYS) - {villain}
    return tuple(p for p in PARAMS if p.tunable and p.group not in others)


def _heuristic(strategy, what: str) -> StrategySpec:
    spec = strategy_spec(strategy)
    if spec.kernel != KERNELS["heuristic"]:
        raise InputError(f"{what} {spec.name!r} has no parameters to tune; give a heuristic strategy such as expert")
    return spec


def _check_step(step) -> float:
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not 0 < step <= 10:
        raise InputError(f"the tuner's step must be a number above 0 and at most 10, got {step!r}")
    return float(step)


def _check_count(value, what: str, least: int = 1) -> int:
    if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < least:
        raise InputError(f"{what} must be an integer of at least {least:,}, got {value!r}")
    return int(value)


# ============================================================================ the objective: what a tune maximises


DEFAULT_OBJECTIVE = "2p:current=0.5,2p:novice=0.2,3p:current=0.3"
DEFAULT_DROP_PENALTY = 3.0  # a point a part loses below the start counts this much more than a point gained
CURRENT = "current"  # the field of the opponents' current strategies (--opponent; in simlab tune-all the round's)


@dataclass(frozen=True)
class Part:
    """One part of the objective: the villain's win rate in ``players``-player games against the other
    villains, each played by ``field`` (``current``: the opponents' current strategies; else a level or a
    strategy every opponent plays), counted with ``weight`` (the weights sum to 1)."""

    players: int
    field: str
    weight: float

    @property
    def name(self) -> str:
        return f"{self.players}p:{self.field}"


@dataclass(frozen=True)
class Objective:
    """What a tune maximises: the weighted mean of the parts' win rates, less ``drop_penalty`` times the
    weighted points each part falls below the start's rate on the same games (in the search only; validation
    reports the weighted mean and each part's change)."""

    parts: tuple[Part, ...]
    drop_penalty: float = DEFAULT_DROP_PENALTY

    @property
    def text(self) -> str:
        return ",".join(f"{p.name}={p.weight:g}" for p in self.parts)

    def value(self, rates, start_rates) -> float:
        """The search's score of a candidate from its per-part win rates and the start's (same games)."""
        gain = sum(p.weight * r for p, r in zip(self.parts, rates, strict=True))
        drop = sum(p.weight * max(0.0, s - r) for p, r, s in zip(self.parts, rates, start_rates, strict=True))
        return float(gain - self.drop_penalty * drop)

    def mean(self, rates) -> float:
        """The weighted mean of per-part win rates (what validation measures)."""
        return float(sum(p.weight * r for p, r in zip(self.parts, rates, strict=True)))


def parse_objective(objective: str | Objective | None = None, drop_penalty: float | None = None) -> Objective:
    """An :class:`Objective` from text ``"2p:current=0.5,2p:novice=0.2,3p:current=0.3"`` (PLAYERSp:FIELD=WEIGHT,
    comma-separated; FIELD is ``current`` or a level or strategy name; weights are scaled to sum to 1)."""
    from simlab.runs.levels import LEVELS

    if isinstance(objective, Objective):
        obj = objective
    else:
        text = DEFAULT_OBJECTIVE if objective is None else str(objective)
        parts, seen = [], set()
        for item in (t.strip() for t in text.split(",")):
            head, _, weight = item.partition("=")
            players, _, field_ = head.strip().partition("p:")
            if not (players.strip() in ("2", "3") and field_.strip() and weight.strip()):
                raise InputError(
                    f"objective part {item!r} must look like 2p:FIELD=WEIGHT or 3p:FIELD=WEIGHT, FIELD one of "
                    f"{CURRENT}, {', '.join(LEVELS)} or a strategy"
                )
            try:
                w = float(weight)
            except ValueError:
                w = float("nan")
            if not (math.isfinite(w) and w > 0):
                raise InputError(
                    f"objective part {item!r}: the weight must be a positive number, got {weight.strip()!r}"
                )
            field_ = field_.strip()
            if field_ != CURRENT and field_ not in LEVELS:
                strategy_spec(field_)  # a strategy name or file, or the one-line error naming the choices
            part = Part(int(players), field_, w)
            if part.name in seen:
                raise InputError(f"objective part {part.name!r} is given twice")
            seen.add(part.name)
            parts.append(part)
        total = sum(p.weight for p in parts)
        obj = Objective(tuple(Part(p.players, p.field, p.weight / total) for p in parts))
    if drop_penalty is not None:
        if not (isinstance(drop_penalty, int | float) and math.isfinite(drop_penalty) and drop_penalty >= 0):
            raise InputError(f"the drop penalty must be a number of at least 0, got {drop_penalty!r}")
        obj = replace(obj, drop_penalty=float(drop_penalty))
    return obj


@dataclass(frozen=True)
class Pairing:
    """The games of one seat order of one part: ``villains`` (the tuned villain first) and the opponents'
    strategies (entries 1..)."""

    part: int  # index into the objective's parts
    villains: tuple[str, ...]
    opponents: tuple[StrategySpec, ...]

    @property
    def label(self) -> str:
        return ", ".join(self.villains[1:])


def pairings(villain: str, objective: Objective, current: dict, versus: str | None = None) -> list[Pairing]:
    """Every pairing of ``objective`` for ``villain``: a 2-player part meets each other villain (only ``versus``
    when given: one matchup's best response); a 3-player part plays both seat orders of the other two (with seats
    rotated within each, every seat of both orders equally). ``current``: villain -> strategy spec (or mixture) of
    the ``current`` field."""
    from simlab.runs.levels import strategy_at

    others = [v for v in VILLAIN_KEYS if v != villain]
    if versus is not None and any(part.players != 2 for part in objective.parts):
        raise InputError("a tune against one opponent villain has 2-player parts only")
    out = []
    for k, part in enumerate(objective.parts):

        def at(o, part=part):
            return current[o] if part.field == CURRENT else strategy_spec(strategy_at(part.field, o))

        if part.players == 2:
            out += [Pairing(k, (villain, o), (at(o),)) for o in others if versus in (None, o)]
        else:
            a, b = others
            out += [Pairing(k, (villain, a, b), (at(a), at(b))), Pairing(k, (villain, b, a), (at(b), at(a)))]
    return out


def games_per_pairing(objective: Objective, games: int, pairings_per_part: int = 2) -> list[int]:
    """Games of each pairing of a part when a candidate plays about ``games`` in all: each part gets its
    weight's share, split evenly over its pairings (two a part: two opponents, or two seat orders; one against a
    single opponent villain), a multiple of the players (every seat equally)."""
    out = []
    for part in objective.parts:
        share = games * part.weight / pairings_per_part
        out.append(max(part.players, int(share // part.players) * part.players))
    return out


def part_seed(seed: int, part: Part) -> int:
    """The seed of a part's games: every candidate (and both strategies of a validation) plays the same."""
    return derived_seed(seed, f"part:{part.name}")


# ============================================================================ playing a batch against the field


def _play_field(villain, specs, plays, seed, variants, max_turns, stop=None, on_chunk=None, objective=None, edits=()):
    """Per strategy and pairing (``plays``: (pairing, games) pairs), the 0/1 array of the villain's wins in
    games 0..games-1 of that pairing (``None`` if ``stop()`` said to stop before the batch was played). The
    villain is entry 0, seats rotated; every strategy plays the same games (the seed of the pairing's part),
    with the card ``edits``."""
    from simlab.runs.backend import current, play_chunk
    from simlab.runs.sim import GamePlan

    jobs = []
    for i, spec in enumerate(specs):
        for j, (pr, n) in enumerate(plays):
            pseed = part_seed(seed, objective.parts[pr.part])
            plan = GamePlan(pr.villains, (spec, *pr.opponents), n, pseed, variants, max_turns, edits=edits)
            jobs += [(i, j, job) for job in plan.jobs("games")]
    won = {(i, j): np.zeros(n, np.int8) for i in range(len(specs)) for j, (_, n) in enumerate(plays)}
    for (i, j, job), res in zip(jobs, current().map(play_chunk, [jb for _, _, jb in jobs]), strict=False):
        seats = job.seats()
        ws = res["winner_seat"].astype(np.int64)
        entry = np.where(ws >= 0, seats[np.arange(job.n), np.maximum(ws, 0)], -1)
        won[(i, j)][job.first : job.first + job.n] = entry == 0
        if on_chunk is not None:
            on_chunk(job.n)
        if stop is not None and stop():
            return None
    return won


def _part_rates(won, i, plays, objective) -> list[float]:
    """Strategy ``i``'s win rate in each part: the mean over the part's pairings (equal games each)."""
    out = []
    for k in range(len(objective.parts)):
        out.append(float(np.mean([won[(i, j)].mean() for j, (pr, _) in enumerate(plays) if pr.part == k])))
    return out


# ============================================================================ one villain


@dataclass
class TuneResult:
    """A tune: the tuned strategy, its search history and its validation on fresh games."""

    villain: str
    start: StrategySpec
    best: StrategySpec
    params: pl.DataFrame  # one row per searched parameter: group, start, tuned, low, high
    history: pl.DataFrame  # one row per generation: games so far, best so far, the generation's best and mean
    validation: pl.DataFrame  # per part and pairing, each part, and the objective: start and tuned, paired change
    provenance: dict = field(default_factory=dict)
    seconds: float = 0.0
    interrupted: bool = False  # stopped by Ctrl-C: the best candidate found so far
    path: Path | None = None

    @property
    def improvement(self) -> dict:
        """The objective's row of the validation (the weighted mean of the parts' win rates): change,
        change_low, change_high (95%), rates."""
        rows = self.validation.filter(pl.col("opponent") == "field").to_dicts()
        return rows[0] if rows else {}

    @property
    def worse_parts(self) -> list[str]:
        """The parts of the objective whose validated change lies below zero (a collapse somewhere)."""
        rows = self.validation.filter((pl.col("opponent") == "all") & (pl.col("change_high") < 0))
        return rows["part"].to_list()

    @property
    def improved(self) -> bool:
        """The objective's validated change lies above zero and no part is significantly worse."""
        imp = self.improvement
        return bool(imp) and imp["change_low"] > 0 and not self.worse_parts

    def frames(self) -> dict[str, pl.DataFrame]:
        return {"params": self.params, "history": self.history, "validation": self.validation}


def _decoder(params, base: StrategySpec, name: str, description: str):
    def decode(x) -> StrategySpec:
        values = dict(base.params)
        for p, v in zip(params, x, strict=True):
            v = min(max(float(v), p.low), p.high)
            values[p.name] = float(round(v)) if p.integer else round(v, DECIMALS)
        return StrategySpec(name, description, base.kernel, values, source="simlab tune")

    return decode


def tune(
    villain: str,
    budget: int = DEFAULT_BUDGET,
    start: str | StrategySpec = "expert",
    opponents: dict | None = None,
    candidate_games: int = DEFAULT_CANDIDATE_GAMES,
    validation_games: int = DEFAULT_VALIDATION_GAMES,
    popsize: int | None = None,
    params: list[str] | None = None,
    out: str | Path | None = None,
    progress: Callable[[int, int, float, float], None] | None = None,
    purpose: str = "tune",
    objective: str | Objective | None = None,
    drop_penalty: float | None = None,
    *,
    versus: str | None = None,
    step: float = 1.0,
    settings: RunSettings | None = None,
    **given,
) -> TuneResult:
    """Tune ``villain``'s strategy parameters for its win rate against the field, validate, and write it.

    budget: search games at most (each candidate plays about ``candidate_games``, split over the objective's
        parts by weight, then evenly over each part's two pairings; the starting strategy is the first
        candidate). Validation plays ``validation_games`` games in each pairing of every part for the start
        and for the tuned strategy on top of that.
    start: the strategy the search starts from (a heuristic strategy: name, TOML path or spec).
    opponents: villain -> strategy for each other villain (default expert): the ``current`` field.
    objective: the parts of the field and their weights (:func:`parse_objective`; default
        :data:`DEFAULT_OBJECTIVE`: 2-player against the current opponents and against novices, and the
        3-player game against the current opponents); drop_penalty: its search penalty for a part falling
        below the start (default :data:`DEFAULT_DROP_PENALTY`). versus: the 2-player parts meet only this
        villain (a best response in one matchup; its opponent may be a mixture).
    params: parameter names to search (default :func:`tunable_params`).
    step: CMA-ES's first step size, in units of each parameter's initial spread (a fifth of its range): below 1
        the search starts close to ``start`` (a best response refining a strong strategy).
    out: write the tuned strategy file here (``configs/strategies/tuned-<villain>.toml`` from the CLI).
    progress: called with (games played, games planned, best score so far, the start's) as chunks finish.
    purpose: names the seeds: search and validation seeds derive from (seed, purpose, villain).
    settings (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) give the seed,
    rule variants, card edits, turn cap and threads (its games, level and strategies are not used).

    Ctrl-C stops the search (after the current chunk) and keeps the best candidate so far, which is then
    validated and written; a second Ctrl-C stops at once.
    """
    from simlab.runs.sim import _set_threads, _StopFlag

    plan = _tune_plan(
        villain,
        budget,
        start,
        opponents,
        candidate_games,
        validation_games,
        popsize,
        params,
        purpose,
        (objective, drop_penalty),
        (settings, given),
        versus,
        step,
    )
    _set_threads(plan.settings.threads)
    tally = _Tally(progress, plan.search_planned + plan.validation_total)
    t0 = time.perf_counter()
    with _StopFlag() as flag:
        found = _search(plan, tally, lambda: flag.stop)
        tally.played = found.search_games  # the validation's games come on top of the search's
        tally.total = found.search_games + plan.validation_total
        provenance = _search_provenance(plan, found)
        if out is not None:  # kept even if a second Ctrl-C stops the validation
            write_strategy(
                replace(found.best, description=f"{plan.villain} tuned by simlab tune (not validated)"),
                out,
                {**provenance, "validation": "not done"},
            )
        validation = validate(
            plan.villain,
            plan.start,
            found.best,
            plan.opponents,
            plan.validation_games,
            plan.valid_seed,
            plan.settings.variant_dict,
            plan.settings.max_turns,
            tally.chunk,
            objective=plan.objective,
            versus=plan.versus,
            edits=plan.settings.edits,
        )
    result = _tune_result(plan, found, validation, provenance, time.perf_counter() - t0)
    if out is not None:
        result.path = write_strategy(result.best, out, result.provenance)
    return result


@dataclass(frozen=True)
class _TunePlan:
    """A tune's settings, checked: the villain, where the search starts, what it searches, the games each
    candidate plays (``plays``: (pairing, games) pairs) and the seeds of the search and the validation."""

    villain: str
    start: StrategySpec
    objective: Objective
    opponents: dict[str, StrategySpec]  # the current field: each other villain's strategy
    plays: list[tuple[Pairing, int]]
    per_part: list[int]  # games of each pairing of each part
    params: tuple  # the parameters searched (strategies.plans.PARAMS rows)
    popsize: int
    budget: int
    validation_games: int
    settings: RunSettings
    train_seed: int
    valid_seed: int
    cma_seed: int
    versus: str | None = None  # the 2-player parts meet only this villain
    step: float = 1.0  # CMA-ES's first step, in units of CMA_stds

    @property
    def per_candidate(self) -> int:
        return sum(n for _, n in self.plays)

    @property
    def search_planned(self) -> int:
        """The search games the budget allows: the start and as many whole generations as fit."""
        generations = (self.budget - self.per_candidate) // (self.popsize * self.per_candidate)
        return self.per_candidate * (1 + self.popsize * generations)

    @property
    def validation_total(self) -> int:
        return 2 * self.validation_games * len(self.plays)

    def play(self, specs, stop=None, on_chunk=None):
        """The villain's wins per strategy and pairing on the search games (None if ``stop()`` said to stop)."""
        s = self.settings
        return _play_field(
            self.villain,
            specs,
            self.plays,
            self.train_seed,
            s.variant_dict,
            s.max_turns,
            stop,
            on_chunk,
            self.objective,
            s.edits,
        )


def _tune_plan(
    villain,
    budget,
    start,
    opponents,
    candidate_games,
    validation_games,
    popsize,
    params,
    purpose,
    goal,
    run,
    versus,
    step=1.0,
) -> _TunePlan:
    """The settings of :func:`tune`, each checked (bad input: an InputError naming it) before any game.
    ``goal``: (objective, drop_penalty); ``run``: (settings, given)."""
    villain = check_villain(villain)
    settings = settings_from(run[0], **run[1])
    budget = _check_count(budget, "the budget")
    candidate_games = _check_count(candidate_games, "games per candidate", 2)
    validation_games = _check_count(validation_games, "validation games")
    start_spec = _heuristic(start, "the start strategy")
    objective = parse_objective(*goal)
    others = [v for v in VILLAIN_KEYS if v != villain]
    opponents = dict(opponents or {})
    for o in opponents:
        if o not in others:
            raise InputError(f"opponent {o!r} is not another villain; choose from {', '.join(others)}")
    opp_specs = {o: play_spec(opponents.get(o, "expert")) for o in others}
    per_part = games_per_pairing(objective, candidate_games, 1 if versus is not None else 2)
    plays = [(pr, per_part[pr.part]) for pr in pairings(villain, objective, opp_specs, versus)]
    searchable = tunable_params(villain)
    if params:
        by_name = {p.name: p for p in searchable}
        for name in params:
            if name not in by_name:
                raise InputError(f"unknown tunable parameter {name!r} for {villain}; choose from {', '.join(by_name)}")
        searchable = tuple(by_name[n] for n in dict.fromkeys(params))
    if popsize is not None:
        popsize = _check_count(popsize, "the population size", 2)
    per_candidate = sum(n for _, n in plays)
    lam = popsize or int(4 + 3 * math.log(len(searchable)))
    if budget < per_candidate * (1 + lam):
        raise InputError(
            f"a budget of {budget:,} games cannot play the start and one generation of {lam} candidates at "
            f"{per_candidate:,} games each; give at least {per_candidate * (1 + lam):,} (or fewer games per candidate)"
        )
    seed = settings.seed
    return _TunePlan(
        villain,
        start_spec,
        objective,
        opp_specs,
        plays,
        per_part,
        searchable,
        lam,
        budget,
        validation_games,
        settings,
        derived_seed(seed, f"{purpose}:{villain}:search"),
        derived_seed(seed, f"{purpose}:{villain}:validate"),
        derived_seed(seed, f"{purpose}:{villain}:cma"),
        versus,
        _check_step(step),
    )


class _Tally:
    """The games a tune has played and planned, and the scores ``progress`` is told with each chunk."""

    def __init__(self, progress, total: int):
        self.progress, self.total, self.played = progress, total, 0
        self.best = self.start = float("nan")

    def report(self) -> None:
        if self.progress is not None:
            self.progress(self.played, self.total, self.best, self.start)

    def chunk(self, n: int) -> None:
        self.played += n
        self.report()


@dataclass
class _Found:
    """What the search found: the best candidate, its and the start's part rates and score on the search
    games, and the search's history and counts."""

    best: StrategySpec
    best_rate: float
    best_parts: list[float]
    start_rate: float
    start_parts: list[float]
    history: list[dict]
    candidates: int = 1
    search_games: int = 0
    generations: int = 0
    stopped_by: str = "budget"
    interrupted: bool = False


def _optimizer(plan: _TunePlan):
    """CMA-ES (pycma) over the searched parameters, from the start's values, drawing from the tune's seed."""
    import cma

    searchable = plan.params
    rng = np.random.default_rng(plan.cma_seed)
    opts = {
        "bounds": [[p.low for p in searchable], [p.high for p in searchable]],
        "CMA_stds": [SIGMA_SHARE * (p.high - p.low) for p in searchable],
        "integer_variables": [i for i, p in enumerate(searchable) if p.integer],
        "randn": lambda *shape: rng.standard_normal(shape),
        "seed": np.nan,  # pycma leaves numpy's global generator alone; it draws from ``randn``
        "verbose": -9,
        "popsize": plan.popsize,
        # many parameters: learn only per-parameter scales (sep-CMA), which adapt in tens of generations where
        # a full covariance matrix would need thousands
        "CMA_diagonal": len(searchable) > DIAGONAL_ABOVE,
    }
    x0 = [min(max(plan.start.params[p.name], p.low), p.high) for p in searchable]
    return cma.CMAEvolutionStrategy(x0, plan.step, opts)


def _search(plan: _TunePlan, tally: _Tally, stop) -> _Found:
    """The start, then generations of CMA-ES candidates while the budget lasts (or until the optimiser stops,
    or ``stop()`` says Ctrl-C was pressed), every candidate on the same search games."""
    es = _optimizer(plan)
    decode = _decoder(plan.params, plan.start, f"tuned-{plan.villain}", f"{plan.villain} tuned by simlab tune")
    objective, per_candidate = plan.objective, plan.per_candidate
    won = plan.play([plan.start], stop, tally.chunk)
    if won is None:
        raise KeyboardInterrupt  # nothing to keep yet
    start_parts = _part_rates(won, 0, plan.plays, objective)
    tally.best = tally.start = start_rate = objective.value(start_parts, start_parts)
    found = _Found(plan.start, start_rate, start_parts, start_rate, start_parts, [], 1, per_candidate)
    found.history.append(_history_row(found, 0, start_rate, start_rate, es.sigma, objective))
    while found.search_games + plan.popsize * per_candidate <= plan.budget:
        xs = es.ask()
        specs = [decode(x) for x in xs]
        won = plan.play(specs, stop, tally.chunk)
        if won is None:
            found.interrupted, found.stopped_by = True, "interrupted"
            break
        part_rates = [_part_rates(won, i, plan.plays, objective) for i in range(len(specs))]
        rates = np.array([objective.value(r, start_parts) for r in part_rates])
        es.tell(xs, list(-rates))
        found.generations += 1
        found.candidates += len(specs)
        found.search_games += len(specs) * per_candidate
        top = int(np.argmax(rates))
        if rates[top] > found.best_rate:
            found.best, found.best_rate, found.best_parts = specs[top], float(rates[top]), part_rates[top]
            tally.best = found.best_rate
        found.history.append(
            _history_row(found, found.generations, float(rates[top]), float(rates.mean()), es.sigma, objective)
        )
        tally.report()
        if es.stop():
            found.stopped_by = "optimizer: " + ", ".join(sorted(es.stop()))
            break
    return found


def _history_row(found: _Found, generation: int, generation_best: float, generation_mean: float, sigma, objective):
    return {
        "generation": generation,
        "games": found.search_games,
        "best_rate": found.best_rate,
        "generation_best": generation_best,
        "generation_mean": generation_mean,
        "sigma": float(sigma),
        **{f"best_{p.name}": r for p, r in zip(objective.parts, found.best_parts, strict=True)},
    }


def _search_provenance(plan: _TunePlan, found: _Found) -> dict:
    """The ``[provenance]`` of the strategy file as far as the search: how it was made and what it found."""
    parts = plan.objective.parts
    return {
        "villain": plan.villain,
        "start": plan.start.name,
        "opponents": {o: s.name for o, s in plan.opponents.items()},
        "objective": plan.objective.text,
        "drop_penalty": plan.objective.drop_penalty,
        "seed": plan.settings.seed,
        "budget": plan.budget,
        "search_games": found.search_games,
        "games_per_candidate": plan.per_candidate,
        "games_per_pairing": {p.name: n for p, n in zip(parts, plan.per_part, strict=True)},
        "candidates": found.candidates,
        "generations": found.generations,
        "stopped_by": found.stopped_by,
        "search_seed": plan.train_seed,
        "search_start_score": round(found.start_rate, 5),
        "search_best_score": round(found.best_rate, 5),
        "search_start_rates": {p.name: round(r, 5) for p, r in zip(parts, found.start_parts, strict=True)},
        "search_best_rates": {p.name: round(r, 5) for p, r in zip(parts, found.best_parts, strict=True)},
        "validation_seed": plan.valid_seed,
    }


def _tune_result(plan: _TunePlan, found: _Found, validation: pl.DataFrame, provenance: dict, seconds: float):
    """The :class:`TuneResult`: the best candidate described by its validation, the full provenance."""
    import cma

    from simlab.runs.backend import fingerprint

    fp = fingerprint()
    field_row = validation.filter(pl.col("opponent") == "field").row(0, named=True)
    part_rows = validation.filter(pl.col("opponent") == "all")
    provenance = provenance | {
        "validation_games": int(field_row["games"]),
        "validation_start_rate": round(field_row["start_rate"], 5),
        "validation_rate": round(field_row["rate"], 5),
        "validation_change": round(field_row["change"], 5),
        "validation_low": round(field_row["change_low"], 5),
        "validation_high": round(field_row["change_high"], 5),
        "validation_parts": {
            r["part"]: {
                k: (int(r[k]) if k == "games" else round(r[k], 5))
                for k in ("games", "start_rate", "rate", "change", "change_low", "change_high")
            }
            for r in part_rows.iter_rows(named=True)
        },
        "optimizer": f"{'sep-' if len(plan.params) > DIAGONAL_ABOVE else ''}CMA-ES (cma {cma.__version__}), "
        f"population {plan.popsize}",
        "params_searched": [p.name for p in plan.params],
        "variants": dict(sorted((plan.settings.variant_dict or {}).items())),
        "max_turns": plan.settings.max_turns,
        "simlab_version": fp["version"],
        "rules_hash": fp["rules_hash"],
        "seconds": round(seconds, 1),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    imp = (
        f"{interval_text(field_row['change'], field_row['change_low'], field_row['change_high'], '+')} over "
        f"{plan.start.name} on {int(field_row['games']):,} fresh games"
    )
    best = replace(
        found.best,
        description=f"{plan.villain} tuned for {plan.objective.text} (current: "
        f"{', '.join(f'{o} {s.name}' for o, s in plan.opponents.items())}) by simlab tune (seed {plan.settings.seed}, "
        f"{found.search_games:,} games); validated objective {imp}",
    )
    params_frame = pl.DataFrame(
        [
            {
                "param": p.name,
                "group": p.group,
                "start": plan.start.params[p.name],
                "tuned": best.params[p.name],
                "low": float(p.low),
                "high": float(p.high),
                "integer": p.integer,
            }
            for p in plan.params
        ]
    )
    history = pl.DataFrame(found.history)
    return TuneResult(
        plan.villain, plan.start, best, params_frame, history, validation, provenance, seconds, found.interrupted
    )


def _row(part, opponent, strategies, a, b, weight=None):
    eff = paired_effect(a, b)
    lo, hi = wilson(int(b.sum()), b.size)
    return {
        "part": part,
        "opponent": opponent,
        "opponent_strategy": strategies,
        "weight": weight,
        "games": eff["games"],
        "start_rate": eff["base_rate"],
        "rate": eff["rate"],
        "rate_low": float(lo),
        "rate_high": float(hi),
        "change": eff["change"],
        "change_low": eff["change_low"],
        "change_high": eff["change_high"],
        "changed_games": eff["changed_games"],
    }


def validate(
    villain: str,
    start,
    tuned,
    opponents: dict,
    n_games: int,
    seed: int,
    variants=None,
    max_turns: int = DEFAULT_MAX_TURNS,
    on_chunk=None,
    objective: str | Objective | None = "2p:current=1",
    versus: str | None = None,
    edits=(),
) -> pl.DataFrame:
    """``start`` and ``tuned`` play the same ``n_games`` in every pairing of ``objective`` (``opponents``,
    villain -> strategy, is its ``current`` field; the default objective is the 2-player game against them).
    One row per pairing (``opponent``: the villains it meets, in seat order), per part (``opponent`` "all":
    its pairings together) with both win rates and the paired change [Newcombe 95%], and the objective
    (``part`` "objective", ``opponent`` "field"): the weighted mean of the parts' rates with a normal 95%
    interval, and its change with a normal 95% interval from the per-game paired differences (variance: the
    sum over parts of weight squared times the variance of the part's mean difference)."""
    objective = parse_objective(objective)
    specs = [play_spec(start), play_spec(tuned)]
    opp_specs = {o: play_spec(s) for o, s in opponents.items()}
    plays = [(pr, n_games) for pr in pairings(villain, objective, opp_specs, versus)]
    won = _play_field(
        villain, specs, plays, seed, variants, max_turns, on_chunk=on_chunk, objective=objective, edits=edits
    )
    rows = []
    mean_a = mean_b = var = var_b = 0.0
    games = changed = 0
    for k, part in enumerate(objective.parts):
        js = [j for j, (pr, _) in enumerate(plays) if pr.part == k]
        for j in js:
            pr = plays[j][0]
            rows.append(_row(part.name, pr.label, ", ".join(s.name for s in pr.opponents), won[(0, j)], won[(1, j)]))
        a = np.concatenate([won[(0, j)] for j in js]).astype(np.float64)
        b = np.concatenate([won[(1, j)] for j in js]).astype(np.float64)
        names = ", ".join(dict.fromkeys(s.name for j in js for s in plays[j][0].opponents))
        row = _row(part.name, "all", names, a, b, part.weight)
        rows.append(row)
        d = b - a
        mean_a += part.weight * a.mean()
        mean_b += part.weight * b.mean()
        var += part.weight**2 * d.var(ddof=1) / d.size if d.size > 1 else 0.0
        var_b += part.weight**2 * b.mean() * (1 - b.mean()) / b.size
        games += d.size
        changed += row["changed_games"]
    change = mean_b - mean_a
    half = 1.959964 * math.sqrt(var)
    rows.append(
        {
            "part": "objective",
            "opponent": "field",
            "opponent_strategy": objective.text,
            "weight": 1.0,
            "games": games,
            "start_rate": mean_a,
            "rate": mean_b,
            "rate_low": mean_b - 1.959964 * math.sqrt(var_b),
            "rate_high": mean_b + 1.959964 * math.sqrt(var_b),
            "change": change,
            "change_low": change - half,
            "change_high": change + half,
            "changed_games": changed,
        }
    )
    return pl.DataFrame(rows)


# ============================================================================ strategy files


def write_strategy(spec: StrategySpec, path: str | Path, provenance: dict) -> Path:
    """Write ``spec`` as a strategy file (``base = "expert"`` and every parameter that differs from it, plus
    the searched ones) with its provenance as a ``[provenance]`` table the loader accepts and ignores."""
    import tomli_w

    from strategies import STRATEGIES

    path = Path(path)
    expert = STRATEGIES["expert"].params
    searched = set(provenance.get("params_searched", ()))
    params = {k: v for k, v in spec.params.items() if k in searched or v != expert.get(k)}
    doc = {"name": spec.name, "description": spec.description, "base": "expert", "params": params}
    doc["provenance"] = {k: v for k, v in provenance.items() if v is not None}
    head = (
        f"# {spec.name}: written by simlab tune; regenerate with `simlab tune` (see README, Tuned strategies).\n"
        "# [provenance] records how it was made; the strategy loader ignores it.\n"
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(head + tomli_w.dumps(doc))
        tmp.replace(path)
    except OSError as exc:
        raise InputError(f"cannot write the strategy file {str(path)!r}: {exc.strerror or exc}") from None
    return path


def read_provenance(strategy: str) -> dict:
    """The ``[provenance]`` table of a strategy file (by name or path); empty for built-in strategies."""
    import tomllib

    spec = strategy_spec(strategy)
    if spec.source in ("built-in", "simlab tune"):
        return {}
    return tomllib.loads(Path(spec.source).read_text()).get("provenance", {})


# ============================================================================ every villain: iterated best response


@dataclass
class IteratedBestResponse:
    """Iterated best response: the strategies it ended with and the matrix after every round."""

    strategies: dict[str, StrategySpec]  # villain -> the strategy it plays at the end
    improvements: pl.DataFrame  # round, villain: the tune's validated change and whether it was adopted
    trajectory: pl.DataFrame  # the matrix table of every round (round 0: the starting strategies)
    rounds: int  # rounds played
    converged: bool  # a whole round changed no villain's strategy
    interrupted: bool = False
    tunes: list[TuneResult] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)  # villain -> the strategy file written

    def grid(self, round_: int | None = None) -> pl.DataFrame:
        """The 2-player matrix of a round (default the last) as a villain x opponent grid."""
        from simlab.studies.matchups import MatrixResult, matchups

        r = self.rounds if round_ is None else round_
        table = self.trajectory.filter(pl.col("round") == r).drop("round")
        return MatrixResult(table, dict.fromkeys(matchups())).grid()


def iterated_best_response(
    rounds: int = DEFAULT_ROUNDS,
    budget: int = DEFAULT_BUDGET,
    start_level: str = "expert",
    villains=VILLAIN_KEYS,
    candidate_games: int = DEFAULT_CANDIDATE_GAMES,
    validation_games: int = DEFAULT_VALIDATION_GAMES,
    matrix_games: int = DEFAULT_MATRIX_GAMES,
    popsize: int | None = None,
    out_dir: str | Path | None = None,
    report_dir: str | Path | None = None,
    progress: Callable[[str, int, int, float, float], None] | None = None,
    objective: str | Objective | None = None,
    drop_penalty: float | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> IteratedBestResponse:
    """Iterated best response: each round re-tunes each of ``villains`` in turn (:func:`tune`, ``budget``
    games) against the others' current strategies (the ``current`` field of ``objective``), starting from its
    own current one; a villain adopts the tuned strategy only if the validated change of the objective lies
    above zero and no part of it is significantly worse (:attr:`TuneResult.improved`). Stops after ``rounds``
    rounds, or earlier once a whole round adopts nothing (converged). Every villain starts at
    ``start_level``; the matrix (``matrix_games`` per matchup, the same seed every round so rounds are
    compared on the same games) is played before the first round and after each.

    out_dir: write ``tuned-<villain>.toml`` for every villain there (with provenance: the tune that made it
        and the equilibrium's rounds and convergence). report_dir: write each round's strategies
        (``round-<r>/<villain>.toml``), the trajectory and improvements (parquet, CSV; ``simlab tune-all`` adds
        the trajectory's plot).
    progress: called with (label, games played, games planned, best so far, start) during each tune.
    objective, drop_penalty: as for :func:`tune`, for every tune.
    settings and ``given``: as for :func:`tune` (the seed, rule variants, turn cap and threads).
    """
    from simlab.runs.levels import level_strategies
    from simlab.studies.matchups import matrix

    settings = settings_from(settings, **given)
    seed = settings.seed
    rounds = _check_count(rounds, "--rounds")
    matrix_games = _check_count(matrix_games, "matrix games")
    objective = parse_objective(objective, drop_penalty)
    villains = tuple(check_villain(v) for v in villains)
    current = {v: _heuristic(s, f"level {start_level}") for v, s in level_strategies(start_level).items()}
    matrix_seed = derived_seed(seed, "equilibrium:matrix")

    def play_matrix(r):
        m = matrix(settings=settings.replace(games=matrix_games, seed=matrix_seed, level=None, strategies=current))
        return m.table.with_columns(pl.lit(r).alias("round")).select("round", *m.table.columns)

    frames = [play_matrix(0)]
    improvements, tunes, adopted_in = [], [], {}
    converged = interrupted = False
    for r in range(1, rounds + 1):
        changed = False
        for v in villains:
            report = None if progress is None else partial(progress, f"round {r}/{rounds}: {v}")
            res = tune(
                v,
                budget,
                start=current[v],
                opponents={o: current[o] for o in VILLAIN_KEYS if o != v},
                candidate_games=candidate_games,
                validation_games=validation_games,
                popsize=popsize,
                progress=report,
                purpose=f"equilibrium:round{r}",
                objective=objective,
                settings=settings,
            )
            tunes.append(res)
            adopt = res.improved
            improvements.append(_improvement_row(r, v, current[v].name, res))
            if adopt:
                changed = True
                current[v] = replace(res.best, name=f"tuned-{v}")
                adopted_in[v] = (r, res)
            if report_dir is not None:
                prov = {**res.provenance, "round": r, "adopted": adopt}
                write_strategy(
                    replace(res.best, name=f"tuned-{v}"), Path(report_dir) / f"round-{r}" / f"{v}.toml", prov
                )
            if res.interrupted:
                interrupted = True
                break
        if interrupted:
            break
        frames.append(play_matrix(r))
        if not changed:
            converged = True
            break
    rounds_played = len(frames) - 1
    result = IteratedBestResponse(
        dict(current),
        pl.DataFrame(improvements),
        pl.concat(frames),
        rounds_played,
        converged,
        interrupted,
        tunes,
    )
    summary = {
        "equilibrium_rounds": rounds_played,
        "equilibrium_rounds_asked": rounds,
        "equilibrium_converged": converged,
        "equilibrium_start_level": start_level,
        "equilibrium_seed": seed,
        "equilibrium_objective": objective.text,
        "equilibrium_drop_penalty": objective.drop_penalty,
    }
    if out_dir is not None:
        for v in villains:
            result.paths[v] = _write_tuned(v, current[v], adopted_in.get(v), summary, out_dir)
    if report_dir is not None:
        save_trajectory(result, report_dir)
    return result


def _improvement_row(round_: int, villain: str, start: str, res: TuneResult) -> dict:
    """One row of :attr:`IteratedBestResponse.improvements`: a villain's tune in a round, validated part by part."""
    imp = res.improvement
    return {
        "round": round_,
        "villain": villain,
        "start": start,
        "start_rate": imp["start_rate"],
        "rate": imp["rate"],
        "change": imp["change"],
        "change_low": imp["change_low"],
        "change_high": imp["change_high"],
        "worse_parts": ", ".join(res.worse_parts),
        "adopted": res.improved,
        "search_games": res.provenance["search_games"],
        "seconds": res.seconds,
        **{
            f"{r_['part']} {k}": r_[k]
            for r_ in res.validation.filter(pl.col("opponent") == "all").iter_rows(named=True)
            for k in ("start_rate", "rate", "change", "change_low", "change_high")
        },
    }


def _write_tuned(villain: str, spec: StrategySpec, adopted, summary: dict, out_dir) -> Path:
    """``tuned-<villain>.toml`` of an equilibrium: the strategy it ended with, with the provenance of the tune
    that made it (``adopted``: (round, TuneResult), or None when no tune improved on the start)."""
    if adopted is not None:
        r, res = adopted
        prov = {**res.provenance, "equilibrium_round": r, **summary}
    else:
        prov = {"villain": villain, "start": spec.name, "note": "no tune improved on the start", **summary}
    return write_strategy(replace(spec, name=f"tuned-{villain}"), Path(out_dir) / f"tuned-{villain}.toml", prov)


def save_trajectory(result: IteratedBestResponse, directory: str | Path) -> Path:
    """trajectory.{parquet,csv} and improvements.{parquet,csv} under ``directory`` (the trajectory's plot is
    :func:`simlab.report.plots.plot_trajectory`, drawn by ``simlab tune-all``); returns the directory."""
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
        for name, frame in (("trajectory", result.trajectory), ("improvements", result.improvements)):
            frame.write_parquet(d / f"{name}.parquet")
            frame.write_csv(d / f"{name}.csv")
    except OSError as exc:
        raise InputError(f"cannot write the trajectory to {str(d)!r}: {exc.strerror or exc}") from None
    return d
