"""Shared helpers: build scenarios tersely and look at their state."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from simlab.game.scenario import Scenario

# Components that are not cards but carry an ability code of their own (see tests/test_abilities.py).
COMPONENTS = {"The Black Cauldron": ("flip_cauldron",)}

# Every collected test -> its markers of the two tiers ("slow", "card"), before -m or -k deselect any
# (tests/test_tiers.py reads it); with SIMLAB_TIERS_OUT set, also written there as JSON.
COLLECTED = pytest.StashKey[dict[str, list[str]]]()
TIERS_OUT = "SIMLAB_TIERS_OUT"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    collected = {item.nodeid: [m for m in ("slow", "card") if item.get_closest_marker(m)] for item in items}
    config.stash[COLLECTED] = collected
    if os.environ.get(TIERS_OUT):
        Path(os.environ[TIERS_OUT]).write_text(json.dumps(collected))


@pytest.fixture(scope="session", autouse=True)
def _the_users_estimates_stay_theirs():
    """The tests' short and stopped runs must not correct this machine's estimates: each command's time over its
    estimate (``command/...`` in the speed file, :func:`simlab.runs.speed.ratio`) is put back as it was once the
    session ends. The rates the tests measure stay, as any run's would."""
    from simlab.runs import speed

    def ratios(rates: dict) -> dict:
        return {k: v for k, v in rates.items() if k.startswith("command/")}

    before = ratios(speed._read())
    yield
    now = speed._read()
    if ratios(now) != before:
        speed._write({k: v for k, v in now.items() if not k.startswith("command/")} | before)


_placed: list[set[str]] | None = None  # card names the positions built during the current test put in place


def placed_names(desc: dict) -> set[str]:
    """Every card (and component) a scenario description puts somewhere by name."""
    names: set[str] = set()
    for seat in desc.get("seats", []):
        for key in ("hand", "deck_top", "fate_top", "discard", "fate_discard"):
            names.update(seat.get(key, []))
        for entries in seat.get("realm", {}).values():
            for e in entries:
                e = {"card": e} if isinstance(e, str) else e
                names.add(e["card"])
                names.update(e.get("items", []))
        if seat.get("tile", "none") != "none":
            names.add("The Black Cauldron")
    return names


def build(*seats: dict, villains=("gaston", "horned-king"), active: int = 0, phase: str = "actions", **kw) -> Scenario:
    """A scenario with ``seats`` (one dict per villain, see README) in the action phase of seat ``active``."""
    desc = {"villains": list(villains), "active": active, "phase": phase, "seats": list(seats)}
    desc.update(kw)
    if _placed is not None:
        _placed.append(placed_names(desc))
    return Scenario.build(desc)


def labels(sc: Scenario) -> list[str]:
    return [o.label for o in sc.options()]


def names_at(sc: Scenario, seat: int, location: str) -> list[str]:
    return [e["card"] for e in sc.realm(seat)[location]]


def entry(sc: Scenario, seat: int, location: str, card: str) -> dict:
    for e in sc.realm(seat)[location]:
        if e["card"] == card:
            return e
    raise AssertionError(f"{card} not at {location}: {sc.realm(seat)[location]}")


@pytest.fixture(autouse=True)
def _declared_cards_are_placed(request):
    """A test marked ``@pytest.mark.card(NAME, abilities=(...))`` resolves card NAME: at least one position it
    builds with :func:`build` names that card (in a hand, a deck, a discard pile or the Realm)."""
    global _placed
    declared = [m.args[0] for m in request.node.iter_markers("card")]
    _placed = []
    try:
        yield
        if declared:
            seen = set().union(*_placed)
            missing = [name for name in declared if name not in seen]
            assert not missing, f"{request.node.name} declares {missing} but builds no position naming them"
    finally:
        _placed = None


@pytest.fixture
def scenario():
    return build
