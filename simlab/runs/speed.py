"""This machine's measured speed: games per second at a level, a number of players and a number of threads, kept in
a small file beside the compiled kernels (``speed.json`` in :func:`simlab.kernels.compile.cache.cache_base`).

A rate not in the file yet is measured once by a short run on seeds no study uses (:data:`RATE_SECONDS` of play,
the search player one game a matchup) and written there. The command line's plan line
(:mod:`simlab.studies.workload`) reads it to estimate a command's time before it starts; what each command's
finished runs took over their estimate (:func:`record_ratio`) corrects the next one, so the estimates follow the
machine (a rate measured under load included). ``SIMLAB_SPEED_FILE`` names another file.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

RATE_GAMES = 200  # scripted games of one measuring run (repeated until RATE_SECONDS)
RATE_SECONDS = 0.3
WEIGHT = 0.5  # of a finished command's ratio against the stored one
PROBE_SEED = 9_000_011  # seeds of the measuring runs: no study starts there
_memory: dict[str, float] = {}


def speed_file() -> Path:
    from simlab.kernels.compile import cache

    return Path(os.environ.get("SIMLAB_SPEED_FILE") or Path(cache.cache_base()) / "speed.json")


def key(level: str | None, players: int, threads: int | None) -> str:
    """``expert/2p/1t``: a rate's name in the file (``all`` threads: numba's default)."""
    return f"{level or 'expert'}/{max(players, 2)}p/{threads or 'all'}t"


def _read() -> dict[str, float]:
    try:
        data = json.loads(speed_file().read_text())
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float) and v > 0}


def _write(rates: dict[str, float]) -> None:
    path = speed_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(dict(sorted(rates.items())), indent=1) + "\n")
        tmp.replace(path)
    except OSError:  # a read-only cache: the rate is measured again next time
        pass


def known(level: str | None, players: int = 2, threads: int | None = None) -> float | None:
    """The stored rate (games per second), or None."""
    k = key(level, players, threads)
    return _memory.get(k) or _read().get(k)


def rate(level: str | None, players: int = 2, threads: int | None = None) -> float:
    """Games per second at ``level`` with ``players`` villains on ``threads`` threads: the stored rate, else
    measured now (compiling the kernels first if they are not) and stored."""
    found = known(level, players, threads)
    if found:
        return found
    measured = measure(level, players, threads)
    _store(key(level, players, threads), measured, 1.0)
    return measured


def measure(level: str | None, players: int = 2, threads: int | None = None) -> float:
    """Time a short run (repeated until :data:`RATE_SECONDS`; the search player: one game a seat order), played
    through the run plan's chunks directly (whatever a study's entry point is, this is how its games play)."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.game import warmup
    from simlab.game.api import parse_matchup
    from simlab.runs.gameplan import _chunks
    from simlab.runs.levels import is_search
    from simlab.runs.settings import RunSettings

    # the matrix's first matchup of that many players: the first villain's mirror, or the 3-player game
    seats = VILLAIN_KEYS[:players] if players > 2 else (VILLAIN_KEYS[0],) * 2
    villains = parse_matchup("-vs-".join(seats))
    search = is_search(level)
    settings = RunSettings(players if search else RATE_GAMES, PROBE_SEED, level=level, threads=threads)

    def play(seed: int, games: int | None = None) -> int:
        plan = settings.plan(villains, games or settings.games, seed, None)
        warmup.ensure_players(plan.kernels)  # compiling is not play: before the clock starts
        return sum(part.height for part, _, _ in _chunks(plan, threads))

    play(PROBE_SEED, 2 if not search else None)  # loads what this level plays
    played, t0 = 0, time.perf_counter()
    while played == 0 or (not search and time.perf_counter() - t0 < RATE_SECONDS):
        played += play(PROBE_SEED + 1 + played)
    return played / max(time.perf_counter() - t0, 1e-6)


EDIT_RUNS = 4  # tiny runs timed with and without an edit, for what building an edited game's tables adds to a run


def edit_seconds(threads: int | None = None) -> float:
    """What a run under a card edit adds (its card tables are built for it): stored, else measured now."""
    k = f"edit/{threads or 'all'}t"
    found = _memory.get(k) or _read().get(k)
    if found:
        return found
    from simlab.data.cards import VILLAIN_KEYS, load_cards
    from simlab.data.edits import parse_edit
    from simlab.game import warmup
    from simlab.runs.gameplan import _chunks
    from simlab.runs.settings import RunSettings

    villains = (VILLAIN_KEYS[0], VILLAIN_KEYS[-1])
    card = next(c for c in load_cards().cards if c.villain == villains[0] and c.deck == "villain" and c.cost > 0)
    base = RunSettings(2, PROBE_SEED, threads=threads)
    warmup.ensure_players(base.plan(villains).kernels)

    def timed(edits) -> float:
        t0 = time.perf_counter()
        for i, e in enumerate(edits):
            s = base.replace(edits=(e,) if e is not None else ())
            sum(p.height for p, _, _ in _chunks(s.plan(villains, None, PROBE_SEED + i), threads))
        return time.perf_counter() - t0

    plain = timed([None] * EDIT_RUNS)
    # a different edit each time: an edit's tables are built once and reused
    edited = timed([parse_edit(f"{card.name}:cost={c}") for c in range(1, EDIT_RUNS + 1)])
    value = max((edited - plain) / EDIT_RUNS, 1e-3)
    _store(k, value, 1.0)
    return value


RATIO_LIMITS = (0.5, 4.0)  # a command's correction is kept within these
RATIO_FROM_SECONDS = 5.0  # a command planned to take at least this long corrects its next estimate


def ratio(command: str) -> float:
    """What ``command``'s last runs here took over their estimate (1 before any): what the rates leave out (a
    study's own work, the load of the machine)."""
    k = f"command/{command}"
    return _memory.get(k) or _read().get(k) or 1.0


def record_ratio(command: str, estimated: float, took: float) -> None:
    """Fold a finished command's time over its estimate (before the correction) into :func:`ratio`."""
    if estimated >= RATIO_FROM_SECONDS and took > 0:
        low, high = RATIO_LIMITS
        _store(f"command/{command}", min(max(took / estimated, low), high), WEIGHT)


def _store(k: str, value: float, weight: float) -> None:
    rates = _read()
    old = rates.get(k)
    rates[k] = value if old is None else (1 - weight) * old + weight * value
    _memory[k] = rates[k]
    _write(rates)
