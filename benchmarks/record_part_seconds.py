"""Record the seconds each part takes in a cold compile, for the order of a first cold compile on a new machine.

Usage: python benchmarks/record_part_seconds.py [--rounds 2]

Compiles the kernels cold (a fresh numba cache) ``--rounds`` times, each round ordered by the last round's times,
and writes the last round's to ``simlab/game/part_seconds.json`` (read by :mod:`simlab.game.warmup` before a machine
has recorded its own). Run it on the 2-core reference machine after adding or much changing a part. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = "from simlab.game import warmup; warmup.set_notifier(lambda m: None); warmup.ensure()"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    seconds: dict[str, float] = {}
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as cache:
            if seconds:  # this round's order: the last round's times
                (Path(cache) / "part-seconds.json").write_text(json.dumps(seconds))
            subprocess.run([sys.executable, "-c", CHILD], env=dict(os.environ, NUMBA_CACHE_DIR=cache), check=True)
            seconds = json.loads((Path(cache) / "part-seconds.json").read_text())
        print(f"round {r + 1}: {len(seconds)} parts, {sum(seconds.values()):.1f} s in all", flush=True)
    out = ROOT / "simlab" / "game" / "part_seconds.json"
    out.write_text(json.dumps({k: round(v, 2) for k, v in sorted(seconds.items())}, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
