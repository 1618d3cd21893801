"""The layers: each package of simlab/ (and strategies/) sits on a floor, and no module imports from a floor above
its own (imports inside functions count); no import circle; kernels import only kernels."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The modules of ``known`` that the file imports, at module level or inside a function."""
    out = set()
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:  # ``from pkg import mod`` imports the module pkg.mod
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in out if m in known}


def import_graph(root: Path = ROOT, packages=("simlab", "strategies")) -> dict[str, set[str]]:
    files = [p for pkg in packages for p in (root / pkg).rglob("*.py")]
    known = {module_name(p, root) for p in files}
    return {module_name(p, root): imports(p, known, root) - {module_name(p, root)} for p in files}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_under_simlab():
    graph = import_graph()
    assert cycles(graph) == [], "modules that import each other (directly or through others)"


# The floors, lowest first: a module may import from its own floor and the floors below it. ``simlab`` itself (the
# notebook façade, whose names import their modules on first use) stands above them all.
FLOORS = (
    "simlab.errors",  # every user-facing error type
    "simlab.kernels",  # numba kernels: state layout, the rules engine, queries, RNG
    "simlab.villains",  # one folder a villain: its card data and ability routines
    "simlab.data",  # card and board tables, rule variants, edits
    "strategies",  # the players (heuristic, plans, search), above the kernels and villains, below the engine
    "simlab.game",  # one game: driver, warmup, matchup tables, scenarios, replays, invariant checks
    "simlab.runs",  # many games: settings, plan, seats, backends, checkpoints, tallies, levels, experiment files
    "simlab.studies",  # questions answered by runs: matrix, ladder, impact, what-ifs, difficulty, tuning, ...
    "simlab.report",  # the report's sections, its rendering and every plot
    "simlab.cli",  # the commands
)
FACADE = "simlab"


def floor_of(module: str) -> int | None:
    for i, f in enumerate(FLOORS):
        if module == f or module.startswith(f + "."):
            return i
    return None


