"""Who sits where: the seat table of a run's games (rotated, random from (seed, game index), or one villain first)."""

from __future__ import annotations

import numpy as np

from simlab.game import InputError


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser, vectorised (uint64 in, uint64 out)."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def seat_table(villains: tuple[str, ...], n: int, first: int = 0, order: str = "rotate", seed: int = 0) -> np.ndarray:
    """Entry (index into ``villains``) at each seat of games first..first+n-1, seat 0 playing first.

    ``order``: ``"rotate"`` (game i starts with entry i mod P, so every entry plays every seat equally),
    ``"random"`` (a random seat order per game, drawn from (seed, game index)), or a villain name (that
    villain always plays first; the others rotate over the remaining seats).
    """
    P = len(villains)
    idx = np.arange(first, first + n, dtype=np.int64)
    if order == "rotate":
        return (idx[:, None] + np.arange(P)[None, :]) % P
    if order == "random":
        with np.errstate(over="ignore"):
            base = _mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0xA5A5A5A5))
            keys = _mix(base ^ (idx.astype(np.uint64)[:, None] * np.uint64(P) + np.arange(P, dtype=np.uint64)[None, :]))
        return np.argsort(keys, axis=1, kind="stable").astype(np.int64)
    e0 = villains.index(order)
    rest = [e for e in range(P) if e != e0]
    out = np.empty((n, P), np.int64)
    out[:, 0] = e0
    for s in range(1, P):
        out[:, s] = np.array(rest)[(idx + s - 1) % (P - 1)]
    return out


def check_first(villains: tuple[str, ...], first: str) -> str:
    if first in ("rotate", "random") or first in villains:
        return first
    raise InputError(f"--first {first!r} is not in the matchup; choose from {', '.join(villains)}, rotate or random")
