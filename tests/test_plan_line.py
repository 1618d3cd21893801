"""A plan before long work: each command's workload (simlab.studies.workload) counts the games it then plays, the
plan line says the games, stages and time from the measured speed, and one bar follows every stage."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import simlab.cli.common as common
from simlab.cli import app
from simlab.cli.common import StagedProgress

runner = CliRunner()
M = ["-m", "gaston-vs-horned-king"]
FAST = ["--threads", "1", "--max-turns", "12"]


def test_the_bar_adds_up_parts_and_names_the_planned_stage():
    bar = StagedProgress(300, stages=[("gaston-vs-gaston", 100), ("gaston-vs-horned-king", 200)])
    bar.games(0, 100)
    bar.games(60, 100)
    assert bar.done == 60 and bar.stage == "stage 1 of 2: gaston-vs-gaston"
    bar.games(100, 100)
    bar.games(0, 100)  # the next run, under the same label, starts from 0
    bar.games(50, 100)
    assert bar.done == 150 and bar.stage == "stage 2 of 2: gaston-vs-horned-king"
    bar.named("validation", 30, 40)  # a part with a name of its own
    bar.tuning("tune gaston", 5, 10, 0.5, 0.4)
    assert bar.done == 185 and bar.stage.startswith("tune gaston (best so far 50.0%")
    bar.games(400, 400, "more")  # more than planned: the total grows with it
    assert bar.planned == bar.done == 585


@pytest.fixture
def recorded(monkeypatch):
    """Every plan a command makes: (workload, bar)."""
    import simlab.cli.calibrate
    import simlab.cli.cards
    import simlab.cli.play
    import simlab.cli.studies

    made = []
    real = common.plan

    def record(work, threads=None):
        bar = real(work, threads)
        made.append((work, bar))
        return bar

    for module in (common, simlab.cli.play, simlab.cli.cards, simlab.cli.studies, simlab.cli.calibrate):
        monkeypatch.setattr(module, "plan", record)
    return made


EXACT = {
    "run": ["run", *M, "-n", "30", *FAST],
    "matrix": ["matrix", "-n", "6", "--level", "novice", "--png", "PNG", *FAST],
    "sweep": ["sweep", *M, "--card", "Get Out!", "--attribute", "cost", "--values", "1..4", "-n", "8", "--png", "PNG"],
    "cards": ["cards", "--villain", "gaston", "-n", "4", "--card", "Get Out!", "--level", "novice", *FAST],
    "leverage": ["leverage", *M, "-n", "4", "--board", "none", "--level", "novice", *FAST],
    "ladder": ["ladder", "--villain", "gaston", "--level", "novice", "--level", "expert", "-n", "6", *FAST],
    "goldfish": ["goldfish", "--villain", "gaston", "-n", "6", *FAST],
    "calibrate": ["calibrate", "--games", "configs/real-games-example.csv", "-n", "4", "--levels", "novice"]
    + ["--png", "PNG"],
}


@pytest.mark.parametrize("args", list(EXACT.values()), ids=list(EXACT))
def test_the_plan_counts_the_games_played(args, recorded, tmp_path):
    args = [a.replace("PNG", str(tmp_path / "p.png")) for a in args]
    if "sweep" in args:
        args += FAST
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    [(work, bar)] = recorded
    assert work.games > 0 and bar.done == work.games, (work.stages, bar.done)


def test_the_plan_line_comes_when_the_estimate_is_long(tmp_path, monkeypatch):
    from simlab.runs.speed import key

    path = tmp_path / "speed.json"
    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(path))
    monkeypatch.setattr("simlab.runs.speed._memory", {})
    args = ["run", *M, "-n", "50", *FAST, "--json"]
    for rate, shown in ((1.0, True), (1000.0, False)):  # 50 s, then 0.05 s
        path.write_text(json.dumps({key("expert", 2, 1): rate}))
        monkeypatch.setattr("simlab.runs.speed._memory", {})
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        lines = [line for line in res.stderr.splitlines() if line.startswith("plan:")]
        if shown:
            assert lines == [
                "plan: run, 50 games in 1 stage (expert), about 50 s (measured here: 1 expert games/s, 1 thread)"
            ]
        else:
            assert lines == []


def test_an_unknown_speed_is_measured_once_and_kept(tmp_path, monkeypatch):
    from simlab.runs import speed

    path = tmp_path / "speed.json"
    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(path))
    monkeypatch.setattr("simlab.runs.speed._memory", {})
    monkeypatch.setattr("simlab.runs.speed.RATE_SECONDS", 0.05)
    rate = speed.rate("novice", 2, 1)
    assert rate > 10 and json.loads(path.read_text()) == {"novice/2p/1t": rate}
    monkeypatch.setattr("simlab.runs.speed.measure", lambda *a: pytest.fail("measured again"))
    assert speed.rate("novice", 2, 1) == rate


def test_a_finished_command_corrects_its_next_estimate(tmp_path, monkeypatch):
    from simlab.runs import speed
    from simlab.studies.workload import Stage, Workload

    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(tmp_path / "speed.json"))
    monkeypatch.setattr("simlab.runs.speed._memory", {})
    (tmp_path / "speed.json").write_text(json.dumps({speed.key("expert", 2, 1): 10.0}))
    work = Workload("matrix", (Stage("gaston-vs-gaston", 100),))
    assert work.seconds(1) == 10.0  # 100 games at 10 games/s
    speed.record_ratio("matrix", 10.0, 20.0)  # it took twice the estimate
    assert work.seconds(1) == 20.0 and work.seconds(1, corrected=False) == 10.0
    speed.record_ratio("matrix", 10.0, 1000.0)  # folded in, within the limits
    assert speed.ratio("matrix") == pytest.approx((2.0 + 4.0) / 2)
    bar = StagedProgress(100, 20.0, command="sweep", raw=10.0)  # finishes at once: far under its estimate
    with bar:
        bar.games(100, 100)
    assert speed.ratio("sweep") == speed.RATIO_LIMITS[0]
    unfinished = StagedProgress(100, 20.0, command="run", raw=10.0)
    with unfinished:
        unfinished.games(10, 100)
    assert speed.ratio("run") == 1.0  # a run stopped early says nothing of its estimate
    quiet = StagedProgress(100, 20.0, command="calibrate", raw=10.0)  # --json: the plan line, no bar
    with quiet.plan_only():
        quiet.games(100, 100)
    assert speed.ratio("calibrate") == speed.RATIO_LIMITS[0]  # it corrects its next estimate all the same


def test_runs_under_an_edit_count_their_measured_cost(tmp_path, monkeypatch):
    from simlab.runs import speed
    from simlab.runs.settings import RunSettings
    from simlab.studies import workload

    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(tmp_path / "speed.json"))
    monkeypatch.setattr("simlab.runs.speed._memory", {})
    (tmp_path / "speed.json").write_text(json.dumps({speed.key("expert", 2, 1): 100.0, "edit/1t": 0.5}))
    settings = RunSettings(100, 0, threads=1)
    card = workload.sweep("gaston-vs-horned-king", ["1", "2", "3"], settings)
    rule = workload.sweep("gaston-vs-horned-king", ["1", "2", "3"], settings, card=False)
    assert rule.seconds(1) == pytest.approx(4.0)  # the shipped value and three others, 100 games each
    assert card.seconds(1) == pytest.approx(4.0 + 3 * 0.5)  # each value's tables built for its edit


def test_a_learning_generation_costs_what_its_self_play_measured(tmp_path, monkeypatch):
    from simlab.runs import speed
    from simlab.studies import workload
    from simlab.studies.calibration import read_log
    from simlab.studies.generations import rung_cost

    for k, cpu in ((0, 0.25), (2, 1.0)):
        (tmp_path / f"g{k}").mkdir()
        (tmp_path / f"g{k}" / "play.json").write_text(json.dumps({"cpu_per_game": cpu}))
    assert rung_cost("search-g2", tmp_path) == 4.0 and rung_cost("search g0", tmp_path) == 1.0
    assert rung_cost("search-g5", tmp_path) == 1.0  # not measured: the search level's speed
    monkeypatch.setattr("simlab.studies.generations.LEARNING", tmp_path)
    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(tmp_path / "speed.json"))
    monkeypatch.setattr("simlab.runs.speed._memory", {})
    rates = {speed.key("search", p, 1): 2.0 for p in (2, 3)}
    (tmp_path / "speed.json").write_text(json.dumps(rates))
    orders = read_log("configs/real-games-example.csv").orders()
    plan = {lv: workload.calibrate(orders, [lv], None, 10, 200) for lv in ("search-g0", "search-g2")}
    assert plan["search-g2"].games == plan["search-g0"].games
    assert [s.players for s in plan["search-g0"].stages] == [2, 3]  # the log's 3-player games are planned as such
    assert plan["search-g2"].seconds(1, corrected=False) == pytest.approx(4 * plan["search-g0"].seconds(1, False))
