"""Invariants after every step of random games (hypothesis), through the engine API: every pairing, mirrors and
the 3-player game, every strategy on any seat (random, novice, expert, fate-heavy and a strategy file), every
rule variant. The invariants are defined once, in simlab.game.invariants (benchmarks/check_invariants.py
checks the same ones over a million random-strategy games)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from simlab.data.rules import RULE_VARIANTS
from simlab.game.api import Game
from simlab.game.invariants import (
    BETWEEN,
    CARDS,
    INVARIANTS,
    OBSTACLES,
    POWER,
    QUERIES,
    TERMINATION,
    TRAPS,
    VERSIONS,
    WINNER,
    check_nb,
)
from simlab.kernels import const as K
from simlab.kernels.state import copy_state

MATCHUPS = [
    "gaston-vs-lady-tremaine",
    "gaston-vs-horned-king",
    "lady-tremaine-vs-horned-king",
    "gaston-vs-gaston",
    "lady-tremaine-vs-lady-tremaine",
    "horned-king-vs-horned-king",
    "lady-tremaine-vs-gaston-vs-horned-king",
]
STRATEGY_FILE = str(Path(__file__).resolve().parents[1] / "configs" / "strategies" / "gaston-rush.toml")
STRATEGIES = ["random", "novice", "expert", "fate-heavy", STRATEGY_FILE]

variant_settings = hs.fixed_dictionaries({name: hs.sampled_from(list(v.values)) for name, v in RULE_VARIANTS.items()})


def broken(game: Game) -> int:
    return int(check_nb(game.state, game.cards.tables, game.rules))


def play_checked(game: Game, max_steps: int = 100_000) -> int:
    """Play ``game`` to its end one step at a time, every invariant checked after setup and after each step;
    the steps played."""
    code = broken(game)
    assert code == 0, f"{INVARIANTS[code - 1]} broken at setup"
    steps = 0
    while not game.over:
        game.play(max_steps=1)
        steps += 1
        code = broken(game)
        assert code == 0, f"{INVARIANTS[code - 1]} broken after step {steps} (round {game.rounds})"
        assert steps < max_steps, "the game did not end"
    return steps


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    matchup=hs.sampled_from(MATCHUPS),
    seed=hs.integers(0, 2**40),
    index=hs.integers(0, 10**6),
    variants=variant_settings,
    max_turns=hs.integers(1, 40),
    seats=hs.lists(hs.sampled_from(STRATEGIES), min_size=3, max_size=3),
)
def test_random_games_keep_the_invariants(matchup, seed, index, variants, max_turns, seats):
    villains = tuple(matchup.split("-vs-"))
    game = Game.new(matchup, seed, index, strategies=tuple(seats[: len(villains)]), variants=variants,
                    max_turns=max_turns)  # fmt: skip
    play_checked(game)
    assert game.over and broken(game) == 0  # a legal winner, or none at the turn cap


@pytest.mark.parametrize(
    "strategy",
    [*STRATEGIES, "apprentice", "learned"],
    ids=["random", "novice", "expert", "fate-heavy", "file", "apprentice", "learned"],
)
def test_every_strategy_plays_every_matchup_under_the_checks(strategy):
    """Each strategy on every seat of every matchup, to the end, checked after every step (the property test
    draws scripted strategies at random; this makes sure each one is played, and the apprentice with its shipped
    model, and the shipped learned generation's search, which cost too much per game to draw)."""
    for i, matchup in enumerate(MATCHUPS):
        seats = len(matchup.split("-vs-"))
        game = Game.new(matchup, 17, i, strategies=(strategy,) * seats, max_turns=30)
        assert play_checked(game) > 30 * seats  # whole turns were played and checked


def _to_realm(st, s: int, k: int, loc: int) -> None:
    """Move instance ``k`` of seat ``s`` into the Realm at ``loc``, keeping the deck arrays and zone masks
    consistent."""
    zone = st.inst[s, k, K.I_ZONE]
    st.sv[s, K.SV_ZONE + zone] &= ~(1 << k)
    st.sv[s, K.SV_ZONE + K.Z_REALM] |= 1 << k
    if zone in (K.Z_VDECK, K.Z_FDECK):
        deck, n = (st.vdeck, K.SV_VDECK_N) if zone == K.Z_VDECK else (st.fdeck, K.SV_FDECK_N)
        cards = [int(c) for c in deck[s, : st.sv[s, n]] if c != k]
        deck[s, : len(cards)] = cards
        st.sv[s, n] = len(cards)
    st.inst[s, k, K.I_ZONE] = K.Z_REALM
    st.inst[s, k, K.I_LOC] = loc
    st.inst[s, k, K.I_HOST] = -1
    if st.inst[s, k, K.I_PASSIVE] != K.AB_NONE:
        st.sv[s, K.SV_REALM_PASSIVES] |= 1 << (st.inst[s, k, K.I_PASSIVE] - K.FIRST_PASSIVE)


def test_each_invariant_catches_a_state_broken_its_way():
    """The checks can fail: a copy of a real mid-game position, broken one way at a time, is caught by the
    invariant that names that way (and the unbroken position passes)."""
    game = Game.new("lady-tremaine-vs-gaston", 3, 0, strategies=("expert", "expert"), max_turns=30).play(60)
    assert not game.over and broken(game) == 0
    names = {c.name: c.row for c in game.cards.cards}

    def instance(seat, card):
        return int(np.flatnonzero(game.state.inst[seat, :, K.I_CARD] == names[card])[0])

    def dup_deck(st):
        st.vdeck[0, 1] = st.vdeck[0, 0]

    def fate_card_in_hand(st):
        st.inst[0, 40, K.I_ZONE] = K.Z_HAND

    def stale_zone_mask(st):  # a card moved without its zone mask following
        k = instance(0, "Wedding Bells")
        st.sv[0, K.SV_ZONE + st.inst[0, k, K.I_ZONE]] ^= 1 << k

    def stale_realm_passives(st):  # a card with an ongoing ability reached the Realm behind set_zone_nb's back
        k = instance(1, "Wolves")
        if st.inst[1, k, K.I_ZONE] == K.Z_REALM:
            k = next(
                j
                for j in range(K.N_VCARDS)
                if st.inst[1, j, K.I_PASSIVE] != K.AB_NONE and st.inst[1, j, K.I_ZONE] != K.Z_REALM
            )
        _to_realm(st, 1, k, 0)
        st.sv[1, K.SV_REALM_PASSIVES] = 0

    def two_versions(st):
        _to_realm(st, 0, instance(0, "Anastasia"), 0)
        _to_realm(st, 0, instance(0, "Ball Gown Anastasia"), 1)

    def phantom_trap(st):
        st.sv[1, K.SV_TRAPS] += 1

    def winner_without_objective(st):
        st.g[K.G_PHASE] = K.PH_OVER
        st.g[K.G_WINNER] = 1
        st.g[K.G_END] = K.END_OBJECTIVE

    def over_before_the_cap(st):
        st.g[K.G_PHASE] = K.PH_OVER
        st.g[K.G_END] = K.END_TURN_CAP

    breakers = [
        (CARDS, dup_deck),
        (CARDS, fate_card_in_hand),
        (CARDS, stale_zone_mask),
        (CARDS, stale_realm_passives),
        (POWER, lambda st: st.sv[0].__setitem__(K.SV_POWER, -1)),
        (OBSTACLES, lambda st: st.sv[1].__setitem__(K.SV_OBST, 9)),
        (VERSIONS, two_versions),
        (TRAPS, phantom_trap),
        (TERMINATION, lambda st: st.g.__setitem__(K.G_ROUND, 32)),
        (WINNER, winner_without_objective),
        (WINNER, over_before_the_cap),
        (BETWEEN, lambda st: st.g.__setitem__(K.G_ASK, 1)),
    ]
    for code, breaker in breakers:
        st = copy_state(game.state)
        breaker(st)
        got = int(check_nb(st, game.cards.tables, game.rules))
        assert got == code, (breaker, INVARIANTS[got - 1] if got else "nothing")


def test_the_query_check_catches_a_shortcut_that_changes_an_answer():
    """Invariant 9 compares the queries' shortcuts with their definitions: tables whose VF_PASSIVES forget
    Cinderella's "Effects cost 2 more" make the shortcut answer 0 with her in the Realm, and the check says so."""
    game = Game.new("lady-tremaine-vs-gaston", 3, 0, strategies=("expert", "expert"), max_turns=30).play(60)
    tb = game.cards.tables
    st = copy_state(game.state)
    cinderella = game.cards.card("Cinderella").row
    k = int(np.flatnonzero(st.inst[0, :, K.I_CARD] == cinderella)[0])
    if st.inst[0, k, K.I_ZONE] != K.Z_REALM:
        _to_realm(st, 0, k, 1)
    assert st.inst[0, k, K.I_TRAPPED] == 0
    assert int(check_nb(st, tb, game.rules)) == 0
    vil = tb.vil.copy()
    vil[st.sv[0, K.SV_VILLAIN], K.VF_PASSIVES] = 0
    got = int(check_nb(st, tb._replace(vil=vil), game.rules))
    assert got == QUERIES, INVARIANTS[got - 1] if got else "nothing"


def test_every_villain_wins_somewhere_so_the_winner_check_bites():
    """Over enough games every villain's objective is reached (so the legal-winner check is exercised)."""
    winners = set()
    for i in range(400):
        game = Game.new("lady-tremaine-vs-gaston-vs-horned-king", 11, i, max_turns=150).play()
        assert broken(game) == 0
        if game.winner >= 0:
            winners.add(game.villains[game.winner])
        if len(winners) == 3:
            break
    assert winners == {"gaston", "lady-tremaine", "horned-king"}
