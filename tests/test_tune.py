"""Tuning: a deliberately bad strategy improves on a tiny budget (validated on fresh games), provenance is
written and the file plays exactly as validated, Ctrl-C keeps the best, iterated best response writes its
trajectory, the ``tuned`` level and ``--level`` on the commands, and bad input in one line."""

from __future__ import annotations

import os
import signal
import tomllib

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import strategies
from simlab.cli import app
from simlab.errors import InputError
from simlab.report.plots import plot_trajectory, write_plot
from simlab.runs.settings import RunSettings
from simlab.studies.tune import iterated_best_response, read_provenance, tunable_params, tune, validate, write_strategy
from strategies import resolve

runner = CliRunner()

# Gaston who discards any card worth less than 6 and values removing an Obstacle at the bottom of its range:
# he throws his hand away and rarely removes anything.
BAD_GASTON = """
name = "bad-gaston"
base = "expert"
[params]
discard_below = 6.0
obstacle_value = 0.5
"""
TINY = {"candidate_games": 100, "validation_games": 300, "popsize": 6, "threads": 2, "objective": "2p:current=1"}


@pytest.fixture
def bad_gaston(tmp_path):
    path = tmp_path / "bad-gaston.toml"
    path.write_text(BAD_GASTON)
    return str(path)


def test_tunable_parameters_come_from_the_table():
    from strategies.plans import PARAMS

    names = {p.name for p in tunable_params("gaston")}
    assert "plan" not in names and "fate_smart" not in names  # the skill switches are not tuned
    assert "obstacle_value" in names and "soldier_value" not in names  # another villain's weight is not
    expected = {p.name for p in PARAMS if p.tunable and p.group not in ("lady-tremaine", "horned-king")}
    assert names == expected


@pytest.mark.slow
def test_tuning_improves_a_deliberately_bad_strategy(bad_gaston, tmp_path):
    out = tmp_path / "tuned-gaston.toml"
    res = tune(
        "gaston",
        budget=100 * 25,
        seed=3,
        start=bad_gaston,
        params=["discard_below", "obstacle_value"],
        out=out,
        **TINY,
    )
    imp = res.improvement
    assert imp["games"] == 2 * 300
    assert imp["change_low"] > 0, res.validation  # better on fresh games, by a paired 95% interval
    assert res.improved
    assert res.history["best_rate"].is_sorted()
    assert res.provenance["search_games"] <= 100 * 25
    # the file plays exactly the strategy that was validated, and says how it was made
    spec = resolve(str(out))
    assert spec.params == res.best.params
    prov = read_provenance(str(out))
    assert prov["seed"] == 3 and prov["budget"] == 2500 and prov["start"] == "bad-gaston"
    assert prov["opponents"] == {"lady-tremaine": "expert", "horned-king": "expert"}
    assert prov["validation_change"] == pytest.approx(imp["change"], abs=1e-5)
    assert prov["simlab_version"] and prov["rules_hash"]
    again = validate(
        "gaston",
        bad_gaston,
        str(out),
        {"lady-tremaine": "expert", "horned-king": "expert"},
        300,
        prov["validation_seed"],
    )
    assert again.equals(res.validation)


def test_ctrl_c_keeps_the_best_so_far(bad_gaston, tmp_path):
    out = tmp_path / "tuned.toml"
    sent = []

    def progress(done, total, best, start):
        if done > 100 * 7 and not sent:  # in the second generation
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)

    res = tune(
        "gaston",
        budget=100 * 100,
        seed=3,
        start=bad_gaston,
        params=["discard_below", "obstacle_value"],
        out=out,
        progress=progress,
        **TINY,
    )
    assert sent and res.interrupted
    assert res.provenance["stopped_by"] == "interrupted"
    assert res.provenance["search_games"] < 100 * 100
    assert res.history.height == 2  # the start and the first generation; the second was cut short
    assert res.best.params["discard_below"] == res.params.filter(pl.col("param") == "discard_below")["tuned"][0]
    assert res.validation.height == 4  # the best so far was still validated and written (2 opponents, all, field)
    assert resolve(str(out)).params == res.best.params


