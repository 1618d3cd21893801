"""Compile the simulation kernels before the first game, saying so, and never count it as play.

numba compiles a kernel the first time it runs and caches the machine code on disk (see
:mod:`simlab.kernels.compile.cache`), so only the first run after an install or an edit of the kernels pays for it.
:func:`ensure` is called before any game is played: when the cache is warm it costs a file check; when it is
cold it compiles them in compile-only processes, one a core (:func:`_compile_in_parallel`), then loads them,
and reports its progress to a notifier (stderr by default). Runs time their games after :func:`ensure`, so
games/s never includes compilation. ``simlab warmup`` does it ahead of time.
"""

from __future__ import annotations

import hashlib
import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from simlab.kernels.compile import cache, patches

EXPECTED_SECONDS = 30  # a cold compile on the 2-core reference machine: 22-28 s (docs/performance.md)
_STAGES = ("compiling", "loading")
_SEARCH_STAGE = "the search player"
SEARCH_SECONDS = 20  # compiling the search player alone, on the idle 2-core reference machine
# compiling the apprentice alone (its own kernels; the search player's parts it calls are bound)
APPRENTICE_SECONDS = 10
MAX_PROCESSES = 4
PROGRESS_EVERY = 10.0  # seconds between progress messages while compiling
LAST_PART_SECONDS: dict[str, float] = {}  # what each part took in this process's last cold compile
_notifier: Callable[[str], None] | None = None
_ready = False


def _marker() -> Path:
    # One marker per source tree and the sources every part is compiled from: editing a kernel or a strategy makes
    # the cache cold, and so does another checkout of the same sources (numba keys its files by path too).
    from simlab.villains import ability_codes, codes_key

    tree = hashlib.sha256()
    for path in _played_sources():
        tree.update(str(path).encode())
        tree.update(path.read_bytes())
    tree.update(codes_key(ability_codes()).encode())  # frozen into the villains' routines and plans
    return Path(cache.cache_base()) / f"ready-{tree.hexdigest()[:16]}"


def _played_sources() -> list[Path]:
    """The sources of every kernel a game may run: the driver's import closure, and the villain folders and plans
    loaded by name (:mod:`simlab.villains`), which no import names."""
    import simlab.villains
    import strategies.plans
    from simlab.villains import search_path

    for package in ("simlab", "strategies"):
        cache.follow(package)
    folders = [Path(simlab.villains.__file__).parent, *search_path(), Path(strategies.plans.__file__).parent]
    loaded = sorted({p for where in folders for p in where.rglob("*.py")})
    return list(cache.closure("simlab.game.driver")) + loaded


SHIPPED_PART_SECONDS = Path(__file__).with_name("part_seconds.json")


def _shipped_part_seconds() -> dict[str, float]:
    """Seconds each part took in a cold compile on the 2-core reference machine (``part_seconds.json``, written by
    ``python benchmarks/bench_engine.py --record-parts``): the order of a first cold compile, before this machine
    has recorded its own."""
    import json

    try:
        data = json.loads(SHIPPED_PART_SECONDS.read_text())
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float)}


def last_compile_seconds(player: str = "") -> float | None:
    """What this machine's last cold compile took (each cache marker keeps its seconds): of the kernels, or of a
    player compiled on first use (``search``, ``apprentice``); None before the first. The compile message says
    this measured time, never a promised one."""
    import re

    pattern = re.compile(r"ready-[0-9a-f]{16}" + (rf"-{player}-.+" if player else ""))
    found = []
    for path in Path(cache.cache_base()).glob("ready-*"):
        if pattern.fullmatch(path.name):
            try:
                found.append((path.stat().st_mtime, float(path.read_text().split()[0])))
            except (OSError, ValueError, IndexError):
                continue
    return max(found)[1] if found else None


def _last_text(player: str = "") -> str:
    last = last_compile_seconds(player)
    return f"the last compile here took {last:.0f} s" if last is not None else "the time is reported when done"


def cached() -> bool:
    """The kernels for the current sources are compiled and cached (the next run starts in about a second)."""
    return _ready or _marker().exists()


def set_notifier(notify: Callable[[str], None] | None) -> None:
    """``notify(message)`` is called when compiling starts and at each stage (None: print to stderr)."""
    global _notifier
    _notifier = notify


def _say(message: str) -> None:
    if _notifier is not None:
        _notifier(message)
    else:
        print(f"simlab: {message}", file=sys.stderr, flush=True)


