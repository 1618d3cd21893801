"""Card impact, observational: how a villain's win rate differs between games where a card was drawn (or
played) and games where it was not.

These numbers are biased by selection: a card is drawn more often in longer games and played more often
from winning positions, so a difference here is an association, not the card's effect. The causal number
(the same games replayed without the card, issue 5's ablation) is separate.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from simlab.cards import VILLAIN_KEYS
from simlab.game import check_villain
from simlab.rules import DEFAULT_MAX_TURNS
from simlab.sim import card_flags, run
from simlab.stats import wilson


def newcombe(k1, n1, k2, n2) -> tuple[float, float]:
    """95% interval for p1 - p2 of two independent proportions (Newcombe's hybrid score method)."""
    p1, p2 = k1 / n1 if n1 else np.nan, k2 / n2 if n2 else np.nan
    l1, u1 = (float(x) for x in wilson(k1, n1))
    l2, u2 = (float(x) for x in wilson(k2, n2))
    d = p1 - p2
    return d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def observational(
    villain: str,
    n_games: int,
    seed: int = 0,
    strategies: dict[str, str] | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
) -> pl.DataFrame:
    """Per card of ``villain``: drawn and played shares, win rate when drawn vs not and played vs not, the
    differences with 95% intervals. ``n_games`` games against each other villain, seats rotated."""
    check_villain(villain)
    obs = []
    with tempfile.TemporaryDirectory() as tmp:
        for other in VILLAIN_KEYS:
            if other == villain:
                continue
            m = f"{villain}-vs-{other}"
            path = Path(tmp) / f"{m}.parquet"
            plays = {v: s for v, s in (strategies or {}).items() if v in (villain, other)}
            run(m, n_games, seed, plays, variants, max_turns, threads, out=path, keep_games=False)
            games = pl.read_parquet(path, columns=["game", "winner_seat"])
            per = (
                card_flags(path)
                .filter((pl.col("villain") == villain) & (pl.col("instance") < 30))  # the Villain deck
                .group_by("game", "seat", "card")
                .agg(pl.col("drawn").any(), pl.col("played").any())
                .join(games, on="game")
                .with_columns(won=pl.col("winner_seat") == pl.col("seat"), opponent=pl.lit(other))
            )
            obs.append(per)
    per = pl.concat(obs)
    rows = []
    for card, sub in per.group_by("card", maintain_order=True):
        n = sub.height
        row = {"card": card[0], "games": n}
        for what in ("drawn", "played"):
            yes = sub.filter(pl.col(what))
            no = sub.filter(~pl.col(what))
            k1, n1, k2, n2 = int(yes["won"].sum()), yes.height, int(no["won"].sum()), no.height
            lo, hi = newcombe(k1, n1, k2, n2)
            row |= {
                f"{what}_share": n1 / n,
                f"win_if_{what}": k1 / n1 if n1 else float("nan"),
                f"win_if_not_{what}": k2 / n2 if n2 else float("nan"),
                f"{what}_diff": (k1 / n1 if n1 else np.nan) - (k2 / n2 if n2 else np.nan),
                f"{what}_diff_low": float(lo),
                f"{what}_diff_high": float(hi),
            }
        rows.append(row)
    out = pl.DataFrame(rows)
    return out.with_columns(pl.col(pl.Float64).fill_nan(None)).sort("played_diff", descending=True, nulls_last=True)
