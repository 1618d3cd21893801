"""Scenario API: build a position from a readable description, list the legal options, apply one.

A scenario is a game stopped at a decision: the engine holds the pending decision in the state (see
:mod:`simlab.kernels.rules`), the scenario lists its options, applies the one you pick and lets the engine
play on to the next decision. Every decision of every player comes here (no strategy is asked); forced
choices (a single option) are taken by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.data.cards import CardSet
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import InputError
from simlab.game.api import Game, strategy_spec
from simlab.kernels import const as K
from simlab.kernels.rules import advance_nb, apply_nb, put_in_realm_nb, put_on_fate_deck_nb, take_from_deck_nb
from simlab.kernels.state import State, copy_state, index_zones_nb

PHASES = {name: i for i, name in enumerate(K.PHASE_NAMES)}
ALL_STEPS = 1 << 62


@dataclass(frozen=True)
class Option:
    """One legal option of a pending decision."""

    index: int
    code: str  # O_* name: pass, gain, play, activate, move, fate, vanquish, discard, location, card, mode, ...
    label: str  # readable, e.g. "play <card>", "vanquish <Hero>", "location <location>"
    row: tuple[int, int, int, int]


@dataclass(frozen=True)
class Decision:
    player: int  # seat deciding
    kind: str  # DECISION_NAMES
    context: int  # the ability (AB_*) or trigger being resolved
    options: tuple[Option, ...]
    realm: int  # seat whose Realm the options concern

    def find(self, label: str) -> int:
        """Index of the option whose label is ``label`` (exact) or contains it (unique)."""
        exact = [o.index for o in self.options if o.label == label]
        if exact:
            return exact[0]
        hits = [o.index for o in self.options if label in o.label]
        if len(hits) != 1:
            raise KeyError(f"{label!r} matches {len(hits)} options: {[o.label for o in self.options]}")
        return hits[0]


class Scenario:
    """A position you can inspect and play forward one decision at a time."""

    def __init__(self, game: Game):
        self.game = game
        self._pending: Decision | None = None
        self._settle()

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, description: dict, cards: CardSet | None = None) -> Scenario:
        """Build from a description (see README, "Scenario API"); ``cards`` overrides the shipped card data."""
        desc = dict(description)
        villains = tuple(desc.pop("villains"))
        game = Game.new(
            villains,
            cards=cards,
            seed=desc.pop("seed", 0),
            variants=desc.pop("rules", None),
            max_turns=desc.pop("max_turns", DEFAULT_MAX_TURNS),
            log_capacity=desc.pop("log_capacity", 4096),
        )
        st, cards = game.state, game.cards
        seats = desc.pop("seats", [{}] * len(villains))
        for s, spec in enumerate(seats):
            _apply_seat(game, s, dict(spec))
        st.g[K.G_ACTIVE] = desc.pop("active", 0)
        st.g[K.G_PHASE] = PHASES[desc.pop("phase", "actions")]
        st.g[K.G_ROUND] = desc.pop("round", 1)
        st.g[K.G_ACTIONS] = desc.pop("actions_taken", 0)
        st.g[K.G_AS_USED] = desc.pop("granted_activates_used", 0)
        used = desc.pop("used", [])
        s = int(st.g[K.G_ACTIVE])
        v = int(st.sv[s, K.SV_VILLAIN])
        loc = int(st.sv[s, K.SV_MOVER])
        for name in used:
            kind = K.SYMBOL_NAMES.index(name)
            for j in range(cards.tables.locs[v, loc, K.LC_NSYM]):
                if cards.tables.syms[v, loc, j, K.SY_KIND] == kind and not (st.g[K.G_USED] >> j) & 1:
                    st.g[K.G_USED] |= 1 << j
                    break
        if desc:
            raise InputError(f"unknown scenario keys {sorted(desc)}")
        index_zones_nb(st)
        return cls(game)

    # ------------------------------------------------------------------ playing
    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, or None once it is over."""
        return self._pending

    def options(self) -> list[Option]:
        return list(self._pending.options) if self._pending else []

    def apply(self, choice: int | str) -> Scenario:
        """Answer the pending decision with an option index or label."""
        if self._pending is None:
            raise InputError("the game is over: no decision to answer")
        idx = self._pending.find(choice) if isinstance(choice, str) else int(choice)
        if not 0 <= idx < len(self._pending.options):
            raise InputError(f"option {choice!r} out of range 0..{len(self._pending.options) - 1}")
        apply_nb(self.game.state, idx)
        self._settle()
        return self

    def play(self, *choices: int | str) -> Scenario:
        for c in choices:
            self.apply(c)
        return self

    def suggest(self, strategy: str = "expert") -> Option:
        """The option ``strategy`` would choose at the pending decision (on a copy: the game does not move on)."""
        from simlab.game import warmup

        if self._pending is None:
            raise InputError("the game is over: no decision to answer")
        spec = strategy_spec(strategy)
        warmup.ensure_players([spec.kernel])  # says so when kernels compile (first use only)
        from simlab.game.driver import choose_nb

        st = copy_state(self.game.state)
        st.sv[self._pending.player, K.SV_STRATEGY] = spec.kernel
        st.sparams[self._pending.player] = spec.vector()
        return self._pending.options[int(choose_nb(st, self.game.cards.tables, self.game.rules))]

    def copy(self) -> Scenario:
        """An independent copy that continues exactly as this one would."""
        other = object.__new__(Scenario)
        other.game = Game(copy_state(self.game.state), self.game.cards, self.game.rules, self.game.villains)
        other._pending = self._pending
        return other

    def _settle(self) -> None:
        """Let the engine play on to the next decision (or the end)."""
        from simlab.game import warmup

        warmup.ensure()  # binds the routines advance_nb calls (and says so when the kernels compile)
        st = self.game.state
        waiting = advance_nb(st, self.game.cards.tables, self.game.rules, ALL_STEPS)
        self._pending = self._decision(st) if waiting else None

    def _decision(self, st: State) -> Decision:
        n = int(st.g[K.G_PEND_N])
        realm = int(st.g[K.G_PEND_REALM])
        opts = tuple(
            Option(
                i,
                K.OPTION_NAMES[int(st.opts[i, 0])],
                option_label(self.game, realm, st.opts[i]),
                tuple(int(x) for x in st.opts[i]),
            )
            for i in range(n)
        )
        player = int(st.g[K.G_PEND_PLAYER])
        return Decision(player, K.DECISION_NAMES[int(st.g[K.G_PEND_KIND])], int(st.g[K.G_PEND_CTX]), opts, realm)

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        return self.game.state

    def __getattr__(self, name):
        # Reading helpers (hand, power, realm, obstacles, ...) come from the Game.
        return getattr(self.game, name)


