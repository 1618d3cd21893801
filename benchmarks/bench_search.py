"""The search player's strength per CPU second: win rate against scripted opponents at a few budgets, per player.

Usage: python benchmarks/bench_search.py [--players search-flat,search] [--samples 4,8,16,32] [--horizon H]
                                        [--screen K] [--rollout R] [--games 34] [--base-games 2000]
                                        [--cost-games 0] [--threads 2] [--seed 0] [--opponents tuned,expert]
                                        [--out reports/search-curve-cpu]

For each player (a search strategy: ``search-flat``, the flat player kept for comparison, and ``search``, successive
halving with rollouts truncated by the value model) and each budget (``samples``; the other settings the player's
own, ``--horizon``, ``--screen`` and ``--rollout`` aside):

* strength: each villain played by that player against each other villain played by each level of
  ``--opponents`` (default tuned where ``configs/strategies/tuned-<villain>.toml`` exist, and expert),
  ``--games`` games per pairing, seats rotated; beside it the opponent's own level on the same seeds
  (``--base-games``), so the gain over the rollout policy is measured on the same deals;
* cost: CPU seconds per game of those strength games, per opponent level (``time.process_time``, every thread of
  the process: less sensitive than wall time to the other jobs on a shared machine), and optionally
  (``--cost-games``) every decision of the search seat timed in CPU time, one thread.

Writes ``strength.csv``, ``cost.csv`` and ``strength.png`` (win rate against CPU seconds per game, 95% Wilson
intervals, one line per player and opponent level, the scripted level's rate dashed) under ``--out`` and prints
both tables. Not a test: the figures on the docs' search page come from runs of this script.
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


def strategy_file(directory: Path, player: str, samples: int, horizon, screen, rollout=None) -> str:
    """A strategy file: ``player`` with ``samples`` (and the other settings given)."""
    name = f"{player}-{samples}"
    path = directory / f"{name}.toml"
    given = (("horizon", horizon), ("screen", screen), ("rollout", rollout))
    extra = "".join(f"{k} = {v}\n" for k, v in given if v is not None)
    path.write_text(f'base = "{player}"\nname = "{name}"\n[params]\nsamples = {samples}\n{extra}')
    return str(path)


def opponents_levels(given: str | None = None) -> list[str]:
    from simlab.runs.levels import available_levels

    if given:
        return [lv.strip() for lv in given.split(",") if lv.strip()]
    return (["tuned"] if "tuned" in available_levels() else []) + ["expert"]


def decision_cost(strategy: str, games: int, seed: int) -> dict:
    """Time every decision of the search seat (seat 0) in ``games`` games per ordered pairing, one thread."""
    from simlab.game import warmup

    warmup.ensure(search=True)
    import simlab.game.driver as driver
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from simlab.kernels.rules import advance_nb, apply_nb

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
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import simulate

    wins = played = 0
    t, c = time.perf_counter(), time.process_time()
    for o in VILLAIN_KEYS:
        if o == villain:
            continue
        res = simulate(
            f"{villain}-vs-{o}",
            RunSettings(games, seed, threads=threads),
            strategies={villain: strategy_at(strategy, villain), o: strategy_at(opponent_level, o)},
        ).games
        played += res.height
        wins += res.filter(pl.col("winner_index") == 0).height
    return wins, played, time.perf_counter() - t, time.process_time() - c


def pooled_rows(table: pl.DataFrame) -> pl.DataFrame:
    """Every villain together (villain "all"), per player, budget and opponent level: pooled wins and games, and
    the scripted level's pooled rate as the baseline."""
    rows = []
    for _, g in table.group_by(["player", "samples", "opponent"], maintain_order=True):
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


