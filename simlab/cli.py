"""The ``simlab`` command line: thin wrappers over library calls that return data."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from simlab.cards import CardDataError
from simlab.game import InputError
from simlab.rules import DEFAULT_MAX_TURNS, RuleError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Monte Carlo balance analysis for Villainous: Despicable Plots."
)
console = Console()


def fail(message: str) -> None:
    """One line on stderr, exit code 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def parse_pairs(items: list[str] | None, what: str) -> dict[str, str]:
    out = {}
    for item in items or []:
        if "=" not in item:
            fail(f"{what} {item!r} must look like NAME=VALUE")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


@app.command()
def run(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    n: Annotated[int, typer.Option("-n", help="games to play")] = 10000,
    seed: Annotated[int, typer.Option(help="run seed: game i uses the stream of (seed, i)")] = 0,
    strategy: Annotated[list[str] | None, typer.Option(help="VILLAIN=STRATEGY (repeatable)")] = None,
    rules: Annotated[list[str] | None, typer.Option(help="VARIANT=VALUE (repeatable)")] = None,
    max_turns: Annotated[int, typer.Option(help="rounds after which a game ends unfinished")] = DEFAULT_MAX_TURNS,
    threads: Annotated[int | None, typer.Option(help="worker threads")] = None,
) -> None:
    """Play N games of a matchup, seats rotated, and print win rates with 95% Wilson intervals."""
    from simlab.sim import simulate

    if n < 1:
        fail(f"-n must be a positive number of games, got {n}")
    try:
        res = simulate(
            matchup, n, seed, parse_pairs(strategy, "--strategy"), parse_pairs(rules, "--rules"), max_turns, threads
        )
    except (InputError, RuleError, CardDataError) as exc:
        fail(str(exc))
    table = Table(title=f"{matchup}: {res.games.height:,} games, seed {seed}")
    for col in ("outcome", "wins", "rate", "95% interval"):
        table.add_column(col)
    for row in res.summary.iter_rows(named=True):
        table.add_row(
            row["outcome"], f"{row['count']:,}", f"{row['rate']:.2%}", f"{row['low']:.2%} - {row['high']:.2%}"
        )
    console.print(table)
    rounds = res.games["rounds"]
    console.print(
        f"rounds: mean {rounds.mean():.1f}, median {rounds.median():.0f}; "
        f"{res.seconds:.2f} s, {res.games_per_second:,.0f} games/s"
    )


@app.command()
def replay(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    seed: Annotated[int, typer.Option(help="seed of the run")] = 0,
    game: Annotated[int, typer.Option(help="index of the game in the run")] = 0,
    strategy: Annotated[list[str] | None, typer.Option(help="VILLAIN=STRATEGY (repeatable)")] = None,
    rules: Annotated[list[str] | None, typer.Option(help="VARIANT=VALUE (repeatable)")] = None,
    max_turns: Annotated[int, typer.Option(help="rounds after which a game ends unfinished")] = DEFAULT_MAX_TURNS,
) -> None:
    """Print one game of a run as a readable log."""
    from simlab.game import parse_matchup
    from simlab.replay import replay as replay_game
    from simlab.sim import seat_table

    try:
        villains = parse_matchup(matchup)
        if game < 0:
            raise InputError(f"--game must be a non-negative game index, got {game}")
        seats = seat_table(villains, 1, game)[0]
        order = tuple(villains[i] for i in seats)
        strategies = parse_pairs(strategy, "--strategy")
        res = replay_game(
            order,
            seed,
            game,
            tuple(strategies.get(v, "random") for v in order),
            parse_pairs(rules, "--rules"),
            max_turns,
        )
    except (InputError, RuleError, CardDataError) as exc:
        fail(str(exc))
    console.print(res.text, highlight=False, markup=False)


@app.command("rules")
def rules_cmd() -> None:
    """List the rule variants with their defaults."""
    from simlab.rules import variants_table

    table = Table(title="rule variants")
    for col in ("variant", "default", "alternatives", "meaning"):
        table.add_column(col)
    for row in variants_table():
        table.add_row(*row)
    console.print(table)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
