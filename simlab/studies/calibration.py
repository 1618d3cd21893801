"""Calibrate against real play: compare simulated predictions with a log of real games.

A log has one row per real game: the villains (in seat order, or unordered with the first player named), the
winner, and optionally the rounds played and a group or event label. For every strategy level and rule
reading asked for (a *model*), simlab plays the log's matchups in the log's seat orders and predicts each
game's winner; the log then scores every model:

* per matchup and seat: the observed wins against the predicted probability, with an exact binomial p-value;
* the first player's advantage, observed and predicted (exact Poisson-binomial p-value);
* log-likelihood and Brier score, each against a coin flip (every seated villain equally likely);
* which level and which readings fit best: the likelihood ratio of the best model against the runner-up,
  called decided at 20 or more (Kass and Raftery's "strong" evidence), and otherwise the number of games a
  log would need for an 80% chance of reaching 20 if the best model were right;
* a calibration table (binned predicted probability against observed frequency, Wilson 95% intervals);
* when rounds are logged: each game's rounds against the simulated distribution for its seat order.

The models are fully specified (nothing is fitted to the log), so a likelihood ratio is read directly as
evidence. A simulated game that reaches the turn cap has no winner, while a real game always has one, so the
predictions are conditioned on a finished game: predicted probability = (wins + 1/2) / (finished games + P/2)
for P seats, which never reaches 0 or 1 (one surprising real game costs a finite log-likelihood).

``read_log`` reads a log, ``predict`` simulates the models, ``evaluate`` scores a log against predictions and
``calibrate`` does all three; every table is a polars frame.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS, villain_key
from simlab.data.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS, rules_array
from simlab.errors import InputError
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import Z95, wilson

DEFAULT_GAMES = 2000  # simulated games per seat order and model
DECISIVE_RATIO = 20.0  # a likelihood ratio this large decides between two models (Kass & Raftery: strong)
POWER = 0.8  # chance of reaching DECISIVE_RATIO that "games needed" asks for
Z_POWER = 0.8416212335729143  # standard normal quantile of POWER
CALIBRATION_BINS = 10
LOG_COLUMNS = "villains (or villain_a, villain_b, ... or seat_1, seat_2, ...), winner (optional: first, rounds, group)"
_SPLIT = re.compile(r"\s*(?:;|,|\||/|-vs-|\s+vs\.?\s+)\s*", re.IGNORECASE)


# ============================================================================ reading a log


@dataclass
class GameLog:
    """A log of real games: the usable ones, and every row that was left out with the reason."""

    games: pl.DataFrame  # one row per usable game (see read_log)
    skipped: pl.DataFrame  # line, kind (outside the box / unplayable / malformed), reason, villains
    source: str
    rows: int  # data rows read
    unit: str = "line"  # how rows are numbered: "line" (CSV) or "row" (parquet, frames)
    columns: str = ""  # one line: the columns found and how each was read (LogLayout.describe)

    def orders(self) -> list[tuple[str, ...]]:
        """Every seat order (seat 0 first) a usable game may have been played in."""
        out = []
        games = self.games.select("villains", "ordered", "first_known").unique(maintain_order=True)
        for villains, ordered, first_known in games.iter_rows():
            for order in compatible_orders(tuple(villains), ordered, first_known):
                if order not in out:
                    out.append(order)
        return out

    def outside_box(self) -> pl.DataFrame:
        """Villains not in this box, with the number of skipped games each appeared in."""
        rows = self.skipped.filter(pl.col("kind") == "outside the box")
        counts = Counter(itertools.chain.from_iterable(r.split(", ") for r in rows["unknown"].to_list()))
        return pl.DataFrame(
            {"villain": list(counts), "games": list(counts.values())}, schema={"villain": pl.String, "games": pl.Int64}
        ).sort("games", "villain", descending=[True, False])

    def describe(self) -> str:
        """One paragraph: rows read, games usable, what was skipped and why (malformed rows by line)."""
        g = self.games
        by_players = ", ".join(f"{n} {p}-player" for p, n in sorted(Counter(g["players"].to_list()).items()))
        text = f"{self.source}: {self.rows} rows, {g.height} usable games" + (f" ({by_players})" if g.height else "")
        if g.height and g["rounds"].null_count() < g.height:
            text += f", {g.height - g['rounds'].null_count()} with rounds"
        parts = []
        outside = self.outside_box()
        if outside.height:
            n = self.skipped.filter(pl.col("kind") == "outside the box").height
            names = ", ".join(f"{v} {k}" for v, k in outside.iter_rows())
            parts.append(f"{n} with villains outside this box ({names})")
        unplayable = self.skipped.filter(pl.col("kind") == "unplayable")
        if unplayable.height:
            parts.append(f"{unplayable.height} that simlab cannot play ({unplayable['reason'][0]})")
        bad = self.skipped.filter(pl.col("kind") == "malformed")
        if bad.height:
            shown = "; ".join(
                f"{self.unit} {line}: {why}" for line, why in bad.select("line", "reason").head(10).rows()
            )
            more = f"; and {bad.height - 10} more" if bad.height > 10 else ""
            parts.append(f"{bad.height} malformed ({shown}{more})")
        return text + (("; skipped " + "; ".join(parts)) if parts else "")


def compatible_orders(villains: tuple[str, ...], ordered: bool, first_known: bool = True) -> list[tuple[str, ...]]:
    """The seat orders a logged game may have had: its own, (first player named, 3 players) the first player
    followed by the others in either order, or (nobody noted who went first) every order of its villains."""
    if not first_known:
        return list(itertools.permutations(villains))
    if ordered or len(villains) < 3:
        return [villains]
    first, rest = villains[0], villains[1:]
    return [(first, *p) for p in itertools.permutations(rest)]


def seating_key(villains: Sequence[str], ordered: bool, first_known: bool = True) -> str:
    """``"gaston > horned-king"`` (seat order, seat 0 first), ``"gaston > {horned-king, lady-tremaine}"``
    when only the first player is known, or ``"{gaston, horned-king}"`` when the seat order is unknown."""
    if not first_known:
        return "{" + ", ".join(villains) + "}"
    if ordered or len(villains) < 3:
        return " > ".join(villains)
    return f"{villains[0]} > {{{', '.join(villains[1:])}}}"


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _read_rows(source) -> tuple[list[tuple[int, dict]], str, str]:
    """(line or row number, {column: value}) for each data row, the source's name, and the numbering unit."""
    if isinstance(source, pl.DataFrame):
        return [(i + 1, r) for i, r in enumerate(source.to_dicts())], "the log frame", "row"
    if not isinstance(source, str | Path):
        try:
            frame = pl.from_pandas(source)
        except (TypeError, ValueError, ImportError):
            raise InputError(f"a game log must be a CSV or parquet file or a data frame, got {type(source)}") from None
        return [(i + 1, r) for i, r in enumerate(frame.to_dicts())], "the log frame", "row"
    path = Path(source)
    name = str(source)
    if not path.is_file():
        raise InputError(f"no game log {name!r} (a .csv or .parquet file)")
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        try:
            frame = pl.read_parquet(path)
        except Exception as exc:  # polars raises several kinds for a damaged file
            raise InputError(f"{name}: not a readable parquet file ({str(exc).splitlines()[0]})") from None
        return [(i + 1, r) for i, r in enumerate(frame.to_dicts())], name, "row"
    if suffix != ".csv":
        raise InputError(f"{name}: a game log must be a .csv or .parquet file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{name}: cannot read ({exc})") from None
    # Lines starting with # are comments; they are kept as blank lines so that line numbers stay true.
    lines = ["\n" if ln.lstrip().startswith("#") else ln for ln in io.StringIO(text)]
    reader = csv.reader(lines)
    header, rows = None, []
    try:
        for row in reader:
            if not any(c.strip() for c in row):
                continue
            if header is None:
                header = [c.strip().lower() for c in row]
                continue
            rows.append((reader.line_num, dict(zip(header, row, strict=False))))
    except csv.Error as exc:
        raise InputError(f"{name}: line {reader.line_num}: not valid CSV ({exc})") from None
    return rows, name, "line"


