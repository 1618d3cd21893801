"""mkdocs hooks: the parts of the docs site that are generated from the code when the site is built.

A page asks for a generated block with a marker comment on a line of its own:

- ``<!-- simlab:cli NAME -->``: command NAME's usage, help and options, read from the typer app through click's own
  objects (``typer.main.get_command``). Every command must be claimed by exactly one page this way (the page that
  explains it), or the build fails naming it: a new command cannot ship without a docs page.
- ``<!-- simlab:cli-reference -->``: every command, each with a link to the page that claims it.
- ``<!-- simlab:rules [core|FOLDER] -->``: the rule variants from the registry (``simlab.data.rules``), all of them,
  the core rules' or one villain folder's.
- ``<!-- simlab:param-groups -->``, ``<!-- simlab:params [GROUP] -->``: the heuristic's parameters, what
  ``simlab strategies --params`` prints (``strategies.parameter_table``), by group.
- ``<!-- simlab:search-settings -->``, ``<!-- simlab:strategy-files -->``: the search player's settings; the
  strategy files under ``configs/strategies/``.
- ``<!-- simlab:villain FOLDER specs|board|decks -->``: a villain's data, from its ``cards.toml``.
- ``<!-- simlab:constants PREFIX [MODULE] -->``: the ``PREFIX_*`` codes of a module (``simlab.kernels.const`` unless
  named) with their comments.
- ``<!-- simlab:fields State|Tables -->``: the fields of the game state or the card tables, from their definitions.
- ``<!-- simlab:routines -->``: the engine's routine codes (``RT_*``).
- ``<!-- simlab:layout -->``: the floors of ``tests/test_layout.py`` and each module's first docstring paragraph.

It also adds pages and images kept outside ``docs/``: ``benchmarks/HISTORY.md``, ``CHANGELOG.md`` and the plots
under ``reports/`` that pages show.

Nothing imported here compiles a kernel (the same imports as ``simlab --help``, ``simlab rules`` and ``simlab
strategies``); ``tests/test_docs.py`` builds the site on an empty numba cache and checks it stays empty.
"""

from __future__ import annotations

import ast
import html
import inspect
import posixpath
import re
import tomllib
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
BUILD: dict = {}  # what on_files found for the pages: the command each page claims, each page's title
MARKER = re.compile(r"^<!-- simlab:([a-z-]+)((?: [\w.-]+)*) -->$", re.MULTILINE)

# Files kept beside the code, shown as pages or images of the site: (path in the site, path in the repository).
OUTSIDE = (
    ("history/speed.md", "benchmarks/HISTORY.md"),
    ("history/changelog.md", "CHANGELOG.md"),
    ("img/search-strength-cpu.png", "reports/search-curve-cpu/strength.png"),
    ("img/tune-trajectory.png", "reports/tune/trajectory.png"),
)


# ---------------------------------------------------------------------------------------------------- markdown bits


class Markdown(str):
    """Text that is markdown already (a table cell keeps it as it is)."""


def esc(text) -> str:
    """Plain text (or a docstring's reStructuredText) as markdown on one line: roles and ````literals```` as code
    spans; HTML, asterisks and table bars escaped outside them."""
    text = " ".join(str(text).split())
    text = re.sub(r":\w+:`~?([^`]+)`", r"``\1``", text)
    text = re.sub(r"``(.+?)``", r"`\1`", text)
    parts = re.split(r"(`[^`]*`)", text)
    out = [p if p.startswith("`") else html.escape(p, quote=False).replace("*", "\\*") for p in parts]
    return "".join(out).replace("|", "\\|")


def table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    cells = [[" ".join(c.split()) if isinstance(c, Markdown) else esc(c) for c in r] for r in rows]
    lines += ["| " + " | ".join(r) + " |" for r in cells]
    return "\n".join(lines)


def code(text) -> Markdown:
    text = str(text).replace("|", "\\|")
    return Markdown(f"`` {text} ``" if "`" in text else f"`{text}`")


def md(text) -> Markdown:
    return Markdown(text)


