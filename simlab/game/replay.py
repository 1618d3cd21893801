"""Replay one game of a run as a readable log (text) or as a list of records."""

from __future__ import annotations

from dataclasses import dataclass, field

from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.game.api import Game
from simlab.kernels import const as K

LOG_CAPACITY = 1 << 16


@dataclass
class Replay:
    game: Game
    records: list[dict] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(r["text"] for r in self.records)


def replay(
    matchup: str | tuple[str, ...],
    seed: int = 0,
    game_index: int = 0,
    strategies: tuple[str, ...] | None = None,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    edits=None,
) -> Replay:
    """Play game ``game_index`` of run ``seed`` again (with the run's card ``edits``), logging every event."""
    from simlab.data.edits import edited_cards

    game = Game.new(
        matchup,
        seed,
        game_index,
        strategies,
        variants,
        max_turns,
        log_capacity=LOG_CAPACITY,
        cards=edited_cards(edits),
    )
    out = Replay(game)
    st = game.state
    seen = 0
    while not game.over:
        phase = int(st.g[K.G_PHASE])
        seat = int(st.g[K.G_ACTIVE])
        game.play(max_steps=1)
        n = int(st.g[K.G_LOG_N])
        for row in st.log[seen:n]:
            rec = describe(game, row)
            if rec is not None:
                out.records.append(rec)
        seen = n
        if phase == K.PH_END or game.over:
            out.records.append(status(game, seat))
    out.records.append(result(game))
    return out


def _card(game: Game, seat: int, k: int) -> str:
    return game.card_name(seat, k) if 0 <= k < K.N_INST else "?"


def _loc(game: Game, seat: int, loc: int) -> str:
    return game.location_name(seat, loc) if 0 <= loc < K.N_LOC else "-"