GAME_SCHEMA = {
    "line": pl.Int64,
    "players": pl.Int64,
    "villains": pl.List(pl.String),
    "ordered": pl.Boolean,
    "first_known": pl.Boolean,
    "seating": pl.String,
    "matchup": pl.String,
    "winner": pl.String,
    "winner_pos": pl.Int64,
    "rounds": pl.Int64,
    "group": pl.String,
}
SKIP_SCHEMA = {
    "line": pl.Int64,
    "kind": pl.String,
    "reason": pl.String,
    "villains": pl.String,
    "unknown": pl.String,
}


# the names a column goes by in logs people keep (after lower case, spaces and hyphens as "_")
COLUMN_NAMES = {
    "winner": ("winner", "won_by", "winning_villain", "victor", "win"),
    "first": ("first", "first_player", "firstplayer", "starting_player", "starter", "went_first", "goes_first"),
    "rounds": ("rounds", "round", "turns", "game_rounds"),
    "group": ("group", "event", "play_group", "tournament"),
}
_SEAT_COLUMN = re.compile(r"seat_?([0-9]+|[a-c])")  # one column per seat, in seat order
_VILLAIN_COLUMN = re.compile(r"(?:villain|player)_?([0-9]+|[a-c])")  # one column per villain, order not known


def _column_key(name) -> str:
    return re.sub(r"[\s-]+", "_", str(name).strip().lower())


@dataclass(frozen=True)
class LogLayout:
    """How a log's columns are read: where the villains are and whether their order is the seat order, and the
    columns of the winner, the first player, the rounds and the label (None when absent)."""

    villains: tuple[str, ...]  # ("villains",) or the per-seat / per-villain columns, in order
    seat_order: bool  # the villains as listed are the seat order (unless a first player is named)
    winner: str | None
    first: str | None
    rounds: str | None
    group: str | None
    ignored: tuple[str, ...]

    def describe(self, unknown_first: int = 0) -> str:
        """One line: each column found and how it was read; ``unknown_first`` games had no first player."""
        listed = ", ".join(self.villains)
        if self.seat_order:
            parts = [f"{listed} -> the villains in seat order (first plays first) unless a first player is named"]
        else:
            parts = [f"{listed} -> the villains (not in seat order)"]
        parts.append(f"{self.winner} -> the winner")
        if self.first:
            parts.append(f"{self.first} -> who went first")
        if unknown_first:
            parts.append(
                f"{unknown_first} game{'s' if unknown_first != 1 else ''} with no first player: seat order unknown, "
                "each order taken as equally likely"
            )
        if self.rounds:
            parts.append(f"{self.rounds} -> rounds")
        if self.group:
            parts.append(f"{self.group} -> the label")
        if self.ignored:
            parts.append(f"ignored: {', '.join(self.ignored)}")
        return "columns read: " + "; ".join(parts)


def log_layout(columns, name: str = "the log") -> LogLayout:
    """The :class:`LogLayout` of a log with these column names (already keyed by :func:`_column_key`): a
    ``villains`` column, or one column per seat (``seat_1``, ``seat_2``, ...: seat order), or one per villain
    (``villain_a``, ``villain_b``, ``player_1``, ...: who played, the first player from its own column, else
    unknown). An InputError names what is missing and the columns found."""
    columns = list(dict.fromkeys(columns))
    found = {role: next((n for n in names if n in columns), None) for role, names in COLUMN_NAMES.items()}
    seats = sorted((m.group(1), c) for c in columns if (m := _SEAT_COLUMN.fullmatch(c)))
    each = sorted((m.group(1), c) for c in columns if (m := _VILLAIN_COLUMN.fullmatch(c)))
    if "villains" in columns:
        villains, seat_order = ("villains",), True
    elif len(seats) >= 2:
        villains, seat_order = tuple(c for _, c in seats), True
    elif len(each) >= 2:
        villains, seat_order = tuple(c for _, c in each), False
    else:
        raise InputError(
            f"{name}: no villains column (found {', '.join(columns) or 'none'}); the log needs columns {LOG_COLUMNS}"
        )
    if found["winner"] is None:
        raise InputError(
            f"{name}: no 'winner' column (found {', '.join(columns)}); the log needs columns {LOG_COLUMNS}"
        )
    used = set(villains) | {c for c in found.values() if c}
    return LogLayout(villains, seat_order, **found, ignored=tuple(c for c in columns if c not in used))


