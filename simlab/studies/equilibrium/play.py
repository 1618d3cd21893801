"""Playing for an equilibrium: the first villain's score in each game (a win 1, an unfinished game a half, a loss
0), seats rotated, stopped by Ctrl-C between chunks; and a mean with its 95% interval."""

from __future__ import annotations

import math

import numpy as np

from simlab.runs.settings import RunSettings
from simlab.runs.stats import Z95


class Interrupted(Exception):
    """Ctrl-C during an equilibrium: what finished is in the checkpoint."""


def _scores(villains, strategies, n, seed, settings: RunSettings, stop, on_chunk=None) -> np.ndarray:
    """Entry 0's score in each of games 0..n-1 (1 win, 0.5 unfinished, 0 loss), seats rotated; ``on_chunk`` is
    called with the games done after each chunk."""
    from simlab.runs.backend import current, play_chunk
    from simlab.runs.gameplan import GamePlan

    plan = GamePlan(villains, tuple(strategies), n, seed, settings.variant_dict, settings.max_turns)
    out = np.zeros(n, np.float64)
    jobs = list(plan.jobs("games"))
    done = 0
    for job, res in zip(jobs, current().map(play_chunk, jobs), strict=True):
        seats = job.seats()
        ws = res["winner_seat"].astype(np.int64)
        entry = np.where(ws >= 0, seats[np.arange(job.n), np.maximum(ws, 0)], -1)
        out[job.first : job.first + job.n] = np.where(entry == 0, 1.0, np.where(entry < 0, 0.5, 0.0))
        done += job.n
        if on_chunk is not None:
            on_chunk(done)
        if stop():
            raise Interrupted
    return out


def _mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else float("nan")
    return m, m - half, m + half
