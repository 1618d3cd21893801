"""Rendering: a study's result frames as rich tables on the console (the CLI prints them; a notebook can too)."""

from __future__ import annotations

import os
import sys

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simlab.data.cards import VILLAIN_KEYS
from simlab.runs.stats import interval_text, pct_interval  # noqa: F401  (re-exported: callers print with them)

# Piped output (a file, CI log) gets wide tables instead of rich's 80-column default that cuts names.
console = Console(width=None if sys.stdout.isatty() or "COLUMNS" in os.environ else 160)


UNFINISHED_FLAG = 0.05  # an unfinished share above this is flagged where it is printed
FIRST_SEAT_TEXT = (
    "first - others: the first seat's win rate minus the other seats' mean (2 players: minus the second seat's)"
)


def short_name(villain: str) -> str:
    """``horned-king`` -> ``HK``: a villain's initials (the tables that must fit 80 columns)."""
    return "".join(w[:1].upper() for w in villain.split("-") if w) or villain


def short_matchup(matchup: str) -> str:
    """``gaston-vs-horned-king`` -> ``G-HK``; the 3-player game of three different villains -> ``3p``."""
    parts = matchup.split("-vs-")
    if len(parts) == 3 and len(set(parts)) == 3:
        return "3p"
    return "-".join(short_name(p) for p in parts)


def short_strategy(name: str) -> str:
    """``tuned-lady-tremaine`` -> ``tuned-LT``: a strategy name with its villains' initials."""
    for villain in sorted(VILLAIN_KEYS, key=len, reverse=True):
        name = name.replace(villain, short_name(villain))
    return name


def short_entry(entry: str) -> str:
    """``gaston #1`` -> ``G #1``; ``unfinished`` stays."""
    name, sep, rest = entry.partition(" ")
    return entry if entry == "unfinished" else short_name(name) + sep + rest


def legend(names) -> str:
    """The key of the short names used: ``G gaston, HK horned-king; 3p: the 3-player game``."""
    villains = sorted({v for m in names for v in m.split("-vs-")})
    text = ", ".join(f"{short_name(v)} {v}" for v in villains)
    three = any(short_matchup(m) == "3p" for m in names)
    return text + ("; 3p: the 3-player game of all three" if three else "")


def unfinished_note(share: float, max_turns: int | None, where: str = "") -> str:
    """A line flagging an unfinished share above :data:`UNFINISHED_FLAG` (empty otherwise)."""
    if share is None or share != share or share <= UNFINISHED_FLAG:
        return ""
    cap = f" in {max_turns} rounds" if max_turns else ""
    return (
        f"note: {share:.1%} of the games{where} did not finish{cap} (more than {UNFINISHED_FLAG:.0%}); they count as "
        "nobody's win, so the win rates sum to less than 100%"
    )


def _table(title: str, columns, rows=(), **options) -> Table:
    """A rich Table titled ``title`` with ``columns`` (names) and ``rows`` (each an iterable of cell strings)."""
    table = Table(title=title, **options)
    for col in columns:
        table.add_column(col)
    for cells in rows:
        table.add_row(*cells)
    return table


def print_run(res) -> None:
    """The tables of a run, with rich."""
    from simlab.runs.sim import entry_names

    title = f"{res.matchup}: {res.n_games:,} games, seed {res.seed}, {res.play or 'expert play'}"
    if res.edits:
        title += "; edits: " + ", ".join(str(e) for e in res.edits)
    if res.interrupted:
        title += " (interrupted: summary of the finished games)"
    if res.stopped_at_target:
        title += " (stopped: every interval narrower than the target)"
    strategies = dict(zip(entry_names(res.villains), res.strategies, strict=True))
    rows = (
        (
            row["outcome"],
            strategies.get(row["outcome"], ""),
            f"{row['count']:,}",
            interval_text(row["rate"], row["low"], row["high"]),
        )
        for row in res.summary.iter_rows(named=True)
    )
    console.print(_table(title, ("outcome", "strategy", "wins", "rate [95% interval]"), rows))
    seats = Table(title="win rate by seat (seat 0 plays first)")
    P = len(res.villains)
    seats.add_column("entry")
    for s in range(P):
        seats.add_column(f"seat {s}")
    by = res.by_seat
    for name in entry_names(res.villains):
        cells = []
        for r in by.filter(pl.col("entry") == name).sort("seat").iter_rows(named=True):
            cells.append(interval_text(r["rate"], r["low"], r["high"]) if r["games"] else "-")
        seats.add_row(name, *cells)
    console.print(seats)
    first = Table(title="seats (whoever sits there)")
    for col in ("seat", "win rate [95% interval]"):
        first.add_column(col)
    for r in res.first_seat.iter_rows(named=True):
        advantage = r["seat"] == "first-seat advantage"
        label = "first - others" if advantage else r["seat"]
        first.add_row(label, interval_text(r["rate"], r["low"], r["high"], "+" if advantage else ""))
    console.print(first)
    console.print(FIRST_SEAT_TEXT, highlight=False)
    console.print(lengths_table(res.lengths, res.tally.max_turns))
    unfinished = res.summary.filter(pl.col("outcome") == "unfinished")
    note = unfinished_note(unfinished["rate"][0] if unfinished.height else None, res.tally.max_turns)
    if note:
        console.print(note, highlight=False)
    console.print(
        f"{res.n_games:,} games in {res.seconds:.2f} s ({res.games_per_second:,.0f} games/s), seed {res.seed}"
        + (f"; per-game rows in {res.out}" if res.out else "")
        + (f"; {res.resumed_games:,} of them read back from the checkpoint" if res.resumed_games else "")
    )


def lengths_table(lengths: pl.DataFrame, max_turns: int | None = None) -> Table:
    """Game length by winner: rounds and the winner's own turns, one row where the two agree (a row that would
    repeat the one before it is not printed twice)."""
    table = Table(title="game length (rounds; own turns: the winner's own turns)")
    for col in ("won by", "counted in", "games", "mean", "median", "10th", "90th"):
        table.add_column(col)
    stats = ("games", "mean", "median", "p10", "p90")
    rows = [r for r in lengths.iter_rows(named=True) if r["games"]]

    def shown(r: dict) -> tuple[str, ...]:
        return (f"{r['games']:,}", f"{r['mean']:.1f}", f"{r['median']:g}", f"{r['p10']:g}", f"{r['p90']:g}")

    def repeats(a: dict | None, b: dict) -> bool:  # the same row to the reader: the same winner and cells
        return a is not None and a["winner"] == b["winner"] and shown(a) == shown(b)

    for i, r in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        if repeats(rows[i - 1] if i else None, r):
            continue  # the same numbers as the row above: printed once
        measure = r["measure"].replace("winner's turns", "own turns")
        if repeats(nxt, r):  # equal as printed ("and": a mean may differ past its one decimal)
            measure = "rounds = turns" if all(nxt[k] == r[k] for k in stats) else "rounds and turns"
        who = r["winner"].replace("all decided games", "decided games")
        if who == "unfinished":
            cap = f"in {max_turns} rounds" if max_turns else "at the cap"
            table.add_row("did not finish", cap, f"{r['games']:,}", "-", "-", "-", "-")
            continue
        table.add_row(who, measure, *shown(r))
    return table