def _log_row(layout: LogLayout, r: dict) -> dict:
    """A row of a log as :func:`_game_row` reads it: villains (a list or text), winner, first, rounds, label."""
    if layout.villains == ("villains",):
        villains = r.get("villains")
    else:
        villains = [r.get(c) for c in layout.villains if r.get(c)]
    out = {"villains": villains, "seat_order": layout.seat_order}
    for role in ("winner", "first", "rounds", "group"):
        col = getattr(layout, role)
        out[role] = r.get(col) if col else None
    return out


def read_log(source) -> GameLog:
    """Read a log of real games (a ``.csv`` or ``.parquet`` path, or a polars or pandas frame).

    Columns (names case-insensitive, spaces or hyphens as ``_``; others are ignored and named):

    ``villains``
        the villains of the game, in seat order (the first plays first), separated by ``;``, ``,``, ``|``,
        ``/``, ``-vs-`` or `` vs `` (a list column in parquet). Names as in simlab (``lady-tremaine``) or as
        printed (``Lady Tremaine``, ``The Horned King``). Instead: one column per seat (``seat_1``, ``seat_2``
        [, ``seat_3``]; seat order too), or one column per villain (``villain_a``, ``villain_b``, ``villain_1``,
        ``player_1``, ...; who played, in no seat order).
    ``winner`` (or ``won_by``, ``victor``, ...)
        the villain who won; in a mirror game ``gaston #1`` or ``gaston #2`` (#1 plays first).
    ``first`` (or ``first_player``, ``starting_player``, ...; optional)
        the first player: when given, the villains are read as unordered. In a 3-player game the other two
        seats are then unknown and each order is taken as equally likely. Blank (or no such column) with one
        column per villain: nobody noted who went first, and every seat order is taken as equally likely.
    ``rounds`` (optional)
        rounds played (a positive whole number).
    ``group`` or ``event`` (optional)
        a label (a play group, a tournament); the fit is also reported per label.

    Games with a villain outside this box are skipped and counted by villain; games simlab cannot play (more
    than 3 players, or a 3-player game with a villain twice) are skipped; malformed rows (no winner, a winner
    or first player not in the game, bad rounds) are named by line. A log with no usable game is an
    ``InputError``. :attr:`GameLog.columns` says in one line which columns were read and how.

    The usable games' frame: ``line``, ``players``, ``villains`` (seat order; when ``ordered`` is false, the
    first player then the others alphabetically, or all alphabetically when ``first_known`` is false),
    ``ordered``, ``first_known``, ``seating`` (a readable key of the seat order), ``matchup`` (the villains
    alphabetically, ``-vs-``), ``winner``, ``winner_pos`` (index of the winner in ``villains``; 0 is the first
    player when it is known), ``rounds`` (null when not logged), ``group`` (null when none).
    """
    rows, name, unit = _read_rows(source)
    rows = [
        (line, {_column_key(k): _cell(v) if not isinstance(v, list) else v for k, v in r.items()}) for line, r in rows
    ]
    if not rows:
        raise InputError(f"{name}: no games (the log needs columns {LOG_COLUMNS})")
    layout = log_layout([c for _, r in rows for c in r], name)
    games, skipped = [], []
    for line, r in rows:
        try:
            games.append(_game_row(line, _log_row(layout, r)))
        except _Skipped as why:
            skipped.append({"line": line, **why.row})
    frame = pl.DataFrame(games, schema=GAME_SCHEMA)
    unknown = frame.filter(~pl.col("first_known")).height
    log = GameLog(frame, pl.DataFrame(skipped, schema=SKIP_SCHEMA), name, len(rows), unit, layout.describe(unknown))
    if not games:
        raise InputError(f"no usable games in {log.describe()}; {log.columns}")
    return log


class _Skipped(Exception):
    """A row of a log that is not a usable game: what kind, why, the villains it names and those outside the box."""

    def __init__(self, kind: str, reason: str, villains: str = "", unknown: str = ""):
        super().__init__(reason)
        self.row = {"kind": kind, "reason": reason, "villains": villains, "unknown": unknown}


def _game_row(line: int, r: dict) -> dict:
    """The usable game of one row of a log (a row of :attr:`GameLog.games`), or :class:`_Skipped` saying why not.
    ``r``: the row as :func:`_log_row` gives it."""
    raw = r.get("villains")
    items = raw if isinstance(raw, list) else _SPLIT.split(raw or "")
    names = [villain_key(v) for v in items if v is not None and str(v).strip()]
    listed = ", ".join(names)
    if len(names) < 2:
        raise _Skipped("malformed", f"needs at least 2 villains, got {raw!r}", listed)
    unknown = sorted({v for v in names if v not in VILLAIN_KEYS})
    if unknown:
        raise _Skipped(
            "outside the box", f"villains outside this box: {', '.join(unknown)}", listed, ", ".join(unknown)
        )
    if len(names) > 3 or (len(names) == 3 and len(set(names)) < 3):
        raise _Skipped("unplayable", "simlab plays 2 villains, or 3 different ones", listed)
    mirror = len(set(names)) < len(names)
    first = villain_key(r.get("first") or "") if r.get("first") else ""
    if first and first not in names:
        raise _Skipped("malformed", f"first player {r['first']!r} is not in the game ({listed})", listed)
    if first and mirror:
        raise _Skipped(
            "malformed",
            "a mirror game needs its villains in seat order (no first), winner as #1 or #2",
            listed,
        )
    first_known = bool(first) or r["seat_order"] or mirror  # a mirror's winner names its seat (#1 plays first)
    ordered = first_known and (not first or len(names) == 2)
    if first:
        rest = list(names)
        rest.remove(first)
        villains = [first, *sorted(rest)]
    else:
        villains = names if first_known else sorted(names)
    winner_raw = r.get("winner") or ""
    if not winner_raw:
        raise _Skipped("malformed", "no winner recorded", listed)
    m = re.fullmatch(r"(.+?)\s*#\s*([0-9]+)", winner_raw.strip())
    winner = villain_key(m.group(1) if m else winner_raw)
    if winner not in villains:
        raise _Skipped("malformed", f"winner {winner_raw!r} is not in the game ({listed})", listed)
    if mirror:
        k = int(m.group(2)) if m else 0
        if not 1 <= k <= 2:
            raise _Skipped(
                "malformed",
                f"winner {winner_raw!r} is ambiguous in a mirror: write {winner} #1 or #2 (#1 plays first)",
                listed,
            )
        pos, winner = k - 1, f"{winner} #{k}"
    else:
        pos = villains.index(winner)
    rounds = None
    if r.get("rounds"):
        text = r["rounds"]
        if not re.fullmatch(r"[0-9]+", text) or int(text) < 1:
            raise _Skipped("malformed", f"rounds must be a positive whole number, got {text!r}", listed)
        rounds = int(text)
    return {
        "line": line,
        "players": len(villains),
        "villains": villains,
        "ordered": ordered,
        "first_known": first_known,
        "seating": seating_key(villains, ordered, first_known),
        "matchup": "-vs-".join(sorted(villains)),
        "winner": winner,
        "winner_pos": pos,
        "rounds": rounds,
        "group": r.get("group") or None,
    }