def number(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


# ---------------------------------------------------------------------------------------------------- the CLI


def cli_commands(app=None) -> dict:
    """Command name -> (click command, its context), in the order of ``app`` (default: simlab's typer app)."""
    import typer.main

    if app is None:
        from simlab.cli import app

    group = typer.main.get_command(app)
    root = group.context_class(group, info_name="simlab")
    out = {}
    for name in group.list_commands(root):
        command = group.get_command(root, name)
        out[name] = (command, command.context_class(command, info_name=name, parent=root))
    return out


def command_help(name: str, command, ctx) -> str:
    """Usage, help text and the option table of one command, as click knows them."""
    if not (command.help or "").strip():
        raise PluginError(f"simlab {name} has no help text: give its function a docstring")
    usage = command.get_usage(ctx).removeprefix("Usage:").strip()
    rows = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None or param.name == "help":
            continue
        names, text = record
        kind = "argument" if param.param_type_name == "argument" else "option"
        rows.append([code(names), kind, text or ""])
    parts = [f"```text\n{usage}\n```", esc(command.help)]
    if rows:
        parts.append(table(["option", "kind", "what it sets"], rows))
    else:
        parts.append(f"`simlab {name}` takes no options.")
    return "\n\n".join(parts)


def cli_reference(claims: dict[str, str], titles: dict[str, str], page) -> str:
    out = []
    for name, (command, ctx) in cli_commands().items():
        guide = relative(page.file.src_uri, claims[name])
        out.append(f"## simlab {name} {{ #{name} }}\n\nExplained in [{esc(titles[claims[name]])}]({guide}).\n")
        out.append(command_help(name, command, ctx) + "\n")
    return "\n".join(out)


def relative(src: str, dest: str) -> str:
    up = len(Path(src).parts) - 1
    return "../" * up + dest


def claimed_commands(pages: dict[str, str], app=None) -> dict[str, str]:
    """Command -> the page whose ``<!-- simlab:cli NAME -->`` claims it (``pages``: page -> its markdown); fails
    unless each command of ``app`` (default: simlab's) is claimed once and every claim names a command."""
    claims: dict[str, list[str]] = {}
    for uri, text in pages.items():
        for kind, args in MARKER.findall(text):
            if kind == "cli":
                claims.setdefault(args.strip(), []).append(uri)
    names = set(cli_commands(app))
    missing = sorted(names - set(claims))
    unknown = sorted(set(claims) - names)
    twice = sorted(n for n, where in claims.items() if len(where) > 1)
    problems = []
    if missing:
        problems.append(
            "commands with no docs page (add <!-- simlab:cli NAME --> to the page that explains each): "
            + ", ".join(missing)
        )
    if unknown:
        problems.append("docs pages claim commands the app does not have: " + ", ".join(unknown))
    if twice:
        problems.append("commands claimed by more than one page: " + ", ".join(twice))
    if problems:
        raise PluginError("; ".join(problems))
    return {n: where[0] for n, where in claims.items()}


# ---------------------------------------------------------------------------------------------------- registries


def rules_table(which: str | None) -> str:
    from simlab import villains as V
    from simlab.data.rules import RULE_VARIANTS, villain_variants

    own = {f: {v.name for v in villain_variants(f, tomllib.loads(V.data_text(f)))} for f in V.REGISTRY}
    if which is None:
        names = list(RULE_VARIANTS)
    elif which == "core":
        names = [n for n in RULE_VARIANTS if not any(n in s for s in own.values())]
    elif which in own:
        names = [n for n in RULE_VARIANTS if n in own[which]]
    else:
        raise PluginError(f"simlab:rules {which}: not core or a villain folder ({', '.join(V.REGISTRY)})")
    if not names:
        return "No rule variant of its own."
    whose = {n: V.key_of(f) for f, s in own.items() for n in s}
    rows = []
    for n in names:
        v = RULE_VARIANTS[n]
        alternatives = md(", ".join(code(x) for x in list(v.values)[1:]))
        row = [code(v.name), code(v.default), alternatives, v.description]
        if which is None:
            row.insert(1, whose.get(n, "core"))
        rows.append(row)
    header = ["variant", "default", "alternatives", "meaning"]
    if which is None:
        header.insert(1, "concerns")
    return table(header, rows)


def param_groups() -> str:
    from strategies import parameter_table

    t = parameter_table()
    counts = t.group_by("group", maintain_order=True).len()
    rows = [[md(f"[{code(g)}](#{g})"), n] for g, n in counts.iter_rows()]
    return table(["group", "parameters"], rows) + f"\n\n{t.height} parameters in {counts.height} groups."


def params_table(group: str | None) -> str:
    from strategies import parameter_table

    t = parameter_table()
    groups = [group] if group else list(dict.fromkeys(t["group"]))
    if group and group not in set(t["group"]):
        raise PluginError(f"simlab:params {group}: no such parameter group")
    out = []
    for g in groups:
        rows = [
            [code(r["name"]), number(r["expert"]), f"{number(r['low'])} .. {number(r['high'])}"]
            + ["whole" if r["integer"] else "", "yes" if r["tunable"] else "no", r["description"]]
            for r in t.filter(t["group"] == g).iter_rows(named=True)
        ]
        block = table(["parameter", "expert", "range", "", "tuned", "description"], rows)
        out.append(block if group else f"### {g}\n\n{block}")
    return "\n\n".join(out)


def search_settings() -> str:
    from strategies import parameter_table

    rows = [
        [code(r["name"]), number(r["expert"]), f"{number(r['low'])} .. {number(r['high'])}", r["description"]]
        for r in parameter_table("search").iter_rows(named=True)
    ]
    return table(["setting", "default", "range", "description"], rows)


def strategy_files() -> str:
    from strategies import config_names, resolve

    rows = []
    for name in config_names():
        spec = resolve(name)
        rows.append([code(name), spec.description])
    return table(["file (configs/strategies/NAME.toml)", "description"], rows)


# ---------------------------------------------------------------------------------------------------- villains


def villain_doc(folder: str) -> dict:
    from simlab import villains as V

    if folder not in V.REGISTRY:
        raise PluginError(f"simlab:villain {folder}: not a registered folder ({', '.join(V.REGISTRY)})")
    return tomllib.loads(V.data_text(folder))


def symbols(names: list[str]) -> Markdown:
    return md(", ".join(code(s) for s in names) or "none")


def villain_block(folder: str, part: str) -> str:
    doc = villain_doc(folder)
    v = doc["villain"]
    cards = doc["card"]
    if part == "specs":
        decks = {d: sum(c["copies"] for c in cards if c["deck"] == d) for d in ("villain", "fate")}
        rows = [
            ["key (CLI, matchups)", code(v["key"])],
            ["objective", md(f"{esc(v['objective_text'])} ({code(v['objective'])})")],
            ["a won game ends with", v["won_text"]],
            ["starting location", doc["location"][0]["name"]],
            ["Villain deck", f"{decks['villain']} cards, {sum(c['deck'] == 'villain' for c in cards)} different"],
            ["Fate deck", f"{decks['fate']} cards, {sum(c['deck'] == 'fate' for c in cards)} different"],
            ["Obstacles", sum(loc.get("obstacle_spots", 0) for loc in doc["location"]) or "none"],
            ["Trapped tokens", v.get("trapped_tokens", "none")],
            ["tile", doc["tile"]["name"] if "tile" in doc else "none"],
            ["data", code(f"simlab/villains/{folder}/cards.toml")],
            ["ability routines", code(f"simlab/villains/{folder}/abilities.py")],
            ["plan (strategies)", code(f"strategies/plans/{folder}.py")],
        ]
        return table(["spec", "value"], rows)
    if part == "board":
        rows = []
        for loc in doc["location"]:
            notes = []
            if loc.get("obstacle_spots"):
                notes.append(f"{loc['obstacle_spots']} Obstacle spots")
            if loc.get("locked"):
                notes.append("starts locked")
            if loc.get("admits"):
                notes.append("admits only " + ", ".join(loc["admits"]))
            rows.append([loc["name"], symbols(loc["top"]), symbols(loc["bottom"]), "; ".join(notes)])
        out = table(["location", "top row (a Hero covers it)", "bottom row", ""], rows)
        if "tile" in doc:
            t = doc["tile"]
            out += (
                f"\n\nTile: **{t['name']}** (its other side: {t['power_side']}); swap cost {t['swap_cost']} Power, "
                f"flipped by an Activate costing {t['flip_activate_cost']} (the rule variant "
                f"`unprinted_activation_cost`), resolved by ability code {code(t['ability'])}."
            )
        return out
    if part == "decks":
        out = []
        for deck, title in (("villain", "Villain deck"), ("fate", "Fate deck")):
            rows = [
                [c["name"], c["type"], c["copies"], c.get("cost", ""), c.get("strength", ""), c.get("text", "")]
                for c in cards
                if c["deck"] == deck
            ]
            out.append(f"### {title}\n\n" + table(["card", "type", "copies", "cost", "Strength", "text"], rows))
        return "\n\n".join(out)
    raise PluginError(f"simlab:villain {folder} {part}: choose specs, board or decks")


# ---------------------------------------------------------------------------------------------------- source text


def module_files(module: str) -> list[Path]:
    """The source files of a module, or of every module of a package."""
    where = ROOT / module.replace(".", "/")
    if where.with_suffix(".py").is_file():
        return [where.with_suffix(".py")]
    if where.is_dir():
        return sorted(where.rglob("*.py"))
    raise PluginError(f"no module {module} under {ROOT}")


def constants(prefix: str, module: str = "simlab.kernels.const") -> str:
    """The ``PREFIX_*`` assignments of a module's source (or a package's), with the comment beside each and the
    comment lines continuing it."""
    rows = []
    pattern = re.compile(rf"^({prefix}_[A-Z0-9_]+) = ([^#]+?)\s*(?:#\s?(.*))?$")
    for path in module_files(module):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = pattern.match(line)
            if not m:
                continue
            note = [m[3] or ""]
            for follow in lines[i + 1 :]:
                if not follow.startswith("# ") or pattern.match(follow):
                    break
                note.append(follow[2:])
            rows.append([code(m[1]), code(m[2]), " ".join(note)])
    if not rows:
        raise PluginError(f"simlab:constants {prefix}: no {prefix}_* constant in {module}")
    return table(["name", "value", "meaning"], rows)


def tuple_fields(name: str, path: Path = ROOT / "simlab/kernels/state.py") -> str:
    """The fields of the named tuple ``name`` in ``path``'s source, with the comment beside each."""
    source = path.read_text(encoding="utf-8")
    found = re.search(rf'^{name} = namedtuple\(\s*"{name}",\s*\[(.*?)^    \],', source, re.S | re.M)
    if found is None:
        raise PluginError(f"simlab:fields {name}: no namedtuple {name} in {path.relative_to(ROOT)}")
    rows = []
    for line in found[1].splitlines():
        m = re.match(r'\s*"(\w+)",\s*(?:#\s?(.*))?$', line)
        if m:
            rows.append([code(m[1]), m[2] or ""])
        elif line.strip().startswith("#") and rows:
            rows[-1][1] += " " + line.strip()[1:].strip()
    return table(["field", "dtype, shape and meaning"], rows)


def routines() -> str:
    rows = []
    for path in sorted((ROOT / "simlab/kernels").rglob("*.py")):
        for m in re.finditer(r"^(RT_[A-Z0-9_]+) = (\d+)(?:\s*#\s*(.*))?$", path.read_text(encoding="utf-8"), re.M):
            rows.append((int(m[2]), m[1], m[3] or "", path.relative_to(ROOT).as_posix()))
    if not rows:
        raise PluginError("simlab:routines: no RT_* routine code under simlab/kernels")
    rows.sort()
    return table(["code", "routine", "note", "defined in"], [[n, code(r), note, code(p)] for n, r, note, p in rows])


def first_paragraph(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split("\n\n")[0].split())


def layout() -> str:
    """The floors, lowest first, each with its packages' modules and what their docstrings say."""
    source = (ROOT / "tests/test_layout.py").read_text(encoding="utf-8")
    floors = re.search(r"^FLOORS = \((.*?)^\)", source, re.S | re.M)
    if floors is None:
        raise PluginError("simlab:layout: tests/test_layout.py has no FLOORS tuple")
    entries = re.findall(r'"([\w.]+)",\s*#\s*(.*)', floors[1])
    out = []
    for i, (package, note) in enumerate(entries):
        where = ROOT / package.replace(".", "/")
        files = [where.with_suffix(".py")] if where.with_suffix(".py").is_file() else sorted(where.rglob("*.py"))
        rows = []
        for f in files:
            if f.name == "__main__.py":
                continue
            module = ".".join(f.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            what = first_paragraph(f)
            if what or f.name != "__init__.py":
                rows.append([code(module), what])
        out.append(f"### {i}. `{package}`\n\n{esc(note)}.\n\n" + table(["module", "what it holds"], rows))
    return "\n\n".join(out)


# ---------------------------------------------------------------------------------------------------- mkdocs events


def on_files(files, config):
    for uri, source in OUTSIDE:
        path = ROOT / source
        if not path.is_file():
            raise PluginError(f"{source} is missing (the site shows it as {uri})")
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    pages = {f.src_uri: f.content_string for f in files.documentation_pages()}
    BUILD["claims"] = claimed_commands(pages)
    BUILD["titles"] = {
        uri: next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), uri)
        for uri, text in pages.items()
    }
    return files