def _rate_table(title: str, frame, label_cols: list[str], extra: dict[str, str] | None = None) -> Table:
    """Rows of ``frame`` as a rich table: labels, games, rate, 95% interval, then ``extra`` float columns."""
    extra = extra or {}
    table = Table(title=title)
    for col in (*label_cols, "games", "rate [95% interval]", *extra):
        table.add_column(col)
    for row in frame.iter_rows(named=True):
        table.add_row(
            *(str(row[c]) for c in label_cols),
            f"{row['games']:,}",
            interval_text(row["rate"], row["low"], row["high"]),
            *("" if row[c] is None or row[c] != row[c] else f"{row[c]:+.1f}" for c in extra.values()),
        )
    return table


def _parameter_rich_table(frame: pl.DataFrame, title: str) -> Table:
    """Rows of :func:`strategies.parameter_table`, a rule between groups; values differing from expert marked *."""
    table = Table(title=title)
    has_value = "value" in frame.columns
    cols = ["group", "name"] + (["value"] if has_value else []) + ["expert", "range", "description"]
    for col in cols:
        table.add_column(col, justify="right" if col in ("value", "expert") else "left")
    rows = frame.to_dicts()
    for i, r in enumerate(rows):
        first = i == 0 or rows[i - 1]["group"] != r["group"]
        last = i == len(rows) - 1 or rows[i + 1]["group"] != r["group"]
        fmt = "{:g}"
        rng = (
            f"{r['low']:g} to {r['high']:g}"
            + (" (whole)" if r["integer"] else "")
            + ("" if r["tunable"] else ", fixed")
        )
        cells = [r["group"] if first else "", r["name"]]
        if has_value:
            cells.append(fmt.format(r["value"]) + ("*" if r["value"] != r["expert"] else ""))
        cells += [fmt.format(r["expert"]), rng, r["description"]]
        table.add_row(*(escape(c) for c in cells), end_section=last)
    return table


def turns_text(estimate, low, high, cap=None) -> str:
    """A median number of turns and its interval; a game not won by the cap is slower than any won, so an infinite
    end reads ``did not finish in N turns`` rather than ``inf``."""
    unfinished = f"did not finish in {cap} turns" if cap else "did not finish"
    if estimate is None or estimate != estimate:
        return "-"
    if estimate == float("inf"):
        return unfinished
    high_text = f"{high:g}" if high != float("inf") else f"> {cap}" if cap else "unfinished"
    return f"{estimate:g} [{low:g}, {high_text}]"


def print_difficulty(res, villain: str | None, chosen, top: pl.DataFrame | None = None) -> None:
    """The measures per villain and setting in two tables that fit 80 columns (short names: a legend under
    them; each reading besides the default numbered R1, R2, ...), the readings measured, and the verdicts (the
    settled top rung's first: ``top``, :func:`simlab.studies.generations.top_rung_verdicts`)."""
    s = res.settings
    readings = [rd for rd in dict.fromkeys(res.table["reading"]) if rd != res.table["reading"][0]]
    number = {rd: f"R{k}" for k, rd in enumerate(readings, 1)}
    est = {(r["level"], r["reading"], r["villain"], r["measure"]): r for r in res.table.iter_rows(named=True)}
    cap = s.get("max_turns")

    def cell(key, m):
        r = est.get((*key, m))
        if r is None:
            return "-"
        if m == "goldfish_turns":
            return turns_text(r["estimate"], r["low"], r["high"], cap)
        return interval_text(r["estimate"], r["low"], r["high"], "" if m == "strength" else "+")

    settings = list(res.table.select("level", "reading").unique(maintain_order=True).iter_rows())
    head = (
        f"difficulty ({s['games']:,} games per pairing and setting"
        + (f", {s['search_games']:,} at search level" if s.get("search_games") else "")
        + f", seed {s['seed']})"
    )
    parts = (
        (
            "strength and skill",
            ("strength [95%]", "skill gap [95%]"),
            ("strength", "skill_gap"),
        ),
        (
            "goldfish and Fate",
            ("goldfish turns", "Fate drop [95%]"),
            ("goldfish_turns", "fate_sensitivity"),
        ),
    )
    for what, columns, measures in parts:
        table = Table(title=f"{head}: {what}")
        for col in ("villain", "setting", *columns):
            table.add_column(col, no_wrap=True)
        for v in chosen:
            for k, (lev, rd) in enumerate(settings):
                label = lev if rd not in number else f"{lev} + {number[rd]}"
                table.add_row(short_name(v) if k == 0 else "", label, *(cell((lev, rd, v), m) for m in measures))
        console.print(table)
    names = ", ".join(f"{short_name(v)} {v}" for v in chosen)
    console.print(
        f"levels {', '.join(s['levels'])}; readings: {', '.join(s['readings'])}. "
        f"{names}. strength: win rate against the field; skill gap: the level's win rate minus novice's; goldfish "
        "turns: median turns to win alone [95%]; Fate drop: the change against Fate-heavy opponents."
        + "".join(f" {n}: {escape(rd)}." for rd, n in number.items()),
        highlight=False,
    )
    source = s.get("readings_from") or "asked for"
    if res.readings.height == 1 and source not in ("none", "asked for"):
        console.print(
            f"[bold]readings tested[/bold] besides the default (from {escape(source)}): none (no reading moved any "
            "matchup significantly)"
        )
    if res.readings.height > 1:
        console.print(f"[bold]readings tested[/bold] besides the default (from {escape(source)}):")
        for r in res.readings.iter_rows(named=True):
            if r["kind"] != "default":
                console.print(f"  - {escape(r['reading'])}: {escape(r['why'])}", highlight=False)
    from simlab.studies.robust import grouped_verdicts

    verdicts = grouped_verdicts(res)
    at_top = top
    if villain is not None:
        about = (pl.col("villain_a") == villain) | (pl.col("villain_b") == villain)
        verdicts = verdicts.filter(about)
        at_top = top.filter(about) if top is not None else None
    if at_top is not None and at_top.height:
        console.print(
            f"[bold]verdicts at the {escape(at_top['group'][0])}[/bold], read first: the learned level alone, "
            f"{int(at_top['games'][0]):,} games per pairing ({escape(at_top['source'][0])}; --level learned plays it "
            "here):"
        )
        for r in at_top.iter_rows(named=True):
            console.print(f"  - {escape(r['question'])} {escape(r['verdict'])}", highlight=False)
    console.print(
        "[bold]verdicts[/bold] by question, at strong play and for new players, each labelled across its own "
        "settings (two-sided tests at 5% at each; holds: significant the same way at every one, reverses: "
        "significant both ways, not significant: otherwise):"
    )
    for r in verdicts.iter_rows(named=True):
        console.print(f"  - {escape(r['question'])} {escape(r['verdict'])}", highlight=False)


