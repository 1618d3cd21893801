"""Figures of README.md and docs/: every number and verdict a page states comes from a shipped artifact.

A page asks for a figure with a placeholder around the text it shows::

    Lady Tremaine wins <!-- fig:eq-value:gaston-vs-lady-tremaine -->76.9%<!-- /fig --> ...

``<!-- fig:KEY -->`` opens it, ``<!-- /fig -->`` closes it, and what lies between is the figure as the shipped
artifacts give it: :func:`fill` rewrites it from :data:`FIGURES` (``simlab docs-figures`` writes the pages, the
docs site's hook fills them when it builds, ``simlab docs-figures --check`` and ``tests/test_figures.py`` fail
when a page states something the artifacts do not hold). A key may carry one argument after a colon (a matchup,
a question). A figure that is a block (a table, a list) is rendered between blank lines.

The artifacts: the shipped report (``reports/balance-report/``: its tables and settings.json), the top rung's
verdicts (``reports/difficulty-top/``: ``simlab difficulty --level learned``), the shipped
equilibria (``reports/equilibrium/``, the second start in ``reports/equilibrium-start/``), the levels
(:mod:`simlab.runs.levels`), the measured test-suite times (``reports/test-times.json``, written by
``benchmarks/time_tests.py``) and the benchmarks of docs/performance.md (``reports/performance/``, written by
``benchmarks/performance_page.py``; most of them read by the generic kinds below).

Any other shipped table or file is read by three generic kinds, whose argument is a source and a template::

    <!-- fig:value:reports/tune/ladder_expert.csv?villain=gaston&level=tuned {rate:%} -->76.0%<!-- /fig -->
    <!-- fig:values:reports/tune/ladder_novice.csv?villain=gaston {level} {rate:%2} -->...<!-- /fig -->
    <!-- fig:table:reports/tune/ladder_expert.csv
    | villain | level | rate | 95% interval |
    |---|---|---|---|
    | {villain:villain} | {level} | {rate:%} | {low:%} - {high:%} |
    -->...<!-- /fig -->

The source is a file's path from the repository root (a ``.csv``, with ``*`` for the rows of every CSV it
matches in path order, or a ``.json`` with ``#a.b`` to start at a part of it: a list is its rows, anything
else one row), then ``?col=value&col!=value`` to keep only the rows
that match (values as the file writes them, ``a|b`` for either, ``%20`` for a space), ``@sort=a,-b`` to order
them (``-``: descending) and ``@by=a,b`` to name the columns a lookup shares (below). ``value`` renders the
template on the one row the source leaves (more or none is an error), ``values`` on each row, joined by
``, ``, and ``table`` (a block) prints the template's lines before its first field once (the header) and the
rest once per row.

A field is ``{column}`` or ``{column:format}`` (a JSON field is a dotted path). ``{column@key=value}`` is that
column in the row of the same file whose ``key`` is ``value`` and which shares this row's text columns (or the
``@by`` ones): a round's column beside another round's. ``{column@FILE?key=value}`` looks in another file the same
way. ``{a - b:format}`` is the difference of two fields. Formats: ``%`` (a share as a percentage, one decimal;
``%0``, ``%2``: digits), ``+%`` (signed), ``pt`` and ``+pt`` (a share in points, ``pt0``...), ``name`` (a villain
as a sentence names it), ``villain`` (as a table heads it: Horned King), ``matchup`` (Gaston vs the Horned King),
``yes`` (a flag as yes or no), ``min`` (seconds as minutes), and any Python format spec (``,``, ``.1f``, ``+.2f``).
A missing value is an empty cell.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from urllib.parse import unquote

import polars as pl

from simlab.data.cards import VILLAIN_KEYS

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "reports" / "balance-report"
EQUILIBRIUM = ROOT / "reports" / "equilibrium"
SECOND_START = ROOT / "reports" / "equilibrium-start"
TEST_TIMES = ROOT / "reports" / "test-times.json"
PERFORMANCE = ROOT / "reports" / "performance"
# the six questions at the top rung: simlab difficulty --level novice --level learned --readings 0 ... --json
TOP_VERDICTS = ROOT / "reports" / "difficulty-top" / "difficulty.json"
PAGES = ("README.md", "docs")  # the pages figures are filled in: README and every page under docs/
EXEMPT: tuple[str, ...] = ()  # pages not filled here
# the opening marker may span lines (a table's template) and is written back as the page has it
FIG = re.compile(
    r"(?P<open><!-- fig:(?P<key>[a-z][a-z0-9-]*)(?::(?P<arg>[^>]*?))?\s*-->)(?P<body>.*?)<!-- /fig -->", re.S
)

# the six verdict questions of README's question table, at strong play: is one villain stronger than another, and
# harder to play, for each pair of villains: (villain_a, villain_b, measure)
QUESTIONS = tuple((a, b, m) for m in ("strength", "skill_gap") for a, b in combinations(VILLAIN_KEYS, 2))


@dataclass(frozen=True)
class Figure:
    """What a key renders (a function of its argument, or of none) and whether it is a block."""

    render: Callable[..., str]
    block: bool = False


class FigureError(ValueError):
    """A placeholder names no figure, or an artifact a figure needs is missing."""


# ---------------------------------------------------------------------------------------------------- artifacts


def _missing(path: Path) -> FigureError:
    where = path.parent
    while not where.is_dir() and where != ROOT:
        where = where.parent
    have = sorted(p.name + ("/" if p.is_dir() else "") for p in where.iterdir() if not p.name.startswith("."))
    return FigureError(
        f"{_rel(path)} is missing: the figures read it; {_rel(where) or '.'}/ holds {', '.join(have) or 'nothing'}"
    )


def _rel(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix() if path != ROOT else ""
    except ValueError:
        return path.as_posix()


@cache
def _csv(path: Path) -> pl.DataFrame:
    if not path.is_file():
        raise _missing(path)
    return pl.read_csv(path)


@cache
def _json(path: Path) -> dict:
    if not path.is_file():
        raise _missing(path)
    return json.loads(path.read_text(encoding="utf-8"))


def clear_cache() -> None:
    """Read the artifacts again on the next figure (after one changed)."""
    _csv.cache_clear()
    _json.cache_clear()


def _pct(x: float, digits: int = 1) -> str:
    return f"{x * 100:.{digits}f}%"


def _interval(rate: float, low: float, high: float) -> str:
    return f"{rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"


def _name(villain: str) -> str:
    from simlab.data.cards import prose_name

    return prose_name(villain)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min"


def _millions(games: int) -> str:
    return f"{games / 1e6:.1f} million games"


def _matchups() -> list[str]:
    return sorted(p.name for p in EQUILIBRIUM.iterdir() if (p / "value.csv").is_file())


# ---------------------------------------------------------------------------------------------------- verdicts


def verdict(question: str, group: str = "strong play") -> str:
    """The shipped report's verdict on ``question`` (as its robust_verdicts.csv words it) for ``group``."""
    t = _csv(REPORT / "robust_verdicts.csv")
    got = t.filter((pl.col("question") == question) & (pl.col("group") == group))
    if got.height != 1:
        raise FigureError(f"the shipped report has no verdict on {question!r} for {group}")
    return got["verdict"][0]


