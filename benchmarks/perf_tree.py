"""The time under one jitted function, by callee: a ``perf record -g`` profile read as a tree.

Usage (the kernels compiled with frame pointers, so that the calls can be walked):

    perf record -F 1999 -g -o perf.data python benchmarks/profile_engine.py --games 30000 --call-graph
    python benchmarks/perf_tree.py perf.data strategies.heuristic.choose.choose_by_ref_nb --depth 2

Each line is a call path from FUNCTION down, with the share of FUNCTION's samples and of all samples spent under it
(its callees included; a cold start's compiling, which perf records too, is in the second).
Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import collections
import subprocess


def stacks(data: str) -> list[list[str]]:
    """Each sample's call stack, innermost first, as function names (unresolved frames left out)."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], capture_output=True, text=True, check=True)
    result, current = [], []
    for line in out.stdout.splitlines() + [""]:
        line = line.strip()
        if not line:
            if current:
                result.append(current)
            current = []
            continue
        parts = line.split(None, 1)
        name = parts[1].split("+0x")[0].split(" (")[0] if len(parts) > 1 else parts[0]
        if not name.startswith(("[unknown]", "0x")):
            current.append(name)
    return result


def tree(samples: list[list[str]], root: str, depth: int) -> collections.Counter:
    """Samples under each call path from ``root`` down to ``depth`` calls below it."""
    paths: collections.Counter = collections.Counter()
    for stack in samples:
        outer_first = stack[::-1]
        if root not in outer_first:
            continue
        i = outer_first.index(root)
        path = tuple(outer_first[i : i + depth + 1])
        for d in range(1, len(path) + 1):
            paths[path[:d]] += 1
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="perf.data recorded with -g")
    ap.add_argument("function", help="the function at the root, as perf names it")
    ap.add_argument("--depth", type=int, default=2, help="calls below the root to show")
    ap.add_argument("--min", type=float, default=0.5, help="leave out paths under this share of FUNCTION's (%%)")
    args = ap.parse_args()
    samples = stacks(args.data)
    paths = tree(samples, args.function, args.depth)
    if not paths:
        raise SystemExit(f"no sample under {args.function!r} in {args.data}")
    root = paths[(args.function,)]
    print(f"{'of it':>7} {'of all':>7}")
    for path, n in sorted(paths.items()):
        if 100 * n / root >= args.min:
            print(f"{100 * n / root:6.1f}% {100 * n / len(samples):6.2f}%  " + "  " * (len(path) - 1) + path[-1])


if __name__ == "__main__":
    main()
