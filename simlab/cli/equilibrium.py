"""``equilibrium``: a matchup's value at strong play, the Nash equilibrium of a strategy population grown by best
responses (:mod:`simlab.studies.equilibrium`)."""

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
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_dir, split_items
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS, InputError
from simlab.studies import equilibrium as eq


def _seed_levels(text: str, option: str = "--seed-levels") -> tuple[str, ...]:
    from simlab.runs.levels import LEVELS

    items = split_items(text, option) if text.strip() else []
    for lv in items:
        if lv not in ("novice", "expert", "tuned"):
            choices = ", ".join(v for v in LEVELS if v in ("novice", "expert", "tuned"))
            raise InputError(f"{option}: {lv!r} is not a scripted seed level; choose from {choices} (or none: '')")
    if len(set(items)) != len(items):
        raise InputError(f"{option} {text!r} names a level twice")
    return tuple(items)


def _seed_strategies(items: list[str] | None) -> dict[str, list[str]]:
    from simlab.errors import StrategyError
    from strategies import resolve

    out: dict[str, list[str]] = {}
    for item in items or []:
        villain, sep, name = item.partition("=")
        if not sep or not villain.strip() or not name.strip():
            raise InputError(f"--seed-strategy {item!r} must look like VILLAIN=STRATEGY")
        try:
            resolve(name.strip())  # an unknown strategy refused before the plan line
        except StrategyError as exc:
            raise InputError(str(exc)) from None
        out.setdefault(villain.strip().lower(), []).append(name.strip())
    return out


def _seeds_for(matchup: str, extra: dict[str, list], seed_from: list[str] | None, all_: bool) -> dict[str, list]:
    """The --seed-strategy strategies of ``matchup``'s villains, then those of the --seed-from runs."""
    mine = {v: list(s) for v, s in extra.items() if v in matchup.split("-vs-") or not all_}
    for v, specs in eq.seeds_from(seed_from or (), matchup).items():
        if specs:
            mine[v] = [*mine.get(v, ()), *specs]
    return mine


def _libraries(folders: list[str] | None, matchups: list[str], games: int) -> dict[str, dict[str, list]]:
    """Each matchup's library, read once before the first game (a run of --all writes the shipped files that the
    default library reads)."""
    if not games:
        return {m: {} for m in matchups}
    from simlab.game.api import parse_matchup

    villains = dict.fromkeys(v for m in matchups for v in parse_matchup(m))  # each read once
    per_villain = {v: eq.library_strategies(v, folders or None) for v in villains}
    return {m: {v: per_villain[v] for v in parse_matchup(m)} for m in matchups}


def _write(res, probe, out: str, here: Path, command: str) -> dict:
    """The mixture file, the tables and the plot of one matchup's equilibrium; returns the files written."""
    from simlab.report.plots import plot_equilibrium, write_plot

    files = eq.write_outputs(res, probe, out, here, command)
    title = f"{res.matchup}: value and best-response gains by iteration"
    files["plot"] = write_plot(
        here / "equilibrium.png", lambda ax: plot_equilibrium(res.iterations, ax, res.villains, title), (8, 5)
    )
    return files


