"""The ``simlab`` command line: thin wrappers over library calls that return data."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import polars as pl
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


# Options shared by the commands that play games.
Seed = Annotated[int, typer.Option(help="run seed: game i uses the stream of (seed, i)")]
VillainStrategies = Annotated[
    list[str] | None, typer.Option("--strategy", help="VILLAIN=NAME|PATH (repeatable; default expert)")
]
Rules = Annotated[list[str] | None, typer.Option("--rules", help="VARIANT=VALUE (repeatable)")]
MaxTurns = Annotated[int, typer.Option("--max-turns", help="rounds after which a game ends unfinished")]
Threads = Annotated[int | None, typer.Option("--threads", help="worker threads")]
USER_ERRORS = (InputError, RuleError, CardDataError)


def check_games(n: int) -> None:
    if n < 1:
        fail(f"-n must be a positive number of games, got {n}")


def parse_pairs(items: list[str] | None, what: str) -> dict[str, str]:
    out = {}
    for item in items or []:
        if "=" not in item:
            fail(f"{what} {item!r} must look like NAME=VALUE")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _progress_bar():
    """A rich progress bar with ETA, shown on stderr; returns (context manager, callback)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = {}

    def update(done: int, total: int, label: str = "games") -> None:
        if label not in task:
            task[label] = bar.add_task(label, total=total)
        bar.update(task[label], completed=done, total=total)

    return bar, update


def print_run(res) -> None:
    """The tables of a run, with rich."""
    from simlab.sim import entry_names

    title = f"{res.matchup}: {res.n_games:,} games, seed {res.seed}"
    if res.interrupted:
        title += " (interrupted: summary of the finished games)"
    if res.stopped_at_target:
        title += " (stopped: every interval narrower than the target)"
    table = Table(title=title)
    for col in ("outcome", "strategy", "wins", "rate", "95% interval"):
        table.add_column(col)
    strategies = dict(zip(entry_names(res.villains), res.strategies, strict=True))
    for row in res.summary.iter_rows(named=True):
        table.add_row(
            row["outcome"],
            strategies.get(row["outcome"], ""),
            f"{row['count']:,}",
            f"{row['rate']:.2%}",
            f"{row['low']:.2%} - {row['high']:.2%}",
        )
    console.print(table)
    seats = Table(title="win rate by seat (seat 0 plays first)")
    P = len(res.villains)
    seats.add_column("entry")
    for s in range(P):
        seats.add_column(f"seat {s}")
    by = res.by_seat
    for name in entry_names(res.villains):
        cells = []
        for r in by.filter(pl.col("entry") == name).sort("seat").iter_rows(named=True):
            cells.append(f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]" if r["games"] else "-")
        seats.add_row(name, *cells)
    console.print(seats)
    first = Table(title="seats (whoever sits there)")
    for col in ("seat", "win rate", "95% interval"):
        first.add_column(col)
    for r in res.first_seat.iter_rows(named=True):
        sign = "+" if r["seat"] == "first-seat advantage" else ""
        first.add_row(r["seat"], f"{r['rate']:{sign}.2%}", f"{r['low']:{sign}.2%} .. {r['high']:{sign}.2%}")
    console.print(first)
    lengths = Table(title="game length")
    for col in ("games won by", "counted in", "games", "mean", "median", "10th pct", "90th pct"):
        lengths.add_column(col)
    for r in res.lengths.iter_rows(named=True):
        if r["games"] == 0:
            continue
        lengths.add_row(
            r["winner"],
            r["measure"],
            f"{r['games']:,}",
            f"{r['mean']:.1f}",
            f"{r['median']:g}",
            f"{r['p10']:g}",
            f"{r['p90']:g}",
        )
    console.print(lengths)
    console.print(
        f"{res.n_games:,} games in {res.seconds:.2f} s ({res.games_per_second:,.0f} games/s), seed {res.seed}"
        + (f"; per-game rows in {res.out}" if res.out else "")
    )


