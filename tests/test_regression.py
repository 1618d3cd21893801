"""Speed and structure changes must not change a game: the fixed-seed fixture, checked exactly.

The fixture (``tests/fixtures/regression.parquet``, made by ``tests/regression_fixture.py``) holds per-game
winner, end reason, rounds, turns and a digest of the cards each seat drew and played, for every pairing
and level. A change that means to alter play regenerates it in its own commit, saying why.
"""

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import regression_fixture as rf

from strategies import STRATEGIES

COLUMNS = ["winner_seat", "end", "rounds", "turns0", "turns1", "turns2", "cards"]


@pytest.fixture(scope="module")
def fixture() -> pl.DataFrame:
    return pl.read_parquet(rf.FIXTURE)


def differences(expected: pl.DataFrame, got: pl.DataFrame) -> pl.DataFrame:
    joined = expected.join(got, on=["config", "game"], how="full", suffix="_now", coalesce=True)
    return joined.filter(pl.any_horizontal([pl.col(c).ne_missing(pl.col(f"{c}_now")) for c in COLUMNS]))


def test_fixture_covers_every_pairing_level_and_variant(fixture):
    names = set(fixture["config"].unique())
    assert names == {c["name"] for c in rf.configs()}
    # every scripted strategy; the search player with a learned value model in a few games (a search game costs
    # hundreds of scripted ones); the apprentice plays a fitted model that is refitted: the determinism tests hold it
    assert set(rf.LEVELS) == set(STRATEGIES) - {"search", "apprentice"}
    assert {n for n in names if "learned-g1" in n} == {
        "lady-tremaine-vs-horned-king:learned-g1/learned-g1",
        "gaston-vs-lady-tremaine-vs-horned-king:learned-g1/learned-g1/learned-g1",
    }
    pairings = {c["villains"] for c in rf.configs()}
    assert len(pairings) == 7  # six 2-player pairings (mirrors included) and the 3-player game


@pytest.mark.parametrize("config", rf.configs(), ids=lambda c: c["name"])
def test_games_identical_to_fixture(config, fixture):
    expected = fixture.filter(pl.col("config") == config["name"])
    assert expected.height == config["games"]
    diff = differences(expected, rf.play(config))
    assert diff.height == 0, (
        f"{diff.height} of {config['games']} games of {config['name']} differ from the fixture (seed {rf.SEED}); "
        f"first: {diff.head(5).to_dicts()}"
    )


def test_fixture_check_notices_a_changed_decision(fixture):
    """A strategy weight nudged in one run changes some games: the comparison sees them."""
    config = next(c for c in rf.configs() if c["name"] == "gaston-vs-horned-king:expert/expert")
    nudged = dict(config, strategies=("gaston-rush", "expert"))
    expected = fixture.filter(pl.col("config") == config["name"])
    assert differences(expected, rf.play(nudged).with_columns(pl.lit(config["name"]).alias("config"))).height > 0


BOUNDSCHECK_GAMES = 100  # of each run: the compile with bounds checks is most of the test's time

_BOUNDSCHECKED = f"""
import polars as pl
import regression_fixture as rf
from test_regression import differences

fixture = pl.read_parquet(rf.FIXTURE)
runs = differ = 0
for config in rf.configs():
    config = dict(config, games=min(config["games"], {BOUNDSCHECK_GAMES}))
    expected = fixture.filter((pl.col("config") == config["name"]) & (pl.col("game") < config["games"]))
    differ += differences(expected, rf.play(config)).height
    runs += 1
print(runs, differ)
"""


@pytest.mark.slow
def test_fixture_games_never_index_below_zero(tmp_path):
    """simlab's kernels take a negative array index as given (compile/patches/index_as_given.py: no wraparound),
    which is only sound if no kernel ever indexes with one: with numba's bounds checks on, such an index raises
    IndexError. The first games of every fixture run play with them on (a fresh cache, so every kernel compiles with
    them) and end as the fixture says."""
    out = subprocess.run(
        [sys.executable, "-c", _BOUNDSCHECKED],
        cwd=Path(__file__).parent,
        env=dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == [str(len(rf.configs())), "0"]
