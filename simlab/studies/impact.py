"""Card impact, observational: how a villain's win rate differs between games where a card was drawn (or
played) and games where it was not.

These numbers are biased by selection: a card is drawn more often in longer games and played more often
from winning positions, so a difference here is an association, not the card's effect.

Card impact, causal (:func:`ablation`): the same games (same seeds) replayed with the card ablated, and the
paired change in win rate.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS, load_cards
from simlab.data.edits import CardEdit
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sim import card_flags, run
from simlab.runs.stats import wilson
from simlab.studies.whatif import paired_effect, winner_indices


def newcombe(k1, n1, k2, n2) -> tuple[float, float]:
    """95% interval for p1 - p2 of two independent proportions (Newcombe's hybrid score method)."""
    p1, p2 = k1 / n1 if n1 else np.nan, k2 / n2 if n2 else np.nan
    l1, u1 = (float(x) for x in wilson(k1, n1))
    l2, u2 = (float(x) for x in wilson(k2, n2))
    d = p1 - p2
    return d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def observational(
    villain: str, n_games: int | None = None, *, settings: RunSettings | None = None, **given
) -> pl.DataFrame:
    """Per card of ``villain``: drawn and played shares, win rate when drawn vs not and played vs not, the
    differences with 95% intervals. ``n_games`` games against each other villain, seats rotated.
    ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) say how."""
    check_villain(villain)
    settings = settings_from(settings, n_games=n_games, **given)
    obs = []
    with tempfile.TemporaryDirectory() as tmp:
        for other in VILLAIN_KEYS:
            if other == villain:
                continue
            m = f"{villain}-vs-{other}"
            path = Path(tmp) / f"{m}.parquet"
            run(m, out=path, keep_games=False, settings=settings)
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


# ============================================================================ causal: ablation on paired seeds


def deck_cards(villain: str, cards: list[str] | None = None) -> pl.DataFrame:
    """The distinct cards of ``villain``'s two decks (or only ``cards``, which must be among them): card, deck,
    type, copies, cost."""
    check_villain(villain)
    deck = pl.DataFrame(
        [
            {"card": c.name, "deck": c.deck, "type": c.type, "copies": c.copies, "cost": c.cost}
            for c in load_cards().cards
            if c.villain == villain
        ]
    )
    if cards is None:
        return deck
    unknown = [c for c in cards if c not in deck["card"].to_list()]
    if unknown:
        raise InputError(f"{unknown[0]!r} is not a card of {villain}; choose from {', '.join(deck['card'].to_list())}")
    return deck.filter(pl.col("card").is_in(cards))


def ablation(
    villain: str,
    n_games: int | None = None,
    *,
    cards: list[str] | None = None,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """Causal card impact: per card of ``villain``'s decks (or ``cards``), the villain's win rate in the
    same games (same seeds, seats rotated, ``n_games`` against each other villain) with that card ablated
    (never played; see :mod:`simlab.data.edits`), and ``impact`` = win rate with the card - without it, with
    Newcombe's paired 95% interval. Positive: the card helps the villain (a Fate card with negative impact
    hurts the villain it is played against). ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and
    ``given`` (its fields as keywords) say how; their edits apply to every run, ablated or not."""
    check_villain(villain)
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, progress = settings.games, settings.progress
    deck = deck_cards(villain, cards)
    opponents = [v for v in VILLAIN_KEYS if v != villain]
    total = (deck.height + 1) * len(opponents)
    done = 0

    def wins(m, extra):
        nonlocal done
        w = winner_indices(m, settings=settings.replace(edits=settings.edits + extra) if extra else settings) == 0
        done += 1
        if progress is not None:
            progress(done * n_games, total * n_games)
        return w

    matchups = [f"{villain}-vs-{o}" for o in opponents]
    base = np.concatenate([wins(m, ()) for m in matchups]).astype(np.int8)
    rows = []
    for row in deck.iter_rows(named=True):
        ablated = np.concatenate([wins(m, (CardEdit(row["card"], "ablate", 1),)) for m in matchups]).astype(np.int8)
        rows.append(row | paired_effect(ablated, base))
    out = pl.DataFrame(rows).rename({"base_rate": "rate_without", "rate": "rate_with", "change": "impact"})
    return out.rename({"change_low": "impact_low", "change_high": "impact_high"}).sort("impact", descending=True)
