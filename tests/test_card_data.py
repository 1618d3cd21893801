"""What the card data's load refuses about where a card type belongs."""

from __future__ import annotations

import copy

import pytest

from simlab.data.cards import _read, compile_cards
from simlab.errors import CardDataError
from simlab.villains import REGISTRY


def _docs():
    return [copy.deepcopy(_read(f)) for f in REGISTRY]


@pytest.mark.parametrize(
    "name, deck, message",
    [
        ("Belle", "villain", "'Belle': Hero cards belong in the fate deck, not the villain deck"),
        ("Wolves", "fate", "'Wolves': Ally cards belong in the villain deck, not the fate deck"),
    ],
)
def test_a_hero_in_the_villain_deck_or_an_ally_in_the_fate_deck_is_refused(name, deck, message):
    # the queries look for Heroes among a seat's Fate instances only, and for Allies among its Villain ones
    docs = _docs()
    card = next(c for d in docs for c in d["card"] if c["name"] == name)
    card["deck"] = deck
    with pytest.raises(CardDataError, match=message):
        compile_cards(docs)