def option_label(game: Game, realm: int, row) -> str:
    """A readable label for option ``row`` of a decision about seat ``realm``'s Realm."""
    code, a, b, c = (int(x) for x in row)
    inst = game.state.inst

    def card(seat, k):
        return game.cards.cards[int(inst[seat, k, K.I_CARD])].name

    def locname(loc):
        return game.location_name(realm, loc)

    if code == K.O_PASS:
        return "pass"
    if code == K.O_GAIN:
        return f"gain {b} Power"
    if code in (K.O_PLAY, K.O_FATE_PLAY):
        where = "" if b < 0 else f" to {locname(b)}"
        on = "" if c < 0 else f" on {card(realm, c)}"
        return f"play {card(realm, a)}{where}{on}"
    if code == K.O_ACTIVATE:
        return f"activate {game.villain_of(realm).tile[0]}" if a < 0 else f"activate {card(realm, a)}"
    if code == K.O_MOVE:
        return f"move {card(realm, a)} to {locname(b)}"
    if code == K.O_FATE:
        return f"fate {game.cards.villain(game.villains[a]).name}"
    if code == K.O_VANQUISH:
        return f"vanquish {card(realm, a)}"
    if code == K.O_DISCARD:
        return "discard cards"
    if code == K.O_LOC:
        return f"location {locname(a)}"
    if code == K.O_CARD:
        return f"card {card(b, a)}"
    if code == K.O_MODE:
        tile = game.villain_of(realm).tile  # "claim the tile": the tile by its name, mid-sentence
        name = K.MODE_NAMES[a]
        return f"mode {name.replace('the tile', 'the ' + tile[0].removeprefix('The ')) if tile else name}"
    if code == K.O_SWAP:
        return f"swap {card(realm, a)} for {card(realm, b)} at {locname(c)}"
    return K.OPTION_NAMES[code]


# ---------------------------------------------------------------------------- description -> state


def _take(game: Game, seat: int, name: str, zones: tuple[int, ...]) -> int:
    """An instance of card ``name`` of ``seat`` taken out of ``zones`` (decks first), now in limbo."""
    cards = game.cards
    try:
        row = cards.card(name).row
    except KeyError as exc:
        raise InputError(str(exc)) from None
    st = game.state
    for zone in zones:
        for k in range(K.N_INST):
            if st.inst[seat, k, K.I_CARD] == row and st.inst[seat, k, K.I_ZONE] == zone:
                if zone in (K.Z_VDECK, K.Z_FDECK):
                    take_from_deck_nb(st, seat, k)
                st.inst[seat, k, K.I_ZONE] = K.Z_LIMBO
                return k
    raise InputError(f"seat {seat} ({game.villains[seat]}) has no {name!r} left to place")