def question_text(a: str, b: str, measure: str) -> str:
    from simlab.studies.difficulty import QUESTIONS as WORDS

    return f"is {_name(a)} {WORDS[measure][0]} than {_name(b)}?"


def top_rung_verdicts() -> tuple[str, dict[str, str]] | None:
    """The top rung's word (``search g6: settled``) and its verdict on each question, as ``simlab difficulty --level
    learned`` words it (:data:`TOP_VERDICTS`), when the shipped report's top rung is settled and that run played the
    learned level as that top (:func:`simlab.studies.generations.top_rung_verdicts`); None otherwise (a top still
    moving is not the verdict a designer reads first)."""
    from simlab.studies.generations import read_rungs
    from simlab.studies.generations import top_rung_verdicts as at_top

    top = REPORT / "skill_trace_top.csv"
    if not top.is_file():
        return None
    word = _csv(top)["top"][0]
    said = at_top(read_rungs(), TOP_VERDICTS)
    if not word.endswith(": settled") or said is None:
        return None
    return word, dict(zip(said["question"], said["verdict"], strict=True))


def verdict_table() -> str:
    """The six questions with the shipped report's verdict at strong play and for new players; the top rung's
    first once it is settled (:func:`top_rung_verdicts`), as the headline reads it first."""
    top = top_rung_verdicts()
    head = ["question", "at strong play", "for new players"]
    if top is not None:
        head.insert(1, f"at the top rung (learned, {top[0].replace(': ', ', ')})")
    rows = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for a, b, m in QUESTIONS:
        q = question_text(a, b, m)
        new = verdict(q, "new players") if _has(q, "new players") else "not measured (no skill gap at novice)"
        cells = [q[0].upper() + q[1:], verdict(q), new]
        if top is not None:
            if q not in top[1]:
                raise FigureError(f"{TOP_VERDICTS.relative_to(ROOT)} has no verdict on {q!r} at the learned level")
            cells.insert(1, top[1][q])
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _has(question: str, group: str) -> bool:
    t = _csv(REPORT / "robust_verdicts.csv")
    return t.filter((pl.col("question") == question) & (pl.col("group") == group)).height == 1


