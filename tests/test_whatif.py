"""What-if: card edits, ablation on paired seeds (the causal card impact), sweeps and experiment files."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import build, labels
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.edits import CardEdit, edited_cards, parse_edit
from simlab.errors import ConfigError, EditError
from simlab.game.api import Game
from simlab.kernels import const as K
from simlab.runs.experiment import load_experiment
from simlab.runs.settings import RunSettings
from simlab.runs.sim import play_games, simulate
from simlab.runs.stats import paired_difference
from simlab.studies.impact import ablation
from simlab.studies.whatif import paired_effect, sweep, winner_indices

runner = CliRunner()


# ------------------------------------------------------------------------------------------------ edits


def test_parse_edit():
    assert parse_edit("Get Out!:cost=4") == CardEdit("Get Out!", "cost", 4)
    assert parse_edit("Mrs. Potts and Chip:strength=3") == CardEdit("Mrs. Potts and Chip", "strength", 3)
    assert parse_edit("Swoon:remove") == CardEdit("Swoon", "remove", 1)
    assert parse_edit("Beast:ablate") == CardEdit("Beast", "ablate", 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Get Out:cost=4", "unknown card 'Get Out'"),
        ("get out!:cost=4", "did you mean 'Get Out!'"),
        ("Get Out!:price=4", "unknown attribute 'price'.*choose from cost, strength, copies, remove, ablate"),
        ("Get Out!:cost=-1", "cannot be negative"),
        ("Get Out!:cost=four", "must be a whole number"),
        ("Get Out!:cost", "needs a value"),
        ("Belle:cost=2", "Fate card: it has no cost"),
        ("Beautiful as Me:cost=2", "Condition: it has no cost"),
        ("Swoon:strength=2", "only Allies and Heroes have Strength"),
        ("Swoon", "must look like CARD:ATTRIBUTE=VALUE"),
        ("Wolves:copies=5", "do not give a playable deck.*must hold 30 cards, got 31"),
    ],
)
def test_bad_edits_are_refused(text, message):
    with pytest.raises(EditError, match=message):
        edited_cards([text])


def test_edits_change_the_tables_not_the_shipped_cards():
    shipped = edited_cards()
    edited = edited_cards(["Get Out!:cost=4", "Wolves:strength=2", "Swoon:copies=1", "Beast:ablate"])
    row = shipped.card("Get Out!").row
    assert shipped.tables.card[row, K.CF_COST] == 5 and edited.tables.card[row, K.CF_COST] == 4
    assert edited.tables.card[shipped.card("Wolves").row, K.CF_STRENGTH] == 2
    assert edited.tables.card[shipped.card("Beast").row, K.CF_BLOCKED] == 1
    assert shipped.tables.card[:, K.CF_BLOCKED].sum() == 0
    v = shipped.villain("gaston").row
    assert edited.tables.v_out[v].sum() == 2  # two copies of Swoon gone: 28 cards in the Villain deck
    assert shipped.tables.v_out.sum() == 0


def test_removed_copies_are_out_of_the_game():
    cards = edited_cards(["Swoon:remove", "Wolves:copies=2"])
    game = Game.new("gaston-vs-horned-king", seed=1, cards=cards, strategies=("random", "random"))
    zones = game.state.inst[0, :, K.I_ZONE]
    assert (zones == K.Z_OUT).sum() == 5  # 3 Swoon + 2 Wolves
    assert game.state.sv[0, K.SV_VDECK_N] + (zones == K.Z_HAND).sum() == 25
    game.play()
    names = [game.card_name(0, k) for k in range(K.N_VCARDS) if game.state.inst[0, k, K.I_ZONE] != K.Z_OUT]
    assert "Swoon" not in names and names.count("Wolves") == 2
    assert (game.state.inst[0, :, K.I_ZONE] == K.Z_OUT).sum() == 5  # still out at the end


def test_an_ablated_card_cannot_be_played():
    hand = {"mover": "The Tavern", "power": 6, "hand": ["Get Out!", "Temper"]}
    assert "play Get Out!" in labels(build(dict(hand), {}))
    from simlab.game.scenario import Scenario

    desc = {"villains": ["gaston", "horned-king"], "active": 0, "phase": "actions", "seats": [dict(hand), {}]}
    ablated = Scenario.build(desc, cards=edited_cards(["Get Out!:ablate"]))
    assert "play Get Out!" not in labels(ablated) and "play Temper" in labels(ablated)


def test_edited_cost_is_what_the_villain_pays():
    hand = {"mover": "The Tavern", "power": 4, "hand": ["Get Out!"]}
    from simlab.game.scenario import Scenario

    desc = {"villains": ["gaston", "horned-king"], "active": 0, "phase": "actions", "seats": [hand, {}]}
    assert "play Get Out!" not in labels(Scenario.build(desc))  # costs 5
    cheap = Scenario.build(desc, cards=edited_cards(["Get Out!:cost=4"]))
    assert "play Get Out!" in labels(cheap)


# ------------------------------------------------------------------------------------- causal impact


def test_ablating_a_card_that_is_never_played_changes_nothing_exactly():
    # A Get Out! that costs 1,000 is never played; ablating it leaves every game as it was.
    frame = ablation("gaston", 150, seed=2, cards=["Get Out!"], edits=["Get Out!:cost=1000"], threads=2)
    row = frame.row(0, named=True)
    assert row["changed_games"] == 0 and row["impact"] == 0.0
    assert row["rate_with"] == row["rate_without"]
    # Beautiful as Me needs an opponent's turn: alone (goldfish), Gaston never plays it.
    a = play_games(("gaston",), ["expert"], 200, seed=1)
    b = play_games(("gaston",), ["expert"], 200, seed=1, edits=["Beautiful as Me:ablate"])
    assert a.equals(b)


def test_ablation_is_reproducible_and_pairs_the_same_games():
    a = ablation("horned-king", 120, seed=5, cards=["Cauldron Born", "Gurgi's Sacrifice"], threads=2)
    b = ablation("horned-king", 120, seed=5, cards=["Cauldron Born", "Gurgi's Sacrifice"], threads=1)
    assert a.equals(b)
    assert set(a["deck"]) == {"villain", "fate"} and (a["games"] == 240).all()
    for r in a.iter_rows(named=True):
        assert r["impact_low"] <= r["impact"] <= r["impact_high"]
        assert abs(r["impact"] - (r["rate_with"] - r["rate_without"])) < 1e-12
    # without Cauldron Born (never swapped in) the Horned King cannot win
    cb = a.filter(a["card"] == "Cauldron Born").row(0, named=True)
    assert cb["rate_without"] == 0.0 and cb["impact_low"] > 0.2


def test_an_ablated_prince_revealed_by_fate_is_discarded():
    from simlab.game.scenario import Scenario

    desc = {
        "villains": ["lady-tremaine", "gaston"],
        "active": 1,
        "phase": "actions",
        "seats": [{"hand": [], "fate_top": ["The Prince", "Jaq"]}, {"mover": "The Woods", "hand": [], "power": 0}],
    }
    shipped = Scenario.build(desc).apply("fate Lady Tremaine")
    assert [e["card"] for e in shipped.realm(0)["The Ballroom"]] == ["The Prince"]
    ablated = Scenario.build(desc, cards=edited_cards(["The Prince:ablate"])).apply("fate Lady Tremaine")
    while ablated.decision.kind != "action":  # Gaston places Jaq, the one playable card
        ablated = ablated.apply(ablated.decision.options[0].index)
    assert ablated.realm(0)["The Ballroom"] == [] and "The Prince" in ablated.zone(0, K.Z_FDISCARD)
    assert ablated.heroes(0) == ["Jaq"]


@pytest.mark.slow
def test_raising_a_key_cards_cost_lowers_its_villains_win_rate():
    # 1,000 games: the change at cost 9 is -7.2 points [-10.8, -3.6] at the expert of ae9e1a6; 400 no longer resolve it
    res = sweep("gaston-vs-horned-king", 1000, ["3", "9"], card="Come Into the Light", attribute="cost", seed=0)
    g = {r["value"]: r for r in res.table.filter(res.table["entry"] == "gaston").iter_rows(named=True)}
    assert g["3"]["changed_games"] == 0 and g["3"]["change"] == 0.0  # the shipped cost is the baseline
    assert g["9"]["change_high"] < 0, g["9"]  # significantly lower, paired 95% interval


def test_rule_sweep_pairs_games_and_names_the_baseline():
    res = sweep("gaston-vs-horned-king", 150, ["up_to_three", "exactly_three"], rule="get_out", seed=3)
    assert res.baseline == "up_to_three" and res.what == "rule get_out"
    assert res.table.height == 4 and set(res.table["entry"]) == {"gaston", "horned-king"}
    w = winner_indices("gaston-vs-horned-king", 150, 3, variants={"get_out": "exactly_three"})
    gaston = res.table.filter((res.table["entry"] == "gaston") & (res.table["value"] == "exactly_three"))
    assert gaston["rate"][0] == float(np.mean(w == 0))


def test_paired_difference_identities_and_coverage():
    diff, low, high = paired_difference(30, 10, 4, 56)  # 40% vs 34%
    assert diff == pytest.approx(0.06) and low < 0.06 < high
    # the same outcome on every unit: the difference is 0 and the interval is narrow
    assert paired_difference(50, 0, 0, 50)[0] == 0.0
    # coverage: correlated pairs with a known difference of +4 points
    rng = np.random.default_rng(11)
    hits, reps, n = 0, 400, 800
    for _ in range(reps):
        u = rng.random(n)
        base = (u < 0.45).astype(np.int8)
        other = (u < 0.49).astype(np.int8)  # strongly paired
        flip = rng.random(n) < 0.1  # plus some independent noise on both
        base[flip] = rng.random(flip.sum()) < 0.45
        other[flip] = rng.random(flip.sum()) < 0.49
        e = paired_effect(base, other)
        hits += e["change_low"] <= 0.04 <= e["change_high"]
    share = hits / reps
    assert abs(share - 0.95) < 3 * (0.95 * 0.05 / reps) ** 0.5 + 0.01, share


def test_edits_reach_runs_and_replays():
    edit = ["Get Out!:cost=4"]
    run = simulate("gaston-vs-horned-king", RunSettings(60, seed=4, edits=edit))
    assert [str(e) for e in run.edits] == edit
    assert '"Get Out!:cost=4"' in run.to_json()
    assert not run.games.equals(
        simulate("gaston-vs-horned-king", RunSettings(60, seed=4)).games
    )  # the cost changes games
    from simlab.game.replay import replay

    row = run.games.row(0, named=True)
    assert (row["seat0"], row["seat1"]) == ("gaston", "horned-king")
    rep = replay(("gaston", "horned-king"), seed=4, game_index=0, edits=edit)
    assert (rep.game.villains[rep.game.winner], rep.game.rounds) == (row["winner"], row["rounds"])  # run's game 0
    # Gaston plays Get Out! in that game: at the edited cost, and at another without the edit
    assert "plays Get Out! (cost 4)" in rep.text
    shipped = replay(("gaston", "horned-king"), seed=4, game_index=0).text
    assert "plays Get Out! (cost" in shipped and "plays Get Out! (cost 4)" not in shipped


# ----------------------------------------------------------------------------------- experiment files


GOOD = """
name = "cheap-get-out"
matchup = "gaston-vs-horned-king"
games = 50
seed = 3
[rules]
get_out = "exactly_three"
[cards."Get Out!"]
cost = 4
"""


def test_experiment_file_is_data(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(GOOD)
    exp = load_experiment(str(path))
    assert exp.matchup == "gaston-vs-horned-king" and exp.games == 50 and exp.seed == 3
    assert exp.edits == (CardEdit("Get Out!", "cost", 4),) and exp.rules == {"get_out": "exactly_three"}


def test_shipped_experiment_files_load():
    for name in ("get-out-costs-4", "first-seat", "sweep-come-into-the-light-cost"):
        assert load_experiment(name).matchup


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[cards."Get Outt!"]\ncost = 4', 'x.toml: \\[cards."Get Outt!"\\] cost: unknown card'),
        ('[cards."Get Out!"]\nprice = 4', 'x.toml: \\[cards."Get Out!"\\] price: unknown attribute'),
        ('[cards."Get Out!"]\ncost = -2', "x.toml: \\[cards.\"Get Out!\"\\] cost: 'Get Out!' cost cannot be negative"),
        ('[cards."Get Out!"]\ncost = "4"', "cost must be a whole number"),
        ('[rules]\nget_out = "sometimes"', "x.toml: .*get_out"),
        ('[rules]\nteleport = "yes"', "x.toml: .*unknown rule variant 'teleport'"),
        ('games = "many"', "x.toml: games must be int"),
        ("games = -5", "x.toml: games must be a whole number from 1 to"),
        ('colour = "red"', "x.toml: unknown key 'colour'"),
        ('matchup = "gaston-vs-jafar"', "x.toml: unknown villain 'jafar'"),
        ("matchup = ", "x.toml is not valid TOML"),
        ("[sweep]\nvalue = [1]", "x.toml: \\[sweep\\]: unknown key 'value'"),
    ],
)
def test_bad_experiment_files_name_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "x.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_experiment(str(path))
    res = runner.invoke(app, ["run", "--config", str(path), "-n", "5"])
    assert res.exit_code == 2, res.output
    assert "x.toml" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------------ CLI


def test_cli_run_with_config_and_edit(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(GOOD)
    res = runner.invoke(app, ["run", "--config", str(path), "-n", "40", "--edit", "Temper:cost=3", "--json"])
    assert res.exit_code == 0, res.output
    import json

    doc = json.loads(res.output)
    assert doc["games"] == 40 and doc["seed"] == 3  # -n overrides the file; seed comes from it
    assert doc["edits"] == ["Get Out!:cost=4", "Temper:cost=3"]


def test_cli_bad_edit_and_missing_matchup():
    res = runner.invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "5", "--edit", "Gett Out!:cost=4"])
    assert res.exit_code == 2 and "unknown card 'Gett Out!'" in res.output
    res = runner.invoke(app, ["run", "-n", "5"])
    assert res.exit_code == 2 and "--matchup" in res.output


def test_cli_sweep_and_causal_cards(tmp_path):
    png = tmp_path / "sweep.png"
    res = runner.invoke(
        app,
        ["sweep", "-m", "gaston-vs-horned-king", "--card", "Temper", "--attribute", "cost", "--values", "2..3"]
        + ["-n", "40", "--png", str(png)],
    )
    assert res.exit_code == 0, res.output
    assert png.stat().st_size > 10_000 and "change [95% paired]" in res.output and "vs the shipped value" in res.output
    png = tmp_path / "impact.png"
    res = runner.invoke(app, ["cards", "--villain", "gaston", "-n", "30", "--card", "Temper", "--png", str(png)])
    assert res.exit_code == 0, res.output
    assert "CAUSAL" in res.output and "OBSERVATIONAL" in res.output and png.exists()
    res = runner.invoke(app, ["sweep", "-m", "gaston-vs-horned-king", "--card", "Temper", "--values", "2"])
    assert res.exit_code == 2 and "--attribute must be one of cost, strength, copies" in res.output
    res = runner.invoke(app, ["sweep", "-m", "gaston-vs-horned-king", "--rule", "nope", "--values", "a"])
    assert res.exit_code == 2 and "unknown rule variant 'nope'" in res.output
