"""Invariants over many random games (hypothesis): every pairing, mirrors, 3 players, all rule variants."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from simlab.game import Game
from simlab.kernels import const as K
from simlab.kernels.query import objective_met_nb
from simlab.rules import RULE_VARIANTS

MATCHUPS = [
    "gaston-vs-lady-tremaine",
    "gaston-vs-horned-king",
    "lady-tremaine-vs-horned-king",
    "gaston-vs-gaston",
    "lady-tremaine-vs-lady-tremaine",
    "horned-king-vs-horned-king",
    "lady-tremaine-vs-gaston-vs-horned-king",
]
VERSIONS = [
    ("Cinderella", "Ball Gown Cinderella"),
    ("Drizella", "Ball Gown Drizella"),
    ("Anastasia", "Ball Gown Anastasia"),
]

variant_settings = hs.fixed_dictionaries({name: hs.sampled_from(list(v.values)) for name, v in RULE_VARIANTS.items()})


def check_invariants(game: Game) -> None:
    st, tb = game.state, game.cards.tables
    P = int(st.g[K.G_NSEATS])
    for s in range(P):
        inst = st.inst[s]
        zones = inst[:, K.I_ZONE]
        # every card in exactly one place: deck arrays hold exactly the instances whose zone says deck
        vdeck = st.vdeck[s, : st.sv[s, K.SV_VDECK_N]]
        fdeck = st.fdeck[s, : st.sv[s, K.SV_FDECK_N]]
        assert sorted(vdeck.tolist()) == sorted(np.flatnonzero(zones == K.Z_VDECK).tolist())
        assert sorted(fdeck.tolist()) == sorted(np.flatnonzero(zones == K.Z_FDECK).tolist())
        assert not (zones == K.Z_LIMBO).any(), "a card was left in limbo between steps"
        for z in range(K.N_ZONES):  # the zone masks the engine keeps agree with the zones
            assert int(st.sv[s, K.SV_ZONE + z]) == sum(1 << int(k) for k in np.flatnonzero(zones == z)), z
        assert (zones[: K.N_VCARDS] != K.Z_FDECK).all() and (zones[: K.N_VCARDS] != K.Z_FDISCARD).all()
        assert (zones[K.N_VCARDS :] != K.Z_VDECK).all() and (zones[K.N_VCARDS :] != K.Z_HAND).all()
        for k in range(K.N_INST):
            in_realm = zones[k] == K.Z_REALM
            assert (0 <= inst[k, K.I_LOC] < K.N_LOC) == in_realm
            host = inst[k, K.I_HOST]
            if host >= 0:
                assert in_realm and zones[host] == K.Z_REALM and inst[host, K.I_LOC] == inst[k, K.I_LOC]
            if inst[k, K.I_TRAPPED]:
                assert in_realm and tb.card[inst[k, K.I_CARD], K.CF_TYPE] == K.T_HERO
        assert st.sv[s, K.SV_POWER] >= 0, "Power went negative"
        v = int(st.sv[s, K.SV_VILLAIN])
        for loc in range(K.N_LOC):
            assert 0 <= st.sv[s, K.SV_OBST + loc] <= tb.locs[v, loc, K.LC_SPOTS]
        assert 0 <= sum(game.obstacles(s)) <= 8
        traps = int(inst[:, K.I_TRAPPED].sum())
        assert traps + st.sv[s, K.SV_TRAPS] == tb.vil[v, K.VF_TRAPS]
        realm = {game.card_name(s, k) for k in range(K.N_INST) if zones[k] == K.Z_REALM}
        for a, b in VERSIONS:
            assert not (a in realm and b in realm), f"two versions of a character in play: {a}, {b}"


def play_checked(game: Game, max_steps: int = 200_000) -> Game:
    steps = 0
    while not game.over:
        game.play(max_steps=1)
        check_invariants(game)
        steps += 1
        assert steps < max_steps, "the game did not end"
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    matchup=hs.sampled_from(MATCHUPS),
    seed=hs.integers(0, 2**40),
    index=hs.integers(0, 10**6),
    variants=variant_settings,
    max_turns=hs.integers(1, 40),
)
def test_random_games_keep_the_invariants(matchup, seed, index, variants, max_turns):
    game = play_checked(Game.new(matchup, seed, index, variants=variants, max_turns=max_turns))
    assert game.over
    if game.winner >= 0:
        assert game.end_reason == "objective"
        assert objective_met_nb(game.state, game.cards.tables, game.winner), "the winner's objective does not hold"
    else:
        assert game.end_reason == "turn_cap"
        assert game.rounds == max_turns + 1


def test_every_matchup_reaches_wins_for_each_villain():
    """Over enough random games every villain's objective is reached somewhere (so the checks above bite)."""
    winners = set()
    for i in range(400):
        game = Game.new("lady-tremaine-vs-gaston-vs-horned-king", 11, i, max_turns=150).play()
        if game.winner >= 0:
            winners.add(game.villains[game.winner])
    assert winners == {"gaston", "lady-tremaine", "horned-king"}
