"""Run many games in parallel, chunk by chunk, and summarise them with 95% intervals.

Game *i* of a run draws its randomness from (seed, *i*) alone, so the results do not depend on threads or
chunking. Each chunk is played by the parallel kernel and folded into running counts (:class:`Tally`), so
memory stays flat in the number of games; the per-game table is kept only when asked (or for runs of at
most ``KEEP_GAMES_UP_TO`` games) and can be streamed to parquet instead.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from simlab.edits import describe, edited_cards, normalise
from simlab.game import DEFAULT_STRATEGY, InputError, check_seed, check_villain, parse_matchup, strategy_spec
from simlab.kernels import const as K
from simlab.rules import DEFAULT_MAX_TURNS, rules_array
from simlab.stats import Z95, wilson

KEEP_GAMES_UP_TO = 1_000_000
MAX_GAMES = 2**63 - 1  # game indices are 63-bit (int64 seat tables, uint64 streams)
DEFAULT_CHUNK = 4096
MIN_GAMES_FOR_TARGET = 1000  # --target-ci never stops before this many games


# ============================================================================ seats


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


def check_games(n_games) -> int:
    """``n_games`` if it is a whole number of games from 1 to :data:`MAX_GAMES`, else an InputError."""
    if not isinstance(n_games, int | np.integer) or isinstance(n_games, bool) or not 1 <= n_games <= MAX_GAMES:
        raise InputError(f"the number of games must be a whole number from 1 to 2**63 - 1, got {n_games!r}")
    return int(n_games)


def check_strategies(strategies, villains, where: str = "") -> dict[str, str]:
    """``strategies`` (villain -> strategy name or path) as a dict, if every villain is one of ``villains``
    and every strategy resolves; else an InputError naming the first bad one."""
    strategies = dict(strategies or {})
    for villain, name in strategies.items():
        if villain not in villains:
            raise InputError(
                f"--strategy names villain {villain!r}, which is not in {where or 'the game'}; "
                f"choose from {', '.join(dict.fromkeys(villains))}"
            )
        strategy_spec(name)
    return strategies


def check_first(villains: tuple[str, ...], first: str) -> str:
    if first in ("rotate", "random") or first in villains:
        return first
    raise InputError(f"--first {first!r} is not in the matchup; choose from {', '.join(villains)}, rotate or random")


# ============================================================================ running counts


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
        """Add a chunk's per-game columns (as :func:`simlab.backend.play_chunk` returns them)."""
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


# ============================================================================ results


@dataclass
class RunResult:
    """A run: its summaries (polars frames) and, when kept, one row per game."""

    matchup: str
    villains: tuple[str, ...]
    strategies: tuple[str, ...]
    seed: int
    seconds: float
    tally: Tally
    games: pl.DataFrame | None  # one row per game (None when not kept)
    interrupted: bool = False  # stopped by Ctrl-C: the summaries cover the games finished
    stopped_at_target: bool = False  # --target-ci reached before n_games
    out: str | None = None
    edits: tuple = ()  # card edits the games were played with (simlab.edits.CardEdit)
    resumed_games: int = 0  # games read back from a checkpoint (not played in ``seconds``)

    @property
    def n_games(self) -> int:
        return self.tally.games

    @property
    def summary(self) -> pl.DataFrame:
        return self.tally.summary()

    @property
    def by_seat(self) -> pl.DataFrame:
        return self.tally.by_seat()

    @property
    def first_seat(self) -> pl.DataFrame:
        return self.tally.first_seat()

    @property
    def lengths(self) -> pl.DataFrame:
        return self.tally.lengths()

    @property
    def games_per_second(self) -> float:
        played = self.n_games - self.resumed_games
        return played / self.seconds if self.seconds > 0 and played > 0 else float("nan")

    def frames(self) -> dict[str, pl.DataFrame]:
        out = {"summary": self.summary, "by_seat": self.by_seat, "first_seat": self.first_seat, "lengths": self.lengths}
        if self.games is not None:
            out["games"] = self.games
        return out

    def to_pandas(self) -> dict:
        """The same frames as pandas DataFrames."""
        return {k: v.to_pandas() for k, v in self.frames().items()}

    def to_json(self) -> str:
        doc = {
            "matchup": self.matchup,
            "strategies": dict(zip(entry_names(self.villains), self.strategies, strict=True)),
            "seed": self.seed,
            "games": self.n_games,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "interrupted": self.interrupted,
            "stopped_at_target": self.stopped_at_target,
            "out": self.out,
            "edits": describe(self.edits),
        }
        for k, v in self.frames().items():
            if k != "games":
                doc[k] = v.to_dicts()
        return json.dumps(doc, indent=2, default=float)


