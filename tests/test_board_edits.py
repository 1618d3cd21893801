"""Board edits: a layout perturbation changes exactly the board tables it says, reaches the games of that
villain only, and a bad one is refused in one line (exit code 2)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.cards import load_cards
from simlab.data.edits import (
    BoardEdit,
    CardEdit,
    edited_cards,
    normalise,
    parse_edit,
    plausible_board_errors,
    shipped_layout,
)
from simlab.errors import ConfigError, EditError
from simlab.kernels import const as K
from simlab.runs.experiment import load_experiment

runner = CliRunner()
GASTON, TREMAINE, HORNED = 0, 1, 2  # villain rows of the shipped data


def layout(tables, v: int, loc: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(top, bottom) of a location in the compiled tables, each a list of (kind, value) in table order."""
    top, bottom = [], []
    for j in range(tables.locs[v, loc, K.LC_NSYM]):
        sym = (int(tables.syms[v, loc, j, K.SY_KIND]), int(tables.syms[v, loc, j, K.SY_VAL]))
        (top if tables.syms[v, loc, j, K.SY_TOP] else bottom).append(sym)
    return top, bottom


def code(name: str) -> tuple[int, int]:
    if name.startswith("gain_power_"):
        return (K.S_GAIN, int(name.rsplit("_", 1)[1]))
    return (K.SYMBOL_NAMES.index(name), 0)


def unchanged_except(base, edited, v: int, locs: set[int]) -> None:
    """Everything but the symbols of ``locs`` on villain ``v``'s board (and their count) is as shipped."""
    for name in ("card", "vil", "v_deck", "v_fate", "v_out"):
        assert np.array_equal(getattr(base, name), getattr(edited, name)), name
    keep = np.ones(base.locs.shape, bool)
    for loc in locs:
        keep[v, loc, K.LC_NSYM] = False
    assert np.array_equal(base.locs[keep], edited.locs[keep])
    for vv in range(base.syms.shape[0]):
        for loc in range(K.N_LOC):
            if vv == v and loc in locs:
                continue
            assert np.array_equal(base.syms[vv, loc], edited.syms[vv, loc]), (vv, loc)


def test_a_move_puts_one_symbol_in_the_other_row_and_touches_nothing_else():
    base = load_cards().tables
    # The Woods (Gaston, position 2): top play_card, discard_cards; bottom fate, gain_power_2
    t = edited_cards(["board:The Woods:fate=top"]).tables
    assert layout(t, GASTON, 2) == ([code("play_card"), code("discard_cards"), code("fate")], [code("gain_power_2")])
    unchanged_except(base, t, GASTON, {2})
    # a row holding the symbol twice gives up one copy: Beast's Castle bottom play_card -> top
    t = edited_cards(["board:Beast's Castle:play_card=top"]).tables
    assert layout(t, GASTON, 3) == ([code("play_card"), code("fate"), code("play_card")], [code("gain_power_1")])
    unchanged_except(base, t, GASTON, {3})
    # and the other way: Dungeons (the Horned King, position 2) loses a top symbol
    t = edited_cards(["board:Dungeons:move_item_or_ally=bottom"]).tables
    top, bottom = layout(t, HORNED, 2)
    assert top == [code("play_card")] and bottom == [code("fate"), code("gain_power_2"), code("move_item_or_ally")]
    unchanged_except(base, t, HORNED, {2})


def test_a_flip_exchanges_the_rows_and_a_swap_exchanges_two_locations_symbols_only():
    base = load_cards().tables
    t = edited_cards(["board:The Ballroom:flip"]).tables  # shipped with an empty top row
    assert layout(t, TREMAINE, 3) == (layout(base, TREMAINE, 3)[1], [])
    unchanged_except(base, t, TREMAINE, {3})
    t = edited_cards(["board:The Ballroom:swap=The Music Room"]).tables
    assert layout(t, TREMAINE, 3) == layout(base, TREMAINE, 1)
    assert layout(t, TREMAINE, 1) == layout(base, TREMAINE, 3)
    # the Lock, the guest list and the Obstacle spots stay with the location (checked with the rest of locs)
    unchanged_except(base, t, TREMAINE, {1, 3})
    assert t.locs[TREMAINE, 3, K.LC_LOCKED] == 1 and t.locs[TREMAINE, 3, K.LC_ADMITS_ONLY] == 1


