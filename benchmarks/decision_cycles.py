"""Where a game's time goes, by decision kind: CPU cycles counted inside the jitted driver loop.

Usage:

    python benchmarks/decision_cycles.py [--matchup gaston-vs-horned-king] [--strategy expert] [--games 3000]

Plays ``--games`` games on one thread with a copy of the driver's loop (``simlab.game.driver.play_nb``) that
reads the processor's cycle counter (LLVM's ``readcyclecounter``) around each call of the engine and of the
deciding strategy, and prints each part's share of the cycles, how many a game and the kilocycles each takes: the
engine (``advance``, every step between two decisions), then each decision kind (``DK_*``), with the Action
decisions that follow a Gain Power action apart (what a cross-decision memo would save there). The games are
the same as ``simlab run`` plays (the same seeds; the counter reads change nothing). The counter's rate may not
be the processor's clock: compare shares and ratios, not absolute figures, and repeat on a quiet machine.
``--out FILE`` also writes the table to a JSON file (``rows``, with the command, the commit and the machine:
``benchmarks/provenance.py``). Not a test: a measurement.
"""

from __future__ import annotations

import argparse

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic
from provenance import add_arguments, started, write

from simlab.game import driver, warmup
from simlab.game.api import Game
from simlab.kernels import const as K
from simlab.kernels.compile import as_ptr, ref
from simlab.kernels.rules import advance_by_ref_nb, apply_nb

KINDS = {v: k for k, v in vars(K).items() if k.startswith("DK_")}
ENGINE, AFTER_GAIN = 0, 1  # the first two rows of the counts; DK_x is row 2 + x
# each row in words, for the result file
LABELS = {
    "engine": "the engine (every step between two decisions)",
    "DK_ACTION after Gain": "Action decisions after a Gain Power action",
    "DK_ACTION": "Action decisions (but those after a Gain Power action)",
    "DK_MOVE": "the Villain Mover decision",
    "DK_FATE_PICK": "Fate picks",
    "DK_DISCARD": "discards",
    "DK_LOCATION": "a location for an ability",
    "DK_CARD": "a card for an ability",
    "DK_MODE": "one of a card's modes",
    "DK_VANQUISH_ALLY": "an Ally added to a Vanquish",
    "DK_CONDITION": "playing a Condition",
    "DK_ARRANGE": "arranging the top of a deck",
    "DK_SWAP": "the back side of the tile",
    "DK_PLACE": "where to play a card",
}


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter."""

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])

    return types.int64(), codegen


advance = advance_by_ref_nb.call  # the engine's part, called through its symbol as the driver does
decide_nb = driver.decide_nb


@numba.njit
def play_counted(st, tb, ru, spent, count):
    """:func:`simlab.game.driver.play_nb` to the end, adding each part's cycles to ``spent`` (rows as above)."""
    rst, rtb = ref(st), ref(tb)
    last = -1
    while True:
        t = cycles()
        more = advance(rst, rtb, as_ptr(ru), driver.ALL_STEPS)
        spent[ENGINE] += cycles() - t
        if not more:
            return
        kind = st.g[K.G_PEND_KIND]
        row = AFTER_GAIN if kind == K.DK_ACTION and last == K.O_GAIN else 2 + kind
        t = cycles()
        i = decide_nb(st, tb, ru, rst, rtb)
        spent[row] += cycles() - t
        count[row] += 1
        last = st.opts[i, 0] if kind == K.DK_ACTION else -1
        apply_nb(rst, i)


@numba.njit
def play_timed(st, tb, ru, out):
    """:func:`simlab.game.driver.play_nb` to the end, adding the whole game's cycles to ``out[0]``, the engine's to
    ``out[1]`` and the strategies' to ``out[2]``."""
    rst, rtb = ref(st), ref(tb)
    t0 = cycles()
    while True:
        t = cycles()
        more = advance(rst, rtb, as_ptr(ru), driver.ALL_STEPS)
        out[1] += cycles() - t
        if not more:
            break
        t = cycles()
        i = decide_nb(st, tb, ru, rst, rtb)
        out[2] += cycles() - t
        apply_nb(rst, i)
    out[0] += cycles() - t0


def count_cycles(matchup: str, strategy: str, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Cycles and calls by row (:func:`play_counted`) over ``games`` games, the same as ``simlab run`` plays."""
    warmup.ensure(search=True, apprentice=True)  # a search or apprentice file decides too (bound on first use)
    rows = 2 + max(KINDS) + 1
    spent, count = np.zeros(rows, np.int64), np.zeros(rows, np.int64)
    seats = len(matchup.split("-vs-"))
    for index in range(games):
        g = Game.new(matchup, seed=0, game_index=index, strategies=(strategy,) * seats)
        play_counted(g.state, g.cards.tables, g.rules, spent, count)
    return spent, count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--games", type=int, default=3000)
    add_arguments(ap)
    args = ap.parse_args()
    doc = started(args.smoke)
    spent, count = count_cycles(args.matchup, args.strategy, args.games)
    names = {ENGINE: "the engine (advance)", AFTER_GAIN: "DK_ACTION after Gain"}
    keys = {ENGINE: "engine", AFTER_GAIN: "DK_ACTION after Gain"} | {2 + v: k for v, k in KINDS.items()}
    names.update({2 + v: k for v, k in KINDS.items()})
    total = spent.sum()
    print(f"{args.matchup}, {args.strategy}, {args.games:,} games: {total / args.games / 1e3:,.0f} kcycles a game")
    print(f"{'part':24s} {'share':>6s} {'a game':>8s} {'kcycles each':>13s}")
    rows = []
    for row in np.argsort(-spent, kind="stable"):
        if spent[row] == 0:
            continue
        each = spent[row] / max(count[row], 1) / 1e3 if row != ENGINE else spent[row] / args.games / 1e3
        per_game = count[row] / args.games if row != ENGINE else 1.0
        print(f"{names[row]:24s} {spent[row] / total:6.1%} {per_game:8.2f} {each:13.2f}")
        key = keys[int(row)]
        rows.append(
            {
                "part": key,
                "label": LABELS.get(key, key),
                "share": float(spent[row] / total),
                "per_game": float(per_game),  # calls a game (the engine: 1, its cycles being a game's)
                "kcycles_each": float(each),
            }
        )
    doc.update(
        matchup=args.matchup,
        strategy=args.strategy,
        games=args.games,
        threads=1,
        kcycles_a_game=float(total / args.games / 1e3),
        rows=rows,
    )
    write(args.out, doc)


if __name__ == "__main__":
    main()
