"""Helpers of the hostile suite (issue 58): a full disk, a scheduler that is not one, a link planted in a folder."""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import subprocess
import threading
import uuid
from pathlib import Path

import pytest


def _tmpfs(path: Path, size: str) -> bool:
    """Mount a tmpfs of ``size`` at ``path`` (root only); False where that cannot be done."""
    if os.geteuid() != 0:
        return False
    path.mkdir(parents=True, exist_ok=True)
    try:
        res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    except OSError:
        return False
    return res.returncode == 0


@pytest.fixture
def full_disk(tmp_path, monkeypatch):
    """``full_disk(size)`` -> a folder on a file system of ``size`` (a tmpfs, as root), or, where no tmpfs can be
    mounted, a folder whose writes of more than ``size`` bytes raise ENOSPC (the durable write patched). Returns
    (folder, kind)."""
    mounted = []

    def make(size: str = "200k"):
        folder = tmp_path / f"full-{uuid.uuid4().hex[:6]}"
        if _tmpfs(folder, size):
            mounted.append(folder)
            return folder, "tmpfs"
        folder.mkdir()
        limit = int(size.rstrip("k")) * 1024
        import builtins

        real_open = builtins.open

        class Capped:
            def __init__(self, fh):
                self.fh = fh

            def write(self, data):
                used = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
                if used + len(data) > limit:
                    raise OSError(errno.ENOSPC, "No space left on device")
                return self.fh.write(data)

            def __getattr__(self, name):
                return getattr(self.fh, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.fh.close()

        def capped_open(file, mode="r", *a, **k):
            fh = real_open(file, mode, *a, **k)
            inside = str(Path(file).resolve()).startswith(str(folder.resolve()))
            return Capped(fh) if inside and "w" in mode else fh

        monkeypatch.setattr(builtins, "open", capped_open)
        return folder, "patched"

    yield make
    for folder in mounted:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


class FakeScheduler:
    """A TCP socket on 127.0.0.1 that accepts and then stays silent (``garbage``: answers bytes that are not a Dask
    frame); ``address`` is its tcp:// address."""

    def __init__(self, garbage: bytes | None = None):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.garbage, self.conns, self.stopped = garbage, [], False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)
            if self.garbage is not None:
                with contextlib.suppress(OSError):
                    conn.sendall(self.garbage)

    def close(self):
        self.stopped = True
        self.thread.join(2)
        for c in self.conns:
            c.close()
        self.sock.close()


@pytest.fixture
def fake_scheduler():
    made = []

    def make(garbage: bytes | None = None) -> FakeScheduler:
        made.append(FakeScheduler(garbage))
        return made[-1]

    yield make
    for s in made:
        s.close()


@pytest.fixture(autouse=True)
def _deadline():
    """A hostile case that hangs (a huge size played, a silent socket waited on) fails after 300 s instead."""
    import signal

    def expired(signum, frame):
        raise TimeoutError("a hostile case ran past its deadline of 300 s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(300)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
