"""Shared helpers: build scenarios tersely and look at their state."""

from __future__ import annotations

import pytest

from simlab.scenario import Scenario


def build(*seats: dict, villains=("gaston", "horned-king"), active: int = 0, phase: str = "actions", **kw) -> Scenario:
    """A scenario with ``seats`` (one dict per villain, see README) in the action phase of seat ``active``."""
    desc = {"villains": list(villains), "active": active, "phase": phase, "seats": list(seats)}
    desc.update(kw)
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


@pytest.fixture
def scenario():
    return build
