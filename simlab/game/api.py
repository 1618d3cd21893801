"""Engine API: validate input, build a game, play it, read its state in the game's words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.data.cards import VILLAIN_KEYS, CardSet, load_cards, unknown_villain
from simlab.data.rules import DEFAULT_MAX_TURNS, rules_array
from simlab.errors import InputError, StrategyError
from simlab.kernels import const as K
from simlab.kernels.query import strength_nb
from simlab.kernels.rules import setup_nb
from simlab.kernels.state import State, new_state
from simlab.villains import card_types
from strategies import StrategySpec, resolve

MAX_STEPS = 1 << 40
DEFAULT_STRATEGY = "expert"  # plays every seat no strategy is given for


def check_villain(villain: str) -> str:
    """``villain`` if it is a villain key, else an InputError naming the choices."""
    if villain not in VILLAIN_KEYS:
        raise InputError(unknown_villain(villain))
    return villain


def parse_matchup(text: str) -> tuple[str, ...]:
    """``"<key>-vs-<key>"`` -> ``("<key>", "<key>")`` (2 or 3 different villains' keys)."""
    parts = tuple(p.strip() for p in str(text).lower().split("-vs-"))
    if len(parts) not in (2, 3) or any(not p for p in parts):
        raise InputError(
            f"malformed matchup {text!r}; write VILLAIN-vs-VILLAIN[-vs-VILLAIN] with villains from "
            f"{', '.join(VILLAIN_KEYS)}"
        )
    for p in parts:
        if p not in VILLAIN_KEYS:
            raise InputError(unknown_villain(p, f"in matchup {text!r}"))
    if len(parts) == 3 and len(set(parts)) != 3:
        raise InputError(f"a 3-player matchup needs three different villains, got {text!r}")
    return parts


def strategy_spec(strategy: str | StrategySpec) -> StrategySpec:
    """A strategy by name, by ``configs/strategies/`` name or by TOML path (errors as InputError)."""
    if isinstance(strategy, StrategySpec):
        return strategy
    try:
        return resolve(str(strategy))
    except StrategyError as exc:
        raise InputError(str(exc)) from None


def strategy_arrays(strategies) -> tuple[np.ndarray, np.ndarray]:
    """Kernel ids (int64, (P,)) and parameter rows (float64, (P, N_SPARAMS)) of one strategy per seat."""
    specs = [strategy_spec(s) for s in strategies]
    return np.array([s.kernel for s in specs], np.int64), np.stack([s.vector() for s in specs])


def check_seed(seed: int) -> int:
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0 or seed >= 2**63:
        raise InputError(f"seed must be an integer in [0, 2**63), got {seed!r}")
    return int(seed)


@dataclass
class Game:
    """One game: its state arrays plus the tables and rules it is played with."""

    state: State
    cards: CardSet
    rules: np.ndarray
    villains: tuple[str, ...]

    @classmethod
    def new(
        cls,
        villains: tuple[str, ...] | str,
        seed: int = 0,
        game_index: int = 0,
        strategies: tuple[str, ...] | None = None,
        variants: dict[str, str] | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        log_capacity: int = 0,
        cards: CardSet | None = None,
    ) -> Game:
        """Set up game ``game_index`` of run ``seed``; seat 0 is ``villains[0]`` and plays first."""
        if isinstance(villains, str):
            villains = parse_matchup(villains)
        cards = cards or load_cards()
        seed = check_seed(seed)
        if not isinstance(game_index, int | np.integer) or isinstance(game_index, bool) or not 0 <= game_index < 2**63:
            raise InputError(f"game_index must be an integer in [0, 2**63), got {game_index!r}")
        strategies = strategies or (DEFAULT_STRATEGY,) * len(villains)
        if len(strategies) != len(villains):
            raise InputError("one strategy per villain")
        st = new_state(len(villains), log_capacity)
        ru = rules_array(variants, max_turns)
        vrows = np.array([cards.villain(v).row for v in villains], np.int64)
        kernels, params = strategy_arrays(strategies)
        slots = np.arange(len(villains), dtype=np.int64)
        setup_nb(st, cards.tables, ru, vrows, slots, kernels, params, np.uint64(seed), np.uint64(game_index))
        return cls(st, cards, ru, tuple(villains))

    # ------------------------------------------------------------------ playing
    def play(self, max_steps: int = MAX_STEPS) -> Game:
        """Play ``max_steps`` more steps (a phase of a turn, or an action with everything it sets off), or to
        the end, each seat's strategy answering its decisions."""
        from simlab.game import warmup

        warmup.ensure_players(self.state.sv[:, K.SV_STRATEGY])  # says so when the kernels compile (first run only)
        from simlab.game.driver import play_nb

        play_nb(self.state, self.cards.tables, self.rules, max_steps)
        return self

    @property
    def over(self) -> bool:
        """The game has ended (a winner or the turn cap) and nothing is left to resolve."""
        g = self.state.g
        return int(g[K.G_PHASE]) == K.PH_OVER and int(g[K.G_SP]) == 0 and int(g[K.G_ASK]) == 0

    @property
    def winner(self) -> int:
        return int(self.state.g[K.G_WINNER])

    @property
    def end_reason(self) -> str:
        return K.END_REASONS[int(self.state.g[K.G_END])]

    @property
    def rounds(self) -> int:
        return int(self.state.g[K.G_ROUND])

    # ------------------------------------------------------------------ reading the state
    def card_name(self, seat: int, k: int) -> str:
        return self.cards.cards[int(self.state.inst[seat, k, K.I_CARD])].name

    def location_name(self, seat: int, loc: int) -> str:
        return self.cards.villains[int(self.state.sv[seat, K.SV_VILLAIN])].locations[loc]

    def zone(self, seat: int, zone: int) -> list[str]:
        inst = self.state.inst[seat]
        return sorted(self.card_name(seat, k) for k in range(K.N_INST) if inst[k, K.I_ZONE] == zone)

    def hand(self, seat: int) -> list[str]:
        return self.zone(seat, K.Z_HAND)

    def power(self, seat: int) -> int:
        return int(self.state.sv[seat, K.SV_POWER])

    def obstacles(self, seat: int) -> list[int]:
        return [int(self.state.sv[seat, K.SV_OBST + i]) for i in range(K.N_LOC)]

    def villain_of(self, seat: int):
        """The :class:`simlab.data.cards.Villain` playing ``seat``."""
        return self.cards.villains[int(self.state.sv[seat, K.SV_VILLAIN])]

    def tile_side(self, seat: int) -> str:
        """The side of the seat's tile that shows, or "not claimed"."""
        side = int(self.state.sv[seat, K.SV_TILE])
        return "not claimed" if side == 0 else self.villain_of(seat).tile[side - 1]

    def realm(self, seat: int) -> dict[str, list[dict]]:
        """Cards in play by location: name, type, Strength, Trapped, attached Items."""
        st, tb = self.state, self.cards.tables
        out: dict[str, list[dict]] = {}
        for loc in range(K.N_LOC):
            rows = []
            for k in range(K.N_INST):
                if st.inst[seat, k, K.I_ZONE] != K.Z_REALM or st.inst[seat, k, K.I_LOC] != loc:
                    continue
                if st.inst[seat, k, K.I_HOST] >= 0:
                    continue
                c = int(st.inst[seat, k, K.I_CARD])
                entry = {"card": self.cards.cards[c].name, "type": card_types()[tb.card[c, K.CF_TYPE]], "instance": k}
                if tb.card[c, K.CF_TYPE] in (K.T_ALLY, K.T_HERO):
                    entry["strength"] = int(strength_nb(st, tb, seat, k))
                if st.inst[seat, k, K.I_TRAPPED]:
                    entry["trapped"] = True
                items = [
                    self.card_name(seat, j)
                    for j in range(K.N_INST)
                    if st.inst[seat, j, K.I_ZONE] == K.Z_REALM and st.inst[seat, j, K.I_HOST] == k
                ]
                if items:
                    entry["items"] = items
                rows.append(entry)
            out[self.location_name(seat, loc)] = rows
        return out

    def locate(self, seat: int, card: str) -> list[dict]:
        """Where every copy of ``card`` of ``seat`` is: its zone (``ZONE_NAMES``), and in the Realm its location,
        the card it is attached to (``host``), the Items attached to it and its Trapped token."""
        st = self.state
        try:
            row = self.cards.card(card).row
        except KeyError as exc:
            raise InputError(str(exc)) from None
        out = []
        for k in range(K.N_INST):
            if st.inst[seat, k, K.I_CARD] != row or st.inst[seat, k, K.I_ZONE] == K.Z_OUT:
                continue
            zone = int(st.inst[seat, k, K.I_ZONE])
            found = {"card": card, "instance": k, "zone": K.ZONE_NAMES[zone]}
            if zone == K.Z_REALM:
                found["location"] = self.location_name(seat, int(st.inst[seat, k, K.I_LOC]))
                host = int(st.inst[seat, k, K.I_HOST])
                if host >= 0:
                    found["host"] = self.card_name(seat, host)
                found["items"] = [
                    self.card_name(seat, j)
                    for j in range(K.N_INST)
                    if st.inst[seat, j, K.I_ZONE] == K.Z_REALM and st.inst[seat, j, K.I_HOST] == k
                ]
                found["trapped"] = bool(st.inst[seat, k, K.I_TRAPPED])
            out.append(found)
        return out

    def heroes(self, seat: int) -> list[str]:
        return [e["card"] for cards in self.realm(seat).values() for e in cards if e["type"] == "Hero"]