def docs_links(markdown: str, source: str, uri: str) -> str:
    """Links of a file kept outside ``docs/`` (at ``source`` in the repository, ``uri`` in the site) that point
    into ``docs/``, pointed from the page's place in the site instead."""

    def move(m):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(source), m[2]))
        if not target.startswith("docs/"):
            return m[0]
        return f"]({posixpath.relpath(target.removeprefix('docs/'), posixpath.dirname(uri) or '.')}{m[3] or ''})"

    return re.sub(r"\]\((?!https?:)(([^)#\s]+))(#[^)]*)?\)", move, markdown)


def cli_block(page, name: str) -> str:
    """One command's help, where the page that explains it asks for it."""
    command, ctx = cli_commands()[name]
    every = relative(page.file.src_uri, f"reference/cli.md#{name}")
    return command_help(name, command, ctx) + f"\n\n(The same in [the CLI reference]({every}).)"


def figures(markdown: str, uri: str) -> str:
    """The page's ``<!-- fig:KEY -->`` figures filled from the shipped artifacts (:mod:`simlab.report.figures`),
    their markers dropped: the site shows what the artifacts hold, whatever the page's copy says."""
    from simlab.report.figures import FigureError, fill

    try:
        return fill(markdown, strip=True)
    except FigureError as exc:
        raise PluginError(f"{uri}: {exc}") from None