def upward_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each module (but the façade) with the modules it imports from a floor above its own or from no floor."""
    out = {}
    for module, deps in graph.items():
        if module == FACADE:
            continue
        own = floor_of(module)
        bad = sorted(d for d in deps if own is None or floor_of(d) is None or floor_of(d) > own)
        if own is None or bad:
            out[module] = bad if own is not None else ["(module on no floor)"]
    return out


def test_every_module_sits_on_a_floor_and_imports_only_from_its_floor_or_below():
    assert upward_imports(import_graph()) == {}


def test_the_floor_check_fails_when_a_study_imports_the_cli_or_the_report(tmp_path):
    pkg = tmp_path / "simlab"
    for sub in ("studies", "report", "cli", "runs"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from simlab.cli import main\n")  # the façade may
    (pkg / "cli" / "run.py").write_text("from simlab.studies import ladder\n")
    (pkg / "report" / "plots.py").write_text("")
    (pkg / "runs" / "sim.py").write_text("")
    (pkg / "studies" / "ladder.py").write_text("from simlab.runs import sim\n\ndef f():\n    import simlab.cli.run\n")
    (pkg / "studies" / "tune.py").write_text("from simlab.report.plots import *\n")
    (pkg / "stray.py").write_text("")
    graph = import_graph(tmp_path, ("simlab",))
    assert upward_imports(graph) == {
        "simlab.studies.ladder": ["simlab.cli.run"],
        "simlab.studies.tune": ["simlab.report.plots"],
        "simlab.stray": ["(module on no floor)"],
    }


def test_ls_simlab_shows_the_floors():
    # a newcomer names each layer from ``ls simlab``: one entry a floor, and nothing else but the façade
    entries = {p.stem for p in (ROOT / "simlab").iterdir() if not p.name.startswith(("_", "."))}
    floors = {f.split(".")[1] for f in FLOORS if f.startswith("simlab.")}
    assert entries == floors


def test_kernels_import_only_kernels():
    graph = import_graph()
    bad = {m: sorted(d for d in deps if not d.startswith("simlab.kernels")) for m, deps in graph.items()}
    bad = {m: d for m, d in bad.items() if m.startswith("simlab.kernels") and d}
    assert bad == {}


def test_the_check_sees_a_circle_through_an_import_inside_a_function(tmp_path):
    pkg = tmp_path / "simlab"
    (pkg / "kernels").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels" / "__init__.py").write_text("")
    (pkg / "kernels" / "const.py").write_text("")
    (pkg / "a.py").write_text("from simlab.kernels import const\nfrom simlab import b\n")
    (pkg / "b.py").write_text("def f():\n    from simlab.c import g\n")
    (pkg / "c.py").write_text("from . import a\n")
    (pkg / "d.py").write_text("import simlab.a\n")
    graph = import_graph(tmp_path, ("simlab",))
    assert graph["simlab.a"] == {"simlab.kernels.const", "simlab.b"}
    assert cycles(graph) == [["simlab.a", "simlab.b", "simlab.c"]]


def test_the_heuristic_reads_the_mover_and_the_symbols_used_only_through_their_accessors():
    # strategies.heuristic keeps a decision's memo for the next one only if its values did not read what the step
    # between changes: the mover's location (query.mover_location_nb marks a read) or the symbols used this turn
    # (query.used_symbols_nb). A direct read of SV_MOVER or G_USED, in the heuristic, a plan or a query they call,
    # would go unnoticed, and neither may call the engine's kernels (which read them). A villain folder's queries
    # (queries.py, which its plan may call) are held to the same rule; its codes.py (constants, no kernel) may be
    # imported.
    accessors = {"SV_MOVER": "mover_location_nb", "G_USED": "used_symbols_nb"}
    files = [*sorted((ROOT / "strategies" / "heuristic").rglob("*.py")), ROOT / "simlab" / "kernels" / "query.py"]
    files += sorted((ROOT / "strategies" / "plans").glob("*.py"))
    files += sorted((ROOT / "simlab" / "villains").glob("*/queries.py"))
    known = {module_name(p) for pkg in ("simlab", "strategies") for p in (ROOT / pkg).rglob("*.py")}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        kernels_read = {
            m
            for m in imports(path, known)
            if m.startswith(("simlab.kernels.rules", "simlab.villains.")) and not m.endswith((".queries", ".codes"))
        }
        assert not kernels_read, f"{path.name} imports {kernels_read}"
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for attr, accessor in accessors.items():
                if fn.name != accessor:
                    reads = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Attribute) and n.attr == attr]
                    assert not reads, f"{path.name}:{reads} reads {attr} in {fn.name}"


def drawing(root: Path = ROOT, packages=("simlab", "strategies")) -> dict[str, list[str]]:
    """Each module but simlab.report.plots that draws: imports matplotlib or defines a ``plot_*`` function
    (imports inside functions count). Studies return frames; every plot is in one module."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            name = module_name(path, root)
            if name == "simlab.report.plots":
                continue
            found = []
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found += [a.name for a in node.names if a.name.split(".")[0] == "matplotlib"]
                elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "matplotlib":
                    found.append(node.module)
                elif isinstance(node, ast.FunctionDef) and node.name.startswith("plot_"):
                    found.append(f"def {node.name}")
            if found:
                out[name] = found
    return out


def test_only_the_plots_module_draws():
    # the report and the commands call simlab.report.plots with a frame and an Axes; nothing else imports
    # matplotlib (the report's and the commands' figures go through plots.write_plot)
    assert drawing() == {}


def test_the_drawing_check_sees_matplotlib_and_plot_functions(tmp_path):
    pkg = tmp_path / "simlab"
    for sub in ("studies", "report"):
        (pkg / sub).mkdir(parents=True)
    (pkg / "report" / "plots.py").write_text("import matplotlib\n\ndef plot_x(frame, ax):\n    pass\n")
    (pkg / "studies" / "tune.py").write_text("def save():\n    import matplotlib.pyplot as plt\n")
    (pkg / "studies" / "leverage.py").write_text("from matplotlib.ticker import MaxNLocator\n")
    (pkg / "report" / "build.py").write_text("def plot_win_rates(table, ax):\n    pass\n")
    (pkg / "studies" / "ladder.py").write_text("import numpy\n")
    assert drawing(tmp_path, ("simlab",)) == {
        "simlab.report.build": ["def plot_win_rates"],
        "simlab.studies.leverage": ["matplotlib.ticker"],
        "simlab.studies.tune": ["matplotlib.pyplot"],
    }
