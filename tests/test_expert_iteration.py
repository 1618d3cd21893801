"""The expert-iteration loop (simlab.studies.expert_iteration): the convergence rule at its boundaries, a generation
that is not stronger refused, a resume that writes the same files, the same models on 1 and 2 threads.

The loops here are tiny: two villains, a search of 2 worlds and 1 turn, 5 games per seating."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simlab.errors import InputError
from simlab.studies import expert_iteration as E
from simlab.studies import learn as L

TINY_SEARCH = 'name = "search-tiny"\nbase = "search"\n[params]\nsamples = 2\nhorizon = 1\nhalving = 0\nscreen = 0\n'
TIMING = {"cpu_seconds", "cpu_per_game"}


def tiny(base: Path, **changes) -> E.LearnSettings:
    given = {
        "games": 5,
        "paired_games": 6,
        "generations": 1,
        "seed": 3,
        "base": str(base),
        "tuned_games": 5,
        "probe_games": 2,
        "villains": ("gaston", "horned-king"),
        "threads": 2,  # both cores: a run gives the same models on any thread count (tested below)
    }
    return E.LearnSettings(**(given | changes))


def without_timing(doc):
    """``doc`` (JSON) without its CPU times, which no two runs share."""
    if isinstance(doc, dict):
        return {k: without_timing(v) for k, v in doc.items() if k not in TIMING}
    if isinstance(doc, list):
        return [without_timing(v) for v in doc]
    return doc


def contents(folder: Path) -> dict[str, object]:
    """Every file of a learning folder: JSON without timings, parquet as rows, the rest as text."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = str(path.relative_to(folder))
        if path.suffix == ".json":
            out[name] = without_timing(json.loads(path.read_text()))
        elif path.suffix == ".parquet":
            frame = pl.read_parquet(path).with_columns(pl.col(pl.Float64).fill_nan(None))  # NaN != NaN in dicts
            out[name] = frame.drop([c for c in frame.columns if c in TIMING]).to_dicts()
        else:
            out[name] = path.read_text()
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("base") / "search-tiny.toml"
    path.write_text(TINY_SEARCH)
    return path


@pytest.fixture(scope="module")
def straight(base, tmp_path_factory) -> Path:
    """A tiny loop run in one go, on 1 thread (the other runs of this file play on 2)."""
    folder = tmp_path_factory.mktemp("straight") / "learning"
    E.learn(folder, tiny(base, threads=1))
    return folder


# ============================================================================ the verdict at its boundaries


def value_rows(*values, half=0.0):
    return [
        {"matchup": "gaston-vs-horned-king", "villain": "gaston", "value": v, "low": v - half, "high": v + half}
        for v in values
    ]


def table(gains: dict, values) -> dict:
    return {"gains": {v: {"gain": g, "low": g - (h - g), "high": h} for v, (g, h) in gains.items()}, "values": values}


@pytest.mark.parametrize(
    ("gain", "high", "settled"),
    [(0.02, 0.04, True), (0.0201, 0.04, False), (0.02, 0.0401, False), (-0.05, 0.0, True), (0.0, 0.045, False)],
)
def test_a_gain_of_2_points_with_its_upper_end_at_4_is_settled_and_no_more(gain, high, settled):
    previous = table({}, value_rows(0.5))
    top = table({"gaston": (gain, high), "horned-king": (0.0, 0.01)}, value_rows(0.5))
    out = E.convergence(previous, top)
    assert out["settled"] is settled
    assert out["verdict"] == ("settled" if settled else f"still moving (±{100 * max(abs(gain), high):.1f} points)")


@pytest.mark.parametrize(("move", "settled"), [(0.02 + 0.03 + 0.04, True), (0.0901, False), (-0.09, True)])
def test_a_value_within_2_points_plus_both_half_widths_is_settled_and_no_more(move, settled):
    previous = table({}, value_rows(0.5, half=0.03))
    top = table({"gaston": (0.0, 0.01)}, value_rows(0.5 + move, half=0.04))
    out = E.convergence(previous, top)
    assert out["settled"] is settled
    if not settled:
        assert out["verdict"] == f"still moving (±{100 * abs(move):.1f} points)"


def test_every_matchup_and_3_player_share_is_checked():
    rows = value_rows(0.5) + [
        {"matchup": "a-vs-b-vs-c", "villain": "gaston", "value": 0.3, "low": 0.3, "high": 0.3},
    ]
    moved = [dict(r) for r in rows]
    moved[1]["value"] = moved[1]["low"] = moved[1]["high"] = 0.33
    out = E.convergence(table({}, rows), table({"gaston": (0.0, 0.0)}, moved))
    assert not out["settled"] and out["verdict"] == "still moving (±3.0 points)"


# ============================================================================ the loop


class LeftBound:
    """A progress callback that asks, at every report, how many games the run can still play at most
    (:func:`E.stages_left`, from the folder's finished steps then), so that :meth:`holds` checks every such
    bound against the games the run went on to play, and the progress total against them all."""

    def __init__(self, folder: Path, settings: E.LearnSettings):
        self.folder, self.settings, self.seen, self.totals = folder, settings, [], set()

    def __call__(self, done: int, total: int, label: str) -> None:
        self.seen.append((done, sum(g for _, g, _ in E.stages_left(self.settings, self.folder)), label))
        self.totals.add(total)

    def holds(self) -> None:
        final = max(d for d, _, _ in self.seen)
        late = [(d, left, label) for d, left, label in self.seen if final - d > left]
        assert not late, f"{final} games played in all, more than a bound allowed: {late[:3]}"
        assert min(self.totals) >= final


def test_a_resumed_run_plans_only_the_games_it_can_still_play(base, straight):
    """``straight`` ended with generation 1 refused (not playing as generation 0 does) and no climb allowed."""
    settings = tiny(base)
    assert not json.loads((straight / "g1" / "accept.json").read_text())["accepted"]
    nothing = [(name, 0, n) for name, _, n in E.planned_stages(settings)]
    assert E.stages_left(settings, straight) == nothing
    assert E.stages_left(tiny(base, generations=3), straight) == nothing  # no climb: the loop has ended
    fresh = sum(g for _, g, _ in E.stages_left(settings, straight / "none"))
    assert 0 < fresh <= E.planned_games(settings)
    # a climb allowed: generations 2 and 3 each at most 4 seatings x 5 games of self-play and a climb's two tries
    # of 2 x 6 paired games a villain and side (dearer than a learned one's one try), then the probe
    assert E.stages_left(tiny(base, generations=3, climbs=1), straight) == [
        ("self-play", 2 * 4 * 5, 2),
        ("self-play, 3 players", 0, 3),
        ("paired trials", 0, 2),
        ("retries", 0, 2),
        ("climbs", 2 * 2 * (2 * 6 * 2), 2),
        ("probe", 2 * 2 * 2 * 2, 2),
    ]
    # a retry allowed: generation 1 tried again on twice generation 0's self-play, then its own self-play; then
    # generation 2 learned with its retry (dearer now than a climb)
    left = E.stages_left(tiny(base, generations=2, retries=1, climbs=1), straight)
    assert {name: games for name, games, _ in left} == {
        "self-play": 2 * 20,
        "self-play, 3 players": 0,
        "paired trials": (1 + 2) * 24,
        "retries": 2 * 2 * 20,
        "climbs": 0,
        "probe": 16,
    }


