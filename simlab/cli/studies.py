"""The balance questions: ``difficulty`` (harder to play, or weaker?), ``leverage`` (how far each uncertain
reading moves each matchup) and ``ladder`` (the skill ladder)."""

from __future__ import annotations

from typing import Annotated

import typer

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
    VillainsOrAll,
    backend_for,
    check_games,
    check_search_games,
    each_villain,
    emit,
    fail,
    output_format,
    plan,
    run_settings,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_dir, check_output_file
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS, InputError
from simlab.report.render import _rate_table, console, leverage_views, print_difficulty
from simlab.runs.levels import GOOD_PLAY

REPORT_DIFFICULTY_GAMES = 600  # configs/balance-report.toml [report] difficulty_games (tests/test_one_verdict.py)
REPORT_HEADLINE_GAMES = 2000  # configs/balance-report.toml games: the report's headline (tests/test_one_verdict.py)
DifficultyGames = Annotated[
    int,
    typer.Option(
        "-n",
        help="games per pairing and setting (the default is the shipped report's, so on the same seed the "
        "verdicts are the report's word for word)",
    ),
]
HeadlineGames = Annotated[
    int,
    typer.Option(
        "--headline-games",
        help="games per matchup and level of the headline and its skill trace (the default is the shipped "
        "report's, so on the same seed the headline is the report's)",
    ),
]


