"""Issue 58, defect 5 and lower: every size goes through :func:`simlab.runs.sizes.plan_size`, which refuses what
cannot be stored or finished, naming the value and the limit, before anything is allocated or played."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.errors import InputError
from simlab.runs import sizes
from simlab.runs.sizes import plan_size

MATCHUP = "gaston-vs-horned-king"


def test_a_plan_names_the_value_the_limit_and_the_largest_that_fits():
    with pytest.raises(InputError) as err:
        plan_size("-n", 10**12, kept_bytes_each=8, what="games")
    msg = str(err.value)
    assert msg.startswith("-n 1,000,000,000,000 (games) would keep 8.0 TB in memory, over the limit of")
    assert msg.endswith(f"give -n at most {sizes.MEMORY_LIMIT // 8:,}")
    with pytest.raises(
        InputError, match=r"--budget 9,223,372,036,854,775,807 \(search games\) means .* games: at least"
    ):
        plan_size("--budget", 2**63 - 1, what="search games")
    with pytest.raises(
        InputError, match="--budget must be a whole number from 1 to 2\\*\\*63 - 1, got 9223372036854775808"
    ):
        plan_size("--budget", 2**63)
    streamed = plan_size("-n", 10**18, streamed=True)  # what streams is held only to what it keeps and writes
    assert streamed.games == 10**18 and streamed.kept_bytes == 0


def test_leverage_refuses_a_huge_n_before_allocating(monkeypatch):
    from simlab.studies import leverage, whatif

    def never(*a, **k):
        raise AssertionError("played or allocated")

    monkeypatch.setattr(whatif, "winner_indices", never)
    with pytest.raises(InputError, match=r"^-n 1,000,000,000,000 \(games per matchup and reading\) would keep"):
        leverage.leverage(n_games=10**12, matchups=[MATCHUP])


def test_a_sweep_range_and_a_tune_budget_are_planned(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    got = runner.invoke(
        app, ["sweep", "-m", MATCHUP, "--card", "Get Out!", "--attribute", "cost", "--values", "1..100000", "-n", "10"]
    )
    assert got.exit_code == 2 and got.output.startswith(
        "error: --values '1..100000' gives 100,000 values, over the limit"
    )
    got = runner.invoke(
        app, ["sweep", "-m", MATCHUP, "--card", "Get Out!", "--attribute", "cost", "--values", "1..9", "-n", str(2**62)]
    )
    assert got.exit_code == 2 and got.output.startswith(
        "error: -n 4,611,686,018,427,387,904 (games at each of 9 values) would keep"
    )
    got = runner.invoke(app, ["tune", "--villain", "gaston", "--budget", str(2**63 - 1), "--out", "t.toml"])
    assert got.exit_code == 2 and "--budget 9,223,372,036,854,775,807 (search games) means" in got.output
    got = runner.invoke(app, ["tune", "--villain", "gaston", "--budget", str(2**63), "--out", "t.toml"])
    assert got.exit_code == 2 and len(got.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        "matrix",
        "first-seat",
        "goldfish --villain gaston",
        "cards --villain gaston",
        "difficulty --villain gaston",
        "ladder --villain gaston",
        "leverage --matchup gaston-vs-horned-king",
        "fix --matchup gaston-vs-horned-king",
    ],
)
def test_a_huge_n_is_refused_before_any_game(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from simlab.runs import backend

    def never(job):
        raise AssertionError("a game was played")

    monkeypatch.setattr(backend, "play_chunk", never)
    got = CliRunner().invoke(app, [*command.split(), "-n", str(2**62), "--threads", "1"])
    assert got.exit_code == 2 and len(got.output.strip().splitlines()) == 1, got.output
    assert got.output.startswith("error: -n 4,611,686,018,427,387,904"), got.output
    assert list(tmp_path.iterdir()) == []
