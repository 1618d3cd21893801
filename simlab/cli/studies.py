"""The balance questions: ``difficulty`` (harder to play, or weaker?), ``leverage`` (how far each uncertain
reading moves each matchup) and ``ladder`` (the skill ladder)."""

from __future__ import annotations

from typing import Annotated

import typer

from simlab.cli.common import (
    BackendName,
    Edits,
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
    fail,
    progress_bar,
    run_settings,
    save_plot,
)
from simlab.data.inputs import check_output_file
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS, InputError
from simlab.report.render import _rate_table, console, leverage_views, print_difficulty


def difficulty(
    villain: Annotated[str | None, typer.Option(help="ask about this villain (with --vs: this pair only)")] = None,
    vs: Annotated[str | None, typer.Option("--vs", help="the villain to compare --villain with")] = None,
    n: Annotated[int, typer.Option("-n", help="games per pairing and setting")] = 2000,
    search_games: Annotated[
        int | None,
        typer.Option("--search-games", help="games per pairing and setting at a search level [default: min(-n, 100)]"),
    ] = None,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    edit: Edits = None,
    level: Annotated[
        list[str] | None,
        typer.Option(
            "--level",
            help="level to measure at, repeatable: random, novice, expert, tuned, search "
            "[default: every level available here but random and search]",
        ),
    ] = None,
    readings: Annotated[
        int,
        typer.Option(
            "--readings",
            help="also measure under the K rule readings with the largest effect in a leverage screen (0: none)",
        ),
    ] = 2,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            help="measure under this reading instead of screening: VARIANT=VALUE or a board edit "
            "(board:LOCATION:OPERATION); join several with ' + ' (repeatable)",
        ),
    ] = None,
    screen_games: Annotated[
        int | None, typer.Option("--screen-games", help="games per matchup and reading in the screen [default: n/2]")
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Is a villain harder to play, or just weaker? Strength, skill gap, goldfish speed and Fate sensitivity
    per villain with 95% intervals at every level and under the rule readings with the largest effect, then a
    verdict per pair and question labelled holds / reverses / not significant across those settings."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.engine.game import check_villain
    from simlab.studies.robust import robust_difficulty

    if screen_games is not None:
        check_games(screen_games)
    check_search_games(search_games)
    bar, update = progress_bar()
    try:
        if vs is not None and villain is None:
            raise InputError("--vs needs --villain: the pair to compare")
        if readings < 0:
            raise InputError(f"--readings must be 0 or more, got {readings}")
        chosen = VILLAIN_KEYS
        if villain is not None:
            check_villain(villain)
            chosen = (villain, check_villain(vs)) if vs is not None else VILLAIN_KEYS
            if vs == villain:
                raise InputError(f"--vs must name a villain other than {villain!r}")
        with backend_for(backend, scheduler), bar:
            res = robust_difficulty(
                chosen,
                level or None,
                reading if reading else readings,
                screen_games=screen_games,
                progress=update,
                settings=run_settings(n, seed, None, rules, max_turns, threads, edit, None),
                search_games=search_games,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    print_difficulty(res, villain, chosen)


def leverage(
    n: Annotated[
        int, typer.Option("-n", help="games per matchup and reading (the same seeds for every reading)")
    ] = 1000,
    seed: Seed = 0,
    level: Annotated[
        str, typer.Option("--level", help="strength every villain plays at: random, novice, expert, tuned")
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
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """How far each uncertain reading moves each matchup: every rule variant's non-default value and each
    plausible board transcription error, played on the same seeds as the shipped reading; each villain's
    win-rate change with a paired 95% interval, largest first."""
    from simlab.report.plots import plot_leverage
    from simlab.studies.leverage import BOARD_CHOICES, leverage_summary
    from simlab.studies.leverage import leverage as run_leverage

    if top < 0:
        fail(f"--top must be 0 or more, got {top}")
    if board not in BOARD_CHOICES:
        fail(f"--board must be one of {', '.join(BOARD_CHOICES)}, got {board!r}")
    check_output_file(out, "--out", (".parquet", ".csv"))
    check_output_file(png, "--png", ".png")
    bar, update = progress_bar()
    try:
        with backend_for(backend, scheduler), bar:
            settings = run_settings(n, seed, None, rules, max_turns, threads, edit, level, update)
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
    for view in leverage_views(t, summary, top, n, seed, level):
        console.print(view)
    if out is not None:
        try:
            t.write_parquet(out) if out.endswith(".parquet") else t.write_csv(out)
        except OSError as exc:
            fail(f"cannot write --out {out!r}: {exc.strerror or exc}; the table is printed above")
        console.print(f"table: {out}")
    if png is not None:
        save_plot(png, lambda ax: plot_leverage(t, ax, title=f"leverage ({level} play)"), 8, 9)


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
) -> None:
    """The skill ladder: each villain's win rate at each level against the same opponents, seats rotated."""
    from simlab.studies.ladder import skill_ladder

    check_search_games(search_games)
    frame = each_villain(
        skill_ladder, villain, n, seed, rules, max_turns, threads, level or None, opponent, search_games=search_games
    )
    table = _rate_table(
        f"skill ladder vs {opponent} opponents (seed {seed})",
        frame,
        ["villain", "level"],
        extra={"step z": "step_z", "min z below": "min_z_below"},
    )
    console.print(table)


COMMANDS = {"difficulty": difficulty, "leverage": leverage, "ladder": ladder}
