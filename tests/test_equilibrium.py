"""simlab equilibrium: the meta-solver on textbook games, and a small double-oracle run end to end."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from simlab.runs.settings import RunSettings
from simlab.studies.equilibrium import solve_matrix_game


def test_rock_paper_scissors_has_value_one_half_and_the_uniform_mixture():
    # scores in [0, 1]: a win 1, a tie 1/2, a loss 0 (constant sum 1)
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    sol = solve_matrix_game(rps)
    assert sol.value == pytest.approx(0.5, abs=1e-6)
    assert np.allclose(sol.rows, 1 / 3, atol=1e-6) and np.allclose(sol.cols, 1 / 3, atol=1e-9)


def test_a_dominated_strategy_gets_weight_zero():
    # row 2 is worse than row 0 against every column; column 1 worse for the column player than column 0
    payoff = np.array([[0.6, 0.7, 0.3], [0.4, 0.8, 0.6], [0.5, 0.6, 0.2]])
    sol = solve_matrix_game(payoff)
    assert sol.rows[2] == 0.0
    assert sol.cols[1] == 0.0
    assert sol.rows.sum() == pytest.approx(1) and sol.cols.sum() == pytest.approx(1)


def test_a_two_by_two_game_with_a_known_mixed_solution():
    # matching pennies skewed: the row player mixes p = (d - c) / (a - b - c + d) on row 0
    a, b, c, d = 0.9, 0.2, 0.3, 0.6
    sol = solve_matrix_game(np.array([[a, b], [c, d]]))
    p = (d - c) / (a - b - c + d)
    q = (d - b) / (a - b - c + d)
    assert sol.rows == pytest.approx([p, 1 - p], abs=1e-6)
    assert sol.cols == pytest.approx([q, 1 - q], abs=1e-6)
    assert sol.value == pytest.approx((a * d - b * c) / (a - b - c + d), abs=1e-6)


def test_the_value_is_what_each_mixture_guarantees():
    rng = np.random.default_rng(0)
    for _ in range(20):
        payoff = rng.random((rng.integers(1, 6), rng.integers(1, 6)))
        sol = solve_matrix_game(payoff)
        assert (sol.rows @ payoff).min() == pytest.approx(sol.value, abs=1e-7)  # the row mixture guarantees it
        assert (payoff @ sol.cols).max() == pytest.approx(sol.value, abs=1e-7)  # the column mixture holds it


def test_ties_are_broken_towards_the_first_strategies():
    # two identical rows and two identical columns: every split is optimal; the first gets all the weight
    payoff = np.array([[0.5, 0.5], [0.5, 0.5]])
    sol = solve_matrix_game(payoff)
    assert list(sol.rows) == [1.0, 0.0] and list(sol.cols) == [1.0, 0.0]
    again = solve_matrix_game(payoff.copy())
    assert np.array_equal(sol.rows, again.rows) and np.array_equal(sol.cols, again.cols)


def test_a_bad_table_is_refused():
    with pytest.raises(ValueError, match="finite, non-empty"):
        solve_matrix_game(np.array([[0.5, np.nan]]))
    with pytest.raises(ValueError, match="finite, non-empty"):
        solve_matrix_game(np.zeros((0, 2)))


# ---------------------------------------------------------------------------- the double oracle, small

SMALL = {
    "table_games": 200,
    "iterations": 2,
    "budget": 4000,
    "candidate_games": 100,
    "validation_games": 600,
    "value_games": 600,
    "popsize": 8,
    "step": 1.0,  # the tuner's own step: from novice, 4 generations need big steps (the default suits strong starts)
    "br_from": (),  # one start a best response: the side's best (the starts are tested on their own below)
    "library_games": 0,  # no library strategies (tested on their own below)
}


def small_run(tmp_path=None, seed_levels=("novice",), seed=1, **kw):
    from simlab.studies.equilibrium import EquilibriumSettings, equilibrium

    checkpoint = None if tmp_path is None else tmp_path / "eq"
    return equilibrium(
        "gaston-vs-horned-king",
        seed_levels=seed_levels,
        options=EquilibriumSettings(**SMALL),
        checkpoint=checkpoint,
        seed=seed,
        **kw,
    )


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return small_run(tmp_path_factory.mktemp("eq"))


@pytest.mark.slow
def test_best_responses_grow_the_populations_and_move_the_value(small):
    it = small.iterations
    first = it.row(0, named=True)
    # novice against novice is far from strong play: each side's best response beats its mixture significantly
    assert first["gain_a_low"] > 0 and first["gain_b_low"] > 0
    assert first["exploitability"] > 0.05
    assert first["joined"] == "gaston, horned-king"
    assert {len(p) for p in small.populations.values()} == {2}
    assert set(small.mixtures["strategy"]) == {"novice", "br-gaston-1", "br-horned-king-1"}
    # the value is the final mixtures' score on fresh games, not the seed table's novice-vs-novice entry
    novice_entry = small.table.filter(
        (pl.col("gaston_strategy") == "novice") & (pl.col("horned-king_strategy") == "novice")
    )["score"][0]
    assert abs(small.value - novice_entry) > 0.05
    assert small.stopped_by and small.games > 0


@pytest.mark.slow
def test_the_value_is_the_final_mixtures_score_on_their_own_games(small):
    from simlab.runs.sim import run
    from simlab.studies.difficulty import derived_seed

    # replayed through the public run API: the same games, the same score, the interval of a mean of n scores
    n = SMALL["value_games"]
    seed = derived_seed(1, "equilibrium:gaston-vs-horned-king:value")
    games = run(
        "gaston-vs-horned-king",
        RunSettings(n, seed=seed),
        strategies={v: small.mixture(v) for v in small.villains},
        keep_games=True,
    ).games
    score = np.where(games["winner_index"] == 0, 1.0, np.where(games["winner_index"] < 0, 0.5, 0.0))
    assert small.value == pytest.approx(score.mean(), abs=1e-12)
    half = 1.959963984540054 * score.std(ddof=1) / np.sqrt(n)
    assert small.value_high - small.value == pytest.approx(half, rel=1e-9)
    assert small.value - small.value_low == pytest.approx(half, rel=1e-9)


@pytest.mark.slow
def test_the_weights_are_the_tables_equilibrium(small):
    from simlab.studies.equilibrium import solve_matrix_game

    m = small.table.pivot(on="horned-king_strategy", index="gaston_strategy", values="score")
    names_a = [s.name for s in small.populations["gaston"]]
    names_b = [s.name for s in small.populations["horned-king"]]
    payoff = np.array([[m.filter(pl.col("gaston_strategy") == r)[c][0] for c in names_b] for r in names_a])
    sol = solve_matrix_game(payoff)
    assert np.allclose(sol.rows, small.weights["gaston"]) and np.allclose(sol.cols, small.weights["horned-king"])


@pytest.mark.slow
def test_a_resumed_run_plays_nothing_and_ends_the_same(small):
    # the fixture's checkpoint directory holds every step: running again reads them all
    again = small_run(small.checkpoint.parent)
    assert again.games == 0
    assert again.value == small.value
    assert again.iterations.equals(small.iterations)
    assert again.mixtures.equals(small.mixtures)


@pytest.mark.slow
def test_the_mixture_file_plays_what_the_run_found(small, tmp_path):
    from simlab.runs.sim import run
    from simlab.studies.equilibrium import write_mixture_file
    from strategies.mixture import load_mixture

    path = write_mixture_file(small, tmp_path / "gaston-vs-horned-king.toml", "simlab equilibrium ...")
    for v in small.villains:
        mix, found = load_mixture(f"{path}#{v}"), small.mixture(v)
        assert [w for _, w in mix.components] == pytest.approx([w for _, w in found.components], abs=1e-6)
        assert [s.params for s, _ in mix.components] == [s.params for s, _ in found.components]
    strategies = {v: f"{path}#{v}" for v in small.villains}
    a = run("gaston-vs-horned-king", RunSettings(120, seed=4), strategies=strategies, keep_games=True)
    b = run(
        "gaston-vs-horned-king",
        RunSettings(120, seed=4),
        strategies={v: small.mixture(v) for v in small.villains},
        keep_games=True,
    )
    assert a.games.equals(b.games)


# ---------------------------------------------------------------------------- where the search starts


def _stored(value, low, high, seed=0, start=("expert",)):
    from simlab.studies.equilibrium import StoredValue

    prov = {"seed": seed, "seed_population": {"gaston": list(start), "horned-king": list(start)}}
    return StoredValue("gaston-vs-horned-king", ("gaston", "horned-king"), value, low, high, prov)


def test_two_values_agree_within_epsilon_and_both_half_widths():
    from simlab.studies.equilibrium import start_robustness

    # half-widths 0.01 and 0.02, epsilon 0.02: differences up to 0.05 agree
    inside = start_robustness({"m": (_stored(0.50, 0.49, 0.51), _stored(0.549, 0.529, 0.569))}, 0.02).row(0, named=True)
    assert inside["agree"] and inside["allowed"] == pytest.approx(0.05)
    assert inside["difference"] == pytest.approx(-0.049)
    outside = start_robustness({"m": (_stored(0.50, 0.49, 0.51), _stored(0.551, 0.531, 0.571))}, 0.02).row(
        0, named=True
    )
    assert not outside["agree"]


@pytest.mark.slow
def test_two_starts_give_one_answer(small, tmp_path):
    from simlab.studies.equilibrium import compare_starts, write_outputs

    other = small_run(tmp_path / "other", seed_levels=("expert",), seed=2)
    assert other.provenance["seed_population"] != small.provenance["seed_population"]
    for name, res in (("novice", small), ("expert", other)):
        write_outputs(res, None, tmp_path / name / "mixtures", tmp_path / name / res.matchup)
    got = compare_starts(tmp_path / "novice", tmp_path / "expert", 0.02)
    row = got.row(0, named=True)
    assert (row["value_1"], row["value_2"]) == (small.value, other.value)
    assert (row["seed_1"], row["seed_2"]) == (1, 2)
    assert row["start_1"] == "novice / novice" and row["start_2"] == "expert / expert"
    # The comparison end to end: the difference, the slack (epsilon and both half-widths) and the verdict as the two
    # runs' stored values give them. Whether two starts agree is a claim about full-size runs, measured at the
    # defaults (docs/studies/equilibrium.md); at this size a tuner's path decides it, so it is not asserted here.
    assert row["difference"] == pytest.approx(small.value - other.value)
    half = (small.value_high - small.value_low) / 2 + (other.value_high - other.value_low) / 2
    assert row["allowed"] == pytest.approx(0.02 + half)
    assert row["agree"] == (abs(row["difference"]) <= row["allowed"])


@pytest.mark.slow
def test_a_best_response_is_tuned_from_every_start_and_keeps_the_best():
    from simlab.errors import InputError
    from simlab.studies.equilibrium import EquilibriumSettings, equilibrium

    # novice-only populations: a best response tuned from expert beats the novice mixture by far more than one
    # tuned from novice in the same budget, so the one kept (the largest validated gain) starts from expert
    opts = EquilibriumSettings(**(SMALL | {"iterations": 1, "br_from": ("expert",)}))
    seen = {}
    res = equilibrium(
        "gaston-vs-horned-king",
        seed_levels=("novice",),
        options=opts,
        seed=1,
        progress=lambda what, done, total: seen.setdefault(what, total),
    )
    row = res.iterations.row(0, named=True)
    for side in ("a", "b"):
        tried = dict(t.rsplit(" ", 1) for t in row[f"tried_{side}"].split(", "))
        assert list(tried) == ["novice", "expert"], tried
        gains = {k: float(v.rstrip("%")) / 100 for k, v in tried.items()}
        assert row[f"started_from_{side}"] == max(gains, key=gains.get) == "expert", tried
        assert row[f"gain_{side}"] == pytest.approx(gains["expert"], abs=5e-4)
        assert gains["expert"] > gains["novice"] + 0.1, tried
    # the budget is split between the starts: each tuned on half of it
    tuned = {w: t for w, t in seen.items() if "best response from" in w}
    assert sorted(tuned) == sorted(
        f"iteration 1: {v}'s best response from {lv}" for v in ("gaston", "horned-king") for lv in ("novice", "expert")
    )
    assert set(tuned.values()) == {SMALL["budget"] // 2}
    with pytest.raises(InputError, match="--br-from 'strong'"):
        EquilibriumSettings(br_from=("strong",))


@pytest.mark.slow
def test_a_library_strategy_that_beats_the_mixture_is_the_best_response_and_joins():
    from simlab.game.api import strategy_spec
    from simlab.studies.equilibrium import EquilibriumSettings, equilibrium

    # novice-only populations and expert in the library: expert beats the novice mixture by far more than the
    # tuner finds from novice in this budget, so the best response is the library's, and it joins the population
    opts = EquilibriumSettings(**(SMALL | {"library_games": 200}))
    library = {v: [replace(strategy_spec("expert"), name="lib-expert")] for v in ("gaston", "horned-king")}
    res = equilibrium("gaston-vs-horned-king", seed_levels=("novice",), options=opts, library=library, seed=1)
    first = res.iterations.row(0, named=True)
    for side in ("a", "b"):
        tried = dict(t.rsplit(" ", 1) for t in first[f"tried_{side}"].split(", "))
        assert list(tried) == ["novice", "library lib-expert"], tried
        assert first[f"started_from_{side}"] == "library lib-expert"
        assert first[f"best_response_{side}"] == "lib-expert"
        assert first[f"gain_{side}_low"] > 0.05, first
    assert first["joined"] == "gaston, horned-king"
    assert all("lib-expert" in [s.name for s in pop] for pop in res.populations.values())
    # the second iteration's best responses no longer try it: it is in the population
    second = res.iterations.row(1, named=True)
    assert "library" not in second["tried_a"] + second["tried_b"], second
    assert res.provenance["library"] == {"gaston": ["lib-expert"], "horned-king": ["lib-expert"]}
    # without a library (or with --library-games 0) the same run never tries one
    none = equilibrium(
        "gaston-vs-horned-king",
        seed_levels=("novice",),
        options=EquilibriumSettings(**(SMALL | {"iterations": 1, "library_games": 0})),
        library=library,
        seed=1,
    )
    assert "library" not in none.iterations["tried_a"][0] and none.provenance["library"] == {
        "gaston": [],
        "horned-king": [],
    }


@pytest.mark.slow
def test_the_library_is_every_mixture_files_strategies_once(small, tmp_path):
    from simlab.errors import InputError
    from simlab.studies.equilibrium import EquilibriumSettings, library_strategies, spec_key, write_mixture_file

    for run in ("first", "second"):  # the same equilibrium twice: each strategy once, named after the first run
        write_mixture_file(small, tmp_path / run / "mixtures" / "gaston-vs-horned-king.toml", "simlab equilibrium")
    got = library_strategies("gaston", [tmp_path / "first" / "mixtures", tmp_path / "second" / "mixtures"])
    found = [s for s, _ in small.mixture("gaston").components]
    assert [s.name for s in got] == [f"first-{s.name}" for s in found]
    assert [spec_key(s) for s in got] == [spec_key(s) for s in found]
    assert library_strategies("lady-tremaine", [tmp_path / "first" / "mixtures"]) == []
    # the default: the shipped equilibria, each villain's strategies from every matchup it plays
    shipped = library_strategies("horned-king")
    assert len(shipped) >= 2 and all(s.name.startswith("equilibrium-") for s in shipped)
    with pytest.raises(InputError, match="--library 'nowhere': no mixture files"):
        library_strategies("gaston", ["nowhere"])
    with pytest.raises(InputError, match="--library-games must be 0 or an even"):
        EquilibriumSettings(library_games=3)


@pytest.mark.slow
def test_an_earlier_runs_equilibrium_starts_a_population(small, tmp_path):
    from simlab.studies.equilibrium import seed_population, seeds_from, spec_key, write_mixture_file

    write_mixture_file(small, tmp_path / "first" / "mixtures" / "gaston-vs-horned-king.toml", "simlab equilibrium")
    got = seeds_from([tmp_path / "first" / "mixtures"], "gaston-vs-horned-king")
    for v in small.villains:
        found = [s for s, _ in small.mixture(v).components]
        # named after the run, so two runs' "br-gaston-2" stay apart; each plays what the earlier run found
        assert [s.name for s in got[v]] == [f"first-{s.name}" for s in found]
        assert [s.params for s in got[v]] == [s.params for s in found]
        pop = seed_population(v, ("expert",), got[v])
        assert [spec_key(s) for s in pop[1:]] == [spec_key(s) for s in found]


def test_a_seed_folder_without_the_matchup_is_refused(tmp_path):
    from simlab.errors import InputError
    from simlab.studies.equilibrium import seeds_from

    (tmp_path / "gaston-vs-lady-tremaine.toml").write_text("")
    with pytest.raises(
        InputError, match=r"no mixture file gaston-vs-horned-king.toml \(it has: gaston-vs-lady-tremaine\)"
    ):
        seeds_from([tmp_path], "gaston-vs-horned-king")


def test_seed_from_reaches_the_equilibrium_with_the_seed_strategies(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    import simlab.studies.equilibrium as eq
    from simlab.cli import app

    seen = {}

    def stop(matchup, seed_strategies, *args, **kw):
        seen[matchup] = seed_strategies
        raise KeyboardInterrupt

    monkeypatch.setattr(eq, "equilibrium", stop)
    args = ["equilibrium", "-m", "gaston-vs-horned-king", "--seed-strategy", "gaston=novice"]
    res = CliRunner().invoke(app, [*args, "--seed-from", "configs/equilibrium", "--report-dir", str(tmp_path)])
    assert res.exit_code == 130, res.output
    shipped = eq.seeds_from(["configs/equilibrium"], "gaston-vs-horned-king")
    got = seen["gaston-vs-horned-king"]
    assert got["gaston"][0] == "novice" and got["gaston"][1:] == shipped["gaston"]
    assert got["horned-king"] == shipped["horned-king"] and shipped["horned-king"]
    assert all(s.name.startswith("equilibrium-") for s in shipped["gaston"])


def test_comparing_folders_without_a_shared_matchup_is_refused(tmp_path):
    from simlab.errors import InputError
    from simlab.studies.equilibrium import compare_starts

    with pytest.raises(InputError, match="no equilibrium report folder"):
        compare_starts(tmp_path / "missing", tmp_path)
    with pytest.raises(InputError, match="holds no equilibrium"):
        compare_starts(tmp_path, tmp_path)


# ---------------------------------------------------------------------------- the search probe


@pytest.mark.slow
def test_the_search_probe_of_a_mixture_file_is_paired_and_recorded(small, tmp_path):
    import tomllib

    from simlab.runs.sim import run
    from simlab.studies.difficulty import derived_seed
    from simlab.studies.equilibrium import read_equilibrium_file, record_probe, search_probe, write_mixture_file
    from strategies.mixture import load_mixture

    path = write_mixture_file(small, tmp_path / "gaston-vs-horned-king.toml", "simlab equilibrium ...")
    shipped = read_equilibrium_file(path)
    assert shipped.villains == small.villains and shipped.matchup == small.matchup
    before = {v: load_mixture(f"{path}#{v}") for v in small.villains}
    quick = tmp_path / "quick-search.toml"
    quick.write_text('base = "search"\n[params]\nsamples = 4\n')
    probe = search_probe(shipped, 16, 0.02, str(quick), seed=7)
    assert probe["villain"].to_list() == list(small.villains)
    for r in probe.iter_rows(named=True):
        v, opp = r["villain"], next(x for x in small.villains if x != r["villain"])
        # the side's own mixture on the probe's games, replayed through the public run API
        games = run(
            f"{v}-vs-{opp}",
            RunSettings(16, seed=derived_seed(7, f"equilibrium:gaston-vs-horned-king:probe:{v}")),
            strategies={v: shipped.mixture(v), opp: shipped.mixture(opp)},
            keep_games=True,
        ).games
        own = np.where(games["winner_index"] == 0, 1.0, np.where(games["winner_index"] < 0, 0.5, 0.0)).mean()
        assert r["mixture_score"] == pytest.approx(own)
        assert r["gain"] == pytest.approx(r["search_score"] - r["mixture_score"])
        assert r["gain_low"] < r["gain"] < r["gain_high"]
        assert (r["verdict"] == "not converged at search level") == (r["gain_low"] > 0.02)
    record_probe(path, probe, "simlab equilibrium-probe ...")
    doc = tomllib.loads(path.read_text())
    got = doc["provenance"]["search_probe"]
    assert got["command"] == "simlab equilibrium-probe ..." and got["rules_hash"]
    assert got["villains"]["gaston"]["gain"] == pytest.approx(probe["gain"][0])
    assert doc["provenance"]["value"] == pytest.approx(small.value, abs=1e-5)  # the rest is kept
    for v in small.villains:  # and the mixtures play as before
        assert load_mixture(f"{path}#{v}").components == before[v].components


def test_a_mixture_file_without_its_matchup_is_refused(tmp_path):
    from simlab.errors import InputError
    from simlab.studies.equilibrium import read_equilibrium_file

    bad = tmp_path / "x.toml"
    bad.write_text('[[strategy]]\nvillain = "gaston"\nweight = 1.0\nbase = "expert"\n')
    with pytest.raises(InputError, match="needs matchup"):
        read_equilibrium_file(bad)
