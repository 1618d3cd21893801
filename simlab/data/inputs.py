"""What users hand the toolkit, checked the same way wherever it comes in: TOML files read within a size and a nesting
limit, names a config gives for outputs kept inside their output folder, output paths checked writable before any
game is played, and repeated options that must agree. A file from someone else is data: however it is formed, it ends
in one line naming the file and what is wrong, never a traceback, and it never picks a path outside the folder it
writes to."""

from __future__ import annotations

import copy
import functools
import os
import tempfile
import tomllib
from pathlib import Path

from simlab.errors import InputError

# A strategy, experiment or mixture file is a few kilobytes and nests three or four tables deep; the limits leave
# room for any honest file and stop a hostile one before it costs memory or recursion.
MAX_TOML_BYTES = 1_000_000
MAX_TOML_DEPTH = 16
MIN_FREE_BYTES = 64 * 1024  # an output folder with less free is full: refused before any game


def toml_depth(value) -> int:
    """How deep tables and arrays nest in ``value`` (a table of scalars: 1); walked without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_TOML_DEPTH:  # past the limit the answer is known: too deep
            stack.extend((child, depth + 1) for child in children)
    return deepest


def not_a_file(path: str | Path) -> str | None:
    """What ``path`` is when it exists but is not a regular file (``"a FIFO, not a file"``, ``"a directory"``, ...),
    else None."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    kinds = (
        (stat.S_ISREG, None),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO, not a file"),
        (stat.S_ISSOCK, "a socket, not a file"),
        (stat.S_ISCHR, "a character device, not a file"),
        (stat.S_ISBLK, "a block device, not a file"),
    )
    return next((kind for test, kind in kinds if test(mode)), "not a regular file")


BOM = "\ufeff"  # a UTF-8 byte-order mark, as some editors (Notepad, Excel) begin a file


def control_characters(text: str) -> str:
    """The first control character in ``text`` named (``"a newline (U+000A) at character 4"``), or ``""``."""
    import unicodedata

    names = {"\n": "a newline", "\r": "a carriage return", "\t": "a tab", "\0": "a NUL byte", "\x1b": "an escape"}
    for i, ch in enumerate(str(text)):
        if ch == BOM:
            return f"a byte-order mark (U+FEFF) at character {i + 1}"
        if unicodedata.category(ch) == "Cc" or ch in _INVISIBLE_BREAKS:
            return f"{names.get(ch, 'a control character')} (U+{ord(ch):04X}) at character {i + 1}"
    return ""


# line and paragraph separators, and the bidirectional overrides that make text read other than it is stored
_INVISIBLE_BREAKS = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_name(text, what: str) -> None:
    """Refuse (InputError) a name that holds a control character (a newline would split a report's lines)."""
    bad = control_characters(text) if isinstance(text, str) else ""
    if bad:
        raise InputError(f"{what} {text!r} holds {bad}; a name is one line of printable text")


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> dict:
    """``text`` parsed as TOML, once per text: a run resolves the same strategy and mixture files hundreds of times
    (every seat of every stage), and tomllib is pure Python (a tiny learning run spent a quarter of its time here).
    Keyed by the text, so an edited file is parsed again; an error is raised each time, not kept."""
    return tomllib.loads(text)


