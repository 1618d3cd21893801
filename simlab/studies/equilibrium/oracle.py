"""The double oracle: each side's seed population and library, the payoff table and its solution, each side's
best response (the tuner against the other side's mixture, and the library's best) validated on fresh games,
until neither gains more than epsilon; :func:`equilibrium` runs it for one matchup."""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings, settings_from
from simlab.studies.difficulty import derived_seed
from simlab.studies.equilibrium.files import read_equilibrium_file
from simlab.studies.equilibrium.play import Interrupted, _mean_interval, _scores
from simlab.studies.equilibrium.result import EquilibriumResult
from simlab.studies.equilibrium.settings import SEED_LEVELS, EquilibriumSettings
from simlab.studies.equilibrium.solver import MatrixGameSolution, solve_matrix_game
from simlab.studies.equilibrium.store import StepStore, mixture_key, spec_key
from strategies import StrategySpec
from strategies.mixture import MixedSpec, mixture


def seed_population(villain: str, levels=SEED_LEVELS, extra=()) -> list[StrategySpec]:
    """A side's first strategies: each of ``levels`` available here (``tuned`` once its file exists), then
    ``extra`` (strategy names or specs), without repeats of what plays the same."""
    from simlab.game.api import strategy_spec
    from simlab.runs.levels import available_levels, level_strategy

    have = available_levels((villain,))
    out, seen = [], set()
    for s in [level_strategy(lv, villain) for lv in levels if lv in have] + list(extra):
        spec = strategy_spec(s)
        if spec.kernel != 1:
            raise InputError(f"--seed-strategy {spec.name!r} is not a heuristic strategy (the tuner starts from one)")
        if spec_key(spec) not in seen:
            seen.add(spec_key(spec))
            out.append(spec)
    if not out:
        raise InputError(f"no seed strategy for {villain}: give a level or --seed-strategy")
    return out


def seeds_from(folders, matchup: str) -> dict[str, list[StrategySpec]]:
    """Each side's strategies in the mixture files ``<folder>/<matchup>.toml`` of earlier runs, named
    ``<run>-<strategy>`` (the run is the folder's name, or its parent's for a ``mixtures`` folder), so a run can
    start from the union of other runs' equilibria: each of them is then one column of the table, and the new
    mixture is an equilibrium against all of them."""
    villains = tuple(parse_matchup(matchup))
    out: dict[str, list[StrategySpec]] = {v: [] for v in villains}
    for folder in folders:
        folder = Path(folder)
        path = folder / f"{'-vs-'.join(villains)}.toml"
        if not path.is_file():
            have = ", ".join(f.stem for f in sorted(folder.glob("*.toml"))) or "none"
            raise InputError(f"--seed-from {str(folder)!r}: no mixture file {path.name} (it has: {have})")
        run = _run_name(folder)
        shipped = read_equilibrium_file(path)
        for v in villains:
            for spec, _ in shipped.mixture(v).components:
                out[v].append(replace(spec, name=f"{run}-{spec.name}"))
    return out


def _run_name(folder: Path) -> str:
    return folder.parent.name if folder.name == "mixtures" else folder.name


def library_strategies(villain: str, folders=None) -> list[StrategySpec]:
    """Every strategy of ``villain`` in the mixture files of ``folders`` (default: the shipped equilibria, each
    matchup it plays in), named ``<run>-<strategy>`` like :func:`seeds_from`, without repeats of what plays the
    same. A best response also tries each of them (:data:`DEFAULT_LIBRARY_GAMES`), so a run stops only at a mixture
    none of them beats by more than epsilon, wherever its populations started."""
    from strategies.mixture import mixture_files

    if folders is None:
        files = mixture_files()
    else:
        files = []
        for folder in map(Path, folders):
            found = sorted(folder.glob("*.toml")) if folder.is_dir() else [folder] if folder.is_file() else []
            if not found:
                raise InputError(
                    f"--library {str(folder)!r}: no mixture files there (a folder of them, or one; simlab equilibrium "
                    "writes them)"
                )
            files += found
    out, seen = [], set()
    for path in files:
        shipped = read_equilibrium_file(path)
        if villain not in shipped.villains:
            continue
        run = _run_name(path.parent)
        for spec, _ in shipped.mixture(villain).components:
            if spec_key(spec) not in seen:
                seen.add(spec_key(spec))
                name = spec.name if spec.name.startswith(f"{run}-") else f"{run}-{spec.name}"
                out.append(replace(spec, name=name))
    return out


