"""How much faster expert play could get, every game the same, if no value were ever worked out twice: a ceiling.

Usage:

    python benchmarks/reuse_ceiling.py [--matchup gaston-vs-horned-king] [--strategy expert] [--games 40]
                                       [--cycle-games 1000]

A heuristic that keeps its values up to date as the state changes (features kept up to date) can at
best skip the work whose result did not change since it was last worked out. This script measures how much of
the work that is, at the level of what a decision scores:

- without the JIT, over ``--games`` games, it records every option score (Action, Fate pick, discard and the other
  decisions, keyed by the deciding seat, the kind and the option itself), every location's worth in a Villain
  Mover decision and the four worths that decision works out for all locations (best move, best Vanquish, digging,
  Fate), and counts those equal to the last value of the same key in the same game, worked out at an earlier step
  (a value asked twice in one decision is already a memo hit);
- with the JIT, over ``--cycle-games`` games, it counts the cycles of the engine and of each decision kind
  (``decision_cycles.py``'s loop);
- the ceiling takes each decision kind's cycles down by its share of unchanged pieces, every piece counted as
  costing the same (a Pass or a Gain Power option, nearly free, then counts as much as a card's worth: the ceiling
  is generous), and leaves the engine as it is.

It is a ceiling: knowing for free which values are unchanged is more than any bookkeeping can do. The games are
``simlab run``'s (the same seeds). ``--out FILE`` also writes the table and the ceiling to a JSON file (with the
command, the commit and the machine: ``benchmarks/provenance.py``). Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import types

from provenance import add_arguments, started, write

COUNT_FLAG = "--count-unchanged"


def count_unchanged(matchup: str, strategy: str, games: int) -> dict[str, list[int]]:
    """Per decision kind: [pieces scored, pieces equal to their last value], played without the JIT."""
    from simlab.kernels import const as K
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run
    from strategies.heuristic import choose

    kinds = {v: k for k, v in vars(K).items() if k.startswith("DK_")}
    tally: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    last: dict[tuple, tuple[float, int]] = {}  # key -> (value, step)
    game = {"steps": -1, "index": 0}

    def note(st, kind: str, key: tuple, v: float) -> None:
        steps = int(st.g[K.G_STEPS])
        if steps < game["steps"]:  # the state was set up for the next game
            game["index"] += 1
            last.clear()
        game["steps"] = steps
        tally[kind][0] += 1
        before, step = last.get(key, (None, steps))
        # asked again in the same decision: the decision's memo already skips it (main's cycles do not count it)
        if step != steps and (before == v or (before != before and v != v)):
            tally[kind][1] += 1
        last[key] = (v, steps)

    def hook(name: str, label):
        """Count what ``choose`` gets from ``name``: its global replaced (a part, which ``choose`` calls as
        ``name.call``, by an object whose ``call`` is hooked; the part's other callers are left alone)."""
        f = getattr(choose, name)

        def hooked(st, tb, ru, sp, *args):
            v = f(st, tb, ru, sp, *args)
            kind = label(st, args)
            if kind is not None:
                note(st, kind[0], kind[1], v)
            return v

        setattr(choose, name, types.SimpleNamespace(call=hooked) if hasattr(f, "call") else hooked)

    def option(st, args):
        realm, player, kind, ctx, i = args
        return kinds[kind], (player, realm, kind, ctx, *(int(x) for x in st.opts[i]))

    def in_mover(what):
        def label(st, args):
            if st.g[K.G_PEND_KIND] != K.DK_MOVE or st.g[K.G_SCORING] == 0:
                return None
            return "DK_MOVE", (what, *args[:2])

        return label

    def kept_in_discard(st, args):
        return ("DK_DISCARD", ("keep", *args)) if st.g[K.G_PEND_KIND] == K.DK_DISCARD else None

    hook("score_nb", option)
    hook("location_value_nb", in_mover("location"))
    for name in ("best_move_nb", "best_vanquish_nb", "dig_worth_nb", "fate_action_value_nb"):
        hook(name, in_mover(name))
    hook("keep_value_nb", kept_in_discard)
    seats = matchup.split("-vs-")
    run(matchup, RunSettings(games, 0, threads=1), strategies=dict.fromkeys(seats, strategy), keep_games=False)
    return dict(tally)


def decision_cycles(matchup: str, strategy: str, games: int) -> dict[str, int]:
    """Cycles of the engine ("engine") and of each decision kind, with the JIT."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import decision_cycles as dc

    spent, _ = dc.count_cycles(matchup, strategy, games)
    out = {"engine": int(spent[dc.ENGINE]), "DK_ACTION": int(spent[dc.AFTER_GAIN])}
    for v, name in dc.KINDS.items():
        out[name] = out.get(name, 0) + int(spent[2 + v])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--games", type=int, default=40, help="games played without the JIT to count unchanged values")
    ap.add_argument("--cycle-games", type=int, default=1000, help="games played with the JIT to count cycles")
    ap.add_argument(COUNT_FLAG, action="store_true", help=argparse.SUPPRESS)
    add_arguments(ap)
    args = ap.parse_args()
    if args.count_unchanged:
        print(json.dumps(count_unchanged(args.matchup, args.strategy, args.games)))
        return
    doc = started(args.smoke)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    argv = [sys.executable, os.path.abspath(__file__), COUNT_FLAG, "--matchup", args.matchup]
    argv += ["--strategy", args.strategy, "--games", str(args.games)]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    tally = json.loads(out.stdout.strip().splitlines()[-1])
    spent = decision_cycles(args.matchup, args.strategy, args.cycle_games)
    total = sum(spent.values())
    print(f"{args.matchup}, {args.strategy}: {args.games} games counted without the JIT, {args.cycle_games} timed")
    print(f"{'part':18s} {'share':>6s} {'pieces':>8s} {'unchanged':>10s} {'share left':>11s}")
    left = spent["engine"] / total
    print(f"{'the engine':18s} {left:6.1%} {'':>8s} {'':>10s} {left:11.1%}")
    rows = [{"part": "engine", "share": left, "pieces": None, "unchanged": None, "share_left": left}]
    for kind, cycles in sorted(spent.items(), key=lambda kv: -kv[1]):
        if kind == "engine" or cycles == 0:
            continue
        scored, same = tally.get(kind, (0, 0))
        unchanged = same / scored if scored else 0.0
        part = cycles / total * (1.0 - unchanged)
        left += part
        print(f"{kind:18s} {cycles / total:6.1%} {scored:8,d} {unchanged:10.1%} {part:11.1%}")
        rows.append(
            {"part": kind, "share": cycles / total, "pieces": scored, "unchanged": unchanged, "share_left": part}
        )
    print(f"ceiling: {1.0 / left:.2f}x the games/s, if every unchanged piece were free and the engine as it is")
    doc.update(
        matchup=args.matchup,
        strategy=args.strategy,
        games_counted=args.games,  # without the JIT
        games_timed=args.cycle_games,  # with the JIT, one thread
        ceiling=1.0 / left,
        rows=rows,
    )
    write(args.out, doc)


if __name__ == "__main__":
    main()
