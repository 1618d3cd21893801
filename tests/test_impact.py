"""Observational card impact: the interval method, and the table it gives (reproducible bit for bit)."""

from __future__ import annotations

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
        if r["played_diff"] is not None and r["played_diff_low"] is not None:
            assert r["played_diff_low"] <= r["played_diff"] <= r["played_diff_high"]


def test_unknown_villain_is_refused():
    from simlab.errors import InputError

    with pytest.raises(InputError, match="choose from gaston, lady-tremaine, horned-king"):
        observational("jafar", 10)