def equilibrium(
    matchup: str,
    seed_strategies: dict[str, list] | None = None,
    seed_levels=SEED_LEVELS,
    options: EquilibriumSettings | None = None,
    checkpoint: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    *,
    library: dict[str, list[StrategySpec]] | None = None,
    settings: RunSettings | None = None,
    **given,
) -> EquilibriumResult:
    """The equilibrium of ``matchup`` (two different villains) over populations grown by best responses.

    seed_strategies: villain -> more strategies to start its population with (names, paths or specs), after
        ``seed_levels`` (default novice, expert, tuned: those available here; give ``()`` to start from the extra
        strategies alone).
    options: games per table entry, epsilon, iterations, the tuner's budget and games (:class:`EquilibriumSettings`).
    checkpoint: a directory keeping every finished step (resume by running the same call again).
    progress: called with (what is being played, games done, games planned in this step).
    library: villain -> the strategies each best response also tries (default: :func:`library_strategies`, the
        shipped equilibria; none when ``options.library_games`` is 0).
    settings and ``given`` (:class:`simlab.runs.settings.RunSettings` fields): the seed, rule variants, turn cap,
        threads; games, level and strategies are not used.
    """
    from simlab.runs.sim import _set_threads, _StopFlag

    villains = parse_matchup(matchup)
    if len(villains) != 2 or villains[0] == villains[1]:
        raise InputError(f"an equilibrium is of a 2-player matchup of two different villains, got {matchup!r}")
    a, b = villains
    matchup = f"{a}-vs-{b}"
    opts = options or EquilibriumSettings()
    settings = settings_from(settings, "the equilibrium", **given)
    _set_threads(settings.threads)
    extra = dict(seed_strategies or {})
    for v in extra:
        if v not in villains:
            raise InputError(f"--seed-strategy names {v!r}, which is not in {matchup}; choose from {a}, {b}")
    pops = {v: seed_population(v, seed_levels, extra.get(v, ())) for v in villains}
    if not opts.library_games:
        library = {}
    elif library is None:
        library = {v: library_strategies(v) for v in villains}
    library = {v: list(library.get(v, ())) for v in villains}
    oracle = _DoubleOracle(matchup, (a, b), opts, settings, pops, checkpoint, progress, library)
    with _StopFlag() as flag:
        oracle.stop = lambda: flag.stop
        try:
            rows, solution, converged, stopped_by = oracle.iterate()
            value = oracle.value(solution)
        except Interrupted:
            raise KeyboardInterrupt from None
    seeded = {v: [s.name for s in seed_population(v, seed_levels, extra.get(v, ()))] for v in villains}
    return oracle.result(rows, solution, value, converged, stopped_by, seeded)


