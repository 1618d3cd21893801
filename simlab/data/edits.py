"""What-if edits: change a card's cost, Strength or copies, remove it, or ablate it; or change a board's layout.

Edits are data applied to the card documents before they are compiled into tables, so an edited game runs
the same compiled kernels as the shipped one (the tables are kernel arguments). They come from the command
line (``--edit "Get Out!:cost=4"``) or an experiment file (``[cards."Get Out!"] cost = 4``).

- ``cost``, ``strength``: a new printed value (non-negative integer).
- ``copies``: how many copies the deck holds. A deck may get shorter (the empty slots are out of the game);
  it can never hold more than 30 Villain or 15 Fate cards, so adding a copy needs a copy removed elsewhere.
- ``remove = true``: the same as ``copies = 0``.
- ``ablate = true``: the card stays in its deck (same shuffles, same draws) but can never be played: not
  from hand, not as a Condition, not by a swap, not when revealed by a Fate action (then it is discarded
  like any unplayable Fate card). Effects that fetch a card by name (Magic Mirror's Beast, Take Me
  Instead's Hero, Invitation from the King's Prince) still play it. Because the deck is unchanged, games
  with and without the ablation stay identical until the first time the card would have been played: the
  paired comparison of card impact.

Board edits change where a location's action symbols are printed (``--edit "board:The Woods:fate=top"``, or
``[board."The Woods"] fate = "top"`` in an experiment file). The board layouts come from one medium-low-trust
transcription (``shared/reference``: cards-notes section 3), so a plausible transcription error is a data point
worth perturbing:

- ``board:LOCATION:SYMBOL=top`` (or ``=bottom``): one ``SYMBOL`` of ``LOCATION`` moves into that row, at its end
  (the top row is the one a Hero, a Glass Slipper or, with ``obstacles_cover_actions=yes``, an Obstacle covers);
- ``board:LOCATION:flip``: the location's two rows change places;
- ``board:LOCATION:swap=OTHER``: two locations of the same board exchange their action symbols (both rows; the
  Lock, the Obstacle spots and the Ballroom's guest list stay where they are).

Combined board edits apply swaps first, then flips, then moves. :func:`plausible_board_errors` lists the
perturbations the leverage table measures.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import cache

from simlab.data.cards import SYMBOLS, VILLAIN_FOLDERS, VILLAIN_KEYS, CardSet, _read, compile_cards, load_cards
from simlab.errors import CardDataError, EditError
from simlab.kernels import const as K

ATTRIBUTES = ("cost", "strength", "copies", "remove", "ablate")
FLAGS = ("remove", "ablate")
MAX_VALUE = {"cost": 10**6, "strength": 10**6, "copies": 30}  # a deck holds at most 30; 10**6 is never affordable


@dataclass(frozen=True, order=True)
class CardEdit:
    card: str
    attribute: str
    value: int  # 0/1 for the flags

    @property
    def key(self) -> tuple:
        """Edits with the same key replace each other (the last one given wins)."""
        return ("card", self.card, self.attribute)

    def __str__(self) -> str:
        if self.attribute in FLAGS:
            return f"{self.card}:{self.attribute}" if self.value else f"{self.card}:{self.attribute}=false"
        return f"{self.card}:{self.attribute}={self.value}"


def check_edit(card: str, attribute: str, value, where: str = "--edit", typed: bool = False) -> CardEdit:
    """A validated edit; ``where`` names the source in errors (``--edit`` or ``file.toml: [cards."X"]``).
    ``typed``: the value comes from a data file and must already be an integer (or a boolean for the flags);
    otherwise text such as ``"4"`` or ``"true"`` is read."""
    c = known_card(card, where)
    if attribute not in ATTRIBUTES:
        raise EditError(f"{where}: unknown attribute {attribute!r} for {card!r}; choose from {', '.join(ATTRIBUTES)}")
    if typed and isinstance(value, str):
        want = "true or false" if attribute in FLAGS else "a whole number"
        raise EditError(f"{where}: {card!r} {attribute} must be {want}, got the text {value!r}")
    if attribute in FLAGS:
        if isinstance(value, str) and value.lower() in ("true", "yes", "1", ""):
            value = True
        elif isinstance(value, str) and value.lower() in ("false", "no", "0"):
            value = False
        if not isinstance(value, bool):
            raise EditError(f"{where}: {card!r} {attribute} must be true or false, got {value!r}")
        return CardEdit(card, attribute, int(value))
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            raise EditError(f"{where}: {card!r} {attribute} must be a whole number, got {value!r}") from None
    if not isinstance(value, int) or isinstance(value, bool):
        raise EditError(f"{where}: {card!r} {attribute} must be a whole number, got {value!r}")
    if value < 0:
        raise EditError(f"{where}: {card!r} {attribute} cannot be negative, got {value}")
    if value > MAX_VALUE[attribute]:
        raise EditError(f"{where}: {card!r} {attribute} must be at most {MAX_VALUE[attribute]:,}, got {value}")
    if attribute == "cost" and attribute not in editable(c):
        raise EditError(f"{where}: {card!r} is a {'Fate card' if c.deck == 'fate' else 'Condition'}: it has no cost")
    if attribute == "strength" and attribute not in editable(c):
        raise EditError(f"{where}: {card!r} is an {c.type}: only Allies and Heroes have Strength")
    return CardEdit(card, attribute, value)


CARDS_LIST = "simlab cards --villain VILLAIN --list"  # the command that shows each card's data and edits


def known_card(name: str, where: str = "--edit"):
    """The card named ``name`` (:class:`simlab.data.cards.Card`), else an EditError with the nearest names."""
    import difflib

    cards = load_cards()
    names = cards.card_names()
    if name not in names:
        close = [n for n in names if n.lower() == str(name).lower()] or difflib.get_close_matches(str(name), names, 3)
        hint = f"did you mean {' or '.join(repr(n) for n in close)}? " if close else ""
        raise EditError(f"{where}: unknown card {name!r}; {hint}`{CARDS_LIST}` lists each villain's cards")
    return cards.card(name)


def editable(card) -> tuple[str, ...]:
    """The attributes an edit may change on ``card``: a Fate card or a Condition has no cost to change, and only
    Allies and Heroes have Strength; copies, remove and ablate apply to every card."""
    no_cost = card.deck == "fate" or card.type == "Condition"
    return tuple(
        a
        for a in ATTRIBUTES
        if not (a == "cost" and no_cost) and not (a == "strength" and card.type not in ("Ally", "Hero"))
    )


def card_sheet(villain: str) -> list[dict]:
    """``villain``'s cards as printed, one dict per card in deck order: card, deck, type, copies, cost and
    strength (None where the card has none), the ability text and the edits allowed (``cost=N``, ...,
    ``remove``, ``ablate``)."""
    rows = []
    for c in load_cards().cards:
        if c.villain != villain:
            continue
        allowed = editable(c)
        rows.append(
            {
                "card": c.name,
                "deck": c.deck,
                "type": c.type,
                "copies": c.copies,
                "cost": c.cost if "cost" in allowed else None,
                "strength": c.strength if "strength" in allowed else None,
                "text": c.text,
                "edits": [a if a in FLAGS else f"{a}=N" for a in allowed],
            }
        )
    return rows


def parse_edit(text: str, source: str = "--edit"):
    """``"Get Out!:cost=4"``, ``"Swoon:remove"``, ``"Beast:ablate"`` -> a validated CardEdit;
    ``"board:The Woods:fate=top"``, ``"board:Morva:flip"``, ``"board:Morva:swap=Dungeons"`` -> a BoardEdit."""
    if str(text).strip().lower().startswith("board:"):
        return parse_board_edit(text, source)
    card, sep, rest = str(text).rpartition(":")
    if not sep or not card.strip():
        raise EditError(
            f"{source} {text!r} must look like CARD:ATTRIBUTE=VALUE (or CARD:remove, CARD:ablate); "
            f"attributes: {', '.join(ATTRIBUTES)}"
        )
    attribute, eq, value = rest.partition("=")
    attribute, card = attribute.strip(), card.strip()
    step = re.fullmatch(r"(cost|strength|copies)\s*([+-])\s*([0-9]+)", attribute)
    if step and not eq:  # "cost+1": an edit sets a value; suggest the one meant
        name = step.group(1)
        check_edit(card, name, "0", source)  # an unknown card, or an attribute this card lacks, fails here
        now = getattr(known_card(card), name)
        meant = now + int(step.group(3)) * (1 if step.group(2) == "+" else -1)
        raise EditError(
            f"{source} {text!r}: an edit sets a new value, it does not add to the printed one; {card} has {name} "
            f"{now}, so write {card}:{name}={max(meant, 0)}"
        )
    if not eq and attribute not in FLAGS:
        check_edit(card, attribute, "0", source)  # an unknown card or attribute, or one this card lacks, fails here
        now = getattr(known_card(card), attribute)
        raise EditError(
            f"{source} {text!r}: {attribute!r} needs a value, e.g. {card}:{attribute}={now + 1} (now {now})"
        )
    return check_edit(card, attribute, value.strip() if eq else True, source)


def edits_from_table(table: dict, where: str) -> tuple[CardEdit, ...]:
    """Edits from an experiment file's ``[cards]`` table: ``{"Get Out!": {"cost": 4}, ...}``."""
    return _edits_from_table(table, where, "cards", "cards", "{ cost = 4 }", check_edit)


