"""Reading a log of real games: its columns (a villains column, one a seat or one a villain; the winner, the first
player, rounds, a label), each row a usable game or skipped with the reason, the seat orders a game may have
had; and the log an experiment file names."""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from simlab.data.cards import VILLAIN_KEYS, villain_key
from simlab.data.inputs import not_a_file
from simlab.errors import InputError

MAX_ROUNDS = 100_000  # rounds of one real game at most (a game ends in tens)
LOG_COLUMNS = "villains (or villain_a, villain_b, ... or seat_1, seat_2, ...), winner (optional: first, rounds, group)"
_SPLIT = re.compile(r"\s*(?:;|,|\||/|-vs-|\s+vs\.?\s+)\s*", re.IGNORECASE)


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
        kind = not_a_file(path)
        if kind:
            raise InputError(f"game log {name!r} is {kind}; give a .csv or .parquet file")
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
                _check_delimiter(row, name, reader.line_num)
                continue
            rows.append((reader.line_num, dict(zip(header, row, strict=False))))
    except csv.Error as exc:
        raise InputError(f"{name}: line {reader.line_num}: not valid CSV ({exc})") from None
    return rows, name, "line"


def _check_delimiter(header: list[str], name: str, line: int) -> None:
    """A header of one column holding semicolons or tabs: the file is separated by those, not commas (a CSV saved by
    a spreadsheet in a locale that writes decimal commas); refused, saying which separator to save it with."""
    if len(header) != 1:
        return
    for sep, said in ((";", "semicolons (;)"), ("\t", "tabs")):
        if header[0].count(sep) >= 1:
            raise InputError(
                f"{name}: line {line}: the header {header[0]!r} is separated by {said}, not commas; save the log "
                "as comma-separated CSV (the delimiter ',')"
            )


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
    "winner": ("winner", "won_by", "winning_villain", "victor", "win", "who_won", "winning_player"),
    "first": (
        "first",
        "first_player",
        "firstplayer",
        "starting_player",
        "starter",
        "went_first",
        "goes_first",
        "who_went_first",
        "who_goes_first",
        "who_started",
        "first_villain",
        "starting_villain",
        "first_turn",
    ),
    "rounds": ("rounds", "round", "turns", "game_rounds"),
    "group": ("group", "event", "play_group", "tournament"),
}
_SEAT_COLUMN = re.compile(r"seat_?([0-9]+|[a-c])(?:_villain)?")  # one column per seat, in seat order
# one column per villain, order not known: villain_a, player_1, p1, player_1_villain, villain_player_2, ...
_VILLAIN_COLUMN = re.compile(r"(?:villain_(?:of_)?)?(?:villain|player|p)_?([0-9]+|[a-c])(?:_villain|_name)?")
_PLAYER_VALUE = re.compile(r"(?:player|p|seat)?_?([0-9]+|[a-c])")  # "Player 2" in a winner or first column


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
    numbers: tuple[tuple[str, str], ...] = ()  # (number or letter, column) of per-seat or per-villain columns
    headers: tuple[tuple[str, str], ...] = ()  # (column key, the header as the log writes it)

    def player(self, text, row: dict):
        """A winner or first player written as a column's player (``Player 2``, ``P1``): that column's villain in
        ``row``; anything else as written."""
        m = _PLAYER_VALUE.fullmatch(_column_key(text)) if text else None
        if m is None or not self.numbers:
            return text
        k = m.group(1)
        column = dict(self.numbers).get(k)
        if column is None:  # "P2" of columns villain_a, villain_b: the second column
            i = int(k) - 1 if k.isdigit() else ord(k) - ord("a")
            column = self.numbers[i][1] if 0 <= i < len(self.numbers) else None
        return row.get(column) if column else text

    def describe(self, unknown_first: int = 0) -> str:
        """One line: each column found (as the log names it) and how it was read; ``unknown_first`` games had no
        first player."""
        shown = dict(self.headers)
        self = replace(
            self,
            villains=tuple(shown.get(c, c) for c in self.villains),
            ignored=tuple(shown.get(c, c) for c in self.ignored),
            **{k: shown.get(getattr(self, k), getattr(self, k)) for k in ("winner", "first", "rounds", "group")},
        )
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
    found = {}
    for role, names in COLUMN_NAMES.items():
        present = [n for n in names if n in columns]
        if len(present) > 1:  # refused rather than guessed: the games would depend on which one is read
            raise InputError(
                f"{name}: columns {' and '.join(repr(c) for c in present)} could each be the {role} column; "
                "keep one (or rename the other)"
            )
        found[role] = present[0] if present else None
    seats = sorted((m.group(1), c) for c in columns if (m := _SEAT_COLUMN.fullmatch(c)))
    each = sorted((m.group(1), c) for c in columns if (m := _VILLAIN_COLUMN.fullmatch(c)) and c not in found.values())
    kinds = [k for k, n in (("a villains column", "villains" in columns), ("seat columns", len(seats) >= 2)) if n]
    kinds += ["player columns"] if len(each) >= 2 else []
    if len(kinds) > 1:
        raise InputError(f"{name}: {' and '.join(kinds)} both name the villains (found {', '.join(columns)}); keep one")
    numbers = ()
    if "villains" in columns:
        villains, seat_order = ("villains",), True
    elif len(seats) >= 2:
        villains, seat_order, numbers = tuple(c for _, c in seats), True, tuple(seats)
    elif len(each) >= 2:
        villains, seat_order, numbers = tuple(c for _, c in each), False, tuple(each)
    else:
        raise InputError(
            f"{name}: no villains column (found {', '.join(columns) or 'none'}); the log needs columns {LOG_COLUMNS}"
        )
    if found["winner"] is None:
        raise InputError(
            f"{name}: no 'winner' column (found {', '.join(columns)}); the log needs columns {LOG_COLUMNS}"
        )
    used = set(villains) | {c for c in found.values() if c}
    ignored = tuple(c for c in columns if c not in used)
    return LogLayout(villains, seat_order, **found, ignored=ignored, numbers=numbers)


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
    for role in ("winner", "first"):  # "Player 2": the villain of that player's column
        out[role] = layout.player(out[role], r)
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
    headers = tuple({_column_key(k): str(k) for _, r in rows for k in r}.items())
    rows = [
        (line, {_column_key(k): _cell(v) if not isinstance(v, list) else v for k, v in r.items()}) for line, r in rows
    ]
    if not rows:
        raise InputError(f"{name}: no games (the log needs columns {LOG_COLUMNS})")
    layout = replace(log_layout([c for _, r in rows for c in r], name), headers=headers)
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
        if not re.fullmatch(r"[0-9]+", text) or not text.strip("0"):
            raise _Skipped("malformed", f"rounds must be a positive whole number, got {text!r}", listed)
        if len(text.lstrip("0")) > 9 or int(text) > MAX_ROUNDS:  # the digits first: int() refuses 4,301 of them
            shown = text if len(text) <= 30 else f"{text[:12]}...({len(text):,} digits)"
            raise _Skipped("malformed", f"rounds {shown} is more than {MAX_ROUNDS:,}, more than any game", listed)
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
