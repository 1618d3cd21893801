"""``report``: every study of a balance report, written to one directory."""

from __future__ import annotations

from typing import Annotated

import typer

from simlab.cli.common import BackendOrConfig, Config, Scheduler, Threads, backend_for, fail
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.errors import USER_ERRORS
from simlab.report.render import console


def report(
    config: Config = None,
    out: Annotated[str, typer.Option(help="directory that receives <name>/")] = "reports",
    threads: Threads = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level", help="strength every villain plays at [default: the config's, else the strongest available]"
        ),
    ] = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Write a balance report to reports/<name>/: index.html (plots embedded), report.md, PNG plots, every table
    as parquet and CSV, and settings.json (version, seed, strategies, variants, edits) to regenerate it. It prints
    its plan first (games per study and in all, and an estimate of the time from a short measured run); the page
    opens with the headline (the settled top rung of the learning run, strong play, new players, verdicts, the skill
    trace) and ends with the settings."""
    from simlab.report.build import build_report
    from simlab.runs.experiment import load_experiment

    try:
        exp = load_experiment(config) if config else None
        backend = backend or (exp.backend if exp else None) or "local"
        scheduler = scheduler or (exp.scheduler if exp else None)
        with backend_for(backend, scheduler, connect_timeout, fallback), console.status("report") as status:
            rep = build_report(
                exp,
                out,
                threads,
                progress=lambda msg: status.update(f"report: {msg}"),
                level=level,
                announce=lambda line: console.print(line, highlight=False, markup=False),
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    console.print(f"report: {rep.index}")


def docs_figures(
    check: Annotated[
        bool, typer.Option("--check", help="change nothing: exit 1 naming each page whose figures are stale")
    ] = False,
) -> None:
    """Fill every figure of README.md and docs/ (the <!-- fig:KEY --> placeholders) from the shipped artifacts:
    the shipped report's tables, the shipped equilibria, the levels, the measured test times and the benchmarks'
    results (reports/performance/, written by benchmarks/performance_page.py). With --check,
    only say which pages state figures the artifacts do not hold."""
    from simlab.report.figures import FigureError, stale_pages, write_figures

    try:
        pages = stale_pages() if check else write_figures()
    except FigureError as exc:
        fail(str(exc))
    if check and pages:
        console.print(
            f"stale figures in {', '.join(pages)}: run simlab docs-figures to fill them from the artifacts",
            highlight=False,
        )
        raise typer.Exit(1)
    verb = "up to date" if check else ("filled: " + ", ".join(pages) if pages else "already up to date")
    console.print(f"docs figures: {verb}", highlight=False)


COMMANDS = {"report": report, "docs-figures": docs_figures}