def headline_list() -> str:
    """The shipped report's headline, one line a pairing: strong play, the top rung and new players, each with its
    verdict; the top rung first once it is settled (its column first in the report's table)."""
    t = _csv(REPORT / "headline.csv")
    out = []
    top_first = t.columns[2:3] == ["at the top rung [95%]"]
    for r in t.iter_rows(named=True):
        a, b = r["matchup"].split("-vs-")
        strong = f"{r['at strong play [95%]']} at strong play ({r['at strong play']})"
        top = (
            f"{r['at the top rung [95%]']} at the top rung ({r['at the top rung']})"
            if r.get("at the top rung [95%]")
            else ""
        )
        said = [x for x in ((top, strong) if top_first else (strong, top)) if x]
        out.append(
            f"- {_name(a)} against {_name(b)}: {_name(a)} wins {', '.join(said)} and {r['new players [95%]']} for "
            f"new players ({r['for new players']})"
        )
    return "\n".join(out)


def skill_trace_table() -> str:
    """The shipped report's skill trace: a row per level (the learning generations on top), a column per pairing
    (its first villain's win rate) and per villain of the 3-player game (its share), then the top rung's word."""
    from simlab.report.render import short_name
    from simlab.studies.generations import is_rung, rung_number

    t = _csv(REPORT / "skill_trace.csv")
    columns = list(dict.fromkeys(zip(t["matchup"], t["villain"], strict=True)))

    def label(m: str, v: str) -> str:
        parts = m.split("-vs-")
        return f"3p {short_name(v)}" if len(parts) == 3 else " v ".join(short_name(p) for p in parts)

    by = {(r["matchup"], r["villain"], r["level"]): r for r in t.iter_rows(named=True)}
    lines = ["| level | " + " | ".join(label(m, v) for m, v in columns) + " |", "|---" * (len(columns) + 1) + "|"]
    levels = list(dict.fromkeys(t["level"]))
    generations = sorted((level for level in levels if is_rung(level)), key=rung_number)
    between = generations[1:-1]  # the front door shows the first and the top; the learning page has them all
    for level in (level for level in levels if level not in between):
        cells = [
            _interval(*(by[m, v, level][k] for k in ("rate", "low", "high"))) if (m, v, level) in by else ""
            for m, v in columns
        ]
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    villains = list(dict.fromkeys(v for m, _ in columns for v in m.split("-vs-")))
    key = ", ".join(f"{short_name(v)} {_name(v)}" for v in villains)
    key += "; 3p: the 3-player game" if any(m.count("-vs-") == 2 for m, _ in columns) else ""
    top = REPORT / "skill_trace_top.csv"
    said = f" Top rung {_csv(top)['top'][0]}." if top.is_file() else ""
    if between:
        said += f" Between the first generation and the top: {', '.join(between)}"
        said += " ([learning](docs/studies/learning.md))."
    return "\n".join(lines) + f"\n\n{key}.{said}"