def print_headline(res, note: str) -> None:
    """The headline (:mod:`simlab.studies.headline`): one row per matchup (short names), each verdict on a line of
    its own, then the skill trace with a row per level, then ``note``; fits 80 columns."""
    from simlab.studies.headline import top_settled

    band = f"{res.band[0]:.0%}-{res.band[1]:.0%}"
    t = res.table
    rows = []
    for r in t.iter_rows(named=True):
        strong = "" if r["strong_rate"] is None else interval_text(r["strong_rate"], r["strong_low"], r["strong_high"])
        rows.append(
            (
                short_matchup(r["matchup"]),
                strong,
                "" if r["exploitability"] is None else f"{r['exploitability']:.1%}",
                "" if r["search_gain"] is None else f"{r['search_gain']:+.1%}",
                interval_text(r["new_players_rate"], r["new_players_low"], r["new_players_high"]),
            )
        )
    columns = ("matchup", "at strong play [95%]", "exploit.", "search gain", "new players [95%]")
    table = _table(f"headline: is each matchup balanced? (band {band}; the first villain's win rate)", columns, rows)
    for col in table.columns:
        col.no_wrap = col.header != "search gain"
    console.print(table)
    settled = top_settled(res)
    for r in t.iter_rows(named=True):
        strong = f"at strong play {r['strong_verdict']}" if r["strong_rate"] is not None else ""
        top = f"at {r['top_level']} {r['top_verdict']}" if r.get("top_rate") is not None else ""
        said = [x for x in ((top, strong) if settled else (strong, top)) if x]
        line = f"  {short_matchup(r['matchup'])}: {'; '.join([*said, 'for new players ' + r['new_players_verdict']])}"
        console.print(escape(line), highlight=False)
    trace = res.trace
    two = trace.filter(pl.col("matchup").str.count_matches("-vs-") == 1)
    three = trace.filter(pl.col("matchup").str.count_matches("-vs-") == 2)
    matchups = list(dict.fromkeys(two["matchup"]))
    if two.height:
        console.print(
            _trace_table("skill trace: the first villain's win rate by level", two, "matchup", matchups, short_matchup)
        )
    if three.height:
        villains = list(dict.fromkeys(three["villain"]))
        title = "skill trace: each villain's share of the 3-player game by level"
        console.print(_trace_table(title, three, "villain", villains, short_name))
    if res.top:
        console.print(escape(f"top rung {res.top}"), highlight=False)
    shown = list(t["matchup"]) + matchups + list(dict.fromkeys(three["matchup"]))
    console.print(legend(shown) + ".", highlight=False)
    console.print(note, highlight=False)


def _trace_table(title: str, trace: pl.DataFrame, key: str, columns: list[str], short) -> Table:
    """A skill trace with a row per level and a column per ``key`` value (a matchup, or a 3-player game's villain)."""
    by = {(r[key], r["level"]): r for r in trace.iter_rows(named=True)}
    rows = [
        (
            lv,
            *(
                interval_text(by[c, lv]["rate"], by[c, lv]["low"], by[c, lv]["high"]) if (c, lv) in by else ""
                for c in columns
            ),
        )
        for lv in dict.fromkeys(trace["level"])
    ]
    table = _table(title, ["level", *map(short, columns)], rows)
    for col in table.columns:
        col.no_wrap = True
    return table


def _pct_change(r: dict) -> str:
    return interval_text(r["change"], r["change_low"], r["change_high"], "+")


def print_tune(res) -> None:
    """The tables of a tune: parameters (start and tuned), validation, and the one-line verdict."""
    prov = res.provenance
    table = Table(title=f"{res.villain}: tuned parameters ({prov['search_games']:,} search games, seed {prov['seed']})")
    for col in ("parameter", "group", res.start.name, "tuned", "range"):
        table.add_column(col)
    for r in res.params.iter_rows(named=True):
        table.add_row(r["param"], r["group"], f"{r['start']:g}", f"{r['tuned']:g}", f"{r['low']:g} .. {r['high']:g}")
    console.print(table)
    title = (
        f"validation: {res.start.name} (start) and tuned on the same {prov['validation_games']:,} fresh games "
        f"(seed {prov['validation_seed']}, never played while tuning)"
    )
    rows, shown, last = [], [], None
    for r in res.validation.iter_rows(named=True):
        opponent = short_name(r["opponent"]) if r["opponent"] in VILLAIN_KEYS else r["opponent"]
        shown += [r["opponent"]] if r["opponent"] in VILLAIN_KEYS else []
        rows.append(
            (
                "" if r["part"] == last else r["part"],
                opponent,
                short_strategy(r["opponent_strategy"]),
                f"{r['start_rate']:.1%} → {r['rate']:.1%}",
                _pct_change(r),
            )
        )
        last = r["part"]
    columns = ("part", "vs", "plays", "start → tuned", "change [95% paired]")
    console.print(_one_line(_table(title, columns, rows), wrap=("plays",)))
    if shown:
        console.print(legend(shown) + " (the part's weight is in the objective's plays)", highlight=False)
    imp = res.improvement
    verdict = "not significantly different"
    if imp["change_low"] > 0 or imp["change_high"] < 0:
        verdict = "better" if imp["change_low"] > 0 else "worse"
    if res.worse_parts:
        verdict += f", but significantly worse in {', '.join(res.worse_parts)}"
    console.print(
        f"{res.villain}: validated objective (weighted win rate) {imp['rate']:.1%} vs {imp['start_rate']:.1%} for "
        f"{res.start.name}, change {_pct_change(imp)} ({verdict}); {prov['candidates']:,} candidates in "
        f"{prov['generations']} generations, {res.seconds:,.0f} s"
        + (" (interrupted: the best candidate found so far)" if res.interrupted else "")
        + (f"; written to {res.path}" if res.path else ""),
        highlight=False,
    )


def print_tune_all(res, report_dir: str) -> None:
    """Each round's tunes (validated change, adopted or not), the matrix before and after, the files; the tables fit
    80 columns (short names, a legend under them; a tune's parts made worse named under its table)."""
    rows, worse, prev = [], [], None
    tunes = list(res.improvements.iter_rows(named=True))
    for r in tunes:
        who = short_name(r["villain"])
        cells = (short_strategy(r["start"]), f"{r['start_rate']:.1%} → {r['rate']:.1%}", _pct_change(r))
        rows.append(("" if r["round"] == prev else str(r["round"]), who, *cells, "yes" if r["adopted"] else "no"))
        if r.get("worse_parts"):
            worse.append(f"  round {r['round']}, {who}: significantly worse in {r['worse_parts']}")
        prev = r["round"]
    columns = ("round", "villain", "start", "start → tuned", "change [95%]", "adopted")
    title = (
        "iterated best response: each villain re-tuned against the others' current strategies "
        "(start → tuned: its validated objective)"
    )
    console.print(_one_line(_table(title, columns, rows)))
    if worse:
        console.print("\n".join(["not adopted, a part worse:", *worse]), highlight=False)
    first, last = res.grid(0), res.grid()
    villains = list(first["villain"])
    rows = (
        (short_name(a["villain"]), *(f"{a[v]:.1%} -> {b[v]:.1%}" for v in villains))
        for a, b in zip(first.iter_rows(named=True), last.iter_rows(named=True), strict=True)
    )
    title = f"2-player win rate (row vs column): round 0 -> round {res.rounds}"
    console.print(_one_line(_table(title, ["villain", *map(short_name, villains)], rows)))
    console.print(legend([*(r["villain"] for r in tunes), *villains]) + ".", highlight=False)
    if res.interrupted:
        state = "interrupted"
    elif res.converged:
        state = f"converged: round {res.rounds} changed no villain's strategy"
    else:
        state = f"did not converge in {res.rounds} rounds: the last round still changed a strategy"
    files = ", ".join(str(p) for p in res.paths.values())
    console.print(f"{state}; strategies: {files}; trajectory: {report_dir}/trajectory.png", highlight=False)


