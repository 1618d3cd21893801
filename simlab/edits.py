"""What-if card edits: change a card's cost, Strength or copies, remove it, or ablate it.

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
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache

from simlab.cards import VILLAIN_FILES, CardDataError, CardSet, _read, compile_cards, load_cards
from simlab.game import InputError
from simlab.kernels import const as K

ATTRIBUTES = ("cost", "strength", "copies", "remove", "ablate")
FLAGS = ("remove", "ablate")


class EditError(InputError):
    """A card edit the engine cannot apply (unknown card or attribute, bad value)."""


@dataclass(frozen=True, order=True)
class CardEdit:
    card: str
    attribute: str
    value: int  # 0/1 for the flags

    def __str__(self) -> str:
        if self.attribute in FLAGS:
            return f"{self.card}:{self.attribute}" if self.value else f"{self.card}:{self.attribute}=false"
        return f"{self.card}:{self.attribute}={self.value}"


def check_edit(card: str, attribute: str, value, where: str = "--edit", typed: bool = False) -> CardEdit:
    """A validated edit; ``where`` names the source in errors (``--edit`` or ``file.toml: [cards."X"]``).
    ``typed``: the value comes from a data file and must already be an integer (or a boolean for the flags);
    otherwise text such as ``"4"`` or ``"true"`` is read."""
    cards = load_cards()
    names = cards.card_names()
    if card not in names:
        close = [n for n in names if n.lower() == str(card).lower()]
        hint = f"; did you mean {close[0]!r}?" if close else "; `simlab cards --list` names them all"
        raise EditError(f"{where}: unknown card {card!r}{hint}")
    if attribute not in ATTRIBUTES:
        raise EditError(f"{where}: unknown attribute {attribute!r} for {card!r}; choose from {', '.join(ATTRIBUTES)}")
    c = cards.card(card)
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
    if attribute == "cost" and (c.deck == "fate" or c.type == "Condition"):
        raise EditError(f"{where}: {card!r} is a {'Fate card' if c.deck == 'fate' else 'Condition'}: it has no cost")
    if attribute == "strength" and c.type not in ("Ally", "Hero"):
        raise EditError(f"{where}: {card!r} is an {c.type}: only Allies and Heroes have Strength")
    return CardEdit(card, attribute, value)


def parse_edit(text: str) -> CardEdit:
    """``"Get Out!:cost=4"``, ``"Swoon:remove"``, ``"Beast:ablate"`` -> a validated CardEdit."""
    card, sep, rest = str(text).rpartition(":")
    if not sep or not card.strip():
        raise EditError(
            f"--edit {text!r} must look like CARD:ATTRIBUTE=VALUE (or CARD:remove, CARD:ablate); "
            f"attributes: {', '.join(ATTRIBUTES)}"
        )
    attribute, eq, value = rest.partition("=")
    attribute = attribute.strip()
    if not eq and attribute not in FLAGS:
        raise EditError(f"--edit {text!r}: {attribute!r} needs a value, e.g. {card.strip()}:{attribute}=2")
    return check_edit(card.strip(), attribute, value.strip() if eq else True)


def edits_from_table(table: dict, where: str) -> tuple[CardEdit, ...]:
    """Edits from an experiment file's ``[cards]`` table: ``{"Get Out!": {"cost": 4}, ...}``."""
    out = []
    if not isinstance(table, dict):
        raise EditError(f"{where}: [cards] must be a table of cards, got {table!r}")
    for card, attrs in table.items():
        here = f'{where}: [cards."{card}"]'
        if not isinstance(attrs, dict):
            raise EditError(f"{here} must be a table such as {{ cost = 4 }}, got {attrs!r}")
        for attribute, value in attrs.items():
            out.append(check_edit(card, attribute, value, f"{here} {attribute}", typed=True))
    return normalise(out)


def normalise(edits) -> tuple[CardEdit, ...]:
    """Edits as a sorted tuple (parsing strings); one value per (card, attribute), the last one given."""
    if not edits:
        return ()
    by_key = {}
    for e in edits:
        e = parse_edit(e) if isinstance(e, str) else e
        by_key[(e.card, e.attribute)] = e
    return tuple(sorted(by_key.values()))


def edited_cards(edits=None) -> CardSet:
    """The card set with ``edits`` applied (the shipped one when there are none)."""
    edits = normalise(edits)
    return _compile(edits) if edits else load_cards()


@cache
def _compile(edits: tuple[CardEdit, ...]) -> CardSet:
    docs = [copy.deepcopy(_read(f)) for f in VILLAIN_FILES]
    raw = {c["name"]: c for doc in docs for c in doc.get("card", [])}
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


def describe(edits) -> list[str]:
    """One line per edit, for reports and summaries."""
    return [str(e) for e in normalise(edits)]
