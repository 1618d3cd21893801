"""Run many games in parallel and summarise them."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np
import polars as pl

from simlab.cards import load_cards
from simlab.game import DEFAULT_STRATEGY, InputError, check_seed, parse_matchup, strategy_spec
from simlab.kernels import const as K
from simlab.kernels.batch import play_batch_nb
from simlab.kernels.state import N_SPARAMS
from simlab.rules import DEFAULT_MAX_TURNS, rules_array
from simlab.stats import wilson


@dataclass
class RunResult:
    games: pl.DataFrame  # one row per game
    summary: pl.DataFrame  # one row per villain, plus "unfinished"
    seed: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games.height / self.seconds if self.seconds > 0 else float("nan")


def seat_table(villains: tuple[str, ...], n: int, first: int = 0) -> np.ndarray:
    """Villain index (into ``villains``) at each seat of games first..first+n-1: seats rotate by game index."""
    P = len(villains)
    idx = np.arange(first, first + n)[:, None]
    return (idx + np.arange(P)[None, :]) % P


def simulate(
    matchup: str,
    n_games: int,
    seed: int = 0,
    strategies: dict[str, str] | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    chunk: int = 1 << 16,
) -> RunResult:
    """Play ``n_games`` of ``matchup`` with seats rotated, and summarise the results.

    ``strategies`` maps a villain to a strategy name or TOML path (default ``expert``).
    """
    villains = parse_matchup(matchup)
    strategies = dict(strategies or {})
    for v in strategies:
        if v not in villains:
            raise InputError(f"--strategy names villain {v!r}, which is not in the matchup {matchup!r}")
    specs = [strategies.get(v, DEFAULT_STRATEGY) for v in villains]
    t0 = time.perf_counter()
    games = play_games(villains, specs, n_games, seed, variants, max_turns, threads, chunk)
    seconds = time.perf_counter() - t0
    return RunResult(games, summarise(games, villains), check_seed(seed), seconds)


def play_games(
    villains: tuple[str, ...],
    strategies: list,
    n_games: int,
    seed: int = 0,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    chunk: int = 1 << 16,
) -> pl.DataFrame:
    """One row per game of ``villains`` (entry i plays ``strategies[i]``), seats rotated by game index.

    One villain alone is a goldfish game: nobody Fates it.
    """
    seed = check_seed(seed)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 1:
        raise InputError(f"the number of games must be a positive integer, got {n_games!r}")
    specs = [strategy_spec(s) for s in strategies]
    cards = load_cards()
    ru = rules_array(variants, max_turns)
    vrows = np.array([cards.villain(v).row for v in villains], np.int64)
    slot_kernels = np.array([s.kernel for s in specs], np.int64)
    slot_params = np.stack([s.vector() for s in specs]).reshape(len(specs), N_SPARAMS)
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
        numba.set_num_threads(threads)
    P = len(villains)
    parts = []
    for first in range(0, n_games, chunk):
        n = min(chunk, n_games - first)
        seats = seat_table(villains, n, first)
        out_games = np.zeros((n, 5), np.int64)
        out_turns = np.zeros((n, P), np.int64)
        play_batch_nb(
            cards.tables,
            ru,
            vrows[seats],
            seats,
            slot_kernels,
            slot_params,
            np.uint64(seed),
            np.uint64(first),
            out_games,
            out_turns,
            np.zeros((0, P, K.N_INST), np.int8),
        )
        winner_seat = out_games[:, 0]
        rows = np.arange(n)
        winner = np.where(winner_seat >= 0, seats[rows, np.maximum(winner_seat, 0)], -1)
        cols = {
            "game": pl.Series(np.arange(first, first + n), dtype=pl.Int64),
            "winner": pl.Series([villains[w] if w >= 0 else None for w in winner], dtype=pl.String),
            "winner_index": pl.Series(winner, dtype=pl.Int64),  # position in the matchup, -1 = none
            "winner_seat": pl.Series(winner_seat, dtype=pl.Int64),
            "end": pl.Series([K.END_REASONS[e] for e in out_games[:, 1]], dtype=pl.String),
            "rounds": pl.Series(out_games[:, 2], dtype=pl.Int64),
            # turns the winner took (its own turns, not rounds); null when nobody won
            "winner_turns": pl.Series(
                np.where(winner_seat >= 0, out_turns[rows, np.maximum(winner_seat, 0)], -1), dtype=pl.Int64
            ),
        }
        for s in range(P):
            cols[f"seat{s}"] = pl.Series([villains[v] for v in seats[:, s]], dtype=pl.String)
        part = pl.DataFrame(cols).with_columns(
            pl.when(pl.col("winner_turns") >= 0).then(pl.col("winner_turns")).otherwise(None).alias("winner_turns")
        )
        parts.append(part)
    return pl.concat(parts)


@dataclass
class GoldfishResult:
    games: pl.DataFrame
    summary: pl.DataFrame  # one row: villain, strategy, games, wins, median / p10 / p90 turns to win


def goldfish(
    villain: str,
    n_games: int,
    seed: int = 0,
    strategy: str = DEFAULT_STRATEGY,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
) -> GoldfishResult:
    """``villain`` alone (no opponent, so nobody Fates it): how many turns it needs to reach its objective."""
    from simlab.cards import VILLAIN_KEYS

    if villain not in VILLAIN_KEYS:
        raise InputError(f"unknown villain {villain!r}; choose from {', '.join(VILLAIN_KEYS)}")
    games = play_games((villain,), [strategy], n_games, seed, variants, max_turns, threads)
    won = games.filter(pl.col("winner_index") == 0)["winner_turns"]
    q = (lambda p: float(won.quantile(p, "nearest"))) if won.len() else (lambda p: float("nan"))
    summary = pl.DataFrame(
        [
            {
                "villain": villain,
                "strategy": strategy_spec(strategy).name,
                "games": games.height,
                "won": won.len(),
                "median_turns": q(0.5),
                "p10_turns": q(0.1),
                "p90_turns": q(0.9),
                "mean_turns": float(won.mean()) if won.len() else float("nan"),
            }
        ]
    )
    return GoldfishResult(games, summary)


def entry_names(villains: tuple[str, ...]) -> list[str]:
    """Names of the matchup's entries; a villain appearing twice (a mirror) is numbered: gaston #1, gaston #2."""
    return [f"{v} #{i + 1}" if villains.count(v) > 1 else v for i, v in enumerate(villains)]


def summarise(games: pl.DataFrame, villains: tuple[str, ...]) -> pl.DataFrame:
    """Wins of each entry of the matchup and the unfinished games, with 95% Wilson intervals."""
    n = games.height
    rows = []
    counts = [(name, games.filter(pl.col("winner_index") == i).height) for i, name in enumerate(entry_names(villains))]
    counts.append(("unfinished", games.filter(pl.col("winner_index") < 0).height))
    for name, count in counts:
        lo, hi = wilson(count, n)
        rows.append(
            {"outcome": name, "games": n, "count": count, "rate": count / n, "low": float(lo), "high": float(hi)}
        )
    return pl.DataFrame(rows)