def broken(frame, provenance):
    """A value model fitted, then turned upside down: it rates a winning position as losing."""
    model = L.fit_value(frame, provenance)
    from strategies.learned import value

    model.weights[value.W2_AT : value.B2_AT + 1] *= -1
    return model


REFUSED = {"paired_games": 10, "retries": 1, "probe_games": 0}


@pytest.fixture(scope="module")
def refused(base, tmp_path_factory):
    """A tiny run whose every fit is :func:`broken`, with one retry, in one go: its folder, result and progress."""
    folder = tmp_path_factory.mktemp("refused") / "learning"
    settings = tiny(base, **REFUSED)
    bound = LeftBound(folder, settings)
    return folder, E.learn(folder, settings, fit_value=broken, progress=bound), bound


def test_a_generation_that_is_not_stronger_is_refused_and_tried_again_on_twice_the_games(refused):
    folder, res, bound = refused
    bound.holds()
    for name in ("accept.json", "accept-1.json"):
        accept = json.loads((folder / "g1" / name).read_text())
        assert accept["accepted"] is False and accept["reason"].startswith("refused")
    assert res.verdict["top"] == 0 and "refused" in res.verdict["verdict"]
    assert not (folder / "g1" / "play.json").exists()  # a refused generation plays no more
    first, again = (pl.read_parquet(folder / "g0" / f"positions{s}.parquet") for s in ("", "-1"))
    assert again.select("seating", "game").n_unique() == 2 * first.select("seating", "game").n_unique()
    assert json.loads((folder / "g1" / "fit-1.json").read_text())["data_games"] == 2 * 5 * 4


def test_a_run_that_ends_still_moving_names_how_to_go_on_and_its_cost(refused, base, tmp_path, monkeypatch):
    """A run refused at its last try, with no climb left, says what would go on (one climb, room for it in
    --generations), the command that resumes it, and the games that resume can still play; the folder takes that
    command (only --generations and --climbs grew). A settled run, or one whose climb was refused, says nothing."""
    import shutil

    from typer.testing import CliRunner

    from simlab.cli import app

    folder, res, _ = refused
    settings = tiny(base, **REFUSED)
    nxt = E.go_on(folder, settings, res.verdict)
    assert nxt["settings"] == {"climbs": 1, "generations": 2}
    resumed = tiny(base, **REFUSED, climbs=1, generations=2)
    assert nxt["games"] == sum(games for _, games, _ in E.stages_left(resumed, folder)) > 0
    assert nxt["resumed"] == resumed and f"simlab learn {folder} " in nxt["command"]
    for option in ("-n 5", "--paired-games 10", "--generations 2", "--retries 1", "--climbs 1", "--probe-games 0"):
        assert f" {option}" in nxt["command"], option
    assert "--villains gaston,horned-king" in nxt["command"] and "--seed 3" in nxt["command"]
    copy = tmp_path / "learning"
    shutil.copytree(folder, copy)
    E.open_folder(copy, resumed)  # the command's settings resume the folder
    assert E.go_on(folder, settings, res.verdict | {"settled": True}) is None
    climbing_refused = res.verdict | {"reason": "...; climbing refused: no villain of generation 0 ..."}
    assert E.go_on(folder, settings, climbing_refused) is None
    stopped = res.verdict | {"reason": "stopped after 1 generations (--generations)"}
    assert E.go_on(folder, settings, stopped)["settings"] == {"generations": 2}

    monkeypatch.setattr(E, "learn", lambda *a, **k: res)
    args = ["learn", str(folder), "-n", "5", "--paired-games", "10", "--generations", "1", "--seed", "3"]
    args += ["--base", str(base), "--tuned-games", "5", "--probe-games", "0", "--villains", "gaston,horned-king"]
    out = CliRunner().invoke(app, [*args, "--retries", "1"], terminal_width=400)
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert f"still moving at these settings; to go on: {nxt['command']} (at most {nxt['games']:,} more games" in said
    doc = json.loads(CliRunner().invoke(app, [*args, "--retries", "1", "--json"]).stdout)
    assert doc["go_on"]["settings"] == {"climbs": 1, "generations": 2} and doc["go_on"]["seconds"] > 0


def stopped_in_the_paired_games(folder: Path, base: Path) -> None:
    """A tiny loop in ``folder`` interrupted (Ctrl-C) once its paired games begin: self-play and the fit done."""

    def stop(done, total, label):
        if "paired" in label:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        E.learn(folder, tiny(base), progress=stop)


def test_a_resumed_loop_writes_the_files_of_one_run_straight_through(base, straight, tmp_path):
    folder = tmp_path / "learning"

    stopped_in_the_paired_games(folder, base)
    assert (folder / "g1" / "fit.json").is_file() and not (folder / "g1" / "accept.json").exists()
    kept = (folder / "g0" / "positions.parquet").stat().st_mtime_ns
    E.learn(folder, tiny(base))
    assert (folder / "g0" / "positions.parquet").stat().st_mtime_ns == kept  # finished steps are not played again
    assert contents(folder) == contents(straight)


def test_paired_games_stopped_midway_go_on_from_the_chunks_they_finished(base, straight, tmp_path, monkeypatch):
    """A step of paired games is hours at the top's budget: its runs keep their finished chunks, so a resume plays
    only the games not yet played, and writes the files of a run straight through."""
    monkeypatch.setattr(L, "KEPT_CHUNK", 2)
    folder, first = tmp_path / "learning", []

    def stop(done, total, label):
        if "paired" in label:
            first.append(done)
            if done >= first[0] + 4:  # two chunks of the first run in
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        E.learn(folder, tiny(base), progress=stop)
    kept = E.kept_runs(folder / "g1" / "accept.json")
    assert len(list(kept.rglob("chunk-*.npz"))) == 2
    resumed, run = [], L._kept_run

    def counted(*args):
        result = run(*args)
        resumed.append(result.resumed_games)
        return result

    monkeypatch.setattr(L, "_kept_run", counted)
    E.learn(folder, tiny(base))
    assert resumed[0] == 4 and sum(resumed) == 4  # read back, not played again; every later run played afresh
    assert not kept.exists() and contents(folder) == contents(straight)