def _edits_from_table(table, where: str, section: str, things: str, example: str, check) -> tuple:
    """An experiment file's ``[section]`` table of ``{name: {key: value}}`` tables, each pair checked by
    ``check(name, key, value, where, typed=True)``."""
    if not isinstance(table, dict):
        raise EditError(f"{where}: [{section}] must be a table of {things}, got {table!r}")
    out = []
    for name, pairs in table.items():
        here = f'{where}: [{section}."{name}"]'
        if not isinstance(pairs, dict):
            raise EditError(f"{here} must be a table such as {example}, got {pairs!r}")
        for key, value in pairs.items():
            out.append(check(name, key, value, f"{here} {key}", typed=True))
    return normalise(out)


def normalise(edits) -> tuple[CardEdit, ...]:
    """Edits as a sorted tuple (parsing strings); one value per (card, attribute), the last one given."""
    if not edits:
        return ()
    by_key = {}
    for e in edits:
        e = parse_edit(e) if isinstance(e, str) else e
        by_key[e.key] = e
    return tuple(sorted(by_key.values(), key=_order))


def _order(e) -> tuple:
    """Card edits first, in the order they always had (card, attribute, value); then board edits."""
    if isinstance(e, CardEdit):
        return (0, e.card, e.attribute, e.value)
    return (1, *e.sort_key)


