"""Ctrl-C: a run with a checkpoint says how to resume it, one without says how to make the next resumable; either
way the finished games are printed and the exit code is 130."""

from __future__ import annotations

import os
import signal

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.cli.common import StagedProgress

runner = CliRunner()
ARGS = ["run", "-m", "gaston-vs-horned-king", "-n", "4200", "--threads", "1", "--max-turns", "8"]  # two chunks


@pytest.fixture
def ctrl_c_after_a_chunk(monkeypatch):
    """Ctrl-C once the first chunk of games has come back (the run stops after the chunk it is playing)."""
    real = StagedProgress.games
    sent = []

    def games(self, done, total, label="games"):
        if done and not sent:
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)
        return real(self, done, total, label)

    monkeypatch.setattr(StagedProgress, "games", games)


@pytest.mark.parametrize("kept", [True, False], ids=["checkpoint", "none"])
def test_ctrl_c_says_how_to_resume(kept, tmp_path, ctrl_c_after_a_chunk):
    ckpt = tmp_path / "ckpt"
    res = runner.invoke(app, [*ARGS, *(["--checkpoint", str(ckpt)] if kept else [])])
    assert res.exit_code == 130, res.output
    assert "Traceback" not in res.output and "stopped" in res.stderr
    if kept:
        assert f"stopped; finish the run with: simlab run --resume {ckpt}" in res.stderr
        done = runner.invoke(app, ["run", "--resume", str(ckpt), "--json"])
        assert done.exit_code == 0, done.output
    else:
        assert "Give --checkpoint DIR to be able to resume" in res.stderr
