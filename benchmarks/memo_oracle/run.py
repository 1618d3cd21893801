"""The memo's values served by an oracle: how fast expert play would be if every memoised value equal to its last
value cost nothing (measured with the JIT, every game the same).

Usage (the patch applies to 6cbb983; the patched tree is used, not the installed one):

    git worktree add /tmp/oracle 6cbb983 && git -C /tmp/oracle apply $PWD/benchmarks/memo_oracle/oracle.patch
    NUMBA_CACHE_DIR=/tmp/oracle-cache python benchmarks/memo_oracle/run.py /tmp/oracle --games 1000

The patch gives ``State.memo`` room for a record of every decision's memoised values, and a game mode
(``G_ORACLE``): 1 records, at each value worked out, whether it equals the last value worked out for the same seat,
row and index in the game (and the memo-keeping reads of each decision); 2 replays: a value the record marks
unchanged is served from the record instead of being worked out (a value the record marks changed is worked out);
0 plays as main does. Each game is played three times, recording, then replaying and normally (those two in
alternating order), on the processor's cycle counter; the three must end alike. The replay is what a memo kept
up to date across decisions at no cost at all would do: a ceiling for keeping the memo's rows (card worths, keep
worths, defeat worths, Strengths, ...) up to date. ``--out FILE`` also writes the figures to a JSON file (with the
command, the commit and the machine: ``benchmarks/provenance.py``). Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import warnings
from pathlib import Path

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # decision_cycles.py's timed loop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree", help="a checkout of 6cbb983 with oracle.patch applied")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--out", default=None, help="also write the figures to this JSON file")
    ap.add_argument("--smoke", action="store_true", help="mark the file a smoke run (small samples)")
    args = ap.parse_args()
    # the patched tree's simlab, not the installed one (an editable install's finder would take precedence)
    sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path[:0] = [args.tree, BENCHMARKS]
    warnings.filterwarnings("ignore")
    from provenance import started, write

    doc = started(args.smoke)

    import numpy as np

    import simlab
    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.kernels import const as K

    if not simlab.__file__.startswith(args.tree) or not hasattr(K, "G_ORACLE"):
        sys.exit(f"{args.tree} is not a tree with oracle.patch applied")
    from decision_cycles import play_timed

    np.seterr(all="ignore")

    def new(index, mode):
        g = Game.new(args.matchup, seed=0, game_index=index, strategies=("expert",) * seats)
        g.state.g[K.G_ORACLE] = mode
        return g

    def result(g):
        return tuple(int(g.state.g[x]) for x in (K.G_WINNER, K.G_ROUND, K.G_STEPS, K.G_DECISIONS))

    warmup.ensure()
    seats = len(args.matchup.split("-vs-"))
    spent = {0: np.zeros(3, np.int64), 2: np.zeros(3, np.int64)}
    alike = 0
    for index in range(args.games):
        rec = new(index, 1)
        play_timed(rec.state, rec.cards.tables, rec.rules, np.zeros(3, np.int64))
        ends = {result(rec)}
        for mode in (0, 2) if index % 2 else (2, 0):
            g = new(index, mode)
            if mode == 2:
                g.state.memo[:, K.N_MEMO :, :] = rec.state.memo[:, K.N_MEMO :, :]
            play_timed(g.state, g.cards.tables, g.rules, spent[mode])
            ends.add(result(g))
        alike += len(ends) == 1
    n = args.games
    print(f"{args.matchup}, expert: {n} games, {alike} ended alike in all three plays")
    for mode, name in ((0, "as main"), (2, "oracle")):
        t = spent[mode]
        total, engine, choosing = (x / n / 1e3 for x in t)
        print(f"{name:8s} kcycles a game: {total:7.1f} (engine {engine:6.1f}, choosing {choosing:6.1f})")
    print(f"as main / oracle: {spent[0][0] / spent[2][0]:.3f} a game, {spent[0][2] / spent[2][2]:.3f} choosing")
    doc.update(
        tree=args.tree,
        tree_commit=_commit(args.tree),
        matchup=args.matchup,
        games=n,
        ended_alike=alike,
        **{
            f"{name}_kcycles": dict(
                zip(("game", "engine", "choosing"), (float(x) / n / 1e3 for x in spent[mode]), strict=True)
            )
            for mode, name in ((0, "as_main"), (2, "oracle"))
        },
        ratio_game=float(spent[0][0] / spent[2][0]),  # as main / oracle: the ceiling
        ratio_choosing=float(spent[0][2] / spent[2][2]),
    )
    write(args.out and Path(args.out), doc)


def _commit(tree: str) -> str:
    """The commit the patched tree is checked out at (the patch's base)."""
    done = subprocess.run(["git", "-C", tree, "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


if __name__ == "__main__":
    main()
