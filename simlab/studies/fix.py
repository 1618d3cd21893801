"""Balance fixes: the smallest card edits that bring every matchup into a band, checked against players who adapt.

The band (``45-55``) is read as a share of the fair win rate: in an N-player game a villain's *share* is its win
rate times N/2, so the fair rate (1/N) is a share of 50% and the band bounds every villain of every matchup the
same way. A 2-player villain's share is its win rate (in band: 45% to 55%); a 3-player villain's is 1.5 times its
win rate (in band: a win rate of 30.0% to 36.7%, the band's ends times 2/3). A game stands inside the band by
interval (every villain's 95% interval inside it), by point, or outside at a *distance* (the largest distance of any
villain's share from the band, in share points) (:func:`standing`).

The game to fix (``settings.edits``, else the printed game) is measured first: inside the band by interval, there is
nothing to fix and nothing is screened. Fixes are ranked by :func:`row_key`: inside the band by interval, then fewer
edits, smaller size, fewer side-effect flags, a direct repair, the larger margin; never by the fix's text.

Candidate edits (:func:`candidate_moves`), each one *edit*: a card's cost or Strength moved by 1 to 4 (where the
card prints one, never below 0; size: the change), a copy moved from one card to another of the same deck (two
``copies`` edits; size 1), with ``with_rules`` each rule variant's other values (size 1), and every edit undoing part
or all of the game's ``--edit`` (:func:`direct_moves`). None breaks a card rule the game keeps
(:mod:`simlab.data.card_rules`: one copy of a unique character, a copy of each card a win condition needs, the
deck's size).

The search plays every game on the seeds of the game to fix (common random numbers: game i draws the same stream
with and without the edit, so the difference is measured on paired games). It screens every single edit on
``screen_games`` per matchup (only the matchups its villain plays: the others' games are the base game's), then
combines a pool of them (the best, for each villain's entry outside the band the few that bring it nearest, the
best edits of the cards whose ablation moves the game most, every direct repair) in a beam of width ``beam`` up to
``max_edits`` edits, stopping once a fix inside the band is found. At least ``recheck`` of the best inside the band
(at most ``SPREAD`` per card) and the best direct repairs are measured again on ``games`` per matchup (the
alternatives); the best ``show`` get their side effects (:mod:`simlab.studies.fix_effects`) and are ranked again.

Adaptation: for the best fix, each villain whose cards changed (every villain for a rule) is re-tuned on the edited
game (:func:`simlab.studies.tune.tune`, a small budget, its start the strategy it plays at the level; opponents as
measured) and adopts the tuned strategy if its validation says it is better; every matchup is then measured again,
and the verdict reads the intervals (:func:`adaptation_verdict`: survives, borderline, fails).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.card_rules import card_rule_breaches, copy_breaches, deck_name
from simlab.data.cards import VILLAIN_KEYS
from simlab.data.edits import CardEdit, check_edit, edited_cards, normalise, parse_edit
from simlab.data.rules import RULE_VARIANTS, rules_array
from simlab.errors import EditError, InputError, RuleError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import interval_text, wilson
from simlab.runs.tally import entry_names
from simlab.studies.whatif import paired_effect, winner_indices

KINDS = ("cost", "strength", "copies", "rules")
STEPS = (-4, -3, -2, -1, 1, 2, 3, 4)  # a cost or Strength step, where the data allows it (never below 0)
DEFAULT_BAND = "45-55"
DEFAULT_MAX_EDITS = 3
DEFAULT_GAMES = 2000  # per matchup, the best fixes and the unedited game
DEFAULT_SCREEN_GAMES = 500  # per matchup, each candidate of the search
DEFAULT_BEAM = 4
DEFAULT_POOL = 12
# the pool also holds, for each villain's entry outside the band in the unedited game, the single edits that bring
# that entry nearest the band: ranked by the largest distance alone, the 12 best of 1,434 at strong play were all
# Horned King edits (each leaving Gaston at 17.3 points below the band against Lady Tremaine), so no combination
# could reach Gaston's matchup
PER_ENTRY = 3
DEFAULT_SHOW = 3
DEFAULT_RECHECK = 10  # the best candidates inside the band on the screen, measured again on -n games
SPREAD = 2  # of those, at most this many edit the same card
DEFAULT_IMPACT_CARDS = 4  # cards with the largest ablation impact whose best edits join the beam's pool
DEFAULT_ADAPT_BUDGET = 6000  # search games of each adapting villain's tune
DEFAULT_ADAPT_CANDIDATE_GAMES = 300
DEFAULT_ADAPT_VALIDATION_GAMES = 500
NOTHING_TO_FIX = "nothing to fix: every matchup's interval is inside the band"
SURVIVES, BORDERLINE, FAILS = "survives adaptation", "borderline after adaptation", "fails after adaptation"
DOES_NOT_SURVIVE = FAILS


# ============================================================================ the band and the objective


@dataclass(frozen=True)
class Band:
    """A band of shares (fractions): ``low`` <= 0.5 <= ``high``."""

    low: float
    high: float

    @property
    def text(self) -> str:
        return f"{self.low * 100:g}-{self.high * 100:g}"

    def bounds(self, players: int) -> tuple[float, float]:
        """The band as win rates in a ``players``-player game."""
        return self.low * 2 / players, self.high * 2 / players

    def distance(self, rate: float, players: int) -> float:
        """How far a villain's share (``rate`` times ``players``/2) lies outside the band, in share points."""
        share = rate * players / 2
        return max(self.low - share, 0.0, share - self.high)


