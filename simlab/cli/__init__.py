"""The ``simlab`` command line: thin wrappers over library calls that return data.

One module a group of commands (``play``, ``cards``, ``studies``, ``fix``, ``equilibrium``, ``tune``, ``calibrate``,
``learn``, ``report``, ``info``),
each naming its commands in ``COMMANDS``; what they share (one-line errors, the options and their checks, progress
bars, plots) is :mod:`simlab.cli.common`. A new command is a module of its own, added to :data:`GROUPS`. The
modules import only cheap things at the top: ``simlab --help``, ``simlab rules`` and bad input compile nothing.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from simlab.cli import calibrate, cards, equilibrium, fix, info, learn, play, report, studies, tune
from simlab.cli.common import OneLineErrors
from simlab.report.render import pct_interval

__all__ = ["GROUPS", "OneLineErrors", "app", "main", "pct_interval", "version_text"]

# the order of ``simlab --help``
GROUPS = (play, cards, studies, fix, equilibrium, tune, calibrate, learn, report, info)

app = typer.Typer(
    cls=OneLineErrors,
    add_completion=True,  # --install-completion / --show-completion: bash, zsh, fish, PowerShell
    no_args_is_help=True,
    help="Monte Carlo balance analysis for Villainous: Despicable Plots.",
)


def version_text() -> str:
    """``simlab VERSION``, the installed package's version (its metadata, as pip knows it)."""
    from simlab.report.build import simlab_version

    return f"simlab {simlab_version()}"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="print simlab's version and exit"),
    ] = False,
) -> None:
    """Monte Carlo balance analysis for Villainous: Despicable Plots."""


for group in GROUPS:
    for name, command in group.COMMANDS.items():
        app.command(name)(command)


def main() -> None:
    from simlab.runs.stopping import code_of, signals_interrupt

    try:
        with signals_interrupt():  # SIGTERM and SIGHUP stop a command as Ctrl-C does (exit 143, 129)
            app()
    except KeyboardInterrupt as exc:  # pragma: no cover
        sys.exit(code_of(exc))


if __name__ == "__main__":  # pragma: no cover
    main()
