"""What the value model's features cost the recorder: CPU microseconds a call of ``all_features_nb`` for each
feature set (:data:`strategies.learned.value.FEATURE_SETS`), the calls a recorded search game makes (every seat at
every turn start), and so the share of a recorded game's CPU the board takes.

Usage:

    python benchmarks/feature_cost.py [--calls 200000] [--games 4] [--out FILE]

The recorder (``simlab.game.positions.record_game_nb``) computes every feature, the board included, once per seat
and turn; the search computes only its model's (``all_features_nb`` skips the board for a narrower ``out``). A
self-play run that also keeps the board costs more by the board's share, printed last. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402

from strategies.learned.features import N_FEATURES, all_features_nb, features_nb  # noqa: E402


@numba.njit
def _calls_nb(st, tb, ru, out, n):
    """As the search's learned value calls them: the base features alone, or all of ``out``'s width (which must be
    at least the key cards' end: all_features_nb writes them whatever the width)."""
    for i in range(n):
        st.memo_ok[:] = 0  # as the recorder's work state, no memo carried from the previous call
        if out.shape[0] > N_FEATURES:
            all_features_nb(st, tb, ru, i % 2, out)
        else:
            features_nb(st, tb, ru, i % 2, out)


def _midgame_view(villains, index: int):
    """A mid-game state's copy whose parameter rows are the progress vectors, as the recorder makes."""
    from simlab.data.cards import load_cards
    from simlab.game.api import Game
    from simlab.studies.learn import progress_vectors, progress_view

    g = Game.new(villains, seed=11, game_index=index)
    while not g.over and g.rounds < 4:
        g.play(50)
    return g, progress_view(g.state, progress_vectors(load_cards()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200_000, help="calls timed per feature set")
    parser.add_argument("--games", type=int, default=4, help="recorded search games per seating, timed")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    from simlab.studies import learn
    from strategies.learned.value import FEATURE_SETS

    g, st = _midgame_view(("gaston", "horned-king"), 0)
    rows = []
    for name, width in FEATURE_SETS.items():
        out = np.zeros(width)
        _calls_nb(st, g.cards.tables, g.rules, out, 10)  # compiled before timing
        t = time.process_time()
        _calls_nb(st, g.cards.tables, g.rules, out, args.calls)
        rows.append({"features": name, "width": width, "us_a_call": (time.process_time() - t) / args.calls * 1e6})
        print(rows[-1], flush=True)

    learn.self_play(1, 1, "search", threads=1)  # compiled and warmed before timing
    t = time.process_time()
    frame, _ = learn.self_play(args.games, 1, "search", threads=1)
    cpu = time.process_time() - t
    games = frame.select("seating", "game").n_unique()
    calls_a_game = frame.height / games
    us = {row["features"]: row["us_a_call"] for row in rows}
    board_us = us["board"] - us["key-cards"]
    result = {
        "features": rows,
        "games": games,
        "calls_a_game": calls_a_game,
        "cpu_a_game": cpu / games,
        "board_share": board_us * 1e-6 * calls_a_game / (cpu / games),
    }
    print({k: v for k, v in result.items() if k != "features"})
    write(args.out, run_info | result)


if __name__ == "__main__":
    main()
