"""Logs as people keep them: common headers (player 1/2 villain, P1, first player, who went first, starting
player) and printed names are read, the mapping is stated in one line, only what stays ambiguous is refused; the
calibration plot of a handful of games is points with intervals, no lines, the legend outside the data."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.errors import InputError
from simlab.studies.calibration import read_log

ISSUE_LOG = """Date,Player 1 villain,Player 2 villain,Winner,Who went first
2026-01-02,The Horned King,Gaston,Gaston,Player 2
2026-01-03,Lady Tremaine,Gaston,Lady Tremaine,Lady Tremaine
2026-01-04,Gaston,The Horned King,The Horned King,P1
2026-01-05,Lady Tremaine,The Horned King,Lady Tremaine,
"""


def write(tmp_path, text: str, name: str = "log.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_issue_log_is_read_and_its_mapping_stated(tmp_path):
    log = read_log(write(tmp_path, ISSUE_LOG))
    games = log.games.sort("line")
    assert games.height == 4
    # "Player 2" and "P1" name the player's column: that villain went first
    assert games["villains"].to_list()[0] == ["gaston", "horned-king"] and games["winner"][0] == "gaston"
    assert games["villains"].to_list()[2] == ["gaston", "horned-king"] and games["winner_pos"][2] == 1
    assert games["first_known"].to_list() == [True, True, True, False]
    line = log.columns
    assert "\n" not in line
    assert "player 1 villain, player 2 villain -> the villains" in line.lower()
    assert "who went first -> who went first" in line.lower() and "ignored: date" in line.lower()


@pytest.mark.parametrize(
    "header, row",
    [
        ("P1,P2,Winner,First player", "The Horned King,Gaston,The Horned King,Gaston"),
        ("Player 1,Player 2,Won by,Starting player", "horned-king,gaston,horned-king,gaston"),
        ("Villain A,Villain B,Victor,Who went first", "The Horned King,Gaston,The Horned King,P2"),
        ("Seat 1 villain,Seat 2 villain,Winner", "Gaston,The Horned King,The Horned King"),
    ],
)
def test_common_headers_and_printed_names(tmp_path, header, row):
    log = read_log(write(tmp_path, f"{header}\n{row}\n"))
    game = log.games.row(0, named=True)
    assert game["villains"] == ["gaston", "horned-king"] and game["winner"] == "horned-king"
    assert game["first_known"]


@pytest.mark.parametrize(
    "header, row, message",
    [
        (
            "P1,P2,Winner,First,Who went first",
            "gaston,horned-king,gaston,gaston,gaston",
            "'first' and 'who_went_first'",
        ),
        ("Villains,Player 1,Player 2,Winner", "gaston;horned-king,gaston,horned-king,gaston", "both name the villains"),
    ],
)
def test_only_what_stays_ambiguous_is_refused(tmp_path, header, row, message):
    with pytest.raises(InputError, match=message):
        read_log(write(tmp_path, f"{header}\n{row}\n"))
    res = CliRunner().invoke(app, ["calibrate", "--games", str(tmp_path / "log.csv"), "-n", "4"])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_the_command_states_the_mapping_and_plots_points(tmp_path):
    png = tmp_path / "cal.png"
    args = ["calibrate", "--games", str(write(tmp_path, ISSUE_LOG)), "-n", "8", "--levels", "novice,expert"]
    res = CliRunner().invoke(app, [*args, "--threads", "1", "--max-turns", "30", "--png", str(png)])
    assert res.exit_code == 0, res.output
    lines = [x for x in res.stdout.splitlines() if x.startswith("columns read: ")]
    assert len(lines) == 1
    assert png.stat().st_size > 10_000


def test_the_calibration_plot_has_points_not_lines_and_its_legend_outside():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import polars as pl

    from simlab.report.plots import plot_calibration

    rows = [
        {
            "model": m,
            "entries": k,
            "wins": w,
            "predicted": p,
            "observed": w / k,
            "observed_low": 0.0,
            "observed_high": 1.0,
        }
        for m in ("novice", "expert")
        for k, w, p in ((3, 1, 0.25), (4, 3, 0.55), (5, 5, 0.85))
    ]
    fig, ax = plt.subplots(figsize=(9, 5))
    plot_calibration(pl.DataFrame(rows), ax)
    fig.canvas.draw()
    data_lines = [c.lines[0] for c in ax.containers]
    assert len(data_lines) == 2 and all(line.get_linestyle() == "None" for line in data_lines)
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the axes: never over a point
    assert {t.get_text() for t in ax.texts} == {"3", "4", "5"}  # the entries beside each point
    plt.close(fig)
