"""Where compiled kernels are cached, and when a cache is stale.

numba's cache is keyed on each function's own source file only: a kernel does not notice that a constant it reads
(``const.py``) or a kernel it calls changed in another file. So each module's kernels are cached in a directory
named by their decorator's tag and a hash of the module's import closure: its own source and the source of every
module it imports, directly or not, within the packages that declare kernels (:func:`closure_hash`). Editing a
strategy recompiles the strategies and what imports them, never the rules' kernels. A module whose kernels freeze
values worked out at import (a villain folder's ability codes) names them with :func:`keep_apart`.

The seconds each part took in the last cold compile are kept here too (:func:`part_seconds`): a cold start compiles
the longest first.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import sys
from functools import cache
from pathlib import Path

import numba

_APART: dict[str, str] = {}  # module -> a key its kernels' cache is kept apart by
_PACKAGES: set[str] = set()  # the top-level packages whose modules' imports are followed
# one module-level import statement: "from X import a, (b as c, ...)" or "import X, Y as Z" (an import inside a
# function runs when the function does, never for a kernel, which reads the module's globals)
_IMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n#]+)|import\s+([\w., ]+))", re.M)


def cache_base() -> str:
    """The folder every cache directory is in (``NUMBA_CACHE_DIR``, else ``~/.cache/simlab-numba``)."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "simlab-numba"
    )


def follow(package: str) -> None:
    """Follow imports into the top-level package ``package`` (one that declares kernels) when hashing closures."""
    if package not in _PACKAGES:
        _PACKAGES.add(package)
        closure.cache_clear()


def keep_apart(module: str, key: str) -> None:
    """Keep the cache of the kernels ``module`` declares from now on in a directory of its own, named by ``key``: for
    a module whose kernels freeze values worked out when it is imported, which its source does not show."""
    _APART[module] = key


@cache
def module_file(module: str) -> Path | None:
    """The source file of ``module`` (dotted) if it is in a followed package, found without importing it: through
    its parent package's ``__path__`` when the parent is imported (a package may extend it, as the plans do with
    villain folders outside simlab), else from the top package's folder."""
    top, _, rest = module.partition(".")
    if top not in _PACKAGES:
        return None
    parent, _, name = module.rpartition(".")
    if parent and hasattr(sys.modules.get(parent), "__path__"):
        bases, parts = list(sys.modules[parent].__path__), [name]
    else:
        root = sys.modules.get(top)
        bases = list(getattr(root, "__path__", ()))
        if not bases:
            spec = importlib.util.find_spec(top)
            bases = list(spec.submodule_search_locations or ()) if spec else []
        parts = rest.split(".") if rest else []
    for base in bases:
        path = Path(base).joinpath(*parts)
        for candidate in (path / "__init__.py", path.with_suffix(".py")):
            if candidate.is_file():
                return candidate
    return None


@cache
def _imports(path: Path) -> tuple[str, ...]:
    """The modules the file at ``path`` imports at module level (each ``from X import y`` as X and X.y)."""
    out = []
    for frm, names, plain in _IMPORT.findall(path.read_text(encoding="utf-8")):
        if frm:
            out.append(frm)
            for name in names.strip("()").replace("\n", " ").split(","):
                name = name.split("#")[0].split(" as ")[0].strip()
                if name and name != "*":
                    out.append(f"{frm}.{name}")
        else:
            out.extend(n.split(" as ")[0].strip() for n in plain.split(","))
    return tuple(out)


@cache
def closure(module: str) -> tuple[Path, ...]:
    """The source files of ``module`` and of every module it imports, directly or not, in the followed packages."""
    seen: dict[Path, None] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = module_file(name)
        if path is None or path in seen:
            continue
        seen[path] = None
        todo.extend(_imports(path))
        parent = name.rpartition(".")[0]
        if parent:  # importing a.b runs a/__init__.py first
            todo.append(parent)
    return tuple(sorted(seen))


def closure_hash(module: str) -> str:
    """A hash of numba's version and the sources of ``module``'s import closure (:func:`closure`)."""
    h = hashlib.sha256(numba.__version__.encode())
    for path in closure(module):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(tag: str, module: str) -> str:
    """The directory the kernels ``module`` declares under the cache tag ``tag`` are cached in: kept apart by the
    keys of ``module`` and of every module of its closure that has one (a module importing frozen values is)."""
    files = set(closure(module))
    keys = [key for name, key in sorted(_APART.items()) if name == module or module_file(name) in files]
    name = f"{tag}-{closure_hash(module)}" + "".join(f"-{key}" for key in dict.fromkeys(keys))
    return os.path.join(cache_base(), name)


def _seconds_file() -> Path:
    return Path(cache_base()) / "part-seconds.json"


def part_seconds() -> dict[str, float]:
    """Seconds each part took in the last cold compile on this machine (empty if none is recorded)."""
    try:
        data = json.loads(_seconds_file().read_text())
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float)} if isinstance(data, dict) else {}


def record_part_seconds(seconds: dict[str, float]) -> None:
    """Keep ``seconds`` (part -> seconds of this cold compile) for the next cold compile's order."""
    if not seconds:
        return
    try:
        path = _seconds_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps({**part_seconds(), **seconds}, indent=0, sort_keys=True))
        os.replace(tmp, path)
    except OSError:
        pass  # only the order of the next cold compile depends on it