SEED_LEVELS_TEXT = ",".join(eq.SEED_LEVELS)
BR_FROM_TEXT = ",".join(eq.DEFAULT_BR_FROM)
SeedStrategyOpt = Annotated[
    list[str] | None,
    typer.Option("--seed-strategy", help="VILLAIN=STRATEGY to start that side's population with too (repeatable)"),
]
SeedFromOpt = Annotated[
    list[str] | None,
    typer.Option("--seed-from", help="an earlier run's folder of mixture files; its strategies join (repeatable)"),
]
SeedLevelsOpt = Annotated[
    str, typer.Option("--seed-levels", help="levels each population starts with, comma-separated ('' for none)")
]
LibraryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--library",
        help="a folder of mixture files whose strategies every best response also tries (repeatable) "
        "[default: the shipped equilibria, configs/equilibrium]",
    ),
]
LibraryGamesOpt = Annotated[
    int,
    typer.Option(
        "--library-games", help="games of each library strategy against the other side's mixture (0: no library)"
    ),
]
TableGamesOpt = Annotated[
    int,
    typer.Option("--table-games", help="games per entry of the payoff table (1,200: a standard error <= 1.5 points)"),
]
EpsilonOpt = Annotated[
    float, typer.Option(help="stop when neither side's best response gains more than this (a win-rate share)")
]
BudgetOpt = Annotated[int, typer.Option(help="search games of each best response (the tuner, CMA-ES)")]
CandidateGamesOpt = Annotated[
    int, typer.Option("--candidate-games", help="games each candidate of a best response plays")
]
ValidationGamesOpt = Annotated[
    int, typer.Option("--validation-games", help="fresh games validating each best response against its mixture")
]
ValueGamesOpt = Annotated[
    int, typer.Option("--value-games", help="fresh games of mixture against mixture for the value's interval")
]
StepOpt = Annotated[
    float,
    typer.Option(help="a best response's first CMA-ES step, in units of the tuner's (a fifth of each range)"),
]
BrFromOpt = Annotated[
    str,
    typer.Option(
        "--br-from",
        help="levels each best response is also tuned from, besides its side's best pure strategy, the budget "
        "split between the starts; comma-separated ('' for none)",
    ),
]
ProbeGamesOpt = Annotated[
    int,
    typer.Option(
        "--probe-games", help="games per side of the search player against the other side's mixture (0: no probe)"
    ),
]


