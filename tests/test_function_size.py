"""Functions a person can hold: none over about 120 lines on every floor but the kernels' (the data tables, one
game, many games, the studies, the report, the commands). The kernels, the villains and the strategies are left out:
a rules routine follows the rulebook's steps, and the players are kernels too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 120
LAYERS = ("simlab/data", "simlab/game", "simlab/runs", "simlab/studies", "simlab/report", "simlab/cli")


def long_functions(root: Path = ROOT, layers=LAYERS, limit: int = LIMIT) -> list[str]:
    """Every function or method under ``layers`` longer than ``limit`` lines (def line to last line), as
    ``path:line name (n lines)``."""
    out = []
    for layer in layers:
        for path in sorted((root / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > limit:
                        out.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_no_function_over_120_lines_on_any_floor_but_the_kernels():
    assert long_functions() == [], "split these (one function a step: read, check, play, score, write)"


def test_the_check_sees_a_long_function_or_method(tmp_path):
    studies = tmp_path / "simlab" / "studies"
    studies.mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))  # the def line and these: LIMIT + 1 lines
    method = "\n".join("    " + line for line in body.splitlines())
    (studies / "ok.py").write_text("def short():\n    return 1\n")
    (studies / "long.py").write_text(
        f"def fits():\n{body[: body.rindex(chr(10))]}\n\n\ndef too_long():\n{body}\n\n\n"
        f"class Study:\n    async def run(self):\n{method}\n"
    )
    (tmp_path / "simlab" / "kernels").mkdir()
    (tmp_path / "simlab" / "kernels" / "engine.py").write_text(f"def routine_r():\n{body}\n")  # not checked
    assert long_functions(tmp_path, ("simlab/studies",)) == [
        f"simlab/studies/long.py:{LIMIT + 3} too_long (121 lines)",
        f"simlab/studies/long.py:{2 * LIMIT + 7} run (121 lines)",
    ]


def test_every_floor_is_checked_but_the_kernels_villains_and_strategies():
    from test_layout import FLOORS

    folders = {f.replace(".", "/") for f in FLOORS if (ROOT / f.replace(".", "/")).is_dir()}
    assert set(LAYERS) <= folders
    assert folders - set(LAYERS) == {"simlab/kernels", "simlab/villains", "strategies"}
