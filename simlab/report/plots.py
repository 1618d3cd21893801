"""Every plot: a function of a study's frame that draws on a matplotlib Axes and returns it (the figure, its
size and its file are the caller's: :func:`write_plot`, the report, the commands). Studies return frames and
never draw; matplotlib is imported only by the functions that need it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data import durable
from simlab.errors import InputError
from simlab.runs.stats import error_bars


def write_plot(path: str | Path, draw: Callable, size=(7, 5), dpi: int = 120, what: str = "") -> Path:
    """Draw on a fresh Axes of ``size`` inches and save it as a PNG to ``path`` (its directory made if need be);
    :class:`InputError` naming ``what`` (default: the path) if it cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    try:
        draw(ax)
        fig.tight_layout()
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot write {what or repr(str(path))}: {exc.strerror or exc}") from None
        durable.write_with(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png"), what or "the plot")
    finally:
        plt.close(fig)
    return Path(path)


def plot_matrix(grid: pl.DataFrame, ax, play: str = "") -> None:
    """Heatmap of a :meth:`MatrixResult.grid`: the row villain's win rate against the column villain, titled with
    ``play`` (the level, :func:`simlab.runs.levels.play_label`) when given."""
    names = list(grid["villain"])
    values = grid.select(names).to_numpy()
    im = ax.imshow(values, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("villain")
    for i in range(len(names)):
        for j in range(len(names)):
            ax.text(j, i, f"{values[i, j]:.1%}", ha="center", va="center", color="black")
    ax.set_title("2-player win rate (row vs column, seats rotated)" + (f"\n{play}" if play else ""))
    ax.figure.colorbar(im, ax=ax, fraction=0.046)


def plot_win_rates(table: pl.DataFrame, ax, level: str = "expert"):
    """Each entry's win rate with its 95% interval, grouped by matchup (from the matrix table)."""
    rows = table.filter(pl.col("outcome") != "unfinished")
    labels = [f"{o}\n({m.replace('-vs-', ' v ')})" for m, o in zip(rows["matchup"], rows["outcome"], strict=True)]
    y = np.arange(rows.height)
    x = rows["rate"].to_numpy()
    err = error_bars(x, rows["low"], rows["high"])
    ax.barh(y, x, xerr=err, capsize=2, color="tab:blue")
    _rate_axis(ax, y, labels)
    ax.set_title(f"win rates by matchup, {level} play")
    return ax


def _rate_axis(ax, y, labels) -> None:
    """Horizontal win-rate bars: one labelled row per entry, top down, 0 to 100% with the even line."""
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.axvline(0.5, color="grey", linestyle=":")
    ax.set_xlabel("win rate (95% Wilson interval)")


def plot_turns(games: pl.DataFrame, ax, level: str = "expert"):
    """Distribution of turns to win alone, one step histogram per villain (``villain``, ``turns`` columns)."""
    top = int(games["turns"].max() or 1)
    bins = np.arange(0.5, top + 1.5)
    for v in games["villain"].unique(maintain_order=True):
        t = games.filter(pl.col("villain") == v)["turns"].drop_nulls().to_numpy()
        ax.hist(t, bins=bins, histtype="step", linewidth=1.5, label=f"{v} (median {np.median(t):g})", density=True)
    ax.set_xlabel("own turns to reach the objective, alone (goldfish)")
    ax.set_ylabel("share of games")
    ax.legend()
    ax.set_title(f"turns to win unopposed, {level} play")
    return ax


def plot_ladder(ladder: pl.DataFrame, ax):
    """Win rate of each skill level per villain, with 95% intervals."""
    villains = list(ladder["villain"].unique(maintain_order=True))
    levels = list(ladder["level"].unique(maintain_order=True))
    width = 0.8 / len(levels)
    for i, lev in enumerate(levels):
        sub = ladder.filter(pl.col("level") == lev)
        x = np.arange(len(villains)) + i * width
        y = sub["rate"].to_numpy()
        err = error_bars(y, sub["low"], sub["high"])
        ax.bar(x, y, width, yerr=err, capsize=2, label=lev)
    ax.set_xticks(np.arange(len(villains)) + width * (len(levels) - 1) / 2, villains)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel(f"win rate vs {ladder['opponent'][0]} opponents")
    ax.legend()
    ax.set_title("skill ladder")
    return ax


def _games(n: int) -> str:
    """A count of games in few characters: 400, 2k, 2.4k, 12k."""
    if n < 1000:
        return f"{n}"
    return f"{n / 1000:.0f}k" if n % 1000 == 0 or n >= 10_000 else f"{n / 1000:.1f}k"


def plot_skill_trace(trace: pl.DataFrame, ax, band=(0.45, 0.55)):
    """One matchup's skill trace (:func:`simlab.studies.headline.skill_trace`): the first villain's win rate (a
    3-player game: every villain's share) at each level, weakest first, with 95% intervals, the balance ``band``
    shaded (2 players), so the reader sees whether the answer settles as play gets stronger."""
    levels = list(dict.fromkeys(trace["level"]))
    villains = list(dict.fromkeys(trace["villain"]))
    three = trace.height > 0 and trace["matchup"][0].count("-vs-") == 2
    if three:
        ax.axhline(1 / 3, color="grey", lw=0.8, label="an even share")
    else:
        ax.axhspan(band[0], band[1], color="tab:green", alpha=0.12, label=f"balanced {band[0]:.0%}-{band[1]:.0%}")
        ax.axhline(0.5, color="grey", lw=0.8)
    for i, villain in enumerate(villains):
        part = trace.filter(pl.col("villain") == villain)
        x = np.array([levels.index(lv) for lv in part["level"]], float) + (i - (len(villains) - 1) / 2) * 0.06
        y = part["rate"].to_numpy()
        ax.errorbar(x, y, yerr=error_bars(y, part["low"], part["high"]), fmt="o-", capsize=3, label=villain)
    games = dict(zip(trace["level"], trace["games"], strict=True))
    # a word a line ("search" over "g6"), "n=2k" under it: labels as wide as "search g6" or "n=2,000" run into
    # their neighbours' at 9 rungs
    ax.set_xticks(
        np.arange(len(levels)), ["\n".join([*lv.split(), f"n={_games(games[lv])}"]) for lv in levels], fontsize=8
    )
    ax.set_xlabel("level (n: games at it)", fontsize=8)
    ax.set_xlim(-0.5, max(len(levels), 1) - 0.5)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel("share of games won" if three else f"{villains[0] if villains else ''} win rate")
    matchup = trace["matchup"][0].replace("-vs-", " vs ") if trace.height else ""
    ax.set_title(f"{matchup}: win rate by level (every seat at the level)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return ax


def plot_level_comparison(table: pl.DataFrame, ax, level: str = "search"):
    """Each entry's win rate at ``level`` (bars, 95% intervals) beside the base level's (ticks), from
    :func:`level_comparison`."""
    rows = table.filter(pl.col("outcome") != "unfinished")
    labels = [f"{o}\n({m.replace('-vs-', ' v ')})" for m, o in zip(rows["matchup"], rows["outcome"], strict=True)]
    y = np.arange(rows.height)
    x = rows["rate"].to_numpy()
    err = error_bars(x, rows["low"], rows["high"])
    ax.barh(y, x, xerr=err, capsize=2, color="tab:orange", label=f"{level} play")
    base = rows["base_level"][0] if rows.height else "base"
    ax.plot(rows["base_rate"].to_numpy(), y, "k|", markersize=12, markeredgewidth=2, label=f"{base} play")
    _rate_axis(ax, y, labels)
    ax.legend(fontsize=8)
    ax.set_title(f"win rates at {level} level and at {base} level")
    return ax


def plot_first_seat(frame: pl.DataFrame, ax, title: str = ""):
    """The first seat's advantage per matchup with its 95% interval, from
    :func:`simlab.studies.matchups.first_seat` (a frame) on ``ax``; 0 is no advantage."""
    y = np.arange(frame.height)
    x = frame["advantage"].to_numpy()
    err = error_bars(x, frame["advantage_low"], frame["advantage_high"])
    colours = ["tab:purple" if p == 3 else "tab:blue" for p in frame["players"]]
    ax.barh(y, x, xerr=err, capsize=3, color=colours)
    ax.set_yticks(y, [m.replace("-vs-", " v ") for m in frame["matchup"]], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0%}")
    ax.set_xlabel("first seat's win rate - the other seats' mean [95% interval]\n(purple: the 3-player game)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or "first-seat advantage")
    return ax


def plot_impact(frame: pl.DataFrame, ax, title: str = ""):
    """Ranked horizontal bars of causal impact with their paired 95% intervals (from :func:`ablation`)."""
    f = frame.sort("impact")
    y = np.arange(f.height)
    x = f["impact"].to_numpy()
    err = error_bars(x, f["impact_low"], f["impact_high"])
    colours = ["tab:blue" if d == "villain" else "tab:orange" for d in f["deck"]]
    ax.barh(y, x, xerr=err, color=colours, capsize=2)
    ax.set_yticks(y, [f"{c} ({d})" for c, d in zip(f["card"], f["deck"], strict=True)])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0%}")
    ax.set_xlabel("win rate with the card - without it (paired 95% interval)")
    from matplotlib.patches import Patch

    ax.legend(
        handles=[
            Patch(color="tab:blue", label="Villain deck"),
            Patch(color="tab:orange", label="Fate deck (played by opponents)"),
        ],
        loc="lower right",
        fontsize=8,
    )
    ax.grid(axis="x", alpha=0.3)
    if title:
        ax.set_title(title)
    return ax


def plot_sweep(frame: pl.DataFrame, ax, title: str = "", baseline: str | None = None):
    """Win rate (with 95% intervals) against the swept value, one line per entry."""
    values = list(dict.fromkeys(frame["value"].to_list()))
    numeric = all(v.lstrip("-").isdigit() for v in values)
    xs = {v: (int(v) if numeric else i) for i, v in enumerate(values)}
    for name in dict.fromkeys(frame["entry"].to_list()):
        sub = frame.filter(pl.col("entry") == name)
        x = [xs[v] for v in sub["value"]]
        y = sub["rate"].to_numpy()
        err = error_bars(y, sub["low"], sub["high"])
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=name)
    if baseline is not None and baseline in xs:
        ax.axvline(xs[baseline], color="grey", linestyle=":", label=f"shipped ({baseline})")
    if numeric:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.set_xticks(list(xs.values()), values)
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.grid(alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    return ax


def plot_leverage(table: pl.DataFrame, ax, top: int = 20, title: str = "leverage"):
    """The ``top`` largest effects (one bar per perturbation, at its largest (matchup, villain)), with their
    paired 95% intervals."""
    from simlab.studies.leverage import leverage_summary

    rows = leverage_summary(table).head(top)
    y = np.arange(rows.height)
    x = rows["change"].to_numpy()
    colours = ["tab:orange" if k == "board" else "tab:blue" for k in rows["kind"]]
    ax.barh(y, x, xerr=error_bars(x, rows["change_low"], rows["change_high"]), capsize=2, color=colours)
    labels = [
        f"{s}\n{v} in {m.replace('-vs-', ' v ')}"
        for s, v, m in zip(rows["setting"], rows["villain"], rows["largest_in"], strict=True)
    ]
    ax.set_yticks(y, labels, fontsize=6)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0%}")
    ax.set_xlabel("change in win rate from the shipped reading (paired 95% interval); blue: rule, orange: board")
    ax.set_title(title)
    return ax


def plot_calibration(calibration: pl.DataFrame, ax, title: str = "calibration against real play"):
    """Observed frequency against predicted probability per bin, one marker per bin and model with its Wilson 95%
    interval and the number of entries beside it (each seated villain of each logged game is one entry): points,
    never lines joining bins, so a handful of games reads as what it is; the models side by side within a bin and
    the legend outside the data."""
    models = list(calibration["model"].unique(maintain_order=True))
    spread = 0.04 if len(models) > 1 else 0.0
    offsets = np.linspace(-spread, spread, len(models)) if len(models) > 1 else [0.0]
    for model, dx in zip(models, offsets, strict=True):
        sub = calibration.filter(pl.col("model") == model)
        x = sub["predicted"].to_numpy() + dx
        y = sub["observed"].to_numpy()
        err = np.clip(np.vstack([y - sub["observed_low"].to_numpy(), sub["observed_high"].to_numpy() - y]), 0, None)
        n = int(sub["entries"].sum())
        ax.errorbar(x, y, yerr=err, fmt="o", linestyle="none", capsize=3, markersize=5, label=f"{model} ({n} entries)")
        for xi, yi, k in zip(x, y, sub["entries"].to_list(), strict=True):
            ax.annotate(str(k), (xi, yi), textcoords="offset points", xytext=(4, 2), fontsize=7, color="dimgrey")
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect calibration")
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.02, 1.02)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel("predicted probability of winning (bin mean)")
    ax.set_ylabel("observed share of wins (95% Wilson interval)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, title="numbers: entries")
    ax.set_title(title)
    return ax


def plot_lengths(distribution: pl.DataFrame, ax, title: str = "game length: real vs simulated"):
    """Share of logged games by rounds (bars) against each model's simulated distribution (lines)."""
    models = list(distribution["model"].unique(maintain_order=True))
    first = distribution.filter(pl.col("model") == models[0])
    ax.bar(first["rounds"].to_numpy(), first["observed"].to_numpy(), color="lightgrey", label="logged games")
    for model in models:
        sub = distribution.filter(pl.col("model") == model)
        ax.plot(sub["rounds"].to_numpy(), sub["simulated"].to_numpy(), marker=".", label=f"simulated: {model}")
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    ax.set_title(title)
    return ax


def plot_trajectory(trajectory: pl.DataFrame, ax):
    """Win rate of each 2-player pairing's first villain, and of each villain of the 3-player game, round by
    round, with 95% intervals (a frame of :attr:`IteratedBestResponse.trajectory`)."""
    from matplotlib.ticker import MaxNLocator

    lines = trajectory.filter(
        ((pl.col("players") == 2) & (pl.col("matchup").str.split("-vs-").list.first() == pl.col("outcome")))
        | ((pl.col("players") == 3) & (pl.col("outcome") != "unfinished"))
    )
    for (m, o), sub in lines.group_by(["matchup", "outcome"], maintain_order=True):
        sub = sub.sort("round")
        x = sub["round"].to_numpy()
        y = sub["rate"].to_numpy()
        err = np.vstack([y - sub["low"].to_numpy(), sub["high"].to_numpy() - y])
        three = m.count("-vs-") == 2
        label = f"{o} (3-player)" if three else f"{o} vs {m.split('-vs-')[1]}"
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, linestyle="--" if three else "-", label=label)
    ax.set_xlabel("round of best response (0: the starting strategies)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.axhline(0.5, color="grey", linestyle=":")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("tuning trajectory: the matrix after each round")
    return ax


def plot_equilibrium(iterations: pl.DataFrame, ax, villains=("A", "B"), title: str = ""):
    """An equilibrium's search by iteration (a frame of
    :attr:`simlab.studies.equilibrium.EquilibriumResult.iterations`): the table's value (the first villain's score,
    left axis) and each side's best-response gain against its mixture with its 95% interval (right axis, points)."""
    it = iterations["iteration"].to_numpy()
    ax.plot(it, iterations["table_value"].to_numpy() * 100, "o-", color="black", label=f"value ({villains[0]}'s score)")
    ax.set_ylabel(f"{villains[0]}'s score at the equilibrium (%)")
    ax.set_xlabel("iteration")
    ax.set_xticks(it)
    gains = ax.twinx()
    for side, villain, colour in (("a", villains[0], "tab:blue"), ("b", villains[1], "tab:red")):
        g = iterations[f"gain_{side}"].to_numpy() * 100
        low = iterations[f"gain_{side}_low"].to_numpy() * 100
        high = iterations[f"gain_{side}_high"].to_numpy() * 100
        gains.errorbar(
            it, g, yerr=error_bars(g, low, high), fmt="s--", color=colour, capsize=3, label=f"{villain}'s gain"
        )
    gains.axhline(0, color="grey", lw=0.8)
    gains.set_ylabel("best response's gain over its mixture (points, 95%)")
    handles = ax.get_legend_handles_labels()[0] + gains.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], fontsize=8, loc="best")
    ax.set_title(title or "value and exploitability by iteration")
    return ax


