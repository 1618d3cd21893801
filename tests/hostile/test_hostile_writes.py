"""Issue 58, defects 1, 2 and 4: a full disk during a checkpointed run or under ``--out``, and a link planted where a
temporary file used to be written. Every write goes through :mod:`simlab.data.durable`."""

from __future__ import annotations

import errno
import json
import os

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data import durable
from simlab.errors import WriteError
from simlab.runs.checkpoint import Checkpoint
from simlab.runs.settings import RunSettings
from simlab.runs.sim import resume, run

MATCHUP = "gaston-vs-horned-king"


def same_summaries(a, b) -> bool:
    """Every summary frame equal (NaN where NaN: a frame's equals, not its dicts)."""
    return all(getattr(a, f).equals(getattr(b, f)) for f in ("summary", "by_seat", "first_seat", "lengths"))


def test_a_planted_link_at_the_old_temporary_name_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim"
    victim.write_text("untouched")
    ck = tmp_path / "ck"
    ck.mkdir()
    for name in (".settings.tmp.json", ".chunk-000000000000.tmp.npz", "settings.json.tmp"):
        (ck / name).symlink_to(victim)
    Checkpoint.open(ck, {"matchup": MATCHUP, "n_games": 10, "seed": 1, "chunk": 10})
    assert victim.read_text() == "untouched"
    assert (ck / "settings.json").is_file() and not (ck / "settings.json").is_symlink()
    assert json.loads((ck / "settings.json").read_text())["seed"] == 1


def test_a_link_at_the_target_is_replaced_not_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    target = tmp_path / "out.json"
    target.symlink_to(victim)
    durable.write_text(target, "new", "the file")
    assert victim.read_text() == "untouched" and target.read_text() == "new" and not target.is_symlink()


def test_temporary_names_are_unpredictable_and_exclusive(tmp_path):
    names = {durable.new_temp(tmp_path / "a.json").name for _ in range(20)}
    assert len(names) == 20 and all(n.startswith(durable.TEMP_PREFIX) and n.endswith(".json") for n in names)
    assert all(oct(os.stat(tmp_path / n).st_mode & 0o777) == "0o600" for n in names)


def test_a_full_disk_is_one_line_naming_the_path_and_leaves_the_old_file(full_disk):
    folder, _ = full_disk("64k")
    target = folder / "table.json"
    target.write_text("old")
    with pytest.raises(WriteError) as err:
        durable.write_bytes(target, b"x" * 200_000, "the table")
    msg = str(err.value)
    assert msg.startswith(f"no space left on the device to write the table {str(target)!r}: it needs about 200.0 KB")
    assert "\n" not in msg
    assert target.read_text() == "old" and durable.leftovers(folder) == []


def test_edquot_counts_as_full():
    assert durable.is_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert durable.is_full(OSError("Error writing bytes to file. Detail: [errno 28] No space left on device"))
    assert not durable.is_full(OSError(errno.EACCES, "Permission denied"))


def fill(folder) -> None:
    """Write a ballast file in ``folder`` until its disk is full."""
    try:
        with open(folder / "ballast", "wb") as fh:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
    except OSError:
        pass


def test_a_full_disk_mid_checkpoint_is_one_line_and_resumes_to_the_uninterrupted_run(full_disk, tmp_path):
    folder, kind = full_disk("256k")
    whole = run(MATCHUP, RunSettings(3000, seed=7), chunk=500, keep_games=False)
    ck = folder / "ck"

    def full_after_two(done, total):
        if done == 1000:  # two chunks saved: the disk fills up
            fill(folder)

    with pytest.raises(WriteError) as err:
        run(MATCHUP, RunSettings(3000, seed=7, progress=full_after_two), chunk=500, checkpoint=ck, keep_games=False)
    msg = str(err.value)
    assert msg.startswith(f"no space left on the device to write the checkpoint file '{ck}/chunk-"), (kind, msg)
    assert "\n" not in msg and "keeps the 1,000 games finished before it" in msg
    assert len(list(ck.glob("chunk-*.npz"))) == 2 and durable.leftovers(ck) == []
    (folder / "ballast").unlink()  # room again: the resumed run equals the uninterrupted one
    finished = resume(ck, keep_games=False)
    assert finished.resumed_games == 1000 and same_summaries(finished, whole)


def test_out_too_large_for_the_disk_is_refused_before_any_game(full_disk):
    folder, _ = full_disk("64k")
    out = folder / "games.parquet"
    got = CliRunner().invoke(app, ["run", "-m", MATCHUP, "-n", "20000", "--threads", "1", "--out", str(out)])
    assert got.exit_code == 2 and len(got.output.strip().splitlines()) == 1, got.output
    assert got.output.startswith(f"error: -n 20,000 would write about 480.0 KB to {str(out)!r}, which has")
    assert not out.exists() and durable.leftovers(folder) == []


def test_out_on_a_disk_that_fills_mid_run_leaves_no_parquet_and_says_so(full_disk, monkeypatch):
    folder, kind = full_disk("256k")
    if kind == "patched":  # pyarrow writes past Python's open: make its write fail instead
        from simlab.runs import output

        def full(self, part, flags):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(output._ParquetOut, "_write", full)
    out = folder / "games.parquet"
    from simlab.runs import sim

    real = sim._add_chunk
    chunks = []

    def fill_after_one(sink, job, res, checkpoint):
        chunks.append(job.first)
        if len(chunks) == 2:
            fill(folder)
        real(sink, job, res, checkpoint)

    monkeypatch.setattr(sim, "_add_chunk", fill_after_one)
    args = ["run", "-m", MATCHUP, "-n", "8000", "--seed", "7", "--threads", "1", "--json", "--out", str(out)]
    got = CliRunner().invoke(app, args)
    assert got.exit_code == 2, got.output
    last = got.output.strip().splitlines()[-1]
    assert last.startswith(f"error: no space left on the device to write --out {str(out)!r}: it needs about")
    assert "nothing was written there" in last
    assert not out.exists() and durable.leftovers(folder) == []
    assert json.loads(got.output[: got.output.rindex("error:")])["games"] == 8000  # the summary came first, whole


def test_out_interrupted_is_a_complete_file(tmp_path):
    import signal

    out = tmp_path / "games.parquet"

    def stop(done, total):
        if done == 400:
            os.kill(os.getpid(), signal.SIGTERM)

    res = run(MATCHUP, RunSettings(2000, seed=3, progress=stop), chunk=200, out=out)
    assert res.interrupted and res.stop_code == 143
    assert pq.read_table(out).num_rows == res.n_games == 400  # stopped between chunks: each chunk whole
    assert durable.leftovers(tmp_path) == []
