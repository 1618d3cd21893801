"""Issue 58, lower: SIGTERM and SIGHUP stop a run as Ctrl-C does (the chunk in flight finished, the summary of the
games finished, exit 143 or 129), and the checkpoint resumes to the uninterrupted run."""

from __future__ import annotations

import os
import signal

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.runs.settings import RunSettings
from simlab.runs.sim import resume, run
from simlab.runs.stopping import Interrupted, code_of, signals_interrupt

MATCHUP = "gaston-vs-horned-king"


def same_summaries(a, b) -> bool:
    return all(getattr(a, f).equals(getattr(b, f)) for f in ("summary", "by_seat", "first_seat", "lengths"))


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_stop_signal_keeps_the_chunks_and_resumes_to_the_uninterrupted_run(tmp_path, signum, code):
    whole = run(MATCHUP, RunSettings(600, seed=13), chunk=100)
    ck = tmp_path / "ck"

    def stop_after_two(done, total):
        if done == 200:
            os.kill(os.getpid(), signum)

    part = run(MATCHUP, RunSettings(600, seed=13, progress=stop_after_two), chunk=100, checkpoint=ck)
    assert part.interrupted and part.stop_code == code and part.n_games == 200
    assert len(list(ck.glob("chunk-*.npz"))) == 2
    assert signal.getsignal(signum) is not None  # the handler put back
    finished = resume(ck)
    assert finished.resumed_games == 200 and same_summaries(finished, whole)


def test_the_command_prints_the_summary_a_resume_hint_and_exits_143(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from simlab.runs import sim

    real = sim._add_chunk

    def term_after_first(sink, job, res, checkpoint):
        real(sink, job, res, checkpoint)
        if job.first == 0:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(sim, "_add_chunk", term_after_first)
    got = CliRunner().invoke(app, ["run", "-m", MATCHUP, "-n", "9000", "--threads", "1", "--checkpoint", "ck"])
    assert got.exit_code == 143, got.output
    assert "4,096" in got.output  # the summary of the chunk finished
    assert got.output.strip().splitlines()[-1] == "stopped; finish the run with: simlab run --resume ck"


def test_outside_a_run_sigterm_raises_an_interrupt_that_keeps_its_exit_code():
    with signals_interrupt(), pytest.raises(KeyboardInterrupt) as err:
        os.kill(os.getpid(), signal.SIGTERM)
        signal.sigtimedwait([], 0.001) if hasattr(signal, "sigtimedwait") else None
    assert isinstance(err.value, Interrupted) and code_of(err.value) == 143
    assert code_of(KeyboardInterrupt()) == 130