def print_calibration(res) -> None:
    """The tables of a calibration, with rich; each fits 80 columns (short names, a legend under them), and what is
    the same for every model (the log's own numbers, a coin flip's) is printed once."""
    console.print(escape(res.log.describe()), highlight=False)
    if res.log.columns:
        console.print(escape(res.log.columns), highlight=False)
    pred = res.predictions
    console.print(f"simulated: {pred.n_games:,} games per seat order and model, seed {pred.seed}", highlight=False)
    label = model_labels(list(res.fit["model"]))
    _print_calibration_fit(res, label)
    console.print(_calibration_seats(res, label))
    console.print(_calibration_first_player(res, label))
    if res.lengths.height:
        _print_calibration_lengths(res, label)
    if res.groups.height:
        rows, last = [], None
        for r in _by_model(res.groups, "group", label):
            first = r["group"] != last
            rows.append(
                (
                    escape(r["group"]) if first else "",
                    label[r["model"]],
                    f"{r['games']:,}" if first else "",
                    f"{r['log_lik']:.2f}",
                    f"{r['coin_flip_log_lik']:.2f}" if first else "",
                    f"{r['brier']:.3f}",
                    "yes" if r["best_in_group"] else "",
                )
            )
            last = r["group"]
        columns = ("group", "model", "games", "log-lik", "coin flip", "Brier", "best here")
        console.print(_one_line(_table("fit per group label", columns, rows), wrap=("group",)))
    names = [v for key in res.matchups["seating"] for v in _seating_villains(key)]
    names += [m for m in res.lengths["matchup"] if "-vs-" in m] if res.lengths.height else []
    console.print(legend(names) + ".", highlight=False)


MODEL_NAME_WIDTH = 10  # a calibration model named longer (a level and rule readings) is numbered M1, M2, ...


def model_labels(models: list[str]) -> dict[str, str]:
    """Each calibration model's name in the tables: itself, or ``M1``, ``M2``, ... (best first) when one of them is
    longer than :data:`MODEL_NAME_WIDTH` (a legend then names them)."""
    if all(len(m) <= MODEL_NAME_WIDTH for m in models):
        return {m: m for m in models}
    return {m: f"M{k}" for k, m in enumerate(models, 1)}


def _by_model(frame: pl.DataFrame, key: str, label: dict[str, str]) -> list[dict]:
    """The rows of ``frame`` by ``key`` (in the order of its first rows), each key's models in the fit's order."""
    keys = {k: i for i, k in enumerate(dict.fromkeys(frame[key]))}
    order = {m: i for i, m in enumerate(label)}
    return sorted(frame.iter_rows(named=True), key=lambda r: (keys[r[key]], order.get(r["model"], len(order))))


def _seating_villains(key: str) -> list[str]:
    """The villains of a seat order key (``gaston > {horned-king, lady-tremaine}``)."""
    return [w for w in key.replace("{", " ").replace("}", " ").replace(",", " ").replace(">", " ").split() if w]


def short_seating(key: str) -> str:
    """``gaston > {horned-king, lady-tremaine}`` -> ``G > {HK, LT}``."""
    for v in sorted(set(_seating_villains(key)), key=len, reverse=True):
        key = key.replace(v, short_name(v))
    return key


def _one_line(table: Table, wrap=()) -> Table:
    """``table`` with every column but those named in ``wrap`` kept on one line (they wrap, never cut)."""
    for col in table.columns:
        if col.header in wrap:
            col.overflow = "fold"
        else:
            col.no_wrap = True
    return table


def _print_calibration_fit(res, label: dict[str, str]) -> None:
    """Each model's fit against a coin flip, and the verdicts between the models."""
    from simlab.studies.calibration import DECISIVE_RATIO, ratio_text

    rows = (
        (
            label[r["model"]],
            f"{r['log_lik_gain']:+.2f}",
            f"{r['brier']:.3f}",
            f"{r['brier_skill']:+.1%}",
            "-" if r["log_lr_best"] == 0 else ratio_text(r["log_lr_best"]),
            f"{r['weight']:.3f}",
            "-" if r["games_needed"] is None else f"{r['games_needed']:,}",
        )
        for r in res.fit.iter_rows(named=True)
    )
    first = res.fit.row(0, named=True) if res.fit.height else None
    coin = (
        ""
        if first is None
        else f"; a coin flip: log-lik {first['coin_flip_log_lik']:.2f}, Brier {first['coin_flip_brier']:.3f}"
    )
    games = "" if first is None else f", {first['games']:,} games"
    fit = _table(
        f"fit: each model against a coin flip (best first{games})",
        ("model", "log-lik gain", "Brier", "skill", "LR", "weight", "games to tell"),
        rows,
        caption=f"log-lik gain: over a coin flip's; skill: the Brier score's gain over a coin flip's{coin}. LR: the "
        "best model's likelihood ratio over this one; games to tell: the games a log needs to tell it from the best.",
        caption_justify="left",
    )
    console.print(_one_line(fit))
    numbered = {v: m for m, v in label.items() if v != m}
    if numbered:
        console.print("models: " + "; ".join(f"{v} {escape(m)}" for v, m in numbered.items()) + ".", highlight=False)
    if res.verdicts.height == 0:
        console.print("one model only: nothing to compare it with (its fit against a coin flip is above)")
    for v in res.verdicts["verdict"]:
        console.print(f"  - {escape(v)}", highlight=False)
    console.print(
        f"  A likelihood ratio compares the models with each other, not with the truth: below {DECISIVE_RATIO:g} "
        "a log decides little, and a small log rarely reaches it; both models can be wrong (see the p-values).",
        highlight=False,
    )