def difficulty(
    villain: Annotated[str | None, typer.Option(help="ask about this villain (with --vs: this pair only)")] = None,
    vs: Annotated[str | None, typer.Option("--vs", help="the villain to compare --villain with")] = None,
    n: DifficultyGames = REPORT_DIFFICULTY_GAMES,
    search_games: Annotated[
        int | None,
        typer.Option("--search-games", help="games per pairing and setting at a search level [default: min(-n, 100)]"),
    ] = None,
    headline_games: HeadlineGames = REPORT_HEADLINE_GAMES,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    edit: Edits = None,
    level: Annotated[
        list[str] | None,
        typer.Option(
            "--level",
            help=f"level to measure at, repeatable: random, novice, expert, tuned, apprentice, {GOOD_PLAY}, search, "
            f"learned (good play: {GOOD_PLAY}; learned: the learning run's top, a strong-play reading too) "
            "[default: every scripted level available here but random]",
        ),
    ] = None,
    readings: Annotated[
        int,
        typer.Option(
            "--readings",
            help="also measure under the K readings with the largest effect in the shipped leverage ranking "
            "(configs/leverage/ranking.toml; --rescreen: in a new screen) (0: none)",
        ),
    ] = 2,
    rescreen: Annotated[
        bool,
        typer.Option(
            "--rescreen",
            help="pick the readings by a new leverage screen here instead of the shipped ranking (says so, and "
            "prints the readings it tested)",
        ),
    ] = False,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            help="measure under this reading instead of screening: VARIANT=VALUE or a board edit "
            "(board:LOCATION:OPERATION); join several with ' + ' (repeatable)",
        ),
    ] = None,
    screen_games: Annotated[
        int | None,
        typer.Option(
            "--screen-games", help="with --rescreen: games per matchup and reading in the screen [default: n/2]"
        ),
    ] = None,
    band: Annotated[
        str, typer.Option("--band", help="the headline's balance band in percent: LOW-HIGH, holding 50")
    ] = "45-55",
    plots: Annotated[
        str | None, typer.Option("--plots", help="write each pairing's skill-trace plot to this directory")
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Is a villain harder to play, or just weaker? First the headline, as the shipped report's: each pairing's
    win rate [95%] at the settled top rung of the learning run, at strong play (good play: the strong level) and for
    new players with a verdict, and its skill trace by level (the search level only with --search-games or --level
    search). The settled top rung's verdicts are read first too. Then strength, skill gap, goldfish speed and Fate
    sensitivity per villain with 95% intervals at every level and under the readings with the largest effect (the
    shipped leverage ranking unless --rescreen), and a verdict per pair and question labelled holds / reverses /
    not significant across the settings of that question (strong play; new players)."""
    from simlab.runs.levels import SEARCH_GAMES
    from simlab.studies import workload
    from simlab.studies.robust import robust_difficulty

    fmt = output_format(json_out, csv_out)
    if screen_games is not None:
        check_games(screen_games, "--screen-games")
    check_games(headline_games, "--headline-games")
    check_search_games(search_games)
    try:
        chosen = _checked(villain, vs, readings, level, reading, rescreen, screen_games)
        check_output_dir(plots, "--plots")  # a folder that can take the plots (not a file), before any game
        band_ = _band(band)
        trace_search = search_games or (min(n, SEARCH_GAMES) if level and "search" in level else 0)
        settings = run_settings(n, seed, None, rules, max_turns, threads, edit, None)
        head_settings = settings.replace(games=headline_games)
        work = workload.difficulty(
            chosen,
            level,
            reading or readings,
            settings,
            screen_games,
            search_games,
            trace_search,
            rescreen,
            headline_games,
        )
        bar = plan(work, head_settings.threads)
        shown = fmt == "table"
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if shown else bar.plan_only():
            head_settings = head_settings.replace(progress=bar.games if shown else None)
            head, note = _headline(chosen, band_, trace_search, head_settings, plots, fmt)
            if shown:
                _say_readings(readings, reading, rescreen, screen_games or max(n // 2, 1))
            res = robust_difficulty(
                chosen,
                level or None,
                reading if reading else readings,
                screen_games=screen_games,
                progress=bar.games if shown else None,
                settings=settings,
                search_games=search_games,
                rescreen=rescreen,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    _emit_difficulty(fmt, res, head, note, villain, chosen)


def _emit_difficulty(fmt: str, res, head, note: str, villain, chosen) -> None:
    """The headline and the verdicts, as tables, one JSON document or the verdicts as CSV; the settled top rung's
    verdicts first where the headline's top is settled and this run did not play the learned level itself."""
    from simlab.studies.robust import grouped_verdicts

    tables = {
        "verdicts": grouped_verdicts(res),
        "measures": res.table,
        "readings": res.readings,
        "headline": head.table,
        "skill_trace": head.trace,
    }
    top = _top_verdicts(res, head, chosen)
    if top is not None:  # after the verdicts: --csv prints the first table, the verdicts as this run found them
        tables = {"verdicts": tables.pop("verdicts"), "top_rung_verdicts": top} | tables

    def show() -> None:
        from simlab.report.render import print_headline

        print_headline(head, note)
        print_difficulty(res, villain, chosen, top)

    emit(fmt, tables, show, settings=res.settings, headline_note=note)


def _top_verdicts(res, head, chosen):
    """The shipped top rung's verdicts on the pairs among ``chosen`` once the headline's top is settled; None when
    this run played the learned level (its own verdicts say it) or there are none to read."""
    import polars as pl

    from simlab.runs.levels import LEARNED
    from simlab.studies.generations import read_rungs, top_rung_verdicts
    from simlab.studies.headline import top_settled

    if LEARNED in res.settings["levels"] or not top_settled(head):
        return None
    top = top_rung_verdicts(read_rungs())
    if top is None:
        return None
    top = top.filter(pl.col("villain_a").is_in(list(chosen)) & pl.col("villain_b").is_in(list(chosen)))
    return top if top.height else None


def _checked(villain, vs, readings, level, reading, rescreen, screen_games) -> tuple[str, ...]:
    """The villains ``difficulty`` compares, once its options are checked (before the headline plays a game)."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.game.api import check_villain
    from simlab.runs.levels import check_level
    from simlab.studies.leverage import parse_perturbation

    if vs is not None and villain is None:
        raise InputError("--vs needs --villain: the pair to compare")
    if readings < 0:
        raise InputError(f"--readings must be 0 or more, got {readings}")
    if screen_games is not None and not rescreen:
        raise InputError("--screen-games sizes a new leverage screen: give it with --rescreen")
    if rescreen and reading:
        raise InputError("--rescreen picks readings by a screen and --reading names them: give one of the two")
    chosen = VILLAIN_KEYS
    if villain is not None:
        check_villain(villain)
        chosen = (villain, check_villain(vs)) if vs is not None else VILLAIN_KEYS
        if vs == villain:
            raise InputError(f"--vs must name a villain other than {villain!r}")
    for lv in level or ():
        check_level(lv)  # before the headline plays any game
    for text in reading or ():
        parse_perturbation(text)  # likewise
    return chosen


def _say_readings(readings: int, reading, rescreen: bool, screen_games: int) -> None:
    """One line before the verdicts' games: which readings they test and where those come from."""
    if reading or not readings:
        return
    if rescreen:
        console.print(
            f"re-screening: the {readings} readings with the largest effect in a new leverage screen ({screen_games:,} "
            "games per matchup and reading), not the shipped ranking; the readings it tested are printed below",
            highlight=False,
        )
        return
    from simlab.studies.ranking import read_ranking

    ranking = read_ranking()
    console.print(
        f"readings: {', '.join(ranking.top(readings))}, the {readings} largest in {ranking.source_line()}",
        highlight=False,
    )


def _band(text: str) -> tuple[float, float]:
    from simlab.studies.headline import check_band

    low, sep, high = text.partition("-")
    try:
        return check_band((float(low) / 100, float(high) / 100))
    except ValueError:
        raise InputError(f"--band must be LOW-HIGH in percent such as 45-55, got {text!r}") from None


def _headline(villains, band, search_games: int, settings, plots: str | None, fmt: str = "table"):
    """Play the headline of the pairings among ``villains`` and write a skill-trace plot per pairing (quietly unless
    ``fmt`` is table); returns the headline and its note."""
    from simlab.report.plots import plot_skill_trace
    from simlab.studies.equilibrium import pairings
    from simlab.studies.generations import rungs_note
    from simlab.studies.headline import TRACE_LEVELS, headline, shipped_rungs, strong_note

    matchups = [m for m in pairings() if set(m.split("-vs-")) <= set(villains)]
    three = len(set(villains)) == 3
    rungs = shipped_rungs(settings)
    levels = TRACE_LEVELS if search_games else tuple(lv for lv in TRACE_LEVELS if lv != "search")
    res = headline(matchups, band, levels, search_games or 1, settings=settings, three_player=three, learning=True)
    if rungs is not None:
        search = rungs_note(rungs)
    elif search_games:
        search = f"the search level on {min(search_games, settings.games):,} games"
    else:
        search = "the search level left out (--search-games N adds it)"
    drawn = f"skill-trace plots in {plots}/" if plots else "--plots DIR draws each skill trace"
    note = f"{strong_note(res)} {settings.games:,} games per matchup and level; {search}; {drawn}."
    for m in dict.fromkeys(res.trace["matchup"]) if plots else ():
        trace = res.trace.filter(res.trace["matchup"] == m)
        if trace.height:
            draw = lambda ax, t=trace: plot_skill_trace(t, ax, band)  # noqa: E731
            save_plot(f"{plots}/skill_trace_{m}.png", draw, 7, 3.4, quiet=True)  # the note names the folder
    return res, note


def leverage(
    n: Annotated[
        int, typer.Option("-n", help="games per matchup and reading (the same seeds for every reading)")
    ] = 1000,
    seed: Seed = 0,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help=f"strength every villain plays at: random, novice, expert, tuned, {GOOD_PLAY} or another level (the "
            f"shipped ranking was made at {GOOD_PLAY})",
        ),
    ] = "expert",
    matchup: Annotated[
        list[str] | None,
        typer.Option(
            "--matchup", "-m", help="matchup to measure (repeatable) [default: every pairing and the 3-player game]"
        ),
    ] = None,
    board: Annotated[
        str, typer.Option(help="board perturbations: catalogue (plausible transcription errors) or none")
    ] = "catalogue",
    no_rules: Annotated[bool, typer.Option("--no-rules", help="leave out the rule variants")] = False,
    perturb: Annotated[
        list[str] | None,
        typer.Option(
            "--perturb",
            help="another reading to measure: VARIANT=VALUE or an edit (board:LOCATION:OPERATION, CARD:ATTRIBUTE="
            "VALUE); join several with ' + ' (repeatable)",
        ),
    ] = None,
    rules: Rules = None,
    edit: Edits = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    top: Annotated[int, typer.Option(help="rows of the effect table to print (the whole table goes to --out)")] = 30,
    out: Annotated[str | None, typer.Option(help="write the whole table to this .parquet or .csv file")] = None,
    png: Annotated[str | None, typer.Option(help="plot the largest effects to this PNG file")] = None,
    save_ranking: Annotated[
        str | None,
        typer.Option(
            "--save-ranking",
            help="write the ranking of the significant readings, with this run's provenance, to this .toml file "
            "(configs/leverage/ranking.toml is the one difficulty and report read)",
        ),
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """How far each uncertain reading moves each matchup: every rule variant's non-default value and each
    plausible board transcription error, played on the same seeds as the shipped reading; each villain's
    win-rate change with a paired 95% interval, largest first."""
    from simlab.report.plots import plot_leverage
    from simlab.studies import workload
    from simlab.studies.leverage import BOARD_CHOICES, leverage_summary
    from simlab.studies.leverage import leverage as run_leverage

    fmt = output_format(json_out, csv_out)
    if top < 0:
        fail(f"--top must be 0 or more, got {top}")
    if board not in BOARD_CHOICES:
        fail(f"--board must be one of {', '.join(BOARD_CHOICES)}, got {board!r}")
    check_output_file(out, "--out", (".parquet", ".csv"))
    check_output_file(png, "--png", ".png")
    check_output_file(save_ranking, "--save-ranking", ".toml")
    try:
        settings = run_settings(n, seed, None, rules, max_turns, threads, edit, level)
        bar = plan(workload.leverage(not no_rules, board, perturb or (), matchup or None, settings), settings.threads)
        settings = settings.replace(progress=bar.games if fmt == "table" else None)
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if fmt == "table" else bar.plan_only():
            res = run_leverage(
                rules=not no_rules,
                board=board,
                perturbations=perturb or (),
                matchups=matchup or None,
                settings=settings,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    t = res.table
    summary = leverage_summary(t)

    def show() -> None:
        for view in leverage_views(t, summary, top, n, seed, level):
            console.print(view)

    emit(fmt, {"effects": t, "readings": summary}, show, games=n, seed=seed, level=level)
    if out is not None:
        from simlab.data import durable

        try:
            durable.write_with(out, t.write_parquet if out.endswith(".parquet") else t.write_csv, "--out")
        except USER_ERRORS as exc:
            fail(f"{exc}; the table is printed above")
        if fmt == "table":
            console.print(f"table: {out}")
    if png is not None:
        save_plot(png, lambda ax: plot_leverage(t, ax, title=f"leverage ({level} play)"), 8, 9, quiet=fmt != "table")
    if save_ranking is not None:
        _save_ranking(res, save_ranking, board, quiet=fmt != "table")


def _save_ranking(res, path: str, board: str, quiet: bool = False) -> None:
    import datetime as dt
    import shlex
    import sys

    from simlab.runs.backend import source_commit
    from simlab.studies.ranking import write_ranking

    provenance = {
        "command": shlex.join(["simlab", *sys.argv[1:]]),
        "commit": source_commit() or "unknown",
        "seed": res.settings["seed"],
        "games": res.settings["games"],
        "level": res.settings["level"],
        "board": board,
        "source": "the leverage table of this command",
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    try:
        write_ranking(res.table, provenance, path)
    except OSError as exc:
        fail(f"cannot write --save-ranking {path!r}: {exc.strerror or exc}; the table is printed above")
    if not quiet:
        console.print(f"ranking: {path}", highlight=False)


def ladder(
    villain: VillainsOrAll = None,
    level: Annotated[
        list[str] | None,
        typer.Option(
            help="levels (or strategies) to rank, repeatable [default: every scripted level available here; "
            "--level search adds the search player's rung]"
        ),
    ] = None,
    opponent: Annotated[str, typer.Option(help="level or strategy of every opponent")] = "novice",
    n: Annotated[int, typer.Option("-n", help="games per level and opponent villain")] = 2000,
    search_games: Annotated[
        int | None,
        typer.Option("--search-games", help="games per opponent villain at a search level [default: min(-n, 100)]"),
    ] = None,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
) -> None:
    """The skill ladder: each villain's win rate at each level against the same opponents, seats rotated."""
    from simlab.studies.ladder import skill_ladder

    fmt = output_format(json_out, csv_out)
    check_search_games(search_games)
    from simlab.studies import workload

    work = lambda villains: workload.ladder(villains, level, n, search_games, opponent)  # noqa: E731
    frame = each_villain(
        skill_ladder,
        villain,
        n,
        seed,
        rules,
        max_turns,
        threads,
        level or None,
        opponent,
        search_games=search_games,
        work=work,
        bar=fmt == "table",
    )
    table = _rate_table(
        f"skill ladder vs {opponent} opponents (seed {seed})",
        frame,
        ["villain", "level"],
        extra={"step z": "step_z", "min z below": "min_z_below"},
    )
    emit(fmt, {"ladder": frame}, lambda: console.print(table), opponent=opponent, games=n, seed=seed)


COMMANDS = {"difficulty": difficulty, "leverage": leverage, "ladder": ladder}
