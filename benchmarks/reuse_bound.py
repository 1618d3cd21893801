"""How much of the heuristic's work a memo kept across decisions could save: a ceiling, measured on real games.

    python benchmarks/reuse_bound.py [--games 20] [--matchup gaston-vs-horned-king] [--strategy expert]

The heuristic's per-decision memo (``strategies.heuristic``, ``State.memo``) is cleared at every decision, and few
of its values are asked twice within one (the "in the decision" column). This plays games without the JIT
(``NUMBA_DISABLE_JIT=1``, set here; about 5 games/s) and counts, for each of the heuristic's value kernels, how
often a call returns exactly the value an earlier call with the same arguments (and the same deciding seat)
returned: earlier in the same decision, in the same turn (since the last Villain Mover decision), or at any time
before in the game (the last value for those arguments). A memo that survives decisions, invalidated by what
each value reads, can at best skip those calls: equal values are not proof that nothing they read changed, so
the columns are ceilings. Counts are calls, not time: the kernels differ in cost. Only calls from the heuristic's
own module are counted (not those from the villains' plans). Not a test: a measurement for design work.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import sys

os.environ["NUMBA_DISABLE_JIT"] = "1"

# the value kernels counted, by their names in strategies.heuristic (the parts under their callers' names)
KERNELS = (
    "card_worth_nb",
    "keep_worth_nb",
    "defeat_worth_nb",
    "hero_threat_nb",
    "position_worth_nb",
    "_effect_value_nb",
    "ally_help_nb",
    "ally_help_anywhere_nb",
    "hero_help_nb",
    "move_value_nb",
    "_best_move_nb",
    "vanquish_value_nb",
    "best_vanquish_nb",
    "_fate_card_harm_nb",
    "discard_threshold_nb",
    "junk_count_nb",
    "top_row_worth_nb",
    "_location_value_nb",
    "strength_nb",
    "play_cost_nb",
)


def _same(a: float, b: float) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    import warnings

    import numpy as np

    warnings.filterwarnings("ignore", category=RuntimeWarning)  # the random stream's uint64 arithmetic wraps on purpose
    np.seterr(all="ignore")

    import simlab.game.driver as D
    import strategies.heuristic as H
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from simlab.kernels.rules import advance_nb, apply_nb

    calls: collections.Counter = collections.Counter()
    found = {where: collections.Counter() for where in ("decision", "turn", "game")}
    last = {where: {} for where in found}  # where -> key -> the value last returned

    open_memo = H.open_memo_nb

    def opening(st):
        last["decision"].clear()
        if st.g[K.G_PEND_KIND] == K.DK_MOVE:
            last["turn"].clear()
        return open_memo(st)

    H.open_memo_nb = opening

    def counted(name, kernel):
        def call(*a):
            value = kernel(*a)
            key = (name, int(a[0].g[K.G_PEND_PLAYER]))
            key += tuple(int(x) if isinstance(x, (bool, np.bool_)) else x for x in a if np.isscalar(x))
            calls[name] += 1
            for where, seen in last.items():
                if key in seen and _same(seen[key], value):
                    found[where][name] += 1
                seen[key] = value
            return value

        return call

    for name in KERNELS:
        setattr(H, name, counted(name, getattr(H, name)))

    villains = tuple(args.matchup.split("-vs-"))
    for index in range(args.games):
        last["game"].clear()
        g = Game.new(villains, seed=args.seed, game_index=index, strategies=(args.strategy,) * len(villains))
        st, tb, ru = g.state, g.cards.tables, g.rules
        while advance_nb(st, tb, ru, 1 << 62):
            apply_nb(st, D.choose_nb(st, tb, ru))
        print(f"game {index + 1} of {args.games}", end="\r", file=sys.stderr)
    print(file=sys.stderr)
    n = args.games
    print(f"{args.matchup}, {args.strategy}, {n} games: calls a game, and the share returning the value already found")
    print(f"{'kernel':24s} {'calls':>8s} {'in the decision':>16s} {'in the turn':>12s} {'in the game':>12s}")
    for name, c in calls.most_common():
        columns = (("decision", 17), ("turn", 13), ("game", 13))
        shares = "".join(f"{found[w][name] / c:>{width}.0%}" for w, width in columns)
        print(f"{name:24s} {c / n:8.1f}{shares}")


if __name__ == "__main__":
    main()