@app.command()
def run(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    n: Annotated[int, typer.Option("-n", help="games to play (the most, with --target-ci)")] = 10000,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    first: Annotated[str, typer.Option(help="who plays first: rotate, random, or a villain")] = "rotate",
    out: Annotated[str | None, typer.Option(help="write one row per game to this parquet file")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print a machine-readable summary instead")] = False,
    target_ci: Annotated[
        float | None, typer.Option(help="stop once every win-rate 95% interval is narrower than this")
    ] = None,
) -> None:
    """Play N games of a matchup and print win rates (overall and by seat), the first-seat advantage and game
    length, with 95% intervals. Ctrl-C stops after the current chunk and prints the finished games."""
    from simlab.sim import run as run_games

    check_games(n)
    bar, update = _progress_bar()
    try:
        with bar if not json_out else _null():
            res = run_games(
                matchup,
                n,
                seed,
                parse_pairs(strategy, "--strategy"),
                parse_pairs(rules, "--rules"),
                max_turns,
                threads,
                first=first,
                out=out,
                target_ci=target_ci,
                keep_games=False,
                progress=None if json_out else update,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    if json_out:
        typer.echo(res.to_json())
    else:
        print_run(res)
    if res.interrupted:
        raise typer.Exit(130)


@app.command()
def matrix(
    n: Annotated[int, typer.Option("-n", help="games per matchup")] = 10000,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[str, typer.Option(help="where to write the heatmap")] = "reports/matrix.png",
) -> None:
    """Every 2-player pairing (mirrors included) and the 3-player game, seats rotated: one table and a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simlab.matchups import matrix as run_matrix
    from simlab.matchups import plot_matrix

    check_games(n)
    bar, update = _progress_bar()
    try:
        with bar:
            res = run_matrix(
                n,
                seed,
                parse_pairs(strategy, "--strategy"),
                parse_pairs(rules, "--rules"),
                max_turns,
                threads,
                progress=update,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    table = Table(title=f"matchup matrix: {n:,} games each, seed {seed}")
    for col in ("matchup", "outcome", "rate", "95% interval", "median rounds", "first-seat adv."):
        table.add_column(col)
    for r in res.table.iter_rows(named=True):
        table.add_row(
            r["matchup"],
            r["outcome"],
            f"{r['rate']:.1%}",
            f"{r['low']:.1%} - {r['high']:.1%}",
            f"{r['median_rounds']:g}",
            f"{r['first_seat_advantage']:+.1%}",
        )
    console.print(table)
    fig, ax = plt.subplots(figsize=(6, 5))
    plot_matrix(res.grid(), ax)
    fig.tight_layout()
    try:
        Path(png).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(png, dpi=120)
    except OSError as exc:
        fail(f"cannot write --png {png!r}: {exc.strerror or exc}")
    console.print(f"heatmap: {png}")


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@app.command()
def replay(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    seed: Seed = 0,
    game: Annotated[int, typer.Option(help="index of the game in the run")] = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
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
    except USER_ERRORS as exc:
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
    seed: Seed = 0,
    strategy: Annotated[list[str] | None, typer.Option(help="strategy name or TOML path (repeatable)")] = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
) -> None:
    """Each villain alone, nobody Fating it: turns to reach its objective (median, 10th, 90th percentile)."""
    from simlab.cards import VILLAIN_KEYS
    from simlab.ladder import goldfish_table

    check_games(n)
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
    except USER_ERRORS as exc:
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
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
) -> None:
    """The skill ladder: each villain's win rate at each level against the same opponents, seats rotated."""
    from simlab.cards import VILLAIN_KEYS
    from simlab.ladder import LEVELS, skill_ladder

    check_games(n)
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
    except USER_ERRORS as exc:
        fail(str(exc))
    table = _rate_table(
        f"skill ladder vs {opponent} opponents (seed {seed})", frame, ["villain", "level"], extra={"step z": "step_z"}
    )
    console.print(table)


@app.command()
def cards(
    villain: Annotated[str, typer.Option(help="whose cards")],
    n: Annotated[int, typer.Option("-n", help="games against each other villain")] = 2000,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
) -> None:
    """Card impact, observational: the villain's win rate when each card was drawn / played vs not."""
    from simlab.impact import observational

    check_games(n)
    try:
        frame = observational(
            villain, n, seed, parse_pairs(strategy, "--strategy"), parse_pairs(rules, "--rules"), max_turns, threads
        )
    except USER_ERRORS as exc:
        fail(str(exc))

    def pct(x, sign=""):
        return "-" if x is None else f"{x:{sign}.1%}"

    table = Table(
        title=f"{villain}: card impact, OBSERVATIONAL (selection-biased associations, not effects); "
        f"{n:,} games vs each other villain, seed {seed}"
    )
    for col in (
        "card",
        "drawn",
        "played",
        "win if played / not",
        "played diff [95%]",
        "win if drawn / not",
        "drawn diff [95%]",
    ):
        table.add_column(col)
    for r in frame.iter_rows(named=True):
        table.add_row(
            escape(r["card"]),
            pct(r["drawn_share"]),
            pct(r["played_share"]),
            f"{pct(r['win_if_played'])} / {pct(r['win_if_not_played'])}",
            f"{pct(r['played_diff'], '+')} [{pct(r['played_diff_low'], '+')}, {pct(r['played_diff_high'], '+')}]",
            f"{pct(r['win_if_drawn'])} / {pct(r['win_if_not_drawn'])}",
            f"{pct(r['drawn_diff'], '+')} [{pct(r['drawn_diff_low'], '+')}, {pct(r['drawn_diff_high'], '+')}]",
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