class _DoubleOracle:
    """One run of the double oracle: both sides' populations, the step store (every finished step, so a run
    resumes), the games played. :meth:`iterate` grows the populations, :meth:`value` plays the last mixtures
    against each other, :meth:`result` gathers the tables."""

    def __init__(self, matchup, villains, opts, settings: RunSettings, pops, checkpoint, progress, library):
        from simlab.runs.backend import fingerprint

        self.matchup, self.villains, self.opts, self.settings, self.pops = matchup, villains, opts, settings, pops
        self.progress = progress
        self.fp = fingerprint()
        run_settings = {
            "matchup": matchup,
            "seed": settings.seed,
            "variants": settings.variant_dict,
            "max_turns": settings.max_turns,
            "simlab": self.fp,
        }
        self.store = StepStore(checkpoint, run_settings)
        self.table_seed = derived_seed(settings.seed, f"equilibrium:{matchup}:table")
        self.played = 0
        self.t0 = time.perf_counter()
        self.stop = lambda: False  # Ctrl-C was pressed (set while a run plays)
        # each side's --br-from strategies, the further starts of every best response
        self.br_levels = {v: seed_population(v, opts.br_from) if opts.br_from else [] for v in villains}
        self.library = library  # each side's strategies of earlier equilibria, tried by every best response

    def say(self, what, done, total):
        if self.progress is not None:
            self.progress(what, done, total)

    def play(self, what: str, strategies, n: int, seed: int) -> np.ndarray:
        """The first villain's score in each of ``n`` games of ``strategies`` (one per villain, in order), shown as
        ``what`` in the progress and counted in the games played."""
        self.say(what, 0, n)
        s = _scores(self.villains, strategies, n, seed, self.settings, self.stop, lambda d: self.say(what, d, n))
        self.played += s.size
        return s

    def entry(self, i: int, j: int) -> dict:
        """The payoff table's entry of the first side's strategy ``i`` against the second's ``j``."""
        a, b = self.villains
        opts = self.opts
        ra, cb = self.pops[a][i], self.pops[b][j]
        key = f"entry:{opts.table_games}:{spec_key(ra)}:{spec_key(cb)}"
        got = self.store.get(key)
        if got is None:
            s = self.play(f"table: {ra.name} against {cb.name}", (ra, cb), opts.table_games, self.table_seed)
            got = self.store.put(key, {"score": float(s.mean()), "var": float(s.var(ddof=1)), "games": int(s.size)})
        return got

    def table(self) -> np.ndarray:
        a, b = self.villains
        return np.array(
            [[self.entry(i, j)["score"] for j in range(len(self.pops[b]))] for i in range(len(self.pops[a]))]
        )

    def side_mixture(self, v: str, w: np.ndarray) -> MixedSpec:
        return mixture(f"{self.matchup}#{v}", list(zip(self.pops[v], w, strict=True)))

    def br_starts(self, v: str, payoff_v: np.ndarray) -> list[StrategySpec]:
        """Where ``v``'s best response is tuned from: its best pure strategy against the other side's mixture, then
        each ``br_from`` level's strategy (those available here) that plays differently."""
        best = self.pops[v][int(np.argmax(payoff_v))]
        out, seen = [best], {spec_key(best)}
        for spec in self.br_levels[v]:
            if spec_key(spec) not in seen:
                seen.add(spec_key(spec))
                out.append(spec)
        return out

    def best_response(self, it: int, v: str, opp: str, payoff_v: np.ndarray, own: MixedSpec, theirs: MixedSpec):
        """``v``'s best response to ``theirs``: tuned from each of :meth:`br_starts` (the budget split between them),
        each validated against ``own`` on the same fresh games; the one with the largest gain."""
        starts = self.br_starts(v, payoff_v)
        budget = self.opts.budget // len(starts)
        tried = [self._tuned_from(it, v, opp, start, budget, own, theirs) for start in starts]
        from_library = self.library_best(it, v, opp, own, theirs)
        if from_library is not None:
            tried.append(from_library)
        best = max(tried, key=lambda br: br["change"])  # ties: the first start (the side's best pure strategy)
        best["tried"] = ", ".join(f"{br['start']} {br['change']:+.1%}" for br in tried)
        return best

    def library_best(self, it: int, v: str, opp: str, own: MixedSpec, theirs: MixedSpec) -> dict | None:
        """The library strategy of ``v`` (not yet in its population) that scores best against ``theirs`` on the
        same ``library_games`` games, validated against ``own`` like a tuned best response; None if there is none."""
        first = v == self.villains[0]
        n = self.opts.library_games
        have = {spec_key(s) for s in self.pops[v]}
        members = [s for s in self.library[v] if spec_key(s) not in have]
        if not members:
            return None
        seed = derived_seed(self.settings.seed, f"equilibrium:{self.matchup}:{it}:{v}:library")
        scores = []
        for spec in members:
            key = f"library:{it}:{v}:{n}:{spec_key(spec)}:{mixture_key(theirs)}"
            got = self.store.get(key)
            if got is None:
                pair = (spec, theirs) if first else (theirs, spec)
                s = self.play(f"iteration {it}: {v}'s library strategy {spec.name}", pair, n, seed)
                got = self.store.put(key, {"score": float(s.mean() if first else 1.0 - s.mean())})
            scores.append(got["score"])
        best = members[int(np.argmax(scores))]  # ties: the first in library order
        return {"spec": best, "start": f"library {best.name}", **self.validated(it, v, opp, best, own, theirs)}

    def _tuned_from(self, it, v, opp, start: StrategySpec, budget: int, own: MixedSpec, theirs: MixedSpec) -> dict:
        from simlab.studies.tune import tune

        opts, matchup = self.opts, self.matchup
        search = f"{budget}:{opts.candidate_games}:{opts.popsize}:{opts.step}"
        key = f"br:{it}:{v}:{search}:{spec_key(start)}:{mixture_key(theirs)}"
        got = self.store.get(key)
        what = f"iteration {it}: {v}'s best response from {start.name}"
        if got is None:
            self.say(what, 0, budget)
            res = tune(
                v,
                budget,
                start,
                {opp: theirs},
                opts.candidate_games,
                2,  # the tune's own validation (against its start) is not used: see below
                opts.popsize,
                purpose=f"equilibrium:{matchup}:{it}",
                objective="2p:current=1",
                drop_penalty=0.0,
                versus=opp,
                step=opts.step,
                settings=self.settings,
                progress=lambda done, total, best, first: self.say(what, done, total),
            )
            if res.interrupted:
                raise Interrupted
            self.played += int(res.provenance["search_games"])
            got = self.store.put(key, {"params": res.best.params, "kernel": int(res.best.kernel), "start": start.name})
        spec = StrategySpec(
            f"br-{v}-{it}",
            f"{v}'s best response in {matchup}, iteration {it}",
            got["kernel"],
            got["params"],
            "simlab equilibrium",
        )
        return {"spec": spec, "start": got["start"], **self.validated(it, v, opp, spec, own, theirs)}

    def validated(self, it: int, v: str, opp: str, spec: StrategySpec, own: MixedSpec, theirs: MixedSpec) -> dict:
        """``spec`` against ``own`` (``v``'s mixture), both playing ``theirs`` on the same fresh games."""
        from simlab.studies.tune import validate

        opts, settings = self.opts, self.settings
        vkey = f"validate:{it}:{v}:{opts.validation_games}:{spec_key(spec)}:{mixture_key(own)}:{mixture_key(theirs)}"
        val = self.store.get(vkey)
        if val is None:
            self.say(f"iteration {it}: validating {v}'s best response", 0, 2 * opts.validation_games)
            frame = validate(
                v,
                own,
                spec,
                {opp: theirs},
                opts.validation_games,
                derived_seed(settings.seed, f"equilibrium:{self.matchup}:{it}:{v}:validate"),
                settings.variant_dict,
                settings.max_turns,
                objective="2p:current=1",
                versus=opp,
            )
            row = frame.filter(pl.col("part") == "objective").row(0, named=True)
            self.played += 2 * opts.validation_games
            val = self.store.put(
                vkey,
                {k: float(row[k]) for k in ("start_rate", "rate", "change", "change_low", "change_high")}
                | {"games": int(row["games"])},
            )
        return val

    def iterate(self):
        """Solve the table, add each side's best response that beats its mixture, until neither gains more than
        epsilon (converged), none joins, or the iteration cap: (rows, the last solution, converged, stopped by)."""
        a, b = self.villains
        opts, pops = self.opts, self.pops
        rows, stopped_by, converged = [], f"the iteration cap ({opts.iterations})", False
        solution = None
        for it in range(1, opts.iterations + 1):
            payoff = self.table()
            solution = solve_matrix_game(payoff)
            mix_a, mix_b = self.side_mixture(a, solution.rows), self.side_mixture(b, solution.cols)
            br_a = self.best_response(it, a, b, payoff @ solution.cols, mix_a, mix_b)
            br_b = self.best_response(it, b, a, -(solution.rows @ payoff), mix_b, mix_a)
            row = _iteration_row(it, len(pops[a]), len(pops[b]), solution, br_a, br_b)
            done = br_a["change"] <= opts.epsilon and br_b["change"] <= opts.epsilon
            joined = []
            if not done and it < opts.iterations:
                for v, br in ((a, br_a), (b, br_b)):
                    if br["change_low"] > 0 and spec_key(br["spec"]) not in {spec_key(s) for s in pops[v]}:
                        pops[v].append(br["spec"])
                        joined.append(v)
            row["joined"] = ", ".join(joined)
            rows.append(row)
            if done:
                converged, stopped_by = True, f"no best response gains more than epsilon ({opts.epsilon:.0%})"
                break
            if not joined and it < opts.iterations:
                stopped_by = "no best response beat its side's mixture beyond its validation interval"
                break
        return rows, solution, converged, stopped_by

    def value(self, solution: MatrixGameSolution) -> dict:
        """The last mixtures against each other on fresh games: value, low, high."""
        a, b = self.villains
        opts = self.opts
        mix_a, mix_b = self.side_mixture(a, solution.rows), self.side_mixture(b, solution.cols)
        vkey = f"value:{opts.value_games}:{mixture_key(mix_a)}:{mixture_key(mix_b)}"
        got = self.store.get(vkey)
        if got is None:
            vseed = derived_seed(self.settings.seed, f"equilibrium:{self.matchup}:value")
            s = self.play("the value: mixture against mixture", (mix_a, mix_b), opts.value_games, vseed)
            got = self.store.put(vkey, dict(zip(("value", "low", "high"), _mean_interval(s), strict=True)))
        return got

    def result(self, rows, solution, got, converged, stopped_by, seeded) -> EquilibriumResult:
        """The :class:`EquilibriumResult`: the table behind the final mixtures, the mixtures, the provenance."""
        a, b = villains = self.villains
        from simlab.runs.backend import source_commit

        opts, settings, pops, fp = self.opts, self.settings, self.pops, self.fp
        last_payoff = self.table()
        # the table behind the final mixtures (members that joined at the cap are not in it)
        m, n = solution.rows.size, solution.cols.size
        table_rows = []
        for i in range(m):
            for j in range(n):
                e = self.entry(i, j)
                table_rows.append(
                    {
                        f"{a}_strategy": pops[a][i].name,
                        f"{b}_strategy": pops[b][j].name,
                        "score": float(last_payoff[i, j]),
                        "games": e["games"],
                        "standard_error": math.sqrt(e["var"] / e["games"]),
                    }
                )
        pops = {a: pops[a][:m], b: pops[b][:n]}
        weights = {a: solution.rows, b: solution.cols}
        mixtures = pl.DataFrame(
            [
                {"villain": v, "strategy": s.name, "weight": float(w)}
                for v in villains
                for s, w in zip(pops[v], weights[v], strict=True)
            ]
        )
        seconds = time.perf_counter() - self.t0
        provenance = {
            "matchup": self.matchup,
            "seed": settings.seed,
            "variants": settings.variant_dict,
            "max_turns": settings.max_turns,
            "options": {k: getattr(opts, k) for k in opts.__dataclass_fields__},
            "seed_population": seeded,
            "library": {v: [s.name for s in self.library[v]] for v in villains},
            "iterations": len(rows),
            "converged": converged,
            "stopped_by": stopped_by,
            "games_this_run": self.played,
            "seconds_this_run": round(seconds, 1),
            "commit": source_commit(),
            "simlab_version": fp["version"],
            "rules_hash": fp["rules_hash"],
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        return EquilibriumResult(
            self.matchup,
            (a, b),
            got["value"],
            got["low"],
            got["high"],
            opts.value_games,
            mixtures,
            pl.DataFrame(rows),
            pl.DataFrame(table_rows),
            converged,
            stopped_by,
            pops,
            weights,
            provenance,
            seconds,
            self.played,
            self.store.path,
        )


def _iteration_row(it: int, size_a: int, size_b: int, solution: MatrixGameSolution, br_a: dict, br_b: dict) -> dict:
    """One row of the iterations table: the populations, the table's value and supports, each best response."""
    row = {
        "iteration": it,
        "population_a": size_a,
        "population_b": size_b,
        "table_value": solution.value,
        "support_a": int((solution.rows > 0).sum()),
        "support_b": int((solution.cols > 0).sum()),
    }
    for side, br in (("a", br_a), ("b", br_b)):
        row |= {
            f"mixture_rate_{side}": br["start_rate"],
            f"best_response_rate_{side}": br["rate"],
            f"gain_{side}": br["change"],
            f"gain_{side}_low": br["change_low"],
            f"gain_{side}_high": br["change_high"],
            f"best_response_{side}": br["spec"].name,
            f"started_from_{side}": br["start"],
            f"tried_{side}": br.get("tried", br["start"]),
        }
    row["exploitability"] = max(br_a["change"], 0.0) + max(br_b["change"], 0.0)
    return row


def pairings(villains=VILLAIN_KEYS) -> list[str]:
    """Every 2-player matchup of two different villains, in registry order."""
    return [f"{x}-vs-{y}" for i, x in enumerate(villains) for y in villains[i + 1 :]]