# ---------------------------------------------------------------------------------------------------- the report


def report_size() -> str:
    s = _json(REPORT / "settings.json")
    return f"{sum(s['games_played'].values()):,} games, {_minutes(s['seconds'])}"


def report_readings() -> str:
    s = _json(REPORT / "settings.json")
    return ", ".join(f"`{r}`" for r in s["robust_readings"][1:]) or "none"


def report_levels() -> str:
    return ", ".join(_json(REPORT / "settings.json")["robust_levels"])


def report_difficulty_games() -> str:
    return f"{_json(REPORT / 'settings.json')['difficulty_games']:,}"


# ---------------------------------------------------------------------------------------------------- equilibrium


def _provenances(where: Path) -> list[dict]:
    return [_json(p) for p in sorted(where.glob("*/provenance.json"))]


def equilibrium_run(which: str = "shipped") -> str:
    """``33 min, 2.7 million games`` of the shipped run (``shipped``) or of the second start (``second``)."""
    where = EQUILIBRIUM if which == "shipped" else SECOND_START / "expert"
    ps = _provenances(where)
    if not ps:
        raise FigureError(f"no provenance.json under {where.relative_to(ROOT)}")
    seconds = sum(p["seconds_this_run"] for p in ps)
    games = sum(p["games_this_run"] for p in ps)
    return f"{_minutes(seconds)} and {_millions(games)}"


def equilibrium_options() -> str:
    o = _provenances(EQUILIBRIUM)[0]["options"]
    return (
        f"{o['table_games']:,} games per table entry, best responses by the tuner with {o['budget']:,} games each "
        f"and from the library of earlier equilibria, epsilon {o['epsilon'] * 100:g} points"
    )


def _probe(matchup: str) -> list[float]:
    t = _csv(EQUILIBRIUM / matchup / "search_probe.csv")
    return [float(g) for g in t["gain"]]


def search_gains() -> str:
    """``17 to 55 points``: the search player's gains over the shipped mixtures, smallest to largest."""
    gains = [g for m in _matchups() for g in _probe(m)]
    return f"{min(gains) * 100:.0f} to {max(gains) * 100:.0f} points"


def equilibrium_table() -> str:
    compare = _csv(SECOND_START / "compare.csv")
    values = {m: _csv(EQUILIBRIUM / m / "value.csv").row(0, named=True) for m in _matchups()}
    # the equilibrium's own value games, not the headline's: a sample of its own, so named apart from "at strong play"
    games = sorted({int(v["games"]) for v in values.values()})
    rows = [
        f"| matchup | value at the equilibrium [95%], {' or '.join(f'{g:,}' for g in games)} games "
        "| last gains, each side | start 2 | agree | search player's gain (each side) |",
        "|---|---|---|---|---|---|",
    ]
    for m, v in values.items():
        last = _csv(EQUILIBRIUM / m / "iterations.csv").row(-1, named=True)
        c = compare.filter(pl.col("matchup") == m).row(0, named=True)
        a, b = m.split("-vs-")
        gains = ", ".join(f"{g * 100:+.1f}%" for g in _probe(m))
        rows.append(
            f"| {_name(a)} vs {_name(b)} | {_name(a)} {_interval(v['value'], v['value_low'], v['value_high'])} | "
            f"{last['gain_a'] * 100:+.1f}%, {last['gain_b'] * 100:+.1f}% | {_pct(c['value_2'])} "
            f"({abs(c['difference']) * 100:.1f} apart, {c['allowed'] * 100:.1f} allowed) | "
            f"{'yes' if c['agree'] else 'no'} | {gains} |"
        )
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------------------- fixes

FIX = ROOT / "reports" / "fix"


