"""Bad input, command by command: one line on stderr naming the bad value (and the valid choices), exit code
2, no traceback, and nothing written or changed in the working directory. The table holds every kind of bad
input once mishandled (tracebacks, the -n hang, usage boxes, values that were accepted, messages that did not name
the file or key) and at least one case per command."""

from __future__ import annotations

import hashlib
import shlex

import pytest
import typer
from typer.testing import CliRunner

from simlab.cli import OneLineErrors, app
from simlab.errors import InputError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run

runner = CliRunner()
M = "-m gaston-vs-horned-king"

FILES = {
    "latin1.toml": 'base = "expert"\nname = "Gaston\xe9"\n'.encode("latin-1"),  # not UTF-8
    "nan.toml": b'base = "expert"\n[params]\nfate_value = nan\n',
    "inf.toml": b'base = "expert"\n[params]\nobstacle_value = inf\n',
    "huge-games.toml": b'matchup = "gaston-vs-horned-king"\ngames = 99999999999999999999999\n',
    "sweep-colour.toml": b'matchup = "gaston-vs-horned-king"\n[sweep]\ncard = "Get Out!"\nattribute = "colour"\n'
    b"values = [3, 4]\n",
    "sweep-rule.toml": b'matchup = "gaston-vs-horned-king"\n[sweep]\nrule = "get_out"\nvalues = ["sometimes"]\n',
    "first.toml": b'matchup = "gaston-vs-horned-king"\nfirst = "jafar"\n',
    "backend.toml": b'matchup = "gaston-vs-horned-king"\nbackend = "spark"\n',
    "scheduler.toml": b'matchup = "gaston-vs-horned-king"\nbackend = "dask"\nscheduler = "notaurl"\n',
    "report-villains.toml": b'name = "r"\n[report]\nvillains = ["jafar"]\n',
    "report-search.toml": b'name = "r"\n[report]\nsearch_games = -1\n',
    "report-search0.toml": b'name = "r"\n[report]\nsearch_games = 0\n',
    "blocker": b"",  # a file where a directory is wanted
    "real.csv": b"villains,winner,first,rounds\ngaston;horned-king,gaston,gaston,20\n",  # a log of real games
    # TOML deep enough for tomllib's recursion to fail, and nested just past the limit; a file too large
    "deep.toml": b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "deep-tables.toml": b"a" + b".a" * 40 + b" = 1\n",
    "huge.toml": b"# " + b"x" * 1_000_000 + b"\n",
    # a report's name is one folder name inside --out
    "report-up.toml": b'name = "../../../some/where/evil"\n',
    "report-empty.toml": b'name = ""\n',
    "report-abs.toml": b'name = "/tmp/evil"\n',
    "report-dot.toml": b'name = ".."\n',
    "report-link.toml": b'name = "elsewhere"\n',
}

