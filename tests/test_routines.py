"""The engine's routine machine: one list of routines (``engine.drive.ROUTINES``) gives the codes the table is
filled at, and every routine reads its frame through named slots and resumes at named points."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from simlab.kernels.compile import link
from simlab.kernels.rules import drive, frame

ROOT = Path(__file__).resolve().parents[1]


def test_every_routine_code_names_one_routine_of_the_list():
    codes = {name: value for name, value in vars(frame).items() if re.fullmatch(r"RT_[A-Z_]+", name)}
    assert sorted(codes.values()) == list(range(1, drive.N_ROUTINE_CODES)), "RT codes 1.. with no gap or repeat"
    assert set(drive.ROUTINES) == set(codes.values()), "each RT code has its routine in ROUTINES"
    assert len(set(drive.ROUTINES.values())) == len(drive.ROUTINES), "a routine has one code"


def test_the_table_holds_every_routine_at_its_code():
    import simlab.game.driver  # noqa: F401  (fills the table)

    filled = link.filled(drive.ROUTINE_TABLE, drive.N_ROUTINE_CODES)
    assert filled == set(drive.ROUTINES)
    py = link._PY_TABLES[drive.ROUTINE_TABLE]
    for code, routine in drive.ROUTINES.items():
        assert py[code] is getattr(routine, "py_func", routine)


def test_binding_refuses_a_list_with_a_gap(monkeypatch):
    gap = dict(drive.ROUTINES)
    del gap[frame.RT_PICK_MODE]
    monkeypatch.setattr(drive, "ROUTINES", gap)
    with pytest.raises(RuntimeError, match="routine codes"):
        drive.bind_routines()


def _frame_reads(path: Path) -> list[str]:
    """Frame accesses ``st.fr[f, A<n>]`` and resume points given as integers (``call_nb(st, f, 3, ...)``,
    ``ask_nb(st, f, 1, ...)``, ``pc == 2``) in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Tuple)
            and ast.unparse(node.value) == "st.fr"
            and any(isinstance(e, ast.Name) and re.fullmatch(r"A\d+", e.id) for e in node.slice.elts)
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("call_nb", "ask_nb")
            and len(node.args) > 2
            and isinstance(node.args[2], ast.Constant)
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:60]}")
        if isinstance(node, ast.Compare) and ast.unparse(node.left) == "pc":
            if any(isinstance(c, ast.Constant) for c in node.comparators):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_engine_names_every_frame_slot_and_resume_point():
    # frame.py is the machine: push_nb lays the arguments out in A0.. for the routine's names to read
    engine = [p for p in sorted((ROOT / "simlab" / "kernels" / "engine").rglob("*.py")) if p.name != "frame.py"]
    assert [hit for path in engine for hit in _frame_reads(path)] == []


def test_the_villains_name_the_frame_slots_they_read():
    villains = sorted((ROOT / "simlab" / "villains").glob("*/abilities.py"))
    hits = [hit for path in villains for hit in _frame_reads(path) if "st.fr[" in hit]
    assert hits == []


def test_the_check_sees_a_bare_slot_and_an_integer_resume_point(tmp_path):
    path = tmp_path / "r.py"
    path.write_text("def r_r(st, f):\n    s = st.fr[f, A0]\n    if pc == 1:\n        return ask_nb(st, f, 2, s)\n")
    assert len(_frame_reads(path)) == 3
