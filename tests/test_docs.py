"""The docs site: ``mkdocs build --strict`` passes (no dead link, no page missing from the navigation), generating
it compiles no kernel, and every command of the CLI has its section in the built reference and a page that
explains it."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[docs]' (the test extra has it)")
pytest.importorskip("material", reason="mkdocs-material is not installed: pip install -e '.[docs]'")

ROOT = Path(__file__).resolve().parents[1]


def load_hooks():
    spec = importlib.util.spec_from_file_location("simlab_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built strictly into a temporary directory, on an empty numba cache."""
    out = tmp_path_factory.mktemp("site")
    cache = tmp_path_factory.mktemp("numba-cache")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out, cache


@pytest.mark.slow
def test_the_site_builds_strictly_without_compiling_a_kernel(site):
    out, cache = site
    assert (out / "index.html").is_file()
    compiled = [p.relative_to(cache) for p in cache.rglob("*") if p.is_file()]
    assert compiled == [], f"building the docs compiled kernels: {compiled[:5]}"


@pytest.mark.slow
def test_every_command_is_in_the_built_cli_reference(site):
    from typer.main import get_command

    from simlab.cli import app

    group = get_command(app)
    names = group.list_commands(group.context_class(group, info_name="simlab"))
    assert len(names) >= 10
    page = (site[0] / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    for name in names:
        assert re.search(rf'<h2 id="{re.escape(name)}"', page), f"simlab {name} has no section in the CLI reference"
        assert f"simlab {name} [OPTIONS]" in text, f"simlab {name}'s usage is not in the CLI reference"
        help_text = " ".join(group.get_command(None, name).help.split())
        assert help_text[:60] in text, f"simlab {name}'s help is not in the CLI reference"


def test_a_command_without_a_docs_page_fails_the_build():
    import typer

    from simlab.cli import app

    hooks = load_hooks()
    docs = ROOT / "docs"
    pages = {p.relative_to(docs).as_posix(): p.read_text(encoding="utf-8") for p in docs.rglob("*.md")}
    claims = hooks.claimed_commands(pages)
    assert claims["run"] == "studies/runs.md"

    scratch = typer.Typer()
    scratch.registered_commands = list(app.registered_commands)

    @scratch.command()
    def dummy() -> None:
        """A command nobody wrote a page for."""

    with pytest.raises(hooks.PluginError, match=r"commands with no docs page .*: dummy"):
        hooks.claimed_commands(pages, scratch)
    only = typer.Typer()
    only.registered_commands = [c for c in app.registered_commands if c.callback.__name__ != "run"]
    with pytest.raises(hooks.PluginError, match="docs pages claim commands the app does not have: run"):
        hooks.claimed_commands(pages, only)