# (args, a piece of the one line); ids are the argument strings
CASES = [
    # --- input that once raised a traceback
    (f"run {M} -n 5 --strategy gaston=latin1.toml", "latin1.toml is not UTF-8 text"),
    (f"run {M} -n 5 --backend dask --scheduler notaurl", "'notaurl' is not a scheduler address; give tcp://HOST:PORT"),
    ("matrix -n 5 --png out.xyz", "--png 'out.xyz' must be a file name ending in .png"),
    (f"replay {M} --game 99999999999999999999", "--game must be a game index from 0 to 2**63 - 1"),
    (f"run {M} -n 5 --edit 'Get Out!:cost=99999999999999999999'", "'Get Out!' cost must be at most 1,000,000"),
    # --- the hang: -n beyond any game index (a huge valid -n starts at once: tests/test_run.py)
    (f"run {M} -n 99999999999999999999999", "-n must be a positive number of games of at most 2**63 - 1"),
    ("run --config huge-games.toml", "huge-games.toml: games must be a whole number from 1 to"),
    # --- usage boxes that are now one line
    (f"run {M} -n 1e99", "-n '1e99' is not valid"),
    ("cards -n 10", "Missing option '--villain' (whose cards)"),
    (f"run {M} --frobnicate 3", "No such option: --frobnicate"),
    (f"run {M} -n 5 extra", "unexpected extra argument(s) (extra); simlab run takes options only"),
    (f"rnu {M}", "No such command 'rnu'"),
    # --- accepted, should not have been
    (f"run {M} -n 5 --strategy gaston=nan.toml", "params.fate_value must be a finite number, got nan"),
    (f"run {M} -n 5 --strategy gaston=inf.toml", "params.obstacle_value must be a finite number, got inf"),
    ("run --resume ckpt -n 30", "-n 30 differs from its 20 (drop -n)"),
    ("run --resume ckpt --max-turns 7", "--max-turns 7 differs from its 3 (drop --max-turns)"),
    ("run --resume ckpt --checkpoint other", "drop --checkpoint"),
    ("run --resume ckpt --edit Temper:cost=3", "drop --edit"),
    ("matrix -n 5 --png plots.png", "--png 'plots.png' is a directory"),
    # --- messages that now name the file and the key
    ("sweep --config sweep-colour.toml", "sweep-colour.toml: [sweep] attribute: unknown attribute 'colour'"),
    ("sweep --config sweep-rule.toml", "sweep-rule.toml: [sweep] values: get_out cannot be 'sometimes'"),
    ("run --config first.toml", "first.toml: first 'jafar' is not valid; choose from rotate, random, gaston"),
    ("run --config backend.toml", "backend.toml: backend: unknown backend 'spark'; choose from local, dask"),
    ("run --config scheduler.toml", "scheduler.toml: scheduler: 'notaurl' is not a scheduler address"),
    # --- TOML however formed is one line naming the file and the limit
    ("strategies deep.toml", "strategy file deep.toml nests tables or arrays deeper than the limit of 16"),
    (f"run {M} -n 5 --strategy gaston=deep-tables.toml", "strategy file deep-tables.toml nests tables or arrays"),
    ("run --config deep.toml", "experiment file deep.toml nests tables or arrays deeper than the limit of 16"),
    ("report --config deep-tables.toml", "experiment file deep-tables.toml nests tables or arrays deeper than"),
    ("sweep --config huge.toml", "experiment file huge.toml is larger than the limit of 1,000,000 bytes"),
    ("strategies huge.toml", "strategy file huge.toml is larger than the limit of 1,000,000 bytes"),
    ("run --config plots.png", "experiment file plots.png is a directory; give a .toml file"),
    # --- repeats that contradict each other name both values
    (
        f"run {M} -n 5 --rules get_out=exactly_three --rules get_out=up_to_three",
        "--rules 'get_out=exactly_three' and --rules 'get_out=up_to_three' contradict each other",
    ),
    (
        f"run {M} -n 5 --strategy gaston=expert --strategy Gaston=novice",
        "--strategy 'gaston=expert' and --strategy 'Gaston=novice' contradict each other",
    ),
    (
        f"run {M} -n 5 --edit 'Get Out!:cost=3' --edit 'Get Out!:cost=5'",
        "--edit 'Get Out!:cost=3' and --edit 'Get Out!:cost=5' contradict each other",
    ),
    ("matrix -n 5 --edit 'Get Out!:cost=3' --edit 'Get Out!:cost=5'", "--edit 'Get Out!:cost=3' and --edit"),
    (
        "leverage -n 5 --perturb 'get_out=exactly_three + get_out=up_to_three'",
        "reading 'get_out=exactly_three' and reading 'get_out=up_to_three' contradict each other",
    ),
    (
        "difficulty -n 5 --reading 'board:Morva:flip + get_out=exactly_three + get_out=up_to_three'",
        "reading 'get_out=exactly_three' and reading 'get_out=up_to_three' contradict each other",
    ),
    ("tune --villain gaston --opponent lady-tremaine=novice --opponent lady-tremaine=expert", "contradict each other"),
    # --- a report config never picks a path outside the output folder
    ("report --config report-up.toml", "report-up.toml: name '../../../some/where/evil' must be a single name inside"),
    ("report --config report-empty.toml", "report-empty.toml: name '' must be a non-empty name"),
    ("report --config report-abs.toml", "report-abs.toml: name '/tmp/evil' must be a single name inside the output"),
    ("report --config report-dot.toml", "report-dot.toml: name '..' must be a single name inside the output folder"),
    ("report --config report-link.toml --out links", "report-link.toml: name 'elsewhere' leads outside the output"),
    # --- output paths checked before the first game
    ("matrix -n 5 --png /proc/x.png", "cannot write --png '/proc/x.png'"),
    ("leverage -n 5 --out /proc/x.csv", "cannot write --out '/proc/x.csv'"),
    ("leverage -n 5 --out x.txt", "--out 'x.txt' must be a file name ending in .parquet or .csv"),
    ("leverage -n 5 --png /proc/x.png", "cannot write --png '/proc/x.png'"),
    ("cards --villain gaston -n 5 --png /proc/x.png", "cannot write --png '/proc/x.png'"),
    (f"sweep {M} --rule get_out --values exactly_three --png /proc/x.png", "cannot write --png '/proc/x.png'"),
    (f"run {M} -n 5 --out /proc/x.parquet", "cannot write --out '/proc/x.parquet'"),
    (f"run {M} -n 5 --checkpoint /proc/ckpt", "cannot write --checkpoint '/proc/ckpt'"),
    (f"run {M} -n 5 --checkpoint real.csv", "--checkpoint 'real.csv' is a file; give a folder"),
    (f"run {M} -n 5 --checkpoint real.csv/ckpt", "cannot write --checkpoint 'real.csv/ckpt': 'real.csv' is a file"),
    ("calibrate --games real.csv -n 5 --png /proc/c.png", "cannot write --png '/proc/c.png'"),
    ("tune --villain gaston --out /proc/t.toml", "cannot write --out '/proc/t.toml'"),
    ("tune-all --report-dir /proc/tune", "cannot write --report-dir '/proc/tune'"),
    ("tune-all --out /proc/strategies", "cannot write --out '/proc/strategies'"),
    ("equilibrium -m gaston-vs-horned-king --out /proc/eq", "cannot write --out '/proc/eq'"),
    ("equilibrium -m gaston-vs-horned-king --report-dir /proc/eq", "cannot write --report-dir '/proc/eq'"),
    ("equilibrium -m gaston-vs-horned-king --checkpoint /proc/eq", "cannot write --checkpoint '/proc/eq'"),
    ("report --out /proc/reports", "cannot write the report to '/proc/reports/balance'"),
    ("fix --checkpoint /proc/fix", "cannot write --checkpoint '/proc/fix'"),
    ("fix --report-dir /proc/fix", "cannot write --report-dir '/proc/fix'"),
    # --- an empty item in a list is refused, never dropped
    (f"sweep {M} --rule get_out --values 1,,2", "--values '1,,2' has an empty item (item 2 of 3)"),
    (f"sweep {M} --rule get_out --values exactly_three,", "--values 'exactly_three,' has an empty item (item 2 of"),
    (f"sweep {M} --rule get_out --values ' '", "--values '' is empty"),
    ("calibrate --games real.csv -n 5 --levels novice,,expert", "--levels 'novice,,expert' has an empty item"),
    ("calibrate --games real.csv -n 5 --rules get_out=,exactly_three", "',exactly_three' has an empty item (item 1"),
    ("equilibrium -m gaston-vs-horned-king --seed-levels novice,,expert", "--seed-levels 'novice,,expert' has an"),
    # --- every command
    (f"run {M} -n 5 --out games.csv", "--out 'games.csv' must be a file name ending in .parquet"),
    (f"run {M} -n 5 --threads 4097", "threads must be between 1 and"),
    ("matrix -n 5 --strategy jafar=expert", "--strategy names villain 'jafar', which is not in the matrix"),
    ("matrix -n 5 --max-turns 100000", "max_turns must be a positive integer of at most 10,000"),
    ("replay -m gaston-vs-jafar", "unknown villain 'jafar' in matchup"),
    (f"replay {M} --game -1", "--game must be a game index"),
    ("rules --verbose", "simlab rules: No such option: --verbose; options: --json, --csv"),
    ("strategies genius", "unknown strategy 'genius'; choose from random, novice, expert"),
    ("strategies expert extra", "simlab strategies: Got unexpected extra argument(s) (extra)"),
    ("goldfish --villain jafar", "unknown villain 'jafar'; choose from gaston, lady-tremaine, horned-king"),
    ("goldfish --strategy genius", "unknown strategy 'genius'; choose from random, novice, expert"),
    ("ladder --level genius", "unknown strategy 'genius'"),
    ("ladder -n 0", "-n must be a positive number of games"),
    ("ladder --search-games 0", "--search-games must be a positive number of games, got 0"),
    ("difficulty --search-games -3", "--search-games must be a positive number of games, got -3"),
    (
        "difficulty --headline-games 0",
        "--headline-games must be a positive number of games of at most 2**63 - 1, got 0",
    ),
    (
        "difficulty --rescreen --screen-games 0",
        "--screen-games must be a positive number of games of at most 2**63 - 1",
    ),
    ("cards --villain gaston -n 5 --card Nope", "'Nope' is not a card of gaston; choose from"),
    ("cards --villain gaston -n 5 --png impact.txt", "--png 'impact.txt' must be a file name ending in .png"),
    (f"sweep {M} --rule teleport --values a,b", "unknown rule variant 'teleport'"),
    (f"sweep {M} --card 'Get Out!' --attribute cost --values 3..1", "--values '3..1': the range is empty"),
    (f"sweep {M} --card 'Get Out!' --attribute colour --values 3", "--attribute must be one of cost, strength"),
    ("difficulty --vs gaston", "--vs needs --villain"),
    ("difficulty --villain gaston --backend spark", "unknown backend 'spark'; choose from local, dask"),
    ("report --config report-villains.toml", "report-villains.toml: [report] villains: unknown villain 'jafar'"),
    ("report --config first.toml", "first.toml: first 'jafar' is not valid"),
    ("report --config report-search.toml", "report-search.toml: [report] search_games must be a number of games, 0 or"),
    ("report --config report-search0.toml --level search", "report-search0.toml: a report at the search level needs"),
    ("report --out blocker", "cannot write the report to 'blocker/balance'"),
    ("tune", "Missing option '--villain' (the villain to tune; simlab tune-all tunes every villain)"),
    ("tune --all", "simlab tune --all is now a command of its own: simlab tune-all (the same options)"),
    ("tune-all --start wizard", "unknown level 'wizard'; choose from random, novice, expert"),
    ("tune --villain jafar", "unknown villain 'jafar'; choose from gaston, lady-tremaine, horned-king"),
    ("tune --villain gaston --out tuned.txt", "--out 'tuned.txt' must be a file name ending in .toml"),
    ("tune --villain gaston --param bravery", "unknown tunable parameter 'bravery' for gaston; choose from"),
    (f"run {M} -n 5 --level wizard", "unknown level 'wizard'; choose from random, novice, expert"),
    ("calibrate -n 5", "Missing option '--games'"),
    ("calibrate --games missing.csv -n 5", "no game log 'missing.csv'"),
    ("calibrate --games real.csv -n 5 --png calibration.jpg", "--png 'calibration.jpg' must be a file name ending"),
    ("calibrate --games real.csv -n 5 --levels wizard", "unknown level 'wizard'"),
    ("calibrate --games real.csv -n 5 --rules get_out=sometimes", "rule variant get_out cannot be 'sometimes'"),
    # --- a villain written with _ or capitals gets "did you mean"
    ("goldfish --villain lady_tremaine", "unknown villain 'lady_tremaine'; did you mean 'lady-tremaine'? choose from"),
    (f"run {M} -n 5 --strategy Horned_King=novice", "--strategy names villain 'Horned_King', which is not in"),
    ("run -m lady_tremaine-vs-gaston -n 5", "unknown villain 'lady_tremaine' in matchup"),
    (f"run {M} -n 5 --level Wizard", "unknown level 'Wizard'; choose from random, novice, expert"),
]