def edited_cards(edits=None) -> CardSet:
    """The card set with ``edits`` applied (the shipped one when there are none)."""
    edits = normalise(edits)
    return _compile(edits) if edits else load_cards()


@cache
def _compile(edits: tuple) -> CardSet:
    docs = [copy.deepcopy(_read(f)) for f in VILLAIN_FOLDERS]
    raw = {c["name"]: c for doc in docs for c in doc.get("card", [])}
    apply_board_edits(docs, [e for e in edits if isinstance(e, BoardEdit)])
    edits = tuple(e for e in edits if isinstance(e, CardEdit))
    for e in edits:
        card = raw[e.card]
        if e.attribute in ("cost", "strength", "copies"):
            card[e.attribute] = e.value
        elif e.attribute == "remove" and e.value:
            card["copies"] = 0
    try:
        cards = compile_cards(docs, short_decks=True)
    except CardDataError as exc:
        listed = ", ".join(str(e) for e in edits)
        raise EditError(f"the edits ({listed}) do not give a playable deck: {exc}") from None
    for e in edits:
        if e.attribute == "ablate" and e.value:
            cards.tables.card[cards.card(e.card).row, K.CF_BLOCKED] = 1
    return cards


# ============================================================================ board edits

ROWS = ("top", "bottom")
BOARD_OPS = ("SYMBOL=top", "SYMBOL=bottom", "flip", "swap=LOCATION")


