"""Compile the simulation kernels before the first game, saying so, and never count it as play.

numba compiles a kernel the first time it runs and caches the machine code on disk (see
:mod:`simlab.kernels.jit`), so only the first run after an install or an edit of the kernels pays for it.
:func:`ensure` is called before any game is played: when the cache is warm it costs a file check; when it is
cold it compiles the kernels stage by stage, the heuristic strategy in a second process at the same time as
the engine, and reports each stage to a notifier (the CLI shows a spinner with the elapsed time). Runs time
their games after :func:`ensure`, so games/s never includes compilation. ``simlab warmup`` does it ahead of
time.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from simlab.kernels import jit

EXPECTED_SECONDS = 90  # a cold compile on the idle 2-core reference machine: 84 s (README, "Speed")
_STAGES = ("the engine", "the heuristic strategy", "the batch driver", "the single-game driver")
_SEARCH_STAGE = "the search player"
SEARCH_SECONDS = 20  # compiling the search player alone, on the idle 2-core reference machine
_notifier: Callable[[str], None] | None = None
_ready = False


def _marker() -> Path:
    # One marker per (engine, strategies) source hash and source tree: editing a kernel or a strategy makes
    # the cache cold, and so does another checkout of the same sources (numba keys its files by path too).
    tree = hashlib.sha256(str(jit._ROOT).encode())
    for path in sorted((jit._ROOT / "simlab" / "villains").glob("*/abilities.py")):  # compiled with the engine
        tree.update(path.read_bytes())
    tree = tree.hexdigest()[:8]
    return Path(jit.STRATEGY_CACHE_DIR) / f"ready-{Path(jit.ENGINE_CACHE_DIR).name}-{tree}"


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


def _compile_elsewhere() -> None:
    """What the second process compiles while the engine compiles in the first: the heuristic kernel, then
    the kernels that set a game up (they call no bound kernel), by setting one up. numba's cache carries them
    over to the first process."""
    import numpy as np

    import strategies.heuristic as h
    from simlab.kernels.engine import setup_nb
    from simlab.kernels.link import STRATEGY_ARG_TYPES
    from simlab.kernels.state import new_state_nb

    h.choose_nb.compile(STRATEGY_ARG_TYPES)
    tb, ru, vrows, kernels, params = _game_inputs()
    setup_nb(new_state_nb(2, 0), tb, ru, vrows, kernels, params, np.uint64(0), np.uint64(0))


def _start_second_process() -> subprocess.Popen | None:
    """Start compiling the heuristic (and the game setup) in another process (:func:`_compile_elsewhere`)."""
    code = "from simlab.warmup import _compile_elsewhere; _compile_elsewhere()"
    try:
        return subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ), stderr=subprocess.DEVNULL)
    except OSError:
        return None


def search_cached() -> bool:
    """The search player for the current sources is compiled and cached."""
    return _search_marker().exists()


def _search_marker() -> Path:
    marker = _marker()  # hashes the villains' routines: once
    return marker.with_name(marker.name + "-search-" + Path(jit.PLAYER_CACHE_DIR).name)


def ensure(force: bool = False, search: bool = False) -> dict[str, float]:
    """Make sure the kernels are compiled (and bound) in this process; returns seconds per stage compiled.

    A warm cache loads in about a second and says nothing; a cold one says what it does. The search player
    (``search=True``) compiles only when a game needs it, the first time about ``SEARCH_SECONDS``.
    """
    times = _ensure(force)
    if search:
        times |= _ensure_search(force)
    return times


def _ensure_search(force: bool) -> dict[str, float]:
    import numba

    import simlab.driver as driver

    if driver.search_bound():
        return {}
    cold = not numba.config.DISABLE_JIT and (force or not _search_marker().exists())
    if cold:
        _say(f"compiling the search player (first use only, about {SEARCH_SECONDS} s)")
    t = time.perf_counter()
    driver.bind_search()  # without the JIT: puts the Python function in the table
    if not cold:
        return {}
    took = time.perf_counter() - t
    try:
        _search_marker().write_text(f"{took:.1f}\n")
    except OSError:
        pass
    _say(f"compiled the search player in {took:.0f} s")
    return {_SEARCH_STAGE: took}


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
    stage = iter(enumerate(_STAGES, 1))

    def start() -> float:
        if cold:
            i, name = next(stage)
            _say(f"compiling {name} ({i}/{len(_STAGES)}) ...")
        return time.perf_counter()

    t_all = time.perf_counter()
    helper = None
    if cold:
        _say(f"compiling the simulation kernels (first run only, about {EXPECTED_SECONDS} s on 2 cores)")
        helper = _start_second_process()
    t = start()
    from numba import types

    from simlab.kernels.engine import advance_nb, bind_routines
    from simlab.kernels.link import ENGINE_TYPES
    from simlab.villains import bind_abilities

    # the engine compiles here while the heuristic compiles in the other process
    bind_routines()
    bind_abilities()
    advance_nb.compile(ENGINE_TYPES + (types.int64,))
    times[_STAGES[0]] = time.perf_counter() - t
    t = start()
    if helper is not None:
        helper.wait()
    import simlab.driver  # noqa: F401  (binds the engine and the heuristic, loading the latter from the cache)

    times[_STAGES[1]] = time.perf_counter() - t
    t = start()
    _play_one_batch()
    times[_STAGES[2]] = time.perf_counter() - t
    t = start()
    _play_one_game()
    times[_STAGES[3]] = time.perf_counter() - t
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

    from simlab.cards import load_cards
    from simlab.rules import rules_array
    from strategies import resolve

    cards = load_cards()
    specs = [resolve("expert"), resolve("random")]
    vrows = np.array([v.row for v in (cards.villains[0], cards.villains[-1])], np.int64)
    kernels = np.array([s.kernel for s in specs], np.int64)
    params = np.stack([s.vector() for s in specs])
    return cards.tables, rules_array({}, 1), vrows, kernels, params


def _play_one_batch() -> None:
    import numpy as np

    from simlab.driver import play_batch_nb
    from simlab.kernels import const as K

    tb, ru, vrows, kernels, params = _game_inputs()
    seats = np.array([[0, 1]], np.int64)
    play_batch_nb(
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


def _play_one_game() -> None:
    import numpy as np

    from simlab.driver import ALL_STEPS, play_nb
    from simlab.kernels.engine import setup_nb
    from simlab.kernels.state import new_state_nb

    tb, ru, vrows, kernels, params = _game_inputs()
    st = new_state_nb(2, 0)
    setup_nb(st, tb, ru, vrows, kernels, params, np.uint64(0), np.uint64(0))
    play_nb(st, tb, ru, ALL_STEPS)