def snapshot(root) -> dict:
    """Every file and directory under ``root``: kind, size, modification time and content hash."""
    out = {}
    for p in sorted(root.rglob("*")):
        st = p.stat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
        out[str(p.relative_to(root))] = (p.is_dir(), st.st_size, st.st_mtime_ns, digest)
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input")
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    (root / "plots.png").mkdir()  # a directory with a plot's name
    (root / "links").mkdir()
    (root / "links" / "elsewhere").symlink_to(tmp_path_factory.mktemp("outside"))  # a way out of links/
    run("gaston-vs-horned-king", RunSettings(20, seed=1, max_turns=3), chunk=10, checkpoint=root / "ckpt")
    return root


@pytest.mark.parametrize(("args", "needle"), CASES, ids=[a for a, _ in CASES])
def test_bad_input_is_one_line_with_exit_code_2_and_changes_nothing(workdir, monkeypatch, args, needle):
    monkeypatch.chdir(workdir)  # relative outputs (reports/..., --png, --out) would land here
    before = snapshot(workdir)
    res = runner.invoke(app, shlex.split(args))
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    assert needle in lines[0], lines[0]
    assert "Traceback" not in res.output and isinstance(res.exception, SystemExit), res.exception
    assert snapshot(workdir) == before, "bad input wrote or changed a file"