@pytest.mark.slow
def test_equilibrium_writes_strategies_and_trajectory(tmp_path):
    out, rep = tmp_path / "strategies", tmp_path / "reports"
    res = iterated_best_response(
        rounds=1,
        budget=40 * 13,
        seed=1,
        candidate_games=40,
        validation_games=100,
        matrix_games=60,
        popsize=4,
        threads=2,
        out_dir=out,
        report_dir=rep,
    )
    from simlab.studies.difficulty import derived_seed
    from simlab.studies.matchups import matrix

    villains = ("gaston", "lady-tremaine", "horned-king")
    assert res.rounds == 1 and [t.villain for t in res.tunes] == list(villains)
    imp = res.improvements
    assert imp["villain"].to_list() == list(villains)
    assert imp["adopted"].to_list() == [t.improved for t in res.tunes]
    assert imp["change"].to_list() == [t.improvement["change"] for t in res.tunes]
    assert res.converged == (not imp["adopted"].any())  # one round that changed nobody has converged
    expert = resolve("expert").params
    assert any(t.best.params != expert for t in res.tunes)  # so a round file holding the start would show
    for v, t in zip(villains, res.tunes, strict=True):
        # each villain ends with its tuned strategy if adopted, else its start; the file holds what it ends with
        assert res.strategies[v].params == (t.best.params if t.improved else expert)
        doc = tomllib.loads((out / f"tuned-{v}.toml").read_text())
        assert doc["provenance"]["equilibrium_rounds"] == 1
        assert resolve(str(out / f"tuned-{v}.toml")).params == res.strategies[v].params
        # the round's file holds the round's tuned strategy, adopted or not, and says which
        round_file = rep / "round-1" / f"{v}.toml"
        assert resolve(str(round_file)).params == t.best.params
        assert tomllib.loads(round_file.read_text())["provenance"]["adopted"] == t.improved
    # the trajectory: the matrix of the starting strategies and of those after round 1, on the same games
    seed = derived_seed(1, "equilibrium:matrix")
    played = [
        matrix(60, seed=seed, threads=2, strategies=dict.fromkeys(villains, "expert")),
        matrix(60, seed=seed, threads=2, strategies=res.strategies),
    ]
    assert res.trajectory["round"].unique().sort().to_list() == [0, 1]
    for r, m in enumerate(played):
        assert res.trajectory.filter(pl.col("round") == r).drop("round").equals(m.table), r
    assert res.grid(0).equals(played[0].grid()) and res.grid().equals(played[1].grid())
    for name, frame in (("trajectory", res.trajectory), ("improvements", imp)):
        assert pl.read_parquet(rep / f"{name}.parquet").equals(frame)
        assert pl.read_csv(rep / f"{name}.csv", schema=frame.schema).equals(frame), name
    assert not (rep / "trajectory.png").exists()  # a study never draws: simlab tune-all plots the trajectory
    png = write_plot(rep / "trajectory.png", lambda ax: plot_trajectory(res.trajectory, ax))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_the_tuned_level_appears_once_its_files_exist(tmp_path, monkeypatch):
    import strategies.mixture as mixtures
    from simlab.runs.levels import available_levels, level_strategies, strongest_level
    from simlab.studies.ladder import skill_ladder

    monkeypatch.setattr(strategies, "CONFIG_DIRS", (tmp_path,))
    monkeypatch.setattr(mixtures, "MIXTURE_DIRS", (tmp_path / "no-equilibrium",))  # strong would outrank tuned
    assert "tuned" not in available_levels() and strongest_level() == "expert"
    for v in ("gaston", "lady-tremaine", "horned-king"):
        spec = resolve("expert")
        spec = strategies.StrategySpec(f"tuned-{v}", "test", spec.kernel, {**spec.params, "noise": 0.1})
        write_strategy(spec, tmp_path / f"tuned-{v}.toml", {"villain": v})
    assert available_levels()[-3:] == ("tuned", "apprentice", "search") and strongest_level() == "tuned"
    assert level_strategies("tuned", ["gaston"]) == {"gaston": "tuned-gaston"}
    ladder = skill_ladder(["gaston"], n_games=20, seed=1, max_turns=40, threads=2)
    assert ladder["level"].to_list() == ["random", "novice", "expert", "tuned"]  # search only when asked for
    assert ladder["games"].to_list() == [40] * 4
    ladder = skill_ladder(["gaston"], ["expert", "tuned", "search"], n_games=20, seed=1, max_turns=40, search_games=1)
    assert ladder["games"].to_list() == [40, 40, 2]  # the search rung: 1 game per opponent villain