def _parts() -> dict[str, Callable[[], None]]:
    """Every separately compiled part of the main job, by name: each kernel the driver binds or puts in a table
    (in a compile-only process they are noted, not compiled: :func:`simlab.kernels.compile.link.defer_compiling`) and
    the drivers Python calls, for the argument types the runs pass."""
    import numba
    import numpy as np

    from simlab.game.driver import ADVANCE_ARG_TYPES, choose_nb, play_nb, play_range_nb
    from simlab.kernels.compile import link
    from simlab.kernels.rules import setup_nb
    from simlab.kernels.state import ENGINE_TYPES

    def typed(args) -> tuple:
        return tuple(numba.typeof(a) for a in args)

    tb, ru, vrows, kernels, params = _game_inputs()
    slots = np.arange(len(vrows), dtype=np.int64)
    setup_types = ENGINE_TYPES[:1] + typed((tb, ru, vrows, slots, kernels, params, np.uint64(0), np.uint64(0)))
    parts = {name: (lambda d=d, a=a: d.compile(a)) for name, (d, a) in link.DEFERRED.items()}
    parts["play_range_nb"] = lambda: play_range_nb.compile(ENGINE_TYPES[:1] + typed(_batch_args() + (0, 1)))
    parts["play_nb"] = lambda: (play_nb.compile(ADVANCE_ARG_TYPES), choose_nb.compile(ENGINE_TYPES))
    parts["setup_nb"] = lambda: setup_nb.compile(setup_types)
    return parts


def _compile_worker() -> None:
    """A compile-only process of the parallel cold start: prints the names of the parts (one JSON line), then
    compiles each part named on stdin, answering ``[name, seconds, error or ""]``, until stdin closes. numba's
    cache carries what it compiles to the process that plays."""
    from simlab.kernels.compile import link

    link.defer_compiling()
    import simlab.game.driver  # noqa: F401  (notes what it binds in link.DEFERRED instead of compiling it)

    parts = _parts()
    print(json.dumps(list(parts)), flush=True)
    for line in sys.stdin:
        name = line.strip()
        t = time.perf_counter()
        try:
            parts[name]()
            error = ""
        except Exception as exc:  # the playing process compiles it again, and shows the error if it recurs
            error = f"{type(exc).__name__}: {exc}"
        print(json.dumps([name, time.perf_counter() - t, error]), flush=True)


_WORKER_CODE = "from simlab.game.warmup import _compile_worker; _compile_worker()"


def _process_count() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_PROCESSES))


def _compile_in_parallel(t_all: float) -> bool:
    """Compile every part (:func:`_parts`) in compile-only processes, one a core, the largest parts first, each
    process taking the next part as it finishes one; False if they could not start (nothing compiled)."""
    try:
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", _WORKER_CODE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=dict(os.environ),
            )
            for _ in range(_process_count())
        ]
    except OSError:
        return False
    try:
        return _share_out(procs, t_all)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def _share_out(procs: list[subprocess.Popen], t_all: float) -> bool:
    names = None
    for proc in procs:
        line = proc.stdout.readline()
        if line:
            names = json.loads(line)
    if not names:
        return False
    last = {**_shipped_part_seconds(), **cache.part_seconds()}  # the longest first: keeps every process busy
    todo = sorted(names, key=lambda n: -last.get(n, 1.0))
    busy: dict[object, subprocess.Popen] = {}
    select = selectors.DefaultSelector()

    def give(proc: subprocess.Popen) -> None:
        if todo:
            proc.stdin.write(todo.pop(0) + "\n")
            proc.stdin.flush()
            busy[proc.stdout] = proc
        else:  # nothing left: the process ends
            select.unregister(proc.stdout)
            proc.stdin.close()

    for proc in procs:
        if proc.poll() is None:
            select.register(proc.stdout, selectors.EVENT_READ)
            give(proc)
    LAST_PART_SECONDS.clear()
    said = time.perf_counter()
    while busy:
        for key, _ in select.select(timeout=PROGRESS_EVERY):
            proc = busy.pop(key.fileobj)
            line = proc.stdout.readline()
            if not line:  # the process died: what it had is compiled again when loading
                select.unregister(proc.stdout)
                continue
            name, seconds, _error = json.loads(line)
            LAST_PART_SECONDS[name] = seconds
            give(proc)
        if time.perf_counter() - said >= PROGRESS_EVERY and busy:
            said = time.perf_counter()
            _say(f"compiled {len(LAST_PART_SECONDS)} of {len(names)} parts ({said - t_all:.0f} s)")
    cache.record_part_seconds(LAST_PART_SECONDS)
    return True


def search_cached() -> bool:
    """The search player for the current sources is compiled and cached."""
    return _late_marker("search").exists()


def _late_marker(player: str) -> Path:
    """The marker of a player compiled on first use (``search``, ``apprentice``) being cached for these sources."""
    marker = _marker()  # hashes the villains' routines: once
    return marker.with_name(f"{marker.name}-{player}-" + cache.closure_hash(f"strategies.{player}"))


def ensure(force: bool = False, search: bool = False, apprentice: bool = False) -> dict[str, float]:
    """Make sure the kernels are compiled (and bound) in this process; returns seconds per stage compiled.

    A warm cache loads in about a second and says nothing; a cold one says what it does. The search player
    (``search=True``) compiles only when a game needs it, the first time about ``SEARCH_SECONDS``; so does the
    apprentice (``apprentice=True``).
    """
    times = _ensure(force)
    if search:
        times |= _ensure_late("search", force)
    if apprentice:
        times |= _ensure_late("apprentice", force)
    return times


