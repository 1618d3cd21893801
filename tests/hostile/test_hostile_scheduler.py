"""Issue 58, defect 3: a ``--scheduler`` that is not a Dask scheduler (a socket that accepts and stays silent, an
answer of garbage) is refused in one line naming the address within ``--connect-timeout``; ``--fallback local``
plays on local threads instead."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.errors import BackendError
from simlab.runs import backend

MATCHUP = "gaston-vs-horned-king"


def test_a_silent_socket_is_refused_within_the_timeout(fake_scheduler):
    silent = fake_scheduler()
    t0 = time.monotonic()
    with pytest.raises(BackendError) as err:
        backend.make("dask", silent.address, timeout=1.0)
    took = time.monotonic() - t0
    assert 0.9 < took < 5, took
    assert str(err.value) == (
        f"the Dask scheduler at {silent.address} did not answer in the Dask protocol within 1 s (--connect-timeout); "
        "is it a scheduler's address?"
    )


@pytest.mark.parametrize(
    "garbage", [b"\xff" * 64, b"HTTP/1.1 400 Bad Request\r\n\r\n", b"\x10\0\0\0\0\0\0\0" + b"x" * 16]
)
def test_a_garbage_answer_is_refused_in_one_line(fake_scheduler, garbage):
    bad = fake_scheduler(garbage)
    with pytest.raises(BackendError) as err:
        backend.make("dask", bad.address, timeout=2.0)
    msg = str(err.value)
    assert msg.startswith(f"the Dask scheduler at {bad.address} answered, but not ") and "\n" not in msg


def test_fallback_local_plays_here_and_says_why(fake_scheduler):
    silent = fake_scheduler()
    got = backend.make("dask", silent.address, timeout=0.5, fallback="local")
    assert isinstance(got, backend.LocalBackend) and silent.address in got.fallback_reason
    assert got.fallback_reason.endswith("playing on local threads instead (--fallback local)")


@pytest.mark.parametrize(
    "timeout, fallback, message",
    [
        (0, None, "--connect-timeout must be a number of seconds above 0 and at most 3,600, got 0"),
        (float("nan"), None, "--connect-timeout must be a number of seconds above 0 and at most 3,600, got nan"),
        (10, "remote", "--fallback: unknown choice 'remote'; choose from none, local"),
    ],
)
def test_connect_options_are_checked(timeout, fallback, message):
    with pytest.raises(BackendError, match=message.replace("(", r"\(").replace(")", r"\)")):
        backend.make("dask", "tcp://127.0.0.1:1", timeout=timeout, fallback=fallback)


def test_the_command_refuses_a_silent_scheduler_in_one_line(fake_scheduler, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    silent = fake_scheduler()
    args = ["run", "-m", MATCHUP, "-n", "50", "--backend", "dask", "--scheduler", silent.address]
    got = CliRunner().invoke(app, [*args, "--connect-timeout", "1"])
    # on a fresh numba cache the plan's speed measure compiles first and says so (lines "simlab: compil...")
    said = [line for line in got.output.strip().splitlines() if not line.startswith("simlab: compil")]
    assert got.exit_code == 2 and len(said) == 1, got.output
    assert silent.address in said[0] and list(tmp_path.iterdir()) == []
    got = CliRunner().invoke(app, [*args, "--connect-timeout", "0.5", "--fallback", "local", "--json"])
    assert got.exit_code == 0, got.output
    assert '"games": 50' in got.output


def test_every_command_with_a_scheduler_takes_the_connect_options():
    import typer

    commands = typer.main.get_command(app).commands
    with_scheduler = {n for n, c in commands.items() if any("--scheduler" in p.opts for p in c.params)}
    assert len(with_scheduler) >= 13
    for name in with_scheduler:
        helps = {p.opts[0]: p.help or "" for p in commands[name].params}
        assert "Dask protocol" in helps.get("--connect-timeout", ""), name  # the shared option, not a look-alike
        assert "local threads" in helps.get("--fallback", ""), name
