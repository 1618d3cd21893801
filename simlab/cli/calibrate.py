"""``calibrate``: simulated predictions against a log of real games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simlab.cli.common import (
    BackendName,
    CsvOut,
    JsonOut,
    MaxTurns,
    Scheduler,
    Seed,
    Threads,
    backend_for,
    check_games,
    emit,
    fail,
    output_format,
    plan,
    print_json,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_file, split_items
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS
from simlab.report.render import print_calibration
from simlab.runs.settings import RunSettings


def calibrate(
    games: Annotated[str, typer.Option("--games", help="log of real games: a .csv or .parquet file (see README)")],
    n: Annotated[int, typer.Option("-n", help="simulated games per seat order and model")] = 2000,
    seed: Seed = 0,
    levels: Annotated[
        list[str] | None,
        typer.Option(
            "--levels",
            help="levels to compare, or the learning run's generations (search-g0, search-g1, ...), comma-separated "
            "or repeated [default: every available scripted level: not search, learned nor apprentice]",
        ),
    ] = None,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="VARIANT=VALUE, or VARIANT=A,B or VARIANT=all to compare readings (repeatable)"),
    ] = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[
        str | None, typer.Option(help="calibration plot [default: reports/calibration.png; none with --json]")
    ] = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Compare simulated predictions with a log of real games: per level and rule reading, observed wins vs
    predicted per matchup and seat (exact binomial p), the first player's advantage, log-likelihood and Brier
    score against a coin flip, which level and readings fit best (likelihood ratio), a calibration plot, and
    game length when rounds are logged."""
    from simlab.studies.calibration import calibrate as run_calibrate

    fmt = output_format(json_out, csv_out)
    json_out = fmt != "table"  # no bar, no notes, no default plot: stdout holds the document only
    check_games(n)
    check_output_file(png or (None if json_out else "reports/calibration.png"), "--png", ".png")
    wanted = [lv for item in levels or [] for lv in split_items(item, "--levels")] or None
    variants: dict[str, list[str]] = {}
    for item in rules or []:
        if "=" not in item:
            fail(f"--rules {item!r} must look like VARIANT=VALUE[,VALUE...]")
        k, v = item.split("=", 1)
        variants.setdefault(k.strip(), []).extend(split_items(v, f"--rules {k.strip()}="))
    try:
        from simlab.runs.sizes import plan_size

        plan_size("-n", n, what="games per matchup and reading")  # the verdicts come at its end: it must end
        settings = RunSettings(n, seed, max_turns=max_turns, threads=threads)  # checked before any game
        bar = _plan(games, wanted, variants, n, max_turns, threads)
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if not json_out else bar.plan_only():
            settings = settings.replace(progress=None if json_out else bar.games)
            res = run_calibrate(games, wanted, variants, settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    if fmt == "json":
        print_json(res.to_doc())
    else:
        emit(fmt, {"fit": res.fit}, lambda: print_calibration(res))
    png = png or (None if json_out else "reports/calibration.png")
    if png:
        from simlab.report.plots import plot_calibration, plot_lengths

        save_plot(png, lambda ax: plot_calibration(res.calibration, ax), 9.5, 5, quiet=json_out)
        if res.length_distribution.height:
            path = Path(png)
            save_plot(
                str(path.with_name(f"{path.stem}-lengths{path.suffix}")),
                lambda ax: plot_lengths(res.length_distribution, ax),
                quiet=json_out,
            )


def _plan(games: str, levels, variants, n: int, max_turns: int, threads):
    """The plan line and bar of the simulations a log needs (a log that cannot be read: a plain bar, the
    calibration itself then says why in one line)."""
    from simlab.cli.common import StagedProgress
    from simlab.studies import workload
    from simlab.studies.calibration import read_log

    try:
        orders = read_log(games).orders()
    except USER_ERRORS:
        return StagedProgress(1)
    return plan(workload.calibrate(orders, levels, variants, n, max_turns), threads)


COMMANDS = {"calibrate": calibrate}