# marker -> what it becomes: a function of the page and the marker's arguments
BLOCKS = {
    "cli": cli_block,
    "cli-reference": lambda page: cli_reference(BUILD["claims"], BUILD["titles"], page),
    "rules": lambda page, which=None: rules_table(which),
    "param-groups": lambda page: param_groups(),
    "params": lambda page, group=None: params_table(group),
    "search-settings": lambda page: search_settings(),
    "strategy-files": lambda page: strategy_files(),
    "villain": lambda page, folder, part="": villain_block(folder, part),
    "constants": lambda page, prefix, *module: constants(prefix, *module),
    "fields": lambda page, name: tuple_fields(name),
    "routines": lambda page: routines(),
    "layout": lambda page: layout(),
}


def on_page_markdown(markdown, page, config, files):
    outside = dict(OUTSIDE).get(page.file.src_uri)
    if outside:
        markdown = docs_links(markdown, outside, page.file.src_uri)
    markdown = figures(markdown, page.file.src_uri)

    def render(m):
        block = BLOCKS.get(m[1])
        if block is None:
            raise PluginError(f"{page.file.src_uri}: unknown marker simlab:{m[1]}; markers: {', '.join(BLOCKS)}")
        args = m[2].split()
        try:
            inspect.signature(block).bind(page, *args)
        except TypeError as exc:
            raise PluginError(f"{page.file.src_uri}: {m[0]}: wrong arguments ({exc})") from None
        return block(page, *args)

    return MARKER.sub(render, markdown)