def _calibration_seats(res, label: dict[str, str]) -> Table:
    """Observed wins against each model's prediction, per seat order and villain: the log's numbers on the first
    model's row only."""
    models = list(res.fit["model"])
    cells = {(r["model"], r["seating"], r["seat"], r["villain"]): r for r in res.matchups.iter_rows(named=True)}
    first = res.matchups.filter(pl.col("model") == models[0]).sort("matchup", "seating", "seat", nulls_last=True)
    rows, last = [], None
    for r in first.iter_rows(named=True):
        for k, m in enumerate(models):
            c = cells[(m, r["seating"], r["seat"], r["villain"])]
            log = (
                [
                    short_seating(r["seating"]) if r["seating"] != last else "",
                    short_name(r["villain"]),
                    f"{r['games']:,}" if r["seating"] != last else "",
                    f"{r['wins']:,} ({r['observed']:.0%})",
                ]
                if k == 0
                else ["", "", "", ""]
            )
            rows.append([*log, label[m], f"{c['predicted']:.1%} (p {c['p_value']:.2g})"])
        last = r["seating"]
    title = "observed wins vs predicted, per seat order (the first plays first) and villain; exact binomial p"
    columns = ("seat order", "villain", "games", "won", "model", "predicted (p)")
    return _one_line(_table(title, columns, (map(escape, row) for row in rows)))


def _calibration_first_player(res, label: dict[str, str]) -> Table:
    """The first player's win share and advantage in the log, then each model's prediction."""
    rows, by = [], {}
    for r in _by_model(res.first_player, "players", label):
        by.setdefault(r["players"], []).append(r)
    for players, group in by.items():
        r = group[0]
        rows.append(
            (
                players,
                f"log ({r['games']:,})",
                interval_text(r["observed"], r["observed_low"], r["observed_high"]),
                interval_text(r["advantage_observed"], r["advantage_low"], r["advantage_high"], "+"),
                "",
            )
        )
        for r in group:
            rows.append(
                (
                    "",
                    label[r["model"]],
                    f"{r['predicted']:.1%}",
                    f"{r['advantage_predicted']:+.1%}",
                    f"{r['p_value']:.2g}",
                )
            )
    fp = _table(
        "first player: win share and advantage, observed (the log's games) vs predicted",
        ("players", "model", "first seat [95%]", "first - others [95%]", "p"),
        rows,
        caption=f"{FIRST_SEAT_TEXT}.",
        caption_justify="left",
    )
    return _one_line(fp)


def _print_calibration_lengths(res, label: dict[str, str]) -> None:
    rows, last = [], None
    for r in _by_model(res.lengths, "matchup", label):
        first = r["matchup"] != last
        last = r["matchup"]
        name = short_matchup(r["matchup"]) if "-vs-" in r["matchup"] else r["matchup"].replace("all games", "all")
        rows.append(
            (
                name if first else "",
                f"{r['games']:,}" if first else "",
                f"{r['observed_mean']:.1f} / {r['observed_median']:g}" if first else "",
                label[r["model"]],
                f"{r['simulated_mean']:.1f} / {r['simulated_median']:g}, {r['simulated_p10']:g}-{r['simulated_p90']:g}",
                f"{r['mean_pit']:.2f}",
                f"{r['p_value']:.2g}",
            )
        )
    ln = _table(
        "game length in rounds: logged games vs the simulated distribution for the same seat orders",
        ("matchup", "games", "observed", "model", "simulated", "PIT", "p"),
        rows,
        caption="observed: mean / median rounds; simulated: mean / median, 10th-90th percentile. PIT: the mean "
        "probability integral transform, 0.5 if real games are as long as simulated, above 0.5: real games are "
        "longer.",
        caption_justify="left",
    )
    console.print(_one_line(ln))


def matrix_table(table: pl.DataFrame, settings) -> Table:
    """The matchup matrix (:func:`simlab.studies.matchups.matrix`'s table) played with ``settings`` (a RunSettings):
    short names (legend in the caption), what belongs to a matchup on its first row only, an unfinished share
    above :data:`UNFINISHED_FLAG` marked ``!``; fits 80 columns."""
    names = list(dict.fromkeys(table["matchup"]))
    flagged = False
    out = Table(
        title=f"matchup matrix: {settings.games:,} games each, seed {settings.seed}, {settings.play_label()}",
        caption=f"{legend(names)}. rounds: the median number of rounds. {FIRST_SEAT_TEXT}.",
        caption_justify="left",
    )
    for col in ("matchup", "outcome", "rate [95%]", "rounds", "first - others [95%]"):
        out.add_column(col, no_wrap=True)
    last = None
    for r in table.iter_rows(named=True):
        first = r["matchup"] != last
        last = r["matchup"]
        mark = ""
        if r["outcome"] == "unfinished" and r["rate"] > UNFINISHED_FLAG:
            mark, flagged = "!", True
        out.add_row(
            short_matchup(r["matchup"]) if first else "",
            short_entry(r["outcome"]),
            interval_text(r["rate"], r["low"], r["high"]) + mark,
            f"{r['median_rounds']:g}" if first else "",
            interval_text(r["first_seat_advantage"], r["first_seat_low"], r["first_seat_high"], "+") if first else "",
            end_section=False,
        )
    if flagged:
        out.caption += f" {_flag_text(settings.max_turns)}"
    return out


def _flag_text(max_turns) -> str:
    return f"!: more than {UNFINISHED_FLAG:.0%} of the games did not finish in {max_turns} rounds."


def first_seat_view(frame: pl.DataFrame, settings) -> Table:
    """The first seat's edge per matchup (:func:`simlab.studies.matchups.first_seat`) played with ``settings``."""
    rows = (
        (
            short_matchup(r["matchup"]),
            interval_text(r["first_rate"], r["first_low"], r["first_high"]),
            f"{r['fair_rate']:.0%}",
            interval_text(r["advantage"], r["advantage_low"], r["advantage_high"], "+"),
            "yes" if r["advantage_low"] > 0 or r["advantage_high"] < 0 else "no",
            f"{r['unfinished']:.1%}" + ("!" if r["unfinished"] > UNFINISHED_FLAG else ""),
        )
        for r in frame.iter_rows(named=True)
    )
    columns = ("matchup", "first seat [95%]", "even", "first - others [95%]", "sig.", "unfin.")
    title = (
        f"first-seat advantage: {settings.games:,} games each (seats rotated), seed {settings.seed}, "
        f"{settings.play_label()}"
    )
    caption = (
        f"{legend(frame['matchup'])}. even: an equal share (1 / players). {FIRST_SEAT_TEXT}; "
        "sig.: its 95% interval excludes 0."
    )
    if frame.height and (frame["unfinished"] > UNFINISHED_FLAG).any():
        caption += f" {_flag_text(settings.max_turns)}"
    table = _table(title, columns, rows, caption=caption, caption_justify="left")
    for col in table.columns:
        col.no_wrap = True
    return table