# ============================================================================ models and predictions


def rule_settings(rules: Mapping[str, str | Sequence[str]] | None, max_turns: int = DEFAULT_MAX_TURNS) -> list[dict]:
    """The rule settings to compare: a variant given one value applies to every setting; a variant given
    several values (a list, ``"a,b"``, or ``"all"``) is compared at each, every combination with the others."""
    fixed, varied = {}, {}
    for variant, value in dict(rules or {}).items():
        if variant not in RULE_VARIANTS:
            raise InputError(f"unknown rule variant {variant!r}; choose from {', '.join(RULE_VARIANTS)}")
        values = list(value) if isinstance(value, list | tuple) else [v.strip() for v in str(value).split(",")]
        if values == ["all"]:
            values = list(RULE_VARIANTS[variant].values)
        values = list(dict.fromkeys(v for v in values if v))
        if not values:
            raise InputError(
                f"--rules {variant}= needs a value; choose from {', '.join(RULE_VARIANTS[variant].values)}"
            )
        if len(values) == 1:
            fixed[variant] = values[0]
        else:
            varied[variant] = values
    settings = [{**fixed, **dict(zip(varied, combo, strict=True))} for combo in itertools.product(*varied.values())]
    for s in settings:
        rules_array(s, max_turns)  # an unknown value fails here, naming the choices
    return settings


def setting_label(setting: Mapping[str, str]) -> str:
    """``"get_out=exactly_three"``: the setting's non-default readings, or ``"default"``."""
    parts = [f"{k}={v}" for k, v in sorted(setting.items()) if v != RULE_VARIANTS[k].default]
    return ", ".join(parts) or "default"


def model_name(level: str, rules_label: str, several_settings: bool) -> str:
    return f"{level} / {rules_label}" if several_settings else level


def run_order(order: tuple[str, ...]) -> tuple[str, ...]:
    """The matchup whose rotated run plays ``order``: seats rotate game by game, so one run of a 2-player
    matchup plays both orders and one run of a 3-player matchup plays the three orders of one cyclic order."""
    rotations = [order[i:] + order[:i] for i in range(len(order))]
    return min(rotations)


@dataclass
class Predictions:
    """Simulated outcomes of every seat order for every model."""

    orders: pl.DataFrame  # model, level, rules, order, players, seat, villain, games, finished, wins
    rounds: pl.DataFrame  # model, order, rounds, count (finished games)
    models: pl.DataFrame  # model, level, rules, setting (JSON of the full variant setting)
    n_games: int
    seed: int
    max_turns: int

    def select(self, models: Sequence[str]) -> Predictions:
        """The predictions of ``models`` only (to score a log against fewer models without simulating again)."""
        unknown = set(models) - set(self.models["model"])
        if unknown:
            raise InputError(f"no predictions for {sorted(unknown)}; models: {', '.join(self.models['model'])}")
        keep = pl.col("model").is_in(list(models))
        rounds = self.rounds.filter(keep) if self.rounds.height else self.rounds
        return Predictions(
            self.orders.filter(keep), rounds, self.models.filter(keep), self.n_games, self.seed, self.max_turns
        )


def predict_runs(orders, levels, rules, n_games: int, max_turns: int):
    """What :func:`predict` plays: (levels, rule settings, runs of seat orders, games per run); every level plays
    every run at every rule setting."""
    from simlab.runs.levels import check_level, level_strategies, scripted_levels

    orders = [tuple(o) for o in orders]
    villains = tuple(v for v in VILLAIN_KEYS if any(v in o for o in orders))
    levels = list(dict.fromkeys(check_level(lv) for lv in levels)) if levels else list(scripted_levels(villains))
    for level in levels:
        level_strategies(level, villains)  # tuned without its files fails here
    rule_sets = rule_settings(rules, max_turns)
    runs = sorted({run_order(o) for o in orders}, key=lambda o: (len(o), o))
    per_run = {r: n_games * len({r[i:] + r[:i] for i in range(len(r))}) for r in runs}
    return levels, rule_sets, runs, per_run