def fix_summary() -> str:
    """The shipped best fix (``reports/fix/``): its edits, each matchup's first villain before and after, and how
    far it stays from the band."""
    best = _csv(FIX / "fix_best.csv").row(0, named=True)
    rows = _csv(FIX / "fix_matchups.csv").filter(pl.col("rank") == best["rank"])
    moved = []
    for m in dict.fromkeys(rows["matchup"]):
        r = rows.filter(pl.col("matchup") == m)
        r = r.sort("before_distance", descending=True) if m.count("-vs-") > 1 else r
        r = r.row(0, named=True)
        who = _name(r["villain"]) + (" in the 3-player game" if m.count("-vs-") > 1 else "")
        against = "" if m.count("-vs-") > 1 else " against " + _name(m.split("-vs-")[1])
        moved.append(f"{who}{against} from {r['before_text']} to {r['after_text']}")
    worst = rows.sort("after_distance", descending=True).row(0, named=True)
    inside = (
        "brings every matchup into the band"
        if best["in_band"]
        else (
            f"stays {best['distance'] * 100:.1f} share points outside the band ({_name(worst['villain'])} "
            f"{worst['after_text']} in {worst['matchup']})"
        )
    )
    return f"the best, `{best['options']}`, brings " + ", ".join(moved) + f"; it {inside}"


# ---------------------------------------------------------------------------------------------------- levels


def good_play() -> str:
    from simlab.runs.levels import GOOD_PLAY

    return f"`{GOOD_PLAY}`"


def levels_statement() -> str:
    """What "good play" means, and the levels available with the files shipped here."""
    from simlab.runs.levels import GOOD_PLAY, LEVELS, available_levels, strongest_level

    have = available_levels()
    missing = [lv for lv in LEVELS if lv not in have]
    return (
        f"Good play is one level everywhere: `{GOOD_PLAY}` (`simlab.runs.levels.GOOD_PLAY`, "
        f"`good_play_level()`), the level README's questions, the commands' `--help` and every study mean by "
        f'"strong play", always shown beside the skill trace of the levels below it. With the files shipped '
        f"here the levels available are {', '.join(f'`{lv}`' for lv in have)}"
        + (f" (not {', '.join(f'`{lv}`' for lv in missing)}, whose files are not shipped)" if missing else "")
        + f"; the strongest scripted one, what studies are measured at by default, is `{strongest_level()}`."
    )


# ---------------------------------------------------------------------------------------------------- tests


def test_times() -> str:
    """The measured wall times of the two tiers (``reports/test-times.json``), or that they are not measured."""
    if not TEST_TIMES.is_file():
        return "not measured yet (`python benchmarks/time_tests.py` measures them)"
    t = _json(TEST_TIMES)

    def tier(name: str) -> str:
        x = t[name]
        cpu = f", {x['cpu_seconds'] / 60:.1f} min of CPU" if "cpu_seconds" in x else ""
        failed = f", {len(x['failed'])} failed" if x.get("failed") else ""
        return f"{name} tier {x['seconds'] / 60:.1f} min of wall time{cpu} ({x['tests']} tests{failed})"

    return (
        f"{tier('default')}, {tier('slow')}; measured on {t['machine']} (an idle machine needs about the CPU time, "
        "less where a test runs on both cores)"
    )


# ---------------------------------------------------------------------------------------------------- performance


def compile_times(which: str = "cold") -> str:
    """The cold compile (``cold``) or the cached start (``cached``) as ``benchmarks/bench_engine.py`` measured them
    (``reports/performance/engine.json``), or that the recorded run did not (a smoke run skips the cold compile)."""
    if which not in ("cold", "cached"):
        raise FigureError(f"perf-compile takes cold or cached, not {which!r}")
    x = _json(PERFORMANCE / "engine.json")[which]
    if x is None:
        return "not measured in the recorded run (`--skip-cold`)"
    if which == "cached":
        return f"{x['start_s']:.1f} s to the first game"
    return (
        f"{x['start_s']:.1f} s to the first game, {x['parts_s']:.0f} s of compiling over the {x['parts']} parts "
        f"({x['compile_processes']} compile processes); peak {x['compile_peak_mb']:.0f} MB in a compile process, "
        f"{x['playing_peak_mb']:.0f} MB in the playing one"
    )


