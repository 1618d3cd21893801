"""Who sits where: the seat table of a run's games (rotated, random from (seed, game index), or one villain first)."""

from __future__ import annotations

import numpy as np

from simlab.errors import InputError
from simlab.kernels.rng import mix64_nb


def mix64(x):
    """splitmix64's output function on numpy values, vectorised: the kernels' own
    (:func:`simlab.kernels.rng.mix64_nb`), run as numpy code."""
    with np.errstate(over="ignore"):
        return mix64_nb.py_func(x)


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
            base = mix64(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0xA5A5A5A5))
            slots = idx.astype(np.uint64)[:, None] * np.uint64(P) + np.arange(P, dtype=np.uint64)[None, :]
            keys = mix64(base ^ slots)
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
