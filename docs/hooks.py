"""mkdocs hooks: pages and images of the site that are kept outside ``docs/``: ``benchmarks/HISTORY.md``,
``CHANGELOG.md`` and the plots under ``reports/`` that pages show."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]

# Files kept beside the code, shown as pages or images of the site: (path in the site, path in the repository).
OUTSIDE = (
    ("history/speed.md", "benchmarks/HISTORY.md"),
    ("history/changelog.md", "CHANGELOG.md"),
    ("img/search-strength.png", "reports/search-curve/strength.png"),
    ("img/search-strength-tuned.png", "reports/search-curve-tuned/strength.png"),
    ("img/tune-trajectory.png", "reports/tune/trajectory.png"),
)


def on_files(files, config):
    for uri, source in OUTSIDE:
        path = ROOT / source
        if not path.is_file():
            raise PluginError(f"{source} is missing (the site shows it as {uri})")
        files.append(File.generated(config, uri, abs_src_path=str(path)))
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


def on_page_markdown(markdown, page, config, files):
    outside = dict(OUTSIDE).get(page.file.src_uri)
    return docs_links(markdown, outside, page.file.src_uri) if outside else markdown