# ---------------------------------------------------------------------------------------------------- any artifact

_FIELD = re.compile(r"\{([^{}]+)\}")
_SHARE = re.compile(r"(?P<sign>\+?)(?P<kind>%|pt)(?P<digits>\d?)")
FORMATS = ("%", "+%", "pt", "+pt", "name", "villain", "matchup", "yes", "min", "a Python format spec")


@dataclass(frozen=True)
class _Source:
    """The rows a figure reads: a table's (or a JSON part's) rows that match the filters, and all of its rows."""

    where: str
    rows: list[dict]
    every: list[dict]
    by: tuple[str, ...]  # the columns a row of another's lookup (``@``) must share with this row


def _dig(doc, path: str, where: str):
    at = doc
    for i, part in enumerate(path.split(".")):
        if isinstance(at, dict) and part in at:
            at = at[part]
        elif isinstance(at, list) and part.isdigit() and int(part) < len(at):
            at = at[int(part)]
        else:
            done = ".".join(path.split(".")[:i]) or "the top"
            keys = ", ".join(at) if isinstance(at, dict) else f"0 to {len(at) - 1}" if isinstance(at, list) else "none"
            raise FigureError(f"{where} has no {path!r}: at {done} the keys are {keys}")
    return at


def _source(spec: str) -> _Source:
    path, _, query = spec.partition("?")
    path, _, part = path.partition("#")
    file = ROOT / path
    if file.suffix == ".csv":
        if part:
            raise FigureError(f"{path}: #{part} picks a part of a JSON file; a CSV file is its rows")
        files = sorted(ROOT.glob(path)) if "*" in path else [file]
        if not files:
            raise _missing(file)
        t = pl.concat([_csv(f) for f in files], how="diagonal_relaxed")
        every = t.to_dicts()
        text = tuple(c for c, d in t.schema.items() if d == pl.String)
    elif file.suffix == ".json":
        doc = _dig(_json(file), part, path) if part else _json(file)
        every = doc if isinstance(doc, list) else [doc]
        text = ()
    else:
        raise FigureError(f"{path}: a figure reads a .csv or a .json file")
    rows, by = every, text
    for cond in filter(None, query.split("&")):
        if cond.startswith("@by="):
            by = tuple(unquote(c) for c in cond.removeprefix("@by=").split(","))
            continue
        if cond.startswith("@sort="):
            for col in reversed(cond.removeprefix("@sort=").split(",")):
                name = unquote(col.removeprefix("-"))
                for r in rows[:1]:
                    _get(r, name, path)
                rows = sorted(rows, key=lambda r, n=name: _get(r, n, path), reverse=col.startswith("-"))
            continue
        m = re.fullmatch(r"(?P<col>[^=!]+)(?P<op>!?=)(?P<value>.*)", cond)
        if m is None:
            raise FigureError(f"{path}: bad filter {cond!r}; a filter is column=value or column!=value")
        col, value = unquote(m["col"]), unquote(m["value"])
        keep = m["op"] == "="
        if every and not all(_has_field(r, col) for r in every[:1]):
            raise FigureError(f"{path} has no column {col!r}; columns: {', '.join(_columns(every))}")
        before = rows
        rows = [r for r in rows if (_text(_get(r, col, path)) in value.lower().split("|")) == keep]
        if not rows and keep:
            seen = sorted({_text(_get(r, col, path)) for r in before})
            raise FigureError(f"{path}: no row has {col}={value}; {col} is one of {', '.join(seen)}")
    return _Source(path, rows, every, by)


def _columns(rows: list[dict]) -> list[str]:
    return list(rows[0]) if rows else []


def _has_field(row: dict, col: str) -> bool:
    try:
        _get(row, col, "")
    except FigureError:
        return False
    return True


def _get(row: dict, col: str, where: str):
    if col in row:
        return row[col]
    if "." in col:
        return _dig(row, col, where)
    raise FigureError(f"{where} has no column {col!r}; columns: {', '.join(row)}")


