"""The search player's cost and strength: decisions/s and games/s at each budget, and the strength curve.

Usage: python benchmarks/bench_search.py [--samples 1,2,4,8,16] [--horizon -1] [--screen K] [--rollout R] [--games 40]
                                        [--base-games 2000] [--cost-games 2] [--threads 2] [--seed 0]
                                        [--opponents expert,tuned] [--out reports/search-bench]

For each budget (samples per decision; the other settings as the built-in ``search``, ``--horizon``,
``--screen`` and ``--rollout`` aside):

* cost: ``--cost-games`` games of each villain against each other villain played by expert, one thread,
  every decision of the search seat timed in CPU time (decisions/s, mean options per decision), then the
  strength games below on ``--threads`` threads (games/s of wall time, and CPU seconds per game);
* strength: each villain played by the search player against each other villain played by each level of
  ``--opponents`` (default expert, and tuned where ``configs/strategies/tuned-<villain>.toml`` exist),
  ``--games`` games per pairing, seats rotated; beside it the opponent's own level on the same seeds
  (``--base-games``), so the gain over the rollout policy is measured on the same deals.

Writes ``strength.csv``, ``cost.csv`` and ``strength.png`` (win rate by samples per decision, 95% Wilson
intervals, the scripted level's rate as a dashed line) under ``--out`` and prints both tables. Not a test:
the machine is shared and noisy; the figures in README ("Search player") come from one run of this script.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.runs.stats import wilson
from simlab.studies.ladder import two_proportion_z


def strategy_file(directory: Path, samples: int, horizon: int, screen: int | None, rollout: int | None = None) -> str:
    path = directory / f"search-{samples}.toml"
    extra = "" if screen is None else f"screen = {screen}\n"
    extra += "" if rollout is None else f"rollout = {rollout}\n"
    path.write_text(
        f'base = "search"\nname = "search-{samples}"\n[params]\nsamples = {samples}\nhorizon = {horizon}\n{extra}'
    )
    return str(path)


def opponents_levels(given: str | None = None) -> list[str]:
    from simlab.runs.levels import available_levels

    if given:
        return [lv.strip() for lv in given.split(",") if lv.strip()]
    return ["expert"] + (["tuned"] if "tuned" in available_levels() else [])


def decision_cost(strategy: str, games: int, seed: int) -> dict:
    """Time every decision of the search seat (seat 0) in ``games`` games per ordered pairing, one thread."""
    from simlab.engine import warmup

    warmup.ensure(search=True)
    import simlab.engine.driver as driver
    from simlab.engine.game import Game
    from simlab.kernels import const as K
    from simlab.kernels.engine import advance_nb, apply_nb

    seconds = 0.0
    decisions = options = 0
    wall = time.process_time()
    played = 0
    for v in VILLAIN_KEYS:
        for o in VILLAIN_KEYS:
            if o == v:
                continue
            for i in range(games):
                g = Game.new((v, o), seed=seed, game_index=i, strategies=(strategy, "expert"))
                st, tb, ru = g.state, g.cards.tables, g.rules
                while advance_nb(st, tb, ru, 1 << 62):
                    if st.g[K.G_PEND_PLAYER] == 0:
                        t = time.process_time()
                        choice = driver.choose_nb(st, tb, ru)
                        seconds += time.process_time() - t
                        decisions += 1
                        options += int(st.g[K.G_PEND_N])
                    else:
                        choice = driver.choose_nb(st, tb, ru)
                    apply_nb(st, choice)
                played += 1
    wall = time.process_time() - wall
    return {
        "decisions": decisions,
        "decisions_per_s": decisions / seconds,
        "mean_options": options / decisions,
        "decisions_per_game": decisions / played,
        "games_per_s_1t": played / wall,
    }


def win_rate(villain: str, strategy: str, opponent_level: str, games: int, seed: int, threads: int):
    """Wins of ``villain`` played by ``strategy`` against each other villain at ``opponent_level``; seconds of
    wall time and of CPU time."""
    from simlab.runs.levels import strategy_at
    from simlab.runs.sim import simulate

    wins = played = 0
    t, c = time.perf_counter(), time.process_time()
    for o in VILLAIN_KEYS:
        if o == villain:
            continue
        res = simulate(
            f"{villain}-vs-{o}",
            games,
            seed=seed,
            strategies={villain: strategy_at(strategy, villain), o: strategy_at(opponent_level, o)},
            threads=threads,
        ).games
        played += res.height
        wins += res.filter(pl.col("winner_index") == 0).height
    return wins, played, time.perf_counter() - t, time.process_time() - c


def pooled_rows(table: pl.DataFrame) -> pl.DataFrame:
    """Every villain together (villain "all"), per budget and opponent level: pooled wins and games, and the
    scripted level's pooled rate as the baseline."""
    rows = []
    for _, g in table.group_by(["samples", "opponent"], maintain_order=True):
        wins, games = int(g["wins"].sum()), int(g["games"].sum())
        bw = float((g["base_rate"] * g["base_games"]).sum())
        bn = int(g["base_games"].sum())
        rows.append(g.row(0, named=True) | {"villain": "all"} | versus_base(wins, games, bw, bn))
    return pl.DataFrame(rows)


