"""Balance fixes: ``fix`` (the smallest card edits that bring every matchup into a band, checked against
adaptation)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import polars as pl
import typer
from rich.markup import escape

from simlab.cli.common import (
    BackendName,
    CsvOut,
    Edits,
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
    plan,
    run_settings,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_dir
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS, InputError
from simlab.report.render import _one_line, _table, console, legend, short_entry, short_matchup
from simlab.studies import fix as F


def fix(
    band: Annotated[
        str, typer.Option(help="LOW-HIGH in percent: every villain's share (win rate x players/2) must lie in it")
    ] = F.DEFAULT_BAND,
    matchup: Annotated[
        list[str] | None,
        typer.Option(
            "--matchup", "-m", help="matchup to balance (repeatable) [default: every pairing and the 3-player game]"
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(help="strength every villain plays at [default: the strongest available: strong, else tuned]"),
    ] = None,
    max_edits: Annotated[int, typer.Option("--max-edits", help="edits a fix may combine")] = F.DEFAULT_MAX_EDITS,
    edits_from: Annotated[
        str | None,
        typer.Option(
            "--edits-from", help="file of the edits allowed, one a line (--edit syntax, ' + ' joins; VARIANT=VALUE)"
        ),
    ] = None,
    with_rules: Annotated[
        bool, typer.Option("--with-rules", help="also try every rule variant's other values")
    ] = False,
    kind: Annotated[
        list[str] | None,
        typer.Option("--kind", help="kinds of card edit to try, repeatable: cost, strength, copies [default: all]"),
    ] = None,
    n: Annotated[int, typer.Option("-n", help="games per matchup for the best fixes and the unedited game")] = (
        F.DEFAULT_GAMES
    ),
    screen_games: Annotated[
        int, typer.Option("--screen-games", help="games per matchup for each fix the search tries (the first of -n)")
    ] = F.DEFAULT_SCREEN_GAMES,
    beam: Annotated[int, typer.Option(help="fixes kept at each number of edits")] = F.DEFAULT_BEAM,
    pool: Annotated[int, typer.Option(help="best single edits the beam combines")] = F.DEFAULT_POOL,
    show: Annotated[int, typer.Option(help="best fixes to print, each with its side effects")] = F.DEFAULT_SHOW,
    recheck: Annotated[
        int, typer.Option(help="best candidates inside the band (spread over cards) measured again on -n games")
    ] = F.DEFAULT_RECHECK,
    impact_cards: Annotated[
        int,
        typer.Option(
            "--impact-cards", help="cards with the largest ablation impact whose edits join the pool (0: none)"
        ),
    ] = F.DEFAULT_IMPACT_CARDS,
    adapt_budget: Annotated[
        int, typer.Option("--adapt-budget", help="search games of each re-tune of the adaptation check (0: none)")
    ] = F.DEFAULT_ADAPT_BUDGET,
    adapt_candidate_games: Annotated[
        int, typer.Option("--adapt-candidate-games", help="games per candidate of each re-tune")
    ] = F.DEFAULT_ADAPT_CANDIDATE_GAMES,
    adapt_validation_games: Annotated[
        int, typer.Option("--adapt-validation-games", help="validation games per pairing of each re-tune")
    ] = F.DEFAULT_ADAPT_VALIDATION_GAMES,
    seed: Seed = 0,
    rules: Rules = None,
    edit: Edits = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    checkpoint: Annotated[
        str | None, typer.Option(help="directory keeping every measurement; the same command resumes from it")
    ] = None,
    report_dir: Annotated[str, typer.Option("--report-dir", help="where the tables and the plot go")] = "reports/fix",
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """The smallest edits that bring every matchup into the band. The game to fix (--edit) is measured first: with
    every interval inside the band there is nothing to fix. Candidates: every card's cost and Strength by 1 to 4, a
    copy moved between two cards of a deck (and rule variants with --with-rules), every edit undoing part of --edit;
    none breaking a card rule (a unique character, a card the win condition needs, the deck's size). Screened on
    the game's seeds, combined in a beam up to --max-edits, the best inside the band measured again; ranked inside
    the band by interval, then fewer edits, smaller size, fewer side effects, a direct repair, the larger margin.
    Each fix printed in the cards' words with before and after [95%], its side effects on every matchup, and the
    options to paste; the best one re-tuned for each villain it changes (survives / borderline / fails)."""
    from simlab.studies import workload

    fmt = output_format(json_out, csv_out)
    try:
        check_output_dir(checkpoint, "--checkpoint")
        check_output_dir(report_dir, "--report-dir")
        kinds = tuple(dict.fromkeys(kind or ("cost", "strength", "copies"))) + (("rules",) if with_rules else ())
        if "rules" in (kind or ()):
            raise InputError("--kind takes cost, strength or copies; rule variants come with --with-rules")
        options = F.FixOptions(
            max_edits,
            screen_games,
            beam,
            pool,
            show,
            kinds,
            adapt_budget,
            adapt_candidate_games,
            adapt_validation_games,
            recheck,
            impact_cards,
        )
        band_ = F.parse_band(band)
        settings = run_settings(n, seed, None, rules, max_turns, threads, edit, level, where="the matchups")
        bar = plan(workload.fix(band_, matchup or None, options, edits_from, settings), threads)
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if fmt == "table" else bar.plan_only():
            res = F.fix(band_, matchup or None, options, edits_from, checkpoint, bar.games, settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        kept = f"every finished measurement is kept in {checkpoint}; run the same command to go on"
        typer.echo(f"interrupted: {kept if checkpoint else 'give --checkpoint DIR to keep what finishes'}", err=True)
        raise typer.Exit(130) from None
    tables = {"fix_matchups": res.table, **{k: v for k, v in res.frames().items() if k != "fix_matchups"}}
    about = {"band": res.band.text, "play": res.play, "games": res.games, "verdict": res.verdict, "note": res.note}
    emit(fmt, tables, lambda: print_fix(res), **about)
    write_fix(res, Path(report_dir), quiet=fmt != "table")


def print_fix(res: F.FixResult) -> None:
    if res.note:
        console.print(f"note: {res.note}")
    game = "the printed game" if not res.edits else "the game of " + " ".join(f'--edit "{e}"' for e in res.edits)
    console.print(
        f"fixing {game}; band {res.band.text} (share: win rate x players/2), {res.play}, {res.games:,} games "
        f"played, {res.seconds:.0f} s"
    )
    if res.verdict == F.NOTHING_TO_FIX:
        console.print(res.verdict)
        for r in res.base.iter_rows(named=True):
            band = f"{r['band_low']:.1%}-{r['band_high']:.1%}"
            console.print(f"  {r['matchup']}: {r['villain']} {r['before_text']} (band {band})")
        return
    if not res.fixes.height:
        console.print("no fix found")
        return
    for row in res.fixes.iter_rows(named=True):
        _print_one(res, row)
    _print_alternatives(res)
    _print_adaptation(res)


def _print_one(res: F.FixResult, row: dict) -> None:
    """One line per fix: the edit in the cards' words, each villain out of the band before and after [95%], the
    band verdict and the side-effect flags; then the options to paste."""
    rows = res.table.filter(res.table["rank"] == row["rank"])
    shown: dict[str, dict] = {}  # per matchup, the villain furthest from the band before (a 2-player game: one)
    for r in rows.iter_rows(named=True):
        if r["matchup"] not in shown or r["before_distance"] > shown[r["matchup"]]["before_distance"]:
            shown[r["matchup"]] = r
    values = "; ".join(f"{r['villain']} ({m}) {r['before_text']} → {r['after_text']}" for m, r in shown.items())
    direct = ", undoes the --edit" if row["direct"] else ""
    size = f"{row['edits']} edit{'s' if row['edits'] > 1 else ''}, size {row['size']}{direct}"
    console.print(f"\n[bold]fix {row['rank']}[/bold]: {row['words']} ({size})")
    console.print(f"  {values}; {row['verdict']}; {row['flags_text']}")
    console.print(f"  paste: {row['options']}")


def _print_alternatives(res: F.FixResult) -> None:
    """The fixes measured again, ranked, grouped by the card each edits first (a line between the cards: the edit
    names its card); fits 80 columns, the edit and verdict in words wrapping."""
    if not res.alternatives.height:
        return
    alternatives = list(res.alternatives.iter_rows(named=True))
    rows = [
        (
            str(r["rank"]),
            escape(r["words"] + (" (undoes the --edit)" if r["direct"] else "")),
            str(r["size"]),
            r["verdict"],
            f"{r['distance']:.1%}",
        )
        for r in alternatives
    ]
    columns = ("rank", "edit", "size", "verdict", "distance")
    t = _one_line(_table("ranked alternatives, grouped by card", columns), wrap=("edit", "verdict"))
    for k, cells in enumerate(rows):
        t.add_row(*cells, end_section=k + 1 < len(rows) and alternatives[k + 1]["card"] != alternatives[k]["card"])
    console.print(t)


def _print_adaptation(res: F.FixResult) -> None:
    """The re-tunes of the adaptation check, then each villain's win rate fixed and adapted (short names: a legend
    under the table, so it fits 80 columns), and the verdict."""
    if res.adapted.height:
        for r in res.adapted.iter_rows(named=True):
            how = "adopts the re-tuned strategy" if r["adopted"] else "keeps its strategy (no validated gain)"
            console.print(
                f"adaptation: {r['villain']} re-tuned from {r['start']} ({r['objective']}): {how}, {r['change']}"
            )
        rows = [
            (
                f"{short_entry(r['villain'])} ({short_matchup(r['matchup'])})",
                r["fixed_text"],
                r["adapted_text"],
                r["change_text"],
            )
            for r in res.adaptation.iter_rows(named=True)
        ]
        columns = ("villain", "fixed", "adapted", "change [95% paired]")
        console.print(_one_line(_table("each villain's win rate (matchup): fixed, then adapted", columns, rows)))
        console.print(legend(res.adaptation["matchup"]) + ".", highlight=False)
    console.print(f"best fix: {res.verdict}")


def write_fix(res: F.FixResult, directory: Path, quiet: bool = False) -> None:
    from simlab.data import durable
    from simlab.report.plots import plot_fix

    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, frame in res.frames().items():
            durable.write_with(directory / f"{name}.parquet", frame.write_parquet, "the fix table")
            flat = [pl.col(c).cast(pl.List(pl.Utf8)).list.join("; ") for c, d in frame.schema.items() if d == pl.List]
            durable.write_with(directory / f"{name}.csv", frame.with_columns(flat).write_csv, "the fix table")
    except OSError as exc:
        fail(f"cannot write the tables to {str(directory)!r}: {exc.strerror or exc}")
    except USER_ERRORS as exc:
        fail(str(exc))
    if res.fixes.height:
        best = res.table.filter(res.table["rank"] == 1)
        adapted = res.adaptation if res.adaptation.height else None
        title = f"fix 1 ({res.play}): {res.best['fix']}"
        band = (res.band.low, res.band.high)
        draw = lambda ax: plot_fix(best, ax, band, adapted, title)  # noqa: E731
        save_plot(str(directory / "fix.png"), draw, 9, 1 + 0.5 * best.height, quiet=quiet)
    if not quiet:
        console.print(f"tables: {directory}/fix_*.parquet, .csv")


COMMANDS = {"fix": fix}