def test_a_new_command_gets_one_line_errors_from_the_group():
    """Errors are routed in one place (the command group), so a command that only raises gets them right."""
    extra = typer.Typer(cls=OneLineErrors)

    @extra.command()
    def tune(level: str = "expert"):
        raise InputError(f"unknown level {level!r}; choose from novice, expert")

    @extra.command()
    def other():
        pass

    res = runner.invoke(extra, ["tune", "--level", "wizard"])
    assert res.exit_code == 2 and res.output.strip() == "error: unknown level 'wizard'; choose from novice, expert"
    res = runner.invoke(extra, ["tune", "--levl", "x"])
    assert res.exit_code == 2 and res.output.strip().startswith("error: simlab tune: No such option: --levl")


def test_matchup_case_does_not_matter():
    for text in ("GASTON-vs-horned-king", "gaston-VS-horned-king", "Gaston-Vs-Horned-King"):
        assert parse_matchup(text) == ("gaston", "horned-king")


def test_did_you_mean_names_the_villain_key():
    # the hint is the key people meant (underscores, capitals, a leading "The"), and only when it is one
    for given in ("lady_tremaine", "Lady Tremaine", "The Horned King", "GASTON"):
        res = runner.invoke(app, ["goldfish", "--villain", given])
        assert res.exit_code == 2, res.output
        key = {"lady_tremaine": "lady-tremaine", "Lady Tremaine": "lady-tremaine"}.get(given)
        key = key or {"The Horned King": "horned-king", "GASTON": "gaston"}[given]
        assert f"did you mean {key!r}?" in res.output, res.output
    res = runner.invoke(app, ["goldfish", "--villain", "jafar"])
    assert res.exit_code == 2 and "did you mean" not in res.output, res.output
    res = runner.invoke(app, ["run", *M.split(), "-n", "5", "--strategy", "Horned_King=novice"])
    assert "did you mean 'horned-king'?" in res.output, res.output


def test_levels_and_strategy_names_are_case_blind():
    from simlab.runs.levels import Level, check_level, strategy_at
    from simlab.runs.settings import RunSettings
    from strategies import STRATEGIES, resolve

    assert check_level("Expert") == check_level(" EXPERT ") == "expert"
    assert RunSettings(games=5, level="Novice").level == Level("novice")
    assert strategy_at("Expert", "gaston") == "expert"
    assert resolve("Expert") is STRATEGIES["expert"] and resolve("NOVICE") is STRATEGIES["novice"]
    assert resolve("Tuned-Gaston").name == resolve("tuned-gaston").name
    res = runner.invoke(app, ["run", *M.split(), "-n", "4", "--level", "Expert", "--strategy", "gaston=Novice"])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    "args",
    [
        # found by tests/test_cli_fuzz.py: a traceback, exit 1
        ["run", "--checkpoint", "", "--checkpoint", "--backend", "--checkpoint", "", "--resume", "x\0y.png"],
        ["run", "--checkpoint", "a\0b", "--resume", "x"],
    ],
)
def test_a_nul_in_a_folder_beside_resume_is_one_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and res.output.startswith("error: ") and len(res.output.splitlines()) == 1, res.output