def plot_fix(table: pl.DataFrame, ax, band=(0.45, 0.55), adaptation: pl.DataFrame | None = None, title: str = ""):
    """Each matchup's villains before and after a fix (one rank of :func:`simlab.studies.fix.fix`'s table), and
    after adaptation when ``adaptation`` is given, as shares (win rate times players/2: the fair share is 50% in
    every game) with 95% intervals, the band shaded."""
    y = np.arange(table.height)
    scale = table["players"].to_numpy() / 2
    labels = [f"{v}\n({m.replace('-vs-', ' v ')})" for m, v in zip(table["matchup"], table["villain"], strict=True)]
    ax.axvspan(band[0], band[1], color="tab:green", alpha=0.15, label=f"band {band[0]:.0%}-{band[1]:.0%}")
    series = [("before", "tab:gray", "o", table, -0.2), ("after", "tab:blue", "s", table, 0.0)]
    if adaptation is not None and adaptation.height:
        series.append(("adapted", "tab:orange", "^", adaptation, 0.2))
    for col, colour, marker, frame, shift in series:
        x = frame[col].to_numpy() * scale
        err = error_bars(x, frame[f"{col}_low"].to_numpy() * scale, frame[f"{col}_high"].to_numpy() * scale)
        ax.errorbar(x, y + shift, xerr=err, fmt=marker, color=colour, capsize=2, label=col)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0.5, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel("share: win rate x players / 2 (fair = 50%), 95% intervals")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    ax.set_title(title or "matchups before and after the fix")
    return ax
