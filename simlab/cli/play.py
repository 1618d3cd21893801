"""Playing games: ``run`` (one matchup), ``matrix`` (every matchup), ``replay`` (one game's log) and ``goldfish``
(each villain alone)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simlab.cli.common import (
    BackendName,
    BackendOrConfig,
    Config,
    CsvOut,
    Edits,
    JsonOut,
    Level,
    MaxTurns,
    Rules,
    Scheduler,
    Seed,
    Threads,
    VillainsOrAll,
    VillainStrategies,
    backend_for,
    check_png,
    config_settings,
    default_games,
    default_png,
    each_villain,
    emit,
    experiment_settings,
    fail,
    no_bar,
    output_format,
    parse_edits,
    parse_pairs,
    plan,
    print_csv,
    print_json,
    progress_bar,
    run_settings,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_dir, check_output_file
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS, InputError
from simlab.game.api import DEFAULT_STRATEGY
from simlab.report.render import console, goldfish_view, matrix_table, print_run


def run(
    matchup: Annotated[str | None, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")] = None,
    n: Annotated[
        int | None,
        typer.Option("-n", help="games to play (the most, with --target-ci) [default: 10000; 100 at search level]"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="run seed: game i uses the stream of (seed, i) [default: 0]")] = None,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: Annotated[
        int | None,
        typer.Option("--max-turns", help=f"rounds after which a game ends unfinished [default: {DEFAULT_MAX_TURNS}]"),
    ] = None,
    threads: Threads = None,
    first: Annotated[
        str | None, typer.Option(help="who plays first: rotate, random, or a villain [default: rotate]")
    ] = None,
    edit: Edits = None,
    level: Level = None,
    config: Config = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
    checkpoint: Annotated[
        str | None, typer.Option(help="record each finished chunk in this directory (resume with --resume)")
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="finish the checkpointed run in this directory (its own settings)")
    ] = None,
    out: Annotated[str | None, typer.Option(help="write one row per game to this parquet file")] = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    target_ci: Annotated[
        float | None, typer.Option(help="stop once every win-rate 95% interval is narrower than this")
    ] = None,
) -> None:
    """Play N games of a matchup and print win rates (overall and by seat), the first-seat advantage and game
    length, with 95% intervals. Options given here override the --config file. Ctrl-C stops after the
    current chunk and prints the finished games."""
    from simlab.game.api import parse_matchup
    from simlab.runs.sim import check_out_size
    from simlab.runs.sim import run as run_games

    fmt = output_format(json_out, csv_out)
    json_out = fmt != "table"  # no bar, no notes: stdout holds the document only
    try:
        if resume is not None:
            fixed = {"--matchup": matchup, "-n": n, "--seed": seed, "--max-turns": max_turns, "--first": first}
            given = {
                "--strategy": strategy,
                "--rules": rules,
                "--edit": edit,
                "--config": config,
                "--out": out,
                "--target-ci": target_ci,
                "--checkpoint": checkpoint if checkpoint is None or not same_dir(checkpoint, resume) else None,
            }
            connect = (backend or "local", scheduler, connect_timeout, fallback)
            return _resume(resume, threads, fmt, connect, fixed, given)
        check_output_file(out, "--out", ".parquet")
        check_output_dir(checkpoint, "--checkpoint")
        cfg = experiment_settings(
            config,
            matchup=(matchup, None),
            games=(n, 10000),
            seed=(seed, 0),
            max_turns=(max_turns, DEFAULT_MAX_TURNS),
            threads=(threads, None),
            first=(first, "rotate"),
            strategies=(parse_pairs(strategy, "--strategy"), {}),
            rules=(parse_pairs(rules, "--rules"), {}),
            edits=(parse_edits(edit), ()),
            backend=(backend, "local"),
            scheduler=(scheduler, None),
            level=(level, None),
        )
        if n is None and cfg["experiment"].games is None:
            cfg["games"] = default_games(None, 10000, cfg["level"], cfg["strategies"].values())
        # the --strategy items are this matchup's (each checked to be one of its villains), not the settings'
        settings = config_settings(cfg, None, strategies=False)
        from simlab.studies import workload

        paired = bool(settings.edits) and cfg["first"] == "rotate" and settings.games <= EDIT_PAIRED_MAX
        check_out_size(settings.games, parse_matchup(cfg["matchup"]), out)  # before the plan line
        _check_run(cfg, target_ci)  # every check before the plan: its estimate may measure a rate by playing
        bar = plan(workload.run(cfg["matchup"], settings, cfg["strategies"], paired), settings.threads)
        settings = settings.replace(progress=None if json_out else bar.games)
        change = None
        with (
            backend_for(cfg["backend"], cfg["scheduler"], connect_timeout, fallback),
            bar if not json_out else bar.plan_only(),
        ):
            res = run_games(
                cfg["matchup"],
                settings,
                strategies=cfg["strategies"],
                first=cfg["first"],
                out=out,
                target_ci=target_ci,
                keep_games=paired,
                checkpoint=checkpoint,
            )
            if paired and not res.interrupted:
                from simlab.studies.whatif import edit_change

                change = edit_change(res, settings.replace(progress=None), cfg["strategies"])
        if not json_out:
            console.print(_level_text(res, settings, cfg), highlight=False)
    except USER_ERRORS as exc:
        fail(str(exc))
    print_or_json(res, fmt, change, checkpoint=checkpoint)
    if res.out_error:
        fail(res.out_error)


def _resume(resume: str, threads, fmt: str, connect: tuple, fixed: dict, given: dict) -> None:
    """``run --resume``: finish the checkpointed run with its own settings (the options that would change them
    refused) and print it."""
    from simlab.runs.sim import checkpoint_settings
    from simlab.runs.sim import resume as resume_run

    check_resume_options(resume, fixed, given)
    bar, update = progress_bar(checkpoint_settings(resume)["chunk"])
    shown = fmt == "table"
    with backend_for(*connect), bar if shown else no_bar():
        res = resume_run(resume, threads, progress=update if shown else None, keep_games=False)
    print_or_json(res, fmt)


EDIT_PAIRED_MAX = 2_000_000  # run --edit plays the same games without the edits up to this many (keeps every row)


def _level_text(res, settings, cfg) -> str:
    """The level line of a run; of an edited game or other rules, what it is (the shipped strong-play and top-rung
    values are of the shipped game, so they are not quoted beside an edit or another reading)."""
    from simlab.data.rules import DEFAULT_MAX_TURNS
    from simlab.studies.headline import level_line, shipped_rules

    if shipped_rules(settings):
        return level_line(res.villains, settings.level, cfg["strategies"])
    if not settings.edits:
        rules = [f"{k}={v}" for k, v in settings.variants]
        rules += [f"turn cap {settings.max_turns}"] if settings.max_turns != DEFAULT_MAX_TURNS else []
        return (
            f"{settings.level_name or 'expert'} play under {', '.join(rules)}; the shipped strong-play and top-rung "
            "values are of the default rules, so not quoted"
        )
    edits = ", ".join(str(e) for e in settings.edits)
    if cfg["first"] != "rotate" or settings.games > EDIT_PAIRED_MAX:
        why = "--first rotate only" if cfg["first"] != "rotate" else f"at most {EDIT_PAIRED_MAX:,} games"
        return f"{settings.level_name or 'expert'} play, edited ({edits}); no unedited baseline ({why})"
    return f"{settings.level_name or 'expert'} play, edited ({edits}); the unedited game on the same seeds is below"


def same_dir(a: str, b: str) -> bool:
    """Whether two folder options name the same folder (a name no folder can have, a NUL in it, names none: the
    option's own check refuses it)."""
    if "\0" in a or "\0" in b:
        return False
    return Path(a).resolve() == Path(b).resolve()


def check_resume_options(path: str, settings: dict, others: dict) -> None:
    """``--resume DIR`` plays the checkpoint's own run: a setting given with it must equal the checkpoint's
    (``settings``: option -> value given or None), and ``others`` (options a resumed run cannot take) must not
    be given at all; either is refused with one line rather than silently ignored."""
    from simlab.game.api import parse_matchup
    from simlab.runs.sim import checkpoint_settings

    saved = checkpoint_settings(path)
    theirs = {
        "--matchup": parse_matchup(saved["matchup"]),
        "-n": saved["n_games"],
        "--seed": saved["seed"],
        "--max-turns": saved.get("max_turns"),
        "--first": saved.get("first"),
    }
    for option, value in settings.items():
        if value is None:
            continue
        mine = parse_matchup(value) if option == "--matchup" else value
        if mine != theirs[option]:
            shown = saved["matchup"] if option == "--matchup" else theirs[option]
            raise InputError(
                f"--resume {path!r} finishes the checkpoint's own run: {option} {value} differs from its {shown} "
                f"(drop {option})"
            )
    for option, value in others.items():
        if value:
            raise InputError(
                f"--resume {path!r} finishes the checkpoint's own run with its own settings: drop {option}"
            )


def print_or_json(res, fmt: str, change=None, checkpoint: str | None = None) -> None:
    """The run's tables: on screen, as one JSON document (``json``), or its summary as CSV (``csv``); ``change``:
    an edited run's baseline and paired change (:func:`simlab.studies.whatif.edit_change`), beside it."""
    if fmt == "json":
        print_json({**res.to_doc(), **({"edit_change": change} if change is not None else {})})
    elif fmt == "csv":
        print_csv(res.summary)
    else:
        print_run(res)
        if change is not None:
            from simlab.report.render import edit_change_view

            console.print(edit_change_view(change, res.edits))
    if res.interrupted:
        typer.echo(resume_hint(res, res.checkpoint or checkpoint), err=True)
        raise typer.Exit(res.stop_code or 130)


def resume_hint(res, checkpoint: str | None) -> str:
    """What a stop (Ctrl-C, SIGTERM) left: with a checkpoint, how to finish the run; without, how to make the next
    one resumable."""
    if checkpoint:
        import shlex

        return f"stopped; finish the run with: simlab run --resume {shlex.quote(str(checkpoint))}"
    return (
        f"stopped after {res.n_games:,} games; the summary above covers them. Give --checkpoint DIR to be able to "
        "resume a run (--resume DIR)"
    )


def matrix(
    n: Annotated[int | None, typer.Option("-n", help="games per matchup [default: 10000; 100 at search level]")] = None,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[
        str | None, typer.Option(help="where to write the heatmap [default: reports/matrix-<level>.png]")
    ] = None,
    edit: Edits = None,
    level: Level = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Every 2-player pairing (mirrors included) and the 3-player game, seats rotated: one table (each outcome's
    rate and the first-seat advantage, with 95% intervals) and a heatmap."""
    from simlab.report.plots import plot_matrix

    fmt = output_format(json_out, csv_out)
    res, settings = _matrix(
        n,
        seed,
        strategy,
        rules,
        max_turns,
        threads,
        png,
        edit,
        level,
        backend,
        scheduler,
        fmt,
        "matrix",
        connect_timeout,
        fallback,
    )
    emit(fmt, {"matrix": res.table}, lambda: console.print(matrix_table(res.table, settings)), **_about(settings))
    if fmt == "table" or png:
        png = png or default_png("matrix", settings.level_name or "expert")
        draw = lambda ax: plot_matrix(res.grid(), ax, res.play)  # noqa: E731
        save_plot(png, draw, 6, 5, quiet=fmt != "table", what=f"--png {png!r}")


def _about(settings) -> dict:
    """What a JSON document says of the games its tables come from."""
    return {"games": settings.games, "seed": settings.seed, "play": settings.play_label()}


def _matrix(n, seed, strategy, rules, max_turns, threads, png, edit, level, backend, scheduler, fmt, command, *connect):
    """The matrix of ``matrix`` and ``first-seat`` (their shared options checked), and its run settings."""
    from simlab.studies import workload
    from simlab.studies.matchups import matrix as run_matrix

    check_png(png)
    try:
        settings = run_settings(n, seed, strategy, rules, max_turns, threads, edit, level, None, "the matrix", 10000)
        work = workload.matrix(settings, command)
        bar = plan(work, settings.threads)
        settings = settings.replace(progress=bar.games if fmt == "table" else None)
        with backend_for(backend, scheduler, *connect), bar if fmt == "table" else bar.plan_only():
            return run_matrix(settings=settings), settings
    except USER_ERRORS as exc:
        fail(str(exc))


def first_seat(
    n: Annotated[int | None, typer.Option("-n", help="games per matchup [default: 10000; 100 at search level]")] = None,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[
        str | None, typer.Option(help="where to write the plot [default: reports/first-seat-<level>.png]")
    ] = None,
    edit: Edits = None,
    level: Level = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Does going first pay? The first seat's win rate and its advantage over the other seats (first seat's win
    rate minus their mean), with 95% intervals, in every 2-player pairing (mirrors included) and the 3-player
    game at one level, seats rotated (each villain sits first equally often); a table and a plot."""
    from simlab.report.plots import plot_first_seat
    from simlab.report.render import first_seat_view
    from simlab.studies.matchups import first_seat as first_seat_table

    fmt = output_format(json_out, csv_out)
    res, settings = _matrix(
        n,
        seed,
        strategy,
        rules,
        max_turns,
        threads,
        png,
        edit,
        level,
        backend,
        scheduler,
        fmt,
        "first-seat",
        connect_timeout,
        fallback,
    )
    frame = first_seat_table(res)
    emit(fmt, {"first_seat": frame}, lambda: console.print(first_seat_view(frame, settings)), **_about(settings))
    if fmt == "table" or png:
        png = png or default_png("first-seat", settings.level_name or "expert")
        title = f"first-seat advantage, {res.play} ({settings.games:,} games each)"
        draw = lambda ax: plot_first_seat(frame, ax, title)  # noqa: E731
        save_plot(png, draw, 7, 4, quiet=fmt != "table", what=f"--png {png!r}")


def replay(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    seed: Seed = 0,
    game: Annotated[int, typer.Option(help="index of the game in the run")] = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
) -> None:
    """Print one game of a run as a readable log."""
    from simlab.game.api import parse_matchup
    from simlab.game.replay import replay as replay_game
    from simlab.runs.sim import seat_table

    try:
        villains = parse_matchup(matchup)
        if not 0 <= game < 2**63:
            raise InputError(f"--game must be a game index from 0 to 2**63 - 1, got {game}")
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


def goldfish(
    villain: VillainsOrAll = None,
    n: Annotated[int, typer.Option("-n", help="games per villain and level or strategy")] = 2000,
    seed: Seed = 0,
    level: Annotated[
        list[str] | None,
        typer.Option("--level", help="level to measure at (repeatable): random, novice, expert, tuned, strong, search"),
    ] = None,
    strategy: Annotated[list[str] | None, typer.Option(help="strategy name or TOML path (repeatable)")] = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
) -> None:
    """Each villain alone, nobody Fating it: turns to reach its objective (median, 10th, 90th percentile), at
    each --level and with each --strategy [default: levels novice and expert]."""
    from simlab.studies.ladder import goldfish_table

    fmt = output_format(json_out, csv_out)
    chosen = [*(level or ()), *(strategy or ())] or ["novice", "expert"]
    from simlab.studies import workload

    work = lambda villains: workload.goldfish(villains, chosen, n)  # noqa: E731
    frame = each_villain(
        goldfish_table, villain, n, seed, rules, max_turns, threads, chosen, work=work, bar=fmt == "table"
    )
    show = lambda: console.print(goldfish_view(frame, n, seed, max_turns))  # noqa: E731
    emit(fmt, {"goldfish": frame}, show, games=n, seed=seed, max_turns=max_turns)


def _check_run(cfg: dict, target_ci: float | None) -> None:
    """What ``run`` would refuse only once its games start: the seat order, the strategies, --target-ci."""
    from simlab.game.api import parse_matchup
    from simlab.runs.gameplan import check_strategies
    from simlab.runs.seating import check_first
    from simlab.runs.sim import check_target_ci

    villains = parse_matchup(cfg["matchup"])
    check_first(villains, cfg["first"])
    check_strategies(cfg["strategies"], villains, cfg["matchup"])
    check_target_ci(target_ci)


COMMANDS = {"run": run, "matrix": matrix, "first-seat": first_seat, "replay": replay, "goldfish": goldfish}
