"""The checkpoint of an equilibrium run: a strategy's and a mixture's key (a hash of what they play) and
:class:`StepStore`, every finished step kept on disk so an interrupted run resumes where it stopped."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from simlab.data.durable import clean, write_bytes
from simlab.errors import InputError, WriteError
from strategies import StrategySpec
from strategies.mixture import MixedSpec


def spec_key(spec: StrategySpec) -> str:
    """A short hash of what a strategy plays (its kernel and parameters, not its name)."""
    blob = json.dumps([int(spec.kernel), sorted((k, float(v)) for k, v in spec.params.items())])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def mixture_key(mix: MixedSpec) -> str:
    return hashlib.sha256(json.dumps([[spec_key(s), round(w, 12)] for s, w in mix.components]).encode()).hexdigest()[
        :16
    ]


class StepStore:
    """The finished steps of an equilibrium run: ``settings.json`` and one JSON file per step, each written whole
    (a temporary file renamed into place) as soon as its step finishes. A step's key holds everything its result
    depends on beyond the settings (the strategies, the mixtures, its games), so a run with more iterations or other
    games per step reuses what still applies. The settings (matchup, seed, rules, the install's rules hash) must
    match. Without a directory, steps live in memory only."""

    def __init__(self, path: str | Path | None, settings: dict):
        self._write = lambda path, data: write_bytes(path, data, "the equilibrium step file")
        self.path = Path(path) if path is not None else None
        self.memory: dict[str, dict] = {}
        if self.path is None:
            return
        meta = self.path / "settings.json"
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if meta.exists():
                try:
                    old = json.loads(meta.read_text())
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise InputError(f"cannot read the checkpoint settings {str(meta)!r}: {exc}") from None
                diffs = [
                    f"{k}: {old.get(k)!r} there, {settings.get(k)!r} here"
                    for k in settings
                    if old.get(k) != settings.get(k)
                ]
                if diffs:
                    raise InputError(
                        f"checkpoint {str(self.path)!r} was made with other settings: " + "; ".join(diffs) + " (give "
                        "another --checkpoint, or delete that directory to start again)"
                    )
            else:
                self._write(meta, json.dumps(settings, indent=2, sort_keys=True).encode())
            for stale in self.path.glob(".step-*.tmp.json"):  # an older simlab's interrupted write
                stale.unlink()
            clean(self.path)
        except WriteError:
            raise
        except OSError as exc:
            raise InputError(f"cannot use --checkpoint {str(self.path)!r}: {exc.strerror or exc}") from None

    def _file(self, key: str) -> Path:
        return self.path / f"step-{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"

    def get(self, key: str) -> dict | None:
        if key in self.memory:
            return self.memory[key]
        if self.path is None or not self._file(key).exists():
            return None
        try:
            doc = json.loads(self._file(key).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"checkpoint step {str(self._file(key))!r} cannot be read ({exc}); delete it") from None
        if doc.get("key") != key:
            raise InputError(f"checkpoint step {str(self._file(key))!r} belongs to another step; delete it")
        self.memory[key] = doc["data"]
        return doc["data"]

    def put(self, key: str, data: dict) -> dict:
        self.memory[key] = data
        if self.path is not None:
            self._write(self._file(key), json.dumps({"key": key, "data": data}).encode())
        return data

    @property
    def steps(self) -> int:
        return len(self.memory)
