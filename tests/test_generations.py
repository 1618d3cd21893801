"""The learning run's generations as the top rungs of the skill trace (simlab.studies.generations): read from the
run's own files, turned to the trace's order of a matchup, with one word for the top, and shown by the headline
(table, 3-player trace, plot) without playing the search level again."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import polars as pl
import pytest

from simlab.errors import InputError
from simlab.studies import generations as G
from simlab.studies.headline import headline

matplotlib.use("Agg")
THREE = "gaston-vs-lady-tremaine-vs-horned-king"


def values(gl: float, ghk: float, lthk: float, shares=(0.3, 0.5, 0.2), half=0.03, games=400) -> list[dict]:
    """A generation's play.json values, as matchup_values writes them (pairings in the villains' order)."""
    two = [("gaston-vs-lady-tremaine", "gaston", gl), ("gaston-vs-horned-king", "gaston", ghk)]
    two += [("lady-tremaine-vs-horned-king", "lady-tremaine", lthk)]
    three = [(THREE, v, s) for v, s in zip(("gaston", "lady-tremaine", "horned-king"), shares, strict=True)]
    return [
        {"matchup": m, "villain": v, "value": x, "low": x - half, "high": x + half, "games": games}
        for m, v, x in two + three
    ]


def write(path: Path, doc) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


@pytest.fixture
def run_of_two(tmp_path) -> Path:
    """A learning run with generations 0 and 1 played, generation 1 accepted with small gains, no verdict yet."""
    folder = tmp_path / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    write(folder / "g1" / "play.json", {"values": values(0.26, 0.56, 0.69)})
    gains = {v: {"gain": 0.01, "low": -0.01, "high": 0.03} for v in ("gaston", "lady-tremaine", "horned-king")}
    write(folder / "g1" / "accept-1.json", {"accepted": True, "gains": gains})
    write(folder / "g1" / "accept.json", {"accepted": False, "gains": {}})
    return folder


def test_each_played_generation_is_a_rung_with_its_own_values(run_of_two):
    rungs = G.read_rungs(run_of_two)
    assert rungs.top == 1 and rungs.top_level == "search g1" and rungs.under_way
    assert rungs.trace["level"].unique(maintain_order=True).to_list() == ["search g0", "search g1"]
    row = rungs.trace.filter((pl.col("level") == "search g1") & (pl.col("matchup") == "gaston-vs-horned-king"))
    assert row.select("rate", "low", "high", "games").row(0) == pytest.approx((0.56, 0.53, 0.59, 400))
    # the accepted retry's gains and moves within 2 points plus both half-widths: the rule says settled
    assert rungs.settled and rungs.verdict == "settled"


def test_the_run_verdict_is_read_once_written_and_a_move_keeps_its_size(run_of_two):
    write(run_of_two / "verdict.json", {"top": 1, "settled": False, "verdict": "still moving (±7.5 points); x"})
    rungs = G.read_rungs(run_of_two)
    assert not rungs.settled and rungs.verdict == "still moving (±7.5 points)" and not rungs.under_way


def test_a_large_move_between_the_top_two_generations_is_still_moving(run_of_two):
    write(run_of_two / "g1" / "play.json", {"values": values(0.36, 0.56, 0.69)})
    rungs = G.read_rungs(run_of_two)
    assert not rungs.settled and rungs.verdict == "still moving (±11.0 points)"


def test_the_other_order_of_a_pairing_is_the_complement(run_of_two):
    rungs = G.read_rungs(run_of_two)
    got = G.oriented(rungs, "horned-king-vs-gaston").filter(pl.col("level") == "search g0")
    assert got["villain"].to_list() == ["horned-king"]
    assert got.select("rate", "low", "high").row(0) == pytest.approx((0.45, 0.42, 0.48))
    three = G.oriented(rungs, THREE).filter(pl.col("level") == "search g1")
    assert three["rate"].to_list() == pytest.approx([0.3, 0.5, 0.2])


def test_without_a_run_there_are_no_rungs(tmp_path):
    assert G.read_rungs(tmp_path / "nothing") is None


def test_generation_0_alone_is_still_moving_by_its_move_from_the_rung_below(tmp_path):
    folder = tmp_path / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    rungs = G.read_rungs(folder)
    assert rungs.top == 0 and not rungs.settled and rungs.verdict == "still moving"
    trace = pl.DataFrame(
        {
            "matchup": ["gaston-vs-horned-king"] * 2,
            "villain": ["gaston"] * 2,
            "level": ["strong", "search g0"],
            "rate": [0.487, 0.55],
        }
    )
    assert G.top_word(rungs, trace) == "still moving (±6.3 points)"


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run") / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    return headline(["gaston-vs-horned-king"], levels=("novice",), games=30, seed=5, three_player=True, learning=folder)


def test_the_headline_puts_the_generations_above_the_played_levels(shown):
    trace = shown.trace
    two = trace.filter(pl.col("matchup") == "gaston-vs-horned-king")
    assert two["level"].to_list() == ["novice", "search g0"]
    three = trace.filter(pl.col("matchup") == THREE)
    assert three["level"].to_list() == ["novice"] * 3 + ["search g0"] * 3
    novice = three.filter(pl.col("level") == "novice")
    assert novice["villain"].to_list() == ["gaston", "lady-tremaine", "horned-king"]
    assert (novice["games"] == 30).all() and novice["rate"].sum() <= 1.0 + 1e-12
    row = shown.table.row(0, named=True)
    assert (row["top_level"], row["top_rate"]) == ("search g0", pytest.approx(0.55))
    assert row["top_verdict"] == "gaston leans +5 pts"
    # the largest move of any row from the rung below, the 3-player shares included
    below = trace.filter(pl.col("level") == "novice")["rate"].to_numpy()
    top = trace.filter(pl.col("level") == "search g0")["rate"].to_numpy()
    moved = max(abs(top - below))
    assert shown.top == f"search g0: still moving (±{100 * moved:.1f} points)"


def test_the_headline_carries_whether_the_top_rung_is_settled(shown, run_of_two):
    from simlab.studies.headline import top_settled

    assert not shown.settled and not top_settled(shown)  # generation 0 alone: still moving
    res = headline(["gaston-vs-horned-king"], levels=("novice",), games=10, seed=5, learning=run_of_two)
    assert res.top == "search g1: settled" and res.settled and top_settled(res)
    write(run_of_two / "verdict.json", {"top": 1, "settled": False, "verdict": "settled"})  # a word by hand
    res = headline(["gaston-vs-horned-king"], levels=("novice",), games=10, seed=5, learning=run_of_two)
    assert not res.settled and not top_settled(res)  # the run's flag, not its word


def test_the_headline_plays_no_generation_under_other_rules(tmp_path):
    folder = tmp_path / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    res = headline(
        ["gaston-vs-horned-king"],
        levels=("novice",),
        games=10,
        seed=5,
        variants={"unprinted_activation_cost": 2},
        learning=folder,
    )
    assert res.trace["level"].to_list() == ["novice"] and res.top is None


def test_the_headline_prints_both_traces_and_the_top_word_in_80_columns(shown, capsys, monkeypatch):
    from simlab.report import render

    monkeypatch.setattr(render, "console", render.Console(width=80, force_terminal=False))
    render.print_headline(shown, "note")
    out = capsys.readouterr().out
    assert "each villain's share of the 3-player game" in out and "top rung search g0: still moving" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "at search g0 gaston leans +5 pts" in out


def test_the_3_player_trace_plots_a_line_per_villain(shown):
    import matplotlib.pyplot as plt

    from simlab.report.plots import plot_skill_trace

    fig, ax = plt.subplots()
    plot_skill_trace(shown.trace.filter(pl.col("matchup") == THREE), ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"gaston", "lady-tremaine", "horned-king"} <= set(labels)
    assert [" ".join(t.get_text().split("\n")[:-1]) for t in ax.get_xticklabels()] == ["novice", "search g0"]
    plt.close(fig)


def test_the_trace_of_every_rung_up_to_a_late_generation_has_tick_labels_apart():
    """The report draws a trace 7 inches wide: at 9 rungs, no level's name may run into its neighbour's."""
    import matplotlib.pyplot as plt

    from simlab.report.plots import plot_skill_trace

    levels = ["novice", "expert", "tuned", "strong", *(f"search g{k}" for k in (0, 1, 3, 4, 6)), "search g12"]
    trace = pl.DataFrame(
        {
            "matchup": "gaston-vs-horned-king",
            "villain": "gaston",
            "level": levels,
            "games": [2000] * 4 + [400] * 6,
            "rate": 0.5,
            "low": 0.45,
            "high": 0.55,
        }
    )
    fig, ax = plt.subplots(figsize=(7, 3.0))  # as the report draws it (write_plot): the legend outside the axes
    plot_skill_trace(trace, ax)
    fig.tight_layout()
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in ax.get_xticklabels()]
    assert len(boxes) == len(levels) and all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:], strict=False))
    plt.close(fig)


# ---------------------------------------------------------------------------- a generation as a calibration model


def test_a_generation_plays_its_own_search_file_and_generation_0_the_search_player(run_of_two):
    got = G.rung_strategies("search-g1", ("gaston", "horned-king"), run_of_two)
    assert got == dict.fromkeys(("gaston", "horned-king"), str(run_of_two / "g1" / "search.toml"))
    assert G.rung_strategies("Search G0", ("gaston",), run_of_two) == {"gaston": "search"}
    with pytest.raises(InputError, match=r"no generation 2 in the learning run .*; generations: search g0, search g1"):
        G.rung_strategies("search-g2", ("gaston",), run_of_two)
    assert not G.is_rung("search") and not G.is_rung("search-gx") and G.is_rung("search-g12")


def test_calibrate_names_a_generation_model_by_its_rung_and_refuses_one_not_learned():
    from simlab.studies.calibration.predictions import predict_runs

    levels, *_ = predict_runs([("gaston", "horned-king")], ["novice", "search-g0"], None, 2, 60)
    assert levels == ["novice", "search g0"]
    with pytest.raises(InputError, match="no generation 40 in the learning run reports/learning; generations: "):
        predict_runs([("gaston", "horned-king")], ["search-g40"], None, 2, 60)


# ---------------------------------------------------------------------------- the top generation as a level


def test_the_top_generation_ships_as_the_learned_level_and_plays(tmp_path, monkeypatch):
    import shutil

    import strategies
    from simlab.runs.levels import Level, available_levels
    from simlab.runs.sim import run
    from simlab.studies.generations import ship

    folder = tmp_path / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    write(folder / "g1" / "play.json", {"values": values(0.26, 0.56, 0.69)})
    write(folder / "g1" / "accept.json", {"accepted": True, "gains": {}})
    (folder / "g1" / "search.toml").write_text(
        'name = "search-g1"\nbase = "search"\nvalue_model = "value.json"\n[params]\nsamples = 2\nhorizon = 1\n'
        "halving = 0\nscreen = 0\nvalue = 2\n[provenance]\ngeneration = 1\n"
    )
    shutil.copy(Path(__file__).parents[1] / "reports" / "learning" / "g1" / "value.json", folder / "g1")
    configs = tmp_path / "configs"
    monkeypatch.setattr(strategies, "CONFIG_DIRS", (configs,))
    with pytest.raises(InputError, match="level 'learned' needs configs/strategies/learned.toml"):
        Level("learned").strategy("gaston")
    assert "learned" not in available_levels()
    written = ship(folder, configs)
    assert [p.name for p in written] == ["learned.toml", "learned-value.json"]
    spec = Level("learned").spec("gaston")
    assert spec.name == "learned" and spec.value_model == str(configs / "learned-value.json")
    assert "learned" in available_levels() and Level("learned").is_search
    from simlab.runs.settings import RunSettings

    res = run("gaston-vs-horned-king", RunSettings(2, 1, level="learned"))
    assert res.summary["games"][0] == 2


def test_the_shipped_learned_level_is_the_shipped_runs_top_as_it_stands(tmp_path):
    """configs/strategies/learned.toml and its model are what shipping reports/learning writes today, byte for byte:
    a run resumed past its last shipping (a fixed point that settled it, a climb) leaves no stale generation or
    verdict in the level a designer plays and reads."""
    from simlab.studies.generations import ship
    from strategies import CONFIG_DIRS

    for written in ship(G.LEARNING, tmp_path):
        shipped = CONFIG_DIRS[-1] / written.name
        assert shipped.read_bytes() == written.read_bytes(), (
            f"{shipped} is not the shipped run's top as it stands: run simlab learn reports/learning --ship"
        )
    verdict = json.loads((G.LEARNING / "verdict.json").read_text())["verdict"]
    assert f"shipped_verdict = {json.dumps(verdict)}" in (tmp_path / "learned.toml").read_text()


def test_a_run_without_an_accepted_generation_ships_nothing(tmp_path):
    from simlab.studies.generations import ship

    folder = tmp_path / "learning"
    write(folder / "g0" / "play.json", {"values": values(0.25, 0.55, 0.70)})
    with pytest.raises(InputError, match="no generation above 0 was accepted"):
        ship(folder, tmp_path / "configs")


def test_learn_ship_plays_nothing_and_names_what_it_wrote(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from simlab.cli import app
    from simlab.studies import expert_iteration as E
    from simlab.studies import generations

    shipped = []
    monkeypatch.setattr(generations, "ship", lambda folder: shipped.append(folder) or [tmp_path / "learned.toml"])
    monkeypatch.setattr(E, "learn", lambda *a, **k: pytest.fail("--ship plays no game"))
    res = CliRunner().invoke(app, ["learn", str(tmp_path / "run"), "--ship"])
    assert res.exit_code == 0, res.output
    assert shipped == [str(tmp_path / "run")] and "shipped as the 'learned' level" in res.output
    monkeypatch.undo()
    bad = CliRunner().invoke(app, ["learn", str(tmp_path / "nothing"), "--ship"])
    assert bad.exit_code == 2 and "no generation above 0 was accepted" in bad.output


def verdicts_doc(run: Path, generation: int, variants=None, learned=True) -> dict:
    """A ``simlab difficulty --json`` document of the learned level (and novice), as the top rung's verdicts."""

    def row(levels, group, verdict):
        pair = {"villain_a": "gaston", "villain_b": "horned-king", "measure": "strength", "group": group}
        said = {"question": "is Gaston stronger than the Horned King?", "label": "holds", "verdict": verdict}
        return pair | said | {"levels": levels, "settings": 1, "min_abs_z": 2.5}

    settings = {"games": 600, "search_games": 100, "levels": ["novice", "learned"], "variants": variants or {}}
    settings |= {"edits": [], "max_turns": 100}
    if learned:
        settings["learned"] = {"learning_run": str(run), "shipped_generation": generation}
    rows = [row("learned", "strong play", "holds: at the top"), row("novice", "new players", "holds: new")]
    return {"settings": settings, "tables": {"verdicts": rows}}