def ensure_players(kernels, force: bool = False) -> dict[str, float]:
    """:func:`ensure`, with the players compiled on first use that the strategy kernel ids ``kernels`` need."""
    from strategies import KERNELS

    kernels = {int(k) for k in kernels}
    return ensure(force, search=KERNELS["search"] in kernels, apprentice=KERNELS["apprentice"] in kernels)


_LATE = {"search": (_SEARCH_STAGE, SEARCH_SECONDS), "apprentice": ("the apprentice", APPRENTICE_SECONDS)}


def _ensure_late(player: str, force: bool) -> dict[str, float]:
    import numba

    import simlab.game.driver as driver

    bound, bind = {
        "search": (driver.search_bound, driver.bind_search),
        "apprentice": (driver.apprentice_bound, driver.bind_apprentice),
    }[player]
    if bound():
        return {}
    stage, _ = _LATE[player]
    marker = _late_marker(player)
    cold = not numba.config.DISABLE_JIT and (force or not marker.exists())
    if cold:
        _say(f"compiling {stage} (first use only; {_last_text(player)})")
    t = time.perf_counter()
    bind()  # without the JIT: puts the Python function in the table
    if not cold:
        return {}
    took = time.perf_counter() - t
    try:
        marker.write_text(f"{took:.1f}\n")
    except OSError:
        pass
    _say(f"compiled {stage} in {took:.0f} s")
    return {stage: took}


def _ensure(force: bool) -> dict[str, float]:
    global _ready
    if _ready and not force:
        return {}
    import numba

    if numba.config.DISABLE_JIT:  # plain Python: nothing to compile
        _ready = True
        return {}
    cold = force or not cached()
    _ready = True  # the last stages play games themselves
    times: dict[str, float] = {}
    t_all = time.perf_counter()
    if cold:
        procs = _process_count()
        where = f"in {procs} processes" if procs > 1 else "in 1 process"
        _say(f"compiling the simulation kernels (first run only, {where}; {_last_text()})")
        for line in patches.not_applied():
            _say(line)
        if procs > 1 and _compile_in_parallel(t_all):
            times[_STAGES[0]] = time.perf_counter() - t_all
    t = time.perf_counter()
    # binds the engine's routines, the villains' routines, advance_nb and the heuristic: loaded from the cache
    # when the processes compiled them, compiled here otherwise (one core, or a process that failed)
    import simlab.game.driver  # noqa: F401

    _play_one_batch()
    _play_one_game()
    if cold:  # compiled in processes, then loaded here; or compiled here
        times[_STAGES[1] if _STAGES[0] in times else _STAGES[0]] = time.perf_counter() - t
    if cold:
        total = time.perf_counter() - t_all
        try:
            _marker().parent.mkdir(parents=True, exist_ok=True)
            _marker().write_text(f"{total:.1f}\n")
        except OSError:
            pass
        _say(f"compiled in {total:.0f} s; later runs start in about a second")
    return times


def _game_inputs():
    """Tables, rules and a two-seat expert-vs-random setup (one round) to run the drivers on."""
    import numpy as np

    from simlab.data.cards import load_cards
    from simlab.data.rules import rules_array
    from strategies import resolve

    cards = load_cards()
    specs = [resolve("expert"), resolve("random")]
    vrows = np.array([v.row for v in (cards.villains[0], cards.villains[-1])], np.int64)
    kernels = np.array([s.kernel for s in specs], np.int64)
    params = np.stack([s.vector() for s in specs])
    return cards.tables, rules_array({}, 1), vrows, kernels, params


def _batch_args() -> tuple:
    """Arguments of one batch of one game, typed as the runs pass them."""
    import numpy as np

    from simlab.kernels import const as K

    tb, ru, vrows, kernels, params = _game_inputs()
    seats = np.array([[0, 1]], np.int64)
    return (
        tb,
        ru,
        vrows[seats],
        seats,
        kernels,
        params,
        np.uint64(0),
        np.uint64(0),
        np.zeros((1, 5), np.int64),
        np.zeros((1, 2), np.int64),
        np.zeros((1, 2, K.N_INST), np.int8),
    )


def _play_one_batch() -> None:
    from simlab.game.driver import play_batch

    play_batch(*_batch_args())


def _play_one_game() -> None:
    import numpy as np

    from simlab.game.driver import ALL_STEPS, play_nb
    from simlab.kernels.rules import setup_nb
    from simlab.kernels.state import new_state

    tb, ru, vrows, kernels, params = _game_inputs()
    st = new_state(2, 0)
    setup_nb(st, tb, ru, vrows, np.arange(2, dtype=np.int64), kernels, params, np.uint64(0), np.uint64(0))
    play_nb(st, tb, ru, ALL_STEPS)