def goldfish_view(frame: pl.DataFrame, n: int, seed: int, max_turns: int | None = None) -> Table:
    """Turns to win alone per villain and level or strategy (:func:`simlab.studies.ladder.goldfish_table`), of the
    games won; a villain that won none says it did not finish in ``max_turns`` turns (never ``nan`` or ``inf``)."""

    def turns(x, fmt="g") -> str:
        return "-" if x is None or x != x or x == float("inf") else f"{x:{fmt}}"

    # the strategy column only where it says more than the level; a villain named on its first row
    strategy = any(r["strategy"] != r["level"] for r in frame.iter_rows(named=True))
    rows, last = [], None
    for r in frame.iter_rows(named=True):
        who = r["villain"] if r["villain"] != last else ""
        last = r["villain"]
        cells = [who, r["level"] or "-", *([r["strategy"]] if strategy else []), f"{r['won'] / r['games']:.1%}"]
        if r["won"]:
            cells += [
                turns(r["median_turns"]),
                turns(r["p10_turns"]),
                turns(r["p90_turns"]),
                turns(r["mean_turns"], ".1f"),
            ]
        else:
            cells += ["none won", "-", "-", "-"]
        rows.append(cells)
    columns = ("villain", "level", *(["strategy"] if strategy else []), "won", "median", "10th", "90th", "mean")
    levels = [lv for lv in frame["level"].unique(maintain_order=True) if lv]
    played = f"; levels {', '.join(levels)}" if levels else ""
    title = f"goldfish: turns to win unopposed ({n:,} games each, seed {seed}{played}), of the games won"
    options = {}
    if frame.height and (frame["won"] == 0).any():
        cap = f" in {max_turns} turns" if max_turns else ""
        options = {"caption": f"none won: did not finish{cap} in any game", "caption_justify": "left"}
    return _table(title, columns, rows, **options)


def card_sheet_view(rows: list[dict], villain: str) -> Table:
    """A villain's cards as printed and the edits each takes (:func:`simlab.data.edits.card_sheet`)."""
    cells = (
        (
            escape(r["card"]),
            r["deck"],
            r["type"],
            "-" if r["cost"] is None else str(r["cost"]),
            "-" if r["strength"] is None else str(r["strength"]),
            str(r["copies"]),
            escape(r["text"]),
            ", ".join(r["edits"]),
        )
        for r in rows
    )
    columns = ("card", "deck", "type", "cost", "Strength", "copies", "ability", "--edit CARD:...")
    title = f'{villain}: the cards as printed; change one with --edit "CARD:cost=N" (or strength=N, copies=N, remove)'
    return _table(title, columns, cells, show_lines=True)


def strategies_view(specs, expert: dict) -> Table:
    """Each strategy with its description and the parameters where it differs from ``expert``'s values."""
    table = Table(title="strategies", show_lines=True)
    for col in ("name", "description", "parameters (as expert unless listed)"):
        table.add_column(col)
    for spec in specs:
        if not spec.params:
            changed = "none (plays at random)"
        elif set(spec.params) != set(expert):  # the search player: its own settings
            changed = "search settings: " + ", ".join(f"{k}={v:g}" for k, v in spec.params.items())
        else:
            changed = ", ".join(f"{k}={v:g}" for k, v in spec.params.items() if v != expert[k]) or "as expert"
        desc = spec.description if spec.source == "built-in" else f"{spec.description} (file {spec.source})"
        table.add_row(escape(spec.name), escape(desc), escape(changed))
    return _one_line(table, wrap=("description", "parameters (as expert unless listed)"))


def _pct(x, sign=""):
    return "-" if x is None else f"{x:{sign}.1%}"


def observational_view(frame: pl.DataFrame, villain: str, n: int, seed: int, play: str = "expert play") -> Table:
    """Card impact, observational (:func:`simlab.studies.impact.observational`), played at ``play``: a row for the
    games the card was played in and one for those it was drawn in; fits 80 columns (a long card name wraps)."""
    table = Table(
        title=f"{villain}: card impact, OBSERVATIONAL (selection-biased associations, not effects); "
        f"{n:,} games vs each other villain, seed {seed}, {escape(play)}",
        caption="share: the games the card was played (drawn) in; win if / not: the villain's win rate in those games "
        "and in the others; diff: the first minus the second.",
        caption_justify="left",
    )
    for col in ("card", "", "share", "win if / not", "diff [95%]"):
        table.add_column(col)
    for r in frame.iter_rows(named=True):
        for k, seen in enumerate(("played", "drawn")):
            table.add_row(
                escape(r["card"]) if k == 0 else "",
                seen,
                _pct(r[f"{seen}_share"]),
                f"{_pct(r[f'win_if_{seen}'])} / {_pct(r[f'win_if_not_{seen}'])}",
                interval_text(r[f"{seen}_diff"], r[f"{seen}_diff_low"], r[f"{seen}_diff_high"], "+"),
            )
    return _one_line(table, wrap=("card",))


def ablation_view(effects: pl.DataFrame, villain: str, play: str = "expert play") -> Table:
    """Card impact, causal (:func:`simlab.studies.impact.ablation`), played at ``play``; the win rate with every
    card, the same games for every row, in the title; fits 80 columns (a long card name wraps)."""
    base = effects["rate_with"].unique() if effects.height else []
    with_all = f"; the win rate with every card {_pct(base[0])}" if len(base) == 1 else ""
    table = Table(
        title=f"{villain}: card impact, CAUSAL (ablation on paired seeds: the same {effects['games'][0]:,} games "
        f"with the card never played), {escape(play)}; impact = win rate with the card - without{with_all}",
        caption="changed: the games whose winner changed without the card.",
        caption_justify="left",
    )
    columns = ("card", "deck", "copies", *(["with"] if len(base) != 1 else []), "without", "impact [95% paired]")
    for col in (*columns, "changed"):
        table.add_column(col)
    for r in effects.iter_rows(named=True):
        table.add_row(
            escape(r["card"]),
            r["deck"],
            str(r["copies"]),
            *([_pct(r["rate_with"])] if len(base) != 1 else []),
            _pct(r["rate_without"]),
            interval_text(r["impact"], r["impact_low"], r["impact_high"], "+"),
            f"{r['changed_games']:,}",
        )
    return _one_line(table, wrap=("card",))


def sweep_view(res, games: int) -> Table:
    """A sweep's win rates and paired changes per value (:func:`simlab.studies.whatif.sweep`)."""
    table = Table(
        title=f"{res.matchup}: sweep of {escape(res.what)} (shipped: {escape(res.baseline)}), "
        f"{games:,} games per value, paired seeds (seed {res.seed}), {escape(res.play)}; change: vs the shipped value"
    )
    for col in ("value", "entry", "win rate [95%]", "change [95% paired]", "unfin."):
        table.add_column(col)
    for r in res.table.iter_rows(named=True):
        table.add_row(
            escape(r["value"]),
            r["entry"],
            interval_text(r["rate"], r["low"], r["high"]),
            change_text(r),
            f"{r['unfinished']:.1%}",
        )
    return _one_line(table)


def edit_change_view(change: pl.DataFrame, edits) -> Table:
    """An edited run beside the same games without its edits (:func:`simlab.studies.whatif.edit_change`)."""
    games = change["games"][0] if change.height else 0
    title = f"the edit's effect: the same {games:,} games without and with " + ", ".join(str(e) for e in edits)
    rows = (
        (r["entry"], f"{r['without_edits']:.1%}", f"{r['with_edits']:.1%}", change_text(r))
        for r in change.iter_rows(named=True)
    )
    return _table(escape(title), ("entry", "without edits", "with edits", "change [95% paired]"), rows)