def equilibrium(
    matchup: Annotated[str | None, typer.Option("--matchup", "-m", help="A-vs-B: two different villains")] = None,
    all_: Annotated[bool, typer.Option("--all", help="every 2-player pairing of different villains")] = False,
    seed_strategy: SeedStrategyOpt = None,
    seed_from: SeedFromOpt = None,
    seed_levels: SeedLevelsOpt = SEED_LEVELS_TEXT,
    library: LibraryOpt = None,
    library_games: LibraryGamesOpt = eq.DEFAULT_LIBRARY_GAMES,
    table_games: TableGamesOpt = eq.DEFAULT_TABLE_GAMES,
    epsilon: EpsilonOpt = eq.DEFAULT_EPSILON,
    iterations: Annotated[int, typer.Option(help="best-response iterations at most")] = eq.DEFAULT_ITERATIONS,
    budget: BudgetOpt = eq.DEFAULT_BUDGET,
    candidate_games: CandidateGamesOpt = eq.DEFAULT_CANDIDATE_GAMES,
    validation_games: ValidationGamesOpt = eq.DEFAULT_VALIDATION_GAMES,
    value_games: ValueGamesOpt = eq.DEFAULT_VALUE_GAMES,
    popsize: Annotated[int | None, typer.Option(help="CMA-ES population per generation [default: pycma's]")] = None,
    step: StepOpt = eq.DEFAULT_STEP,
    br_from: BrFromOpt = BR_FROM_TEXT,
    probe_games: ProbeGamesOpt = 0,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    out: Annotated[
        str, typer.Option(help="directory of the mixture files (the strong level reads configs/equilibrium)")
    ] = "configs/equilibrium",
    report_dir: Annotated[
        str, typer.Option("--report-dir", help="where each matchup's tables, plot and provenance go")
    ] = "reports/equilibrium",
    checkpoint: Annotated[
        str | None,
        typer.Option(
            help="directory keeping every finished step; the same command resumes from it "
            "[default: REPORT_DIR/MATCHUP/steps]"
        ),
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """A matchup's value at strong play: each side's population (novice, expert, tuned, --seed-strategy and
    --seed-from) plays every pair on common seeds, the table's Nash equilibrium comes from a linear program, and
    each side's best response to the other's mixture (the tuner's, or a --library strategy's) joins if it beats
    its side's mixture on fresh games, until no best response gains more than --epsilon. Prints the value [95%],
    both mixtures and the exploitability per iteration; writes the mixture file (the strong level) and tables;
    Ctrl-C keeps each step."""
    import sys
    import time

    from simlab.game.api import parse_matchup
    from simlab.runs.settings import RunSettings

    fmt = output_format(json_out, csv_out)
    probes = []
    try:
        if all_ == (matchup is not None):
            raise InputError("give --matchup A-vs-B for one matchup, or --all for every pairing of two villains")
        for path, option in ((out, "--out"), (report_dir, "--report-dir"), (checkpoint, "--checkpoint")):
            check_output_dir(path, option)
        if probe_games < 0:
            raise InputError(f"--probe-games must be 0 or more, got {probe_games}")
        numbers = (table_games, epsilon, iterations, budget, candidate_games, validation_games, value_games)
        options = eq.EquilibriumSettings(*numbers, popsize, step, _seed_levels(br_from, "--br-from"), library_games)
        levels = _seed_levels(seed_levels)
        extra = _seed_strategies(seed_strategy)
        matchups = eq.pairings() if all_ else ["-vs-".join(parse_matchup(matchup))]
        settings = RunSettings(seed=seed, variants=parse_pairs(rules, "--rules"), max_turns=max_turns, threads=threads)
        command = "simlab " + " ".join(sys.argv[1:]) if sys.argv[1:] else "simlab equilibrium"
        libraries = _libraries(library, matchups, library_games)
        seeds = {m: _seeds_for(m, extra, seed_from, all_) for m in matchups}  # each checked before the plan line
        from simlab.studies import workload

        bar = plan(workload.equilibrium(matchups, options, levels, probe_games), threads)
        results, written = [], []
        t0 = time.perf_counter()
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if fmt == "table" else bar.plan_only():
            for m in matchups:
                here = Path(report_dir) / m
                steps = Path(checkpoint) / m if checkpoint and all_ else Path(checkpoint or here / "steps")
                res = eq.equilibrium(
                    m, seeds[m], levels, options, steps, bar.named, library=libraries[m], settings=settings
                )
                probe = eq.search_probe(res, probe_games, epsilon, settings=settings) if probe_games else None
                written.append((res, probe, _write(res, probe, out, here, command)))
                results.append(res)
                probes += [probe] if probe is not None else []
    except USER_ERRORS as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        where = checkpoint or f"{report_dir}/MATCHUP/steps"
        typer.echo(f"interrupted: every finished step is kept in {where}; run the same command to go on", err=True)
        raise typer.Exit(130) from None
    if fmt != "table":
        emit(fmt, equilibrium_tables(results, probes), lambda: None)
        return
    from simlab.report.render import print_strong_play

    for res, probe, files in written:
        print_strong_play(res, probe, files)
    _summary(results, t0)


def equilibrium_tables(results, probes=()) -> dict:
    """Every matchup's frames (value first: the main table), each with its matchup, one frame per kind."""
    import polars as pl

    tables: dict[str, list] = {}
    for res in results:
        for name, frame in res.frames().items():
            if "matchup" not in frame.columns:
                frame = frame.select(pl.lit(res.matchup).alias("matchup"), pl.all())
            tables.setdefault(name, []).append(frame)
    if probes:
        tables["search_probe"] = list(probes)
    return {name: pl.concat(frames, how="diagonal_relaxed") for name, frames in tables.items()}


def _summary(results, t0: float) -> None:
    """The table of every matchup's value, after a run of more than one."""
    import time

    if len(results) > 1:
        from simlab.report.render import print_strong_play_summary

        print_strong_play_summary(results, time.perf_counter() - t0)


def equilibrium_compare(
    first: Annotated[str, typer.Argument(help="one run's --report-dir (e.g. reports/equilibrium)")],
    second: Annotated[str, typer.Argument(help="another run's, from other seed populations or seed")],
    epsilon: Annotated[
        float, typer.Option("--epsilon", help="the runs' epsilon: values agree within it plus both half-widths")
    ] = eq.DEFAULT_EPSILON,
    write: Annotated[str | None, typer.Option("--out", help="also write the comparison as CSV here")] = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
) -> None:
    """Whether the answer depends on where the search starts: two equilibrium runs' values per matchup they share,
    their difference, and whether they agree (within epsilon plus both 95% half-widths)."""
    from simlab.report.render import print_start_robustness

    fmt = output_format(json_out, csv_out)
    try:
        if not 0 < epsilon < 1:
            raise InputError(f"--epsilon must lie between 0 and 1, got {epsilon}")
        frame = eq.compare_starts(first, second, epsilon)
        emit(fmt, {"compare": frame}, lambda: print_start_robustness(frame), epsilon=epsilon)
        if write:
            from simlab.data import durable

            Path(write).parent.mkdir(parents=True, exist_ok=True)
            durable.write_with(write, frame.write_csv, "--out")
    except USER_ERRORS as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write --out {write!r}: {exc.strerror or exc}")


def equilibrium_probe(
    matchup: Annotated[
        list[str] | None, typer.Option("--matchup", "-m", help="A-vs-B (repeatable; default every mixture file)")
    ] = None,
    mixtures: Annotated[
        str | None,
        typer.Option(
            "--mixtures",
            help="directory of the mixture files [default: the shipped ones, simlab's configs/equilibrium]",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="games per side, paired with the side's own mixture")
    ] = 200,
    epsilon: Annotated[
        float, typer.Option("--epsilon", help="a gain whose interval lies above this: not converged")
    ] = eq.DEFAULT_EPSILON,
    strategy: Annotated[str, typer.Option("--strategy", help="the search strategy that probes")] = "search",
    seed: Annotated[int, typer.Option("--seed", help="run seed: game i uses the stream of (seed, i)")] = 0,
    threads: Annotated[int | None, typer.Option("--threads", help="worker threads")] = None,
    report_dir: Annotated[
        str, typer.Option("--report-dir", help="each matchup's search_probe.csv/.parquet go to DIR/MATCHUP/")
    ] = "reports/equilibrium",
    record: Annotated[
        bool, typer.Option("--record/--no-record", help="write the gains into each mixture file's provenance")
    ] = True,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
) -> None:
    """Probe shipped equilibria with the search player (its rollouts model each villain by its most-weighted
    strategy): each side's search player against the other side's mixture, paired with the side's own mixture on
    the same games. A gain above epsilon means the mixture is not an equilibrium at search level."""
    import sys

    import polars as pl

    from simlab.data import durable
    from simlab.game.api import parse_matchup
    from simlab.report.render import print_probe
    from simlab.runs.settings import RunSettings
    from simlab.runs.sizes import plan_size

    fmt = output_format(json_out, csv_out)
    try:
        if games < 2:
            raise InputError(f"--games must be 2 or more, got {games}")
        if not 0 < epsilon < 1:
            raise InputError(f"--epsilon must lie between 0 and 1, got {epsilon}")
        check_output_dir(report_dir, "--report-dir")  # before the search player plays (minutes a matchup)
        plan_size("--games", games, games_each=2, what="games per side")
        files = eq.shipped_files(mixtures or eq.SHIPPED_DIR, ["-vs-".join(parse_matchup(m)) for m in matchup or []])
        settings = RunSettings(seed=seed, threads=threads)
        command = "simlab " + " ".join(sys.argv[1:]) if sys.argv[1:] else "simlab equilibrium-probe"
        frames = []
        for f in files:
            shipped = eq.read_equilibrium_file(f)
            probe = eq.search_probe(shipped, games, epsilon, strategy, settings=settings)
            here = Path(report_dir) / shipped.matchup
            here.mkdir(parents=True, exist_ok=True)
            durable.write_with(here / "search_probe.parquet", probe.write_parquet, "the search probe")
            durable.write_with(here / "search_probe.csv", probe.write_csv, "the search probe")
            if record:
                eq.record_probe(f, probe, command)
            frames.append(probe)
        table = pl.concat(frames)
        emit(fmt, {"search_probe": table}, lambda: print_probe(table), games=games, epsilon=epsilon)
    except USER_ERRORS as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write the probe's files: {exc.strerror or exc}")


COMMANDS = {
    "equilibrium": equilibrium,
    "equilibrium-compare": equilibrium_compare,
    "equilibrium-probe": equilibrium_probe,
}