def plot_strength(table: pl.DataFrame, cost: pl.DataFrame, ax):
    """Pooled win rate against CPU seconds per game, one line per player and opponent level, each point labelled
    with its samples; the opponents' own rate dashed."""
    pooled = table.filter(pl.col("villain") == "all").join(cost, on=["player", "samples", "opponent"])
    for (player, opp), rows in pooled.sort("cpu_s_per_game").group_by(["player", "opponent"], maintain_order=True):
        x = rows["cpu_s_per_game"].to_numpy()
        y = rows["rate"].to_numpy()
        err = np.clip(np.vstack([y - rows["low"].to_numpy(), rows["high"].to_numpy() - y]), 0, None)
        line = ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{player} vs {opp}")
        for xi, yi, k in zip(x, y, rows["samples"], strict=True):
            ax.annotate(str(k), (xi, yi), textcoords="offset points", xytext=(4, -10), fontsize=7)
        ax.axhline(rows["base_rate"][0], color=line[0].get_color(), linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("CPU seconds per game, one search seat (labels: samples; dashed: the opponents' level itself)")
    ax.set_ylabel("win rate, all villains (95% Wilson interval)")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.legend(fontsize=7)
    ax.set_title("search player strength per CPU second")
    return ax


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="search-flat,search", help="search strategies, comma-separated")
    ap.add_argument("--samples", default="4,8,16,32")
    ap.add_argument("--horizon", type=int, default=None, help="the horizon setting [default: each player's]")
    ap.add_argument("--screen", type=int, default=None, help="the screen setting [default: each player's]")
    ap.add_argument(
        "--rollout",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="who plays the rollouts: 2 tuned where it exists, 1 expert, 0 random [default: each player's]",
    )
    ap.add_argument("--opponents", default=None, help="opponent levels, comma-separated [default: tuned,expert]")
    ap.add_argument("--games", type=int, default=34, help="games per pairing at each budget (seats rotated)")
    ap.add_argument("--base-games", type=int, default=2000, help="games per pairing at the scripted level")
    ap.add_argument("--cost-games", type=int, default=0, help="games per ordered pairing timed decision by decision")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="reports/search-curve-cpu")
    ap.add_argument("--plot", default=None, help="DIR,DIR: plot these runs' tables together into --out; play nothing")
    args = ap.parse_args()
    if args.plot:
        runs = [Path(d) for d in args.plot.split(",")]
        st = pl.concat([pl.read_csv(d / "strength.csv") for d in runs], how="diagonal_relaxed")
        co = pl.concat([pl.read_csv(d / "cost.csv") for d in runs], how="diagonal_relaxed")
        return write(st, co, Path(args.out), pooled=False)
    budgets = [int(s) for s in args.samples.split(",")]
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    strength, cost = [], []
    levels = opponents_levels(args.opponents)
    with tempfile.TemporaryDirectory() as tmp:
        base = {}
        for opp in levels:
            for v in VILLAIN_KEYS:
                base[(v, opp)] = win_rate(v, opp, opp, args.base_games, args.seed, args.threads)
        for player in players:
            for k in budgets:
                strategy = strategy_file(Path(tmp), player, k, args.horizon, args.screen, args.rollout)
                c = decision_cost(strategy, args.cost_games, args.seed) if args.cost_games > 0 else {}
                for opp in levels:  # the cost per opponent level: tuned opponents make longer games
                    seconds = cpu = games = 0
                    for v in VILLAIN_KEYS:
                        wins, played, s, cs = win_rate(v, strategy, opp, args.games, args.seed, args.threads)
                        seconds += s
                        cpu += cs
                        games += played
                        bw, bn, _, _ = base[(v, opp)]
                        strength.append(
                            {"player": player, "samples": k, "villain": v, "opponent": opp}
                            | versus_base(wins, played, bw, bn)
                        )
                        print(strength[-1], flush=True)
                    cost.append(
                        {"player": player, "samples": k, "opponent": opp}
                        | c
                        | {"games_per_s": games / seconds, "cpu_s_per_game": cpu / games, "threads": args.threads}
                        | {"strength_games": games}
                    )
                    print(cost[-1], flush=True)
    write(pl.DataFrame(strength), pl.DataFrame(cost), out)


def write(st: pl.DataFrame, co: pl.DataFrame, out: Path, pooled: bool = True) -> None:
    """The tables (with the pooled rows added unless ``pooled`` is False: they are there already) and the plot."""
    out.mkdir(parents=True, exist_ok=True)
    if pooled:
        st = pl.concat([st, pooled_rows(st)], how="diagonal_relaxed")
    st.write_csv(out / "strength.csv")
    co.write_csv(out / "cost.csv")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    plot_strength(st, co, ax)
    fig.tight_layout()
    fig.savefig(out / "strength.png", dpi=120)
    with pl.Config(tbl_rows=100, tbl_cols=20, tbl_width_chars=200):
        print(co)
        print(st.filter(pl.col("villain") == "all"))


if __name__ == "__main__":
    main()
