"""Every unchanged option score served by an oracle: how fast expert play would be if a heuristic kept its option
scores up to date at no cost (measured with the JIT, every game the same).

Usage (the patch applies to 0699320; the patched tree is used, not the installed one):

    git worktree add /tmp/option-oracle 0699320
    git -C /tmp/option-oracle apply $PWD/benchmarks/option_oracle/oracle.patch
    NUMBA_DISABLE_JIT=1 python benchmarks/option_oracle/run.py record 1000 /tmp/record.pkl /tmp/option-oracle
    NUMBA_CACHE_DIR=/tmp/oracle-cache python benchmarks/option_oracle/run.py replay 1000 /tmp/record.pkl \
        /tmp/option-oracle [--matchup gaston-vs-horned-king]

``record`` plays the games without the JIT and notes every piece a decision scores (each option's score, the
Villain Mover's location worths and the four worths it works out for all locations, a discard's keep worths and
threshold) that equals the last value of the same piece (the deciding seat, the decision kind and the option) in
the game, worked out at an earlier step. ``replay`` plays each game twice with the JIT, in alternating order, on
the processor's cycle counter: as main does, and with each noted piece served from the record instead of worked out
(the patch's ``orc_nb`` in ``choose_scored_nb``; ``G_ORACLE``). The games must end alike in the three plays. The
replay is a heuristic that knows for free which of its option scores are unchanged: a ceiling for keeping them up
to date. ``replay --out FILE`` also writes the figures to a JSON file (with the command, the commit and the machine:
``benchmarks/provenance.py``). Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # decision_cycles.py's timed loop

SENTINEL = -1.2345e300  # the patch's ORC_SENTINEL: nothing recorded for this piece


def end(g) -> tuple:
    from simlab.kernels import const as K

    return tuple(int(g.state.g[x]) for x in (K.G_WINNER, K.G_ROUND, K.G_STEPS, K.G_DECISIONS))


def record(games: int, matchup: str) -> dict:
    """Per game: ({(decision, slot): value} for the unchanged pieces, how the game ended)."""
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from strategies.heuristic import choose

    game: dict = {}

    def note(st, slot, key, v) -> None:
        steps, d = int(st.g[K.G_STEPS]), int(st.g[K.G_DECISIONS])
        before, step = game["last"].get(key, (None, steps))
        # no room for options past the 85th: they are worked out
        room = slot is not None and (slot < 85 or key[0] not in ("option", "location", "keep"))
        if room and step != steps and (before == v or (before != before and v != v)):
            game["pieces"][(d, slot)] = v
        game["last"][key] = (v, steps)

    def hook(name: str, label) -> None:
        f = getattr(choose, name)

        def hooked(st, tb, ru, sp, *args):
            v = f(st, tb, ru, sp, *args)
            if st.g[K.G_SCORING]:
                piece = label(st, args)
                if piece is not None:
                    note(st, piece[0], piece[1], v)
            return v

        setattr(choose, name, hooked)

    def option(st, col: int, value: int):
        for i in range(int(st.g[K.G_PEND_N])):
            if st.opts[i, col] == value:
                return i
        return None

    def pending(st) -> int:
        return int(st.g[K.G_PEND_KIND])

    def shared(slot: int, name: str):
        return lambda st, a: (slot, (name, *a)) if pending(st) == K.DK_MOVE else None

    # the slots: an option's index, or 85-88 for the Villain Mover's worths and 89 for the discard threshold
    hook("_score_nb", lambda st, a: (a[4], ("option", a[1], a[0], a[2], a[3], *(int(x) for x in st.opts[a[4]]))))
    hook(
        "_location_value_nb",
        lambda st, a: (option(st, 1, a[1]), ("location", a[0], a[1])) if pending(st) == K.DK_MOVE else None,
    )
    for slot, name in enumerate(("_best_move_nb", "_best_vanquish_nb", "dig_worth_nb", "fate_action_value_nb"), 85):
        hook(name, shared(slot, name))
    hook("discard_threshold_nb", lambda st, a: (89, ("threshold", *a)) if pending(st) == K.DK_DISCARD else None)
    hook(
        "_keep_value_nb",
        lambda st, a: (option(st, 1, a[1]), ("keep", *a)) if pending(st) == K.DK_DISCARD else None,
    )
    seats = len(matchup.split("-vs-"))
    out = {}
    for index in range(games):
        game["pieces"], game["last"] = {}, {}
        g = Game.new(matchup, seed=0, game_index=index, strategies=("expert",) * seats)
        g.play()
        out[index] = (game["pieces"], end(g))
    return out


def replay(games: int, matchup: str, recorded: dict) -> dict:
    import numpy as np
    from decision_cycles import play_timed

    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.kernels import const as K

    warmup.ensure()
    np.seterr(all="ignore")
    seats = len(matchup.split("-vs-"))
    spent = {0: np.zeros(3, np.int64), 2: np.zeros(3, np.int64)}
    alike = 0
    for index in range(games):
        pieces, ended = recorded[index]
        ends = {ended}
        for mode in (0, 2) if index % 2 else (2, 0):
            g = Game.new(matchup, seed=0, game_index=index, strategies=("expert",) * seats)
            if mode == 2:
                g.state.memo[0, K.ORC_OPT :, :] = SENTINEL
                for (d, slot), v in pieces.items():
                    if d < K.ORC_D:
                        g.state.memo[0, K.ORC_OPT + d * 2 + slot // K.N_INST, slot % K.N_INST] = v
            g.state.g[K.G_ORACLE] = mode
            play_timed(g.state, g.cards.tables, g.rules, spent[mode])
            ends.add(end(g))
        alike += len(ends) == 1
    print(f"{matchup}, expert: {games} games, {alike} ended alike in the record, as main and with the oracle")
    for mode, name in ((0, "as main"), (2, "oracle")):
        total, engine, choosing = (x / games / 1e3 for x in spent[mode])
        print(f"{name:8s} kcycles a game: {total:7.1f} (engine {engine:6.1f}, choosing {choosing:6.1f})")
    print(f"as main / oracle: {spent[0][0] / spent[2][0]:.3f} a game, {spent[0][2] / spent[2][2]:.3f} choosing")
    return {
        "matchup": matchup,
        "games": games,
        "ended_alike": alike,
        **{
            f"{name}_kcycles": dict(
                zip(("game", "engine", "choosing"), (float(x) / games / 1e3 for x in spent[mode]), strict=True)
            )
            for mode, name in ((0, "as_main"), (2, "oracle"))
        },
        "ratio_game": float(spent[0][0] / spent[2][0]),  # as main / oracle: the ceiling
        "ratio_choosing": float(spent[0][2] / spent[2][2]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("record", "replay"))
    ap.add_argument("games", type=int)
    ap.add_argument("record_file")
    ap.add_argument("tree", help="a checkout of 0699320 with oracle.patch applied")
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--out", default=None, help="replay: also write the figures to this JSON file")
    ap.add_argument("--smoke", action="store_true", help="mark the file a smoke run (small samples)")
    args = ap.parse_args()
    # the patched tree's simlab, not the installed one (an editable install's finder would take precedence)
    sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path[:0] = [args.tree, BENCHMARKS]
    warnings.filterwarnings("ignore")
    from provenance import started, write

    doc = started(args.smoke)
    import simlab
    from simlab.kernels import const as K

    if not simlab.__file__.startswith(args.tree) or not hasattr(K, "G_ORACLE"):
        sys.exit(f"{args.tree} is not a tree with oracle.patch applied")
    if args.step == "record":
        with open(args.record_file, "wb") as f:
            pickle.dump(record(args.games, args.matchup), f)
        return
    with open(args.record_file, "rb") as f:
        doc.update(replay(args.games, args.matchup, pickle.load(f)))
    tree = subprocess.run(["git", "-C", args.tree, "rev-parse", "HEAD"], capture_output=True, text=True)
    doc.update(tree=args.tree, tree_commit=tree.stdout.strip())
    write(args.out and Path(args.out), doc)


if __name__ == "__main__":
    main()