# ============================================================================ running


class _StopFlag:
    """Ctrl-C sets a flag (checked between chunks) instead of raising inside a chunk."""

    def __init__(self):
        self.stop = False
        self._old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        if self.stop:  # a second Ctrl-C stops at once
            raise KeyboardInterrupt
        self.stop = True

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
        return False


def run(
    matchup: str,
    n_games: int,
    seed: int = 0,
    strategies: dict[str, str] | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    first: str = "rotate",
    out: str | Path | None = None,
    target_ci: float | None = None,
    keep_games: bool | None = None,
    chunk: int = DEFAULT_CHUNK,
    progress: Callable[[int, int], None] | None = None,
    edits=None,
    checkpoint: str | Path | None = None,
    level: str | None = None,
) -> RunResult:
    """Play up to ``n_games`` of ``matchup`` and summarise them.

    strategies: villain -> strategy name or TOML path (default ``expert``, or ``level``'s).
    level: a level of :mod:`simlab.levels` (random, novice, expert, tuned) playing every villain that
        ``strategies`` does not name.
    first: ``"rotate"`` (default), ``"random"`` or a villain of the matchup who always plays first.
    out: a parquet file to stream one row per game to (valid even if the run is interrupted).
    target_ci: stop after the first chunk (at least 1,000 games in) at which every entry's 95% win-rate
        interval is narrower than this.
    keep_games: keep the per-game table in memory (default: for runs of at most 1,000,000 games).
    progress: called with (games done, games planned) after each chunk.
    edits: card edits (``simlab.edits``: CardEdit objects or ``"CARD:ATTRIBUTE=VALUE"`` strings).
    checkpoint: a directory that records each finished chunk; run again with the same settings (or
        :func:`resume`) to finish an interrupted run. Other settings are refused, naming what differs.
    Chunks are played on the current backend (:mod:`simlab.backend`).
    """
    villains = parse_matchup(matchup)
    first = check_first(villains, first)
    seed = check_seed(seed)
    check_games(n_games)
    if target_ci is not None and not 0 < target_ci < 1:
        raise InputError(f"--target-ci must be an interval width between 0 and 1, got {target_ci!r}")
    strategies = check_strategies(strategies, villains, f"the matchup {matchup!r}")
    if level is not None:
        from simlab.levels import strategies_at

        strategies = strategies_at(level, villains, strategies)
    names = [strategies.get(v, DEFAULT_STRATEGY) for v in villains]
    rules_array(variants, max_turns)  # bad variants or turn cap fail here, before any file is opened
    edits = normalise(edits)
    edited_cards(edits)
    keep = n_games <= KEEP_GAMES_UP_TO if keep_games is None else keep_games
    if checkpoint is not None and out is not None:
        raise InputError("--out cannot be combined with --checkpoint (the checkpoint keeps no card flags)")
    _set_threads(threads)
    plan = GamePlan(villains, names, n_games, seed, variants, max_turns, first, edits, chunk)
    store = Checkpoint.open(checkpoint, plan.settings(matchup)) if checkpoint is not None else None
    writer = _ParquetOut(out, villains, edited_cards(edits)) if out is not None else None
    mode = "flags" if writer is not None else ("games" if keep or store is not None else "tally")
    tally = Tally(villains, max_turns)
    parts = {}
    done = {}
    if store is not None:
        done = store.load(plan)  # first game index -> (job, result) of the chunks already played
        for job, res in done.values():
            seats = job.seats()
            tally.add_raw(seats, res)
            if keep:
                parts[job.first] = _frame(villains, job, res, seats)
    from simlab.backend import current, play_chunk

    jobs = plan.jobs(mode, skip=set(done))
    t0 = time.perf_counter()
    interrupted = at_target = False
    if progress is not None:
        progress(tally.games, n_games)
    try:
        with _StopFlag() as flag:
            # the chunks are made as the backend asks for them (a run of 10**18 games starts at once); ``tee``
            # keeps each job until its result comes back, at most as many as the backend has queued
            todo, sent = itertools.tee(jobs)
            for job, res in zip(todo, current().map(play_chunk, sent), strict=False):
                if mode == "tally":
                    tally.merge(res)
                else:
                    seats = job.seats()
                    tally.add_raw(seats, res)
                    frame = _frame(villains, job, res, seats) if keep or writer is not None else None
                    if keep:
                        parts[job.first] = frame
                    if writer is not None:
                        writer.write(frame, res["flags"])
                    if store is not None:
                        store.save(job, res)
                if progress is not None:
                    progress(tally.games, n_games)
                if flag.stop:
                    interrupted = True
                    break
                if target_ci is not None and tally.games >= MIN_GAMES_FOR_TARGET:
                    if tally.widest_interval() < target_ci:
                        at_target = tally.games < n_games
                        break
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - t0
    if tally.games == 0:
        raise KeyboardInterrupt
    games = pl.concat([parts[k] for k in sorted(parts)]) if keep and parts else None
    return RunResult(
        matchup,
        villains,
        tuple(strategy_spec(s).name for s in names),
        seed,
        seconds,
        tally,
        games,
        interrupted,
        at_target,
        str(out) if out is not None else None,
        edits,
        sum(job.n for job, _ in done.values()),
    )