def test_a_step_resumed_from_kept_games_counts_the_cpu_they_took(base, tmp_path, monkeypatch):
    """The CPU a step spent before it was stopped is in its ledger, and the resume adds it: a step's CPU is the
    whole step's, not the last process's share. Kept games without a ledger make the CPU a lower bound, said."""
    import types

    monkeypatch.setattr(L, "KEPT_CHUNK", 2)
    monkeypatch.setattr(E, "LEDGER_EVERY", 0.0)
    clock = [0.0]  # the CPU clock: one second a report of the paired games (until their step is done)
    monkeypatch.setattr(E, "time", types.SimpleNamespace(process_time=lambda: clock[0], monotonic=lambda: 0.0))
    ticks = []

    def stop_in(limit):
        def progress(done, total, label):
            if "paired" in label and not (folder / "g1" / "accept.json").is_file():  # the step under way
                clock[0] += 1
                ticks.append(1)
                if len(ticks) == limit:
                    raise KeyboardInterrupt

        return progress

    for case in ("ledger", "no ledger", "stale"):
        folder = tmp_path / case.replace(" ", "-")
        ticks.clear()
        with pytest.raises(KeyboardInterrupt):
            E.learn(folder, tiny(base), progress=stop_in(5))
        kept = E.kept_runs(folder / "g1" / "accept.json")
        earlier = json.loads((kept / "cpu.json").read_text())["cpu_seconds"]
        assert earlier == 4  # written before each report: the fifth's second is the one stopped in
        if case == "no ledger":
            (kept / "cpu.json").unlink()  # kept before the ledger was
        if case == "stale":  # every kept run recorded with other settings: thrown away, played again
            metas = list(kept.glob("*/settings.json"))
            assert metas
            for meta in metas:
                meta.write_text(meta.read_text().replace('"n_games": ', '"n_games": 1'))
        ticks.clear()
        E.learn(folder, tiny(base), progress=stop_in(-1))
        doc = json.loads((folder / "g1" / "accept.json").read_text())
        resumed = len(ticks)
        carried = case == "ledger"  # the CPU of games thrown away is not the step's
        assert doc["cpu_seconds"] == (earlier + resumed if carried else resumed)
        assert doc.get("cpu_partial", False) is (case == "no ledger")
        assert ("took at least" in E.learning_markdown(folder)) is (case == "no ledger")


def test_paired_games_kept_with_other_settings_are_played_again(tmp_path):
    from simlab.studies.learn import paired_gain

    keep = tmp_path / "runs"
    straight = paired_gain("gaston", "expert", "tuned", 30, 4, threads=1, villains=("gaston", "horned-king"))
    kept = paired_gain("gaston", "expert", "tuned", 30, 4, threads=1, villains=("gaston", "horned-king"), keep=keep)
    assert kept == straight and len(list(keep.rglob("chunk-*.npz"))) == 2
    meta = keep / "gaston-vs-horned-king-incumbent" / "settings.json"
    meta.write_text(meta.read_text().replace('"n_games": 30', '"n_games": 31'))  # another run's record
    again = paired_gain("gaston", "expert", "tuned", 30, 4, threads=1, villains=("gaston", "horned-king"), keep=keep)
    assert again == straight and '"n_games": 30' in meta.read_text()


def test_self_play_stopped_midway_goes_on_from_the_seatings_it_finished(tmp_path, monkeypatch):
    villains, keep = ("gaston", "horned-king"), tmp_path / "kept"
    straight = L.self_play(3, 5, "expert", villains, threads=1, decisions=True)
    other_seed = L.self_play(3, 6, "expert", villains, threads=1)[0]

    def stop(done, _planned):
        if done > 3:  # the second seating's first game
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        L.self_play(3, 5, "expert", villains, threads=1, decisions=True, progress=stop, keep=keep)
    first = [f"seating-0-{n}.parquet" for n in ("decisions", "positions")]
    assert sorted(p.name for p in keep.glob("*.parquet")) == first
    played, record = [], L._record
    monkeypatch.setattr(L, "_record", lambda jobs, *a: played.extend(jobs) or record(jobs, *a))
    kept = L.self_play(3, 5, "expert", villains, threads=1, decisions=True, keep=keep)
    assert len(played) == 9 and all(order != ("gaston", "gaston") for order, _ in played)  # 3 seatings of 3 games
    assert kept[0].equals(straight[0]) and kept[1].equals(straight[1])
    E.write_json(keep / "cpu.json", {"cpu_seconds": 7.0, "partial": False})
    ledger = E.CpuLedger(keep)
    assert ledger.earlier == 7.0 and not ledger.partial
    # another seed: none of it is kept, nor the CPU its games took
    other = L.self_play(3, 6, "expert", villains, threads=1, keep=keep, discarded=ledger.discarded)[0]
    assert other.equals(other_seed) and len(played) == 9 + 12
    assert ledger.earlier == 0.0 and not ledger.partial


def test_a_run_resumed_from_a_clone_without_its_data_plays_the_same_games_again(base, straight, tmp_path):
    """The self-play data stays out of git: a clone holds a generation's play.json but not its parquet, and the fit
    still to come needs it."""
    import shutil

    folder = tmp_path / "learning"

    stopped_in_the_paired_games(folder, base)
    shutil.rmtree(folder / "g1")  # the fit is to come
    for data in (folder / "g0").glob("*.parquet"):
        data.unlink()
    E.learn(folder, tiny(base))
    assert contents(folder) == contents(straight)


def test_a_finished_run_resumed_from_a_clone_plays_no_game_again(base, straight, tmp_path):
    """Only a fit still to come needs a generation's data: a clone of a finished run (no parquet) replays none, not
    even the top's own self-play, which no fit reads."""
    import shutil

    folder = tmp_path / "learning"
    shutil.copytree(straight, folder)
    for data in folder.glob("g*/*.parquet"):
        data.unlink()
    said = []
    E.learn(folder, tiny(base), progress=lambda done, total, label: said.append(label))
    assert not list(folder.glob("g*/*.parquet")) and not any("self-play again" in label for label in said)
    assert said and all(label.endswith(": kept") for label in said)  # each step says it was read back
    kept = {name: doc for name, doc in contents(straight).items() if not name.startswith("g")}
    assert {name: doc for name, doc in contents(folder).items() if not name.startswith("g")} == kept


