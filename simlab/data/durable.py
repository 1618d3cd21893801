"""Every file simlab writes goes through here: a temporary file created exclusively, with an unpredictable name, in
the target's own folder (:func:`tempfile.mkstemp`: ``O_CREAT | O_EXCL``, so a link planted in the folder is never
followed), flushed and fsynced, then renamed over the target (and the folder fsynced). The target holds either its
old contents or all of the new ones, never a part; an interrupted or failed write leaves no file a later run would
trust. A full disk or quota (``ENOSPC``, ``EDQUOT``) is one line naming the path and the space needed
(:class:`simlab.errors.WriteError`, exit code 2), as is any other refusal of the file system."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from simlab.errors import WriteError

FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
TEMP_PREFIX = ".simlab-tmp-"  # every temporary file's name starts so (a folder's leftovers are easy to find)


def human_bytes(n: float) -> str:
    """``1536`` -> ``"1.5 KB"`` (powers of 1,000, as df -H shows them)."""
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if abs(n) < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:,.1f} PB"  # pragma: no cover


def free_bytes(path: str | Path) -> int | None:
    """Free bytes on the file system that holds ``path`` (its nearest existing folder); None if unknown."""
    where = Path(path)
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        return shutil.disk_usage(where if where.is_dir() else where.parent).free
    except OSError:
        return None


def is_full(exc: BaseException) -> bool:
    """A full disk or quota, however the library that wrote reports it (pyarrow's errors carry no errno)."""
    if getattr(exc, "errno", None) in FULL:
        return True
    text = str(exc)
    return "No space left" in text or "Disk quota exceeded" in text or "errno 28" in text.lower()


def write_error(exc: BaseException, path: str | Path, what: str, needed: int | None = None) -> WriteError:
    """The one line for a failed write of ``what`` at ``path``: a full disk names the space needed (and free)."""
    if is_full(exc):
        free = free_bytes(path)
        need = f"about {human_bytes(needed)}" if needed else "more space"
        have = f", {human_bytes(free)} free" if free is not None else ""
        return WriteError(f"no space left on the device to write {what} {str(path)!r}: it needs {need}{have}")
    reason = getattr(exc, "strerror", None) or str(exc)
    return WriteError(f"cannot write {what} {str(path)!r}: {reason}")


def check_space(path: str | Path, needed: int, what: str) -> None:
    """Refuse (WriteError) an output of about ``needed`` bytes where the file system has less free."""
    free = free_bytes(path)
    if free is not None and needed > free:
        raise WriteError(
            f"no space left on the device to write {what} {str(path)!r}: it needs about {human_bytes(needed)}, "
            f"{human_bytes(free)} free"
        )


def new_temp(path: str | Path) -> Path:
    """A fresh, empty temporary file beside ``path`` (created exclusively, mode 0600, name unpredictable); the
    caller writes it and hands it to :func:`commit` or :func:`discard`."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{path.stem[:40]}.", suffix=path.suffix, dir=path.parent or ".")
    os.close(fd)
    return Path(tmp)


def fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # a folder that cannot be opened for reading (some file systems)
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def commit(tmp: Path, path: str | Path) -> None:
    """Flush the written temporary file ``tmp`` to disk and rename it over ``path`` (then flush the folder)."""
    fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)
    os.replace(tmp, path)
    fsync_dir(Path(path).parent)


def discard(tmp: Path | None) -> None:
    if tmp is not None:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()  # read once, at import (os.umask sets it while reading it)


@contextlib.contextmanager
def replacing(path: str | Path, what: str, needed: int | None = None) -> Iterator[Path]:
    """``with replacing(path, "the report") as tmp:`` write ``tmp`` (by name: a library's ``write_parquet``,
    ``savefig``); on leaving the block it replaces ``path``. Any error leaves ``path`` as it was and no temporary
    file; an OSError becomes a WriteError naming ``what``, ``path`` and, for a full disk, ``needed`` bytes."""
    tmp = None
    try:
        tmp = new_temp(path)
        yield tmp
        if needed is None:
            needed = tmp.stat().st_size
        commit(tmp, path)
        tmp = None
    except OSError as exc:
        discard(tmp)  # first: the free space named is what the folder has without it
        tmp = None
        raise write_error(exc, path, what, needed) from None
    finally:
        discard(tmp)


def write_bytes(path: str | Path, data: bytes, what: str = "the file") -> None:
    """Write ``data`` to ``path`` durably (see the module): all of it or, on any error, nothing."""
    with replacing(path, what, len(data)) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()


def write_text(path: str | Path, text: str, what: str = "the file") -> None:
    write_bytes(path, text.encode("utf-8"), what)


def write_with(path: str | Path, writer: Callable[[Path], object], what: str = "the file") -> None:
    """``writer(tmp)`` writes the file by name (``frame.write_parquet``, ``fig.savefig``); then it replaces ``path``."""
    with replacing(path, what) as tmp:
        writer(tmp)


def leftovers(folder: str | Path) -> list[Path]:
    """Temporary files an interrupted write left in ``folder`` (never read; removed by :func:`clean`)."""
    return sorted(Path(folder).glob(f"{TEMP_PREFIX}*"))


def clean(folder: str | Path) -> None:
    for stale in leftovers(folder):
        discard(stale)
