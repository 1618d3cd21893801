"""One villain's tune (:func:`tune`): the parameters searched, its plan (every setting checked before a game),
CMA-ES over candidates that all play the same search games, and the result with its provenance
(:class:`TuneResult`)."""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import check_villain, strategy_spec
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sizes import plan_size
from simlab.runs.stats import interval_text
from simlab.studies.difficulty import derived_seed
from simlab.studies.tune.files import write_strategy
from simlab.studies.tune.objective import (
    Objective,
    Pairing,
    _part_rates,
    _play_field,
    games_per_pairing,
    pairings,
    parse_objective,
)
from simlab.studies.tune.validation import validate
from strategies import KERNELS, StrategySpec
from strategies.mixture import play_spec

DEFAULT_BUDGET = 300_000  # search games of one tune
DEFAULT_CANDIDATE_GAMES = 1_000  # games per candidate, split evenly over the opponents and seats
DEFAULT_VALIDATION_GAMES = 2_500  # validation games per pairing (opponent or seat order) of each part, per strategy
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
    plan_size("--budget", budget, what="search games")  # a search shows its strategy at its end: it must end
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