def test_the_same_seed_gives_the_same_models_on_1_and_2_threads(base, straight, tmp_path):
    E.learn(tmp_path / "learning", tiny(base, threads=2))
    assert contents(tmp_path / "learning") == contents(straight)
    model = json.loads((straight / "g1" / "value.json").read_text())
    assert np.isfinite(model["weights"]).all() and model["provenance"]["generation"] == 1


def test_a_folder_started_with_other_settings_is_refused_naming_the_difference(base, straight):
    with pytest.raises(InputError, match=r"games=5 \(asked 6\)"):
        E.learn(straight, tiny(base, games=6))


def test_a_refused_run_resumed_with_more_retries_tries_again_as_a_run_with_them_from_the_start(base, refused, tmp_path):
    once, (straight, _, _) = tmp_path / "once", refused
    E.learn(once, tiny(base, paired_games=10, probe_games=0), fit_value=broken)
    assert not (once / "g0" / "positions-1.parquet").exists()
    E.learn(once, tiny(base, **REFUSED), fit_value=broken)
    assert contents(once) == contents(straight)
    assert json.loads((once / "settings.json").read_text())["retries"] == 1
    # the retry's extra games are data for the fit, not generation 0's values
    assert E.learning_table(E.read_generations(once)).equals(pl.read_parquet(once / "learning.parquet"))
    with pytest.raises(InputError, match=r"retries=1 \(asked 0\)"):  # fewer would disown finished steps
        E.learn(once, tiny(base, paired_games=10, probe_games=0), fit_value=broken)


def test_the_loop_writes_a_table_per_generation_and_the_verdict(straight):
    table = pl.read_parquet(straight / "learning.parquet")
    assert table["generation"].to_list()[:2] == [0, 1]
    assert {"data_games", "learned_log_loss", "six_weight_brier", "gain gaston", "cpu_per_game"} <= set(table.columns)
    verdict = json.loads((straight / "verdict.json").read_text())
    assert verdict["verdict"] == "settled" or verdict["verdict"].startswith("still moving")


def test_the_probe_plays_4x_the_top_budget_and_the_strong_mixtures_against_the_top(straight):
    from strategies import resolve

    probe = json.loads((straight / "probe.json").read_text())
    top = probe["top"]
    spec = resolve(str(straight / f"g{top}" / "probe.toml"))
    assert (spec.params["samples"], spec.params["horizon"]) == (2 * 4, 1 * 4)
    for what in ("above", "strong"):
        assert sorted(probe[what]) == ["gaston", "horned-king"]
        assert all(g["games"] == 2 and g["low"] <= g["gain"] <= g["high"] for g in probe[what].values())


# ============================================================================ the command