ANYWHERE = (K.Z_VDECK, K.Z_FDECK, K.Z_HAND, K.Z_VDISCARD, K.Z_FDISCARD)


def _apply_seat(game: Game, s: int, spec: dict) -> None:
    st, cards = game.state, game.cards
    villain = cards.villains[int(st.sv[s, K.SV_VILLAIN])]
    locs = {name: i for i, name in enumerate(villain.locations)}

    def loc_index(name):
        if name not in locs:
            raise InputError(f"unknown location {name!r} for {villain.name}; choose from {', '.join(locs)}")
        return locs[name]

    # Hands are given exactly: the 4 cards dealt at setup go back to the deck first.
    if "hand" in spec:
        for k in range(K.N_VCARDS):
            if st.inst[s, k, K.I_ZONE] == K.Z_HAND:
                n = int(st.sv[s, K.SV_VDECK_N])
                st.vdeck[s, n] = k
                st.sv[s, K.SV_VDECK_N] = n + 1
                st.inst[s, k, K.I_ZONE] = K.Z_VDECK
                st.inst[s, k, K.I_FLAGS] = 0
        for name in spec.pop("hand"):
            k = _take(game, s, name, (K.Z_VDECK,))
            st.inst[s, k, K.I_ZONE] = K.Z_HAND
    for loc_name, entries in spec.pop("realm", {}).items():
        loc = loc_index(loc_name)
        for entry in entries:
            entry = {"card": entry} if isinstance(entry, str) else dict(entry)
            k = _take(game, s, entry.pop("card"), ANYWHERE)
            put_in_realm_nb(st, s, k, loc, -1)
            if entry.pop("trapped", False):
                st.inst[s, k, K.I_TRAPPED] = 1
                st.sv[s, K.SV_TRAPS] -= 1
            for item in entry.pop("items", []):
                j = _take(game, s, item, ANYWHERE)
                put_in_realm_nb(st, s, j, loc, k)
            if entry:
                raise InputError(f"unknown keys {sorted(entry)} for a card in the Realm")
    for name in spec.pop("discard", []):
        k = _take(game, s, name, (K.Z_VDECK,))
        st.inst[s, k, K.I_ZONE] = K.Z_VDISCARD
    for name in spec.pop("fate_discard", []):
        k = _take(game, s, name, (K.Z_FDECK,))
        st.inst[s, k, K.I_ZONE] = K.Z_FDISCARD
    for name in reversed(spec.pop("deck_top", [])):
        k = _take(game, s, name, (K.Z_VDECK,))
        n = int(st.sv[s, K.SV_VDECK_N])
        st.vdeck[s, n] = k
        st.sv[s, K.SV_VDECK_N] = n + 1
        st.inst[s, k, K.I_ZONE] = K.Z_VDECK
    for name in reversed(spec.pop("fate_top", [])):
        k = _take(game, s, name, (K.Z_FDECK,))
        put_on_fate_deck_nb(st, s, k)
    if "power" in spec:
        st.sv[s, K.SV_POWER] = spec.pop("power")
    if "mover" in spec:
        st.sv[s, K.SV_MOVER] = loc_index(spec.pop("mover"))
    if "obstacles" in spec:
        obst = spec.pop("obstacles")
        if isinstance(obst, int):
            # n Obstacles, filled location by location from the left
            spots = [int(cards.tables.locs[villain.row, i, K.LC_SPOTS]) for i in range(K.N_LOC)]
            left = obst
            for i in range(K.N_LOC):
                st.sv[s, K.SV_OBST + i] = min(spots[i], left)
                left -= min(spots[i], left)
        else:
            for i in range(K.N_LOC):
                st.sv[s, K.SV_OBST + i] = 0
            for name, n in obst.items():
                st.sv[s, K.SV_OBST + loc_index(name)] = n
    for name in spec.pop("unlocked", []):
        st.sv[s, K.SV_LOCK + loc_index(name)] = 0
    if "tile" in spec:
        sides = {"none": 0, "front": 1, "power": 2}
        side = spec.pop("tile")
        if side not in sides:
            raise InputError(f"unknown tile side {side!r}; choose from {', '.join(sides)}")
        st.sv[s, K.SV_TILE] = sides[side]
    if "swap_used" in spec:
        st.sv[s, K.SV_SWAP_USED] = int(bool(spec.pop("swap_used")))
    if "strategy" in spec:
        chosen = strategy_spec(spec.pop("strategy"))
        st.sv[s, K.SV_STRATEGY] = chosen.kernel
        st.sparams[s, :] = chosen.vector()
    if spec:
        raise InputError(f"unknown keys {sorted(spec)} for seat {s}")