def describe(game: Game, row) -> dict | None:
    """A record (with a ``text`` line) for one log event, or None for bookkeeping events."""
    ev, seat, a, b, c, d = (int(x) for x in row)
    who = game.cards.villains[int(game.state.sv[seat, K.SV_VILLAIN])].name if seat >= 0 else ""
    rec = {"event": ev, "seat": seat, "villain": who}
    if ev == K.EV_TURN:
        rec.update(round=a, power=b, text=f"\n== Round {a}: {who} (Power {b}) ==")
    elif ev == K.EV_MOVE_MOVER:
        rec.update(location=_loc(game, seat, a), text=f"  moves to {_loc(game, seat, a)}")
    elif ev == K.EV_GAIN:
        rec.update(amount=a, power=b, text=f"  gains {a} Power (now {b})")
    elif ev == K.EV_PLAY:
        where = f" to {_loc(game, seat, b)}" if b >= 0 else ""
        on = f" on {_card(game, seat, c)}" if c >= 0 else ""
        rec.update(card=_card(game, seat, a), cost=d, text=f"  plays {_card(game, seat, a)}{where}{on} (cost {d})")
    elif ev == K.EV_ACTIVATE:
        name = game.villain_of(seat).tile[0] if a < 0 else _card(game, seat, a)
        rec.update(card=name, cost=b, text=f"  activates {name} (cost {b})")
    elif ev == K.EV_MOVE_CARD:
        rec.update(
            card=_card(game, seat, a),
            text=f"  {_card(game, seat, a)} moves {_loc(game, seat, b)} -> {_loc(game, seat, c)}",
        )
    elif ev == K.EV_FATE:
        target = game.cards.villains[int(game.state.sv[a, K.SV_VILLAIN])].name
        rec.update(target=target, text=f"  Fates {target}")
    elif ev == K.EV_REVEAL:
        rec.update(card=_card(game, seat, a), text=f"    reveals {_card(game, seat, a)}")
    elif ev == K.EV_FATE_PLAY:
        where = f" to {_loc(game, seat, b)}" if b >= 0 else ""
        on = f" on {_card(game, seat, c)}" if c >= 0 else ""
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} is played in {who}'s Realm{where}{on}")
    elif ev == K.EV_FATE_DISCARD:
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} is discarded")
    elif ev == K.EV_VANQUISH:
        rec.update(
            card=_card(game, seat, a), text=f"  vanquishes {_card(game, seat, a)} (Strength {c}) with {b} Allies"
        )
    elif ev == K.EV_DEFEAT:
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} is defeated")
    elif ev == K.EV_DISCARD:
        rec.update(card=_card(game, seat, a), text=f"    {who} discards {_card(game, seat, a)}")
    elif ev == K.EV_DRAW:
        rec.update(card=_card(game, seat, a), text=f"    {who} draws {_card(game, seat, a)}")
    elif ev == K.EV_OBSTACLE_REMOVE:
        rec.update(
            location=_loc(game, seat, a), left=b, text=f"    Obstacle removed at {_loc(game, seat, a)} ({b} left)"
        )
    elif ev == K.EV_OBSTACLE_REPLACE:
        rec.update(
            location=_loc(game, seat, a),
            left=b,
            text=f"    Obstacle replaced at {_loc(game, seat, a)} ({b} on the board)",
        )
    elif ev == K.EV_TRAP:
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} is Trapped")
    elif ev == K.EV_UNTRAP:
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} is no longer Trapped")
    elif ev == K.EV_TILE:
        side = "not claimed" if a == 0 else game.villain_of(seat).tile[a - 1]
        rec.update(tile=side, text=f"    {game.villain_of(seat).tile[0]} shows {side}")
    elif ev == K.EV_CONDITION:
        rec.update(card=_card(game, seat, a), text=f"  {who} plays the Condition {_card(game, seat, a)}")
    elif ev == K.EV_SWAP:
        rec.update(
            location=_loc(game, seat, c),
            text=f"  swaps {_card(game, seat, a)} for {_card(game, seat, b)} at {_loc(game, seat, c)} (cost {d})",
        )
    elif ev == K.EV_SHUFFLE:
        rec.update(text=f"    {who} shuffles {'the Fate' if a else 'the Villain'} discard pile into the deck")
    elif ev == K.EV_UNLOCK:
        rec.update(location=_loc(game, seat, a), text=f"    {_loc(game, seat, a)} is unlocked")
    elif ev == K.EV_POWER_LOSS:
        rec.update(amount=a, power=b, text=f"    {who} loses {a} Power (now {b})")
    elif ev == K.EV_TO_HAND:
        rec.update(card=_card(game, seat, a), text=f"    {_card(game, seat, a)} returns to {who}'s hand")
    elif ev == K.EV_WIN:
        rec.update(text=f"\n*** {who} wins in round {a} ***")
    elif ev == K.EV_TURN_CAP:
        rec.update(text=f"\n*** turn cap of {a} rounds reached: the game is unfinished ***")
    else:
        return None
    return rec


def status(game: Game, seat: int) -> dict:
    """End-of-turn summary of a seat: Power, Obstacles (a board with Obstacle spots), Heroes, the tile."""
    v = game.villain_of(seat)
    parts = [f"Power {game.power(seat)}", f"hand {len(game.hand(seat))}"]
    if game.cards.tables.locs[v.row, :, K.LC_SPOTS].any():
        parts.append(f"Obstacles {sum(game.obstacles(seat))}")
    if v.tile:
        parts.append(f"{v.tile[0]}: {game.tile_side(seat)}")
    heroes = game.heroes(seat)
    parts.append("Heroes: " + (", ".join(heroes) if heroes else "none"))
    return {"event": -1, "seat": seat, "villain": v.name, "text": f"  [{v.name}: " + "; ".join(parts) + "]"}


def result(game: Game) -> dict:
    if game.winner >= 0:
        v = game.villain_of(game.winner)
        text = f"Winner: {v.name} ({v.won_text}) after {game.rounds} rounds"
    else:
        text = f"No winner: unfinished at the turn cap ({game.rounds - 1} rounds)"
    return {"event": -2, "seat": game.winner, "villain": "", "text": text}