def test_edits_compose_in_a_fixed_order_and_round_trip_as_text():
    edits = normalise(["board:Morva:flip", "Get Out!:cost=4", "board:Dungeons:swap=Morva", "board:Morva:fate=bottom"])
    assert [str(e) for e in edits] == [
        "Get Out!:cost=4",
        "board:Morva:swap=Dungeons",  # a swap is written with the board's earlier location first
        "board:Morva:flip",
        "board:Morva:fate=bottom",
    ]
    assert all(parse_edit(str(e)) == e for e in edits)
    assert isinstance(edits[0], CardEdit) and all(isinstance(e, BoardEdit) for e in edits[1:])
    # swap, then flip, then move: Morva gets the Dungeons' symbols (top play_card, move_item_or_ally; bottom
    # fate, gain_power_2), the rows change places, then fate moves to the end of the bottom row
    t = edited_cards(edits).tables
    assert layout(t, HORNED, 0) == (
        [code("gain_power_2")],
        [code("play_card"), code("move_item_or_ally"), code("fate")],
    )
    assert layout(t, HORNED, 2) == ([code("play_card"), code("fate")], [code("discard_cards"), code("gain_power_1")])
    # after the swap Morva has no discard_cards left to move: the combination is refused, naming the edits
    with pytest.raises(EditError, match="do not apply together.*Morva has no discard_cards to move to the top"):
        edited_cards(normalise(["board:Dungeons:swap=Morva", "board:Morva:discard_cards=top"]))


def test_the_catalogue_of_plausible_errors():
    errors = plausible_board_errors()
    moves = [e for e in errors if len(e) == 1 and e[0].op in ("top", "bottom")]
    symbols = sum(len(set(shipped_layout(loc)[row])) for loc in _locations() for row in ("top", "bottom"))
    assert len(moves) == symbols  # every distinct symbol of every row, once
    assert sum(1 for e in errors if len(e) == 4 and all(x.op == "flip" for x in e)) == 3  # one per board
    assert sum(1 for e in errors if e[0].op == "swap") == 3 * 3  # neighbours on each board
    for e in errors:  # each one compiles
        edited_cards(e)


def _locations():
    return [loc for v in load_cards().villains for loc in v.locations]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("board:Nowhere:flip", "unknown location 'Nowhere'; choose from Belle's House"),
        ("board:the woods:flip", "did you mean 'The Woods'?"),
        ("board:The Woods:vanquish=top", "'The Woods' has no 'vanquish' symbol (its symbols: top play_card"),
        ("board:The Woods:fate=bottom", "has no fate in its top row to move to the bottom"),
        ("board:The Woods:fly=top", "unknown board operation 'fly' for 'The Woods'; choose from SYMBOL=top"),
        ("board:The Woods:fate=middle", "fate must move to top or bottom, got 'middle'"),
        ("board:Morva:swap=The Woods", "can swap only with another location of its board; choose from Fair Folk"),
        ("board:Morva:swap=Morva", "can swap only with another location of its board"),
        ("board:Morva", "a board edit looks like board:LOCATION:OPERATION"),
        ("board:Morva:fate", "'fate' needs a value"),
    ],
)
def test_bad_board_edits_are_refused_in_one_line(edit, message):
    with pytest.raises(EditError) as exc:
        parse_edit(edit)
    assert message in str(exc.value)
    res = runner.invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "5", "--edit", edit])
    assert res.exit_code == 2, res.output
    assert message in res.output and len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_board_edits_in_experiment_files(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text('[board."The Woods"]\nfate = "top"\n[board.Morva]\nflip = true\nswap = "Dungeons"\n')
    exp = load_experiment(str(path))
    assert [str(e) for e in exp.edits] == ["board:Morva:swap=Dungeons", "board:Morva:flip", "board:The Woods:fate=top"]
    for text, message in (
        ('[board."The Woods"]\nfate = "up"', r'b.toml: \[board."The Woods"\] fate: .*must move to top or bottom'),
        ("[board.Morva]\nflip = 1", r"b.toml: \[board.\"Morva\"\] flip: 'Morva' flip must be true"),
        ("[board.Atlantis]\nflip = true", "b.toml: .*unknown location 'Atlantis'"),
        ('[board]\nMorva = "flip"', "b.toml: .*must be a table"),
    ):
        path.write_text(text)
        with pytest.raises(ConfigError, match=message):
            load_experiment(str(path))
        res = runner.invoke(app, ["run", "--config", str(path), "-m", "gaston-vs-horned-king", "-n", "5"])
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output


def test_a_board_edit_changes_that_villains_games_and_no_others():
    from simlab.studies.whatif import winner_indices

    edit = ["board:Belle's House:flip", "board:The Tavern:flip", "board:The Woods:flip", "board:Beast's Castle:flip"]
    base = winner_indices("gaston-vs-horned-king", 150, 3, max_turns=40)
    flipped = winner_indices("gaston-vs-horned-king", 150, 3, max_turns=40, edits=edit)
    assert (base != flipped).sum() >= 10  # Gaston's board is read by the games
    other = "lady-tremaine-vs-horned-king"
    assert np.array_equal(
        winner_indices(other, 150, 3, max_turns=40), winner_indices(other, 150, 3, max_turns=40, edits=edit)
    )
