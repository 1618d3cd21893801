"""Check every game invariant after every step of many random-strategy games (the README's figure).

    python benchmarks/check_invariants.py                      # 1,000,000 games
    python benchmarks/check_invariants.py --games 20000 --threads 1

Every seat plays ``random`` (uniform over the legal options of every decision: the play that reaches the most
corners of the rules). The games go round the 2-player pairings (mirrors included) and the 3-player game, and
round the rule settings (the defaults, then each non-default value of every variant alone), one chunk per
(matchup, setting) in turn; seats rotate game by game and game i of the run draws its randomness from
(seed, i). After setup and after every step :func:`simlab.game.invariants.check_nb` checks the invariants the
hypothesis test checks (the same kernel); a game also fails if it takes more than ``--max-steps`` steps.

Prints the games, steps and broken invariants (with the first broken game of each, to replay), games/s, and
exits with 1 if any invariant broke.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numba
import numpy as np

from simlab.data.cards import VILLAIN_KEYS, load_cards
from simlab.data.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS, rules_array
from simlab.game.invariants import CHECKED_FIELDS, INVARIANTS, play_checked_batch_nb
from simlab.kernels import const as K
from simlab.kernels.state import N_SPARAMS
from simlab.runs.sim import seat_table
from strategies import STRATEGIES


def matchups() -> list[tuple[str, ...]]:
    pairs = list(itertools.combinations_with_replacement(VILLAIN_KEYS, 2))
    return pairs + [tuple(VILLAIN_KEYS)]


def rule_settings() -> list[dict[str, str]]:
    """The defaults, then every non-default value of every variant on its own."""
    out = [{}]
    for name, v in RULE_VARIANTS.items():
        out += [{name: value} for value in v.values if value != v.default]
    return out


def check(games: int, seed: int, chunk: int, max_turns: int, max_steps: int, progress=None) -> dict:
    cards = load_cards()
    random_kernel = STRATEGIES["random"].kernel
    combos = list(itertools.product(matchups(), rule_settings()))
    broken = np.zeros(len(INVARIANTS) + 1, np.int64)
    first_broken: dict[int, str] = {}
    ends = np.zeros(len(K.END_REASONS), np.int64)
    steps = played = 0
    t0 = time.perf_counter()
    for c, first in enumerate(range(0, games, chunk)):
        villains, variants = combos[c % len(combos)]
        n = min(chunk, games - first)
        P = len(villains)
        seats = seat_table(villains, n, first)
        vrows = np.array([cards.villain(v).row for v in villains], np.int64)
        out = np.zeros((n, len(CHECKED_FIELDS)), np.int64)
        play_checked_batch_nb(
            cards.tables,
            rules_array(variants, max_turns),
            vrows[seats],
            seats,
            np.full(P, random_kernel, np.int64),
            np.zeros((P, N_SPARAMS), np.float64),
            np.uint64(seed),
            np.uint64(first),
            max_steps,
            out,
        )
        played += n
        steps += int(out[:, 0].sum())
        codes = out[:, 1]
        broken += np.bincount(codes, minlength=len(broken))
        for i in np.flatnonzero(codes):
            code = int(codes[i])
            if code not in first_broken:
                setting = ", ".join(f"{k}={v}" for k, v in variants.items()) or "default rules"
                first_broken[code] = (
                    f"{'-vs-'.join(villains[e] for e in seats[i])} (seats in order), seed {seed}, game {first + i}, "
                    f"{setting}, max_turns {max_turns}, step {int(out[i, 0])}"
                )
        ends += np.bincount(out[codes == 0, 4], minlength=len(ends))
        if progress is not None:
            progress(played, games, steps, int(broken[1:].sum()), time.perf_counter() - t0)
    return {
        "games": played,
        "steps": steps,
        "broken": {INVARIANTS[k - 1]: int(broken[k]) for k in range(1, len(broken))},
        "first_broken": {INVARIANTS[k - 1]: where for k, where in sorted(first_broken.items())},
        "ends": {K.END_REASONS[e]: int(ends[e]) for e in range(len(ends))},
        "settings": len(rule_settings()),
        "seconds": time.perf_counter() - t0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=10_000, help="games per call of the checking kernel")
    ap.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    ap.add_argument("--max-steps", type=int, default=100_000, help="steps after which a game breaks termination")
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    if a.threads:
        numba.set_num_threads(a.threads)

    def progress(done, total, steps, bad, seconds):
        print(
            f"\r{done:,}/{total:,} games, {steps:,} steps checked, {bad} broken, {done / seconds:,.0f} games/s",
            end="",
            file=sys.stderr,
            flush=True,
        )

    t = time.perf_counter()
    check(1, a.seed, 1, a.max_turns, a.max_steps)  # compiles the kernel (or loads it from the cache)
    compiled = time.perf_counter() - t
    res = check(a.games, a.seed, a.chunk, a.max_turns, a.max_steps, progress)
    print(file=sys.stderr)
    total_broken = sum(res["broken"].values())
    print(
        f"{res['games']:,} random-strategy games ({len(matchups())} matchups x {res['settings']} rule settings, seed "
        f"{a.seed}, {a.max_turns}-round cap), {res['steps']:,} steps: the invariants were checked after setup and "
        f"after every step; {res['seconds']:,.0f} s ({res['games'] / res['seconds']:,.0f} games/s, "
        f"{numba.get_num_threads()} threads; compiling or loading the kernel {compiled:,.0f} s more)"
    )
    print("ends: " + ", ".join(f"{k} {v:,}" for k, v in res["ends"].items() if v))
    for name, count in res["broken"].items():
        line = f"  {name}: {count:,} games broke it"
        if count:
            line += f" (first: {res['first_broken'][name]})"
        print(line)
    print("every invariant held in every game" if total_broken == 0 else f"{total_broken:,} games broke an invariant")
    return 1 if total_broken else 0


if __name__ == "__main__":
    sys.exit(main())
