"""Issue 58, defects 6 and 7 and the lower inputs: each refused in one line before the first game, naming what is
wrong (a control character, a byte-order mark, the CSV delimiter, a FIFO, a huge number and its row)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.inputs import output_name, read_toml
from simlab.errors import InputError

MATCHUP = "gaston-vs-horned-king"


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: what is checked must be checked before the first one."""
    from simlab.runs import backend
    from simlab.studies import whatif

    def never(*a, **k):
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(backend, "play_chunk", never)
    monkeypatch.setattr(whatif, "_chunks", never)


def one_line(got, code: int = 2) -> str:
    lines = got.output.strip().splitlines()
    assert got.exit_code == code and len(lines) == 1, got.output
    return lines[0]


@pytest.mark.parametrize(
    "name, named",
    [
        ("week\nly", "a newline (U+000A) at character 5"),
        ("a\rb", "a carriage return (U+000D) at character 2"),
        ("x\x1b[31m", "an escape (U+001B) at character 2"),
        ("\u202eevil", "a control character (U+202E) at character 1"),
        ("\ufeffname", "a byte-order mark (U+FEFF) at character 1"),
    ],
)
def test_a_control_character_in_a_name_is_named(tmp_path, name, named):
    with pytest.raises(InputError) as err:
        output_name(name, tmp_path, "report name")
    assert str(err.value) == f"report name {name!r} holds {named}; a name is one line of printable text"


def test_a_report_name_with_a_newline_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("r.toml").write_text('name = "week\\nly"\n')  # a TOML escape: the name holds a newline
    got = CliRunner().invoke(app, ["report", "--config", "r.toml", "--out", "reports"])
    assert "holds a newline (U+000A)" in one_line(got)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.toml"]


def test_a_bom_is_read_past_at_the_start_and_named_elsewhere(tmp_path):
    good = tmp_path / "good.toml"
    good.write_bytes(b'\xef\xbb\xbfname = "x"\n')
    assert read_toml(good, "strategy file") == {"name": "x"}
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'name = "x"\n\xef\xbb\xbfbase = "expert"\n')
    with pytest.raises(InputError, match=r"holds a byte-order mark \(U\+FEFF, invisible in most editors\) on line 2"):
        read_toml(bad, "strategy file")


@pytest.mark.parametrize("sep, said", [(";", "semicolons (;)"), ("\t", "tabs")])
def test_a_csv_of_another_delimiter_is_named(tmp_path, monkeypatch, sep, said, no_games):
    monkeypatch.chdir(tmp_path)
    Path("log.csv").write_text(f"villains{sep}winner\ngaston vs horned-king{sep}gaston\n")
    got = CliRunner().invoke(app, ["calibrate", "--games", "log.csv", "-n", "10"])
    line = one_line(got)
    assert f"is separated by {said}, not commas; save the log as comma-separated CSV" in line


def test_a_fifo_is_a_fifo_not_a_file(tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("log.csv")
    os.mkfifo("exp.toml")
    got = CliRunner().invoke(app, ["calibrate", "--games", "log.csv", "-n", "10"])
    assert one_line(got) == "error: game log 'log.csv' is a FIFO, not a file; give a .csv or .parquet file"
    got = CliRunner().invoke(app, ["run", "--config", "exp.toml"])
    assert "exp.toml is a FIFO, not a file; give a .toml file" in one_line(got)


def test_a_huge_number_of_rounds_names_its_row(tmp_path):
    from simlab.studies.calibration.log import read_log

    log = tmp_path / "log.csv"
    huge = "9" * 26
    log.write_text(f"villains,winner,rounds\ngaston;horned-king,gaston,{huge}\ngaston;horned-king,gaston,12\n")
    got = read_log(log)
    assert got.games.height == 1
    (skip,) = got.skipped.to_dicts()
    assert skip["line"] == 2 and skip["reason"] == f"rounds {huge} is more than 100,000, more than any game"
    log.write_text(f"villains,winner,rounds\ngaston;horned-king,gaston,{'7' * 5000}\ngaston;horned-king,gaston,12\n")
    assert "(5,000 digits) is more than 100,000" in read_log(log).skipped["reason"][0]


def test_equilibrium_options_and_library_are_checked_before_any_step(tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    got = runner.invoke(app, ["equilibrium", "-m", MATCHUP, "--popsize", "1"])
    assert one_line(got) == "error: --popsize must be a whole number of at least 2 (CMA-ES compares candidates), got 1"
    Path("lib").mkdir()
    Path("lib/bad.toml").write_text("garbage = [\n")
    for library in ("lib", "lib/bad.toml"):
        got = runner.invoke(app, ["equilibrium", "-m", MATCHUP, "--library", library])
        assert "lib/bad.toml is not valid TOML" in one_line(got)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]  # no steps folder, no report folder


def test_difficulty_plots_on_a_file_is_refused_before_any_game(tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    Path("plots").write_text("a file")
    got = CliRunner().invoke(app, ["difficulty", "--villain", "gaston", "--plots", "plots", "-n", "20"])
    assert one_line(got) == "error: --plots 'plots' is a file; give a folder"


def test_tune_on_a_full_disk_is_refused_before_any_game(full_disk, fill_disk, no_games):
    folder, kind = full_disk("64k")
    fill_disk(folder)
    out = folder / "t.toml"
    got = CliRunner().invoke(app, ["tune", "--villain", "gaston", "--out", str(out)])
    assert one_line(got).startswith(f"error: no space left on the device to write --out {str(out)!r}"), kind


def test_equilibrium_probe_reads_the_package_mixtures_from_any_folder(tmp_path, monkeypatch):
    from simlab.studies import equilibrium as eq

    monkeypatch.chdir(tmp_path)  # no configs/ here
    assert eq.SHIPPED_DIR == Path(eq.__file__).resolve().parents[3] / "configs" / "equilibrium"
    found = []

    def probe(shipped, *a, **k):
        found.append(shipped.matchup)
        raise InputError("stop here")

    monkeypatch.setattr(eq, "search_probe", probe)
    got = CliRunner().invoke(app, ["equilibrium-probe", "-m", MATCHUP, "--games", "2", "--no-record"])
    assert one_line(got) == "error: stop here" and found == [MATCHUP]


def test_a_report_fix_refusal_leaves_no_folder(tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    Path("r.toml").write_text('name = "balance"\n[report.fix]\nband = "nonsense"\n')
    got = CliRunner().invoke(app, ["report", "--config", "r.toml", "--out", "reports"])
    assert "band" in one_line(got)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.toml"]  # no reports/balance left empty
