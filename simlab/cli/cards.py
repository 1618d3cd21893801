"""Cards and what-ifs: ``cards`` (each card's impact, observed and causal) and ``sweep`` (one card attribute or
rule variant over values, on paired seeds)."""

from __future__ import annotations

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
    VillainStrategies,
    backend_for,
    check_png,
    config_settings,
    default_png,
    emit,
    experiment_settings,
    fail,
    output_format,
    parse_edits,
    parse_pairs,
    plan,
    run_settings,
    save_plot,
)
from simlab.cli.connect import DEFAULT_TIMEOUT, ConnectTimeout, Fallback
from simlab.data.inputs import check_output_file, split_items
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import USER_ERRORS
from simlab.report.render import ablation_view, card_sheet_view, console, observational_view, sweep_view


def cards(
    villain: Annotated[str, typer.Option(help="whose cards")],
    n: Annotated[int, typer.Option("-n", help="games against each other villain (per card, for the ablations)")] = 2000,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    edit: Edits = None,
    causal: Annotated[
        bool, typer.Option("--causal/--no-causal", help="also ablate each card on paired seeds (the causal number)")
    ] = True,
    card: Annotated[list[str] | None, typer.Option("--card", help="ablate only these cards (repeatable)")] = None,
    png: Annotated[str | None, typer.Option(help="write the ranked causal-impact chart here")] = None,
    level: Level = None,
    list_cards: Annotated[
        bool, typer.Option("--list", help="print each card's printed data and the edits allowed, play nothing")
    ] = False,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Card impact. OBSERVATIONAL: the villain's win rate when each card was drawn / played vs not
    (associations, biased by selection). CAUSAL: the same games replayed with the card ablated (never
    played), and the paired change in win rate. With --list: the villain's cards as printed (cost, Strength,
    copies, type, ability) and the --edit each one takes, without playing."""
    from simlab.report.plots import plot_impact
    from simlab.studies import workload
    from simlab.studies.impact import ablation, deck_cards, observational

    fmt = output_format(json_out, csv_out)
    if list_cards:
        return list_villain_cards(villain, fmt)
    check_output_file(png, "--png", ".png")
    try:
        settings = run_settings(n, seed, strategy, rules, max_turns, threads, edit, level)
        if causal:
            deck_cards(villain, card)  # a bad --card is refused before the observational games are played
        bar = plan(workload.cards(villain, card, causal, settings), settings.threads)
        shown = fmt == "table"
        with backend_for(backend, scheduler, connect_timeout, fallback), bar if shown else bar.plan_only():
            frame = observational(villain, settings=settings.replace(progress=bar.games if shown else None))
            if causal:
                progress = (lambda done, total: bar.games(done, total, "ablation")) if shown else None
                effects = ablation(villain, cards=card, settings=settings.replace(progress=progress))
    except USER_ERRORS as exc:
        fail(str(exc))

    play = settings.play_label()
    tables = {"ablation": effects, "observational": frame} if causal else {"observational": frame}

    def show() -> None:
        console.print(observational_view(frame, villain, n, seed, play))
        if causal:
            console.print(ablation_view(effects, villain, play))

    emit(fmt, tables, show, villain=villain, games=n, seed=seed, play=play)
    if causal and png:
        title = f"{villain}: causal card impact, {play}"
        draw = lambda ax: plot_impact(effects, ax, title)  # noqa: E731
        save_plot(png, draw, height=0.3 * effects.height + 1, quiet=fmt != "table")


def list_villain_cards(villain: str, fmt: str = "table") -> None:
    """``simlab cards --villain V --list``: the cards as printed and the edits each takes."""
    from simlab.data.edits import card_sheet
    from simlab.game.api import check_villain

    try:
        rows = card_sheet(check_villain(villain))
    except USER_ERRORS as exc:
        fail(str(exc))
    emit(fmt, {"cards": rows}, lambda: console.print(card_sheet_view(rows, villain)), villain=villain)


def sweep(
    matchup: Annotated[str | None, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")] = None,
    card: Annotated[str | None, typer.Option(help="card whose attribute to vary")] = None,
    attribute: Annotated[str | None, typer.Option(help="cost, strength or copies")] = None,
    rule: Annotated[str | None, typer.Option(help="rule variant to vary instead of a card")] = None,
    values: Annotated[str | None, typer.Option(help="comma-separated values, e.g. 3,4,5,6 (or 3..7)")] = None,
    n: Annotated[int | None, typer.Option("-n", help="games per value [default: 2000]")] = None,
    seed: Annotated[int | None, typer.Option(help="run seed, the same for every value [default: 0]")] = None,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: Annotated[int | None, typer.Option("--max-turns", help="turn cap in rounds")] = None,
    threads: Threads = None,
    edit: Edits = None,
    config: Config = None,
    png: Annotated[
        str | None, typer.Option(help="where to write the plot [default: reports/sweep-<matchup>-<what>-<level>.png]")
    ] = None,
    level: Level = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
    connect_timeout: ConnectTimeout = DEFAULT_TIMEOUT,
    fallback: Fallback = None,
) -> None:
    """Vary one card attribute or rule variant over values on paired seeds: win rate against the value,
    and each value's change from the shipped one with a paired 95% interval."""
    from simlab.report.plots import plot_sweep
    from simlab.studies import workload
    from simlab.studies.whatif import sweep as run_sweep

    fmt = output_format(json_out, csv_out)
    check_png(png)
    try:
        cfg = experiment_settings(
            config,
            matchup=(matchup, None),
            games=(n, 2000),
            seed=(seed, 0),
            max_turns=(max_turns, DEFAULT_MAX_TURNS),
            threads=(threads, None),
            strategies=(parse_pairs(strategy, "--strategy"), {}),
            rules=(parse_pairs(rules, "--rules"), {}),
            edits=(parse_edits(edit), ()),
            backend=(backend, "local"),
            scheduler=(scheduler, None),
            level=(level, None),
        )
        spec = cfg["experiment"].sweep
        card = card if card is not None else spec.get("card")
        attribute = attribute if attribute is not None else spec.get("attribute")
        rule = rule if rule is not None else spec.get("rule")
        vals = parse_values(values) if values is not None else [str(v) for v in spec.get("values", [])]
        settings = config_settings(cfg)
        from simlab.game.api import parse_matchup
        from simlab.studies.whatif import sweep_steps

        parse_matchup(cfg["matchup"])  # every check before the plan: its estimate may measure a rate by playing
        sweep_steps(vals, card, attribute, rule, settings)
        bar = plan(workload.sweep(cfg["matchup"], vals, settings, card is not None), settings.threads)
        settings = settings.replace(progress=bar.games if fmt == "table" else None)
        with (
            backend_for(cfg["backend"], cfg["scheduler"], connect_timeout, fallback),
            bar if fmt == "table" else bar.plan_only(),
        ):
            res = run_sweep(cfg["matchup"], None, vals, card=card, attribute=attribute, rule=rule, settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    about = {"matchup": res.matchup, "what": res.what, "shipped": res.baseline, "games": cfg["games"], "seed": res.seed}
    emit(fmt, {"sweep": res.table}, lambda: console.print(sweep_view(res, cfg["games"])), **about, play=res.play)
    if fmt == "table" or png:
        png = png or default_png("sweep", res.matchup, res.what, settings.level_name or "expert")
        title = f"{res.matchup}: {res.what}, {res.play}"
        save_plot(png, lambda ax: plot_sweep(res.table, ax, title, res.baseline), quiet=fmt != "table")


def parse_values(text: str) -> list[str]:
    """``"3,4,5"`` or ``"3..7"`` -> list of value strings."""
    text = text.strip()
    if ".." in text:
        lo, _, hi = text.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            fail(f"--values {text!r}: a range must look like 3..7")
        if b < a:
            fail(f"--values {text!r}: the range is empty")
        check_sweep_values(b - a + 1, text)
        return [str(v) for v in range(a, b + 1)]
    items = split_items(text, "--values")
    check_sweep_values(len(items), text)
    return items


def check_sweep_values(count: int, text: str) -> None:
    from simlab.studies.whatif import MAX_SWEEP_VALUES

    if count > MAX_SWEEP_VALUES:
        fail(f"--values {text!r} gives {count:,} values, over the limit of {MAX_SWEEP_VALUES:,} points a sweep plots")


COMMANDS = {"cards": cards, "sweep": sweep}
