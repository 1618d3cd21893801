"""Card rules a balance edit must keep, declared in the villains' card data (``simlab/villains/*/cards.toml``).

- ``unique = true`` on a card: a named character (a Hero, The Prince, a named Ally). A deck holds at most one copy.
- ``[villain] requires = [...]``: the cards the villain's win condition needs (Wedding Bells needs The Prince and a
  Ball Gown daughter). Each keeps at least one copy.
- A deck keeps its size: 30 Villain cards, 15 Fate cards. A copy moves from one card to another; it is not added or
  taken away.

A what-if (``--edit``) may break these on purpose. The fix finder (:mod:`simlab.studies.fix`) refuses a candidate
that breaks one its base game keeps, and gives the reasons (:func:`card_rule_breaches`).
"""

from __future__ import annotations

from functools import cache

from simlab.data.cards import VILLAIN_FOLDERS, _read
from simlab.errors import CardDataError
from simlab.kernels import const as K

DECK_SIZE = {"villain": K.N_VCARDS, "fate": K.N_FCARDS}


@cache
def declared_rules() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """({unique card: villain key}, {villain key: the cards its win condition requires}) as the card data declares
    them, each checked against the printed decks (a CardDataError names a bad declaration)."""
    unique: dict[str, str] = {}
    requires: dict[str, tuple[str, ...]] = {}
    for folder in VILLAIN_FOLDERS:
        doc = _read(folder)
        meta = doc["villain"]
        names = {c["name"]: c for c in doc.get("card", [])}
        for c in names.values():
            flag = c.get("unique", False)
            if not isinstance(flag, bool):
                raise CardDataError(f"{meta['name']}: card {c['name']!r}: unique must be true or false, got {flag!r}")
            if flag and c.get("copies", 1) > 1:
                raise CardDataError(f"{meta['name']}: card {c['name']!r} is unique but prints {c['copies']} copies")
            if flag:
                unique[c["name"]] = meta["key"]
        req = meta.get("requires", [])
        bad = [r for r in req if r not in names] if isinstance(req, list) else [req]
        if bad:
            raise CardDataError(f"{meta['name']}: requires names no card of its decks: {bad}")
        requires[meta["key"]] = tuple(req)
    return unique, requires


def deck_name(card) -> str:
    """``card``'s deck in words: "the Horned King's Fate deck"."""
    from simlab.data.cards import load_cards

    villain = load_cards().villain(card.villain)
    who = villain.prose_name or villain.name
    return f"{who}'s {'Fate' if card.deck == 'fate' else 'Villain'} deck"


def card_rule_breaches(edits, base=()) -> list[str]:
    """The card rules the game with ``edits`` breaks and the game with ``base`` keeps, one reason each (empty: the
    edits keep every rule). ``edits`` and ``base`` are card edits (:mod:`simlab.data.edits`); ``edits`` is the whole
    game (base edits included)."""
    from simlab.data.edits import EditError, edited_cards

    try:
        now = edited_cards(edits)
    except EditError as exc:
        return [str(exc)]
    before = _breaches(edited_cards(base))
    return [reason for key, reason in _breaches(now).items() if key not in before]


def copy_breaches(cards, copies: dict[str, int]) -> list[str]:
    """The reasons a copy move (``copies``: card -> its new number of copies, on the card set ``cards`` of the base
    game) breaks a card rule the base keeps, without compiling the edited game: a unique card above one copy, a
    required card at none, a card above its ``max_copies``, a deck off its size."""
    unique, requires = declared_rules()
    needed = {name for names in requires.values() for name in names}
    out = []
    for name, n in copies.items():
        c = cards.card(name)
        if name in unique and n > 1 >= c.copies:
            out.append(f"{name} is a named {c.type} of {deck_name(c)}: at most 1 copy (unique), the edit gives {n}")
        if name in needed and n < 1 <= c.copies:
            out.append(f"{name} is needed by a win condition: it keeps at least 1 copy, the edit leaves none")
        most = c.raw.get("max_copies")
        if most is not None and n > most:
            out.append(f"{name} can have at most {most} copies (the rules engine resolves no more), the edit gives {n}")
    for v in {cards.card(name).villain for name in copies}:
        for deck, size in DECK_SIZE.items():
            was = sum(c.copies for c in cards.cards if c.villain == v and c.deck == deck)
            now = was + sum(
                n - cards.card(name).copies
                for name, n in copies.items()
                if cards.card(name).villain == v and cards.card(name).deck == deck
            )
            if now != was and now != size:
                out.append(f"{v}'s {deck} deck must hold {size} cards, the edit gives {now}")
    return out


def _breaches(cards) -> dict[tuple, str]:
    unique, requires = declared_rules()
    out: dict[tuple, str] = {}
    for c in cards.cards:
        if c.name in unique and c.copies > 1:
            out[("unique", c.name)] = (
                f"{c.name} is a named {c.type} of {deck_name(c)}: at most 1 copy (unique), the edit gives {c.copies}"
            )
    for v in cards.villains:
        for name in requires.get(v.key, ()):
            c = cards.card(name)
            if c.copies < 1:
                out[("requires", name)] = (
                    f"{name} is needed by {v.prose_name or v.name}'s win condition ({v.objective_text.rstrip('.')}): "
                    f"it keeps at least 1 copy, the edit leaves none"
                )
        for deck, size in DECK_SIZE.items():
            held = sum(c.copies for c in cards.cards if c.villain == v.key and c.deck == deck)
            if held != size:
                out[("size", v.key, deck)] = (
                    f"{v.prose_name or v.name}'s {'Fate' if deck == 'fate' else 'Villain'} deck must hold {size} "
                    f"cards (a copy is moved, not added or removed), the edit gives {held}"
                )
    return out