@dataclass(frozen=True)
class BoardEdit:
    """One change to a board's layout: ``op`` is ``top``/``bottom`` (move the symbol ``arg`` into that row),
    ``flip`` (the two rows change places) or ``swap`` (``location`` and ``arg`` exchange their symbols)."""

    location: str
    op: str
    arg: str = ""

    @property
    def key(self) -> tuple:
        if self.op in ROWS:
            return ("board", self.location, "move", self.arg)
        return ("board", self.location, self.op, self.arg)

    @property
    def sort_key(self) -> tuple:
        villain, position = _location_index()[self.location]
        return ({"swap": 0, "flip": 1}.get(self.op, 2), VILLAIN_KEYS.index(villain), position, self.op, self.arg)

    @property
    def villain(self) -> str:
        return _location_index()[self.location][0]

    def __str__(self) -> str:
        if self.op == "flip":
            return f"board:{self.location}:flip"
        if self.op == "swap":
            return f"board:{self.location}:swap={self.arg}"
        return f"board:{self.location}:{self.arg}={self.op}"

    def describe(self) -> str:
        if self.op == "flip":
            return f"{self.location}: top and bottom rows exchanged"
        if self.op == "swap":
            return f"{self.location} and {self.arg} exchange their action symbols"
        return f"{self.location}: {self.arg} moved to the {self.op} row"


@cache
def _location_index() -> dict[str, tuple[str, int]]:
    """Location name -> (villain key, position on its board), from the shipped data."""
    out = {}
    for f in VILLAIN_FOLDERS:
        doc = _read(f)
        for i, lc in enumerate(doc["location"]):
            out[lc["name"]] = (doc["villain"]["key"], i)
    return out


def shipped_layout(location: str) -> dict[str, list[str]]:
    """{"top": [...], "bottom": [...]}: ``location``'s action symbols as shipped."""
    villain, i = _location_index()[location]
    lc = _read(VILLAIN_FOLDERS[VILLAIN_KEYS.index(villain)])["location"][i]
    return {"top": list(lc.get("top", [])), "bottom": list(lc.get("bottom", []))}


def _layout_text(layout: dict) -> str:
    return "; ".join(f"{row} {', '.join(layout[row]) or '(empty)'}" for row in ROWS)


def _board_locations(villain: str) -> list[str]:
    return [name for name, (v, _) in sorted(_location_index().items(), key=lambda kv: kv[1]) if v == villain]


def check_board_edit(location: str, key: str, value, where: str = "--edit", typed: bool = False) -> BoardEdit:
    """A validated board edit of ``location``: ``key`` is a symbol (``value`` top or bottom), ``flip``
    (``value`` true) or ``swap`` (``value`` another location of the same board). Checked against the
    shipped layout; ``where`` names the source in errors."""
    index = _location_index()
    if location not in index:
        close = [n for n in index if n.lower() == str(location).lower()]
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise EditError(f"{where}: unknown location {location!r}; {hint}choose from {', '.join(index)}")
    villain = index[location][0]
    layout = shipped_layout(location)
    key = str(key).strip()
    if key == "flip":
        if typed and value is not True:
            raise EditError(f"{where}: {location!r} flip must be true, got {value!r}")
        if not typed and str(value).strip().lower() not in ("", "true", "yes", "1"):
            raise EditError(f"{where}: {location!r} flip takes no value (board:{location}:flip), got {value!r}")
        return BoardEdit(location, "flip")
    if key == "swap":
        others = [n for n in _board_locations(villain) if n != location]
        if not isinstance(value, str) or value.strip() not in others:
            raise EditError(
                f"{where}: {location!r} can swap only with another location of its board; choose from "
                f"{', '.join(others)}, got {value!r}"
            )
        a, b = sorted((location, value.strip()), key=lambda n: index[n][1])
        return BoardEdit(a, "swap", b)
    if key not in layout["top"] + layout["bottom"]:
        if key in SYMBOLS or key.startswith("gain_power_"):
            raise EditError(f"{where}: {location!r} has no {key!r} symbol (its symbols: {_layout_text(layout)})")
        raise EditError(
            f"{where}: unknown board operation {key!r} for {location!r}; choose from {', '.join(BOARD_OPS)} "
            f"(its symbols: {_layout_text(layout)})"
        )
    row = value.strip().lower() if isinstance(value, str) else value
    if row not in ROWS:
        raise EditError(f"{where}: {location!r} {key} must move to top or bottom, got {value!r}")
    source = "bottom" if row == "top" else "top"
    if key not in layout[source]:
        raise EditError(
            f"{where}: {location!r} has no {key} in its {source} row to move to the {row} ({_layout_text(layout)})"
        )
    return BoardEdit(location, row, key)