def test_level_plays_every_villain_at_that_level():
    import simlab

    a = simlab.run("gaston-vs-horned-king", RunSettings(40, seed=2, level="novice", threads=2))
    b = simlab.run(
        "gaston-vs-horned-king", RunSettings(40, seed=2), strategies={"gaston": "novice", "horned-king": "novice"}
    )
    assert a.summary.equals(b.summary) and a.strategies == ("novice", "novice")
    c = simlab.run(
        "gaston-vs-horned-king", RunSettings(40, seed=2, level="novice", threads=2), strategies={"gaston": "expert"}
    )
    assert c.strategies == ("expert", "novice")


def test_the_loader_accepts_provenance_and_only_as_a_table(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('base = "expert"\n[params]\nnoise = 0.1\n[provenance]\nseed = 1\n')
    assert resolve(str(good)).params["noise"] == 0.1
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "expert"\nprovenance = 3\n')
    with pytest.raises(ValueError, match="'provenance' must be a table"):
        resolve(str(bad))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune"], "Missing option '--villain' (the villain to tune; simlab tune-all tunes every villain)"),
        (["tune", "--villain", "gaston", "--all"], "simlab tune --all is now a command of its own: simlab tune-all"),
        (["tune", "--all", "--rounds", "2"], "simlab tune --all is now a command of its own: simlab tune-all"),
        (["tune", "--villain", "wizard"], "unknown villain 'wizard'; choose from"),
        (["tune", "--villain", "gaston", "--budget", "100"], "give at least"),
        (["tune", "--villain", "gaston", "--param", "nope"], "unknown tunable parameter 'nope' for gaston; choose"),
        (["tune", "--villain", "gaston", "--param", "soldier_value"], "unknown tunable parameter 'soldier_value'"),
        (["tune", "--villain", "gaston", "--start", "random"], "has no parameters to tune"),
        (["tune", "--villain", "gaston", "--opponent", "gaston=expert"], "opponent 'gaston' is not another villain"),
        (["tune", "--villain", "gaston", "--rounds", "2"], "--rounds is an option of simlab tune-all"),
        (["tune-all", "--villain", "gaston"], "--villain is an option of simlab tune;"),
        (["tune-all", "--param", "noise"], "--param is an option of simlab tune;"),
        (["tune-all", "--start", "wizard"], "unknown level 'wizard'; choose from"),
        (["tune-all", "--rounds", "0"], "--rounds must be an integer of at least 1"),
        (["tune", "--villain", "gaston", "--candidate-games", "0"], "games per candidate must be"),
        (["tune", "--villain", "gaston", "--objective", "4p:current=1"], "must look like 2p:FIELD=WEIGHT or 3p"),
        (["tune", "--villain", "gaston", "--objective", "2p:current=0"], "the weight must be a positive number"),
        (["tune", "--villain", "gaston", "--objective", "2p:current=nan"], "the weight must be a positive number"),
        (["tune", "--villain", "gaston", "--objective", "2p:wizard=1"], "unknown strategy 'wizard'"),
        (["tune-all", "--objective", "2p:novice=1,2p:novice=2"], "objective part '2p:novice' is given twice"),
        (["tune", "--villain", "gaston", "--drop-penalty", "-1"], "the drop penalty must be a number of at least 0"),
        (["run", "-m", "gaston-vs-horned-king", "-n", "5", "--level", "wizard"], "unknown level 'wizard'"),
        (["matrix", "-n", "5", "--level", "wizard"], "unknown level 'wizard'"),
        (["difficulty", "-n", "5", "--level", "wizard"], "unknown level 'wizard'"),
        (["ladder", "-n", "5", "--level", "wizard"], "unknown strategy 'wizard'"),
    ],
)
def test_bad_input_is_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(strategies, "CONFIG_DIRS", (tmp_path,))
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], res.output


