"""The test villain, the Tinker (``tests/villains/extra/``): a villain defined only in a test folder, with a new
ability (Clockwork Swoon: gain 2 Power, draw a card), a new objective (start a turn with 12 Power) and a plan,
registered through ``simlab.villains.PATH_VARIABLE`` with no core file changed. Full games against Gaston under
every strategy kind end, keep every invariant, resolve the new ability and are won by the new objective."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simlab import villains as V

ROOT = Path(__file__).resolve().parents[2]
EXTRA = Path(__file__).resolve().parent / "extra"
KINDS = ("random", "novice", "expert")
GAMES = 100  # a kind, half with the Tinker first

PLAY = """
import json, sys
import simlab.villains as V
from simlab.game import warmup
from simlab.game.api import Game
from simlab.game.invariants import INVARIANTS, play_checked_nb
from simlab.kernels import const as K
from strategies.heuristic import W_PROGRESS
from strategies.plans import answers, plan_of

games, kinds = int(sys.argv[1]), sys.argv[2].split(",")
warmup.ensure()
out = {"registry": list(V.REGISTRY), "games": 0, "broken": {}, "swoons": 0, "resolved": 0, "ends": {}}
out["plan answers"] = sorted(answers(plan_of("tinker").plan_nb)) == [W_PROGRESS]
for kind in kinds:
    for i in range(games):
        villains = ("tinker", "gaston") if i % 2 == 0 else ("gaston", "tinker")
        game = Game.new(villains, seed=7, game_index=i, strategies=(kind, kind), log_capacity=1 << 16)
        st = game.state
        steps, broken = play_checked_nb(st, game.cards.tables, game.rules, 200_000)
        out["games"] += 1
        if broken:
            out["broken"][INVARIANTS[broken - 1]] = out["broken"].get(INVARIANTS[broken - 1], 0) + 1
        if not game.over:
            out["broken"]["not over"] = out["broken"].get("not over", 0) + 1
        tinker = villains.index("tinker")
        end = "tinker" if game.winner == tinker else "gaston" if game.winner >= 0 else "cap"
        out["ends"].setdefault(kind, {}).setdefault(f"{end} {game.end_reason}", 0)
        out["ends"][kind][f"{end} {game.end_reason}"] += 1
        log = st.log[: int(st.g[K.G_LOG_N])]
        for j, (ev, seat, a, *_rest) in enumerate(log):
            if ev != K.EV_PLAY or seat != tinker or game.card_name(seat, a) != "Clockwork Swoon":
                continue
            out["swoons"] += 1
            # resolved: the Tinker gains 2 Power, then draws, before his next action or the end of his turn
            seen = []
            for row in log[j + 1 :]:
                if row[0] in (K.EV_PLAY, K.EV_ACTIVATE, K.EV_MOVE_MOVER, K.EV_END_TURN, K.EV_TURN, K.EV_WIN):
                    break
                if row[1] == tinker and (row[0] == K.EV_GAIN and row[2] == 2 or row[0] == K.EV_DRAW):
                    seen.append(int(row[0]))
            out["resolved"] += seen[:2] == [K.EV_GAIN, K.EV_DRAW]
print(json.dumps(out))
"""


def play(kinds=KINDS, games=GAMES, extra=EXTRA) -> dict:
    env = dict(os.environ, **{V.PATH_VARIABLE: str(extra)})
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(games), ",".join(kinds)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=3600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_test_villain_plays_full_games_from_its_folder_alone():
    out = play()
    assert out["registry"] == [*V.SHIPPED, "tinker"]
    assert out["plan answers"]  # his plan is found in his folder's plans/ and asked what it answers
    assert out["games"] == GAMES * len(KINDS)
    assert out["broken"] == {}, out["broken"]  # every game ended within its step budget, every invariant held
    assert out["swoons"] > 0 and out["resolved"] == out["swoons"], out  # his new ability resolved each time
    for kind in KINDS:  # and his new objective wins games under every kind of play
        assert out["ends"][kind].get("tinker objective", 0) > 0, out["ends"]
