"""Run many games in parallel, chunk by chunk, and summarise them with 95% intervals.

Game *i* of a run draws its randomness from (seed, *i*) alone, so the results do not depend on threads or
chunking. Each chunk is played by the parallel kernel and folded into running counts (:class:`Tally`), so
memory stays flat in the number of games; the per-game table is kept only when asked (or for runs of at
most ``KEEP_GAMES_UP_TO`` games) and can be streamed to parquet instead.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simlab.data.edits import describe, edited_cards
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import InputError, WriteError
from simlab.game.api import DEFAULT_STRATEGY, check_villain, parse_matchup
from simlab.runs.checkpoint import (  # noqa: F401
    CHUNK_ARRAYS,
    Checkpoint,
    _write_durably,
    checkpoint_settings,
    chunk_checksum,
    settings_hash,
)
from simlab.runs.gameplan import (  # noqa: F401
    DEFAULT_CHUNK,
    MAX_GAMES,
    GamePlan,
    _chunks,
    _set_threads,
    check_games,
    check_strategies,
)
from simlab.runs.levels import play_label
from simlab.runs.output import _frame, _ParquetOut, card_flags  # noqa: F401
from simlab.runs.seating import check_first, seat_table  # noqa: F401
from simlab.runs.settings import RunSettings
from simlab.runs.sizes import PARQUET_BYTES_PER_GAME_SEAT, plan_size
from simlab.runs.stopping import Interrupted, StopFlag
from simlab.runs.tally import Tally, entry_names, hist_stats  # noqa: F401
from strategies.mixture import play_spec

KEEP_GAMES_UP_TO = 1_000_000
MIN_GAMES_FOR_TARGET = 1000  # --target-ci never stops before this many games


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
    interrupted: bool = False  # stopped by Ctrl-C, SIGTERM or SIGHUP: the summaries cover the games finished
    stopped_at_target: bool = False  # --target-ci reached before n_games
    out: str | None = None
    edits: tuple = ()  # card edits the games were played with (simlab.data.edits.CardEdit)
    resumed_games: int = 0  # games read back from a checkpoint (not played in ``seconds``)
    play: str = ""  # the level played at and the strategies that differ from it (simlab.runs.levels.play_label)
    out_error: str = ""  # why writing ``out`` failed mid-run (the games were still played and counted)
    stop_code: int = 0  # the exit code of the signal that stopped the run (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP)
    checkpoint: str | None = None  # the checkpoint directory recording the run's chunks

    @property
    def n_games(self) -> int:
        return self.tally.games

    # the summaries, read from the running counts (see Tally)
    summary = property(lambda self: self.tally.summary(), doc="Each entry's wins and the unfinished games.")
    by_seat = property(lambda self: self.tally.by_seat(), doc="Each entry's win rate in each seat.")
    first_seat = property(lambda self: self.tally.first_seat(), doc="Each seat's win rate; the first seat's advantage.")
    lengths = property(lambda self: self.tally.lengths(), doc="Game length, overall and by winner.")

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
        return json.dumps(self.to_doc(), indent=2, default=float)

    def to_doc(self) -> dict:
        """The run's settings and summaries as plain data (its frames as lists of rows)."""
        doc = {
            "matchup": self.matchup,
            "play": self.play,
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
        return doc


# ============================================================================ running


_StopFlag = StopFlag  # the older name


@dataclass
class _ChunkSink:
    """Where a run's chunk results go: the tally, the per-game frames kept (by first game), the parquet file and
    the checkpoint. ``mode`` is what a chunk returns: "tally" (counts only), "games" or "flags" (a row per game)."""

    villains: tuple[str, ...]
    mode: str
    tally: Tally
    keep: bool
    writer: _ParquetOut | None = None
    store: Checkpoint | None = None
    parts: dict = field(default_factory=dict)

    def replay(self, done: dict) -> None:
        """The chunks the checkpoint already holds (first game index -> (job, result)): tallied, and kept."""
        for job, res in done.values():
            seats = job.seats()
            self.tally.add_raw(seats, res)
            if self.keep:
                self.parts[job.first] = _frame(self.villains, job, res, seats)

    def add(self, job, res) -> None:
        """A chunk just played: tallied, kept, written to the parquet file and saved in the checkpoint."""
        if self.mode == "tally":
            self.tally.merge(res)
            return
        seats = job.seats()
        self.tally.add_raw(seats, res)
        frame = _frame(self.villains, job, res, seats) if self.keep or self.writer is not None else None
        if self.keep:
            self.parts[job.first] = frame
        if self.writer is not None:
            self.writer.write(frame, res["flags"])
        if self.store is not None:
            self.store.save(job, res)

    def games(self) -> pl.DataFrame | None:
        """The per-game table of the chunks kept, in game order (None when none is kept)."""
        return pl.concat([self.parts[k] for k in sorted(self.parts)]) if self.keep and self.parts else None


def check_out_size(n_games: int, villains: tuple[str, ...], out: str | None) -> None:
    """What ``--out`` will hold must fit where it goes (a run without it streams: no limit); an InputError naming
    the size and the largest ``-n`` that fits, else nothing."""
    if out is not None:
        plan_size("-n", n_games, streamed=True, out=out, out_bytes_each=PARQUET_BYTES_PER_GAME_SEAT * len(villains))


def check_target_ci(target_ci: float | None) -> None:
    if target_ci is not None and not 0 < target_ci < 1:
        raise InputError(f"--target-ci must be an interval width between 0 and 1, got {target_ci!r}")


def run(
    matchup: str,
    settings: RunSettings,
    *,
    strategies: dict | None = None,
    first: str = "rotate",
    out: str | Path | None = None,
    target_ci: float | None = None,
    keep_games: bool | None = None,
    chunk: int = DEFAULT_CHUNK,
    checkpoint: str | Path | None = None,
) -> RunResult:
    """Play up to ``settings.games`` of ``matchup`` with ``settings`` (a :class:`simlab.runs.settings.RunSettings`,
    checked when it was made: games, seed, level, strategies, rule variants, turn cap, threads, card edits,
    progress) and summarise them. The settings' strategies for villains not in the matchup are not used.

    strategies: villain -> strategy name, TOML path or spec for this matchup (each one of its villains), in place
        of the settings' (else their level's; default expert).
    first: ``"rotate"`` (default), ``"random"`` or a villain of the matchup who always plays first.
    out: a parquet file to stream one row per game to (valid even if the run is interrupted).
    target_ci: stop after the first chunk (at least 1,000 games in) at which every entry's 95% win-rate
        interval is narrower than this.
    keep_games: keep the per-game table in memory (default: for runs of at most 1,000,000 games).
    checkpoint: a directory that records each finished chunk; run again with the same settings (or
        :func:`resume`) to finish an interrupted run. Other settings are refused, naming what differs.
    Chunks are played on the current backend (:mod:`simlab.runs.backend`).
    """
    if not isinstance(settings, RunSettings):
        raise TypeError(
            f"run takes its settings as one RunSettings: run(matchup, RunSettings(games, ...)), got {settings!r}"
        )
    villains = parse_matchup(matchup)
    first = check_first(villains, first)
    check_target_ci(target_ci)
    check_strategies(strategies, villains, f"the matchup {matchup!r}")
    n_games, seed, edits, progress = settings.games, settings.seed, settings.edits, settings.progress
    keep = n_games <= KEEP_GAMES_UP_TO if keep_games is None else keep_games
    if checkpoint is not None and out is not None:
        raise InputError("--out cannot be combined with --checkpoint (the checkpoint keeps no card flags)")
    check_out_size(n_games, villains, out)
    _set_threads(settings.threads)
    plan = settings.plan(villains, strategies=strategies, order=first, chunk=chunk)
    names = plan.strategies
    store = Checkpoint.open(checkpoint, plan.settings(matchup)) if checkpoint is not None else None
    writer = _ParquetOut(out, villains, edited_cards(edits)) if out is not None else None
    if writer is not None:
        writer.games = n_games
    mode = "flags" if writer is not None else ("games" if keep or store is not None else "tally")
    sink = _ChunkSink(villains, mode, Tally(villains, settings.max_turns), keep, writer, store)
    tally = sink.tally
    done = {}
    if store is not None:
        done = store.load(plan)  # first game index -> (job, result) of the chunks already played
        sink.replay(done)
    from simlab.runs.backend import current, play_chunk

    jobs = plan.jobs(mode, skip=set(done))
    from simlab.game import warmup

    warmup.ensure_players(plan.kernels)  # compiling, if the cache is cold, is not play: games/s starts after it
    t0 = time.perf_counter()
    interrupted = at_target = False
    stop_code = 0
    if progress is not None:
        progress(tally.games, n_games)
    try:
        with StopFlag() as flag:
            # the chunks are made as the backend asks for them (a run of 10**18 games starts at once); ``tee``
            # keeps each job until its result comes back, at most as many as the backend has queued
            todo, sent = itertools.tee(jobs)
            for job, res in zip(todo, current().map(play_chunk, sent), strict=False):
                _add_chunk(sink, job, res, checkpoint)
                if progress is not None:
                    progress(tally.games, n_games)
                if flag.stop:
                    interrupted, stop_code = True, flag.code
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
        raise Interrupted(flag.signum or 2)
    games = sink.games()
    return RunResult(
        matchup,
        villains,
        tuple(play_spec(s, villains).name for s in names),
        seed,
        seconds,
        tally,
        games,
        interrupted,
        at_target,
        str(out) if out is not None else None,
        edits,
        sum(job.n for job, _ in done.values()),
        play_label(zip(villains, names, strict=True), settings.level, villains),
        writer.error if writer is not None else "",
        stop_code,
        str(checkpoint) if checkpoint is not None else None,
    )


def _add_chunk(sink: _ChunkSink, job, res, checkpoint) -> None:
    """``sink.add``; a checkpoint that cannot take the chunk (a full disk) stops the run in one line that says the
    chunks before it are kept."""
    try:
        sink.add(job, res)
    except WriteError as exc:
        kept = sink.tally.games - job.n
        raise WriteError(
            f"{exc}; the checkpoint keeps the {kept:,} games finished before it: free space and run "
            f"simlab run --resume {str(checkpoint)!r}"
        ) from None


def resume(path, threads: int | None = None, progress=None, keep_games: bool | None = None) -> RunResult:
    """Finish the checkpointed run in ``path`` (its settings come from the checkpoint)."""
    s = checkpoint_settings(path)
    villains = parse_matchup(s["matchup"])
    settings = RunSettings(
        s["n_games"],
        s["seed"],
        variants=s["variants"],
        max_turns=s["max_turns"],
        threads=threads,
        edits=s["edits"],
        progress=progress,
    )
    return run(
        s["matchup"],
        settings,
        strategies=dict(zip(villains, s["strategies"], strict=True)),
        first=s["first"],
        keep_games=keep_games,
        chunk=s["chunk"],
        checkpoint=path,
    )


# ============================================================================ older entry points


def simulate(matchup: str, settings: RunSettings, **kw) -> RunResult:
    """:func:`run` (the same arguments) with the per-game table kept (for tests and small studies)."""
    return run(matchup, settings, keep_games=True, **kw)


def play_games(
    villains: tuple[str, ...],
    strategies: list,
    n_games: int | None = None,
    seed: int | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    edits=None,
    settings: RunSettings | None = None,
) -> pl.DataFrame:
    """One row per game of ``villains`` (entry i plays ``strategies[i]``), seats rotated; one villain alone
    is a goldfish game (nobody Fates it). ``settings``: a :class:`simlab.runs.settings.RunSettings` in place of
    variants, max_turns, threads and edits, and of n_games and seed where they are not given."""
    if settings is None:
        settings = RunSettings(n_games, seed or 0, variants=variants, max_turns=max_turns, threads=threads, edits=edits)
        n_games = seed = None
    plan = settings.plan(tuple(villains), n_games, seed, list(strategies), chunk=chunk)
    return pl.concat([p for p, _, _ in _chunks(plan, settings.threads)])


@dataclass
class GoldfishResult:
    games: pl.DataFrame
    summary: pl.DataFrame  # one row: villain, strategy, games, wins, median / p10 / p90 turns to win


def goldfish(
    villain: str,
    n_games: int | None = None,
    seed: int = 0,
    strategy: str = DEFAULT_STRATEGY,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
    edits=None,
    settings: RunSettings | None = None,
) -> GoldfishResult:
    """``villain`` alone (no opponent, so nobody Fates it): how many turns it needs to reach its objective.
    ``settings``: a :class:`simlab.runs.settings.RunSettings` in place of n_games, seed, variants, max_turns,
    threads and edits."""
    check_villain(villain)
    if settings is None:
        settings = RunSettings(n_games, seed, variants=variants, max_turns=max_turns, threads=threads, edits=edits)
    games = play_games((villain,), [strategy], settings=settings)
    if settings.progress is not None:  # one step, from 0: the games play in one go
        settings.progress(0, games.height)
        settings.progress(games.height, games.height)
    won = games.filter(pl.col("winner_index") == 0)["winner_turns"]
    q = (lambda p: float(won.quantile(p, "nearest"))) if won.len() else (lambda p: float("nan"))
    summary = pl.DataFrame(
        [
            {
                "villain": villain,
                "strategy": play_spec(strategy, (villain,)).name,
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
