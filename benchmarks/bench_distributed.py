"""Local vs Dask: the same run on this machine's cores and on a Dask cluster, and the cost of one chunk's
round trip through the scheduler. Prints JSON.

    python benchmarks/bench_distributed.py --games 20000                      # a local Dask cluster
    python benchmarks/bench_distributed.py --games 20000 --scheduler tcp://HOST:8786

The local run uses numba's threads over every core; a local Dask cluster runs one single-threaded worker
process per core. Results are checked to be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--chunk", type=int, default=4096)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--overhead-chunks", type=int, default=40)
    ap.add_argument("--max-turns", type=int, default=None, help="turn cap of both runs (default: the rules' cap)")
    args = ap.parse_args()

    from simlab.runs.backend import ChunkJob, DaskBackend, fingerprint, play_chunk, use
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import GamePlan, run

    run(args.matchup, RunSettings(4, 0))  # compile or load the kernels here first
    out = {"games": args.games, "matchup": args.matchup, "chunk": args.chunk, "cores": os.cpu_count()}
    out["max_turns"] = args.max_turns
    t = time.perf_counter()
    cap = {} if args.max_turns is None else {"max_turns": args.max_turns}
    settings = RunSettings(args.games, 1, **cap)
    local = run(args.matchup, settings, chunk=args.chunk, keep_games=False)
    out["local_s"] = time.perf_counter() - t
    out["local_games_per_s"] = args.games / out["local_s"]

    backend = DaskBackend(args.scheduler)
    try:
        out["workers"] = len(backend.client.scheduler_info()["workers"])
        # warm every worker (load the cached kernels) before timing
        warm: ChunkJob = GamePlan(("gaston", "horned-king"), ("expert", "expert"), 2).job(0, 2, "tally")
        backend.client.run(play_chunk, warm)
        with use(backend):
            t = time.perf_counter()
            remote = run(args.matchup, settings, chunk=args.chunk, keep_games=False)
            out["dask_s"] = time.perf_counter() - t
        out["dask_games_per_s"] = args.games / out["dask_s"]
        out["identical"] = all(
            getattr(local, f).equals(getattr(remote, f)) for f in ("summary", "by_seat", "first_seat", "lengths")
        )
        # round trip of a chunk that plays no game: submit, schedule, run, send back, merge
        empty = ChunkJob(
            ("gaston", "horned-king"),
            warm.slot_kernels,
            warm.slot_params,
            0,
            0,
            0,
            (),
            100,
            "rotate",
            (),
            "tally",
            warm.expect,
        )
        t = time.perf_counter()
        futures = [backend.client.submit(play_chunk, empty, pure=False) for _ in range(args.overhead_chunks)]
        for f in futures:
            f.result()
        out["chunk_overhead_ms"] = (time.perf_counter() - t) / args.overhead_chunks * 1000
        t = time.perf_counter()
        for _ in range(args.overhead_chunks):
            play_chunk(empty)
        out["local_empty_chunk_ms"] = (time.perf_counter() - t) / args.overhead_chunks * 1000
        out["fingerprint"] = fingerprint()
    finally:
        backend.close()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