def versus_base(wins, games: int, base_wins, base_games: int) -> dict:
    """A rate with its 95% Wilson interval beside the scripted level's, and the two-proportion z between them."""
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games, "low": float(lo), "high": float(hi)} | {
        "base_games": base_games,
        "base_rate": base_wins / base_games,
        "z": two_proportion_z(wins, games, base_wins, base_games),
    }


def plot_strength(table: pl.DataFrame, ax):
    """Win rate by samples per decision, one line per villain and opponent level, with the scripted rate dashed."""
    for (villain, opp), rows in table.sort("samples").group_by(["villain", "opponent"], maintain_order=True):
        x = rows["samples"].to_numpy()
        y = rows["rate"].to_numpy()
        err = np.clip(np.vstack([y - rows["low"].to_numpy(), rows["high"].to_numpy() - y]), 0, None)
        pooled = villain == "all"
        line = ax.errorbar(
            x,
            y,
            yerr=err,
            marker="s" if pooled else "o",
            capsize=3,
            linewidth=2.5 if pooled else 1,
            color="black" if pooled else None,
            label=f"{'all villains' if pooled else villain} vs {opp}",
        )
        ax.axhline(rows["base_rate"][0], color=line[0].get_color(), linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    budgets = sorted(table["samples"].unique().to_list())
    ax.set_xticks(budgets, [str(b) for b in budgets])
    ax.set_xlabel("samples per decision (dashed: the opponents' level playing the same villain)")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.legend(fontsize=7)
    ax.set_title("search player strength by budget")
    return ax


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", default="1,2,4,8,16")
    ap.add_argument("--horizon", type=int, default=-1)
    ap.add_argument("--screen", type=int, default=None, help="the screen setting [default: the built-in search's]")
    ap.add_argument(
        "--rollout",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="who plays the rollouts: 2 tuned where it exists, 1 expert, 0 random [default: the built-in search's]",
    )
    ap.add_argument("--opponents", default=None, help="opponent levels, comma-separated [default: expert,tuned]")
    ap.add_argument("--games", type=int, default=40, help="games per pairing at each budget (seats rotated)")
    ap.add_argument("--base-games", type=int, default=2000, help="games per pairing at the scripted level")
    ap.add_argument("--cost-games", type=int, default=2, help="games per ordered pairing timed decision by decision")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="reports/search-bench")
    args = ap.parse_args()
    budgets = [int(s) for s in args.samples.split(",")]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    strength, cost = [], []
    with tempfile.TemporaryDirectory() as tmp:
        base = {}
        for opp in opponents_levels(args.opponents):
            for v in VILLAIN_KEYS:
                base[(v, opp)] = win_rate(v, opp, opp, args.base_games, args.seed, args.threads)
        for k in budgets:
            strategy = strategy_file(Path(tmp), k, args.horizon, args.screen, args.rollout)
            c = decision_cost(strategy, args.cost_games, args.seed) if args.cost_games > 0 else {}
            seconds = cpu = games = 0
            for opp in opponents_levels(args.opponents):
                for v in VILLAIN_KEYS:
                    wins, played, s, cs = win_rate(v, strategy, opp, args.games, args.seed, args.threads)
                    seconds += s
                    cpu += cs
                    games += played
                    bw, bn, _, _ = base[(v, opp)]
                    strength.append(
                        {"samples": k, "horizon": args.horizon, "screen": args.screen, "rollout": args.rollout}
                        | {"villain": v, "opponent": opp}
                        | versus_base(wins, played, bw, bn)
                    )
                    print(strength[-1], flush=True)
            cost.append(
                {"samples": k, "horizon": args.horizon, "screen": args.screen, "rollout": args.rollout}
                | c
                | {"games_per_s": games / seconds, "cpu_s_per_game": cpu / games, "threads": args.threads}
                | {"strength_games": games}
            )
            print(cost[-1], flush=True)
    st = pl.DataFrame(strength)
    st = pl.concat([st, pooled_rows(st)], how="diagonal_relaxed")
    co = pl.DataFrame(cost)
    st.write_csv(out / "strength.csv")
    co.write_csv(out / "cost.csv")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    plot_strength(st, ax)
    fig.tight_layout()
    fig.savefig(out / "strength.png", dpi=120)
    with pl.Config(tbl_rows=100, tbl_cols=20, tbl_width_chars=200):
        print(co)
        print(st)
        pooled = (
            st.filter(pl.col("villain") != "all")
            .group_by("samples", "opponent", maintain_order=True)
            .agg(pl.col("wins").sum(), pl.col("games").sum(), pl.col("base_rate").mean())
        )
        print(pooled.with_columns((pl.col("wins") / pl.col("games")).alias("rate")))


if __name__ == "__main__":
    main()
