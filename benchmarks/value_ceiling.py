"""How far is the learned value model from the best a value model could do? A ceiling measured in tuned play.

Usage:

    python benchmarks/value_ceiling.py [--games 2000] [--held 200] [--rollouts 64] [--seed 31] [--threads 2]
                                       [--out FILE]

The search's budget cannot be cut (docs/studies/learning.md, "What a learned generation costs") while the value
model at its horizon is not good enough to stop the play-outs sooner. Is that the model's fault (its features or
its size), or is the outcome of a position that far from a known thing? In the search's own games the question
would cost a search game per play-out; in tuned play it is cheap, and the same model class answers it there:

* **Positions**: ``--games`` tuned self-play games per seating (every ordered pairing, mirrors too, and the
  3-player game's rotations; :func:`simlab.studies.learn.positions`), every seat at the start of every turn,
  fitted as the loop fits (:func:`simlab.studies.learn.fit_value`: the base features, its penalty and seed), on
  all of them and on a quarter and a half of the games (is it short of data?).
* **The ceiling**: ``--held`` more games per seating (other game indices), and at the start of every turn, for
  every seat, ``--rollouts`` play-outs to the end of the game with tuned on every seat, each in a world redrawn from
  what that seat can see (the search player's ``determinise_nb``, the world's stream reseeded). Their mean is the
  seat's chance to win from what it knows, under tuned play: no model over what it knows predicts the game's result
  better, but for the play-outs' own noise (given beside: the first quarter of the play-outs alone).
* **Scores** on those held-out positions (decided games; each seat's chance shared out over the position's seats,
  as the search uses the model): log-loss and Brier score against the game's result of the learned model at each
  data size, the 6-weight model, and the ceiling at a quarter and at all of its play-outs; and how far each is
  from the ceiling (``off_ceiling``: the root mean squared difference, the play-outs' own variance taken off),
  which is the error a search scoring its horizon with the model carries.
* **Soft labels**: networks fitted to the ceiling itself on the even held-out games (every 8th, 4th and 2nd of them:
  is the fit short of data?), over the base features, the key cards or the board too (is it short of features?),
  of one and two layers (of size?); the odd ones score them. Each row has a ``key`` the docs select it by.

The gap between the learned model and the ceiling is what a better model (features, size, data) could gain; the
gap between the ceiling and a coin is what no model can. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402

from simlab.kernels import const as K  # noqa: E402
from simlab.kernels.rng import next_u64_nb  # noqa: E402
from strategies.learned.features import ALL_FEATURE_NAMES, all_features_nb  # noqa: E402
from strategies.search import copy_state_nb, determinise_nb, rollout_nb  # noqa: E402

MAX_TURNS = 256


@numba.njit(nogil=True)
def ceiling_game(st, tb, ru, rollouts, feats, wins, world, scratch, local):
    """Play ``st`` to the end (every seat its heuristic strategy, as ``turn_positions_nb`` does), and at the start
    of every turn write each seat's features into ``feats[t, s]`` and, over ``rollouts`` play-outs to the end from
    worlds redrawn from that seat's view, its wins after the first quarter (``wins[t, s, 0]``) and after all of them
    (``wins[t, s, 1]``; a game stopped by the turn cap counts half). Returns the turns written."""
    t = 0
    quarter = max(rollouts // 4, 1)
    while st.g[K.G_PHASE] != K.PH_OVER:
        if st.g[K.G_PHASE] == K.PH_START and t < feats.shape[0]:
            for s in range(st.g[K.G_NSEATS]):
                all_features_nb(st, tb, ru, s, feats[t, s])
                won = 0.0
                for k in range(rollouts):
                    copy_state_nb(world, st)
                    determinise_nb(world, s, local, scratch)
                    world.rng[0] = next_u64_nb(local)
                    rollout_nb(world, tb, ru, -1, 1)
                    w = world.g[K.G_WINNER]
                    won += 1.0 if w == s else (0.5 if w < 0 else 0.0)
                    if k + 1 == quarter:
                        wins[t, s, 0] = won
                wins[t, s, 1] = won
            t += 1
        rollout_nb(st, tb, ru, 0, 1)
    return t


def ceiling_positions(games: int, first: int, rollouts: int, seed: int, threads: int) -> pl.DataFrame:
    """One row per (seating, game, turn, seat) of ``games`` tuned games per seating from game index ``first``: the
    features, the result and the play-outs' chance at a quarter and at all of them (``ceiling_quarter``,
    ``ceiling``)."""
    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.kernels.state import new_state
    from simlab.runs.levels import strategy_at
    from simlab.studies.value import seatings
    from strategies.learned.features import N_ALL_FEATURES

    warmup.ensure(search=True)
    jobs = [(n, order, first + i) for n, order in enumerate(seatings()) for i in range(games)]
    todo, lock, frames = iter(jobs), threading.Lock(), {}
    quarter = max(rollouts // 4, 1)

    def work() -> None:
        feats = np.zeros((MAX_TURNS, 3, N_ALL_FEATURES))
        wins = np.zeros((MAX_TURNS, 3, 2))
        scratch = np.zeros(K.N_INST, np.int64)
        local = np.zeros(1, np.uint64)
        worlds = {n: new_state(n, 0) for n in (2, 3)}
        while True:
            with lock:
                job = next(todo, None)
            if job is None:
                return
            n, order, i = job
            g = Game.new(order, seed=seed, game_index=i, strategies=tuple(strategy_at("tuned", v) for v in order))
            world = worlds[len(order)]
            world.sparams[:] = g.state.sparams  # every seat of a world plays its heuristic vector
            local[:] = np.random.SeedSequence([seed, n, i]).generate_state(1, np.uint64)  # the play-outs' own stream
            turns = ceiling_game(g.state, g.cards.tables, g.rules, rollouts, feats, wins, world, scratch, local)
            winner = int(g.state.g[K.G_WINNER])
            rows = []
            for s, v in enumerate(order):
                rows.append(
                    pl.DataFrame(
                        {
                            "seating": "-vs-".join(order),
                            "game": i,
                            "turn": np.arange(turns),
                            "seat": s,
                            "villain": v,
                            "seats": len(order),
                            "result": 0.5 if winner < 0 else float(s == winner),
                            "ceiling_quarter": wins[:turns, s, 0] / quarter,
                            "ceiling": wins[:turns, s, 1] / rollouts,
                        }
                    ).with_columns(pl.from_numpy(feats[:turns, s].copy(), schema=list(ALL_FEATURE_NAMES)))
                )
            with lock:
                frames[job] = pl.concat(rows)

    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(work) for _ in range(threads)]:
            f.result()
    return pl.concat([frames[job] for job in jobs]).sort("seating", "game", "turn", "seat")


def scores(p: np.ndarray, result: np.ndarray) -> dict:
    from strategies.learned import value

    return {"log_loss": value.log_loss(p, result), "brier": value.brier(p, result)}


def fit_to(frame: pl.DataFrame, target: str, hidden: tuple[int, ...], features: str):
    """A network as the loop's (scikit-learn's MLP over standardised inputs, the loop's penalty, seed and early
    stop, one BLAS thread) fitted to ``target`` of ``frame``'s positions: ``result`` (the game's) or ``ceiling``
    (the play-outs' chance, a soft label; :func:`strategies.learned.value.training_rows`); every game weighs the
    same.
    Returns a function of a frame's positions giving each seat's chance."""
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    from simlab.studies import learn
    from strategies.learned import value

    def inputs(f: pl.DataFrame) -> np.ndarray:
        return value.expand(learn.feature_matrix(f, features))  # as the loop's fit: the products added

    rows, labels, weights = value.training_rows(inputs(frame), frame[target].to_numpy(), learn.game_weights(frame))
    network = MLPClassifier(
        hidden_layer_sizes=hidden, alpha=value.ALPHA, max_iter=300, early_stopping=True, random_state=value.SEED
    )
    pipeline = make_pipeline(StandardScaler(), network)
    with threadpool_limits(1):
        pipeline.fit(rows, labels, mlpclassifier__sample_weight=weights)
    return lambda f: learn.shared(pipeline.predict_proba(inputs(f))[:, 1], f)


def held_positions(args) -> tuple[pl.DataFrame, float | None]:
    """The held-out games' positions with their ceiling, and the CPU seconds they took: read back from
    ``--positions`` when it holds a record of the same settings (the seconds None), else played (and kept there)."""
    settings = {"games": args.games, "held": args.held, "rollouts": args.rollouts, "seed": args.seed}
    if args.positions is not None:
        record = args.positions.with_suffix(".json")
        if args.positions.is_file() and record.is_file() and json.loads(record.read_text()) == settings:
            held = pl.read_parquet(args.positions)
            if set(ALL_FEATURE_NAMES) <= set(held.columns):  # else kept before a feature was added: played again
                print(f"held-out positions read back from {args.positions}", flush=True)
                return held, None
    cpu = time.process_time()
    held = ceiling_positions(args.held, args.games, args.rollouts, args.seed, args.threads)
    spent = time.process_time() - cpu
    if args.positions is not None:
        held.write_parquet(args.positions)
        args.positions.with_suffix(".json").write_text(json.dumps(settings))
    return held, spent


def main() -> None:
    from simlab.studies import learn

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="tuned games per seating to fit on")
    ap.add_argument("--held", type=int, default=100, help="held-out games per seating the ceiling is measured on")
    ap.add_argument("--rollouts", type=int, default=64, help="play-outs per seat and position")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--positions",
        type=Path,
        default=None,
        help="keep the held-out positions as parquet, and read them back on a run with the same settings",
    )
    add_arguments(ap)
    args = ap.parse_args()
    doc = started(args.smoke)
    cpu, wall = time.process_time(), time.perf_counter()
    fit_on = learn.positions(args.games, args.seed, "tuned", threads=args.threads)
    fit_seconds = time.process_time() - cpu
    held, ceiling_seconds = held_positions(args)
    # the even games of the held-out ones fit the soft-label models, the odd ones score every model
    scored = held.filter(pl.col("game") % 2 == 1)
    decided = scored["result"].to_numpy() != 0.5
    result = scored["result"].to_numpy()[decided]
    ceiling = scored["ceiling"].to_numpy()[decided]
    # the play-outs' own noise in the ceiling: its variance, p (1 - p) / n, taken off a mean squared distance to it
    noise = float(np.mean(ceiling * (1 - ceiling))) / args.rollouts
    rows = []

    def add(name, p, **more):
        p = np.asarray(p, np.float64)[decided]
        by = {
            f"{k}p": scores(p[mask], result[mask])
            for k in (2, 3)
            if (mask := scored["seats"].to_numpy()[decided] == k).any()
        }
        off = float(np.sqrt(max(float(np.mean((p - ceiling) ** 2)) - noise, 0.0)))
        blank = dict.fromkeys(("target", "games_per_seating", "positions", "hidden", "features", "rollouts", "key"))
        rows.append({"model": name, **scores(p, result), "off_ceiling": off, "by_seats": by, **blank, **more})
        said = f"log-loss {rows[-1]['log_loss']:.4f}  Brier {rows[-1]['brier']:.4f}  off the ceiling {off:.3f}"
        print(f"{name:58s} {said}", flush=True)

    add("a coin (1 / seats)", 1.0 / scored["seats"].to_numpy().astype(np.float64), key="coin")
    add("6-weight (strategies/search_value.toml)", learn.six_weight(scored), key="six-weight")
    x = learn.feature_matrix(scored, "base")
    for share in (0.25, 0.5, 1.0):
        part = fit_on.filter(pl.col("game") < max(int(args.games * share), 1))
        more = {"target": "result", "games_per_seating": int(args.games * share), "positions": part.height}
        more["key"] = f"loop-{int(args.games * share)}"
        add(
            f"the loop's fit, {share:.0%} of the tuned games",
            learn.shared(learn.fit_value(part).predict(x), scored),
            **more,
        )
    # the soft-label fits, on every 8th, 4th and 2nd held game (the even ones): is it short of data, of features?
    for target, hidden, features, every in (
        ("result", (32,), "base", 2),
        ("ceiling", (32,), "base", 8),
        ("ceiling", (32,), "base", 4),
        ("ceiling", (32,), "base", 2),
        ("ceiling", (64, 32), "base", 2),
        ("ceiling", (64, 32), "key-cards", 2),
        ("ceiling", (32,), "board", 8),
        ("ceiling", (32,), "board", 4),
        ("ceiling", (32,), "board", 2),
    ):
        part = held.filter(pl.col("game") % every == 0)
        games = part["game"].n_unique()
        size = "x".join(map(str, hidden))
        more = {"target": target, "games_per_seating": games, "positions": part.height}
        more |= {"hidden": list(hidden), "features": features, "key": f"{target}-{features}-{size}-{games}"}
        name = f"fitted to the {target} of {games} held games a seating, {features} {size}"
        add(name, fit_to(part, target, hidden, features)(scored), **more)
    quarter = max(args.rollouts // 4, 1)
    for col, n in (("ceiling_quarter", quarter), ("ceiling", args.rollouts)):
        won = scored[col].to_numpy() * n
        add(f"the ceiling, {n} play-outs", (won + 0.5) / (n + 1), rollouts=n, key=f"ceiling-{n}")
    doc |= {
        "games_per_seating": args.games,
        "held_games_per_seating": args.held,
        "rollouts": args.rollouts,
        "seed": args.seed,
        "threads": args.threads,
        "fit_positions": fit_on.height,
        "held_positions": held.height,
        "scored_positions": int(decided.sum()),
        "cpu_seconds": {
            "fit_games": round(fit_seconds, 1),
            "ceiling": None if ceiling_seconds is None else round(ceiling_seconds, 1),
        },
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "rows": rows,
    }
    write(args.out, doc)


if __name__ == "__main__":
    main()