def read_toml(path: str | Path, what: str, error: type[Exception] = InputError) -> dict:
    """The document of the TOML file ``path``, or ``error`` with one line naming ``what`` (``"strategy file"``),
    the file and the problem: unreadable, not a regular file, over :data:`MAX_TOML_BYTES`, not UTF-8, not TOML
    (integers of more than 4,300 digits included), nested deeper than :data:`MAX_TOML_DEPTH`."""
    where = f"{what} {path}"
    try:
        state = not_a_file(path)
        if state:
            raise error(f"{where} is {state}; give a .toml file")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {where}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a path with a NUL byte
        raise error(f"cannot read {what} {str(path)!r}: {exc}") from None
    if len(raw) > MAX_TOML_BYTES:
        raise error(f"{where} is larger than the limit of {MAX_TOML_BYTES:,} bytes for a TOML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{where} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    bom = text.startswith(BOM)
    text = text.removeprefix(BOM)  # harmless at the start: read past, as Python's utf-8-sig does
    try:
        doc = copy.deepcopy(_parsed(text))  # each caller its own document, as a fresh parse gives
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to convert
        inner = text.find(BOM)
        if inner >= 0:  # anywhere else it breaks the TOML: say where, since an editor does not show it
            line = text.count("\n", 0, inner) + 1
            raise error(
                f"{where} is not valid TOML: it holds a byte-order mark (U+FEFF, invisible in most editors) on line "
                f"{line}; delete it"
            ) from None
        raise error(
            f"{where} is not valid TOML: {exc}" + (" (after its UTF-8 byte-order mark)" if bom else "")
        ) from None
    except RecursionError:
        raise error(f"{where} nests tables or arrays deeper than the limit of {MAX_TOML_DEPTH}") from None
    if toml_depth(doc) > MAX_TOML_DEPTH:
        raise error(f"{where} nests tables or arrays deeper than the limit of {MAX_TOML_DEPTH}")
    return doc


def output_name(name, folder: str | Path, what: str) -> Path:
    """``folder / name`` for a name a config gives an output (a report's name, a plot's or a table's), or an
    InputError naming ``what``: the name must be one path component (not empty, no ``/`` or ``\\``, not ``.`` or
    ``..``, no NUL) whose resolved path stays inside ``folder`` (no symlink out of it)."""
    text = name if isinstance(name, str) else None
    shown = repr(name)
    if text is None or not text.strip():
        raise InputError(f"{what} {shown} must be a non-empty name (one folder or file name, no path)")
    if "/" in text or "\\" in text or "\0" in text or text in (".", "..") or os.path.isabs(text):
        raise InputError(f"{what} {shown} must be a single name inside the output folder, not a path")
    check_name(text, what)
    base = Path(folder)
    target = base / text
    try:
        inside = target.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a name the file system refuses
        raise InputError(f"{what} {shown}: cannot use {str(target)!r}: {exc}") from None
    if not inside:
        raise InputError(f"{what} {shown} leads outside the output folder {str(base)!r} (a symlink out of it)")
    return target


def agree(given: dict, key, item: str, value, what: str) -> None:
    """Record ``item`` (as typed) under ``key`` in ``given``, refusing (InputError) a repeat of ``what`` that
    gives ``key`` another ``value``: a user who pastes two lines must not have to guess which one plays. The
    same value twice is fine."""
    if key in given and given[key][1] != value:
        raise InputError(f"{what} {given[key][0]!r} and {what} {item!r} contradict each other; give one of them")
    given.setdefault(key, (item, value))


def split_items(text: str, option: str) -> list[str]:
    """``"a,b,c"`` -> ``["a", "b", "c"]``, each stripped; an empty item (``"a,,b"``, a trailing comma, nothing at
    all) is refused (InputError), so a typo never quietly drops a value."""
    items = [t.strip() for t in str(text).split(",")]
    for i, item in enumerate(items):
        if not item:
            where = "is empty" if len(items) == 1 else f"has an empty item (item {i + 1} of {len(items)})"
            raise InputError(f"{option} {text!r} {where}; separate values with single commas")
    return items


def check_output_file(path: str | None, option: str, suffix: str | tuple[str, ...]) -> None:
    """A file option (``--png``, ``--out``) must name a file with ``suffix`` (or one of them), not a directory,
    in a folder this process can write; checked before any game is played, so a typo or an unwritable place
    costs nothing and writes nothing (an InputError otherwise)."""
    if path is None:
        return
    suffixes = (suffix,) if isinstance(suffix, str) else suffix
    if "\0" in path or Path(path).suffix.lower() not in suffixes:
        raise InputError(f"{option} {path!r} must be a file name ending in {' or '.join(suffixes)}")
    _check_writable(Path(path), option, path, folder=False)


def check_output_dir(path: str | None, option: str) -> None:
    """A folder option (``--checkpoint``, ``--report-dir``, an output folder) must name a folder this process can
    write (made later if need be), not a file; checked before any game is played (an InputError otherwise)."""
    if path is None:
        return
    if not path.strip() or "\0" in path:
        raise InputError(f"{option} {path!r} must name a folder")
    _check_writable(Path(path), option, path, folder=True)


def _check_writable(p: Path, option: str, shown: str, folder: bool) -> None:
    """A file (``folder``: a folder) could be made at ``p``: it is not of the other kind, its nearest existing
    folder takes a new file (tried: permission bits do not say it for root, nor for /proc), and ``p``, an
    existing file, opens for writing."""
    try:
        if p.exists() and p.is_dir() != folder:
            kind = "is a directory; give a file name" if p.is_dir() else "is a file; give a folder"
            raise InputError(f"{option} {shown!r} {kind}")
        where = p if folder else p.parent
        while not where.exists() and where != where.parent:
            where = where.parent
        if not where.is_dir():
            raise InputError(f"cannot write {option} {shown!r}: {str(where)!r} is a file, not a folder")
        if p.is_file():
            with open(p, "ab"):
                pass
        fd, probe = tempfile.mkstemp(prefix=".simlab-write-test-", dir=where)
        os.close(fd)
        os.unlink(probe)
        from simlab.data.durable import check_space

        check_space(p, MIN_FREE_BYTES, option)  # a full disk is found now, not after the games
    except OSError as exc:
        raise InputError(f"cannot write {option} {shown!r}: {exc.strerror or exc}") from None
