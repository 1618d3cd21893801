"""simlab.data.inputs: what users hand the toolkit, checked in one place."""

from __future__ import annotations

import pytest

from simlab.data.inputs import MAX_TOML_DEPTH, read_toml, toml_depth
from simlab.errors import InputError
from strategies.mixture import load_mixture


def test_depth_counts_tables_and_arrays():
    assert toml_depth({"a": 1}) == 1
    assert toml_depth({"a": {"b": [1, {"c": 2}]}}) == 4
    assert toml_depth({"a": [[[]]]}) == 4


@pytest.mark.parametrize("depth", [MAX_TOML_DEPTH, MAX_TOML_DEPTH + 1])
def test_the_depth_limit_is_exact(tmp_path, depth):
    path = tmp_path / "x.toml"
    path.write_text("x = " + "[" * (depth - 1) + "]" * (depth - 1) + "\n")  # the document's table is the first
    if depth <= MAX_TOML_DEPTH:
        assert toml_depth(read_toml(path, "strategy file")) == depth
    else:
        with pytest.raises(InputError, match=f"strategy file {path} nests .* deeper than the limit of 16"):
            read_toml(path, "strategy file")


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"x = " + b"{a = " * 3000 + b"1" + b"}" * 3000, "nests tables or arrays deeper than the limit"),
        (b"x = 1" + b"0" * 5000, "is not valid TOML"),  # an integer too long for int()
        (b"x = \xff", "is not UTF-8 text"),
        (b"x = [1, 2", "is not valid TOML"),
    ],
)
def test_a_mixture_file_however_formed_is_one_input_error(tmp_path, data, needle):
    path = tmp_path / "mix.toml"
    path.write_bytes(data)
    with pytest.raises(InputError, match=f"mixture file {path} {needle}"):
        load_mixture(f"{path}#gaston")


def test_a_fifo_or_a_missing_file_is_named(tmp_path):
    import os

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # reading it would wait for a writer forever
    with pytest.raises(InputError, match="pipe.toml is a FIFO, not a file"):
        read_toml(fifo, "strategy file")
    with pytest.raises(InputError, match="cannot read strategy file .*nowhere.toml: No such file"):
        read_toml(tmp_path / "nowhere.toml", "strategy file")


def test_the_same_option_twice_is_fine(monkeypatch):
    """Identical repeats are no contradiction: each reaches its library call once."""
    from simlab.cli.common import parse_edits, parse_pairs
    from simlab.studies.leverage import parse_perturbation

    assert parse_pairs(["get_out=exactly_three", " get_out = exactly_three"], "--rules") == {"get_out": "exactly_three"}
    assert [str(e) for e in parse_edits(["Get Out!:cost=3", "Get Out!:cost=3"])] == ["Get Out!:cost=3"]
    assert parse_perturbation("get_out=exactly_three + get_out=exactly_three").variants == (
        ("get_out", "exactly_three"),
    )


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("", "must be a non-empty name"),
        ("  ", "must be a non-empty name"),
        (None, "must be a non-empty name"),
        ("a/b", "must be a single name inside the output folder, not a path"),
        ("a\\b", "not a path"),
        ("..", "not a path"),
        (".", "not a path"),
        ("/etc", "not a path"),
        ("x\0y", "not a path"),
        ("out", "leads outside the output folder"),  # a symlink out of it
        ("loop", "cannot use"),  # a symlink to itself
    ],
)
def test_an_output_name_is_one_name_inside_its_folder(tmp_path, name, needle):
    from simlab.data.inputs import output_name

    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "out").symlink_to(tmp_path)
    (folder / "loop").symlink_to(folder / "loop")
    with pytest.raises(InputError, match=needle):
        output_name(name, folder, "name")
    assert output_name("balance", folder, "name") == folder / "balance"
    (folder / "inside").symlink_to(folder / "balance")  # a symlink that stays inside is fine
    assert output_name("inside", folder, "name") == folder / "inside"


@pytest.mark.parametrize(
    "args", [["matrix", "-n", "1"], ["first-seat", "-n", "1"], ["sweep", "-m", "gaston-vs-horned-king"]]
)
def test_the_default_plot_folder_is_checked_before_the_first_game(tmp_path, monkeypatch, args):
    from typer.testing import CliRunner

    from simlab.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").write_text("")  # a file where the plots' folder goes
    res = CliRunner().invoke(
        app, args + ["--rule", "get_out", "--values", "exactly_three"] if "sweep" in args else args
    )
    assert res.exit_code == 2, res.output
    assert res.output.strip() == "error: the plots' folder 'reports' is a file; give a folder"
