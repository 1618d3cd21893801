"""Good play has one name: the README, the commands' --help, the docs' levels page and every study point at the
same level, :data:`simlab.runs.levels.GOOD_PLAY`, with the skill trace beside it."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from simlab.cli import app
from simlab.runs.levels import GOOD_PLAY, LEVELS, good_play_level

ROOT = Path(__file__).resolve().parents[1]


def test_good_play_is_one_level_and_every_study_means_it():
    from simlab.studies.fix import default_level
    from simlab.studies.headline import TRACE_LEVELS
    from simlab.studies.robust import STRONG_PLAY, question_groups

    assert GOOD_PLAY == good_play_level() == "strong" and GOOD_PLAY in LEVELS
    assert STRONG_PLAY[0] == GOOD_PLAY  # the robust verdicts' "at strong play" group leads with it
    assert GOOD_PLAY in TRACE_LEVELS  # the headline's strong-play column and its skill trace
    assert question_groups(("novice", "expert", "tuned", GOOD_PLAY))[0] == ("strong play", ("tuned", GOOD_PLAY))
    # the learning run's top (the learned level) answers "at strong play?" too: alone, it is strong play
    assert question_groups(("novice", "learned")) == [("strong play", ("learned",)), ("new players", ("novice",))]
    assert default_level()[0] == GOOD_PLAY  # balance fixes at good play by default


def test_help_names_good_play():
    res = CliRunner().invoke(app, ["difficulty", "--help"], terminal_width=200)
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert f"good play: {GOOD_PLAY}" in text
    assert "good play: the strong level" in text.replace(f"the {GOOD_PLAY} level", "the strong level")


def test_readme_and_the_levels_page_say_good_play_by_the_generated_figure():
    from simlab.report.figures import FIG, figure

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    levels = (ROOT / "docs/strategies/levels.md").read_text(encoding="utf-8")
    assert "fig:good-play" in readme and "fig:levels" in levels
    for text in (readme, levels):
        for m in FIG.finditer(text):
            if m["key"] in ("good-play", "levels"):
                assert m["body"] == figure(m["key"]), m["key"]
    # no other level named for stronger or good play outside the figures
    outside = FIG.sub("", readme)
    assert not re.search(r"`--level (?!strong`)\w+` for (stronger|good) play", outside)
    assert "being built" not in FIG.sub("", levels)