def change_text(r: dict) -> str:
    """A paired change and its interval; exactly ``0 (same games)`` for identical games (the shipped value's own
    row), never an interval around zero."""
    if r["change"] == r["change_low"] == r["change_high"] == 0 and not r.get("changed_games"):
        return "0 (same games)"
    return interval_text(r["change"], r["change_low"], r["change_high"], "+")


def rules_view(rows) -> Table:
    """The rule variants (:func:`simlab.data.rules.variants_table`): each variant's meaning under its name, the
    values on one line; fits 80 columns."""
    cells = ((f"{escape(v)}\n{escape(meaning)}", escape(d), escape(alt)) for v, d, alt, meaning in rows)
    table = _table("rule variants", ("variant and its meaning", "default", "alternatives"), cells, show_lines=True)
    return _one_line(table, wrap=("variant and its meaning",))


def _rate_change(r: dict) -> tuple[str, str]:
    """A leverage row's win rate (default reading -> this one) and its change with the 95% paired interval."""
    return f"{r['base_rate']:.1%} -> {r['rate']:.1%}", interval_text(
        r["change"], r["change_low"], r["change_high"], "+"
    )


def leverage_views(t: pl.DataFrame, summary: pl.DataFrame, top: int, n: int, seed: int, level: str) -> tuple:
    """The leverage table (:func:`simlab.studies.leverage.leverage`): each reading's largest effect, and the largest
    (reading, matchup, villain) rows; fits 80 columns: the readings numbered R1, R2, ... (largest first, listed under
    the tables) and short names (a legend)."""
    from rich.text import Text

    shown, rows = summary.head(top), t.head(top)
    order = list(dict.fromkeys([*shown["setting"], *summary["setting"], *rows["setting"]]))
    number = {rd: f"R{k}" for k, rd in enumerate(order, 1)}
    st = _table(
        f"leverage: {summary.height} readings, {n:,} games per matchup and reading, seed {seed}, {level} play; "
        "each reading's largest effect",
        ("reading", "in", "villain", "win rate", "change [95% paired]", "sig."),
        (
            (
                number[r["setting"]],
                short_matchup(r["largest_in"]),
                short_name(r["villain"]),
                *_rate_change(r),
                f"{r['significant_rows']}/{r['rows']}",
            )
            for r in shown.iter_rows(named=True)
        ),
        caption="in: the matchup of the largest effect; win rate: the shipped reading's -> this one's; sig.: the "
        "reading's rows whose interval excludes 0, of all.",
        caption_justify="left",
    )
    et = _table(
        f"the {min(top, t.height)} largest effects (of {t.height} reading, matchup and villain rows)",
        ("reading", "matchup", "villain", "win rate", "change [95% paired]"),
        (
            (
                number[r["setting"]] if k == 0 or r["setting"] != rows["setting"][k - 1] else "",
                short_matchup(r["matchup"]),
                short_name(r["villain"]),
                *_rate_change(r),
            )
            for k, r in enumerate(rows.iter_rows(named=True))
        ),
    )
    kind = dict(zip(summary["setting"], summary["kind"], strict=True))
    used = [rd for rd in order if rd in set(shown["setting"]) | set(rows["setting"])]
    lines = [f"  {number[rd]} {rd}" + (f" ({kind[rd]})" if rd in kind else "") for rd in used]
    names = [*shown["largest_in"], *rows["matchup"]]
    notes = ["readings:", *lines, legend(names) + "."] if used else []
    return (_one_line(st), _one_line(et), *(Text(line) for line in notes))


def print_strong_play(res, probe=None, files=None) -> None:
    """An equilibrium: the value [95%] and the exploitability first, then both mixtures, each iteration and files;
    the tables fit 80 columns (short names, a legend under them)."""
    a, b = res.villains
    value = interval_text(res.value, res.value_low, res.value_high)
    state = "converged" if res.converged else "not converged"
    console.print(
        f"[bold]{res.matchup} at strong play[/bold]: {a} wins {value} "
        f"({res.value_games:,} fresh games, mixture against mixture); exploitability {res.exploitability:.1%} "
        f"({state}: {res.stopped_by})",
        highlight=False,
    )
    mixtures = list(res.mixtures.iter_rows(named=True))
    rows = [(short_name(r["villain"]), short_strategy(r["strategy"]), f"{r['weight']:.1%}") for r in mixtures]
    console.print(_one_line(_table("equilibrium mixtures", ("villain", "strategy", "weight"), rows)))
    console.print(_iterations_table(res))
    if probe is not None:
        print_probe(probe, key=False)
    named = [v for v in VILLAIN_KEYS if any(v in r["strategy"] for r in mixtures)]  # a strategy's short name
    console.print(legend([res.matchup, *named]) + ".", highlight=False)
    table_games = res.table["games"][0] if res.table.height else 0
    console.print(
        f"payoff table: {res.table.height} entries x {table_games:,} games; {res.games:,} games played in "
        f"{res.seconds:,.0f} s this run (steps already in the checkpoint not counted)",
        highlight=False,
    )
    if files:
        console.print("wrote " + ", ".join(str(p) for p in files.values()), highlight=False)


def _iterations_table(res) -> Table:
    """An equilibrium's iterations, a row per side: the table's value and the exploitability (on the first), the
    side's strategies, its best response's gain [95%] and whether it joined."""
    a, b = res.villains
    rows = []
    for r in res.iterations.iter_rows(named=True):
        joined = (r["joined"] or "").split(", ")
        for v, s in ((a, "a"), (b, "b")):
            first = s == "a"
            rows.append(
                (
                    str(r["iteration"]) if first else "",
                    f"{r['table_value']:.1%}" if first else "",
                    f"{r['exploitability']:.1%}" if first else "",
                    short_name(v),
                    str(r[f"population_{s}"]),
                    interval_text(r[f"gain_{s}"], r[f"gain_{s}_low"], r[f"gain_{s}_high"], "+"),
                    "yes" if v in joined else "no",
                )
            )
    columns = ("iter", "value", "exploit.", "side", "pop.", "BR gain [95%]", "joined")
    caption = (
        "exploit.: the exploitability, both sides' gains (each at least 0) summed; pop.: the side's strategies; "
        "BR gain: its best response's gain on its mixture; joined: the best response joined the side's strategies."
    )
    title = f"{res.matchup}: value and exploitability by iteration ({a}'s score)"
    return _one_line(_table(title, columns, rows, caption=caption, caption_justify="left"))