def _text(value) -> str:
    """A value as a filter compares it: as the file writes it, in lower case."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).lower()


def _term(src: _Source, row: dict, term: str):
    col, _, at = term.partition("@")
    if not at:
        return _get(row, col, src.where)
    other, _, conds = at.rpartition("?")
    target = _source(other) if other else src
    want = dict(c.split("=", 1) for c in conds.split("&") if c)
    columns = target.every[0] if target.every else {}
    same = [c for c in src.by if c not in want and c in columns]
    found = [
        r
        for r in target.every
        if all(_text(r.get(k)) == v.lower() for k, v in want.items()) and all(r.get(c) == row.get(c) for c in same)
    ]
    if len(found) != 1:
        raise FigureError(
            f"{target.where}: {len(found)} rows have {conds or 'no condition'} and this row's "
            f"{', '.join(same) or 'nothing'}; @ needs exactly one (@by= names the columns to share)"
        )
    return _get(found[0], col, target.where)


def _field(src: _Source, row: dict, inner: str) -> str:
    if _has_field(row, inner.partition("@")[0]) and ":" not in inner.partition("@")[2]:
        expr, spec = inner, ""
    else:
        expr, _, spec = inner.rpartition(":")
        if not expr:
            expr, spec = spec, ""
    if " - " in expr:
        a, b = (_term(src, row, t.strip()) for t in expr.split(" - ", 1))
        value = None if a is None or b is None else a - b
    else:
        value = _term(src, row, expr.strip())
    return _format(value, spec, src.where)


def _format(value, spec: str, where: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if m := _SHARE.fullmatch(spec):
        digits = int(m["digits"] or 1)
        return f"{float(value) * 100:{m['sign']}.{digits}f}" + ("%" if m["kind"] == "%" else "")
    if spec == "name":
        return _name(value)
    if spec == "villain":
        return _name(value).removeprefix("the ")
    if spec == "matchup":
        return " vs ".join(_name(v) for v in str(value).split("-vs-"))
    if spec == "yes":
        return "yes" if value is True or _text(value) in ("true", "1") else "no"
    if spec == "min":
        return _minutes(float(value))
    try:
        return format(value, spec)
    except (TypeError, ValueError):
        raise FigureError(f"{where}: format {spec!r} does not fit {value!r}; formats: {', '.join(FORMATS)}") from None


def _split(arg: str | None) -> tuple[_Source, str]:
    parts = re.split(r"\s", (arg or "").strip(), maxsplit=1)
    if len(parts) != 2 or not parts[1].strip():
        raise FigureError(f"a generic figure is SOURCE TEMPLATE (a file, then what to show of it); got {arg!r}")
    return _source(parts[0]), parts[1].strip()


def _render(src: _Source, row: dict, template: str) -> str:
    return _FIELD.sub(lambda m: _field(src, row, m[1]), template)


def artifact_value(arg: str | None = None) -> str:
    """One row's template (``fig:value``): the source must leave exactly one row."""
    src, template = _split(arg)
    if len(src.rows) != 1:
        raise FigureError(f"{src.where}: {len(src.rows)} rows match, fig:value needs one (fig:values shows many)")
    return _render(src, src.rows[0], template)


def artifact_values(arg: str | None = None) -> str:
    """Every matching row's template, joined by commas (``fig:values``)."""
    src, template = _split(arg)
    return ", ".join(_render(src, r, template) for r in src.rows)


def artifact_table(arg: str | None = None) -> str:
    """A table (``fig:table``): the template's lines before its first field once, the rest once per row."""
    src, template = _split(arg)
    lines = [line.strip() for line in template.splitlines() if line.strip()]
    first = next((i for i, line in enumerate(lines) if _FIELD.search(line)), len(lines))
    head, body = lines[:first], "\n".join(lines[first:])
    return "\n".join(head + [_render(src, r, body) for r in src.rows])


# ---------------------------------------------------------------------------------------------------- filling

