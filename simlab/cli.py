"""The ``simlab`` command line: thin wrappers over library calls that return data."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simlab.cards import CardDataError
from simlab.game import DEFAULT_STRATEGY, InputError
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
            tuple(strategies.get(v, DEFAULT_STRATEGY) for v in order),
            parse_pairs(rules, "--rules"),
            max_turns,
        )
    except (InputError, RuleError, CardDataError) as exc:
        fail(str(exc))
    console.print(res.text, highlight=False, markup=False)


def _rate_table(title: str, frame, label_cols: list[str], extra: dict[str, str] | None = None) -> Table:
    """Rows of ``frame`` as a rich table: labels, games, rate, 95% interval, then ``extra`` float columns."""
    extra = extra or {}
    table = Table(title=title)
    for col in (*label_cols, "games", "rate", "95% interval", *extra):
        table.add_column(col)
    for row in frame.iter_rows(named=True):
        table.add_row(
            *(str(row[c]) for c in label_cols),
            f"{row['games']:,}",
            f"{row['rate']:.1%}",
            f"{row['low']:.1%} - {row['high']:.1%}",
            *("" if row[c] is None or row[c] != row[c] else f"{row[c]:+.1f}" for c in extra.values()),
        )
    return table


@app.command("strategies")
def strategies_cmd() -> None:
    """List every strategy (built-in and in configs/strategies/) with its description and parameters."""
    from strategies import STRATEGIES, config_names, resolve

    table = Table(title="strategies", show_lines=True)
    for col in ("name", "description", "parameters"):
        table.add_column(col)
    specs = list(STRATEGIES.values())
    for name in config_names():
        try:
            specs.append(resolve(name))
        except ValueError as exc:
            fail(str(exc))
    for spec in specs:
        params = ", ".join(f"{k}={v:g}" for k, v in spec.params.items()) or "none"
        desc = spec.description if spec.source == "built-in" else f"{spec.description} (file {spec.source})"
        table.add_row(escape(spec.name), escape(desc), escape(params))
    console.print(table)


@app.command()
def goldfish(
    villain: Annotated[list[str] | None, typer.Option(help="villain (repeatable; default: all three)")] = None,
    n: Annotated[int, typer.Option("-n", help="games per villain and strategy")] = 2000,
    seed: Annotated[int, typer.Option(help="run seed")] = 0,
    strategy: Annotated[list[str] | None, typer.Option(help="strategy name or TOML path (repeatable)")] = None,
    rules: Annotated[list[str] | None, typer.Option(help="VARIANT=VALUE (repeatable)")] = None,
    max_turns: Annotated[int, typer.Option(help="turns after which a game ends unfinished")] = DEFAULT_MAX_TURNS,
    threads: Annotated[int | None, typer.Option(help="worker threads")] = None,
) -> None:
    """Each villain alone, nobody Fating it: turns to reach its objective (median, 10th, 90th percentile)."""
    from simlab.cards import VILLAIN_KEYS
    from simlab.ladder import goldfish_table

    if n < 1:
        fail(f"-n must be a positive number of games, got {n}")
    try:
        frame = goldfish_table(
            villain or VILLAIN_KEYS,
            strategy or ("novice", "expert"),
            n,
            seed,
            parse_pairs(rules, "--rules"),
            max_turns,
            threads,
        )
    except (InputError, RuleError, CardDataError) as exc:
        fail(str(exc))
    table = Table(title=f"goldfish: turns to win unopposed ({n:,} games each, seed {seed})")
    for col in ("villain", "strategy", "won", "median", "10th pct", "90th pct", "mean"):
        table.add_column(col)
    for r in frame.iter_rows(named=True):
        table.add_row(
            r["villain"],
            r["strategy"],
            f"{r['won'] / r['games']:.1%}",
            f"{r['median_turns']:g}",
            f"{r['p10_turns']:g}",
            f"{r['p90_turns']:g}",
            f"{r['mean_turns']:.1f}",
        )
    console.print(table)


@app.command()
def ladder(
    villain: Annotated[list[str] | None, typer.Option(help="villain (repeatable; default: all three)")] = None,
    level: Annotated[list[str] | None, typer.Option(help="strategies to rank (default random, novice, expert)")] = None,
    opponent: Annotated[str, typer.Option(help="strategy of every opponent")] = "novice",
    n: Annotated[int, typer.Option("-n", help="games per level and opponent villain")] = 2000,
    seed: Annotated[int, typer.Option(help="run seed")] = 0,
    rules: Annotated[list[str] | None, typer.Option(help="VARIANT=VALUE (repeatable)")] = None,
    max_turns: Annotated[int, typer.Option(help="rounds after which a game ends unfinished")] = DEFAULT_MAX_TURNS,
    threads: Annotated[int | None, typer.Option(help="worker threads")] = None,
) -> None:
    """The skill ladder: each villain's win rate at each level against the same opponents, seats rotated."""
    from simlab.cards import VILLAIN_KEYS
    from simlab.ladder import LEVELS, skill_ladder

    if n < 1:
        fail(f"-n must be a positive number of games, got {n}")
    try:
        frame = skill_ladder(
            villain or VILLAIN_KEYS,
            level or LEVELS,
            opponent,
            n,
            seed,
            parse_pairs(rules, "--rules"),
            max_turns,
            threads,
        )
    except (InputError, RuleError, CardDataError) as exc:
        fail(str(exc))
    table = _rate_table(
        f"skill ladder vs {opponent} opponents (seed {seed})", frame, ["villain", "level"], extra={"step z": "step_z"}
    )
    console.print(table)


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
