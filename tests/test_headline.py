"""The designer's headline: verdicts from intervals and a band, and the skill trace by level."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from typer.testing import CliRunner

from simlab.cli import app
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


# ---------------------------------------------------------------------------- the strong level, from a mixture file

EQ_FILE = """matchup = "gaston-vs-horned-king"
[[strategy]]
villain = "gaston"
weight = 1.0
name = "g-expert"
base = "expert"
[[strategy]]
villain = "horned-king"
weight = 1.0
name = "hk-novice"
base = "novice"
[provenance]
value = 0.216
value_low = 0.208
value_high = 0.224
exploitability = 0.013
"""


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    import strategies.mixture as M

    (tmp_path / "gaston-vs-horned-king.toml").write_text(EQ_FILE)
    monkeypatch.setattr(M, "MIXTURE_DIRS", (tmp_path,))
    return tmp_path


@pytest.fixture
def none_shipped(tmp_path, monkeypatch):
    import strategies.mixture as M

    monkeypatch.setattr(M, "MIXTURE_DIRS", (tmp_path / "empty",))


def test_the_headline_reads_strong_play_where_a_mixture_is_shipped(shipped):
    from simlab.studies.headline import headline_view, strong_note

    res = headline(["gaston-vs-horned-king", "gaston-vs-lady-tremaine"], levels=("novice", "strong"), games=60)
    rows = {r["matchup"]: r for r in res.table.iter_rows(named=True)}
    ghk, glt = rows["gaston-vs-horned-king"], rows["gaston-vs-lady-tremaine"]
    assert ghk["strong_rate"] is not None and ghk["exploitability"] == 0.013
    assert glt["strong_rate"] is None and glt["strong_verdict"] == "not measured"
    note = "No equilibrium is shipped for gaston-vs-lady-tremaine: its strong-play columns are blank."
    assert strong_note(res) == note
    view = {r["matchup"]: r for r in headline_view(res.table).iter_rows(named=True)}
    assert view["gaston-vs-horned-king"]["exploitability"] == "1.3%"
    assert view["gaston-vs-lady-tremaine"]["at strong play [95%]"] == ""
    assert re.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", view["gaston-vs-horned-king"]["at strong play [95%]"])


def test_without_shipped_mixtures_the_strong_columns_are_blank_and_said_so(none_shipped):
    from simlab.studies.headline import strong_note

    res = headline(["gaston-vs-horned-king"], levels=("novice", "strong"), games=40)
    assert res.table["strong_rate"].to_list() == [None] and res.trace["level"].to_list() == ["novice"]
    assert strong_note(res).startswith("No equilibrium is shipped here")


def test_run_says_which_level_played_and_where_strong_play_stands(shipped, tmp_path, monkeypatch):
    import simlab.studies.generations as G
    from simlab.studies.headline import level_line

    monkeypatch.setattr(G, "LEARNING", tmp_path / "no-run")  # no learning run: strong play alone
    line = level_line(("gaston", "horned-king"), None)
    assert line == (
        "expert play; against horned-king, gaston wins 21.6% [20.8, 22.4] at strong play "
        "(the equilibrium's own value games, gaston-vs-horned-king.toml)"
    )
    assert level_line(("horned-king", "gaston"), "tuned").startswith(
        "tuned play; against gaston, horned-king wins 78.4% [77.6, 79.2] at strong play"
    )
    assert level_line(("gaston", "lady-tremaine"), "novice", {"gaston": "gaston-rush"}) == (
        "novice play (gaston: gaston-rush); no strong-play value is shipped for gaston-vs-lady-tremaine "
        "(simlab equilibrium makes one)"
    )
    assert level_line(("gaston", "horned-king", "lady-tremaine"), "expert") == "expert play"
    out = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "20"])
    assert out.exit_code == 0, out.output
    said = out.output.find("expert play; against horned-king, gaston wins 21.6% [20.8, 22.4] at strong play")
    assert 0 <= said < out.output.index("gaston-vs-horned-king: 20 games")  # one line, before the tables
    out = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "20", "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["matchup"] == "gaston-vs-horned-king"


def test_run_reads_the_top_rung_first_once_settled_and_only_in_the_shipped_game(shipped, tmp_path, monkeypatch):
    """The front door's level line says what the headline says: the learning run's top rung beside strong play,
    first once settled; with other rules or a turn cap the shipped values are not quoted."""
    import simlab.studies.generations as G
    from simlab.studies.headline import headline, level_line

    res = headline(["gaston-vs-horned-king"], levels=("novice",), games=10, learning=True)
    top = res.table.row(0, named=True)
    at_top = f"{top['top_rate']:.1%} [{100 * top['top_low']:.1f}, {100 * top['top_high']:.1f}] at the top rung"
    line = level_line(("gaston", "horned-king"), None)
    assert res.settled and line.startswith(f"expert play; against horned-king, gaston wins {at_top} (search g")
    assert line.index("at the top rung (") < line.index("21.6% [20.8, 22.4] at strong play")
    flipped = level_line(("horned-king", "gaston"), None)
    assert f"{1 - top['top_rate']:.1%} [{100 * (1 - top['top_high']):.1f}, " in flipped
    folder = tmp_path / "learning"  # a run whose top is still moving: strong play first
    shutil.copytree(G.LEARNING, folder)
    (folder / "verdict.json").write_text(
        json.dumps({"top": 6, "settled": False, "verdict": "still moving (±5.0 points)"})
    )
    monkeypatch.setattr(G, "LEARNING", folder)
    line = level_line(("gaston", "horned-king"), None)
    assert line.index("at strong play") < line.index("at the top rung (search g6, still moving (±5.0 points))")
    for given in (["--rules", "get_out=exactly_three"], ["--max-turns", "60"]):
        out = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "20", *given])
        assert out.exit_code == 0, out.output
        assert "values are of the default rules, so not quoted" in out.output and "at strong play" not in out.output
    out = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "20", "--rules", "get_out=up_to_three"])
    assert "at the top rung (search g6" in " ".join(out.output.split())  # the default reading given: shipped game


def test_a_search_probe_past_epsilon_marks_the_strong_verdict(tmp_path, monkeypatch):
    import strategies.mixture as M
    from simlab.studies.headline import headline_view, strong_note

    probe = """[provenance.options]
epsilon = 0.02
[provenance.search_probe]
search = "search"
[provenance.search_probe.villains.gaston]
gain = 0.30
gain_low = 0.20
[provenance.search_probe.villains.horned-king]
gain = 0.01
gain_low = -0.05
"""
    (tmp_path / "gaston-vs-horned-king.toml").write_text(EQ_FILE + probe)
    monkeypatch.setattr(M, "MIXTURE_DIRS", (tmp_path,))
    res = headline(["gaston-vs-horned-king"], levels=("novice", "strong"), games=40)
    row = res.table.row(0, named=True)
    assert row["search_gain"] == 0.30
    assert row["strong_verdict"].endswith("; not converged at search level")
    assert headline_view(res.table).row(0, named=True)["search player's gain"] == "+30.0%"
    assert "not converged at search level" in strong_note(res)
    # within epsilon on both sides: the verdict stands alone
    (tmp_path / "gaston-vs-horned-king.toml").write_text(EQ_FILE + probe.replace("gain_low = 0.20", "gain_low = 0.01"))
    row = headline(["gaston-vs-horned-king"], levels=("novice", "strong"), games=40).table.row(0, named=True)
    assert "search level" not in row["strong_verdict"]