def test_learn_command_passes_its_options_and_on_ctrl_c_says_how_to_resume(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from simlab.cli import app

    seen = {}

    def interrupted(folder, settings, progress=None):
        seen.update(folder=folder, settings=settings)
        raise KeyboardInterrupt

    monkeypatch.setattr(E, "learn", interrupted)
    folder = str(tmp_path / "run")
    args = ["learn", folder, "-n", "7", "--paired-games", "9", "--generations", "2", "--probe-games", "0"]
    res = CliRunner().invoke(app, [*args, "--villains", "gaston,horned-king", "--seed", "4", "--threads", "1"])
    assert res.exit_code == 130, res.output
    assert f"resume with the same command (simlab learn {folder}" in res.output
    assert "the games of the one under way are kept" in res.output
    expected = E.LearnSettings(7, 9, 2, 4, "search", L.TUNED_GAMES, 0, 0, ("gaston", "horned-king"), threads=1)
    assert seen == {"folder": folder, "settings": expected}


def test_learn_says_its_plan_first_and_logged_to_a_file_one_line_a_step(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from simlab.cli import app
    from simlab.runs import speed
    from simlab.studies import workload

    def three_steps(folder, settings, progress=None):
        progress(0, 1000, "generation 0: self-play")
        progress(400, 1000, "generation 0: self-play")
        progress(700, 1000, "generation 1: paired against 0")
        raise KeyboardInterrupt

    monkeypatch.setattr(E, "learn", three_steps)
    monkeypatch.setattr(speed, "rate", lambda level, players=2, threads=None: 2.0)  # a slow machine: a long plan
    folder = str(tmp_path / "run")
    res = CliRunner().invoke(app, ["learn", folder, "-n", "7", "--paired-games", "9", "--retries", "1"])
    assert res.exit_code == 130, res.output
    lines = res.stderr.strip().splitlines()
    settings = E.LearnSettings(games=7, paired_games=9, retries=1)
    planned = workload.learn(settings).games
    assert planned == E.planned_games(settings) > E.planned_games(E.LearnSettings(games=7, paired_games=9))
    assert lines[0].startswith(f"plan: learn, at most {planned:,} games in ") and f"kept in {folder}" in lines[0]
    steps = [ln for ln in lines if ln.startswith("learn: ")]
    assert steps == [
        "learn: generation 0: self-play (0 of at most 1,000 games done, 0 s in)",
        "learn: generation 1: paired against 0 (700 of at most 1,000 games done, 0 s in)",
    ]


def test_a_resumed_run_says_its_plan_after_the_steps_it_read_back_and_times_what_is_left(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from simlab.cli import app
    from simlab.runs import speed
    from simlab.studies import workload

    def resumed(folder, settings, progress=None):
        total = E.planned_games(settings)
        progress(100, total, "generation 0: self-play: kept")
        progress(400, total, "generation 1: paired against 0: kept")
        progress(400, total, "generation 1: self-play")
        raise KeyboardInterrupt

    monkeypatch.setattr(E, "learn", resumed)
    monkeypatch.setattr(speed, "rate", lambda level, players=2, threads=None: 2.0)
    folder = str(tmp_path / "run")
    res = CliRunner().invoke(app, ["learn", folder, "-n", "7", "--paired-games", "9"])
    lines = [ln for ln in res.stderr.strip().splitlines() if ln.startswith(("plan", "learn"))]
    settings = E.LearnSettings(games=7, paired_games=9)
    work = workload.learn(settings, folder)  # nothing finished on disk: a fresh run's bound
    assert 0 < work.games <= E.planned_games(settings)
    left = workload.duration(work.seconds())
    assert lines[0].startswith(f"plan: learn, at most {work.games:,} games in ") and f"about {left} (" in lines[0]
    assert f"these are the games it can still play: 400 are in the finished steps kept in {folder} (" in lines[0]
    assert lines[1] == f"learn: 2 finished steps read back from {folder} (400 games)"
    assert lines[2].startswith("learn: generation 1: self-play (400 of at most") and len(lines) == 3
    # generation 1 accepted and played, at 3x generation 0's CPU a game: fewer games left, each at its cost
    for k, cpu in ((0, 0.25), (1, 0.75)):
        (tmp_path / "run" / f"g{k}").mkdir(parents=True, exist_ok=True)
        (tmp_path / "run" / f"g{k}" / "play.json").write_text(json.dumps({"cpu_per_game": cpu}))
    (tmp_path / "run" / "g1" / "accept.json").write_text(json.dumps({"accepted": True}))
    res = CliRunner().invoke(app, ["learn", folder, "-n", "7", "--paired-games", "9"])
    line = res.stderr.strip().splitlines()[0]
    fewer = workload.learn(settings, folder)
    assert fewer.games < work.games and line.startswith(f"plan: learn, at most {fewer.games:,} games in ")
    assert f"about {workload.duration(3 * fewer.seconds())} (" in line
    assert "games it can still play, at generation 1's cost a game, 3.0x generation 0's: 400 are in" in line


def test_the_games_a_stopped_run_played_correct_its_next_plan(monkeypatch, tmp_path):
    """A learning run is mostly stopped and resumed, never finished in one go: what the games it played took over
    their share of the estimate corrects the next plan, as a finished command's time does; steps read back, not
    played (before the games played or after them, as a probe played before), say nothing."""
    from typer.testing import CliRunner

    from simlab.cli import app
    from simlab.cli.learn import _plan_line
    from simlab.runs import speed

    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(tmp_path / "speed.json"))
    monkeypatch.setattr(speed, "_memory", {})
    monkeypatch.setattr(speed, "rate", lambda level, players=2, threads=None: 2.0)
    record = speed.record_ratio
    told = []
    monkeypatch.setattr(speed, "record_ratio", lambda *a: (told.append(a), record(*a)))
    read_back_only = [(400, "generation 0: self-play: kept"), (900, "generation 1: paired against 0: kept")]
    played = [
        *read_back_only,
        (900, "generation 1: self-play"),
        (1500, "generation 1: self-play"),
        (2000, "probe: kept"),
    ]
    folder = tmp_path / "run"
    settings = E.LearnSettings(games=7, paired_games=9)
    for steps, ratio in ((read_back_only, 1.0), (played, speed.RATIO_LIMITS[0])):

        def stopped(folder, settings, progress=None, steps=steps):
            for done, label in steps:
                progress(done, E.planned_games(settings), label)
            raise KeyboardInterrupt

        monkeypatch.setattr(E, "learn", stopped)
        res = CliRunner().invoke(app, ["learn", str(folder), "-n", "7", "--paired-games", "9"])
        assert res.exit_code == 130, res.output
        assert speed.ratio("learn") == ratio  # 600 games played at once: far under their share of the plan
    _, raw, games = _plan_line(settings, None, folder, 900)
    [(command, share, took)] = told
    assert command == "learn" and share == pytest.approx(raw * 600 / games) and 0 < took < share


def test_the_eta_of_a_resumed_run_is_at_the_speed_of_the_games_it_plays(monkeypatch, tmp_path):
    """The steps read back from the folder count their games at once: the ETA must not take them for speed."""
    import functools

    from simlab.cli.common import LazyProgress
    from simlab.cli.learn import _whole_run_bar
    from simlab.runs import speed

    monkeypatch.setattr(speed, "rate", lambda level, players=2, threads=None: 1e9)  # a short plan: no plan line
    clock = [0.0]
    timed = functools.partial(LazyProgress, get_time=lambda: clock[0])
    bar, update, _, _ = _whole_run_bar(timed, E.LearnSettings(), tmp_path)
    for done, step in ((2_400, "generation 0: self-play"), (5_000, "generation 1: paired against 0"), (6_000, "fit")):
        update(done, 10_000, f"{step}: kept")  # read back
        clock[0] += 0.01
    for done in (6_000, 6_100, 6_200, 6_300):  # the probe, played here: 100 games a minute
        update(done, 10_000, "probe")
        clock[0] += 60
    task = bar.tasks[0]
    assert task.speed == pytest.approx(100 / 60) and task.time_remaining == pytest.approx(3_700 * 60 / 100, rel=0.01)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["-n", "3"], "games (-n) must be a whole number, at least 5"),
        (["--paired-games", "1"], "paired_games (--paired-games)"),
        (["--villains", "gaston,jafar"], "'jafar'"),
        (["--villains", "gaston"], "2 or 3 different villains"),
        (["--base", "expert"], "base must be a search strategy"),
        (["--features", "all"], "features (--features) must be one of base, key-cards, board, got 'all'"),
        (["--labels", "outcome"], "labels (--labels) must be one of results, search, got 'outcome'"),
    ],
)
def test_learn_command_bad_input_is_one_line_and_exit_2(tmp_path, args, named):
    from typer.testing import CliRunner

    from simlab.cli import app

    res = CliRunner().invoke(app, ["learn", str(tmp_path / "run"), *args])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and named in lines[0], res.output
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_the_same_seed_gives_the_same_models_with_the_paired_games_on_a_dask_cluster(base, straight, tmp_path):
    from simlab.runs.backend import DaskBackend, use

    backend = DaskBackend(n_workers=2)
    try:
        with use(backend):
            E.learn(tmp_path / "learning", tiny(base))
    finally:
        backend.close()
    assert contents(tmp_path / "learning") == contents(straight)


CTRL_C_SCRIPT = """
import os, signal, threading
from simlab.studies import learn as L
done = []
handled = threading.Event()
def on_sigint(signum, frame):
    handled.set()
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, on_sigint)
def interrupt_at_the_first_game(n, planned):
    done.append(n)
    if n == 1:
        os.kill(os.getpid(), signal.SIGINT)
        # on a loaded machine the main thread may not run before the threads play every game: wait until it has
        # the Ctrl-C (the other thread waits for this one's lock)
        handled.wait(60)
try:
    L.self_play(1000, 5, "expert", ("gaston", "horned-king"), threads=2, progress=interrupt_at_the_first_game)
    print("not interrupted", max(done))
except KeyboardInterrupt:
    print("interrupted", max(done))
"""


