"""The two tiers: ``pytest`` is the default tier (pyproject's addopts: ``-m 'not slow'``), the developer loop, and
``pytest -m slow`` the slow tier; README's test command runs both, one after the other, and .ci/run runs exactly
that command (their times: README, from reports/test-times.json). Marked ``slow``: the long statistical and many-game
tests, those that start processes (a subprocess, a Dask cluster, a browser) and those that compile cold. The
quick loop keeps the guards a change must pass every time."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import regression_fixture as rf
from conftest import COLLECTED, TIERS_OUT

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# Whole files that stay in the quick loop: the layer rule, card abilities and the rules FAQ, bad input.
QUICK_FILES = (
    "tests/test_layout.py",
    "tests/test_abilities.py",
    "tests/test_rules_faq.py",
    "tests/test_bad_input.py",
    "tests/test_tiers.py",
)
# The costliest tests (each 5 s to 100 s here): never in the quick loop.
SLOW = (
    "tests/test_regression.py::test_fixture_games_never_index_below_zero",
    "tests/test_report.py::test_report_files_and_settings",
    "tests/test_search.py::test_search_choices_do_not_depend_on_hidden_cards",
    "tests/test_equilibrium.py::test_best_responses_grow_the_populations_and_move_the_value",
    "tests/test_distributed.py::test_a_worker_with_other_rule_data_or_version_is_refused[rules]",
    "tests/test_distributed.py::test_unreachable_scheduler_is_one_line",
    "tests/test_warmup.py::test_help_rules_strategies_and_bad_input_compile_nothing",
)


def whole_suite(config, tmp_path) -> dict[str, list[str]]:
    """Every test of the suite with its tier markers: this session's collection when it took in every test
    file, else a collection in another process (as when this file is run alone)."""
    here = config.stash.get(COLLECTED, {})
    files = {p.relative_to(ROOT).as_posix() for p in TESTS.rglob("test_*.py")}
    if files <= {nodeid.split("::")[0] for nodeid in here}:
        return here
    out = tmp_path / "tiers.json"
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(TESTS)],
        cwd=ROOT,
        env=dict(os.environ, **{TIERS_OUT: str(out)}),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    return json.loads(out.read_text())


def test_the_slow_tier_is_used_and_the_quick_loop_keeps_the_guards(pytestconfig, tmp_path):
    tests = whole_suite(pytestconfig, tmp_path)
    slow = {t for t, marks in tests.items() if "slow" in marks}
    quick = set(tests) - slow
    missing = [t for t in SLOW if t not in tests]
    assert missing == [], f"renamed or gone: {missing}"
    assert set(SLOW) <= slow, sorted(set(SLOW) - slow)
    assert len(quick) > 0.8 * len(tests), (len(quick), len(tests))  # most tests stay in the loop
    # the regression fixture's games, every pairing, level and variant
    fixture = {t for t in quick if t.startswith("tests/test_regression.py::test_games_identical_to_fixture[")}
    assert len(fixture) == len(rf.configs()) >= 50
    for name in QUICK_FILES:
        in_file = {t for t in tests if t.split("::")[0] == name}
        assert in_file and in_file <= quick, (name, sorted(in_file & slow))
    # every test that resolves a card (@pytest.mark.card): the villains' card tests among them
    cards = {t for t, marks in tests.items() if "card" in marks}
    assert len(cards) > 80 and cards <= quick, sorted(cards & slow)


def readme_test_command() -> str:
    """The README's test command: the line of its second set-up block that installs the test dependencies."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.startswith("pip install -e '.[test]'")]
    assert len(lines) == 1, lines
    return lines[0]


def test_readme_test_command_is_what_ci_runs_and_runs_both_tiers():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = readme_test_command()
    assert command in ci, f"README's test command {command!r} is not a line of .ci/run"
    assert command == "pip install -e '.[test]' && pytest && pytest -m slow"
    # the docs' set-up gives the same two commands as the README (it once gave the default tier alone)
    started = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"^pip install -e \. && simlab run .*$", readme, re.M).group(0)
    assert f"```bash\n{command}\n```" in started and f"```bash\n{first}\n```" in started
    # under set -e a failure before the list's last && goes on silently: the next line must stop CI on it
    after = ci[ci.index(command) + 2]
    assert after.startswith("status=$?;") and 'exit "$status"' in after, after
    # the default tier leaves the slow tests out; `-m slow` (given after addopts) runs them alone
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "-m 'not slow'" in pyproject["tool"]["pytest"]["ini_options"]["addopts"]
