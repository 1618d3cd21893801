"""Running counts of a run (:class:`Tally`) and the summaries read from them, whatever the number of games."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simlab.runs.stats import Z95, wilson


@dataclass
class Tally:
    """Counts of a run so far: enough for every summary, whatever the number of games."""

    villains: tuple[str, ...]
    max_turns: int
    games: int = 0
    wins: np.ndarray = field(init=False)  # (P, P) games won by entry e sitting in seat s
    sat: np.ndarray = field(init=False)  # (P, P) games entry e sat in seat s
    rounds: np.ndarray = field(init=False)  # (P + 1, cap + 1) histogram of rounds by winner; last row unfinished
    turns: np.ndarray = field(init=False)  # (P, cap + 1) histogram of the winner's own turns

    def __post_init__(self):
        P, cap = len(self.villains), self.max_turns + 1
        self.wins = np.zeros((P, P), np.int64)
        self.sat = np.zeros((P, P), np.int64)
        self.rounds = np.zeros((P + 1, cap), np.int64)
        self.turns = np.zeros((P, cap), np.int64)

    def add(self, seats: np.ndarray, winner_seat: np.ndarray, rounds: np.ndarray, seat_turns: np.ndarray) -> None:
        P = len(self.villains)
        n = seats.shape[0]
        rows = np.arange(n)
        self.games += n
        for s in range(P):
            self.sat[:, s] += np.bincount(seats[:, s], minlength=P)
        won = winner_seat >= 0
        ws = winner_seat[won]
        we = seats[rows[won], ws]
        np.add.at(self.wins, (we, ws), 1)
        cap = self.rounds.shape[1] - 1
        r = np.minimum(rounds, cap)
        np.add.at(self.rounds, (np.where(won, seats[rows, np.maximum(winner_seat, 0)], P), r), 1)
        t = np.minimum(seat_turns[rows[won], ws], cap)
        np.add.at(self.turns, (we, t), 1)

    def add_raw(self, seats: np.ndarray, res: dict) -> None:
        """Add a chunk's per-game columns (as :func:`simlab.runs.backend.play_chunk` returns them)."""
        self.add(
            seats, res["winner_seat"].astype(np.int64), res["rounds"].astype(np.int64), res["turns"].astype(np.int64)
        )

    def merge(self, other: Tally) -> None:
        """Add another tally of the same matchup and turn cap (a chunk counted elsewhere)."""
        self.games += other.games
        self.wins += other.wins
        self.sat += other.sat
        self.rounds += other.rounds
        self.turns += other.turns

    # ------------------------------------------------------------------ summaries
    def summary(self) -> pl.DataFrame:
        """Each entry's wins and the unfinished games, with 95% Wilson intervals."""
        n = self.games
        counts = list(zip(entry_names(self.villains), self.wins.sum(axis=1).tolist(), strict=True))
        counts.append(("unfinished", n - int(self.wins.sum())))
        rows = []
        for name, count in counts:
            lo, hi = wilson(count, n)
            rows.append(
                {"outcome": name, "games": n, "count": count, "rate": count / n, "low": float(lo), "high": float(hi)}
            )
        return pl.DataFrame(rows)

    def by_seat(self) -> pl.DataFrame:
        """Each entry's win rate in each seat (seat 0 plays first)."""
        rows = []
        for e, name in enumerate(entry_names(self.villains)):
            for s in range(len(self.villains)):
                g, w = int(self.sat[e, s]), int(self.wins[e, s])
                lo, hi = wilson(w, g)
                rows.append(
                    {
                        "entry": name,
                        "seat": s,
                        "games": g,
                        "wins": w,
                        "rate": w / g if g else float("nan"),
                        "low": float(lo),
                        "high": float(hi),
                    }
                )
        return pl.DataFrame(rows)

    def first_seat(self) -> pl.DataFrame:
        """Win rate of each seat (whoever sits there) and the first seat's advantage over the mean of the others.

        The advantage d = p0 - mean(p1..) is the mean of X = [seat 0 won] - [another seat won] / (P - 1)
        over games; its interval is d +- 1.96 * sd(X) / sqrt(n) (normal approximation).
        """
        P, n = len(self.villains), self.games
        p = self.wins.sum(axis=0) / n
        rows = []
        for s in range(P):
            w = int(self.wins[:, s].sum())
            lo, hi = wilson(w, n)
            rows.append({"seat": f"seat {s}", "games": n, "rate": w / n, "low": float(lo), "high": float(hi)})
        if P > 1:
            d = p[0] - p[1:].mean()
            ex2 = p[0] + p[1:].sum() / (P - 1) ** 2
            half = Z95 * np.sqrt(max(ex2 - d * d, 0.0) / n)
            rows.append(
                {"seat": "first-seat advantage", "games": n, "rate": float(d), "low": d - half, "high": d + half}
            )
        return pl.DataFrame(rows)

    def lengths(self) -> pl.DataFrame:
        """Game length, overall and by winner: rounds played, and the winner's own turns."""
        names = entry_names(self.villains)
        rows = []

        def add(who, measure, hist):
            rows.append({"winner": who, "measure": measure, **hist_stats(hist)})

        add("all games", "rounds", self.rounds.sum(axis=0))
        add("all decided games", "winner's turns", self.turns.sum(axis=0))
        for e, name in enumerate(names):
            add(name, "rounds", self.rounds[e])
            add(name, "winner's turns", self.turns[e])
        add("unfinished", "rounds", self.rounds[-1])
        return pl.DataFrame(rows)

    def widest_interval(self) -> float:
        s = self.summary().filter(pl.col("outcome") != "unfinished")
        return float((s["high"] - s["low"]).max())


def hist_stats(hist: np.ndarray) -> dict:
    """Count, mean, median, 10th and 90th percentile (nearest rank) of an integer histogram."""
    n = int(hist.sum())
    if n == 0:
        return {"games": 0, "mean": float("nan"), "median": float("nan"), "p10": float("nan"), "p90": float("nan")}
    values = np.arange(hist.shape[0])
    cum = np.cumsum(hist)

    def q(p):
        return float(values[np.searchsorted(cum, max(1, int(np.ceil(p * n))))])

    return {"games": n, "mean": float((values * hist).sum() / n), "median": q(0.5), "p10": q(0.1), "p90": q(0.9)}


def entry_names(villains: tuple[str, ...]) -> list[str]:
    """Names of the matchup's entries; a villain appearing twice (a mirror) is numbered: gaston #1, gaston #2."""
    return [f"{v} #{i + 1}" if villains.count(v) > 1 else v for i, v in enumerate(villains)]
