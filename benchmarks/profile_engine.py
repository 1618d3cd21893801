"""Where the engine's time goes: play games on one thread under ``perf`` with the kernels named.

Usage (Linux, ``pip install -e '.[bench]'`` for pyelftools):

    perf record -F 999 -o perf.data python benchmarks/profile_engine.py --games 3000 --strategy expert
    perf report -i perf.data --no-children --sort sym

With ``--call-graph`` the kernels are compiled with frame pointers (into a numba cache of their own, a cold start the
first time), so that ``perf record -g`` walks the jitted calls: ``perf report --children`` gives each function's time
with its callees, ``benchmarks/perf_tree.py`` the time under one function by callee.

numba's compiled code has no symbols perf can see, so once the kernels are loaded this script writes
``/tmp/perf-<pid>.map`` (perf's map format for JIT code): every function symbol of the cached object code,
at the address the process loaded it. Functions LLVM inlined into their callers count towards the caller.
It also prints steps and decisions per game and the time each takes.

``--split N`` instead measures how a game's time divides between the engine and the strategies: N games are
played once step by step, recording each decision's choice and the random stream after it, then played again in
full and replayed through the engine alone (each recorded choice applied, the stream restored, so every game
ends as it did), alternately, three times each.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import io
import os
import pickle
import re
import sys
import time
import warnings

import numba


def _elf_blobs(obj, out: list, depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(obj, (bytes, bytearray)) and obj[:4] == b"\x7fELF":
        out.append(bytes(obj))
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _elf_blobs(x, out, depth + 1)


def _short(name: str) -> str:
    """``_ZN6simlab7kernels5query13strength_nbB...`` -> ``simlab.kernels.query.strength_nb``."""
    prefix = "cfunc." if name.startswith("cfunc.") else ""
    name = name.removeprefix("cfunc.")
    if not name.startswith("_ZN"):
        return prefix + name
    parts, i = [], 3
    while m := re.match(r"\d+", name[i:]):
        n = int(m.group())
        i += len(m.group())
        parts.append(name[i : i + n])
        i += n
    return prefix + ".".join(parts)


def write_perf_map(cache_dirs) -> int:
    """Write /tmp/perf-<pid>.map for every compiled function of the loaded kernels; returns the count."""
    import gc

    from elftools.elf.elffile import ELFFile
    from numba.core.registry import CPUDispatcher

    engines = {
        cres.library._codegen._engine
        for obj in gc.get_objects()
        if isinstance(obj, CPUDispatcher)
        for cres in obj.overloads.values()
    }
    sizes = {}
    for d in cache_dirs:
        for path in glob.glob(os.path.join(d, "**", "*.nbc"), recursive=True):
            blobs: list = []
            try:
                with open(path, "rb") as fh:
                    _elf_blobs(pickle.load(fh), blobs)
            except (ImportError, AttributeError):  # an entry of a module that is gone (a test's scratch copy)
                continue
            for blob in blobs:
                for sym in ELFFile(io.BytesIO(blob)).get_section_by_name(".symtab").iter_symbols():
                    if sym["st_info"]["type"] == "STT_FUNC" and sym["st_size"]:
                        sizes[sym.name] = sym["st_size"]
    rows = {}
    for name, size in sizes.items():
        for engine in engines:
            address = engine.get_function_address(name)
            if address:
                rows[address] = (size, _short(name))
                break
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, (size, name) in sorted(rows.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(rows)


def split(matchup: str, strategy: str, n_games: int) -> None:
    """Print the time a game takes played in full and replayed through the engine alone (see the docstring)."""
    import numpy as np
    from numba import njit

    import simlab.game.driver as D
    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from simlab.kernels.compile import as_ptr, ref
    from simlab.kernels.rules import advance_by_ref_nb, advance_nb, apply_nb
    from simlab.kernels.state import copy_state

    @njit(nogil=True, _nrt=False)
    def full_nb(st, tb, ru):
        rst, rtb = ref(st), ref(tb)
        while advance_by_ref_nb.call(rst, rtb, as_ptr(ru), 1 << 62):
            D.apply_nb(rst, D.decide_nb(st, tb, ru, rst, rtb))

    @njit(nogil=True, _nrt=False)
    def replay_nb(st, tb, ru, choices, streams):
        rst, rtb = ref(st), ref(tb)
        i = 0
        while advance_by_ref_nb.call(rst, rtb, as_ptr(ru), 1 << 62):
            D.apply_nb(rst, choices[i])
            st.rng[0] = streams[i]
            i += 1

    warmup.ensure()  # binds the routines and the strategies' parts (and compiles them on a cold cache)
    villains = tuple(matchup.split("-vs-"))
    games = []
    for index in range(n_games):
        g = Game.new(villains, seed=1, game_index=index, strategies=(strategy,) * len(villains))
        st, tb, ru = g.state, g.cards.tables, g.rules
        start, choices, streams = copy_state(st), [], []
        while advance_nb(st, tb, ru, 1 << 62):
            choices.append(D.choose_nb(st, tb, ru))
            streams.append(st.rng[0])
            apply_nb(st, choices[-1])
        games.append((start, np.array(choices, np.int64), np.array(streams, np.uint64), int(st.g[K.G_WINNER])))
    t = time.perf_counter()
    full_nb(copy_state(games[0][0]), tb, ru)
    replay_nb(copy_state(games[0][0]), tb, ru, games[0][1], games[0][2])
    print(f"compiled the two drivers in {time.perf_counter() - t:.1f} s (not counted)", file=sys.stderr)
    times = {"full": [], "engine": []}
    for _ in range(3):
        for kind in times:
            states = [copy_state(start) for start, *_ in games]
            t = time.perf_counter()
            for st, (_, choices, streams, _) in zip(states, games, strict=True):
                if kind == "full":
                    full_nb(st, tb, ru)
                else:
                    replay_nb(st, tb, ru, choices, streams)
            times[kind].append((time.perf_counter() - t) / n_games)
            assert [int(st.g[K.G_WINNER]) for st in states] == [w for *_, w in games], "a replay ended differently"
    full, engine = min(times["full"]), min(times["engine"])
    print(
        f"{matchup}, {strategy}, 1 thread, {n_games:,} games (best of 3): {full * 1e3:.3f} ms a game played, "
        f"{engine * 1e3:.3f} ms through the engine alone: the strategies take {1 - engine / full:.0%}"
    )


FRAME_POINTERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "frame_pointers")


def with_frame_pointers() -> None:
    """Run this script again, in this process (perf follows it), with the kernels compiled with frame pointers
    (``frame_pointers/sitecustomize.py``) into a numba cache of their own: the usual cache keeps its code."""
    import tempfile

    path = os.pathsep.join(p for p in (FRAME_POINTERS, os.environ.get("PYTHONPATH")) if p)
    cache = os.path.join(tempfile.gettempdir(), "simlab-frame-pointers-cache")
    env = dict(os.environ, PYTHONPATH=path, SIMLAB_FRAME_POINTERS="1", NUMBA_CACHE_DIR=cache)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--no-map", action="store_true", help="only time the games")
    ap.add_argument("--split", type=int, default=0, metavar="N", help="engine against strategies, over N games")
    ap.add_argument(
        "--call-graph",
        action="store_true",
        help="compile with frame pointers (into a cache of their own) so that perf record -g sees the calls",
    )
    args = ap.parse_args()
    if args.call_graph and os.environ.get("SIMLAB_FRAME_POINTERS") != "1":
        with_frame_pointers()
    warnings.filterwarnings("ignore")
    if args.split:
        numba.set_num_threads(1)
        return split(args.matchup, args.strategy, args.split)

    from simlab.kernels.compile import cache
    from simlab.runs.backend import play_games
    from simlab.runs.sim import GamePlan

    numba.set_num_threads(1)
    villains = tuple(args.matchup.split("-vs-"))
    job = GamePlan(villains, (args.strategy,) * len(villains), args.games, 1, chunk=args.games).job(0, args.games)
    play_games(dataclasses.replace(job, n=2))  # load the kernels before mapping them
    if not args.no_map:
        # every cache directory of these sources' kernels (one per tag and import closure)
        n = write_perf_map(sorted(glob.glob(os.path.join(cache.cache_base(), "*"))))
        print(f"perf map: {n} functions in /tmp/perf-{os.getpid()}.map", file=sys.stderr)
    t = time.perf_counter()
    games = play_games(job)[1]
    seconds = time.perf_counter() - t
    steps, decisions = games[:, 3].sum(), games[:, 4].sum()
    print(
        f"{args.matchup}, {args.strategy}, 1 thread: {args.games / seconds:,.0f} games/s; per game "
        f"{games[:, 2].mean():.1f} rounds, {steps / args.games:.0f} steps, {decisions / args.games:.0f} decisions; "
        f"{seconds / decisions * 1e6:.2f} us a decision, {seconds / steps * 1e6:.2f} us a step"
    )


if __name__ == "__main__":
    main()
