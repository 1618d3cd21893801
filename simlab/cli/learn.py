"""``learn``: expert iteration, the search player learning from its own games until the answer stops moving."""

from __future__ import annotations

from typing import Annotated

import typer

from simlab.cli.common import (
    BackendName,
    CsvOut,
    JsonOut,
    Scheduler,
    Seed,
    Threads,
    backend_for,
    emit,
    fail,
    output_format,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.errors import USER_ERRORS
from simlab.studies import expert_iteration as E
from simlab.studies.learn import TUNED_GAMES


def learn(
    folder: Annotated[
        str, typer.Argument(help="the run's folder: its checkpoint; run again on it to resume")
    ] = "reports/learning",
    n: Annotated[int, typer.Option("-n", help="self-play games per seating and generation")] = E.GAMES,
    paired_games: Annotated[
        int, typer.Option("--paired-games", help="paired games per pairing for each villain's acceptance")
    ] = E.PAIRED_GAMES,
    generations: Annotated[int, typer.Option("--generations", help="generations fitted at most")] = E.GENERATIONS,
    probe_games: Annotated[
        int, typer.Option("--probe-games", help="paired games per pairing of the probe above the top (0: none)")
    ] = E.PROBE_GAMES,
    tuned_games: Annotated[
        int, typer.Option("--tuned-games", help="tuned games per seating whose positions join each fit")
    ] = TUNED_GAMES,
    retries: Annotated[
        int, typer.Option("--retries", help="fit a refused generation again on twice the games, this many times")
    ] = 0,
    climbs: Annotated[
        int,
        typer.Option(
            "--climbs",
            help="once learning is refused, try the top at twice its horizon, else twice its worlds, this many times",
        ),
    ] = E.CLIMBS,
    base: Annotated[str, typer.Option("--base", help="generation 0: a search strategy (name or file)")] = "search",
    features: Annotated[
        str,
        typer.Option(
            "--features",
            help="the value model's features: base (counts by kind), key-cards (and which cards, where) or board "
            "(and where Heroes and Allies stand, what the next move offers)",
        ),
    ] = E.FEATURES,
    labels: Annotated[
        str,
        typer.Option(
            "--labels",
            help="what the value model is fitted to: results (the games') or search (the search's own estimates of "
            "the positions)",
        ),
    ] = E.LABELS[0],
    villains: Annotated[
        str | None, typer.Option("--villains", help="villains learned with, comma-separated [default: all]")
    ] = None,
    ship: Annotated[
        bool,
        typer.Option(
            "--ship",
            help="ship the folder's top accepted generation as it stands as the 'learned' level "
            "(configs/strategies/), playing nothing",
        ),
    ] = False,
    seed: Seed = 0,
    threads: Threads = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Expert iteration: self-play with the search player, learn a value model and an apprentice from it, accept
    the next generation only if it is stronger, stop when the answer stops moving, and probe above the top.
    Checkpointed in FOLDER step by step: Ctrl-C keeps the finished steps; the same command resumes."""
    from simlab.cli.common import LazyProgress
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.data.inputs import split_items
    from simlab.report.render import print_learning

    fmt = output_format(json_out, csv_out)
    json_out = fmt != "table"  # no bar: stdout holds the document only
    try:
        chosen = tuple(split_items(villains, "--villains")) if villains else VILLAIN_KEYS
        settings = E.LearnSettings(
            games=n,
            paired_games=paired_games,
            generations=generations,
            seed=seed,
            base=base,
            tuned_games=tuned_games,
            probe_games=probe_games,
            retries=retries,
            climbs=climbs,
            villains=chosen,
            features=features,
            labels=labels,
            threads=threads,
        )
    except USER_ERRORS as exc:
        fail(str(exc))
    if ship:
        from simlab.studies.generations import ship as ship_top

        try:
            shipped = [str(p) for p in ship_top(folder)]
        except USER_ERRORS as exc:
            fail(str(exc))
        emit(fmt, {"shipped": [{"file": p} for p in shipped]}, lambda: _say_shipped(shipped), shipped=shipped)
        return
    bar, update, planned, corrected = _whole_run_bar(LazyProgress, settings, folder)
    try:
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if not json_out else _nothing():
            res = E.learn(folder, settings, progress=update)
            planned()
            corrected()
    except USER_ERRORS as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        planned()
        corrected()
        typer.echo(
            f"interrupted: the finished steps and the games of the one under way are kept in {folder}; resume "
            f"with the same command (simlab learn {folder} ...)",
            err=True,
        )
        raise typer.Exit(130) from None
    nxt = _go_on(folder, settings, res.verdict, threads)  # JSON: learning.json's parts and this; CSV: the table
    meta = {"settings": res.doc["settings"], "verdict": res.verdict, "probe": res.probe, "go_on": nxt}
    emit(fmt, {"generations": res.table}, lambda: (print_learning(res), _say_go_on(nxt)), **meta)


def _go_on(folder, settings, verdict: dict, threads) -> dict | None:
    """:func:`simlab.studies.expert_iteration.go_on`, timed: its games at this machine's rates, at the top's measured
    cost a game (as the plan line of a resumed run)."""
    nxt = E.go_on(folder, settings, verdict)
    if nxt is None:
        return None
    work, cost, _ = _resumed_work(nxt.pop("resumed"), folder)
    return nxt | {"seconds": work.seconds(threads) * cost if work.games else 0.0}


def _resumed_work(settings, folder):
    """What a run resumed on ``folder`` with ``settings`` can still play (a workload), what a game of it costs over
    one of generation 0's (the top's measured cost: the games left play at its budget or above, a climb, the probe)
    and the top."""
    from simlab.studies import workload
    from simlab.studies.expert_iteration import rung_generations
    from simlab.studies.generations import rung_cost

    top = max(rung_generations(folder), default=0)
    return workload.learn(settings, folder), rung_cost(f"search g{top}", folder) if top else 1.0, top


def _say_go_on(nxt: dict | None) -> None:
    """The line after a run that ended still moving: the command that goes on and what it would cost here."""
    from simlab.cli.common import say
    from simlab.studies.workload import duration

    if nxt:  # wrapped at the terminal's width, as every table is
        say(
            f"still moving at these settings; to go on: {nxt['command']} (at most {nxt['games']:,} more games, "
            f"about {duration(nxt['seconds'])} here at the top's cost a game)"
        )


def _say_shipped(shipped: list[str]) -> None:
    from simlab.cli.common import say

    say(f"shipped as the 'learned' level: {', '.join(shipped)}")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


ETA_OVER_SECONDS = 900  # the bar's speed: games finished in the last 15 min (a kept chunk is a minute or more)


def _whole_run_bar(progress_class, settings, folder):
    """One rich bar over the whole run (games of every step), its description the step under way, with an ETA;
    returns (the bar, its update callback, a callback that says the plan line if it has not been said, and one
    that, as the run ends or is stopped, corrects the next plan by what the games played here took over their
    share of this one's estimate: :func:`simlab.runs.speed.record_ratio`, as a finished command's does).
    The first step to play says the plan line on stderr, after the finished steps a resumed run reads back from
    the folder (labels ending ": kept"), whose games it counts as done; where stderr is no terminal (a run logged
    to a file, which a bar does not reach), one line then says how many steps were read back, and each step says
    one line as it starts. The ETA is the games left at the speed of the games played here: until one is, each
    step read back (its games counted at once) starts the bar's clock again."""
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from simlab.studies import workload

    err = Console(stderr=True)
    bar = progress_class(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        speed_estimate_period=ETA_OVER_SECONDS,
    )
    task: list = []
    said = {"label": None, "start": 0.0, "done": 0, "playing": False, "planned": False, "kept": 0}
    plan = {"raw": 0.0, "games": 0, "at": 0.0, "played": 0}  # the estimate's games, uncorrected; games played here

    def planned() -> None:
        if said["planned"]:
            return
        said["planned"] = True
        kept = said["done"] if said["kept"] else 0
        line, plan["raw"], plan["games"] = _plan_line(settings, settings.threads, folder, kept)
        plan["at"] = time.perf_counter()
        if line:
            typer.echo(line, err=True)
        if said["kept"] and not err.is_terminal:
            steps = f"{said['kept']} finished step{'s' if said['kept'] != 1 else ''}"
            typer.echo(f"learn: {steps} read back from {folder} ({kept:,} games)", err=True)

    def update(done: int, total: int, label: str) -> None:
        if not task:
            said["start"] = time.perf_counter()
            task.append(bar.add_task(label, total=total, completed=done))
        if label.endswith(": kept") and not said["planned"]:
            said["kept"] += 1
        else:
            planned()
        if not err.is_terminal and label != said["label"] and said["planned"]:
            spent = workload.duration(time.perf_counter() - said["start"])
            typer.echo(f"learn: {label} ({done:,} of at most {total:,} games done, {spent} in)", err=True)
        if label == said["label"] and done > said["done"]:
            said["playing"] = True  # games finished within a step: played here, not read back
        if said["planned"] and not label.endswith(": kept"):
            plan["played"] += max(0, done - said["done"])
        if label != said["label"] and not said["playing"]:
            bar.reset(task[0], total=total, completed=done, description=label)
        said["label"], said["done"] = label, done
        bar.update(task[0], completed=done, total=total, description=label)

    def corrected() -> None:
        from simlab.runs.speed import record_ratio

        if plan["played"] and plan["games"]:
            share = plan["raw"] * min(1.0, plan["played"] / plan["games"])
            record_ratio("learn", share, time.perf_counter() - plan["at"])

    return bar, update, planned, corrected


def _plan_line(settings, threads, folder, kept: int = 0) -> tuple[str, float, int]:
    """``plan: learn, at most 144,000 games in 5 stages (search), about 9.6 h (...); ...``: the whole run's plan;
    for a run resumed with ``kept`` games in its finished steps (read back from ``folder``), the games it can still
    play (:func:`simlab.studies.expert_iteration.stages_left`) at the top's cost a game ("" for a run expected to
    be short); with the estimate before the command's correction and the games it counts."""
    from simlab.studies import workload

    work, cost, top = _resumed_work(settings, folder) if kept else (workload.learn(settings), 1.0, 0)
    raw = work.seconds(threads, corrected=False) * cost if work.games else 0.0
    left = work.seconds(threads) * cost if work.games else 0.0
    if left <= workload.PLAN_ABOVE_SECONDS:
        return "", raw, work.games
    if kept:
        at = f", at generation {top}'s cost a game, {cost:.1f}x generation 0's" if cost != 1.0 else ""
        return (
            f"{work.line(threads, left)}; these are the games it can still play{at}: {kept:,} are in the finished "
            f"steps kept in {folder} (the same command resumes)",
            raw,
            work.games,
        )
    return (
        f"{work.line(threads, left)}; finished steps are kept in {folder} (the same command resumes)",
        raw,
        work.games,
    )


COMMANDS = {"learn": learn}
