"""Observational card impact: the interval method, and the table it gives (reproducible bit for bit)."""

from __future__ import annotations

import polars as pl
import pytest

from simlab.studies.impact import newcombe, observational


def test_newcombe_interval_known_value():
    # Newcombe (1998), method 10, example (a): 56/70 vs 48/80 -> 0.0524 to 0.3339
    lo, hi = newcombe(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_observational_table_covers_the_villain_deck_and_is_reproducible():
    a = observational("horned-king", 150, seed=3, threads=2)
    b = observational("horned-king", 150, seed=3, threads=1)
    assert a.equals(b)
    assert a.height == 13  # distinct cards in the Horned King's Villain deck
    assert (a["games"] == 300).all()  # 150 games against each of the two others
    for r in a.iter_rows(named=True):
        assert 0 <= r["played_share"] <= r["drawn_share"] <= 1
    # a card played in some games and not in others: its difference and interval are those of its counts
    some = a.filter(pl.col("played_diff").is_not_null())
    assert some.height >= 10
    for r in some.iter_rows(named=True):
        n1 = round(r["played_share"] * r["games"])
        n2 = r["games"] - n1
        k1, k2 = round(r["win_if_played"] * n1), round(r["win_if_not_played"] * n2)
        assert r["played_diff"] == pytest.approx(k1 / n1 - k2 / n2), r
        assert (r["played_diff_low"], r["played_diff_high"]) == pytest.approx(newcombe(k1, n1, k2, n2)), r


def test_unknown_villain_is_refused():
    from simlab.errors import InputError

    with pytest.raises(InputError, match="choose from gaston, lady-tremaine, horned-king"):
        observational("jafar", 10)
