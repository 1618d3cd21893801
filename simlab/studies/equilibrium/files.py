"""An equilibrium's files: the mixture file it ships as (written, read back, its search probe recorded) and the
report folder of its tables (written, its values read back)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simlab.data import durable
from simlab.errors import InputError
from simlab.game.api import parse_matchup
from simlab.studies.equilibrium.result import EquilibriumResult
from strategies.mixture import MixedSpec

# ============================================================================ the mixture file


def _without_none(value):
    """``value`` with every None left out of its tables (TOML has no null)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_none(v) for v in value if v is not None]
    return value


def write_mixture_file(
    result: EquilibriumResult, path: str | Path, command: str = "", probe: pl.DataFrame | None = None
) -> Path:
    """Write both sides' mixtures (their support) as a mixture file (:mod:`strategies.mixture`), with the value,
    the exploitability, the search probe's gains (when ``probe``, from :func:`search_probe`) and how it was made as
    ``[provenance]``."""
    import tomli_w

    from strategies import STRATEGIES

    expert = STRATEGIES["expert"].params
    strategies = []
    for v in result.villains:
        for spec, w in zip(result.populations[v], result.weights[v], strict=True):
            if w <= 0:
                continue
            params = {k: float(x) for k, x in spec.params.items() if x != expert.get(k)}
            strategies.append(
                {"villain": v, "weight": round(float(w), 6), "name": spec.name, "description": spec.description}
                | {"base": "expert", "params": params}
            )
    last = result.iterations.row(-1, named=True)
    provenance = result.provenance | {
        "value": round(result.value, 5),
        "value_low": round(result.value_low, 5),
        "value_high": round(result.value_high, 5),
        "value_games": result.value_games,
        "exploitability": round(result.exploitability, 5),
        "gain": {result.villains[0]: round(last["gain_a"], 5), result.villains[1]: round(last["gain_b"], 5)},
        "population": {v: [s.name for s in result.populations[v]] for v in result.villains},
        "command": command,
    }
    if probe is not None:
        provenance["search_probe"] = probe_provenance(probe, command)
    doc = {"matchup": result.matchup, "strategy": strategies, "provenance": _without_none(provenance)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = (
        f"# {result.matchup} at strong play: written by simlab equilibrium; regenerate with\n"
        f"# `{command or 'simlab equilibrium --matchup ' + result.matchup}`.\n"
        "# [provenance] records how it was made; the mixture loader ignores it.\n"
    )
    durable.write_text(path, head + tomli_w.dumps(doc), "the mixture file")
    return path


@dataclass(frozen=True)
class ShippedEquilibrium:
    """A mixture file written by :func:`write_mixture_file`: its matchup, both mixtures and its provenance (what
    :func:`search_probe` needs, without the run that made it)."""

    path: Path
    matchup: str
    villains: tuple[str, str]
    mixtures: dict[str, MixedSpec]
    provenance: dict

    def mixture(self, villain: str) -> MixedSpec:
        return self.mixtures[villain]


def read_equilibrium_file(path: str | Path) -> ShippedEquilibrium:
    """The equilibrium a mixture file holds (refused unless it names its matchup and both its villains' mixtures)."""
    from strategies.mixture import load_mixture, read_mixture_file

    path = Path(path)
    doc = read_mixture_file(path)
    try:
        a, b = parse_matchup(str(doc.get("matchup", "")))
    except (InputError, ValueError):
        raise InputError(f'{path}: needs matchup = "A-vs-B" (two different villains)') from None
    mixtures = {v: load_mixture(f"{path}#{v}") for v in (a, b)}
    return ShippedEquilibrium(path, f"{a}-vs-{b}", (a, b), mixtures, dict(doc.get("provenance", {})))


def probe_provenance(probe: pl.DataFrame, command: str = "") -> dict:
    """A probe as a mixture file's ``[provenance.search_probe]``: each villain's gain [95%] and verdict under
    ``villains``, and the search strategy, commit, rules and command it was measured with."""
    from simlab.runs.backend import fingerprint, source_commit

    rows = list(probe.iter_rows(named=True))
    return {
        "search": rows[0]["search"] if rows else "",
        "commit": source_commit() or "",
        "rules_hash": fingerprint()["rules_hash"],
        "command": command,
        "villains": {
            r["villain"]: {k: r[k] for k in ("games", "mixture_score", "search_score", "gain", "gain_low", "gain_high")}
            | {"verdict": r["verdict"]}
            for r in rows
        },
    }


# the shipped mixture files: beside the package (where the strong level reads them), whatever the working directory
SHIPPED_DIR = Path(__file__).resolve().parents[3] / "configs" / "equilibrium"


def shipped_files(folder: str | Path, matchups=()) -> list[Path]:
    """The mixture files in ``folder`` (``<matchup>.toml``), only ``matchups`` when given (each must be there)."""
    folder = Path(folder)
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if matchups:
        files = [f for f in files if f.stem in set(matchups)]
        missing = set(matchups) - {f.stem for f in files}
        if missing:
            raise InputError(f"no mixture file for {', '.join(sorted(missing))} in {str(folder)!r}")
    if not files:
        raise InputError(f"no mixture files in {str(folder)!r} (simlab equilibrium writes them)")
    return files


def record_probe(path: str | Path, probe: pl.DataFrame, command: str = "") -> Path:
    """Rewrite a mixture file with ``probe`` (a :func:`search_probe` frame) as its provenance's ``search_probe``,
    naming the search strategy, the commit and the rules it was measured with; the mixtures are left as they are."""
    import tomli_w

    from strategies.mixture import read_mixture_file

    path = Path(path)
    doc = read_mixture_file(path)
    head = "".join(line + "\n" for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    prov = dict(doc.get("provenance", {}))
    prov["search_probe"] = probe_provenance(probe, command)
    doc["provenance"] = _without_none(prov)
    durable.write_text(path, head + tomli_w.dumps(doc), "the mixture file")
    return path


# ============================================================================ the report folder


@dataclass(frozen=True)
class StoredValue:
    """An equilibrium's value as its report folder keeps it (``value.csv`` and ``provenance.json``): enough to
    compare runs without their checkpoints."""

    matchup: str
    villains: tuple[str, str]
    value: float
    value_low: float
    value_high: float
    provenance: dict


def read_values(report_dir: str | Path) -> dict[str, StoredValue]:
    """Every matchup's value under ``report_dir`` (the ``--report-dir`` of ``simlab equilibrium``), by matchup."""
    root = Path(report_dir)
    if not root.is_dir():
        raise InputError(f"no equilibrium report folder {str(root)!r} (the --report-dir of simlab equilibrium)")
    out = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        value, prov = sub / "value.csv", sub / "provenance.json"
        if not (value.exists() and prov.exists()):
            continue
        try:
            row = pl.read_csv(value).row(0, named=True)
            provenance = json.loads(prov.read_text())
            a, b = parse_matchup(row["matchup"])
        except (OSError, ValueError, KeyError, pl.exceptions.PolarsError) as exc:
            raise InputError(f"cannot read the equilibrium in {str(sub)!r}: {exc}") from None
        out[row["matchup"]] = StoredValue(
            row["matchup"], (a, b), float(row["value"]), float(row["value_low"]), float(row["value_high"]), provenance
        )
    if not out:
        raise InputError(f"{str(root)!r} holds no equilibrium (no MATCHUP/value.csv with its provenance.json)")
    return out


def write_outputs(
    result: EquilibriumResult, probe: pl.DataFrame | None, out_dir, report_dir, command: str = ""
) -> dict[str, Path]:
    """The mixture file (``out_dir/<matchup>.toml``: the strong level) and, under ``report_dir``, every table as
    parquet and CSV and ``provenance.json``. Returns what was written, by name."""
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    files = {"mixture_file": write_mixture_file(result, Path(out_dir) / f"{result.matchup}.toml", command, probe)}
    frames = result.frames() | ({"search_probe": probe} if probe is not None else {})
    for name, frame in frames.items():
        durable.write_with(report_dir / f"{name}.parquet", frame.write_parquet, "the equilibrium table")
        durable.write_with(report_dir / f"{name}.csv", frame.write_csv, "the equilibrium table")
        files[name] = report_dir / f"{name}.csv"
    provenance = result.provenance | {"command": command}
    text = json.dumps(provenance, indent=2, sort_keys=True) + "\n"
    durable.write_text(report_dir / "provenance.json", text, "the equilibrium provenance")
    files["provenance"] = report_dir / "provenance.json"
    return files
