"""The designer's headline: verdicts from intervals and a band, and the skill trace by level."""

from __future__ import annotations

import pytest

from simlab.errors import InputError
from simlab.studies.headline import check_band, headline, verdict

PAIR = ("gaston", "horned-king")


@pytest.mark.parametrize(
    "rate, low, high, expected",
    [
        (0.50, 0.47, 0.53, "balanced"),
        (0.55, 0.451, 0.549, "balanced"),  # the interval, not the estimate, must lie in the band
        (0.75, 0.72, 0.78, "gaston favoured +25 pts"),
        (0.30, 0.27, 0.33, "horned-king favoured +20 pts"),
        (0.56, 0.53, 0.59, "gaston leans +6 pts"),  # reaches into the band
        (0.50, 0.40, 0.60, "gaston leans +0 pts"),  # too wide to say balanced
    ],
)
def test_verdicts(rate, low, high, expected):
    assert verdict(PAIR, rate, low, high) == expected


def test_a_band_must_hold_one_half():
    assert check_band((0.4, 0.6)) == (0.4, 0.6)
    for bad in ((0.5, 0.6), (0.45, 0.5), (-0.1, 0.6), (0.6, 0.4)):
        with pytest.raises(InputError, match="balance band"):
            check_band(bad)


def test_the_trace_measures_each_level_on_the_same_seeds():
    res = headline(["gaston-vs-horned-king"], levels=("novice", "expert"), games=200, seed=3)
    trace = res.trace
    assert trace["level"].to_list() == ["novice", "expert"]
    assert (trace["games"] == 200).all()
    assert ((trace["low"] <= trace["rate"]) & (trace["rate"] <= trace["high"])).all()
    row = res.table.row(0, named=True)
    novice = trace.row(0, named=True)
    assert row["new_players_rate"] == novice["rate"]
    assert row["new_players_verdict"] == verdict(PAIR, novice["rate"], novice["low"], novice["high"])
    assert row["strong_verdict"] == "not measured" and row["exploitability"] is None
    again = headline(["gaston-vs-horned-king"], levels=("novice", "expert"), games=200, seed=3)
    assert again.trace.equals(trace)