def print_probe(probe, key: bool = True) -> None:
    """The search probe: each side's search player against the other side's mixture, paired with its own; fits 80
    columns (a side named by short names: a legend under the table, unless ``key`` is False)."""
    rows = []
    for r in probe.iter_rows(named=True):
        others = [v for v in (r.get("matchup") or "").split("-vs-") if v and v != r["villain"]]
        rows.append(
            (
                " vs ".join(short_name(v) for v in [r["villain"], *others[:1]]),
                f"{r['mixture_score']:.1%} → {r['search_score']:.1%}",
                interval_text(r["gain"], r["gain_low"], r["gain_high"], "+"),
                r["verdict"].removesuffix(" at search level"),
            )
        )
    search = probe["search"][0] if "search" in probe.columns and probe.height else "search"
    games = ", ".join(f"{g:,}" for g in dict.fromkeys(probe["games"])) if probe.height else "0"
    title = (
        f"independent probe: each side's search player ({search}) against the other side's mixture, {games} games "
        "a side"
    )
    caption = "mixture → search: the villain's score with its own mixture, then with the search player, same games."
    columns = ("villain", "mixture → search", "gain [95%]", "at search level")
    console.print(_one_line(_table(title, columns, rows, caption=caption, caption_justify="left")))
    if key:
        names = [*(probe["matchup"] if "matchup" in probe.columns else ()), *probe["villain"]]
        console.print(legend(names) + ".", highlight=False)


def print_strong_play_summary(results, seconds: float) -> None:
    """One row per matchup: the first villain's win rate at strong play [95%] and the exploitability; fits 80
    columns (short names, a legend under it)."""
    rows = [
        (
            short_matchup(r.matchup),
            interval_text(r.value, r.value_low, r.value_high),
            f"{r.exploitability:.1%}",
            str(r.iterations.height),
            "yes" if r.converged else "no",
        )
        for r in results
    ]
    columns = ("matchup", "win rate [95%]", "exploitability", "iterations", "converged")
    title = f"strong play: every pairing, the first villain's win rate ({seconds:,.0f} s)"
    console.print(_one_line(_table(title, columns, rows)))
    console.print(legend([r.matchup for r in results]) + ".", highlight=False)


def print_start_robustness(frame) -> None:
    """Two equilibria per matchup from different seed populations: both values, their difference, agreement; the
    starts (long lists of levels) named under the table, so it fits 80 columns."""
    rows = [
        (
            short_matchup(r["matchup"]),
            interval_text(r["value_1"], r["value_1_low"], r["value_1_high"]),
            interval_text(r["value_2"], r["value_2_low"], r["value_2_high"]),
            f"{r['difference']:+.1%}",
            f"{r['allowed']:.1%}",
            "yes" if r["agree"] else "NO",
        )
        for r in frame.iter_rows(named=True)
    ]
    villain = frame["villain"][0] if frame.height else ""
    columns = ("matchup", "value 1", "value 2", "diff", "allowed", "agree")
    title = f"where the search starts: both values (the first villain's score, e.g. {villain}'s)"
    console.print(_one_line(_table(title, columns, rows)))

    def start(r: dict, i: int) -> str:
        return f"{short_strategy(r[f'start_{i}'])} (seed {r[f'seed_{i}']})"

    starts = {(start(r, 1), start(r, 2)) for r in frame.iter_rows(named=True)}
    if len(starts) == 1:
        first, second = next(iter(starts))
        console.print(escape(f"start 1: {first}\nstart 2: {second}"), highlight=False)
    else:
        for r in frame.iter_rows(named=True):
            line = f"{short_matchup(r['matchup'])}: start 1 {start(r, 1)}; start 2 {start(r, 2)}"
            console.print(escape(line), highlight=False)
    console.print(legend(list(frame["matchup"])) + ".", highlight=False)


def print_learning(res) -> None:
    """A learning run (:func:`simlab.studies.expert_iteration.learn`): a table per generation (data, fit quality
    beside the 6-weight model, each villain's paired gain, each matchup's value, CPU s per game), the verdict and
    the probe above the top."""
    from simlab.studies.expert_iteration import probe_players

    gens = res.doc["generations"]
    villains = res.doc["settings"]["villains"]
    values = [(r["matchup"], r["villain"]) for r in gens[0]["play"]["values"]]
    where = escape(str(res.folder))
    fits, gains, two, three = [], [], [], []
    for g in gens:
        k = str(g["generation"])
        fit = {r["model"]: r for r in g.get("fit", {}).get("fit", [])}
        if fit:
            f = g["fit"]
            quality = [f"{fit['learned'][x]:.4f} ({fit['6-weight'][x]:.4f})" for x in ("log_loss", "brier")]
            fits.append((k, f"{f['data_games']:,}", f"{f['positions'] + f['tuned_positions']:,}", *quality))
        accept = g.get("accept", {})
        if accept:
            cells = [interval_text(x["gain"], x["low"], x["high"], "+") if (x := accept["gains"].get(v)) else "-"
                     for v in villains]  # fmt: skip
            climb = accept.get("climb")
            name = f"{k}: {climb['from']} at {climb['budget']}" if climb else k
            gains.append((name, {True: "yes", False: "refused"}[accept["accepted"]], *cells))
        if "play" in g:
            own = {(r["matchup"], r["villain"]): r for r in g["play"]["values"]}
            cells = {key: interval_text(r["value"], r["low"], r["high"]) for key, r in own.items()}
            two.append((k, *(cells.get(key, "-") for key in values if key[0].count("-vs-") == 1)))
            two[-1] += (f"{g['play']['cpu_per_game']:.3f}",)
            three.append((k, *(cells.get(key, "-") for key in values if key[0].count("-vs-") == 2)))
    head = ["gen", "data games", "positions", "log-loss (6-weight)", "Brier (6-weight)"]
    console.print(_one_line(_table(f"expert iteration in {where}: each generation's fit", head, fits)))
    head = ["gen", "verdict", *(f"gain {short_name(v)}" for v in villains)]
    title = "paired against the generation before (a climb: the top it climbs from, at a larger budget)"
    console.print(_one_line(_table(title, head, gains)))
    head = ["gen", *(short_matchup(m) for m, _ in values if m.count("-vs-") == 1), "CPU s"]
    title = "each generation's value on its self-play games (CPU s: a game's)"
    console.print(_one_line(_table(title, head, two)))
    if any(m.count("-vs-") == 2 for m, _ in values):
        head = ["gen", *(f"3p {short_name(v)}" for m, v in values if m.count("-vs-") == 2)]
        console.print(_one_line(_table("the 3-player game's shares", head, three)))
    console.print(legend([m for m, _ in values] + list(villains)) + ".", highlight=False)
    verdict = res.verdict
    console.print(f"top generation {verdict['top']}: [bold]{escape(verdict['verdict'])}[/bold]")
    if verdict.get("reason"):
        console.print(escape(verdict["reason"]))
    if res.probe:
        rows = []
        for what, gains in probe_players(res.probe):
            if "missing" in gains:
                rows.append((what, "-", escape(gains["missing"])))
                continue
            for v, g in gains.items():
                rows.append((what, v, interval_text(g["gain"], g["low"], g["high"], "+")))
        title = f"probe above the top (generation {res.probe['top']}), paired against it"
        console.print(_table(title, ("player", "villain", "gain [95%]"), rows))
        word = "supports" if res.probe["supports_converged"] else "does not support"
        console.print(f"the 4x-budget probe {word} 'converged' (gain at most 3 points for every villain)")