def test_the_top_rungs_verdicts_are_read_only_from_a_run_of_that_settled_top(run_of_two, tmp_path):
    write(run_of_two / "verdict.json", {"top": 1, "settled": True, "verdict": "settled"})
    rungs, path = G.read_rungs(run_of_two), tmp_path / "difficulty.json"
    write(path, verdicts_doc(run_of_two, 1))
    got = G.top_rung_verdicts(rungs, path)
    assert got["verdict"].to_list() == ["holds: at the top"]  # the learned level's strong-play row alone
    assert got.select("group", "games").row(0) == ("top rung (search g1, settled)", 100)
    # the command that wrote the document, from its settings, so the report names what to run again
    said = "simlab difficulty --level novice --level learned --readings 0 -n 600 --search-games 100 --json"
    assert got["command"][0] == said
    doc = verdicts_doc(run_of_two, 1)
    doc["settings"]["readings"] = ["default", "board:Beast's Castle:fate=bottom"]
    write(path, doc)
    assert "--reading 'board:Beast'\"'\"'s Castle:fate=bottom' -n 600" in G.top_rung_verdicts(rungs, path)["command"][0]
    write(path, verdicts_doc(run_of_two, 1))
    for doc in (
        verdicts_doc(run_of_two, 0),  # another generation of the run
        verdicts_doc(tmp_path / "other", 1),  # another run
        verdicts_doc(run_of_two, 1, learned=False),  # a document that does not say which it played
        verdicts_doc(run_of_two, 1, {"get_out": "exactly_three"}),  # other rules
    ):
        write(path, doc)
        assert G.top_rung_verdicts(rungs, path) is None, doc["settings"]
    write(path, verdicts_doc(run_of_two, 1))
    write(run_of_two / "verdict.json", {"top": 1, "settled": False, "verdict": "still moving (±3.0 points)"})
    assert G.top_rung_verdicts(G.read_rungs(run_of_two), path) is None  # a top still moving is not read first