def test_ctrl_c_in_self_play_stops_the_threads_after_their_game_under_way():
    """In a process of its own: the suite's other tests may leave another SIGINT handler behind."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", CTRL_C_SCRIPT], capture_output=True, text=True, timeout=600)
    word, played = out.stdout.split()[-2:] if out.stdout.split() else ("", "0")
    planned = 1000 * 4
    assert word == "interrupted", out.stdout + out.stderr
    assert int(played) < planned / 2, f"{played} of {planned} games played after Ctrl-C"


def test_positions_without_decisions_play_in_a_fresh_process():
    import subprocess
    import sys

    code = (
        "from simlab.studies import learn\n"
        "frame = learn.positions(3, 1, 'expert', ('gaston', 'horned-king'), threads=1)\n"
        "print(frame.height > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr[-2000:]


def test_the_step_files_give_the_table_the_loop_writes_and_the_docs_show_it(straight):
    table = pl.read_parquet(straight / "learning.parquet")
    assert E.learning_table(E.read_generations(straight)).equals(table)
    text = E.learning_markdown(straight)
    verdict = json.loads((straight / "verdict.json").read_text())
    assert f"Top generation {verdict['top']}: **{verdict['verdict']}**" in text
    assert text.count("\n| 0 |") == 2  # generation 0 in both tables


def test_a_run_resumed_for_more_generations_shows_its_last_verdict_as_under_way(straight, tmp_path):
    import shutil

    folder = tmp_path / "learning"
    shutil.copytree(straight, folder)
    settings = json.loads((folder / "settings.json").read_text())
    (folder / "settings.json").write_text(json.dumps(settings | {"generations": settings["generations"] + 1}))
    verdict = json.loads((folder / "verdict.json").read_text())
    text = E.learning_markdown(folder)
    assert "The run is under way: generation" in text and f"**{verdict['verdict']}**" in text
    assert "Top generation" not in text


# ============================================================================ the fixed point


def equal_players(monkeypatch):
    """Every paired comparison measured as no difference at all (gain 0, interval [0, 0]): a refused generation
    that plays exactly as its predecessor."""

    def no_gain(villain, mine, incumbent, games, seed, threads, villains, cache, step, keep, label, discarded):
        return {"gain": 0.0, "low": 0.0, "high": 0.0, "games": games}

    monkeypatch.setattr(L, "paired_gain", no_gain)


@pytest.mark.parametrize(
    ("gains", "same"),
    [
        ({"gaston": (0.02, 0.0, 0.04)}, True),
        ({"gaston": (-0.02, -0.04, 0.0)}, True),
        ({"gaston": (0.0, -0.041, 0.039)}, False),
        ({"gaston": (0.0, 0.0, 0.0), "horned-king": (-0.021, -0.03, -0.01)}, False),
        ({"gaston": (-0.3, -0.35, -0.25)}, False),  # a much weaker fit is no fixed point
        ({}, False),
    ],
)
def test_a_generation_is_equivalent_within_2_points_and_an_interval_inside_4(gains, same):
    given = {v: {"gain": g, "low": lo, "high": hi, "games": 10} for v, (g, lo, hi) in gains.items()}
    assert E.equivalent(given) is same


def test_a_refused_generation_playing_as_the_top_plays_its_own_games_and_settles_the_top(base, tmp_path, monkeypatch):
    from simlab.studies.generations import read_rungs

    equal_players(monkeypatch)
    folder = tmp_path / "learning"
    bound = LeftBound(folder, tiny(base))
    res = E.learn(folder, tiny(base), progress=bound)
    bound.holds()
    assert json.loads((folder / "g1" / "accept.json").read_text())["accepted"] is False  # gain 0 is not stronger
    assert (folder / "g1" / "play.json").is_file()  # but it plays as g0: its answers are compared
    assert res.verdict["top"] == 0 and res.verdict["settled"] is True and res.verdict["verdict"] == "settled"
    assert "the loop's fixed point" in res.verdict["reason"] and res.verdict["values"]
    rungs = read_rungs(folder)
    assert rungs.top == 0 and set(rungs.trace["level"]) == {"search g0"}  # a refused generation is no rung
    assert "| 1 (refused) |" in E.learning_markdown(folder)


def test_a_settled_top_whose_4x_search_still_gains_is_still_moving():
    settled = {"settled": True, "verdict": "settled", "top": 1, "reason": "generation 2 refused"}
    probe = {
        "above": {
            "gaston": {"gain": 0.13, "low": 0.05, "high": 0.21},
            "horned-king": {"gain": 0.05, "low": -0.03, "high": 0.13},
        }
    }
    out = E.with_probe(settled, probe)
    assert out["settled"] is False and out["verdict"] == "still moving (±13.0 points)"
    assert "gaston +13.0 points" in out["reason"] and "horned-king" not in out["reason"]
    probe["above"]["gaston"] |= {"gain": 0.03}
    assert E.with_probe(settled, probe) == settled  # 3 points supports, and a gain not above 0 is noise


def test_a_run_on_the_key_cards_fits_its_value_models_on_them(base, straight, tmp_path):
    from strategies.learned import value

    assert "features" not in json.loads((straight / "settings.json").read_text())  # as runs before the key cards
    folder = tmp_path / "key-cards"
    E.learn(folder, tiny(base, probe_games=0, features="key-cards"))
    assert json.loads((folder / "settings.json").read_text())["features"] == "key-cards"
    model = value.read(folder / "g1" / "value.json")
    assert model.features == value.FEATURE_SETS["key-cards"] and model.provenance["features"] == "key-cards"
    assert "--features key-cards" in model.provenance["command"]
    with pytest.raises(InputError, match=r"features='key-cards' \(asked 'base'\)"):
        E.open_folder(folder, tiny(base, probe_games=0))
    with pytest.raises(InputError, match=r"features='base' \(asked 'key-cards'\)"):
        E.open_folder(straight, tiny(base, features="key-cards"))


# ============================================================================ climbing the budget


def test_a_run_on_the_searchs_labels_fits_its_value_models_to_them(base, straight, tmp_path):
    from strategies.learned import value

    folder = tmp_path / "search-labels"
    E.learn(folder, tiny(base, probe_games=0, labels="search"))
    assert json.loads((folder / "settings.json").read_text())["labels"] == "search"
    assert "labels" not in json.loads((straight / "settings.json").read_text())  # as runs before the labels
    model = value.read(folder / "g1" / "value.json")
    assert model.provenance["labels"] == "search" and "--labels search" in model.provenance["command"]
    # the same games as a run on the results (the seed decides them), another fit
    results = tmp_path / "results"
    E.learn(results, tiny(base, probe_games=0))
    for name in ("positions.parquet", "decisions.parquet"):
        assert pl.read_parquet(folder / "g0" / name).equals(pl.read_parquet(results / "g0" / name))
    assert not np.array_equal(model.weights, value.read(results / "g1" / "value.json").weights)
    with pytest.raises(InputError, match=r"labels='search' \(asked 'results'\)"):
        E.open_folder(folder, tiny(base, probe_games=0))


def test_the_searchs_labels_are_its_value_of_the_option_a_seat_took_first_in_its_turn():
    positions = pl.DataFrame(
        {
            "seating": ["a-vs-b"] * 4 + ["a-vs-b-vs-c"] * 3,
            "game": [0] * 7,
            "turn": [0, 0, 1, 1, 0, 0, 0],
            "seat": [0, 1, 0, 1, 0, 1, 2],
            "seats": [2] * 4 + [3] * 3,
            "result": [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        }
    )
    decisions = pl.DataFrame(
        {
            "seating": ["a-vs-b"] * 4 + ["a-vs-b-vs-c"] * 2,
            "game": [0] * 6,
            "decision": [0, 0, 1, 2, 0, 1],
            "chosen": [True, False, True, True, True, True],
            "seat": [0, 0, 0, 1, 1, 1],
            "turn": [1, 1, 1, 2, 1, 1],  # the turns begun before each: turn 0's decisions say 1
            "search_value": [0.7, 0.9, 0.2, float("nan"), 0.6, 0.1],
        }
    )
    out = L.search_labels(positions, decisions)
    # turn 0 of the 2-player game: seat 0's first value, one minus it for seat 1; turn 1 had no searched decision;
    # in the 3-player game seat 1's first value labels it, the others keep their results
    assert out["label"].to_list() == pytest.approx([0.7, 0.3, 1.0, 0.0, 0.0, 0.6, 0.0])
    assert out["searched"].to_list() == [True, True, False, False, False, True, False]
    assert out.columns == [*positions.columns, "label", "searched"]
    with pytest.raises(InputError, match="no search_value"):
        L.search_labels(positions, decisions.drop("search_value"))


def gains_of_a_longer_horizon(monkeypatch):
    """Every paired comparison measured as +10 points [+5, +15] for a candidate with a longer horizon than its
    incumbent, and as no difference otherwise."""
    from strategies import resolve

    def horizon(strategy) -> float:
        return resolve(strategy).params["horizon"] if str(strategy).endswith(".toml") else 0.0  # strong: a mixture

    def gain(villain, mine, incumbent, games, seed, threads, villains, cache, step, keep, label, discarded):
        longer = horizon(mine) > horizon(incumbent)
        g = 0.1 if longer else 0.0
        return {"gain": g, "low": g / 2, "high": 3 * g / 2, "games": games}

    monkeypatch.setattr(L, "paired_gain", gain)


def test_a_refused_top_climbs_to_twice_its_horizon_and_learns_on_at_that_budget(base, tmp_path, monkeypatch):
    from simlab.studies.generations import read_rungs
    from strategies import resolve

    gains_of_a_longer_horizon(monkeypatch)
    folder = tmp_path / "learning"
    bound = LeftBound(folder, tiny(base, climbs=1, generations=4))
    res = E.learn(folder, tiny(base, climbs=1, generations=4), progress=bound)
    bound.holds()
    climb = json.loads((folder / "g2" / "accept.json").read_text())
    assert climb["accepted"] and climb["incumbent"] == 0
    both = ["gaston", "horned-king"]
    assert climb["climb"] == {
        "from": 0,
        "axis": "horizon",
        "tried": both,
        "budgets": dict.fromkeys(both, [2, 2]),
        "budget": "2x2",
        "villains": both,
    }
    assert not (folder / "g2" / "accept-1.json").exists()  # the horizon was stronger: no try at twice the worlds
    climbed = resolve(str(folder / "g2" / "search.toml")).params
    assert (climbed["samples"], climbed["horizon"], climbed["value"]) == (2, 2, 1)  # g0's own scoring
    learned = resolve(str(folder / "g3" / "search.toml")).params
    assert (learned["samples"], learned["horizon"], learned["value"]) == (2, 2, 2)  # learned on at the climb's budget
    assert json.loads((folder / "g3" / "accept.json").read_text())["accepted"] is False
    assert res.verdict["top"] == 2 and "fixed point" in res.verdict["reason"]
    assert res.verdict["verdict"] == "still moving (±10.0 points)"  # its 4x search has a longer horizon: it gains
    assert res.table["budget"].to_list() == ["2x1", "2x1", "2x2", "2x2"]
    assert E.learning_table(E.read_generations(folder)).equals(pl.read_parquet(folder / "learning.parquet"))
    assert "| 2 | 2x2 (climb from 0) |" in E.learning_markdown(folder)
    rungs = read_rungs(folder)
    assert rungs.top == 2 and set(rungs.trace["level"]) == {"search g0", "search g2"}  # g1, refused, is no rung
    probe = json.loads((folder / "g2" / "probe.json").read_text())
    assert probe == json.loads((folder / "probe.json").read_text()) and probe["top"] == 2
    above = resolve(str(folder / "g2" / "probe.toml")).params
    assert (above["samples"], above["horizon"]) == (2 * 4, 2 * 4)  # 4x the climbed top's budget
    shown = E.learning_markdown(folder).split("The probe above generation 2, ")[1]
    assert "| 4x budget | +10.0% [+5.0, +15.0] | +10.0% [+5.0, +15.0] |" in shown and "| strong mixture |" in shown
    # a retry of the refused generation 1 would come before the climb above it and could disown it
    with pytest.raises(InputError, match=r"--retries 1: generation 1 was refused .* generations 2 to 3 were played"):
        E.learn(folder, tiny(base, climbs=1, generations=4, retries=1))
    assert json.loads((folder / "settings.json").read_text())["retries"] == 0  # the folder left as it was


def test_a_verdict_on_a_lower_top_leaves_a_climb_above_it_under_way(base, straight, tmp_path):
    import shutil

    from simlab.studies.generations import read_rungs

    folder = tmp_path / "learning"
    shutil.copytree(straight, folder)
    verdict = json.loads((folder / "verdict.json").read_text())
    assert not read_rungs(folder).under_way
    verdict["top"] -= 1
    (folder / "verdict.json").write_text(json.dumps(verdict))
    assert read_rungs(folder).under_way
    top = read_rungs(folder).top
    said = f"The run is under way: generation {top} is the top played so far (the verdict on generation {top - 1} was"
    assert said in E.learning_markdown(folder)


def test_a_climb_refused_at_both_budgets_leaves_the_top_and_a_resume_with_climbs_climbs(base, tmp_path, monkeypatch):
    from strategies import resolve

    equal_players(monkeypatch)
    once, straight = tmp_path / "once", tmp_path / "straight"
    E.learn(once, tiny(base, generations=4, probe_games=0))
    assert not (once / "g2").exists()
    bound = LeftBound(once, tiny(base, generations=4, probe_games=0, climbs=1))
    res = E.learn(once, tiny(base, generations=4, probe_games=0, climbs=1), progress=bound)
    bound.holds()
    E.learn(straight, tiny(base, generations=4, probe_games=0, climbs=1))
    assert contents(once) == contents(straight)
    for name, axis, at in (("accept.json", "horizon", "2x2"), ("accept-1.json", "samples", "4x1")):
        doc = json.loads((once / "g2" / name).read_text())
        assert not doc["accepted"] and doc["climb"]["villains"] == [] and doc["climb"]["budget"] == at
        assert doc["climb"]["axis"] == axis and doc["climb"]["tried"] == ["gaston", "horned-king"]
    params = resolve(str(once / "g2" / "search.toml")).params
    assert (params["samples"], params["horizon"]) == (4, 1)  # the last try's files stand, as a retry's do
    assert res.verdict["top"] == 0 and res.verdict["settled"]
    said = "climbing refused: no villain of generation 0 at twice its horizon nor twice its samples is stronger"
    assert said in res.verdict["reason"]
    assert [(c["climb"]["budget"], c["accepted"]) for c in E.climb_tries(once)] == [("2x2", False), ("4x1", False)]
    page = E.learning_markdown(once)
    assert "| 2 | 0 | 2x2 | none | +0.0% [+0.0, +0.0] |" in page and "| 2 | 0 | 4x1 | none |" in page
    with pytest.raises(InputError, match=r"climbs=1 \(asked 0\)"):
        E.learn(once, tiny(base, generations=4, probe_games=0))


def test_each_villain_climbs_where_its_own_seat_gains(base, tmp_path, monkeypatch):
    """Gaston gains with a longer horizon only, the Horned King with more worlds only: the climb gives each his own."""
    from strategies import resolve
    from strategies.search import budget_of

    def own(strategy, villain):
        return budget_of(resolve(strategy).params, villain) if str(strategy).endswith(".toml") else (0, 0)

    def gain(villain, mine, incumbent, games, seed, threads, villains, cache, step, keep, label, discarded):
        (w, h), (w0, h0) = own(mine, villain), own(incumbent, villain)
        better = h > h0 if villain == "gaston" else w > w0
        g = 0.1 if better else 0.0
        return {"gain": g, "low": g / 2, "high": 3 * g / 2, "games": games}

    monkeypatch.setattr(L, "paired_gain", gain)
    folder = tmp_path / "learning"
    res = E.learn(folder, tiny(base, climbs=1, generations=4, probe_games=2))
    first, second = (json.loads((folder / "g2" / n).read_text()) for n in ("accept.json", "accept-1.json"))
    assert first["climb"]["villains"] == ["gaston"] and first["accepted"]
    assert second["climb"]["tried"] == ["horned-king"] and list(second["gains"]) == ["horned-king"]  # no replay
    assert second["climb"]["villains"] == ["horned-king"]
    climbed = resolve(str(folder / "g2" / "search.toml")).params
    assert budget_of(climbed, "gaston") == (2, 2) and budget_of(climbed, "horned-king") == (4, 1)
    learned = resolve(str(folder / "g3" / "search.toml")).params  # learned on at each villain's own budget
    assert budget_of(learned, "gaston") == (2, 2) and budget_of(learned, "horned-king") == (4, 1)
    probe = resolve(str(folder / "g2" / "probe.toml")).params
    assert budget_of(probe, "gaston") == (8, 8) and budget_of(probe, "horned-king") == (16, 4)
    assert res.verdict["top"] == 2 and res.table["budget"].to_list()[2:] == ["G 2x2, HK 4x1"] * 2
    merged = E.read_generations(folder)[2]["accept"]
    assert merged["accepted"] and merged["climb"]["axes"] == {"gaston": "horizon", "horned-king": "samples"}
    assert {v: g["gain"] for v, g in merged["gains"].items()} == {"gaston": 0.1, "horned-king": 0.1}
    assert E.learning_table(E.read_generations(folder)).equals(pl.read_parquet(folder / "learning.parquet"))


def test_a_runs_cpu_time_is_every_step_it_played(straight):
    doc = json.loads((straight / "learning.json").read_text())
    steps = [g[s]["cpu_seconds"] for g in doc["generations"] for s in ("play", "fit", "accept") if s in g]
    assert E.cpu_seconds(straight) == pytest.approx(sum(steps) + doc["probe"]["cpu_seconds"])
    assert f"{E.cpu_seconds(straight) / 3600:.1f} CPU hours" in E.learning_markdown(straight)


def test_a_climb_generation_shows_the_gains_of_the_villains_that_climbed_and_their_budgets():
    def g(x):
        return {"gain": x, "low": x - 0.02, "high": x + 0.02, "games": 10}

    villains = ["gaston", "lady-tremaine", "horned-king"]
    first = {
        "generation": 3,
        "gains": {"gaston": g(-0.02), "lady-tremaine": g(0.055), "horned-king": g(-0.01)},
        "incumbent": 1,
        "cpu_seconds": 2.0,
        "climb": {"from": 1, "axis": "horizon", "tried": villains, "villains": ["lady-tremaine"],
                  "budgets": dict.fromkeys(villains, [32, 8])},
    }  # fmt: skip
    second = {
        "generation": 3,
        "gains": {"gaston": g(0.019), "horned-king": g(0.025)},
        "incumbent": 1,
        "cpu_seconds": 3.0,
        "climb": {"from": 1, "axis": "samples", "tried": ["gaston", "horned-king"], "villains": ["horned-king"],
                  "budgets": {"gaston": [64, 4], "lady-tremaine": [32, 8], "horned-king": [64, 4]}},
    }  # fmt: skip
    top_budget = dict.fromkeys(villains, (32, 4))
    merged = E.merged_climb([first, second], E.LearnSettings(), top_budget)
    assert merged["gains"] == {"lady-tremaine": g(0.055), "horned-king": g(0.025)}  # Gaston plays as the top does
    assert merged["accepted"] and merged["cpu_seconds"] == 5.0
    assert merged["climb"]["budget"] == "G 32x4, LT 32x8, HK 64x4"
    assert merged["reason"] == "accepted: lady-tremaine at twice its horizon; horned-king at twice its samples"