def test_tune_cli_prints_the_validated_improvement(bad_gaston, tmp_path):
    out = tmp_path / "t.toml"
    res = runner.invoke(
        app,
        [
            "tune",
            "--villain",
            "gaston",
            "--start",
            bad_gaston,
            "--param",
            "discard_below",
            "--budget",
            "1200",
            "--candidate-games",
            "100",
            "--validation-games",
            "100",
            "--popsize",
            "4",
            "--objective",
            "2p:current=1",
            "--threads",
            "2",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "validated objective (weighted win rate)" in res.output and "change" in res.output
    assert out.is_file() and "provenance" in tomllib.loads(out.read_text())


def test_input_errors_name_the_value():
    with pytest.raises(InputError, match="the budget must be an integer"):
        tune("gaston", budget=0)


def test_the_objective_counts_what_it_says():
    """Parts, weights and seat orders of the objective: the search and the validation play the pairings it
    names (the 3-player game in both seat orders, against the current field and against novices), on the
    seeds it names, and the objective is the weighted mean of the parts; the search's score takes the drop
    penalty off for each part below the start."""
    from simlab.runs.sim import simulate
    from simlab.studies.difficulty import derived_seed
    from simlab.studies.tune import games_per_pairing, parse_objective, part_seed

    obj = parse_objective("2p:current=2,3p:novice=1,2p:novice=1")
    assert [(p.name, p.weight) for p in obj.parts] == [("2p:current", 0.5), ("3p:novice", 0.25), ("2p:novice", 0.25)]
    assert games_per_pairing(obj, 120) == [30, 15, 14]  # weight's share over two pairings, whole seat rotations
    assert games_per_pairing(obj, 120, 1) == [60, 30, 30]  # against one opponent villain: one pairing a part
    assert obj.value([0.6, 0.3, 0.9], [0.5, 0.4, 1.0]) == pytest.approx(
        0.5 * 0.6 + 0.25 * 0.3 + 0.25 * 0.9 - 3.0 * (0.25 * 0.1 + 0.25 * 0.1)
    )
    assert parse_objective(obj, drop_penalty=0).value([0.6, 0.3, 0.9], [0.5, 0.4, 1.0]) == pytest.approx(0.6)

    text = "2p:current=0.5,2p:novice=0.2,3p:current=0.3"
    current = {"lady-tremaine": "novice", "horned-king": "expert"}
    res = tune(
        "gaston",
        budget=60 * 3,
        start="expert",
        opponents=current,
        candidate_games=60,
        validation_games=30,
        popsize=2,
        params=["noise"],
        seed=5,
        threads=2,
        objective=text,
    )
    prov = res.provenance
    assert prov["objective"] == text and prov["drop_penalty"] == 3.0
    assert prov["games_per_pairing"] == {"2p:current": 14, "2p:novice": 6, "3p:current": 9}
    assert prov["games_per_candidate"] == 2 * (14 + 6 + 9) and prov["search_games"] == 3 * 58
    train = derived_seed(5, "tune:gaston:search")
    valid = prov["validation_seed"]
    parts = {p.name: p for p in parse_objective(text).parts}

    def rate(matchup, n, seed, strategies):
        games = simulate(matchup, RunSettings(n, seed=seed, threads=2), strategies=strategies).games
        return games.filter(pl.col("winner_index") == 0).height / n

    def part_rate(part, n, seed, field):
        if part.startswith("2p"):
            rates = [rate(f"gaston-vs-{o}", n, seed, {"gaston": "expert", o: field[o]}) for o in field]
        else:
            orders = (("lady-tremaine", "horned-king"), ("horned-king", "lady-tremaine"))
            rates = [rate("-vs-".join(("gaston", *o)), n, seed, {"gaston": "expert", **field}) for o in orders]
        return float(np.mean(rates))

    novices = {"lady-tremaine": "novice", "horned-king": "novice"}
    fields = {"2p:current": current, "2p:novice": novices, "3p:current": current}
    # the search's start rates: the games of each pairing, on the part's seed
    for name, n in prov["games_per_pairing"].items():
        expected = part_rate(name, n, part_seed(train, parts[name]), fields[name])
        assert prov["search_start_rates"][name] == pytest.approx(expected, abs=1e-5), name
    assert prov["search_start_score"] == pytest.approx(
        sum(parts[k].weight * r for k, r in prov["search_start_rates"].items()), abs=1e-4
    )

    val = res.validation
    assert val["part"].to_list() == [
        *["2p:current"] * 3,
        *["2p:novice"] * 3,
        *["3p:current"] * 3,
        "objective",
    ]
    three = val.filter(pl.col("part") == "3p:current")
    assert three["opponent"].to_list() == ["lady-tremaine, horned-king", "horned-king, lady-tremaine", "all"]
    assert three["games"].to_list() == [30, 30, 60]
    for name, part in parts.items():
        row = val.filter((pl.col("part") == name) & (pl.col("opponent") == "all")).row(0, named=True)
        assert row["weight"] == pytest.approx(part.weight)
        expected = part_rate(name, 30, part_seed(valid, part), fields[name])
        assert row["start_rate"] == pytest.approx(expected), name
        assert prov["validation_parts"][name]["start_rate"] == pytest.approx(expected, abs=1e-5)
    whole = val.filter(pl.col("part") == "objective").row(0, named=True)
    alls = val.filter(pl.col("opponent") == "all")
    assert whole["games"] == 6 * 30
    assert whole["start_rate"] == pytest.approx((alls["weight"] * alls["start_rate"]).sum())
    assert whole["rate"] == pytest.approx((alls["weight"] * alls["rate"]).sum())
    assert whole["change_low"] <= whole["change"] <= whole["change_high"]
    assert res.improvement == whole
    assert res.improved == (whole["change_low"] > 0 and not res.worse_parts)
    assert set(res.history.columns) >= {f"best_{p}" for p in parts}


def test_a_significantly_worse_part_blocks_adoption():
    """A tune whose objective improves but one part is significantly worse is not `improved` (the
    equilibrium does not adopt it)."""
    from simlab.studies.tune import TuneResult

    def row(part, opponent, lo, hi):
        return {"part": part, "opponent": opponent, "change": (lo + hi) / 2, "change_low": lo, "change_high": hi}

    spec = resolve("expert")
    good = pl.DataFrame(
        [
            row("2p:current", "all", 0.05, 0.1),
            row("3p:current", "all", -0.02, 0.01),
            row("objective", "field", 0.01, 0.05),
        ]
    )
    bad = pl.DataFrame(
        [
            row("2p:current", "all", 0.05, 0.1),
            row("3p:current", "all", -0.05, -0.01),
            row("objective", "field", 0.01, 0.05),
        ]
    )
    make = lambda v: TuneResult("gaston", spec, spec, pl.DataFrame(), pl.DataFrame(), v)  # noqa: E731
    assert make(good).improved and make(good).worse_parts == []
    assert not make(bad).improved and make(bad).worse_parts == ["3p:current"]


def test_the_step_sets_how_far_the_first_candidates_stray_from_the_start():
    from simlab.runs.settings import RunSettings
    from simlab.studies.tune.search import _optimizer, _tune_plan

    def spread(step: float) -> float:
        plan = _tune_plan(
            "gaston",
            5000,
            "expert",
            None,
            100,
            2,
            8,
            None,
            "step",
            ("2p:current=1", 0.0),
            (RunSettings(), {}),
            None,
            step,
        )
        x0 = np.array([plan.start.params[p.name] for p in plan.params])
        scale = np.array([p.high - p.low for p in plan.params])
        xs = np.array(_optimizer(plan).ask())
        return float(np.median(np.abs(xs - x0) / scale))

    # a fifth of each range at step 1 (before the bounds clip it); the equilibrium's best responses start at 0.3
    wide, near = spread(1.0), spread(0.3)
    assert near < 0.5 * wide and near > 0.1 * wide
    with pytest.raises(InputError, match="the tuner's step must be a number above 0"):
        spread(0.0)
