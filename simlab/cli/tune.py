"""Tuned strategies: ``tune`` (one villain's parameters by CMA-ES, validated on fresh games) and ``tune-all``
(iterated best response between every villain)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simlab.cli.common import (
    BackendName,
    CsvOut,
    JsonOut,
    MaxTurns,
    Rules,
    Scheduler,
    Seed,
    Threads,
    backend_for,
    emit,
    fail,
    output_format,
    parse_pairs,
    plan,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_dir, check_output_file
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS
from simlab.report.render import print_tune, print_tune_all
from simlab.runs.settings import RunSettings
from simlab.studies import tune as tune_defaults

# Options of both commands.
Budget = Annotated[int, typer.Option(help="search games per tune (validation comes on top)")]
CandidateGames = Annotated[
    int, typer.Option("--candidate-games", help="games each candidate plays, split over the objective's parts")
]
ValidationGames = Annotated[
    int,
    typer.Option(
        "--validation-games", help="fresh games per opponent (3-player: per seat order) of each part to validate on"
    ),
]
Popsize = Annotated[int | None, typer.Option(help="CMA-ES population per generation [default: pycma's]")]
Goal = Annotated[
    str,
    typer.Option(
        help="what the search maximises: PLAYERSp:FIELD=WEIGHT parts, comma-separated; FIELD is current (the "
        "opponents' current strategies) or a level or strategy every opponent plays"
    ),
]
DropPenalty = Annotated[
    float,
    typer.Option(
        "--drop-penalty", help="search penalty per point a part falls below the start (on top of the point lost)"
    ),
]


def tune(
    villain: Annotated[str, typer.Option(help="the villain to tune; simlab tune-all tunes every villain")],
    budget: Budget = tune_defaults.DEFAULT_BUDGET,
    candidate_games: CandidateGames = tune_defaults.DEFAULT_CANDIDATE_GAMES,
    validation_games: ValidationGames = tune_defaults.DEFAULT_VALIDATION_GAMES,
    seed: Seed = 0,
    start: Annotated[str, typer.Option(help="the strategy the search starts from")] = "expert",
    opponent: Annotated[
        list[str] | None,
        typer.Option("--opponent", help="VILLAIN=LEVEL|STRATEGY each opponent plays (repeatable; default expert)"),
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", help="search only these parameters (repeatable)")
    ] = None,
    popsize: Popsize = None,
    objective: Goal = tune_defaults.DEFAULT_OBJECTIVE,
    drop_penalty: DropPenalty = tune_defaults.DEFAULT_DROP_PENALTY,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    out: Annotated[
        str | None, typer.Option(help="the tuned strategy file [default: configs/strategies/tuned-VILLAIN.toml]")
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Tune a villain's strategy parameters (CMA-ES) for its win rate against the field (--objective: 2- and
    3-player parts against the current opponents and other levels), every candidate on the same games, then
    validate on fresh games: the improvement over the start with a paired 95% interval, part by part.
    Ctrl-C stops the search and keeps the best so far."""
    from simlab.game.api import check_villain
    from simlab.runs.levels import strategy_at
    from simlab.studies import tune as tuning
    from simlab.studies import workload

    fmt = output_format(json_out, csv_out)
    try:
        check_villain(villain)
        out = out or f"configs/strategies/tuned-{villain}.toml"
        check_output_file(out, "--out", ".toml")
        goal = tuning.parse_objective(objective, drop_penalty)
        settings = RunSettings(seed=seed, variants=parse_pairs(rules, "--rules"), max_turns=max_turns, threads=threads)
        opponents = {o: strategy_at(s, o) for o, s in parse_pairs(opponent, "--opponent").items()}
        started = strategy_at(start, villain)
        work = workload.tune(
            villain, budget, started, opponents, candidate_games, validation_games, popsize, param, goal, settings
        )
        bar = plan(work, threads)
        update = bar.tuning
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if fmt == "table" else bar.plan_only():
            res = tuning.tune(
                villain,
                budget,
                started,
                opponents,
                candidate_games,
                validation_games,
                popsize,
                param,
                out,
                progress=lambda *a: update(f"tune {villain}", *a),
                objective=goal,
                settings=settings,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    tables = {"validation": res.validation, "params": res.params, "history": res.history}
    about = {"villain": villain, "improvement": res.improvement, "provenance": res.provenance}
    emit(fmt, tables, lambda: print_tune(res), **about, seconds=res.seconds, interrupted=res.interrupted, path=res.path)
    if res.interrupted:
        raise typer.Exit(130)


def tune_all(
    rounds: Annotated[int, typer.Option(help="rounds of best response at most")] = tune_defaults.DEFAULT_ROUNDS,
    budget: Budget = tune_defaults.DEFAULT_BUDGET,
    candidate_games: CandidateGames = tune_defaults.DEFAULT_CANDIDATE_GAMES,
    validation_games: ValidationGames = tune_defaults.DEFAULT_VALIDATION_GAMES,
    seed: Seed = 0,
    start: Annotated[str, typer.Option(help="the level every villain starts from")] = "expert",
    popsize: Popsize = None,
    objective: Goal = tune_defaults.DEFAULT_OBJECTIVE,
    drop_penalty: DropPenalty = tune_defaults.DEFAULT_DROP_PENALTY,
    matrix_games: Annotated[
        int, typer.Option("--matrix-games", help="games per matchup of each round's matrix")
    ] = tune_defaults.DEFAULT_MATRIX_GAMES,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    out: Annotated[str, typer.Option(help="the directory of the tuned strategy files")] = "configs/strategies",
    report_dir: Annotated[
        str, typer.Option("--report-dir", help="where the trajectory and each round's strategies go")
    ] = "reports/tune",
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Tune every villain by iterated best response: each villain re-tuned (as simlab tune, the same
    --objective, its current field the others' current strategies) round after round, until no villain
    improves (or --rounds). Ctrl-C stops the search and keeps the best so far."""
    from simlab.report.plots import plot_trajectory
    from simlab.runs.levels import check_level
    from simlab.studies import tune as tuning
    from simlab.studies import workload

    fmt = output_format(json_out, csv_out)
    try:
        check_output_dir(out, "--out")
        check_output_dir(report_dir, "--report-dir")
        goal = tuning.parse_objective(objective, drop_penalty)
        settings = RunSettings(seed=seed, variants=parse_pairs(rules, "--rules"), max_turns=max_turns, threads=threads)
        start = check_level(start)
        work = workload.tune_all(
            rounds, budget, start, candidate_games, validation_games, popsize, goal, matrix_games, settings
        )
        bar = plan(work, threads)
        update = bar.tuning
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if fmt == "table" else bar.plan_only():
            res = tuning.iterated_best_response(
                rounds,
                budget,
                start,
                candidate_games=candidate_games,
                validation_games=validation_games,
                matrix_games=matrix_games,
                popsize=popsize,
                out_dir=out,
                report_dir=report_dir,
                progress=update,
                objective=goal,
                settings=settings,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    trajectory = str(Path(report_dir) / "trajectory.png")
    save_plot(trajectory, lambda ax: plot_trajectory(res.trajectory, ax), 8, 5, quiet=True)
    tables = {"improvements": res.improvements, "trajectory": res.trajectory}
    about = {"rounds": res.rounds, "converged": res.converged, "interrupted": res.interrupted, "paths": res.paths}
    emit(fmt, tables, lambda: print_tune_all(res, report_dir), **about)
    if res.interrupted:
        raise typer.Exit(130)


COMMANDS = {"tune": tune, "tune-all": tune_all}
