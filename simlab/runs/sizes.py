"""One plan for every size a user gives: games per run (``-n``), the values of a sweep, a tune's budget, a leverage
study's games. :func:`plan_size` is called before anything is allocated or played; it refuses, in one line naming
the option, its value, the limit and the largest value that fits, a size that

- cannot be stored: what the study keeps per game (a leverage study pairs every game of a reading with the same
  game of the shipped reading, so it keeps one byte a game) over :data:`MEMORY_LIMIT`;
- cannot be written: an output file (``--out``) that would not fit in the free space of its folder;
- cannot finish in the stated time: a study that shows its results only at the end, whose games would take more than
  :data:`MAX_SECONDS` at :data:`FAST_GAMES_PER_SECOND` (a rate above any machine's, so what is refused could not
  finish anywhere).

What streams (``simlab run``: chunks made as they are played, running counts, Ctrl-C keeps what is done) is only
held to what it stores and writes."""

from __future__ import annotations

import os
from dataclasses import dataclass

from simlab.errors import InputError

MAX_GAMES = 2**63 - 1  # game indices are 63-bit
FAST_GAMES_PER_SECOND = 1_000_000  # scripted games a second on a large machine, rounded up (2 cores: ~6,000)
MAX_SECONDS = 366 * 86400  # a study that shows its results only at its end must be able to end within a year
PARQUET_BYTES_PER_GAME_SEAT = 12  # a --out row, compressed (measured: 32 bytes a 2-player game), rounded down


def _memory_limit() -> int:
    """Half this machine's physical memory (or 4 GB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 4 * 10**9


MEMORY_LIMIT = _memory_limit()


@dataclass(frozen=True)
class SizePlan:
    """A size that fits: the games it plays, the bytes it keeps in memory and writes, the fewest seconds it takes."""

    option: str
    value: int
    games: int
    kept_bytes: int
    written_bytes: int
    seconds: float


def _bytes(n: float) -> str:
    from simlab.data.durable import human_bytes

    return human_bytes(n)


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:,.0f} seconds"


def plan_size(
    option: str,
    value,
    *,
    games_each: int = 1,
    kept_bytes_each: int = 0,
    streamed: bool = False,
    out=None,
    out_bytes_each: int = 0,
    low: int = 1,
    what: str = "",
) -> SizePlan:
    """Plan ``value`` of ``option`` (``"-n"``, ``"--values"``, ``"--budget"``): each unit plays ``games_each`` games,
    keeps ``kept_bytes_each`` bytes in memory and writes ``out_bytes_each`` bytes to the file ``out``; ``streamed``:
    the study can stop at any time with what it has (no time limit). ``what`` says what a unit is, in messages.
    Returns the :class:`SizePlan`, or raises an InputError naming the value, the limit and the largest value that
    fits."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_GAMES:
        raise InputError(f"{option} must be a whole number from {low:,} to 2**63 - 1, got {value!r}")
    unit = f" ({what})" if what else ""
    games = value * max(games_each, 0)
    kept = value * kept_bytes_each
    if kept > MEMORY_LIMIT:
        most = MEMORY_LIMIT // kept_bytes_each
        raise InputError(
            f"{option} {value:,}{unit} would keep {_bytes(kept)} in memory, over the limit of {_bytes(MEMORY_LIMIT)} "
            f"(half this machine's memory); give {option} at most {most:,}"
        )
    written = value * out_bytes_each
    if out is not None and written:
        from simlab.data.durable import free_bytes

        free = free_bytes(out)
        if free is not None and written > free:
            raise InputError(
                f"{option} {value:,}{unit} would write about {_bytes(written)} to {str(out)!r}, which has "
                f"{_bytes(free)} free; give {option} at most {max(free // out_bytes_each, 1):,} or another place"
            )
    seconds = games / FAST_GAMES_PER_SECOND
    if not streamed and seconds > MAX_SECONDS:
        most = max(MAX_SECONDS * FAST_GAMES_PER_SECOND // max(games_each, 1), 1)
        raise InputError(
            f"{option} {value:,}{unit} means {games:,} games: at least {_duration(seconds)} of play at "
            f"{FAST_GAMES_PER_SECOND:,} games a second, over the limit of a year for a study that shows its results "
            f"at its end; give {option} at most {most:,}"
        )
    return SizePlan(option, value, games, kept, written, seconds)
