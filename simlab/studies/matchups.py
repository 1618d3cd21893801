"""The matchup matrix: every 2-player pairing (mirrors included) and the 3-player game, seats rotated."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sim import RunResult, run


def matchups() -> list[str]:
    pairs = [f"{a}-vs-{b}" for a, b in itertools.combinations_with_replacement(VILLAIN_KEYS, 2)]
    return pairs + ["-vs-".join(VILLAIN_KEYS)]


@dataclass
class MatrixResult:
    table: pl.DataFrame  # one row per (matchup, outcome): rate and 95% interval, plus the matchup's length
    runs: dict[str, RunResult]
    play: str = "expert play"  # the level and the strategies that differ from it (simlab.runs.levels.play_label)

    def to_pandas(self):
        return self.table.to_pandas()

    def grid(self) -> pl.DataFrame:
        """2-player win rates as a villain x opponent grid (row villain's win rate against the column)."""
        two = self.table.filter(pl.col("players") == 2)
        rows = []
        for a in VILLAIN_KEYS:
            row = {"villain": a}
            for b in VILLAIN_KEYS:
                if a == b:
                    hit = two.filter((pl.col("matchup") == f"{a}-vs-{a}") & (pl.col("outcome") == f"{a} #1"))
                else:
                    m = f"{a}-vs-{b}" if f"{a}-vs-{b}" in self.runs else f"{b}-vs-{a}"
                    hit = two.filter((pl.col("matchup") == m) & (pl.col("outcome") == a))
                row[b] = float(hit["rate"][0])
            rows.append(row)
        return pl.DataFrame(rows)


def matrix(n_games: int | None = None, *, settings: RunSettings | None = None, **given) -> MatrixResult:
    """Play ``n_games`` of every matchup and tabulate the outcomes. ``settings`` (a
    :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords: seed, strategies by villain,
    level for every villain ``strategies`` does not name, variants, max_turns, threads, edits, progress) say
    how; default expert play."""
    settings = settings_from(settings, where="the matrix", n_games=n_games, **given)
    runs, frames = {}, []
    for m in matchups():
        vs = m.split("-vs-")
        res = run(m, keep_games=False, settings=settings)
        runs[m] = res
        rounds = res.lengths.filter(pl.col("winner") == "all games")
        adv = res.first_seat.filter(pl.col("seat") == "first-seat advantage").row(0, named=True)
        frames.append(
            res.summary.with_columns(
                pl.lit(m).alias("matchup"),
                pl.lit(len(vs)).alias("players"),
                pl.lit(float(rounds["median"][0])).alias("median_rounds"),
                pl.lit(float(adv["rate"])).alias("first_seat_advantage"),
                pl.lit(float(adv["low"])).alias("first_seat_low"),
                pl.lit(float(adv["high"])).alias("first_seat_high"),
            )
        )
    table = pl.concat(frames).select(
        "matchup",
        "players",
        "outcome",
        "games",
        "count",
        "rate",
        "low",
        "high",
        "median_rounds",
        "first_seat_advantage",
        "first_seat_low",
        "first_seat_high",
    )
    return MatrixResult(table, runs, settings.play_label())


def first_seat(result: MatrixResult) -> pl.DataFrame:
    """The first seat's edge in every matchup of a matrix (seats rotated, so each villain sits first equally
    often): one row per matchup with the first seat's win rate and the advantage (first seat's win rate minus
    the mean of the other seats'), each with its 95% interval, and the share of unfinished games."""
    rows = []
    for m, res in result.runs.items():
        seats = {r["seat"]: r for r in res.first_seat.iter_rows(named=True)}
        unfinished = res.summary.filter(pl.col("outcome") == "unfinished")
        first, adv = seats["seat 0"], seats["first-seat advantage"]
        rows.append(
            {
                "matchup": m,
                "players": len(res.villains),
                "games": res.n_games,
                "first_rate": first["rate"],
                "first_low": first["low"],
                "first_high": first["high"],
                "fair_rate": 1 / len(res.villains),
                "advantage": adv["rate"],
                "advantage_low": adv["low"],
                "advantage_high": adv["high"],
                "unfinished": float(unfinished["rate"][0]) if unfinished.height else 0.0,
            }
        )
    return pl.DataFrame(rows)
