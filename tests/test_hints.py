"""Hints name only commands and options that exist and suggest only syntax that is valid (the unknown-card hint once
named `simlab cards --list`, which did not exist; `--edit "Get Out!:cost+1"` suggested `cost+1=2`); and
`simlab cards --villain V --list` shows each card as printed, with the edits it takes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.edits import card_sheet, parse_edit
from simlab.errors import EditError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
COMMAND = re.compile(r"simlab ([a-z][a-z-]*)((?: (?:--?[a-z][a-z-]*|[A-Z][A-Z_]*|'[^']*'|\"[^\"]*\"|[a-z0-9=.-]+))*)")


def named_commands(root: Path = ROOT) -> list[tuple[str, str, list[str]]]:
    """(file:line, command, its --options) for each ``simlab CMD --opt ...`` in a string of the code."""
    out = []
    for pkg in ("simlab", "strategies"):
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for m in COMMAND.finditer(node.value):
                        options = re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(2))
                        out.append((f"{path.relative_to(root)}:{node.lineno}", m.group(1), options))
    return out


def test_every_command_a_message_names_exists_with_its_options():
    commands = typer.main.get_command(app).commands
    found = named_commands()
    assert any(c == "cards" and "--list" in o for _, c, o in found)  # the unknown-card hint is seen
    for where, command, options in found:
        if not options:  # prose ("simlab knows ..."), or a command alone
            continue
        assert command in commands, f"{where}: no command simlab {command}"
        known = {o for p in commands[command].params for o in p.opts}
        for option in options:
            assert option in known, f"{where}: simlab {command} has no option {option}"


def test_the_check_sees_a_missing_option(tmp_path):
    pkg = tmp_path / "simlab"
    pkg.mkdir()
    (pkg / "m.py").write_text("X = 'see `simlab cards --list` for the names'\n")
    assert named_commands(tmp_path) == [("simlab/m.py:1", "cards", ["--list"])]


def test_the_unknown_card_hint_names_a_command_that_lists_the_cards():
    with pytest.raises(EditError) as err:
        parse_edit("Get Otu!:cost=4")
    assert "did you mean 'Get Out!'?" in str(err.value)
    assert "`simlab cards --villain VILLAIN --list`" in str(err.value)
    res = runner.invoke(app, ["cards", "--villain", "gaston", "--list"], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("Get Out!:cost+1", "Get Out! has cost 5, so write Get Out!:cost=6"),
        ("Get Out!:cost-2", "Get Out! has cost 5, so write Get Out!:cost=3"),
        ("Wolves:strength + 1", "Wolves has strength 1, so write Wolves:strength=2"),
        ("Wolves:copies-9", "so write Wolves:copies=0"),
        ("Get Out!:cost", "'cost' needs a value, e.g. Get Out!:cost=6 (now 5)"),
    ],
)
def test_an_edit_without_a_value_suggests_one_that_parses(text, needle):
    with pytest.raises(EditError) as err:
        parse_edit(text)
    message = str(err.value)
    assert needle in message, message
    suggested = re.search(r"(?:write|e\.g\.) (.+?:[a-z]+=\d+)", message).group(1)
    assert parse_edit(suggested).attribute in ("cost", "strength", "copies")  # what it suggests is valid


def test_a_step_on_an_attribute_the_card_lacks_says_so():
    with pytest.raises(EditError, match="only Allies and Heroes have Strength"):
        parse_edit("Get Out!:strength+1")


def test_the_card_list_shows_each_card_as_printed_and_its_edits():
    rows = {r["card"]: r for r in card_sheet("gaston")}
    wolves, get_out = rows["Wolves"], rows["Get Out!"]
    assert (wolves["type"], wolves["cost"], wolves["strength"], wolves["copies"]) == ("Ally", 1, 1, 4)
    assert wolves["text"].startswith("Gets +1 Strength") and "strength=N" in wolves["edits"]
    assert get_out["cost"] == 5 and get_out["strength"] is None and "strength=N" not in get_out["edits"]
    assert all(r["cost"] is None and "cost=N" not in r["edits"] for r in rows.values() if r["deck"] == "fate")
    res = runner.invoke(app, ["cards", "--villain", "gaston", "--list"], env={"COLUMNS": "250"})
    out = " ".join(res.output.split())
    assert "│ Wolves │ villain │ Ally │ 1 │ 1 │ 4 │ Gets +1" in out, res.output
    assert "Get Out! │ villain │ Effect │ 5 │ - │ 1 │ Remove 3 Obstacles. │ cost=N, copies=N, remove, ablate" in out
    res = runner.invoke(app, ["cards", "--villain", "lady_tremaine", "--list"])
    assert res.exit_code == 2 and "did you mean 'lady-tremaine'?" in res.output, res.output
