"""The Dask backend against a real cluster (a scheduler and two workers started here as processes on
127.0.0.1), checkpoints and resume, and the errors of each."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.errors import BackendError, InputError
from simlab.runs.backend import DaskBackend, use
from simlab.runs.settings import RunSettings
from simlab.runs.sim import resume, run, simulate
from simlab.studies.whatif import winner_indices

ROOT = Path(__file__).resolve().parents[1]
MATCHUP = "gaston-vs-horned-king"
runner = CliRunner()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dask_cmd(*args) -> list[str]:
    return [sys.executable, "-m", "dask", *args]


def start_scheduler(tmp_path, name="sched") -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        dask_cmd("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return proc, f"tcp://127.0.0.1:{port}"


def start_worker(address, tmp_path, name, env=None) -> subprocess.Popen:
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115
    return subprocess.Popen(
        dask_cmd("worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", name)
        + ["--death-timeout", "60"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,  # `python -m` puts the working directory first on sys.path
    )


def wait_for_workers(address, n, timeout=120):
    from distributed import Client

    with Client(address, timeout=30) as c:
        c.wait_for_workers(n, timeout=timeout)


def stop(*procs):
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=5)  # a worker that has not stopped by then is killed: waiting longer tests nothing
        except subprocess.TimeoutExpired:
            p.kill()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dask")
    simulate(MATCHUP, RunSettings(4, seed=0))  # compiled kernels in the cache before the workers load them
    sched, address = start_scheduler(tmp)
    workers = [start_worker(address, tmp, f"w{i}") for i in (1, 2)]
    try:
        wait_for_workers(address, 2)
        yield address, workers
    finally:
        stop(*workers, sched)


def same_summaries(a, b):
    for frame in ("summary", "by_seat", "first_seat", "lengths"):
        assert getattr(a, frame).equals(getattr(b, frame)), frame


@pytest.mark.slow
def test_distributed_results_equal_local(cluster):
    address, _ = cluster
    local = run(MATCHUP, RunSettings(300, seed=5), chunk=50, keep_games=True)
    local_w = winner_indices(MATCHUP, 200, 6, edits=["Get Out!:cost=4"])
    with use(DaskBackend(address)) as backend:
        remote = run(MATCHUP, RunSettings(300, seed=5), chunk=50, keep_games=True)
        plain = run(MATCHUP, RunSettings(300, seed=5), chunk=50, keep_games=False)  # counts only travel back
        remote_w = winner_indices(MATCHUP, 200, 6, edits=["Get Out!:cost=4"])
        backend.close()
    same_summaries(local, remote)
    same_summaries(local, plain)
    assert local.games.equals(remote.games)
    assert (local_w == remote_w).all()


@pytest.mark.slow
def test_search_games_on_the_cluster_equal_local(cluster, tmp_path):
    address, _ = cluster
    small = tmp_path / "search-small.toml"
    small.write_text('base = "search"\n[params]\nsamples = 3\nhorizon = 0\nscreen = 1\nkinds = 2447\n')
    strategies = {"gaston": str(small)}
    local = run(MATCHUP, RunSettings(8, seed=2, max_turns=10), strategies=strategies, chunk=4, keep_games=True)
    with use(DaskBackend(address)) as backend:
        remote = run(MATCHUP, RunSettings(8, seed=2, max_turns=10), strategies=strategies, chunk=4, keep_games=True)
        backend.close()
    assert local.games.equals(remote.games)


@pytest.mark.slow
def test_cli_on_the_cluster_matches_local(cluster):
    address, _ = cluster
    args = ["run", "-m", MATCHUP, "-n", "200", "--seed", "3", "--json"]
    local = json.loads(runner.invoke(app, args).output)
    res = runner.invoke(app, [*args, "--backend", "dask", "--scheduler", address])
    assert res.exit_code == 0, res.output
    remote = json.loads(res.output)
    for key in ("summary", "by_seat", "first_seat", "lengths", "games", "seed"):
        assert local[key] == remote[key], key


@pytest.mark.slow
def test_tuning_on_the_cluster_equals_tuning_here(cluster):
    from simlab.studies.tune import tune

    address, _ = cluster
    kw = {"budget": 60 * 9, "seed": 4, "candidate_games": 60, "validation_games": 60, "popsize": 4}
    kw["params"] = ["obstacle_value", "swoon_min_obstacles"]
    local = tune("gaston", **kw)
    with use(DaskBackend(address)) as backend:
        remote = tune("gaston", **kw)
        backend.close()
    assert remote.best.params == local.best.params
    assert remote.history.equals(local.history) and remote.validation.equals(local.validation)


TINY_EQ = {
    "table_games": 60,
    "iterations": 2,
    "budget": 480,
    "candidate_games": 60,
    "validation_games": 60,
    "value_games": 80,
    "popsize": 4,
    "br_from": (),
    "library_games": 60,  # the shipped equilibria's strategies tried too, on every backend
}


def tiny_equilibrium(threads=None):
    from simlab.runs.settings import RunSettings
    from simlab.studies.equilibrium import EquilibriumSettings, equilibrium

    settings = RunSettings(seed=3, threads=threads)
    return equilibrium(MATCHUP, seed_levels=("novice",), options=EquilibriumSettings(**TINY_EQ), settings=settings)


def same_equilibrium(a, b):
    assert (a.value, a.value_low, a.value_high) == (b.value, b.value_low, b.value_high)
    for frame in ("mixtures", "iterations", "table"):
        assert getattr(a, frame).equals(getattr(b, frame)), frame
    assert [s.params for s in a.populations[a.villains[0]]] == [s.params for s in b.populations[b.villains[0]]]


@pytest.mark.slow
def test_an_equilibrium_on_the_cluster_equals_one_here_on_one_or_two_threads(cluster):
    address, _ = cluster
    one, two = tiny_equilibrium(threads=1), tiny_equilibrium(threads=2)
    with use(DaskBackend(address)) as backend:
        remote = tiny_equilibrium()
        backend.close()
    assert one.iterations.height >= 1 and one.games > 0
    same_equilibrium(one, two)
    same_equilibrium(one, remote)


def _lost_chunks(client) -> int:
    """Chunk tasks the scheduler has seen lost with a dying worker (its suspicious count for play_chunk)."""

    def count(dask_scheduler):
        prefix = dask_scheduler.task_prefixes.get("play_chunk")
        return prefix.suspicious if prefix is not None else 0

    return client.run_on_scheduler(count)


@pytest.mark.slow
def test_a_worker_dying_mid_run_loses_a_chunk_which_is_played_again(cluster):
    """A worker is killed while it is playing a chunk (checked on the scheduler first): the scheduler counts the
    chunk lost, plays it elsewhere, and the run equals the local one."""
    address, workers = cluster
    local = run(MATCHUP, RunSettings(1200, seed=8), chunk=100)
    killed = []

    with use(DaskBackend(address, max_pending=8)) as backend:
        client = backend.client
        names = client.run_on_scheduler(lambda dask_scheduler: {w.name: a for a, w in dask_scheduler.workers.items()})
        doomed = names["w2"]
        lost_before = _lost_chunks(client)

        def kill_while_it_plays(done, total):
            if done >= 100 and not killed:
                deadline = time.time() + 30
                while not client.processing(workers=[doomed]).get(doomed) and time.time() < deadline:
                    time.sleep(0.005)
                workers[1].kill()
                killed.append(done)

        remote = run(MATCHUP, RunSettings(1200, seed=8, progress=kill_while_it_plays), chunk=100)
        lost = _lost_chunks(client) - lost_before
        backend.close()
    assert killed and workers[1].wait(timeout=30) is not None
    assert lost >= 1, "no chunk was lost with the worker: the test did not test a death mid-chunk"
    assert remote.n_games == 1200
    same_summaries(local, remote)


@pytest.mark.slow  # waits out the backend's connect timeout (8 s)
def test_unreachable_scheduler_is_one_line():
    res = runner.invoke(
        app, ["run", "-m", MATCHUP, "-n", "10", "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{free_port()}"]
    )
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_unknown_backend_is_one_line():
    res = runner.invoke(app, ["run", "-m", MATCHUP, "-n", "10", "--backend", "spark"])
    assert res.exit_code == 2 and "unknown backend 'spark'; choose from local, dask" in res.output
    assert len(res.output.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("differs", ["rules", "version"])
def test_a_worker_with_other_rule_data_or_version_is_refused(tmp_path, differs):
    # a copy of simlab on the worker's path, either with Gaston's data differing by one comment line, or
    # with the same code but the package metadata of another simlab version in front of the installed one
    copy = tmp_path / "other"
    shutil.copytree(ROOT / "simlab", copy / "simlab", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "strategies", copy / "strategies", ignore=shutil.ignore_patterns("__pycache__"))
    if differs == "rules":
        data = copy / "simlab" / "villains" / "gaston" / "cards.toml"
        data.write_text(data.read_text() + "\n# edited\n")
        expected = r"runs simlab .* with rules .*, this process"
    else:
        meta = copy / "simlab-99.0.dist-info"
        meta.mkdir()
        (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: simlab\nVersion: 99.0\n")
        expected = r"runs simlab 99\.0 with rules .*, this process simlab (?!99\.0)"
    env = dict(os.environ, PYTHONPATH=str(copy))
    sched, address = start_scheduler(tmp_path)
    worker = start_worker(address, tmp_path, "other", env=env)
    try:
        wait_for_workers(address, 1)
        with pytest.raises(BackendError, match=expected):
            DaskBackend(address)
        res = runner.invoke(app, ["run", "-m", MATCHUP, "-n", "10", "--backend", "dask", "--scheduler", address])
        assert res.exit_code == 2 and "start the workers from the same install" in res.output
        assert len(res.output.strip().splitlines()) == 1
    finally:
        stop(worker, sched)


# ------------------------------------------------------------------------------------ checkpoints


def test_interrupted_checkpointed_run_resumes_to_the_same_result(tmp_path):
    whole = run(MATCHUP, RunSettings(400, seed=11), chunk=50)
    ckpt = tmp_path / "ckpt"

    def interrupt_after_three(done, total):
        if done == 150:
            os.kill(os.getpid(), signal.SIGINT)

    part = run(MATCHUP, RunSettings(400, seed=11, progress=interrupt_after_three), chunk=50, checkpoint=ckpt)
    assert part.interrupted and part.n_games == 150
    assert len(list(ckpt.glob("chunk-*.npz"))) == 3 and not list(ckpt.glob("*.tmp*"))
    calls = []
    finished = resume(ckpt, progress=lambda done, total: calls.append((done, total)))
    assert finished.n_games == 400 and not finished.interrupted
    # progress starts from the games read back (so the ETA counts only games played now), then one call a chunk
    assert calls == [(150, 400), (200, 400), (250, 400), (300, 400), (350, 400), (400, 400)]
    same_summaries(whole, finished)
    # the CLI resumes from the directory alone, and a finished checkpoint replays nothing
    t = time.perf_counter()
    res = runner.invoke(app, ["run", "--resume", str(ckpt), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["summary"] == whole.summary.to_dicts()
    assert time.perf_counter() - t < 30
    # a damaged chunk file is named, and replayed once deleted
    damaged = ckpt / "chunk-000000000100.npz"
    damaged.write_bytes(damaged.read_bytes()[:200])
    res = runner.invoke(app, ["run", "--resume", str(ckpt)])
    assert res.exit_code == 2 and "chunk-000000000100.npz' is damaged" in res.output, res.output
    damaged.unlink()
    same_summaries(whole, resume(ckpt))


def test_progress_bar_counts_chunks_done_of_all():
    from simlab.cli.common import progress_bar

    bar, update = progress_bar(4096)
    update(0, 10_000)
    assert bar.tasks[0].fields["chunks"] == "0/3 chunks"
    update(8192, 10_000)
    assert bar.tasks[0].fields["chunks"] == "2/3 chunks" and bar.tasks[0].completed == 8192
    update(4096 + 1808, 10_000)  # resumed out of order: the short last chunk and one full one
    assert bar.tasks[0].fields["chunks"] == "2/3 chunks"
    update(10_000, 10_000)
    assert bar.tasks[0].fields["chunks"] == "3/3 chunks" and bar.tasks[0].finished


def test_a_checkpoint_from_other_settings_is_refused(tmp_path):
    ckpt = tmp_path / "ckpt"
    run(MATCHUP, RunSettings(100, seed=1), chunk=50, checkpoint=ckpt)
    with pytest.raises(InputError, match="seed: 1 there, 2 here"):
        run(MATCHUP, RunSettings(100, seed=2), chunk=50, checkpoint=ckpt)
    res = runner.invoke(
        app, ["run", "-m", MATCHUP, "-n", "100", "--seed", "1", "--checkpoint", str(ckpt), "--edit", "Temper:cost=3"]
    )
    assert res.exit_code == 2 and "was made with other settings" in res.output and "edits" in res.output
    res = runner.invoke(app, ["run", "--resume", str(tmp_path / "nothing")])
    assert res.exit_code == 2 and "not a checkpoint directory" in res.output
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "settings.json").write_text('{"matchup": "gaston-vs-horned-')  # cut short by a full disk
    for args in (["--resume", str(broken)], ["-m", MATCHUP, "-n", "100", "--checkpoint", str(broken)]):
        res = runner.invoke(app, ["run", *args])
        assert res.exit_code == 2 and "cannot read the checkpoint settings" in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1
    (broken / "settings.json").write_text("[1, 2]")
    res = runner.invoke(app, ["run", "--resume", str(broken)])
    assert res.exit_code == 2 and "is not a simlab checkpoint's settings" in res.output


def _rewrite_chunk(path, **changes):
    """Rewrite a chunk file with some arrays or its identity changed, keeping its old checksum."""
    import numpy as np

    with np.load(path) as z:
        parts = {k: z[k] for k in z.files}
    ident = json.loads(str(parts["identity"]))
    ident.update(changes.pop("identity", {}))
    parts["identity"] = np.array(json.dumps(ident))
    parts.update(changes)
    with open(path, "wb") as fh:
        np.savez(fh, **parts)


def test_chunk_files_carry_their_identity_and_a_checksum_checked_on_resume(tmp_path):
    import numpy as np

    from simlab.runs.sim import chunk_checksum

    whole = run(MATCHUP, RunSettings(40, seed=3, max_turns=8), chunk=10)
    ckpt = tmp_path / "ckpt"
    run(MATCHUP, RunSettings(40, seed=3, max_turns=8), chunk=10, checkpoint=ckpt)
    files = sorted(ckpt.glob("chunk-*.npz"))
    assert [f.name for f in files] == [f"chunk-{i:012d}.npz" for i in (0, 10, 20, 30)]
    with np.load(files[1]) as z:
        ident = json.loads(str(z["identity"]))
        assert ident["seed"] == 3 and (ident["first"], ident["last"]) == (10, 19) and len(ident["run"]) == 32
        assert str(z["checksum"]) == chunk_checksum(ident, {k: z[k] for k in ("winner_seat", "end", "rounds", "turns")})
    pristine = {f: f.read_bytes() for f in files}

    def refused(needle):
        res = runner.invoke(app, ["run", "--resume", str(ckpt)])
        assert res.exit_code == 2, res.output
        line = res.output.strip()
        assert len(line.splitlines()) == 1 and needle in line and "Traceback" not in line, line
        return line

    # a zero-length file (copied from a full disk) is named, not "Aborted."
    files[1].write_bytes(b"")
    assert "chunk-000000000010.npz' is damaged" in refused("delete it and resume to replay it")
    # chunk 0 copied over chunk 10's file: it says which games it holds
    files[1].write_bytes(pristine[files[0]])
    refused("chunk-000000000010.npz' holds games 0-9, but its name is that of games 10-19")
    # a chunk of the same games from a run with other settings (here the seed)
    other = tmp_path / "other"
    run(MATCHUP, RunSettings(40, seed=4, max_turns=8), chunk=10, checkpoint=other)
    files[1].write_bytes((other / files[1].name).read_bytes())
    refused("chunk-000000000010.npz' belongs to another run")
    # its identity edited to claim the right run: the checksum no longer matches
    files[1].write_bytes((other / files[1].name).read_bytes())
    _rewrite_chunk(files[1], identity={"run": ident["run"], "seed": 3})
    refused("chunk-000000000010.npz' is damaged (its contents do not match its checksum)")
    # a winner changed inside a whole, readable file: the checksum catches it
    files[1].write_bytes(pristine[files[1]])
    with np.load(files[1]) as z:
        flipped = z["winner_seat"].copy()
    flipped[0] = 1 - flipped[0] if flipped[0] >= 0 else 0
    _rewrite_chunk(files[1], winner_seat=flipped)
    refused("is damaged (its contents do not match its checksum)")
    # a file cut short
    files[1].write_bytes(pristine[files[1]][: len(pristine[files[1]]) // 2])
    refused("chunk-000000000010.npz' is damaged")
    # an interrupted write leaves only a hidden temporary file: never read, removed, the chunk replayed
    files[1].unlink()
    (ckpt / ".chunk-000000000010.tmp.npz").write_bytes(pristine[files[0]][:100])
    finished = resume(ckpt)
    assert finished.resumed_games == 30 and not (ckpt / ".chunk-000000000010.tmp.npz").exists()
    same_summaries(whole, finished)
    assert files[1].read_bytes() == pristine[files[1]]  # the replayed chunk is byte-identical
