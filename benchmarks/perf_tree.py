"""The time under one jitted function, by callee: a ``perf record -g`` profile read as a tree.

Usage (the kernels compiled with frame pointers, so that the calls can be walked):

    perf record -F 1999 -g -o perf.data python benchmarks/profile_engine.py --games 30000 --call-graph
    python benchmarks/perf_tree.py perf.data strategies.heuristic.choose.choose_by_ref_nb --depth 2

Each line is a call path from FUNCTION down, with the share of FUNCTION's samples and of all samples spent under it
(its callees included; a cold start's compiling, which perf records too, is in the second).

``--functions a,b,...`` instead prints, for each named function (a perf name or its last dotted parts:
``plan_nb`` is every villain's plan), its share of the jitted samples with its callees and by itself, and the
largest share any one jitted function takes by itself. The jitted samples are those with a function of the
``/tmp/perf-PID.map`` that ``profile_engine.py`` wrote somewhere on their stack. Without frame pointers (a profile
not recorded with ``--call-graph``) perf cannot walk past a jitted frame: the jitted samples are then those whose
innermost frame is jitted, the shares by themselves hold, and those with callees are left out. ``--out FILE``
writes that table to a JSON file, with the perf command and the machine (``benchmarks/provenance.py``).
Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
from pathlib import Path

from provenance import add_arguments, started, write


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


def jitted_names(data: str) -> set[str]:
    """The names of the jitted functions, from the perf maps of the processes ``data`` sampled."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "pid"], capture_output=True, text=True, check=True)
    names: set[str] = set()
    for pid in {line.strip() for line in out.stdout.splitlines() if line.strip().isdigit()}:
        path = Path(f"/tmp/perf-{pid}.map")
        if path.is_file():
            names |= {line.split(None, 2)[2] for line in path.read_text().splitlines() if line.count(" ") >= 2}
    return names


def header(data: str) -> dict:
    """What perf recorded of its own run: the command line and the date."""
    out = subprocess.run(["perf", "report", "--header-only", "-i", data], capture_output=True, text=True)
    found = dict(re.findall(r"^# (cmdline|captured on|nrcpus online)\s*: (.*)$", out.stdout, re.M))
    return {"cmdline": found.get("cmdline", ""), "captured_on": found.get("captured on", "")}


def _is(name: str, pattern: str) -> bool:
    return name == pattern or name.endswith("." + pattern)


def function_table(samples: list[list[str]], patterns: list[str], jitted: set[str], callees: bool) -> dict:
    """Each pattern's share of the jitted samples with its callees (None without ``callees``) and by itself."""
    # with frame pointers, a sample under jitted code (a libm leaf too); without, the stacks past the first jitted
    # frame are garbage: a sample whose leaf is jitted
    base = [s for s in samples if any(f in jitted for f in s)] if callees else [s for s in samples if s[0] in jitted]
    n = max(len(base), 1)
    rows = []
    for pattern in patterns:
        under = sum(any(_is(f, pattern) for f in s) for s in base)
        itself = sum(_is(s[0], pattern) for s in base)
        matched = sorted({f for s in base for f in (s if callees else s[:1]) if _is(f, pattern)})
        rows.append(
            {
                "function": pattern,
                "with_callees": under / n if callees else None,
                "itself": itself / n,
                "matched": matched,  # the perf names counted
            }
        )
    leaves = collections.Counter(s[0] for s in base if s[0] in jitted)
    top, most = leaves.most_common(1)[0] if leaves else ("", 0)
    return {
        "samples": len(samples),
        "jitted_samples": len(base),
        "rows": rows,
        "max_itself": {"function": top, "short": top.rsplit(".", 1)[-1], "share": most / n},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="perf.data recorded with -g")
    ap.add_argument("function", nargs="?", help="the function at the root, as perf names it")
    ap.add_argument("--depth", type=int, default=2, help="calls below the root to show")
    ap.add_argument("--min", type=float, default=0.5, help="leave out paths under this share of FUNCTION's (%%)")
    ap.add_argument("--functions", default="", help="comma-separated: each one's share with callees and by itself")
    add_arguments(ap)
    args = ap.parse_args()
    if args.functions:
        return print_functions(args)
    if not args.function:
        ap.error("name a FUNCTION, or --functions")
    samples = stacks(args.data)
    paths = tree(samples, args.function, args.depth)
    if not paths:
        raise SystemExit(f"no sample under {args.function!r} in {args.data}")
    root = paths[(args.function,)]
    print(f"{'of it':>7} {'of all':>7}")
    for path, n in sorted(paths.items()):
        if 100 * n / root >= args.min:
            print(f"{100 * n / root:6.1f}% {100 * n / len(samples):6.2f}%  " + "  " * (len(path) - 1) + path[-1])


def print_functions(args) -> None:
    doc = started(args.smoke)
    perf = header(args.data)
    # profile_engine.py --call-graph compiles the kernels with frame pointers: only then can perf walk their calls
    callees = "--call-graph" in perf["cmdline"]
    table = function_table(stacks(args.data), args.functions.split(","), jitted_names(args.data), callees)
    print(f"{table['jitted_samples']:,} jitted samples of {table['samples']:,}; frame pointers: {callees}")
    print(f"{'with callees':>12} {'itself':>7}  function")
    for r in table["rows"]:
        under = f"{r['with_callees']:12.1%}" if callees else f"{'':>12}"
        print(f"{under} {r['itself']:7.1%}  {r['function']} ({', '.join(r['matched']) or 'no sample'})")
    top = table["max_itself"]
    print(f"the most by itself: {top['function']} {top['share']:.1%}")
    doc.update(perf=perf, frame_pointers=callees, **table)
    write(args.out, doc)


if __name__ == "__main__":
    main()