def parse_band(text) -> Band:
    """``"45-55"`` (percent) -> Band(0.45, 0.55); the band must hold the fair share, 50."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*%?\s*", str(text))
    if m is None:
        raise InputError(f"--band must look like LOW-HIGH in percent, e.g. 45-55, got {text!r}")
    low, high = float(m[1]), float(m[2])
    if not 0 <= low < high <= 100 or not low <= 50 <= high:
        raise InputError(f"--band {text!r} must have 0 <= LOW < HIGH <= 100 around the fair share 50, e.g. 45-55")
    return Band(low / 100, high / 100)


def objective_key(distance: float, n_edits: int, size: int) -> tuple[float, int, int]:
    """The search's coarse order, smallest first: the distance from the band (rounded so float noise makes no
    order), then the number of edits, then their total size (:func:`row_key` is the full ranking)."""
    return (round(float(distance), 9), int(n_edits), int(size))


TIERS = ("inside the band by interval", "inside the band, an interval crossing an edge", "outside the band")


def standing(winners: dict[str, np.ndarray], band: Band) -> dict:
    """Where a game stands against the band, from each matchup's winners: ``tier`` (0: every villain's 95% interval
    inside the band; 1: every point inside, an interval crossing an edge; 2: outside), ``distance`` (the largest
    of any villain's share from the band, 0 inside), ``margin`` (the smallest distance of a share from the band's
    nearer edge; negative outside) and ``centre`` (the largest distance of a share from the band's centre)."""
    inside, distance, margin, centre = True, 0.0, float("inf"), 0.0
    mid = (band.low + band.high) / 2
    for m, w in winners.items():
        n = len(parse_matchup(m))
        for e in range(n):
            won = w == e
            lo, hi = (float(x) * n / 2 for x in wilson(int(won.sum()), won.size))
            share = float(won.mean()) * n / 2
            inside &= band.low <= lo and hi <= band.high
            distance = max(distance, band.distance(share * 2 / n, n))
            margin = min(margin, share - band.low, band.high - share)
            centre = max(centre, abs(share - mid))
    tier = 0 if inside else 1 if distance == 0 else 2
    return {"tier": tier, "distance": distance, "margin": margin if winners else 0.0, "centre": centre}


def row_key(row: dict) -> tuple:
    """What fixes are ranked by, smallest first, in the order a designer values (never the fix's text):

    1. inside the band by interval, then by point, then outside (and there, nearer the band first);
    2. fewer edits;
    3. smaller total size;
    4. fewer side-effect flags (measured on the finalists; 0 before);
    5. a direct repair (an edit undoing part or all of the game's ``--edit``) first;
    6. the larger margin from the band's edges, then the value nearer the band's centre;
    7. the candidates' order (card-data order) of its edits.

    The margin comes after the size: the tier already says inside by interval or not, and among fixes inside the
    band a point's margin is mostly noise at screening sizes, so the smaller fix wins."""
    outside = round(float(row["distance"]), 9) if row["tier"] == 2 else 0.0
    return (
        int(row["tier"]),
        outside,
        int(row["edits"]),
        int(row["size"]),
        int(row.get("flags", 0)),
        not row.get("direct", False),
        -round(float(row["margin"]), 9),
        round(float(row["centre"]), 9),
        tuple(row.get("order", ())),
    )


# ============================================================================ candidate edits


@dataclass(frozen=True)
class Move:
    """One edit of a fix: card edits (two for a copy moved) or a rule variant's value, and its size."""

    kind: str  # cost, strength, copies, rules (or "listed": from --edits-from)
    edits: tuple = ()
    variant: tuple[str, str] | None = None
    size: int = 1
    villain: str | None = None  # whose cards it changes; None: a rule (every villain)
    direct: bool = False  # undoes part or all of the game's --edit
    order: int = 0  # its place among the candidates (card-data order): the last tie-break, never the text

    @property
    def keys(self) -> set:
        """Two edits with a key in common cannot be combined (the same card attribute, or the same rule)."""
        return {e.key for e in self.edits} | ({("rule", self.variant[0])} if self.variant else set())

    @property
    def text(self) -> str:
        return " + ".join(str(e) for e in self.edits) if self.edits else "=".join(self.variant)

    @property
    def args(self) -> list[str]:
        """The edit as command-line options, ready to paste."""
        if self.variant:
            return [f"--rules {'='.join(self.variant)}"]
        return [f"--edit {_quoted(str(e))}" for e in self.edits]


def _quoted(text: str) -> str:
    """``text`` as one shell word: in double quotes, or single quotes when it holds a double quote (I Said "If")."""
    import shlex

    if '"' not in text and not any(c in text for c in "$`\\"):
        return f'"{text}"'
    return shlex.quote(text)


Fix = tuple  # of Moves, sorted by text


def fix_text(fix: Fix) -> str:
    return " + ".join(m.text for m in fix) or "(no edit)"


def fix_args(fix: Fix) -> str:
    return " ".join(a for m in fix for a in m.args)


def fix_parts(fix: Fix, settings: RunSettings) -> tuple[tuple, dict]:
    """The edits and rule variants of the game with ``fix`` applied on top of ``settings``'."""
    edits = normalise(list(settings.edits) + [e for m in fix for e in m.edits])
    variants = {**settings.variant_dict, **dict(m.variant for m in fix if m.variant)}
    return edits, variants


def _playable(settings: RunSettings, fix: Fix) -> bool:
    try:
        edited_cards(fix_parts(fix, settings)[0])
    except EditError:
        return False
    return True


def candidate_moves(settings: RunSettings, villains=VILLAIN_KEYS, kinds=KINDS) -> list[Move]:
    """Every single edit of the villains' cards (and rules) the search tries, on the game of ``settings``: each
    ``kinds`` step, and every edit that undoes part or all of the game's ``--edit`` (:func:`direct_moves`, whatever
    the kinds). None breaks a card rule the game keeps (:func:`simlab.data.card_rules.card_rule_breaches`)."""
    cards = edited_cards(settings.edits)
    out = []
    for c in cards.cards:
        if c.villain not in villains:
            continue
        for attribute in ("cost", "strength"):
            if attribute not in kinds:
                continue
            for step in STEPS:
                try:
                    e = check_edit(c.name, attribute, getattr(c, attribute) + step)
                except EditError:  # no such value printed, or below 0
                    continue
                out.append(Move(attribute, (e,), size=abs(step), villain=c.villain))
    if "copies" in kinds:
        for v in villains:
            for deck in ("villain", "fate"):
                members = [c for c in cards.cards if c.villain == v and c.deck == deck]
                for a in (c for c in members if c.copies >= 1):
                    for b in (c for c in members if c is not a):
                        edits = normalise(
                            [CardEdit(a.name, "copies", a.copies - 1), CardEdit(b.name, "copies", b.copies + 1)]
                        )
                        out.append(Move("copies", edits, size=1, villain=v))
    if "rules" in kinds:
        given = settings.variant_dict
        for name, var in RULE_VARIANTS.items():
            out += [
                Move("rules", variant=(name, value)) for value in var.values if value != given.get(name, var.default)
            ]
    direct = {m.edits: m for m in direct_moves(settings) if m.villain in villains}
    out = [replace(m, direct=True) if m.edits in direct else m for m in out]
    out += [m for e, m in direct.items() if e not in {x.edits for x in out}]
    # a cost or Strength check_edit accepts keeps every card rule; a copy moved is checked on the counts
    out = [m for m in out if _allowed(settings, cards, m)]
    return [replace(m, order=i) for i, m in enumerate(out)]


def direct_moves(settings: RunSettings) -> list[Move]:
    """Every edit that undoes part or all of the game's ``--edit``: a cost or Strength moved back toward its
    printed value (each value on the way), an ablated card playable again, one copy moved back between two cards
    the edits changed and, when more than one copy moved, every copy back."""
    printed, base = edited_cards(), edited_cards(settings.edits)
    out = []
    for e in settings.edits:
        if not isinstance(e, CardEdit):
            continue
        c = printed.card(e.card)
        if e.attribute in ("cost", "strength") and e.value != getattr(c, e.attribute):
            was, step = getattr(c, e.attribute), 1 if getattr(c, e.attribute) > e.value else -1
            for v in range(e.value + step, was + step, step):
                edit = (CardEdit(e.card, e.attribute, v),)
                out.append(Move(e.attribute, edit, size=abs(v - e.value), villain=c.villain, direct=True))
        elif e.attribute == "ablate" and e.value:
            out.append(Move("listed", (CardEdit(e.card, "ablate", 0),), villain=c.villain, direct=True))
    for v in printed.villains:
        for deck in ("villain", "fate"):
            members = [c for c in printed.cards if c.villain == v.key and c.deck == deck]
            gained = {c.name: base.card(c.name).copies - c.copies for c in members}
            plus, minus = [n for n, g in gained.items() if g > 0], [n for n, g in gained.items() if g < 0]
            for a in plus:
                for b in minus:
                    now_a, now_b = base.card(a).copies, base.card(b).copies
                    edits = normalise([CardEdit(a, "copies", now_a - 1), CardEdit(b, "copies", now_b + 1)])
                    out.append(Move("copies", edits, size=1, villain=v.key, direct=True))
            moved = sum(gained[n] for n in plus)
            if moved > 1 and minus:
                edits = normalise([CardEdit(n, "copies", printed.card(n).copies) for n in plus + minus])
                out.append(Move("copies", edits, size=moved, villain=v.key, direct=True))
    return out


def _allowed(settings: RunSettings, cards, move: Move) -> bool:
    """A candidate keeps every card rule the game keeps: a cost or Strength step always does; a copy moved is read
    from the counts (:func:`simlab.data.card_rules.copy_breaches`, no compiling); another edit is compiled."""
    if move.kind in ("cost", "strength", "rules"):
        return True
    if all(e.attribute == "copies" for e in move.edits):
        return not copy_breaches(cards, {e.card: e.value for e in move.edits})
    return not rule_breaches(settings, (move,))


def rule_breaches(settings: RunSettings, fix: Fix) -> list[str]:
    """The card rules the game with ``fix`` breaks and the game of ``settings`` keeps (the reasons; empty: none)."""
    return card_rule_breaches(fix_parts(fix, settings)[0], settings.edits)


def moves_from_file(path, settings: RunSettings) -> list[Move]:
    """The edits a file allows, one a line: card edits in --edit syntax (several joined with `` + `` are one edit,
    e.g. a copy moved) or a rule variant ``VARIANT=VALUE``; ``#`` starts a comment."""
    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read --edits-from {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    cards = edited_cards(settings.edits)
    out = []
    for i, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append(_listed_move(text, f"--edits-from {path}:{i}", cards, settings))
    if not out:
        raise InputError(f"--edits-from {str(path)!r} lists no edit")
    direct = {m.edits for m in direct_moves(settings)}
    return [replace(m, order=i, direct=m.edits in direct) for i, m in enumerate(out)]


def _listed_move(text: str, where: str, cards, settings: RunSettings) -> Move:
    parts = [p.strip() for p in text.split(" + ")]
    if len(parts) == 1 and ":" not in parts[0] and "=" in parts[0]:
        name, _, value = parts[0].partition("=")
        try:
            rules_array({**settings.variant_dict, name.strip(): value.strip()}, settings.max_turns)
        except RuleError as exc:
            raise InputError(f"{where}: {exc}") from None
        return Move("rules", variant=(name.strip(), value.strip()))
    edits = []
    for p in parts:
        e = parse_edit(p, where)
        if not isinstance(e, CardEdit):
            raise InputError(f"{where}: {p!r}: fix edits are card edits and rule variants, not board edits")
        edits.append(e)
    edits = normalise(edits)
    size = 0
    for e in edits:
        old = getattr(cards.card(e.card), e.attribute) if e.attribute in ("cost", "strength", "copies") else 0
        size += abs(e.value - old) if e.attribute != "ablate" else e.value
    copies = sum(abs(e.value - cards.card(e.card).copies) for e in edits if e.attribute == "copies")
    size -= copies // 2  # a copy moved changes two cards by one: size 1
    if size == 0:
        raise InputError(f"{where}: {text!r} changes nothing in this game")
    owners = {cards.card(e.card).villain for e in edits}
    move = Move("listed", edits, size=size, villain=owners.pop() if len(owners) == 1 else None)
    if not _playable(settings, (move,)):
        raise InputError(f"{where}: {text!r} does not give a playable deck")
    refused = rule_breaches(settings, (move,))
    if refused:
        raise InputError(f"{where}: {text!r} is refused: {'; '.join(refused)}")
    return move


# ============================================================================ measuring


def _encode(w: np.ndarray) -> str:
    return (w.astype(np.int16) + 49).astype(np.uint8).tobytes().decode("ascii")


def _decode(s: str) -> np.ndarray:
    return (np.frombuffer(s.encode("ascii"), np.uint8).astype(np.int16) - 49).astype(np.int8)


class _Games:
    """Plays (or finds in the checkpoint) the winners of a matchup's games under a fix, counting games for the
    progress callback: ``phase`` names what is being played and how many games it plans."""

    def __init__(self, settings: RunSettings, checkpoint, progress):
        from simlab.runs.backend import fingerprint
        from simlab.studies.equilibrium import StepStore

        record = {
            "study": "fix",
            "seed": settings.seed,
            "level": settings.level_name,
            "strategies": {v: str(settings.strategy(v)) for v in VILLAIN_KEYS},
            "variants": settings.variant_dict,
            "edits": [str(e) for e in settings.edits],
            "max_turns": settings.max_turns,
            "rules_hash": fingerprint()["rules_hash"],
        }
        self.settings, self.store, self.progress = settings, StepStore(checkpoint, record), progress
        self.played = 0  # games played by this call (those found in the checkpoint not counted)
        self.label, self.done, self.total = "", 0, 0

    def phase(self, label: str, total: int) -> None:
        self.label, self.done, self.total = label, 0, max(int(total), 1)
        self.tick(0)

    def tick(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total, self.label)

    def winners(self, matchup: str, fix: Fix, n: int, strategies: dict | None = None) -> np.ndarray:
        from simlab.studies.equilibrium import spec_key

        edits, variants = fix_parts(fix, self.settings)
        named = {v: spec_key(s) for v, s in sorted((strategies or {}).items())}
        key = json.dumps({"matchup": matchup, "games": n, "edits": [str(e) for e in edits], "variants": variants})
        key = key if not named else key + json.dumps(named)
        got = self.store.get(key)
        if got is None:
            s = self.settings.replace(games=n, edits=edits, variants=variants, progress=None)
            w = winner_indices(matchup, settings=s, strategies=strategies)
            got = self.store.put(key, {"winners": _encode(w)})
            self.played += n
        self.tick(n)
        return _decode(got["winners"])

    def records(self, matchup: str, fix: Fix, n: int) -> dict[str, np.ndarray]:
        """Per game of ``matchup`` under ``fix``: winner, winner's seat and rounds (:mod:`simlab.studies.fix_effects`),
        found in the checkpoint or played."""
        from simlab.studies.fix_effects import game_records

        edits, variants = fix_parts(fix, self.settings)
        key = json.dumps({"records": matchup, "games": n, "edits": [str(e) for e in edits], "variants": variants})
        got = self.store.get(key)
        if got is None:
            s = self.settings.replace(games=n, edits=edits, variants=variants, progress=None)
            r = game_records(matchup, s)
            data = {"winners": _encode(r["winner"]), "seats": _encode(r["seat"]), "rounds": r["rounds"].tolist()}
            got = self.store.put(key, data)
            self.played += n
        self.tick(n)
        winner, seat = _decode(got["winners"]), _decode(got["seats"])
        return {"winner": winner, "seat": seat, "rounds": np.asarray(got["rounds"], np.int64)}


def _affects(fix: Fix, matchup: str) -> bool:
    villains = set(parse_matchup(matchup))
    return any(m.villain is None or m.villain in villains for m in fix)


def _distance(winners: dict[str, np.ndarray], band: Band) -> float:
    return max(_entry_distances(winners, band).values(), default=0.0)


def _entry_distances(winners: dict[str, np.ndarray], band: Band) -> dict[tuple[str, int], float]:
    """(matchup, seat entry) -> how far that villain's win rate lies from the band."""
    out = {}
    for m, w in winners.items():
        n = len(parse_matchup(m))
        for e in range(n):
            out[(m, e)] = band.distance(float(np.mean(w == e)), n)
    return out


def _pool(rows: list[dict], entries: dict[str, dict], base: dict, band: Band, options) -> list[str]:
    """The single edits a beam combines: the ``pool`` best by the objective, then for each entry outside the band
    in the unedited game the ``PER_ENTRY`` edits that bring it nearest (fix texts, no repeats)."""
    out = [r["fix"] for r in _ranked(rows)[: options.pool]]
    for key, away in _entry_distances(base, band).items():
        if away > 0:
            nearest = sorted(rows, key=lambda r: (entries[r["fix"]][key], tuple(r["order"])))[:PER_ENTRY]
            out += [r["fix"] for r in nearest if entries[r["fix"]][key] < away]
    return list(dict.fromkeys(out))


def _measure(games: _Games, fix: Fix, base: dict, n: int) -> dict[str, np.ndarray]:
    """Winners of every matchup under ``fix`` on the first ``n`` games (the unedited game's where it plays no
    villain the fix changes)."""
    return {m: games.winners(m, fix, n) if _affects(fix, m) else w[:n] for m, w in base.items()}


# ============================================================================ the result


@dataclass
class FixResult:
    """The best fixes found and how they were found; :meth:`frames` are its tables."""

    band: Band
    level: str
    note: str  # why the level is not the one asked for, or ""
    matchups: list[str]
    base: pl.DataFrame  # per matchup and villain: the unedited game's win rate, the band, the distance
    fixes: pl.DataFrame  # the best fixes, ranked: edits, options to paste, size, distance on the full games
    table: pl.DataFrame  # per fix, matchup and villain: before, after, the paired change
    searched: pl.DataFrame  # every fix the search measured, on the screening games
    adaptation: pl.DataFrame = field(default_factory=pl.DataFrame)  # the best fix, fixed and adapted (or empty)
    adapted: pl.DataFrame = field(default_factory=pl.DataFrame)  # per re-tuned villain: start, adopted?, change
    verdict: str = "adaptation not checked"  # survives / borderline / fails after adaptation, or nothing to fix
    effects: pl.DataFrame = field(default_factory=pl.DataFrame)  # per finalist, matchup and metric: side effects
    alternatives: pl.DataFrame = field(default_factory=pl.DataFrame)  # the candidates measured again, by card
    edits: list = field(default_factory=list)  # the game to fix: its --edit (empty: the printed game)
    base_tier: int = 2  # where the game to fix stands (standing()["tier"])
    games: int = 0
    seconds: float = 0.0
    settings: dict = field(default_factory=dict)
    play: str = ""  # the level and any strategy that differs from it (simlab.runs.levels.play_label)

    @property
    def best(self) -> dict | None:
        return self.fixes.row(0, named=True) if self.fixes.height else None

    def frames(self) -> dict[str, pl.DataFrame]:
        return {
            "fix_base": self.base,
            "fix_best": self.fixes,
            "fix_matchups": self.table,
            "fix_searched": self.searched,
            "fix_adaptation": self.adaptation,
            "fix_adapted": self.adapted,
            "fix_effects": self.effects,
            "fix_alternatives": self.alternatives,
        }


def _rows(band: Band, before: dict, after: dict | None = None) -> list[dict]:
    """Per matchup and villain: the win rate before [Wilson 95%] and, with ``after`` (the same games), after and
    the paired change [Newcombe 95%], with the band as win rates and each distance."""
    rows = []
    for m, w0 in before.items():
        villains = parse_matchup(m)
        n_players = len(villains)
        lo, hi = band.bounds(n_players)
        for e, name in enumerate(entry_names(villains)):
            a = (w0 == e).astype(np.int8)
            r = {"matchup": m, "villain": name, "players": n_players, "games": a.size, "band_low": lo, "band_high": hi}
            r |= _rate("before", a, band, n_players)
            if after is not None:
                b = (after[m] == e).astype(np.int8)
                r |= _rate("after", b, band, n_players)
                eff = paired_effect(a, b)
                r |= {"change": eff["change"], "change_low": eff["change_low"], "change_high": eff["change_high"]}
                r["change_text"] = interval_text(eff["change"], eff["change_low"], eff["change_high"], "+")
            rows.append(r)
    return rows


def _rate(prefix: str, won: np.ndarray, band: Band, players: int) -> dict:
    low, high = (float(x) for x in wilson(int(won.sum()), won.size))
    rate = float(won.mean())
    return {
        prefix: rate,
        f"{prefix}_low": low,
        f"{prefix}_high": high,
        f"{prefix}_text": interval_text(rate, low, high),
        f"{prefix}_distance": band.distance(rate, players),
    }


# ============================================================================ the study


def default_level(villains=VILLAIN_KEYS) -> tuple[str, str]:
    """The strongest level available for ``villains`` (``strong`` once equilibrium mixtures exist) and, when that
    is not ``strong``, a sentence saying so."""
    from simlab.runs.levels import GOOD_PLAY, available_levels, strongest_level

    if GOOD_PLAY in available_levels(villains):
        return GOOD_PLAY, ""
    level = strongest_level(villains)
    return level, (
        f"level strong needs equilibrium mixtures in configs/equilibrium/ (simlab equilibrium --all makes them); "
        f"measured at {level}, the strongest level available"
    )


def default_matchups() -> list[str]:
    """Every pairing of two different villains and the 3-player game (a mirror is fair whatever the edit)."""
    from simlab.studies.matchups import matchups

    return [m for m in matchups() if len(set(parse_matchup(m))) == len(parse_matchup(m))]


@dataclass(frozen=True)
class FixOptions:
    """How hard :func:`fix` searches (each checked: bad input is an InputError naming it)."""

    max_edits: int = DEFAULT_MAX_EDITS
    screen_games: int = DEFAULT_SCREEN_GAMES
    beam: int = DEFAULT_BEAM
    pool: int = DEFAULT_POOL
    show: int = DEFAULT_SHOW
    kinds: tuple[str, ...] = ("cost", "strength", "copies")
    adapt_budget: int = DEFAULT_ADAPT_BUDGET  # 0: no adaptation check
    adapt_candidate_games: int = DEFAULT_ADAPT_CANDIDATE_GAMES
    adapt_validation_games: int = DEFAULT_ADAPT_VALIDATION_GAMES
    recheck: int = DEFAULT_RECHECK  # best candidates inside the band measured again on -n games
    impact_cards: int = DEFAULT_IMPACT_CARDS  # cards with the largest ablation impact (0: no ablation)

    def __post_init__(self):
        if isinstance(self.impact_cards, bool) or not isinstance(self.impact_cards, int) or self.impact_cards < 0:
            raise InputError(f"--impact-cards must be a whole number, 0 or more, got {self.impact_cards!r}")
        for name in ("max_edits", "screen_games", "beam", "pool", "show", "adapt_candidate_games", "recheck"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"--{name.replace('_', '-')} must be a whole number of at least 1, got {value!r}")
        if isinstance(self.adapt_budget, bool) or not isinstance(self.adapt_budget, int) or self.adapt_budget < 0:
            raise InputError(f"--adapt-budget must be a number of games, 0 or more, got {self.adapt_budget!r}")
        bad = [k for k in self.kinds if k not in KINDS]
        if bad or not self.kinds:
            raise InputError(f"edit kinds must be some of {', '.join(KINDS)}, got {', '.join(self.kinds) or 'none'}")


REPORT_FIX_KEYS = {"band", "games", "matchups", "edits_from", "with_rules", *(f.name for f in fields(FixOptions))}


def options_from_table(table: dict, where: str) -> tuple[Band, int | None, list | None, str | None, FixOptions]:
    """A report's ``[report.fix]`` table (``band``, ``games`` per matchup, ``matchups``, ``edits_from``,
    ``with_rules`` and :class:`FixOptions` fields, ``kinds`` a list) -> (band, games, matchups, edits_from,
    options); bad keys and values are an InputError naming ``where``."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: [report.fix] must be a table, got {table!r}")
    unknown = sorted(set(table) - REPORT_FIX_KEYS)
    if unknown:
        raise InputError(f"{where}: [report.fix] has unknown keys {unknown}; choose from {sorted(REPORT_FIX_KEYS)}")
    given = {k: v for k, v in table.items() if k in {f.name for f in fields(FixOptions)}}
    kinds = tuple(given.pop("kinds", ("cost", "strength", "copies")))
    kinds += ("rules",) if table.get("with_rules") and "rules" not in kinds else ()
    try:
        options = FixOptions(**given, kinds=kinds)
        band = parse_band(table.get("band", DEFAULT_BAND))
    except InputError as exc:
        raise InputError(f"{where}: [report.fix] {exc}") from None
    return band, table.get("games"), table.get("matchups"), table.get("edits_from"), options


def fix(
    band: str | Band = DEFAULT_BAND,
    matchups: list[str] | None = None,
    options: FixOptions | None = None,
    edits_from: str | Path | None = None,
    checkpoint: str | Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> FixResult:
    """The smallest edits that bring every matchup into ``band`` (see the module's text for the objective and the
    search), the best ``options.show`` of them with every matchup before and after, and the best one checked against
    adaptation. ``matchups``: default :func:`default_matchups`. ``edits_from``: a file of the edits allowed
    (:func:`moves_from_file`) instead of every candidate. ``settings`` (a :class:`RunSettings`; ``given``: its fields
    as keywords): games per matchup of the final measure, seed, level (default :func:`default_level`), rule variants,
    card edits (the game to fix: an edit given here is the base every fix starts from), turn cap, threads.
    ``checkpoint``: a directory keeping every measurement (the same call resumes). ``progress``: called with
    (games done, games planned, what is played)."""
    t0 = time.perf_counter()
    band, options, settings, matchups, note, moves = _prepared(band, matchups, options, edits_from, settings, given)
    games = _Games(settings, checkpoint, progress)
    games.phase("the game to fix", settings.games * len(matchups))
    base = {m: games.winners(m, (), settings.games) for m in matchups}
    empty = pl.DataFrame()
    result = FixResult(band, settings.level_name, note, matchups, pl.DataFrame(_rows(band, base)), empty, empty, empty)
    result.play, result.edits = settings.play_label(), [str(e) for e in settings.edits]
    result.base_tier = standing(base, band)["tier"]
    if result.base_tier == 0:  # every interval inside the band: nothing to screen
        result.verdict = NOTHING_TO_FIX
    else:
        moves = moves if moves is not None else _candidates(settings, matchups, options)
        result.searched, by_text = _search(games, moves, base, band, options)
        parts = _finalists(games, result.searched, by_text, base, band, options)
        result.fixes, result.table, result.effects, result.alternatives, finals = parts
        if finals and options.adapt_budget:
            result.adaptation, result.adapted, result.verdict = _adapt(games, finals[0], base, band, options)
    result.games, result.seconds = games.played, time.perf_counter() - t0
    result.settings = {**settings.describe(), "band": band.text, "matchups": matchups, **vars(options)}
    result.settings["kinds"] = list(options.kinds)
    return result


def _candidates(settings: RunSettings, matchups: list[str], options: FixOptions) -> list[Move]:
    villains = tuple(v for v in VILLAIN_KEYS if any(v in parse_matchup(m) for m in matchups))
    moves = candidate_moves(settings, villains, options.kinds)
    if not moves:
        raise InputError("no candidate edit: every one would break a rule of the card data")
    return moves


def _prepared(band, matchups, options, edits_from, settings, given):
    """:func:`fix`'s arguments checked before any game: (band, options, settings, matchups, level note, moves)."""
    band = band if isinstance(band, Band) else parse_band(band)
    options = options or FixOptions()
    settings = settings_from(settings, where="the matchups", **given)
    matchups = _check_matchups(matchups)
    note = ""
    if settings.level is None:
        level, note = default_level()
        settings = settings.replace(level=level)
    if options.screen_games > settings.games:
        raise InputError(f"--screen-games ({options.screen_games:,}) cannot exceed -n ({settings.games:,})")
    if options.adapt_budget:
        for v in VILLAIN_KEYS:
            _check_adapt(options, settings, v, matchups)
    # a file's edits are checked before any game; the candidates are made once the base game needs a fix
    moves = moves_from_file(edits_from, settings) if edits_from else None
    return band, options, settings, matchups, note, moves


def fix_plan(
    band: str | Band = DEFAULT_BAND,
    matchups: list[str] | None = None,
    options: FixOptions | None = None,
    edits_from: str | Path | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> tuple[int, int]:
    """What :func:`fix` with these arguments plays at most, worked out before any game: (games, runs under an
    edit). At most, because the beam stops once a fix is inside the band, a combination repeating a fix is not
    played again, and the adaptation check runs only when a fix is found; the screen of single edits is exact."""
    band, options, settings, matchups, _, moves = _prepared(band, matchups, options, edits_from, settings, given)
    moves = moves if moves is not None else _candidates(settings, matchups, options)
    n, screen = settings.games, options.screen_games
    games = n * len(matchups)  # the unedited game
    single = sum(_affects((mv,), m) for mv in moves for m in matchups)
    entries = sum(len(parse_matchup(m)) for m in matchups)
    direct = sum(m.direct for m in moves)
    # the best, the nearest for each entry out of the band, the impact cards' best two, the direct repairs
    pool = options.pool + PER_ENTRY * entries + 2 * options.impact_cards + direct
    combos = (options.max_edits - 1) * options.beam * pool * len(matchups)
    ablations = 0
    if options.impact_cards:
        from simlab.studies.impact import deck_cards

        for v in VILLAIN_KEYS:
            ablations += deck_cards(v).height * sum(v in parse_matchup(m) for m in matchups)
    final = (options.recheck + 2) * len(matchups)  # measured again: the best, then two direct repairs
    every = len(dict.fromkeys(matchups + default_matchups()))
    effects = every * (options.show + 1)  # the base and each finalist, on every matchup
    games += screen * (single + combos + ablations) + n * (final + effects)
    runs = single + combos + ablations + final + effects
    if options.adapt_budget:
        plans = [_adapt_plan(options, settings, v, matchups) for v in VILLAIN_KEYS]
        tunes = [plan.search_planned + plan.validation_total for plan in plans]
        # a rule edit re-tunes every villain; card edits only the villains whose cards they change
        any_rule = edits_from is not None or "rules" in options.kinds
        changed = len(VILLAIN_KEYS) if any_rule else min(options.max_edits, len(VILLAIN_KEYS))
        games += sum(sorted(tunes, reverse=True)[:changed]) + n * len(matchups)
        runs += len(matchups)
    return games, runs


def _check_matchups(matchups) -> list[str]:
    if not matchups:
        return default_matchups()
    out = []
    for m in matchups:
        name = "-vs-".join(parse_matchup(m))
        if name in out:
            raise InputError(f"--matchup {m!r} is given twice")
        out.append(name)
    return out


def _objective(villain: str, matchups) -> str:
    """The re-tune's objective: the villain's win rate in the kinds of game (2- or 3-player) it is measured in."""
    players = sorted({len(parse_matchup(m)) for m in matchups if villain in parse_matchup(m)})
    return ",".join(f"{p}p:current=1" for p in players) or "2p:current=1"


def _adapt_plan(options: FixOptions, settings: RunSettings, villain: str, matchups):
    """The plan of the adaptation's re-tune of ``villain`` (its games; bad settings an InputError)."""
    from simlab.studies.tune.search import _tune_plan

    goal = (_objective(villain, matchups), None)
    start = _start(settings, villain)
    budget, cand, valid = options.adapt_budget, options.adapt_candidate_games, options.adapt_validation_games
    return _tune_plan(villain, budget, start, None, cand, valid, None, None, "fix-adapt", goal, (settings, {}), None)


def _check_adapt(options: FixOptions, settings: RunSettings, villain: str, matchups) -> None:
    """A tune with the adaptation's budget can play at least one generation (checked before any game)."""
    try:
        _adapt_plan(options, settings, villain, matchups)
    except InputError as exc:
        raise InputError(f"--adapt-budget: {exc}") from None


def _ranked(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=row_key)


def _row(fix: Fix, stage: int, winners: dict, band: Band, settings: RunSettings) -> dict:
    """A fix's row of a ranking: what it is, how big, where it stands against the band (:func:`standing`), and the
    cards it edits (a copy moved: the card giving the copy first; the alternatives are grouped by the first)."""
    base = edited_cards(settings.edits)
    cards = []
    for m in fix:
        cards += sorted((e.card for e in m.edits), key=lambda c, m=m: _gain(m, c, base)) or [m.variant[0]]
    cards = list(dict.fromkeys(cards))
    row = {"stage": stage, "fix": fix_text(fix), "edits": len(fix), "size": sum(m.size for m in fix)}
    row |= {"direct": any(m.direct for m in fix), "order": sorted(m.order for m in fix), "cards": cards}
    return row | standing(winners, band)


def _gain(move: Move, card: str, base) -> int:
    """How many copies ``move`` gives ``card`` (a copy moved: -1 for the card giving it); 0 for another edit."""
    return sum(e.value - base.card(card).copies for e in move.edits if e.card == card and e.attribute == "copies")


def _search(games: _Games, moves: list[Move], base: dict, band: Band, options: FixOptions):
    """Every single edit, then combinations of the best in a beam, each on the first ``screen_games`` games:
    (one row per fix measured, best first; fix text -> Fix)."""
    n = options.screen_games
    start = {m: w[:n] for m, w in base.items()}
    games.phase(f"screening {len(moves):,} single edits", n * sum(_affects((mv,), m) for mv in moves for m in base))
    rows, by_text, entries = [], {}, {}

    def measure(fix: Fix, stage: int) -> dict:
        winners = _measure(games, fix, start, n)
        row = _row(fix, stage, winners, band, games.settings)
        entries[row["fix"]] = _entry_distances(winners, band)
        row["options"], row["villains"] = fix_args(fix), ", ".join(sorted({m.villain or "rules" for m in fix}))
        by_text[row["fix"]] = fix
        rows.append(row)
        return row

    for mv in moves:
        measure((mv,), 1)
    ranked = _ranked(rows)
    pool = [by_text[t][0] for t in _pool(rows, entries, start, band, options)]
    pool += [m for m in _impact_moves(games, moves, rows, by_text, start, band, options) if m not in pool]
    pool += [m for m in moves if m.direct and m not in pool]
    beam = [by_text[r["fix"]] for r in ranked[: options.beam]]
    for k in range(2, options.max_edits + 1):
        if _ranked(rows)[0]["tier"] < 2:
            break  # a fix in the band: one with more edits cannot beat it
        combos = _combinations(games.settings, beam, pool, by_text)
        if not combos:
            break
        games.phase(f"combining {k} edits", n * sum(_affects(c, m) for c in combos for m in base))
        keep = {r["fix"] for r in _ranked([measure(c, k) for c in combos])[: options.beam]}
        beam = [c for c in combos if fix_text(c) in keep]
    return pl.DataFrame(_ranked(rows)), by_text


def _impact_moves(games: _Games, moves, rows, by_text, start: dict, band: Band, options: FixOptions) -> list[Move]:
    """The best single edits (two each) of the ``impact_cards`` cards whose ablation (the ``cards`` study's causal
    impact: the card never played, same games) moves the villains outside the band most, on the screening games."""
    from simlab.studies.impact import deck_cards

    out_of_band = {m: w for m, w in start.items() if any(d > 0 for d in _entry_distances({m: w}, band).values())}
    if not options.impact_cards or not out_of_band:
        return []
    villains = sorted({v for m in out_of_band for v in parse_matchup(m)}, key=VILLAIN_KEYS.index)
    names = [(v, c) for v in villains for c in deck_cards(v)["card"].to_list()]
    n = len(next(iter(start.values())))
    games.phase(f"ablating {len(names)} cards", n * sum(v in parse_matchup(m) for v, _ in names for m in out_of_band))
    impact = {}
    for v, card in names:
        ablated = (Move("listed", (CardEdit(card, "ablate", 1),), villain=v),)
        after = {m: games.winners(m, ablated, n) for m, w in out_of_band.items() if v in parse_matchup(m)}
        impact[card] = max(
            abs(float(np.mean(after[m] == e)) - float(np.mean(w == e)))
            for m, w in out_of_band.items()
            if m in after
            for e in range(len(parse_matchup(m)))
        )
    top = sorted(impact, key=lambda c: (-round(impact[c], 9), [x.name for x in edited_cards().cards].index(c)))
    out = []
    for card in top[: options.impact_cards]:
        own = [r for r in _ranked(rows) if r["edits"] == 1 and card in r["cards"]]
        out += [by_text[r["fix"]][0] for r in own[:2]]
    return out


def _combinations(settings: RunSettings, beam: list, pool: list, seen: dict) -> list:
    """Each fix of the beam with one more edit of the pool that touches none of its card attributes or rules."""
    out = {}
    for f in beam:
        for mv in pool:
            if any(mv.keys & other.keys for other in f):
                continue
            combo = tuple(sorted((*f, mv), key=lambda x: x.order))
            if fix_text(combo) not in seen and combo not in out and _playable(settings, combo):
                if not rule_breaches(settings, combo):
                    out[combo] = None
    return list(out)


def _recheck_choice(searched: pl.DataFrame, options: FixOptions) -> list[str]:
    """The screen's candidates measured again: the best inside the band (at least ``recheck``), at most ``SPREAD``
    editing any one card, then the best direct repairs, then the best outside the band to make up the number."""
    rows = list(searched.iter_rows(named=True))  # ranked
    picked, per_card = [], {}
    for r in rows:
        if len(picked) >= options.recheck or r["tier"] == 2:
            break
        if any(per_card.get(c, 0) >= SPREAD for c in r["cards"]):
            continue
        picked.append(r["fix"])
        for c in r["cards"]:
            per_card[c] = per_card.get(c, 0) + 1
    picked += [r["fix"] for r in rows if r["direct"] and r["fix"] not in picked][:2]
    picked += [r["fix"] for r in rows if r["fix"] not in picked][: max(options.recheck - len(picked), 0)]
    return list(dict.fromkeys(picked))


def _finalists(games: _Games, searched: pl.DataFrame, by_text: dict, base: dict, band: Band, options: FixOptions):
    """The screen's best candidates (:func:`_recheck_choice`) measured again on all the games and ranked there
    (the alternatives); the best ``show`` with their side effects, ranked again with them: (fixes, table, effects,
    alternatives, [(Fix, winners)])."""
    n = games.settings.games
    chosen = [by_text[t] for t in _recheck_choice(searched, options)]
    games.phase(f"measuring the best {len(chosen)} fixes again", n * sum(_affects(f, m) for f in chosen for m in base))
    after, rows = {}, []
    for f in chosen:
        after[fix_text(f)] = _measure(games, f, base, n)
        rows.append(_row(f, 0, after[fix_text(f)], band, games.settings) | {"options": fix_args(f)})
    alternatives = _ranked(rows)
    finals = alternatives[: options.show]
    effects = _side_effects(games, [by_text[r["fix"]] for r in finals], list(base), band)
    for r in finals:
        r["flag_list"] = fx_flags(effects.get(r["fix"], []))
        r["flags"] = len(r["flag_list"])
    ranked = _ranked(finals)
    table, effect_rows = [], []
    for i, r in enumerate(ranked, 1):
        r |= {"rank": i, "in_band": r["tier"] < 2, "verdict": TIERS[r["tier"]]}
        r["screen_distance"] = float(searched.filter(pl.col("fix") == r["fix"])["distance"][0])
        r["words"] = fix_words(by_text[r["fix"]], games.settings)
        r["flags_text"] = "; ".join(r["flag_list"]) or "no side effect flagged"
        table += [{"rank": i, "fix": r["fix"], **row} for row in _rows(band, base, after[r["fix"]])]
        effect_rows += [{"rank": i, "fix": r["fix"], **e} for e in effects.get(r["fix"], [])]
    columns = ("rank", "fix", "words", "options", "edits", "size", "direct", "tier", "verdict", "distance")
    columns += ("margin", "in_band", "flags", "flags_text", "screen_distance")
    fixes = pl.DataFrame(ranked).select(*columns) if ranked else pl.DataFrame()
    alt = pl.DataFrame(_alternatives(alternatives, by_text, games.settings)) if alternatives else pl.DataFrame()
    finals_out = [(by_text[r["fix"]], after[r["fix"]]) for r in ranked]
    return fixes, pl.DataFrame(table), pl.DataFrame(effect_rows), alt, finals_out


def _alternatives(ranked: list[dict], by_text: dict, settings: RunSettings) -> list[dict]:
    """The candidates measured again, ranked, grouped by the card each edits first (groups in the order of their
    best fix)."""
    first: dict[str, int] = {}
    for i, r in enumerate(ranked):
        first.setdefault(r["cards"][0] if r["cards"] else "", i)
    out = []
    for i, r in enumerate(ranked, 1):
        card = r["cards"][0] if r["cards"] else ""
        row = {"card": card, "rank": i, "fix": r["fix"], "words": fix_words(by_text[r["fix"]], settings)}
        row |= {k: r[k] for k in ("edits", "size", "direct", "tier", "distance", "margin", "options")}
        out.append(row | {"verdict": TIERS[r["tier"]], "group": first[card]})
    return sorted(out, key=lambda r: (r["group"], r["rank"]))


def _side_effects(games: _Games, finals: list, asked: list[str], band: Band) -> dict[str, list[dict]]:
    """Per finalist (its text): the side-effect rows (:func:`simlab.studies.fix_effects.matchup_effects`) on every
    pairing and the 3-player game, asked or not, each on -n games of the base game's seeds."""
    from simlab.studies.fix_effects import matchup_effects

    if not finals:
        return {}
    n = games.settings.games
    every = list(dict.fromkeys(asked + default_matchups()))
    games.phase(f"side effects of {len(finals)} fixes", n * len(every) * (len(finals) + 1))
    before = {m: games.records(m, (), n) for m in every}
    out = {}
    for f in finals:
        rows = []
        for m in every:
            after = games.records(m, f, n) if _affects(f, m) else before[m]
            rows += matchup_effects(m, before[m], after, band, m in asked)
        out[fix_text(f)] = rows
    return out


def fx_flags(rows: list[dict]) -> list[str]:
    from simlab.studies.fix_effects import flags

    return flags(rows)


def fix_words(fix: Fix, settings: RunSettings) -> str:
    """``fix`` in the cards' own words, on the game of ``settings``: "the Horned King's Fate deck: Hen Wen,
    Strength 6 → 5"; a copy moved: "Gaston's Fate deck: a copy from Be Our Guest (2 → 1) to Belle (1 → 2)"."""
    cards = edited_cards(settings.edits)
    parts = []
    for m in fix:
        if m.variant:
            parts.append(f"rule {m.variant[0]} = {m.variant[1]}")
            continue
        if m.kind == "copies" and len(m.edits) == 2 and m.size == 1:
            down, up = sorted(m.edits, key=lambda e: e.value - cards.card(e.card).copies)
            cd, cu = cards.card(down.card), cards.card(up.card)
            parts.append(
                f"{deck_name(cd)}: a copy from {cd.name} ({cd.copies} → {down.value}) to {cu.name} "
                f"({cu.copies} → {up.value})"
            )
            continue
        said = []
        for e in m.edits:
            c = cards.card(e.card)
            if e.attribute in ("cost", "strength", "copies"):
                name = {"cost": "cost", "strength": "Strength", "copies": "copies"}[e.attribute]
                said.append(f"{c.name}, {name} {getattr(c, e.attribute)} → {e.value}")
            else:
                said.append(f"{c.name}, {e.attribute} {'on' if e.value else 'off'}")
        parts.append(f"{deck_name(cards.card(m.edits[0].card))}: {'; '.join(said)}")
    return " + ".join(parts) or "(no edit)"


# ============================================================================ adaptation


def _start(settings: RunSettings, villain: str):
    """The strategy a re-tune of ``villain`` starts from: the one it plays, or (a mixture: no parameters) its
    tuned strategy where the file exists, else expert."""
    from simlab.runs.levels import available_levels, level_strategy
    from strategies import KERNELS
    from strategies.mixture import play_spec

    spec = play_spec(settings.strategy(villain))
    if getattr(spec, "kernel", None) == KERNELS["heuristic"]:
        return spec
    return level_strategy("tuned", villain) if "tuned" in available_levels((villain,)) else "expert"


def _adapt(games: _Games, final: tuple, base: dict, band: Band, options: FixOptions):
    """Re-tune each villain the fix changes on the edited game, then measure every matchup again:
    (per matchup and villain: fixed and adapted; per villain: the re-tune; the verdict)."""
    best, after = final
    settings = games.settings
    changed = sorted({m.villain for m in best} if all(m.villain for m in best) else set(VILLAIN_KEYS))
    adopted, rows = {}, []
    for v in changed:
        got = _retune(games, best, v, list(base), options)
        if got["improved"]:
            adopted[v] = _adopted(v, got)
        row = {"villain": v, "start": got["start"], "objective": got["objective"], "adopted": got["improved"]}
        rows.append(row | {"change": interval_text(*got["change"], "+")})
    n = settings.games
    games.phase("adaptation: measuring again", n * sum(_affects(best, m) for m in base) if adopted else 1)
    again = {m: games.winners(m, best, n, adopted) if adopted and _affects(best, m) else w for m, w in after.items()}
    table = pl.DataFrame(_rows(band, after, again))
    table = table.rename({c: c.replace("before", "fixed").replace("after", "adapted") for c in table.columns})
    was, now = _distance(after, band), _distance(again, band)
    verdict = adaptation_verdict(again, band)
    if was > 0:
        verdict = f"not in the band (distance {was:.1%} fixed, {now:.1%} after adaptation)"
    return table, pl.DataFrame(rows), verdict


def adaptation_verdict(winners: dict[str, np.ndarray], band: Band) -> str:
    """By interval, never the point: "survives" when every villain's 95% interval with the adapted players lies
    inside the band, "fails" when one lies wholly outside it, else "borderline" (an interval crosses an edge)."""
    verdict = SURVIVES
    for m, w in winners.items():
        n = len(parse_matchup(m))
        for e in range(n):
            won = w == e
            lo, hi = (float(x) * n / 2 for x in wilson(int(won.sum()), won.size))
            if hi < band.low or lo > band.high:
                return FAILS
            if lo < band.low or hi > band.high:
                verdict = BORDERLINE
    return verdict


def _retune(games: _Games, best: Fix, villain: str, matchups: list[str], options: FixOptions) -> dict:
    """``villain`` re-tuned on the game with ``best`` (or found in the checkpoint): its parameters, whether the
    validation adopts it, the change [95%]."""
    from simlab.studies.tune import tune

    settings = games.settings
    edits, variants = fix_parts(best, settings)
    objective = _objective(villain, matchups)
    key = json.dumps({"adapt": villain, "fix": fix_text(best), "options": vars(options), "objective": objective})
    got = games.store.get(key)
    if got is not None:
        return got
    label = f"adaptation: re-tuning {villain}"
    games.phase(label, 1)
    seen = [0]

    def bar(done, total, _best, _first):
        games.label, games.done, games.total = label, 0, total
        seen[0] = done
        games.tick(done)

    res = tune(
        villain,
        options.adapt_budget,
        _start(settings, villain),
        {o: settings.strategy(o) for o in VILLAIN_KEYS if o != villain},
        options.adapt_candidate_games,
        options.adapt_validation_games,
        objective=objective,
        purpose="fix-adapt",
        progress=bar,
        settings=settings.replace(edits=edits, variants=variants, progress=None),
    )
    games.played += seen[0]
    imp = res.improvement
    data = {"params": res.best.params, "kernel": int(res.best.kernel), "improved": bool(res.improved)}
    data |= {"change": [imp["change"], imp["change_low"], imp["change_high"]], "start": res.start.name}
    return games.store.put(key, data | {"objective": objective})


def _adopted(villain: str, got: dict):
    from strategies import StrategySpec

    return StrategySpec(f"adapted-{villain}", f"{villain} re-tuned on the fixed game", got["kernel"], got["params"])
