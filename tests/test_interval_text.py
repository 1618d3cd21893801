"""The one interval notation: ``52.1% [50.3, 53.9]``."""

from simlab.runs.stats import interval_text, pct_interval


def test_a_rate_and_its_interval():
    assert interval_text(0.521, 0.503, 0.539) == "52.1% [50.3, 53.9]"


def test_a_change_is_signed_at_both_ends():
    assert interval_text(0.021, -0.003, 0.039, "+") == "+2.1% [-0.3, +3.9]"


def test_decimals_grow_until_the_ends_differ():
    assert interval_text(0.7791, 0.7790, 0.7792) == "77.910% [77.900, 77.920]"
    assert pct_interval(0.7791, 0.7785, 0.7800) == ("77.91%", "77.85%", "78.00%")


def test_missing_rate_and_missing_interval():
    assert interval_text(float("nan"), 0.1, 0.2) == "-"
    assert interval_text(None, None, None) == "-"
    assert interval_text(0.5, None, float("nan")) == "50.0%"
