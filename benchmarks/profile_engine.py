"""Where the engine's time goes: play games on one thread under ``perf`` with the kernels named.

Usage (Linux, ``pip install -e '.[bench]'`` for pyelftools):

    perf record -F 999 -o perf.data python benchmarks/profile_engine.py --games 3000 --strategy expert
    perf report -i perf.data --no-children --sort sym

numba's compiled code has no symbols perf can see, so once the kernels are loaded this script writes
``/tmp/perf-<pid>.map`` (perf's map format for JIT code): every function symbol of the cached object code,
at the address the process loaded it. Functions LLVM inlined into their callers count towards the caller.
It also prints steps and decisions per game and the time each takes.
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--no-map", action="store_true", help="only time the games")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")

    from simlab.backend import play_games
    from simlab.kernels import jit
    from simlab.sim import GamePlan

    numba.set_num_threads(1)
    villains = tuple(args.matchup.split("-vs-"))
    job = GamePlan(villains, (args.strategy,) * len(villains), args.games, 1, chunk=args.games).job(0, args.games)
    play_games(dataclasses.replace(job, n=2))  # load the kernels before mapping them
    if not args.no_map:
        n = write_perf_map([jit.ENGINE_CACHE_DIR, jit.STRATEGY_CACHE_DIR])
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