FIGURES: dict[str, Figure] = {
    "verdicts": Figure(verdict_table, block=True),
    "verdict": Figure(lambda q: verdict(q)),
    "headline": Figure(headline_list, block=True),
    "report-size": Figure(report_size),
    "report-readings": Figure(report_readings),
    "report-levels": Figure(report_levels),
    "report-difficulty-games": Figure(report_difficulty_games),
    "eq-run": Figure(equilibrium_run),
    "eq-options": Figure(equilibrium_options),
    "eq-table": Figure(equilibrium_table, block=True),
    "search-gains": Figure(search_gains),
    "fix": Figure(fix_summary),
    "good-play": Figure(good_play),
    "levels": Figure(levels_statement),
    "test-times": Figure(test_times),
    "perf-compile": Figure(compile_times),
    "learning": Figure(lambda: learning_summary(), block=True),
    "skill-trace": Figure(skill_trace_table, block=True),
    "value": Figure(artifact_value),
    "values": Figure(artifact_values),
    "table": Figure(artifact_table, block=True),
}


def learning_summary() -> str:
    """The shipped learning run's table per generation, its values and its verdict (reports/learning)."""
    from simlab.studies.expert_iteration import learning_markdown
    from simlab.studies.generations import LEARNING

    return learning_markdown(LEARNING)


def figure(key: str, arg: str | None = None) -> str:
    """The text of figure ``key`` (with its argument) from the artifacts as they are now."""
    fig = FIGURES.get(key)
    if fig is None:
        raise FigureError(f"unknown figure {key!r}; figures: {', '.join(FIGURES)}")
    text = fig.render(arg) if arg is not None else fig.render()
    return f"\n\n{text}\n\n" if fig.block else text


def fill(text: str, strip: bool = False) -> str:
    """``text`` with every placeholder's body rewritten from the artifacts; ``strip``: the markers dropped too
    (what the docs site shows)."""

    def one(m: re.Match) -> str:
        body = figure(m["key"], m["arg"])
        if strip:
            return body
        return f"{m['open']}{body}<!-- /fig -->"

    return FIG.sub(one, text)


def pages(root: Path | None = None) -> list[Path]:
    """README.md and every page under docs/ but the exempt ones (``root``: the repository, default simlab's)."""
    root = root or ROOT
    out = []
    for where in PAGES:
        path = root / where
        out += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return [p for p in out if p.relative_to(root).as_posix() not in EXEMPT]


def stale_pages(root: Path | None = None) -> list[str]:
    """The pages whose figures differ from the artifacts (by path from ``root``)."""
    root = root or ROOT
    return [p.relative_to(root).as_posix() for p in pages(root) if fill(p.read_text("utf-8")) != p.read_text("utf-8")]


def write_figures(root: Path | None = None) -> list[str]:
    """Fill every page's figures from the artifacts; the pages that changed."""
    root = root or ROOT
    changed = []
    for p in pages(root):
        text = p.read_text(encoding="utf-8")
        new = fill(text)
        if new != text:
            p.write_text(new, encoding="utf-8")
            changed.append(p.relative_to(root).as_posix())
    return changed


# ---------------------------------------------------------------------------------------------------- typed figures

TYPED = re.compile(
    r"[+-]?\d+(?:\.\d+)?%"  # a rate or a change
    r"|\[[+-]?\d+(?:\.\d+)?, [+-]?\d+(?:\.\d+)?\]"  # an interval
    r"|\b\d+ of \d+ settings\b"
    r"|\*\*(?:holds|reverses|not significant)\*\*"  # a verdict
    r"|\b\d+(?:\.\d+)? (?:min|minutes|s|seconds|h|hours)\b"  # a time
    r"|\b\d+(?:\.\d+)? million\b"
    r"|\b\d+(?:\.\d+)? (?:points|pts)\b"
)
_NOT_PROSE = re.compile(r"```.*?```|`[^`\n]*`|<!--.*?-->|\]\([^)]*\)", re.S)


def typed_figures(text: str) -> list[str]:
    """The figures and verdicts a page types by hand: every rate, interval, time, point count and bold verdict
    outside the placeholders, code and links."""
    return [f for f in TYPED.findall(_NOT_PROSE.sub(" ", FIG.sub(" ", text))) if f != "95%"]  # 95%: the level