def predict(
    orders: Sequence[Sequence[str]],
    levels: Sequence[str] | None = None,
    rules: Mapping[str, str | Sequence[str]] | None = None,
    n_games: int | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> Predictions:
    """Play ``n_games`` games of every seat order in ``orders`` (tuples of villains, seat 0 first) for every
    model: each level (default: every scripted level available for these villains, ``simlab.runs.levels``; the
    search level only when named) at each rule
    setting (:func:`rule_settings`). Runs go through :func:`simlab.runs.sim.run` on the current backend, seats
    rotated, so one run of a matchup plays all of its rotations; every model plays the same seeds.
    ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) give the seed,
    turn cap, threads and progress (``n_games`` default 2,000; their variants, level and strategies are not
    used: ``rules`` and ``levels`` say what is compared)."""
    from simlab.runs.levels import level_strategies
    from simlab.runs.sim import run

    if n_games is not None and (not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 1):
        raise InputError(f"the number of simulated games must be a positive integer, got {n_games!r}")
    if settings is None and n_games is None:
        n_games = DEFAULT_GAMES
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, seed, max_turns, progress = settings.games, settings.seed, settings.max_turns, settings.progress
    orders = [tuple(o) for o in orders]
    levels, rule_sets, runs, per_run = predict_runs(orders, levels, rules, n_games, max_turns)
    several = len(rule_sets) > 1
    total = len(levels) * len(rule_sets) * sum(per_run.values())
    done = 0
    order_rows, round_parts, model_rows = [], [], []
    for setting in rule_sets:
        label = setting_label(setting)
        for level in levels:
            model = model_name(level, label, several)
            model_rows.append({"model": model, "level": level, "rules": label, "setting": json.dumps(setting)})
            for r in runs:
                n = per_run[r]
                base = done

                def tick(k, _total, base=base):
                    if progress is not None:
                        progress(base + k, total)

                here = settings.replace(games=n, variants=setting, level=None, strategies={}, progress=tick)
                res = run("-vs-".join(r), strategies=level_strategies(level, set(r)), keep_games=True, settings=here)
                done += n
                g = res.games.with_columns(
                    pl.concat_str([pl.col(f"seat{s}") for s in range(len(r))], separator=" > ").alias("order")
                )
                for (key,), part in g.group_by("order", maintain_order=True):
                    order = tuple(key.split(" > "))
                    finished = part.filter(pl.col("winner_seat") >= 0)
                    wins = np.bincount(finished["winner_seat"].to_numpy(), minlength=len(order))
                    for s, v in enumerate(order):
                        order_rows.append(
                            {
                                "model": model,
                                "level": level,
                                "rules": label,
                                "order": key,
                                "players": len(order),
                                "seat": s,
                                "villain": v,
                                "games": part.height,
                                "finished": finished.height,
                                "wins": int(wins[s]),
                            }
                        )
                    round_parts.append(
                        finished.group_by("rounds")
                        .len("count")
                        .select(pl.lit(model).alias("model"), pl.lit(key).alias("order"), "rounds", "count")
                    )
    rounds_frame = pl.concat(round_parts).sort("model", "order", "rounds") if round_parts else pl.DataFrame()
    return Predictions(
        pl.DataFrame(order_rows),
        rounds_frame.cast({"count": pl.Int64}),
        pl.DataFrame(model_rows),
        n_games,
        seed,
        max_turns,
    )


# ============================================================================ scoring a log


@dataclass
class CalibrationResult:
    """Every table of a calibration (polars frames) and the verdicts."""

    log: GameLog
    predictions: Predictions
    fit: pl.DataFrame  # per model: log-likelihood, Brier score, each against a coin flip; likelihood ratio to the best
    verdicts: pl.DataFrame  # per question (level, readings): best, runner-up, likelihood ratio, decided, games needed
    matchups: pl.DataFrame  # per model, seat order and seat: observed wins vs predicted, exact binomial p-value
    first_player: pl.DataFrame  # per model and player count: first player's wins and advantage, observed vs predicted
    calibration: pl.DataFrame  # per model and bin of predicted probability: observed frequency, Wilson interval
    lengths: pl.DataFrame  # per model and matchup: observed rounds vs the simulated distribution (empty: no rounds)
    length_distribution: pl.DataFrame  # per model and rounds: share of logged games vs of simulated games
    groups: pl.DataFrame  # per group label and model: games, log-likelihood, Brier score (empty: no labels)
    per_game: pl.DataFrame = field(repr=False)  # per model, game and seated villain: predicted probability, won

    @property
    def best(self) -> str:
        return str(self.fit["model"][0])

    def frames(self) -> dict[str, pl.DataFrame]:
        return {
            "fit": self.fit,
            "verdicts": self.verdicts,
            "matchups": self.matchups,
            "first_player": self.first_player,
            "calibration": self.calibration,
            "lengths": self.lengths,
            "length_distribution": self.length_distribution,
            "groups": self.groups,
            "games": self.log.games,
            "skipped": self.log.skipped,
            "predictions": self.predictions.orders,
        }

    def to_pandas(self) -> dict:
        return {k: v.to_pandas() for k, v in self.frames().items()}

    def to_json(self) -> str:
        doc = {
            "log": self.log.describe(),
            "columns": self.log.columns,
            "simulated_games_per_order": self.predictions.n_games,
            "seed": self.predictions.seed,
            "best": self.best,
        }
        for k, v in self.frames().items():
            if k not in ("games", "predictions"):
                doc[k] = v.to_dicts()
        return json.dumps(doc, indent=2, default=str)


def _key_predictions(log: GameLog, pred: Predictions) -> pl.DataFrame:
    """Per model, seating key and position: the simulated counts pooled over the key's compatible orders."""
    counts = {
        (m, o, s): (g, f, w)
        for m, o, s, g, f, w in pred.orders.select("model", "order", "seat", "games", "finished", "wins").iter_rows()
    }
    rows = []
    keys = log.games.select("seating", "villains", "ordered", "first_known").unique("seating", maintain_order=True)
    for model in pred.models["model"]:
        for key, villains, ordered, first_known in keys.iter_rows():
            villains = tuple(villains)
            P = len(villains)
            compat = compatible_orders(villains, ordered, first_known)
            for pos, v in enumerate(villains):
                games = finished = wins = 0
                for o in compat:
                    okey = " > ".join(o)
                    seat = pos if ordered else o.index(v)
                    g, f, w = counts[(model, okey, seat)]
                    games, finished, wins = games + g, finished + f, wins + w
                lo, hi = wilson(wins, finished)
                rows.append(
                    {
                        "model": model,
                        "seating": key,
                        "position": pos,
                        "villain": v,
                        "seat": pos if ordered or (pos == 0 and first_known) else None,
                        "sim_games": games,
                        "sim_finished": finished,
                        "sim_wins": wins,
                        "predicted": (wins + 0.5) / (finished + P / 2),
                        "predicted_low": float(lo),
                        "predicted_high": float(hi),
                    }
                )
    return pl.DataFrame(rows, schema_overrides={"seat": pl.Int64})


def _verdicts(fit: pl.DataFrame, per_game: pl.DataFrame, n_games: int) -> pl.DataFrame:
    """For each question with more than one answer (which level, which readings), the best answer against the
    runner-up: likelihood ratio, decided, and the games a log would need to decide."""
    rows = []
    questions = [("level", "level"), ("readings", "rules")]
    for question, col in questions:
        profile = fit.sort("log_lik", descending=True).unique(col, keep="first", maintain_order=True)
        if profile.height < 2:
            continue
        best, runner = profile.row(0, named=True), profile.row(1, named=True)
        log_lr = best["log_lik"] - runner["log_lik"]
        needed = games_needed(per_game, best["model"], runner["model"])
        decided = log_lr >= math.log(DECISIVE_RATIO)
        if decided:
            text = (
                f"{question}: {best[col]} fits best; likelihood ratio {ratio_text(log_lr)} against the runner-up "
                f"{runner[col]} on {n_games:,} games (decided: {DECISIVE_RATIO:g} or more is strong evidence)"
            )
        else:
            text = (
                f"{question}: the log cannot decide between {best[col]} and {runner[col]} "
                f"(likelihood ratio {ratio_text(log_lr)}, below {DECISIVE_RATIO:g}, on {n_games:,} games); "
                + (
                    f"about {needed:,} games would be needed to tell them apart ({POWER:.0%} chance of a ratio of "
                    f"{DECISIVE_RATIO:g} if {best[col]} is right)"
                    if needed is not None
                    else "they predict the same outcomes for these games, so no log of them can tell them apart"
                )
            )
        rows.append(
            {
                "question": question,
                "best": best[col],
                "runner_up": runner[col],
                "best_model": best["model"],
                "runner_up_model": runner["model"],
                "games": n_games,
                "log_lr": log_lr,
                "likelihood_ratio": math.exp(min(log_lr, 700.0)),
                "decided": decided,
                "games_needed": needed,
                "verdict": text,
            }
        )
    schema = {
        "question": pl.String,
        "best": pl.String,
        "runner_up": pl.String,
        "best_model": pl.String,
        "runner_up_model": pl.String,
        "games": pl.Int64,
        "log_lr": pl.Float64,
        "likelihood_ratio": pl.Float64,
        "decided": pl.Boolean,
        "games_needed": pl.Int64,
        "verdict": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def ratio_text(log_lr: float) -> str:
    """A likelihood ratio given by its logarithm, readable however large (``3.2e+04``, ``e^812``)."""
    return f"{math.exp(log_lr):.3g}" if log_lr < 50 else f"e^{log_lr:.0f}"


def games_needed(per_game: pl.DataFrame, true_model: str, other: str) -> int | None:
    """Games (in the log's mix of seat orders) for an 80% chance that the likelihood ratio of ``true_model``
    against ``other`` reaches 20 if ``true_model`` is right (normal approximation to the sum of per-game log
    ratios: mean = mean Kullback-Leibler divergence per game, variance = the mix's). None: same predictions."""
    a = per_game.filter(pl.col("model") == true_model).select("line", "position", pl.col("predicted").alias("p"))
    b = per_game.filter(pl.col("model") == other).select("line", "position", pl.col("predicted").alias("q"))
    j = a.join(b, on=["line", "position"]).with_columns((pl.col("p") / pl.col("q")).log().alias("lr"))
    g = j.group_by("line").agg(
        (pl.col("p") * pl.col("lr")).sum().alias("m"), (pl.col("p") * pl.col("lr") ** 2).sum().alias("s")
    )
    mu = float(g["m"].mean())
    var = max(float(g["s"].mean()) - mu * mu, 0.0)
    if not mu > 1e-12:
        return None
    c = math.log(DECISIVE_RATIO)
    sd = math.sqrt(var)
    root = (Z_POWER * sd + math.sqrt(Z_POWER**2 * var + 4 * mu * c)) / (2 * mu)
    return int(math.ceil(root * root))


def _binom_p(k: int, n: int, p: float) -> float:
    from scipy.stats import binomtest

    return float(binomtest(k, n, p).pvalue)


def _poisson_binom_p(k: int, probs: np.ndarray) -> float:
    """Two-sided exact p-value of k successes among independent trials with ``probs`` (the smaller tail, doubled)."""
    from scipy.stats import poisson_binom

    low = float(poisson_binom.cdf(k, probs))
    high = float(poisson_binom.sf(k - 1, probs))
    return min(1.0, 2 * min(low, high))


def evaluate(log: GameLog, pred: Predictions) -> CalibrationResult:
    """Score ``log`` against the simulated predictions of every model (see the module docstring)."""
    games = log.games
    keyp = _key_predictions(log, pred)
    missing = set(games["seating"]) - set(keyp["seating"])
    if missing:
        raise InputError(f"the predictions do not cover the log's seat orders {sorted(missing)}")
    per_game = (
        games.select("line", "players", "first_known", "seating", "matchup", "winner_pos", "group")
        .join(keyp, on="seating", how="inner")
        .with_columns((pl.col("position") == pl.col("winner_pos")).alias("won"))
        .sort("model", "line", "position")
    )
    n = games.height
    model_order = list(pred.models["model"])

    fit, scores = _fit(games, per_game, pred)
    verdicts = _verdicts(fit, per_game, n)
    matchups = _matchup_cells(games, keyp, pred, model_order)
    first_player = _first_player(per_game, model_order)
    calibration = _calibration_bins(per_game, model_order)
    lengths, distribution = _lengths(log, pred, model_order)
    groups = _groups(games, scores, model_order)
    per_game_out = per_game.select("model", "line", "seating", "position", "villain", "predicted", "won")
    return CalibrationResult(
        log, pred, fit, verdicts, matchups, first_player, calibration, lengths, distribution, groups, per_game_out
    )


def _fit(games: pl.DataFrame, per_game: pl.DataFrame, pred: Predictions) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each model's log-likelihood and Brier score against a coin flip, its weight and the games needed to tell
    it from the best; and the per-game scores (model, line, players, ll, brier)."""
    scores = per_game.group_by("model", "line", "players").agg(
        pl.col("predicted").filter(pl.col("won")).first().log().alias("ll"),
        ((pl.col("predicted") - pl.col("won").cast(pl.Float64)) ** 2).sum().alias("brier"),
    )
    base = games.select(
        (-(pl.col("players").cast(pl.Float64).log())).sum().alias("ll0"),
        ((pl.col("players") - 1) / pl.col("players")).mean().alias("brier0"),
    ).row(0, named=True)
    fit = (
        scores.group_by("model")
        .agg(pl.len().alias("games"), pl.col("ll").sum().alias("log_lik"), pl.col("brier").mean().alias("brier"))
        .join(pred.models.select("model", "level", "rules"), on="model")
        .with_columns(
            pl.lit(base["ll0"]).alias("coin_flip_log_lik"),
            pl.lit(base["brier0"]).alias("coin_flip_brier"),
        )
        .with_columns(
            (pl.col("log_lik") - pl.col("coin_flip_log_lik")).alias("log_lik_gain"),
            (pl.col("log_lik") / pl.col("games")).alias("log_lik_per_game"),
            (1 - pl.col("brier") / pl.col("coin_flip_brier")).alias("brier_skill"),
        )
        .sort("log_lik", descending=True)
    )
    top = float(fit["log_lik"][0])
    weights = np.exp(fit["log_lik"].to_numpy() - top)
    fit = fit.with_columns(
        (top - pl.col("log_lik")).alias("log_lr_best"),
        pl.Series("weight", weights / weights.sum()),  # the models' posterior shares with equal prior weights
    )
    best = str(fit["model"][0])
    needed = [games_needed(per_game, best, m) if m != best else None for m in fit["model"]]
    fit = fit.with_columns(pl.Series("games_needed", needed, dtype=pl.Int64)).select(
        "model",
        "level",
        "rules",
        "games",
        "log_lik",
        "coin_flip_log_lik",
        "log_lik_gain",
        "log_lik_per_game",
        "brier",
        "coin_flip_brier",
        "brier_skill",
        "log_lr_best",
        "weight",
        "games_needed",
    )
    return fit, scores


def _matchup_cells(games: pl.DataFrame, keyp: pl.DataFrame, pred: Predictions, model_order: list[str]) -> pl.DataFrame:
    """Observed wins against predicted per model, matchup, seat order and seat, with the exact binomial p."""
    obs = games.group_by("seating", "winner_pos").len("wins")
    cells = (
        keyp.join(games.group_by("seating", "matchup").len("games"), on="seating")
        .join(obs.rename({"winner_pos": "position"}), on=["seating", "position"], how="left")
        .with_columns(pl.col("wins").fill_null(0).cast(pl.Int64))
    )
    lo, hi = wilson(cells["wins"].to_numpy(), cells["games"].to_numpy())
    pvals = [_binom_p(k, g, p) for k, g, p in cells.select("wins", "games", "predicted").iter_rows()]
    return (
        cells.with_columns(
            (pl.col("wins") / pl.col("games")).alias("observed"),
            pl.Series("observed_low", lo),
            pl.Series("observed_high", hi),
            pl.Series("p_value", pvals),
        )
        .join(pred.models.select("model", "level", "rules"), on="model")
        .select(
            "model",
            "level",
            "rules",
            "matchup",
            "seating",
            "seat",
            "villain",
            "games",
            "wins",
            "observed",
            "observed_low",
            "observed_high",
            "predicted",
            "predicted_low",
            "predicted_high",
            "sim_finished",
            "p_value",
        )
        .sort(pl.col("model").replace_strict(model_order, list(range(len(model_order)))), "matchup", "seating", "seat")
    )


def _first_player(per_game: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """The first player's share of wins and advantage, observed against predicted, per model and player count."""
    # a game whose first player nobody noted says nothing about going first
    firsts = per_game.filter((pl.col("position") == 0) & pl.col("first_known")).with_columns(
        pl.col("won").cast(pl.Float64).alias("x"),
        (pl.col("predicted") - (1 - pl.col("predicted")) / (pl.col("players") - 1)).alias("adv_pred"),
        (pl.col("won").cast(pl.Float64) - (1 - pl.col("won").cast(pl.Float64)) / (pl.col("players") - 1)).alias(
            "adv_obs"
        ),
    )
    fp_rows = []
    for model in model_order:
        sub_all = firsts.filter(pl.col("model") == model)
        for label in ("2-player", "3-player", "all"):
            sub = sub_all if label == "all" else sub_all.filter(pl.col("players") == int(label[0]))
            if sub.height == 0 or (label == "all" and sub["players"].n_unique() < 2):
                continue
            k, m = int(sub["x"].sum()), sub.height
            wl, wh = (float(x) for x in wilson(k, m))
            adv = float(sub["adv_obs"].mean())
            if label == "all":  # mixed player counts: normal approximation, kept inside the possible range
                half = Z95 * float(sub["adv_obs"].std()) / math.sqrt(m)
                floor = -float((1 / (sub["players"] - 1)).mean())
                adv_low, adv_high = max(adv - half, floor), min(adv + half, 1.0)
            else:  # one player count: the advantage is a rising function of the share; map its Wilson interval
                P = int(label[0])
                adv_low, adv_high = wl - (1 - wl) / (P - 1), wh - (1 - wh) / (P - 1)
            fp_rows.append(
                {
                    "model": model,
                    "players": label,
                    "games": m,
                    "first_wins": k,
                    "observed": k / m,
                    "observed_low": wl,
                    "observed_high": wh,
                    "predicted": float(sub["predicted"].mean()),
                    "advantage_observed": adv,
                    "advantage_low": adv_low,
                    "advantage_high": adv_high,
                    "advantage_predicted": float(sub["adv_pred"].mean()),
                    "p_value": _poisson_binom_p(k, sub["predicted"].to_numpy()),
                }
            )
    return pl.DataFrame(fp_rows)


def _calibration_bins(per_game: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """Observed frequency against predicted probability in bins of the prediction, per model."""
    binned = per_game.with_columns(
        pl.min_horizontal((pl.col("predicted") * CALIBRATION_BINS).floor(), CALIBRATION_BINS - 1)
        .cast(pl.Int64)
        .alias("bin")
    )
    cal = (
        binned.group_by("model", "bin")
        .agg(
            pl.len().alias("entries"),
            pl.col("won").sum().cast(pl.Int64).alias("wins"),
            pl.col("predicted").mean().alias("predicted"),
        )
        .with_columns(
            (pl.col("bin") / CALIBRATION_BINS).alias("bin_low"),
            ((pl.col("bin") + 1) / CALIBRATION_BINS).alias("bin_high"),
            (pl.col("wins") / pl.col("entries")).alias("observed"),
        )
    )
    lo, hi = wilson(cal["wins"].to_numpy(), cal["entries"].to_numpy())
    return (
        cal.with_columns(pl.Series("observed_low", lo), pl.Series("observed_high", hi))
        .sort(pl.col("model").replace_strict(model_order, list(range(len(model_order)))), "bin")
        .select(
            "model", "bin_low", "bin_high", "entries", "wins", "predicted", "observed", "observed_low", "observed_high"
        )
    )


def _groups(games: pl.DataFrame, scores: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """The fit per labelled group (play group, event), when the log labels its games; else an empty frame."""
    groups = pl.DataFrame()
    if games["group"].null_count() < games.height:
        groups = (
            scores.join(games.select("line", "group"), on="line")
            .filter(pl.col("group").is_not_null())
            .group_by("group", "model")
            .agg(
                pl.len().alias("games"),
                pl.col("ll").sum().alias("log_lik"),
                (-(pl.col("players").cast(pl.Float64).log())).sum().alias("coin_flip_log_lik"),
                pl.col("brier").mean().alias("brier"),
            )
            .with_columns((pl.col("log_lik") == pl.col("log_lik").max().over("group")).alias("best_in_group"))
            .sort("group", pl.col("model").replace_strict(model_order, list(range(len(model_order)))))
        )
    return groups


def _lengths(log: GameLog, pred: Predictions, model_order: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Observed rounds against each model's simulated distribution of finished games for the same seat orders.

    Each logged game's rounds r is placed in its own simulated distribution F by the mid-distribution
    transform u = F(r - 1) + f(r) / 2; if the simulation is right, u has mean 1/2 and variance
    (1 - sum f^3) / 12, which gives a z statistic per matchup (above 0: real games are longer)."""
    from scipy.stats import norm

    timed = log.games.filter(pl.col("rounds").is_not_null())
    if timed.height == 0:
        return pl.DataFrame(), pl.DataFrame()
    cap = pred.max_turns + 1
    top = max(cap, int(timed["rounds"].max()) + 1)
    hists = {}
    for (model, order), part in pred.rounds.group_by("model", "order"):
        h = np.zeros(top + 1)
        np.add.at(h, np.minimum(part["rounds"].to_numpy(), top), part["count"].to_numpy())
        hists[(model, order)] = h
    rows, dist_rows = [], []
    keys = timed.select("seating", "villains", "ordered", "first_known").unique("seating", maintain_order=True)
    for model in model_order:
        pmf = {}
        for key, villains, ordered, first_known in keys.iter_rows():
            h = sum(
                (
                    hists.get((model, " > ".join(o)), np.zeros(top + 1))
                    for o in compatible_orders(tuple(villains), ordered, first_known)
                ),
                np.zeros(top + 1),
            )
            pmf[key] = h / h.sum() if h.sum() > 0 else None
        values = np.arange(top + 1)
        groups = [("all games", timed)] + [
            (m, timed.filter(pl.col("matchup") == m)) for m in sorted(timed["matchup"].unique())
        ]
        if timed["matchup"].n_unique() == 1:
            groups = groups[1:]
        for label, sub in groups:
            us, vs, means, mix = [], [], [], np.zeros(top + 1)
            used = 0
            for key, r in sub.select("seating", "rounds").iter_rows():
                f = pmf[key]
                if f is None:
                    continue
                used += 1
                cdf_below = f[:r].sum()
                us.append(cdf_below + f[r] / 2)
                vs.append((1 - (f**3).sum()) / 12)
                means.append((values * f).sum())
                mix += f
            if used == 0:
                continue
            mix /= used
            cum = np.cumsum(mix)
            z = (sum(us) - used / 2) / math.sqrt(sum(vs)) if sum(vs) > 0 else float("nan")
            obs = sub["rounds"].to_numpy()
            rows.append(
                {
                    "model": model,
                    "matchup": label,
                    "games": used,
                    "observed_mean": float(obs.mean()),
                    "observed_median": float(np.median(obs)),
                    "simulated_mean": float(np.mean(means)),
                    "simulated_median": _quantile(cum, 0.5),
                    "simulated_p10": _quantile(cum, 0.1),
                    "simulated_p90": _quantile(cum, 0.9),
                    "mean_pit": float(np.mean(us)),
                    "z": z,
                    "p_value": float(2 * norm.sf(abs(z))) if z == z else float("nan"),
                }
            )
            if label == "all games" or len(groups) == 1:
                counts = np.bincount(np.minimum(obs, top), minlength=top + 1)
                last = int(np.flatnonzero((counts > 0) | (mix > 0)).max())
                dist_rows += [
                    {"model": model, "rounds": r, "observed": counts[r] / obs.size, "simulated": float(mix[r])}
                    for r in range(1, last + 1)
                ]
    return pl.DataFrame(rows), pl.DataFrame(dist_rows)


def _quantile(cum: np.ndarray, p: float) -> float:
    """The smallest value whose cumulative share reaches ``p`` (nearest rank)."""
    return float(np.searchsorted(cum, p - 1e-12))


# ============================================================================ the whole study


def calibrate(
    games,
    levels: Sequence[str] | None = None,
    rules: Mapping[str, str | Sequence[str]] | None = None,
    n_games: int | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> CalibrationResult:
    """Read the log ``games`` (a CSV or parquet path, or a frame; see :func:`read_log`), simulate its seat
    orders for every model (:func:`predict`: ``n_games`` games per seat order, each level at each rule
    setting) and score the log against them (:func:`evaluate`). ``settings`` and ``given`` as for
    :func:`predict`."""
    if settings is None:
        settings = settings_from(None, n_games=n_games or DEFAULT_GAMES, **given)
        n_games = None
    log = read_log(games)
    pred = predict(log.orders(), levels, rules, n_games, settings=settings)
    return evaluate(log, pred)


# ============================================================================ in a report


def calibration_log(report: Mapping, source: str = "") -> GameLog | None:
    """The log an experiment file's ``[report] real_games`` names (None when it names none). A relative path
    is looked up from the working directory, then beside the experiment file, then under ``configs/``."""
    from simlab.runs.experiment import CONFIG_DIR

    name = report.get("real_games")
    if not name:
        return None
    candidates = [Path(name)]
    if not Path(name).is_absolute():
        if source:
            candidates.append(Path(source).parent / name)
        candidates.append(CONFIG_DIR / name)
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        where = f"{source}: " if source else ""
        raise InputError(f"{where}[report] real_games: no game log {name!r} (a .csv or .parquet file)")
    return read_log(path)