@dataclass(frozen=True)
class GamePlan:
    """Everything that decides a run's games, checked by the caller: game i of a plan is the same game on any
    backend, thread count or machine. :meth:`jobs` cuts it into chunks any process can play."""

    villains: tuple[str, ...]
    strategies: tuple[str, ...]  # per matchup entry: a strategy name or TOML path
    n_games: int
    seed: int = 0
    variants: tuple[tuple[str, str], ...] = ()  # (rule variant, value), sorted; given as a dict or pairs
    max_turns: int = DEFAULT_MAX_TURNS
    order: str = "rotate"  # seat order: rotate, random or a villain who always plays first
    edits: tuple = ()  # simlab.edits.CardEdit, normalised; given as edits or "CARD:ATTRIBUTE=VALUE" strings
    chunk: int = DEFAULT_CHUNK

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: normalise the fields once, here
        set_(self, "villains", tuple(self.villains))
        set_(self, "strategies", tuple(self.strategies))
        set_(self, "variants", tuple(sorted((k, str(v)) for k, v in dict(self.variants or {}).items())))
        set_(self, "edits", normalise(self.edits))

    @functools.cached_property
    def _slots(self) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...]]:
        """Strategy kernel ids and parameter vectors per matchup entry (resolved once, not per chunk)."""
        specs = [strategy_spec(s) for s in self.strategies]
        return tuple(int(s.kernel) for s in specs), tuple(tuple(float(x) for x in s.vector()) for s in specs)

    def jobs(self, mode: str = "games", skip=()):
        """The chunks as :class:`simlab.backend.ChunkJob` s, minus those starting at a game index in ``skip``."""
        for first in range(0, self.n_games, self.chunk):
            if first not in skip:
                yield self.job(first, min(self.chunk, self.n_games - first), mode)

    def job(self, first: int, n: int, mode: str = "games"):
        from simlab.backend import ChunkJob, fingerprint

        fp = fingerprint()
        kernels, params = self._slots
        return ChunkJob(
            self.villains,
            kernels,
            params,
            int(self.seed),
            first,
            n,
            self.variants,
            int(self.max_turns),
            self.order,
            self.edits,
            mode,
            (fp["version"], fp["rules_hash"]),
        )

    def settings(self, matchup: str) -> dict:
        """The plan as JSON-able data with the install's fingerprint (checkpoints compare it)."""
        from simlab.backend import fingerprint

        return {
            "matchup": matchup,
            "n_games": self.n_games,
            "seed": self.seed,
            "strategies": [str(s) for s in self.strategies],
            "strategy_vectors": [[k, *v] for k, v in zip(*self._slots, strict=True)],
            "variants": dict(self.variants),
            "max_turns": self.max_turns,
            "first": self.order,
            "edits": [str(e) for e in self.edits],
            "chunk": self.chunk,
            "simlab": fingerprint(),
        }


CHUNK_ARRAYS = ("winner_seat", "end", "rounds", "turns")  # a chunk file's per-game arrays, in checksum order


