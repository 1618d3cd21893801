"""Iterated best response (``simlab tune-all``): each villain re-tuned in turn against the others' current
strategies, round after round, a tune adopted only when its validation says it is better; the matrix after
every round is the trajectory."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import polars as pl

from simlab.data import durable
from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sizes import plan_size
from simlab.studies.difficulty import derived_seed
from simlab.studies.tune.files import write_strategy
from simlab.studies.tune.objective import (
    Objective,
    parse_objective,
)
from simlab.studies.tune.search import (
    DEFAULT_BUDGET,
    DEFAULT_CANDIDATE_GAMES,
    DEFAULT_VALIDATION_GAMES,
    TuneResult,
    _check_count,
    _heuristic,
    tune,
)
from strategies import StrategySpec

DEFAULT_ROUNDS = 3
DEFAULT_MATRIX_GAMES = 2_000  # per matchup of the matrix after each round of the equilibrium


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
    rounds, matrix_games, budget = check_sizes(rounds, matrix_games, budget, candidate_games, validation_games, popsize)
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


def check_sizes(rounds, matrix_games, budget, candidate_games, validation_games, popsize) -> tuple[int, int, int]:
    """The rounds, matrix games and budget, checked with each tune's own sizes before the first matrix is played."""
    rounds = _check_count(rounds, "--rounds")
    matrix_games = _check_count(matrix_games, "matrix games")
    budget = _check_count(budget, "the budget")
    plan_size("--budget", budget, games_each=rounds * len(VILLAIN_KEYS), what="search games per tune")
    _check_count(candidate_games, "games per candidate", 2)
    _check_count(validation_games, "validation games")
    if popsize is not None:
        _check_count(popsize, "the population size", 2)
    return rounds, matrix_games, budget


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
            durable.write_with(d / f"{name}.parquet", frame.write_parquet, "the trajectory")
            durable.write_with(d / f"{name}.csv", frame.write_csv, "the trajectory")
    except OSError as exc:
        raise InputError(f"cannot write the trajectory to {str(d)!r}: {exc.strerror or exc}") from None
    return d
