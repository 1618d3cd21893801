"""Checkpoints: a directory of a run's finished chunks, so an interrupted run can be resumed."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np

from simlab.data.durable import clean, write_bytes
from simlab.errors import InputError, WriteError
from simlab.runs.gameplan import GamePlan

CHUNK_ARRAYS = ("winner_seat", "end", "rounds", "turns")  # a chunk file's per-game arrays, in checksum order


def settings_hash(settings: dict) -> str:
    """A short hash of a run's settings (:meth:`GamePlan.settings`), stamped on each of its chunk files."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:32]


def chunk_checksum(identity: dict, arrays: dict) -> str:
    """sha256 of a chunk's identity and of each array's name, dtype, shape and bytes."""
    h = hashlib.sha256(json.dumps(identity, sort_keys=True).encode())
    for name in CHUNK_ARRAYS:
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


class Checkpoint:
    """A directory of finished chunks: ``settings.json`` and one ``chunk-<first game>.npz`` per chunk.

    A chunk file carries its identity (seed, first and last game index, the hash of the run's settings) and a
    sha256 checksum of that identity and its arrays; :meth:`load` checks all of them against the file's name
    and the run resuming, so a chunk copied over another's name, from another run or cut short is named in one
    line, never merged. A chunk is written to a hidden temporary file, flushed to disk and renamed into place
    (then the directory is flushed; :mod:`simlab.data.durable`), so an interrupted or failed write (a full disk)
    leaves no file under a chunk's name; the temporary file is never read and is removed when the checkpoint is
    next opened."""

    def __init__(self, path: Path, settings: dict):
        self.path = path
        self.settings = settings
        self.hash = settings_hash(settings)

    @classmethod
    def open(cls, path, settings: dict) -> Checkpoint:
        path = Path(path)
        meta = path / "settings.json"
        try:
            path.mkdir(parents=True, exist_ok=True)
            if meta.exists():
                old = checkpoint_settings(path)
                diffs = [
                    f"{k}: {json.dumps(old.get(k))} there, {json.dumps(settings.get(k))} here"
                    for k in settings
                    if old.get(k) != settings.get(k)
                ]
                if diffs:
                    raise InputError(f"checkpoint {str(path)!r} was made with other settings: " + "; ".join(diffs))
            else:
                _write_durably(meta, json.dumps(settings, indent=2).encode())
            for stale in path.glob(".chunk-*.tmp.npz"):  # an older simlab's interrupted write
                stale.unlink()
            clean(path)  # an interrupted write's leftover temporary files
        except WriteError:
            raise
        except OSError as exc:
            raise InputError(f"cannot use --checkpoint {str(path)!r}: {exc.strerror or exc}") from None
        return cls(path, settings)

    def identity(self, first: int, n: int) -> dict:
        return {"seed": int(self.settings["seed"]), "first": int(first), "last": int(first + n - 1), "run": self.hash}

    def save(self, job, res: dict) -> None:
        arrays = {k: res[k] for k in CHUNK_ARRAYS}
        ident = self.identity(job.first, job.n)
        buf = io.BytesIO()
        np.savez(buf, identity=np.array(json.dumps(ident)), checksum=np.array(chunk_checksum(ident, arrays)), **arrays)
        _write_durably(self.path / f"chunk-{job.first:012d}.npz", buf.getvalue())

    def load(self, plan: GamePlan) -> dict:
        """First game index -> (job, result) of each chunk recorded here (``plan``: the run's)."""
        out = {}
        for f in sorted(self.path.glob("chunk-*.npz")):
            first, res = self._read(f, plan)
            out[first] = (plan.job(first, len(res["winner_seat"])), res)
        return out

    def _read(self, f: Path, plan: GamePlan) -> tuple[int, dict]:
        def refuse(why: str):
            return InputError(f"checkpoint file {str(f)!r} {why}: delete it and resume to replay it")

        try:
            with np.load(f) as z:
                res = {k: z[k] for k in CHUNK_ARRAYS}
                ident, checksum = json.loads(str(z["identity"])), str(z["checksum"])
        except KeyError as exc:
            raise refuse(f"is not a chunk file of this simlab (no {exc})") from None
        except Exception as exc:  # any unreadable file (empty, cut short, not a zip) is a damaged one
            raise refuse(f"is damaged ({type(exc).__name__}: {exc})") from None
        if not isinstance(ident, dict) or chunk_checksum(ident, res) != checksum:
            raise refuse("is damaged (its contents do not match its checksum)")
        name = f.stem.split("-", 1)[1]
        first = int(name) if name.isdigit() else -1
        n = min(plan.chunk, plan.n_games - first) if 0 <= first < plan.n_games else 0
        if ident.get("run") != self.hash:
            raise refuse("belongs to another run (its settings hash differs from settings.json's)")
        if ident.get("seed") != int(plan.seed):
            raise refuse(f"holds games of seed {ident.get('seed')}, not of this run's seed {plan.seed}")
        if first % plan.chunk != 0 or n < 1 or (ident.get("first"), ident.get("last")) != (first, first + n - 1):
            raise refuse(
                f"holds games {ident.get('first')}-{ident.get('last')}, but its name is that of games "
                f"{first}-{first + n - 1}"
            )
        if any(len(v) != n for v in res.values()) or res["turns"].shape[1:] != (len(plan.villains),):
            raise refuse("is damaged (its arrays do not hold the games it names)")
        return first, res


def _write_durably(path: Path, data: bytes) -> None:
    """Write ``data`` over ``path`` through :func:`simlab.data.durable.write_bytes`: all of it or nothing."""
    write_bytes(path, data, "the checkpoint file")


def checkpoint_settings(path) -> dict:
    """The settings a checkpoint directory was made with (:meth:`GamePlan.settings`)."""
    meta = Path(path) / "settings.json"
    if not meta.exists():
        raise InputError(f"{str(path)!r} is not a checkpoint directory (no settings.json)")
    try:
        settings = json.loads(meta.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the checkpoint settings {str(meta)!r}: {exc}") from None
    if not isinstance(settings, dict) or not {"matchup", "n_games", "seed", "chunk"} <= settings.keys():
        raise InputError(f"{str(meta)!r} is not a simlab checkpoint's settings")
    return settings
