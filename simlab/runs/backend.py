"""Where chunks of games are played: in this process (local) or on a Dask cluster.

A run is split into chunks of consecutive game indices; a chunk is described by a :class:`ChunkJob` (plain
data: villains, strategy vectors, seed, index range, rules, card edits) and played by :func:`play_chunk`,
which any process with simlab installed can run. Game i's randomness comes from (seed, i) alone, so the
results do not depend on which process played which chunk, nor on the order they finish in.

Select a backend for a block of code with :func:`use`; the library's runs (``run``, ``matrix``, ``sweep``,
``ablation``, ``difficulty``, ``report``) play their chunks on the current one::

    with simlab.runs.backend.use(simlab.runs.backend.DaskBackend("tcp://10.0.0.5:8786")):
        simlab.run("gaston-vs-horned-king", RunSettings(10_000_000))
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simlab.errors import BackendError

_ROOT = Path(__file__).resolve().parents[2]


# ============================================================================ identity of a simlab install


@functools.cache
def fingerprint() -> dict:
    """simlab's version and a hash of everything that decides a game: card data, kernels, strategies."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("simlab")
    except PackageNotFoundError:
        ver = "source tree"
    h = hashlib.sha256()
    villains = _ROOT / "simlab" / "villains"  # the registry, each villain's card data (and its routines)
    files = sorted(villains.rglob("*.toml")) + sorted(villains.rglob("*.py"))
    files += sorted((_ROOT / "simlab" / "kernels").rglob("*.py")) + sorted((_ROOT / "strategies").rglob("*.py"))
    for path in files:
        h.update(path.relative_to(_ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return {"version": ver, "rules_hash": h.hexdigest()[:16]}


@functools.cache
def source_commit() -> str | None:
    """The git commit of the source tree simlab runs from (``+dirty`` when files differ from it), for
    provenance; ``None`` outside a git checkout (an installed wheel) or without git."""
    import subprocess

    try:
        head = subprocess.run(
            ["git", "-C", str(_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(_ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "") if head else None


def _fingerprint_now() -> dict:
    return fingerprint.__wrapped__()


# ============================================================================ one chunk of games


@dataclass(frozen=True)
class ChunkJob:
    villains: tuple[str, ...]
    slot_kernels: tuple[int, ...]  # strategy kernel id per slot (slot e is entry e unless a mixture plays)
    slot_params: tuple[tuple[float, ...], ...]  # strategy parameters per slot
    seed: int
    first: int  # first game index
    n: int
    variants: tuple[tuple[str, str], ...]
    max_turns: int
    order: str  # seat order: rotate, random or a villain
    edits: tuple = ()
    mode: str = "games"  # games: per-game columns; tally: only the run's counts; flags: games + card flags
    expect: tuple = ()  # the fingerprint (version, rules hash) of the process that made the job
    draws: tuple = ()  # per entry, (slot, cumulative weight) pairs when a mixture plays (strategies.mixture)

    def seats(self) -> np.ndarray:
        """int64 (n, P): the matchup entry in each seat of each of the chunk's games."""
        from simlab.runs.seating import seat_table

        return seat_table(self.villains, self.n, self.first, self.order, self.seed)

    def slots(self, seats: np.ndarray) -> np.ndarray:
        """int64 (n, P): the strategy slot at each seat of each game (the entry itself unless a mixture plays)."""
        from strategies.mixture import seat_slots

        return seat_slots(seats, self.draws, self.seed, self.first)


def play_games(job: ChunkJob):
    """Play the chunk's games here: (seats, out_games, out_turns, out_flags), the arrays the batch driver
    fills (:func:`simlab.game.driver.play_batch`; flags only in ``flags`` mode), with the seat table."""
    from simlab.data.edits import edited_cards
    from simlab.data.rules import rules_array
    from simlab.game import warmup
    from simlab.kernels import const as K

    warmup.ensure_players(job.slot_kernels)
    from simlab.game.driver import play_batch

    cards = edited_cards(job.edits)
    ru = rules_array(dict(job.variants), job.max_turns)
    vrows = np.array([cards.villain(v).row for v in job.villains], np.int64)
    seats = job.seats()
    P = len(job.villains)
    out_games = np.zeros((job.n, 5), np.int64)
    out_turns = np.zeros((job.n, P), np.int64)
    out_flags = np.zeros((job.n if job.mode == "flags" else 0, P, K.N_INST), np.int8)
    play_batch(
        cards.tables,
        ru,
        vrows[seats],
        job.slots(seats),
        np.array(job.slot_kernels, np.int64),
        np.array(job.slot_params, np.float64),
        np.uint64(job.seed),
        np.uint64(job.first),
        out_games,
        out_turns,
        out_flags,
    )
    return seats, out_games, out_turns, out_flags


def play_chunk(job: ChunkJob):
    """Play games job.first .. job.first + job.n - 1 and return what ``job.mode`` asks for.

    games: dict of int arrays winner_seat (n,), end (n,), rounds (n,), turns (n, P); flags adds flags
    (n, P, 45) int8; tally: a :class:`simlab.runs.sim.Tally` of the chunk (a few KB, whatever n).
    """
    mine = fingerprint()
    if job.expect and job.expect != (mine["version"], mine["rules_hash"]):
        raise BackendError(
            f"a worker runs simlab {mine['version']} with rules {mine['rules_hash']}, the client simlab "
            f"{job.expect[0]} with rules {job.expect[1]}: start the workers from the same install"
        )
    from simlab.runs.tally import Tally

    seats, out_games, out_turns, out_flags = play_games(job)
    if job.mode == "tally":
        tally = Tally(job.villains, job.max_turns)
        tally.add(seats, out_games[:, 0], out_games[:, 2], out_turns)
        return tally
    res = {
        "winner_seat": out_games[:, 0].astype(np.int8),
        "end": out_games[:, 1].astype(np.int8),
        "rounds": out_games[:, 2].astype(np.int16),
        "turns": out_turns.astype(np.int16),
    }
    if job.mode == "flags":
        res["flags"] = out_flags
    return res


# ============================================================================ backends


class LocalBackend:
    """Play every chunk here, in order; numba spreads each chunk over this machine's cores."""

    name = "local"

    def map(self, fn: Callable, jobs: Iterable) -> Iterator:
        for job in jobs:
            res = fn(job)
            _count(job)
            yield res

    def close(self) -> None:
        pass


class DaskBackend:
    """Play chunks on a Dask cluster: the one at ``scheduler`` (``tcp://HOST:PORT``) or, without one, a local
    cluster started here of ``n_workers`` single-threaded worker processes (default: one per core), each
    playing its chunk on one numba thread so the cores are not oversubscribed. Workers must run the same
    simlab (version, card data, kernels and strategies) as this process; others are refused."""

    name = "dask"

    def __init__(
        self, scheduler: str | None = None, n_workers: int | None = None, timeout: float = 8.0, max_pending: int = 64
    ):
        if scheduler:
            handshake(scheduler, timeout)  # a socket that is not a Dask scheduler's: refused, not waited on
        try:
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - a dependency
            raise BackendError(
                "--backend dask needs the distributed package (pip install 'dask[distributed]')"
            ) from None
        self.max_pending = max_pending
        self._cluster = None
        try:
            if scheduler:
                self.client = Client(scheduler, timeout=timeout)
            else:
                self._cluster = LocalCluster(
                    n_workers=n_workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    env={"NUMBA_NUM_THREADS": "1"},
                )
                self.client = Client(self._cluster, timeout=timeout)
        except (OSError, TimeoutError, ValueError, MemoryError, RuntimeError) as exc:  # MemoryError: a garbage frame
            raise BackendError(f"cannot reach the Dask scheduler at {scheduler!r}: {_short(exc)}") from None
        self.scheduler = scheduler or self.client.scheduler.address
        try:
            self.client.wait_for_workers(1, timeout=max(timeout, 60))
        except (OSError, TimeoutError):
            self.close()
            raise BackendError(f"the Dask scheduler at {self.scheduler} has no workers") from None
        self.check_workers()

    def check_workers(self) -> None:
        mine = fingerprint()
        theirs = self.client.run(_fingerprint_now)
        for address, fp in theirs.items():
            if fp != mine:
                self.close()
                raise BackendError(
                    f"Dask worker {address} runs simlab {fp['version']} with rules {fp['rules_hash']}, this process "
                    f"simlab {mine['version']} with rules {mine['rules_hash']}: start the workers from the same install"
                )

    def map(self, fn: Callable, jobs: Iterable) -> Iterator:
        """Results in job order. At most ``max_pending`` chunks are queued at once, so a 10M-game run does not
        hold thousands of futures; a chunk whose worker dies is run again elsewhere by the scheduler."""
        from collections import deque

        pending, fut_jobs = deque(), deque()
        it = iter(jobs)
        for job in it:
            pending.append(self.client.submit(fn, job, pure=False, retries=3))
            fut_jobs.append(job)
            if len(pending) >= self.max_pending:
                break
        try:
            while pending:
                fut = pending.popleft()
                try:
                    result = fut.result()
                except (OSError, TimeoutError, MemoryError) as exc:  # the comm layer: the scheduler went away
                    raise BackendError(f"lost the Dask scheduler at {self.scheduler}: {_short(exc)}") from None
                fut.release()
                _count(fut_jobs.popleft())
                nxt = next(it, None)
                if nxt is not None:
                    pending.append(self.client.submit(fn, nxt, pure=False, retries=3))
                    fut_jobs.append(nxt)
                yield result
        finally:  # the caller stopped early (Ctrl-C, --target-ci): drop the queued chunks
            if pending:
                self.client.cancel(list(pending))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()


_current: contextvars.ContextVar = contextvars.ContextVar("simlab_backend", default=None)
_counter: contextvars.ContextVar = contextvars.ContextVar("simlab_game_count", default=None)


@dataclass
class GameCount:
    """Games whose chunks came back inside a :func:`counting` block; ``search``: those where a search player sat."""

    games: int = 0
    search: int = 0


def _count(job) -> None:
    counter = _counter.get()
    if counter is not None and isinstance(job, ChunkJob):
        from strategies import KERNELS

        counter.games += job.n
        counter.search += job.n if KERNELS["search"] in job.slot_kernels else 0


@contextlib.contextmanager
def counting():
    """Count the games every backend plays inside the block (a report records its games per section)."""
    outer = _counter.get()
    counter = GameCount()
    token = _counter.set(counter)
    try:
        yield counter
    finally:
        _counter.reset(token)
        if outer is not None:  # an enclosing count sees these games too
            outer.games += counter.games
            outer.search += counter.search


def current():
    """The backend runs use now (local unless :func:`use` says otherwise)."""
    return _current.get() or LocalBackend()


@contextlib.contextmanager
def use(backend):
    """Play the runs inside the block on ``backend``."""
    token = _current.set(backend)
    try:
        yield backend
    finally:
        _current.reset(token)


BACKENDS = ("local", "dask")
_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


def check_backend(name, scheduler=None, where: tuple[str, str] = ("--backend", "--scheduler")) -> None:
    """Refuse an unknown backend name, or a scheduler address that is not [PROTOCOL://]HOST:PORT, before any
    connection is tried; ``where`` names the two settings in messages (options, or a file's keys)."""
    if name not in BACKENDS:
        raise BackendError(f"{where[0]}: unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    if scheduler is None:
        return
    m = _ADDRESS.fullmatch(str(scheduler))
    if not m or not 0 < int(m.group(3)) < 65536:
        raise BackendError(f"{where[1]}: {scheduler!r} is not a scheduler address; give tcp://HOST:PORT")
    if name != "dask":
        raise BackendError(f"{where[1]} needs {where[0]} dask")


FALLBACKS = ("none", "local")
DEFAULT_CONNECT_TIMEOUT = 10.0  # seconds a scheduler has to answer (--connect-timeout)
MAX_CONNECT_TIMEOUT = 3600.0


def check_connect(timeout: float, fallback: str | None) -> None:
    """Refuse a --connect-timeout that is not a positive number of seconds (at most an hour), or an unknown
    --fallback."""
    if not (isinstance(timeout, int | float) and 0 < timeout <= MAX_CONNECT_TIMEOUT):
        raise BackendError(
            f"--connect-timeout must be a number of seconds above 0 and at most {MAX_CONNECT_TIMEOUT:,.0f}, "
            f"got {timeout!r}"
        )
    if fallback is not None and fallback not in FALLBACKS:
        raise BackendError(f"--fallback: unknown choice {fallback!r}; choose from {', '.join(FALLBACKS)}")


def make(
    name: str = "local",
    scheduler: str | None = None,
    timeout: float = DEFAULT_CONNECT_TIMEOUT,
    fallback: str | None = None,
):
    """A backend by name (``local`` or ``dask``); errors name the valid choices. ``timeout``: the seconds a
    scheduler has to answer in the Dask protocol; ``fallback="local"``: a Dask backend that cannot be used gives
    a local one instead, whose ``fallback_reason`` says why (without it, the error)."""
    check_backend(name, scheduler)
    check_connect(timeout, fallback)
    if name == "local":
        return LocalBackend()
    try:
        return DaskBackend(scheduler, timeout=timeout)
    except BackendError as exc:
        if fallback != "local":
            raise
        local = LocalBackend()
        local.fallback_reason = f"{exc}; playing on local threads instead (--fallback local)"
        return local


def _short(exc: BaseException) -> str:
    """An exception in a few words (a comm error's text can run to many lines)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


# A Dask comm frame: the scheduler speaks first, a handshake of a few hundred bytes naming these keys.
_HANDSHAKE_KEYS = (b"compression", b"python", b"pickle-protocol")
_MAX_HANDSHAKE = 1 << 20


def handshake(address: str, timeout: float) -> None:
    """Refuse (BackendError, naming ``address``) a TCP scheduler address that does not answer in the Dask protocol
    within ``timeout`` seconds: nobody listening, a socket that accepts and stays silent (an HTTP server's port), or
    an answer that is not a Dask handshake (garbage that the comm layer would read as a frame of exabytes). Other
    protocols (tls://, ws://) are left to Dask's own timeout."""
    import socket
    import struct
    import time

    m = _ADDRESS.fullmatch(str(address))
    if m is None or (m.group(1) or "tcp") != "tcp":
        return
    host, port = m.group(2).strip("[]"), int(m.group(3))
    deadline = time.monotonic() + timeout
    where = f"the Dask scheduler at {address}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            data = b""
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BackendError(
                        f"{where} did not answer in the Dask protocol within {timeout:g} s "
                        "(--connect-timeout); is it a scheduler's address?"
                    )
                sock.settimeout(left)
                chunk = sock.recv(65536)
                if not chunk:
                    raise BackendError(f"{where} closed the connection without a Dask handshake")
                data += chunk
                if len(data) >= 8:
                    (size,) = struct.unpack("<Q", data[:8])
                    if not 0 < size <= _MAX_HANDSHAKE:
                        raise BackendError(
                            f"{where} answered, but not in the Dask protocol (a first frame of "
                            f"{size:,} bytes); is it a scheduler's address?"
                        )
                    if len(data) >= 8 + size:
                        break
            if not all(k in data for k in _HANDSHAKE_KEYS):
                raise BackendError(f"{where} answered, but not with a Dask handshake; is it a scheduler's address?")
    except TimeoutError:
        raise BackendError(
            f"{where} did not answer in the Dask protocol within {timeout:g} s "
            "(--connect-timeout); is it a scheduler's address?"
        ) from None
    except OSError as exc:
        raise BackendError(f"cannot reach {where}: {exc.strerror or _short(exc)}") from None
