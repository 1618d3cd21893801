"""simlab fix: the objective's order, the candidates, and on a game unbalanced on purpose (the Horned King's Ancient
Soldiers made two Power dearer) the fix that reverses the damage, or one no larger, inside the band; reproducible on
1 and 2 threads, resumable from its checkpoint; bad input is one line with exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.edits import edited_cards
from simlab.errors import EditError, InputError
from simlab.runs.settings import RunSettings
from simlab.studies import fix as F

MATCHUP = "lady-tremaine-vs-horned-king"
DAMAGE = "Ancient Soldiers:cost=5"  # printed 3: Lady Tremaine wins about 80% instead of 60% (expert play)
ALLOWED = [
    "Ancient Soldiers:cost=3",  # the reverse (size 2)
    "Ancient Soldiers:cost=4",  # half of it (size 1): not enough
    "Midnight:cost=2",  # Lady Tremaine stronger still
    "Trapped:cost=3",
    "Wedding Bells:cost=5",
]
SMALL = {"n_games": 300, "seed": 3, "level": "expert", "max_turns": 100, "edits": [DAMAGE]}
OPTIONS = F.FixOptions(max_edits=2, screen_games=150, show=3, adapt_budget=0)


def _run(tmp_path, threads, checkpoint=None, options=OPTIONS):
    allowed = tmp_path / "allowed.txt"
    allowed.write_text("# the edits a designer allows\n" + "\n".join(ALLOWED) + "\n")
    return F.fix("35-65", [MATCHUP], options, allowed, checkpoint, threads=threads, **SMALL)


def _planned(tmp_path, options=OPTIONS) -> int:
    allowed = tmp_path / "allowed.txt"
    allowed.write_text("\n".join(ALLOWED) + "\n")
    return F.fix_plan("35-65", [MATCHUP], options, allowed, **SMALL)[0]


@pytest.fixture(scope="module")
def two_threads(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("fix2"), 2)


def test_the_objective_orders_fixes_by_distance_then_edits_then_size():
    key = F.objective_key
    assert key(0.0, 3, 6) < key(0.001, 1, 1)  # inside the band beats any fix outside it
    assert key(0.0, 1, 2) < key(0.0, 2, 2)  # then fewer edits
    assert key(0.0, 2, 2) < key(0.0, 2, 3)  # then smaller ones
    assert key(0.02, 1, 1) < key(0.03, 1, 1)
    assert key(0.1 + 0.2, 1, 1) == key(0.3, 1, 1)  # float noise makes no order
    common = {"margin": 0.01, "centre": 0.04}
    rows = [
        {"fix": "c", "tier": 1, "distance": 0.0, "edits": 2, "size": 2, "order": [0, 1]} | common,
        {"fix": "a", "tier": 2, "distance": 0.01, "edits": 1, "size": 1, "order": [2]} | common,
        {"fix": "b", "tier": 1, "distance": 0.0, "edits": 1, "size": 3, "order": [3]} | common,
        {"fix": "d", "tier": 1, "distance": 0.0, "edits": 1, "size": 2, "order": [4]} | common,
    ]
    assert [r["fix"] for r in F._ranked(rows)] == ["d", "b", "c", "a"]


def test_the_band_is_a_share_of_the_fair_rate():
    band = F.parse_band("45-55")
    assert band.bounds(2) == (0.45, 0.55)
    assert band.bounds(3) == pytest.approx((0.30, 0.55 * 2 / 3))
    assert band.distance(0.5, 2) == 0 and band.distance(1 / 3, 3) == 0
    assert band.distance(0.60, 2) == pytest.approx(0.05)
    assert band.distance(0.40, 3) == pytest.approx(0.60 - 0.55)  # a 3-player 40% is a share of 60%
    for bad in ("45", "55-45", "60-70", "45-55-60", "a-b", "-5-55", "45-101"):
        with pytest.raises(InputError, match="--band"):
            F.parse_band(bad)


def test_candidates_never_break_a_rule_of_the_data():
    settings = RunSettings(games=10, level="expert")
    # every villain's cost, Strength and rule edits; the copies moved (each compiled, so slower) of one villain
    moves = F.candidate_moves(settings, kinds=("cost", "strength", "rules"))
    moves += F.candidate_moves(settings, villains=("horned-king",), kinds=("copies",))
    assert {m.kind for m in moves} == set(F.KINDS)
    base = edited_cards()
    for m in moves:
        cards = edited_cards(F.fix_parts((m,), settings)[0])  # compiles: a playable game
        for e in m.edits:
            assert e.value >= 0
            if e.attribute in ("cost", "strength"):
                assert abs(e.value - getattr(base.card(e.card), e.attribute)) == m.size <= 4
        if m.kind == "copies":
            a, b = m.edits
            assert base.card(a.card).deck == base.card(b.card).deck and a.value + b.value == (
                base.card(a.card).copies + base.card(b.card).copies
            )
            deck = [c for c in cards.cards if c.villain == m.villain and c.deck == base.card(a.card).deck]
            assert sum(c.copies for c in deck) <= (30 if deck[0].deck == "villain" else 15)
    names = {e.card for m in moves for e in m.edits if e.attribute == "cost"}
    assert "Beautiful as Me" not in names and "Beast" not in names  # a Condition and a Fate card print no cost


def test_the_pool_reaches_every_entry_outside_the_band():
    import numpy as np

    from simlab.studies.fix import FixOptions

    band = F.parse_band("45-55")
    # the unedited game: A wins 70% of a-vs-b (both entries out), c-vs-d balanced
    base = {"gaston-vs-horned-king": np.array([0] * 7 + [1] * 3), "lady-tremaine-vs-gaston": np.array([0, 1] * 5)}
    far = {("gaston-vs-horned-king", 0): 0.15, ("gaston-vs-horned-king", 1): 0.15}
    rows, entries = [], {}
    for i in range(6):  # edits that move only the balanced matchup: best by the objective (smaller, same distance)
        rows.append({"fix": f"x{i}", "tier": 2, "distance": 0.15, "edits": 1, "size": 1, "order": [i]})
        rows[-1] |= {"margin": -0.15, "centre": 0.2}
        entries[f"x{i}"] = far | {("lady-tremaine-vs-gaston", 0): 0.0, ("lady-tremaine-vs-gaston", 1): 0.0}
    for i, d in enumerate((0.05, 0.10)):  # edits that fix the first matchup but unbalance the second
        rows.append({"fix": f"y{i}", "tier": 2, "distance": 0.2, "edits": 1, "size": 1, "order": [6 + i]})
        rows[-1] |= {"margin": -0.2, "centre": 0.25}
        near = {("gaston-vs-horned-king", 0): d, ("gaston-vs-horned-king", 1): d}
        entries[f"y{i}"] = near | {("lady-tremaine-vs-gaston", 0): 0.2, ("lady-tremaine-vs-gaston", 1): 0.2}
    got = F._pool(rows, entries, base, band, FixOptions(pool=3))
    assert got[:3] == ["x0", "x1", "x2"]  # the best by the objective first
    assert set(got[3:]) == {"y0", "y1"}, got  # then those bringing an entry outside the band nearer, none else


def test_a_card_the_engine_resolves_once_gets_no_second_copy():
    # a second Rose could be played as the other revealed card of the first, with none of its own: that game never
    # ended (the fix finder at its defaults hung on it), so the data caps its copies and the search never tries it
    with pytest.raises(EditError, match="The Rose can have at most 1 copy"):
        edited_cards(["Be Our Guest:copies=1", "The Rose:copies=2"])
    settings = RunSettings(games=10, level="expert")
    moves = F.candidate_moves(settings, villains=("gaston",), kinds=("copies",))
    assert moves, "other copies still move"
    assert not [m for m in moves if any(e.card == "The Rose" and e.value > 1 for e in m.edits)]
    assert [m for m in moves if any(e.card == "The Rose" and e.value == 0 for e in m.edits)], "a Rose may go"


def test_an_edit_leaves_the_games_of_the_villains_it_does_not_touch_alone():
    from simlab.studies.whatif import winner_indices

    s = RunSettings(games=60, seed=5, level="expert")
    base = winner_indices("gaston-vs-lady-tremaine", settings=s)
    edited = winner_indices("gaston-vs-lady-tremaine", settings=s.replace(edits=("Ancient Soldiers:cost=5",)))
    assert (base == edited).all()  # why fix reuses the unedited game's games there


def test_fix_finds_the_edit_that_reverses_the_damage(two_threads):
    res = two_threads
    best = res.best
    assert best["in_band"] and best["distance"] == 0
    assert best["edits"] == 1 and best["size"] <= 2  # the reverse, or one no larger
    assert best["options"].startswith('--edit "')
    assert res.play == "expert play"
    before = res.base.filter(res.base["villain"] == "lady-tremaine")["before"][0]
    assert before > 0.65  # the damage is out of the band
    rows = res.table.filter(res.table["rank"] == 1)
    assert (rows["after_distance"] == 0).all() and (rows["before_distance"] > 0).all()
    assert rows["change_text"][0].startswith("-")  # Lady Tremaine's win rate comes down, paired interval
    assert res.fixes["rank"].to_list() == [1, 2, 3]
    keys = [F.objective_key(r["distance"], r["edits"], r["size"]) for r in res.fixes.iter_rows(named=True)]
    assert keys == sorted(keys)


def test_a_fix_plays_at_most_its_plan(two_threads, tmp_path):
    # the base, every single edit on the screen's games, then the beam's pairs and the finalists: at most the plan
    exact = 300 + 150 * len(ALLOWED)
    assert exact < two_threads.games <= _planned(tmp_path)


def test_the_same_seed_gives_the_same_fix_on_1_and_2_threads(two_threads, tmp_path):
    one = _run(tmp_path, 1)
    for name, frame in two_threads.frames().items():
        assert frame.equals(one.frames()[name]), name


def test_a_checkpointed_fix_resumes_without_playing_again(tmp_path):
    first = _run(tmp_path, 2, tmp_path / "ckpt", F.FixOptions(max_edits=1, screen_games=60, show=1, adapt_budget=0))
    again = _run(tmp_path, 2, tmp_path / "ckpt", F.FixOptions(max_edits=1, screen_games=60, show=1, adapt_budget=0))
    assert first.games > 0 and again.games == 0
    assert first.fixes.equals(again.fixes) and first.table.equals(again.table)


def test_adaptation_re_tunes_the_villain_whose_cards_changed(tmp_path):
    options = F.FixOptions(max_edits=1, screen_games=60, show=1, adapt_budget=800, adapt_candidate_games=40)
    options = F.FixOptions(**{**vars(options), "adapt_validation_games": 40})
    res = _run(tmp_path, 2, None, options)
    assert 0 < res.games <= _planned(tmp_path, options)  # the re-tunes are in the plan
    assert res.adapted["villain"].to_list() == ["horned-king"]  # Ancient Soldiers are the Horned King's
    assert res.adaptation.height == 2 and {"fixed_text", "adapted_text", "change_text"} <= set(res.adaptation.columns)
    assert res.verdict in (F.SURVIVES, F.DOES_NOT_SURVIVE) or res.verdict.startswith("not in the band")


runner = CliRunner()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--band", "45"], "--band must look like LOW-HIGH"),
        (["--band", "60-70"], "around the fair share 50"),
        (["-m", "gaston-vs-nobody"], "unknown villain 'nobody'"),
        (["--max-edits", "0"], "--max-edits must be a whole number of at least 1"),
        (["-n", "100", "--screen-games", "200"], "--screen-games (200) cannot exceed -n (100)"),
        (["--edits-from", "/nonexistent/edits.txt"], "cannot read --edits-from"),
        (["--kind", "rules"], "--kind takes cost, strength or copies"),
        (["--kind", "colour"], "edit kinds must be some of"),
        (["--adapt-budget", "10"], "--adapt-budget: a budget of 10 games"),
        (["--recheck", "0"], "--recheck must be a whole number of at least 1, got 0"),
        (["--impact-cards", "-1"], "--impact-cards must be a whole number, 0 or more, got -1"),
        (["--level", "grandmaster"], "unknown level 'grandmaster'"),
        (["-m", "gaston-vs-lady-tremaine", "-m", "gaston-vs-lady-tremaine"], "is given twice"),
    ],
)
def test_bad_input_is_one_line_with_exit_2(args, message, tmp_path):
    # small sizes first (an option given again replaces them): a check that is broken fails fast, not after a long run
    small = ["-n", "20", "--screen-games", "10", "--adapt-budget", "0", "--max-edits", "1", "--kind", "cost"]
    res = runner.invoke(app, ["fix", "--report-dir", str(tmp_path / "out"), *small, "-m", MATCHUP, *args])
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split()), res.output
    assert not (tmp_path / "out").exists()


def test_a_bad_line_of_the_edits_file_is_named(tmp_path):
    f = tmp_path / "edits.txt"
    f.write_text("Ancient Soldiers:cost=4\nAncient Soldiers:colour=3\n")
    res = runner.invoke(app, ["fix", "--edits-from", str(f), "--report-dir", str(tmp_path / "out")])
    assert res.exit_code == 2 and f"{f}:2" in " ".join(res.output.split()), res.output
    f.write_text("Ancient Soldiers:cost=4 + board:The Woods:fate=top\n")
    res = runner.invoke(app, ["fix", "--edits-from", str(f), "--report-dir", str(tmp_path / "out")])
    assert res.exit_code == 2 and "not board edits" in res.output, res.output


def test_the_report_section_shows_the_best_fix_only_when_its_table_asks(tmp_path):
    from types import SimpleNamespace

    from simlab.report.budget import _fix
    from simlab.report.plots import write_plot
    from simlab.report.sections import balance_fix, play_fix
    from simlab.runs.backend import counting

    (tmp_path / "allowed.txt").write_text("\n".join(ALLOWED) + "\n")
    table = {"band": "35-65", "games": 300, "matchups": [MATCHUP], "edits_from": str(tmp_path / "allowed.txt")}
    table |= {"screen_games": 150, "max_edits": 1, "show": 2, "adapt_budget": 0}
    run = RunSettings(games=2000, seed=3, level="expert", edits=(DAMAGE,), threads=2)

    def context(report):
        exp = SimpleNamespace(report=report, source="test.toml")
        plot = lambda name, draw, size: write_plot(tmp_path / f"{name}.png", draw, size)  # noqa: E731
        ctx = SimpleNamespace(exp=exp, run=run, games=2000, settings={}, say=lambda _m: None, plot=plot)
        ctx.fix = play_fix(ctx)  # the report plays it with its studies, before any section
        return ctx

    assert balance_fix(context({})) == []
    assert _fix(context({})).games == 0
    with counting() as count:
        ctx = context({"fix": table})
    # the report's plan of the fix: at most (the base, every single edit, the candidates measured again, the side
    # effects of the finalists on every matchup)
    assert 300 + 150 * len(ALLOWED) + 300 * 2 < count.games <= _fix(ctx).games
    (section,) = balance_fix(ctx)
    assert section.title == "Balance fix" and "Best fix: Ancient Soldiers:cost=" in section.text
    assert "expert play" in section.text
    assert section.tables["fix_matchups"].height == 2 and (tmp_path / "fix.png").stat().st_size > 0
    with pytest.raises(InputError, match=r"test.toml: \[report.fix\] has unknown keys \['colour'\]"):
        balance_fix(context({"fix": {**table, "colour": 1}}))
    with pytest.raises(InputError, match=r"\[report.fix\] --band"):
        balance_fix(context({"fix": {**table, "band": "55"}}))