def parse_board_edit(text: str, source: str = "--edit") -> BoardEdit:
    """``"board:The Woods:fate=top"``, ``"board:Morva:flip"``, ``"board:Morva:swap=Dungeons"`` -> a BoardEdit."""
    parts = str(text).strip().split(":", 2)
    if len(parts) != 3 or not parts[1].strip() or not parts[2].strip():
        raise EditError(
            f"{source} {text!r}: a board edit looks like board:LOCATION:OPERATION with OPERATION one of "
            f"{', '.join(BOARD_OPS)}"
        )
    key, eq, value = parts[2].partition("=")
    if key.strip() != "flip" and not eq:
        raise EditError(f"{source} {text!r}: {key.strip()!r} needs a value; OPERATION is one of {', '.join(BOARD_OPS)}")
    return check_board_edit(parts[1].strip(), key, value.strip(), f"{source} {text!r}")


def board_edits_from_table(table: dict, where: str) -> tuple[BoardEdit, ...]:
    """Edits from an experiment file's ``[board]`` table: ``{"The Woods": {"fate": "top"}, "Morva": {"flip":
    true}, "Dungeons": {"swap": "Morva"}}``."""
    return _edits_from_table(table, where, "board", "locations", '{ fate = "top" }', check_board_edit)


def apply_board_edits(docs: list[dict], edits) -> None:
    """Change the ``[[location]]`` rows of the villain documents in place: swaps, then flips, then moves."""
    if not edits:
        return
    by_name = {lc["name"]: lc for doc in docs for lc in doc["location"]}
    for e in sorted(edits, key=lambda e: e.sort_key):
        lc = by_name[e.location]
        top, bottom = list(lc.get("top", [])), list(lc.get("bottom", []))
        if e.op == "swap":
            other = by_name[e.arg]
            lc["top"], other["top"] = list(other.get("top", [])), top
            lc["bottom"], other["bottom"] = list(other.get("bottom", [])), bottom
        elif e.op == "flip":
            lc["top"], lc["bottom"] = bottom, top
        else:
            rows = {"top": top, "bottom": bottom}
            source = rows["bottom" if e.op == "top" else "top"]
            if e.arg not in source:
                listed = ", ".join(str(x) for x in sorted(edits, key=lambda x: x.sort_key))
                raise EditError(
                    f"the board edits ({listed}) do not apply together: after the others, {e.location} has no "
                    f"{e.arg} to move to the {e.op} row"
                )
            source.remove(e.arg)
            rows[e.op].append(e.arg)
            lc["top"], lc["bottom"] = top, bottom


def plausible_board_errors(villains=VILLAIN_KEYS) -> list[tuple[BoardEdit, ...]]:
    """The transcription errors the leverage table tries, each a tuple of board edits, from the shipped layouts:

    - one symbol read in the wrong row: every symbol of every location moved to the other row (a symbol printed
      twice in one row counts once);
    - a board's rows read upside down: every location of one board flipped;
    - two neighbouring locations' panels attributed to each other's names: adjacent locations swapped.
    """
    out = []
    for v in villains:
        locations = _board_locations(v)
        for loc in locations:
            layout = shipped_layout(loc)
            for row in ROWS:
                for sym in dict.fromkeys(layout[row]):
                    out.append((BoardEdit(loc, "bottom" if row == "top" else "top", sym),))
        out.append(tuple(BoardEdit(loc, "flip") for loc in locations))
        for a, b in zip(locations, locations[1:], strict=False):
            out.append((BoardEdit(a, "swap", b),))
    return out


def describe(edits) -> list[str]:
    """One line per edit, for reports and summaries."""
    return [str(e) for e in normalise(edits)]