def settings_hash(settings: dict) -> str:
    """A short hash of a run's settings (:meth:`GamePlan.settings`), stamped on each of its chunk files."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:32]


def chunk_checksum(identity: dict, arrays: dict) -> str:
    """sha256 of a chunk's identity and of each array's name, dtype, shape and bytes."""
    h = hashlib.sha256(json.dumps(identity, sort_keys=True).encode())
    for name in CHUNK_ARRAYS:
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


class Checkpoint:
    """A directory of finished chunks: ``settings.json`` and one ``chunk-<first game>.npz`` per chunk.

    A chunk file carries its identity (seed, first and last game index, the hash of the run's settings) and a
    sha256 checksum of that identity and its arrays; :meth:`load` checks all of them against the file's name
    and the run resuming, so a chunk copied over another's name, from another run or cut short is named in one
    line, never merged. A chunk is written to a hidden temporary file, flushed to disk and renamed into place
    (then the directory is flushed), so an interrupted write leaves no file under a chunk's name; the
    temporary file is never read and is removed when the checkpoint is next opened."""

    def __init__(self, path: Path, settings: dict):
        self.path = path
        self.settings = settings
        self.hash = settings_hash(settings)

    @classmethod
    def open(cls, path, settings: dict) -> Checkpoint:
        path = Path(path)
        meta = path / "settings.json"
        try:
            path.mkdir(parents=True, exist_ok=True)
            if meta.exists():
                old = checkpoint_settings(path)
                diffs = [
                    f"{k}: {json.dumps(old.get(k))} there, {json.dumps(settings.get(k))} here"
                    for k in settings
                    if old.get(k) != settings.get(k)
                ]
                if diffs:
                    raise InputError(f"checkpoint {str(path)!r} was made with other settings: " + "; ".join(diffs))
            else:
                _write_durably(meta, json.dumps(settings, indent=2).encode())
            for stale in path.glob(".chunk-*.tmp.npz"):  # an interrupted write's leftover
                stale.unlink()
        except OSError as exc:
            raise InputError(f"cannot use --checkpoint {str(path)!r}: {exc.strerror or exc}") from None
        return cls(path, settings)

    def identity(self, first: int, n: int) -> dict:
        return {"seed": int(self.settings["seed"]), "first": int(first), "last": int(first + n - 1), "run": self.hash}

    def save(self, job, res: dict) -> None:
        arrays = {k: res[k] for k in CHUNK_ARRAYS}
        ident = self.identity(job.first, job.n)
        buf = io.BytesIO()
        np.savez(buf, identity=np.array(json.dumps(ident)), checksum=np.array(chunk_checksum(ident, arrays)), **arrays)
        _write_durably(self.path / f"chunk-{job.first:012d}.npz", buf.getvalue())

    def load(self, plan: GamePlan) -> dict:
        """First game index -> (job, result) of each chunk recorded here (``plan``: the run's)."""
        out = {}
        for f in sorted(self.path.glob("chunk-*.npz")):
            first, res = self._read(f, plan)
            out[first] = (plan.job(first, len(res["winner_seat"])), res)
        return out

    def _read(self, f: Path, plan: GamePlan) -> tuple[int, dict]:
        def refuse(why: str):
            return InputError(f"checkpoint file {str(f)!r} {why}: delete it and resume to replay it")

        try:
            with np.load(f) as z:
                res = {k: z[k] for k in CHUNK_ARRAYS}
                ident, checksum = json.loads(str(z["identity"])), str(z["checksum"])
        except KeyError as exc:
            raise refuse(f"is not a chunk file of this simlab (no {exc})") from None
        except Exception as exc:  # any unreadable file (empty, cut short, not a zip) is a damaged one
            raise refuse(f"is damaged ({type(exc).__name__}: {exc})") from None
        if not isinstance(ident, dict) or chunk_checksum(ident, res) != checksum:
            raise refuse("is damaged (its contents do not match its checksum)")
        name = f.stem.split("-", 1)[1]
        first = int(name) if name.isdigit() else -1
        n = min(plan.chunk, plan.n_games - first) if 0 <= first < plan.n_games else 0
        if ident.get("run") != self.hash:
            raise refuse("belongs to another run (its settings hash differs from settings.json's)")
        if ident.get("seed") != int(plan.seed):
            raise refuse(f"holds games of seed {ident.get('seed')}, not of this run's seed {plan.seed}")
        if first % plan.chunk != 0 or n < 1 or (ident.get("first"), ident.get("last")) != (first, first + n - 1):
            raise refuse(
                f"holds games {ident.get('first')}-{ident.get('last')}, but its name is that of games "
                f"{first}-{first + n - 1}"
            )
        if any(len(v) != n for v in res.values()) or res["turns"].shape[1:] != (len(plan.villains),):
            raise refuse("is damaged (its arrays do not hold the games it names)")
        return first, res


def _write_durably(path: Path, data: bytes) -> None:
    """Write ``data`` to a hidden temporary file beside ``path``, flush it to disk and rename it into place,
    then flush the directory: ``path`` holds either its old contents or all of ``data``, never a part."""
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def checkpoint_settings(path) -> dict:
    """The settings a checkpoint directory was made with (:meth:`GamePlan.settings`)."""
    meta = Path(path) / "settings.json"
    if not meta.exists():
        raise InputError(f"{str(path)!r} is not a checkpoint directory (no settings.json)")
    try:
        settings = json.loads(meta.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the checkpoint settings {str(meta)!r}: {exc}") from None
    if not isinstance(settings, dict) or not {"matchup", "n_games", "seed", "chunk"} <= settings.keys():
        raise InputError(f"{str(meta)!r} is not a simlab checkpoint's settings")
    return settings


def resume(path, threads: int | None = None, progress=None, keep_games: bool | None = None) -> RunResult:
    """Finish the checkpointed run in ``path`` (its settings come from the checkpoint)."""
    s = checkpoint_settings(path)
    villains = parse_matchup(s["matchup"])
    return run(
        s["matchup"],
        s["n_games"],
        s["seed"],
        dict(zip(villains, s["strategies"], strict=True)),
        s["variants"],
        s["max_turns"],
        threads,
        first=s["first"],
        keep_games=keep_games,
        chunk=s["chunk"],
        progress=progress,
        edits=s["edits"],
        checkpoint=path,
    )


def _set_threads(threads) -> None:
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
        numba.set_num_threads(threads)


def _frame(villains, job, res, seats) -> pl.DataFrame:
    """The per-game rows of a played chunk (``seats``: its :func:`seat_table`)."""
    first, n = job.first, job.n
    P = len(villains)
    winner_seat = res["winner_seat"].astype(np.int64)
    rows = np.arange(n)
    winner = np.where(winner_seat >= 0, seats[rows, np.maximum(winner_seat, 0)], -1)
    wturns = np.where(winner_seat >= 0, res["turns"][rows, np.maximum(winner_seat, 0)], -1)
    cols = {
        "game": pl.Series(np.arange(first, first + n), dtype=pl.Int64),
        "winner": pl.Series([villains[w] if w >= 0 else None for w in winner], dtype=pl.String),
        "winner_index": pl.Series(winner, dtype=pl.Int64),  # position in the matchup, -1 = none
        "winner_seat": pl.Series(winner_seat, dtype=pl.Int64),
        "end": pl.Series([K.END_REASONS[e] for e in res["end"]], dtype=pl.String),
        "rounds": pl.Series(res["rounds"], dtype=pl.Int64),
        "winner_turns": pl.Series(wturns, dtype=pl.Int64),  # the winner's own turns
    }
    for s in range(P):
        cols[f"seat{s}"] = pl.Series([villains[v] for v in seats[:, s]], dtype=pl.String)
    for s in range(P):
        cols[f"seat{s}_turns"] = pl.Series(res["turns"][:, s], dtype=pl.Int64)
    return pl.DataFrame(cols).with_columns(
        pl.when(pl.col("winner_turns") >= 0).then(pl.col("winner_turns")).otherwise(None).alias("winner_turns")
    )


def _chunks(plan: GamePlan, threads=None, want_flags=False):
    """Yield (per-game frame, seats, raw arrays) chunk by chunk, played on the current backend."""
    from simlab.backend import current, play_chunk

    _set_threads(threads)
    jobs, sent = itertools.tee(plan.jobs("flags" if want_flags else "games"))
    for job, res in zip(jobs, current().map(play_chunk, sent), strict=True):
        seats = job.seats()
        raw = {
            "winner_seat": res["winner_seat"].astype(np.int64),
            "rounds": res["rounds"].astype(np.int64),
            "turns": res["turns"].astype(np.int64),
            "flags": res.get("flags", np.zeros((0, len(plan.villains), K.N_INST), np.int8)),
        }
        yield _frame(plan.villains, job, res, seats), seats, raw


class _ParquetOut:
    """Stream per-game rows to a parquet file; per seat, two 45-bit masks say which card instances were
    drawn and which played (bit k = instance k: 0-29 the Villain deck, 30-44 the Fate deck; the names are in
    the file's ``simlab.cards`` metadata)."""

    def __init__(self, path, villains, cards):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.path = Path(path)
        self.P = len(villains)
        names = {}
        for v in set(villains):
            vr = cards.villain(v).row
            t = cards.tables
            rows = list(t.v_deck[vr]) + list(t.v_fate[vr])
            out = t.v_out[vr]
            names[v] = [cards.cards[int(r)].name if not out[i] else "" for i, r in enumerate(rows)]
        fields = [
            ("game", pa.int64()),
            ("winner", pa.string()),
            ("winner_index", pa.int64()),
            ("winner_seat", pa.int64()),
            ("end", pa.string()),
            ("rounds", pa.int64()),
            ("winner_turns", pa.int64()),
        ]
        fields += [(f"seat{s}", pa.string()) for s in range(self.P)]
        fields += [(f"seat{s}_turns", pa.int64()) for s in range(self.P)]
        fields += [(f"seat{s}_{k}", pa.uint64()) for s in range(self.P) for k in ("drawn", "played")]
        self.schema = pa.schema(fields, metadata={"simlab.cards": json.dumps(names)})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.writer = pq.ParquetWriter(str(self.path), self.schema)
        except OSError as exc:
            raise InputError(f"cannot write --out {str(path)!r}: {exc.strerror or exc}") from None
        self._pa = pa
        self._bits = np.uint64(1) << np.arange(K.N_INST, dtype=np.uint64)

    def write(self, part: pl.DataFrame, flags: np.ndarray) -> None:
        extra = {}
        for s in range(self.P):
            f = flags[:, s, :]
            extra[f"seat{s}_drawn"] = ((f & K.FLAG_DRAWN) != 0).astype(np.uint64) @ self._bits
            extra[f"seat{s}_played"] = ((f & K.FLAG_PLAYED) != 0).astype(np.uint64) @ self._bits
        table = part.with_columns(**{k: pl.Series(v, dtype=pl.UInt64) for k, v in extra.items()}).to_arrow()
        self.writer.write_table(table.select(self.schema.names).cast(self.schema))

    def close(self) -> None:
        self.writer.close()


def card_flags(path: str | Path) -> pl.DataFrame:
    """Expand a run's parquet file to one row per (game, seat, card): whether it was drawn and played."""
    import pyarrow.parquet as pq

    meta = json.loads(pq.read_schema(str(path)).metadata[b"simlab.cards"])
    games = pl.read_parquet(path)
    P = sum(1 for c in games.columns if c.startswith("seat") and c[4:].isdigit())
    frames = []
    for s in range(P):
        for villain, names in meta.items():
            sub = games.filter(pl.col(f"seat{s}") == villain)
            if sub.height == 0:
                continue
            k = np.arange(len(names), dtype=np.uint64)
            drawn = (sub[f"seat{s}_drawn"].to_numpy()[:, None] >> k) & np.uint64(1)
            played = (sub[f"seat{s}_played"].to_numpy()[:, None] >> k) & np.uint64(1)
            frames.append(
                pl.DataFrame(
                    {
                        "game": np.repeat(sub["game"].to_numpy(), len(names)),
                        "seat": s,
                        "villain": villain,
                        "instance": np.tile(np.arange(len(names)), sub.height),
                        "card": np.tile(np.array(names), sub.height),
                        "drawn": drawn.ravel().astype(bool),
                        "played": played.ravel().astype(bool),
                    }
                )
            )
    return pl.concat(frames).filter(pl.col("card") != "")  # "": a slot a card edit left out of the game


# ============================================================================ older entry points


def simulate(
    matchup: str,
    n_games: int,
    seed: int = 0,
    strategies: dict[str, str] | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    edits=None,
) -> RunResult:
    """:func:`run` with the per-game table kept (for tests and small studies)."""
    return run(
        matchup, n_games, seed, strategies, variants, max_turns, threads, keep_games=True, chunk=chunk, edits=edits
    )


def play_games(
    villains: tuple[str, ...],
    strategies: list,
    n_games: int,
    seed: int = 0,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    edits=None,
) -> pl.DataFrame:
    """One row per game of ``villains`` (entry i plays ``strategies[i]``), seats rotated; one villain alone
    is a goldfish game (nobody Fates it)."""
    seed = check_seed(seed)
    check_games(n_games)
    plan = GamePlan(villains, strategies, n_games, seed, variants, max_turns, edits=edits, chunk=chunk)
    return pl.concat([p for p, _, _ in _chunks(plan, threads)])


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
    edits=None,
) -> GoldfishResult:
    """``villain`` alone (no opponent, so nobody Fates it): how many turns it needs to reach its objective."""
    check_villain(villain)
    games = play_games((villain,), [strategy], n_games, seed, variants, max_turns, threads, edits=edits)
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
