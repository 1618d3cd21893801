"""Card and board data: load each registered villain's ``cards.toml`` (:mod:`simlab.villains`), validate
them, compile numpy tables.

The kernels never see names: every card becomes a row of small integer columns (type, cost,
strength, ability opcodes, references to other cards by row), every board a block of symbol codes.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from simlab.errors import CardDataError
from simlab.kernels import const as K
from simlab.kernels.state import Tables  # noqa: F401  (the arrays the kernels read; defined with the state)
from simlab.villains import KEYS as VILLAIN_KEYS
from simlab.villains import REGISTRY as VILLAIN_FOLDERS
from simlab.villains import ability_codes, card_types, data_text, declared_card_types

CARD_FIELDS = {
    "name",
    "deck",
    "type",
    "copies",
    "max_copies",
    "unique",  # a named character: at most one copy (simlab.data.card_rules)
    "cost",
    "strength",
    "text",
    "effect",
    "condition",
    "on_play",
    "on_enter",
    "on_defeat",
    "passive",
    "activate",
    "activate_cost",
    "attach",
    "location",
    "n",
    "refs",
    "swap_from",
    "exclusive_with",
    "untrappable",
    "marked",
    "rule_examples",  # core rule variants whose description names the card as an example (simlab.data.rules)
}
SLOTS = {
    "effect": K.EFFECT_SLOT,
    "on_play": K.ON_PLAY_SLOT,
    "on_enter": K.ON_ENTER_SLOT,
    "on_defeat": K.ON_DEFEAT_SLOT,
    "passive": K.PASSIVE_SLOT,
    "activate": K.ACTIVATE_SLOT,
}
SYMBOLS = {name: code for code, name in enumerate(K.SYMBOL_NAMES) if name != "gain_power"}


def villain_key(text) -> str:
    """A villain's name as people write it, as a key: ``"The Horned King"`` -> ``"horned-king"``,
    ``"lady_tremaine"`` -> ``"lady-tremaine"`` (a key only if it names a villain of :data:`VILLAIN_KEYS`)."""
    key = re.sub(r"['’.]", "", re.sub(r"[\s_]+", "-", str(text).strip().lower()))
    return key.removeprefix("the-")


def villain_hint(name) -> str:
    """``"did you mean 'lady-tremaine'? "`` when ``name`` is no villain key but one written another way, else ``""``."""
    key = villain_key(name)
    return f"did you mean {key!r}? " if key in VILLAIN_KEYS and key != name else ""


def unknown_villain(name, where: str = "") -> str:
    """The message for ``name`` (given ``where``, e.g. ``in matchup 'x'``), which is no villain key."""
    place = f" {where}" if where else ""
    return f"unknown villain {name!r}{place}; {villain_hint(name)}choose from {', '.join(VILLAIN_KEYS)}"


@dataclass(frozen=True)
class Card:
    """One card of a deck, as read from the data files."""

    row: int
    name: str
    villain: str
    deck: str
    type: str
    copies: int
    cost: int
    strength: int
    text: str
    raw: dict = field(repr=False, compare=False)


@dataclass(frozen=True)
class Villain:
    row: int
    key: str
    name: str  # as printed ("The Horned King")
    objective_text: str
    locations: tuple[str, ...]
    raw: dict = field(repr=False, compare=False)
    prose_name: str = ""  # as a sentence names the villain ("the Horned King")
    won_text: str = ""  # how a game ended when the villain won ("Wedding Bells activated")
    tile: tuple[str, ...] = ()  # the names of the villain's tile's sides, when it has one (front first)


@dataclass(frozen=True)
class CardSet:
    """The six decks and three boards, with their compiled tables."""

    villains: tuple[Villain, ...]
    cards: tuple[Card, ...]
    tables: Tables

    def villain(self, key: str) -> Villain:
        for v in self.villains:
            if v.key == key:
                return v
        raise KeyError(unknown_villain(key))

    def card(self, name: str) -> Card:
        for c in self.cards:
            if c.name == name:
                return c
        raise KeyError(f"unknown card {name!r}")

    def card_names(self) -> list[str]:
        return [c.name for c in self.cards]


def _read(folder: str) -> dict:
    """The parsed ``cards.toml`` of the villain in ``simlab/villains/<folder>/``."""
    try:
        return tomllib.loads(data_text(folder))
    except tomllib.TOMLDecodeError as exc:  # pragma: no cover - data shipped with the package
        raise CardDataError(f"{folder}/cards.toml: {exc}") from exc


def prose_name(key: str) -> str:
    """The villain as a sentence names it (``"the Horned King"``); an unknown key as it is."""
    try:
        return load_cards().villain(key).prose_name
    except KeyError:
        return key


def _int(d: dict, key: str, where: str, default: int = 0) -> int:
    value = d.get(key, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CardDataError(f"{where}: {key} must be a non-negative integer, got {value!r}")
    return value


# the card table's column of each ability slot
SLOT_COLUMNS = {
    "effect": K.CF_EFFECT,
    "on_play": K.CF_ON_PLAY,
    "on_enter": K.CF_ON_ENTER,
    "on_defeat": K.CF_ON_DEFEAT,
    "passive": K.CF_PASSIVE,
    "activate": K.CF_ACTIVATE,
}


def compile_cards(docs: list[dict] | None = None, short_decks: bool = False) -> CardSet:
    """Validate villain documents (parsed TOML) and compile them into tables.

    short_decks: allow a deck to hold fewer than 30 (Villain) or 15 (Fate) cards, the empty slots left out
    of the game (card edits); the shipped data must hold exactly that many.
    """
    if docs is None:
        docs = [_read(f) for f in VILLAIN_FOLDERS]
    villains, cards = _read_docs(docs)
    names = [c.name for c in cards]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CardDataError(f"card names must be unique: {dupes}")
    row_of = {c.name: c.row for c in cards}
    n_cards, n_v = len(cards), len(villains)
    card = np.zeros((n_cards, K.N_CF), np.int64)
    for col in (K.CF_LOCATION, K.CF_REF0, K.CF_REF1, K.CF_SWAP_FROM, K.CF_EXCLUSIVE):
        card[:, col] = -1
    slots: dict[tuple[str, str], int] = {}
    for c in cards:
        _card_row(card, c, villains, row_of)
        card[c.row, K.CF_SLOT] = slots.setdefault((c.villain, c.deck), 0)
        slots[(c.villain, c.deck)] += 1
    v_deck = np.zeros((n_v, K.N_VCARDS), np.int64)
    v_fate = np.zeros((n_v, K.N_FCARDS), np.int64)
    v_out = np.zeros((n_v, K.N_INST), np.int64)
    vil = np.zeros((n_v, K.N_VF), np.int64)
    syms = np.zeros((n_v, K.N_LOC, K.MAX_SYMBOLS, K.N_SY), np.int64)
    syms[..., K.SY_KIND] = -1
    locs = np.zeros((n_v, K.N_LOC, K.N_LC), np.int64)
    rules = strength_rules(villains, _ability_slots()[0])
    for v in villains:
        decks = (v_deck, v_fate, v_out)
        _villain_row(vil, decks, card, v, [c for c in cards if c.villain == v.key], short_decks, rules)
        _board(syms, locs, card, v, row_of)
    tables = Tables(card=card, vil=vil, v_deck=v_deck, v_fate=v_fate, syms=syms, locs=locs, v_out=v_out)
    return CardSet(tuple(villains), tuple(cards), tables)


def _read_docs(docs: list[dict]) -> tuple[list[Villain], list[Card]]:
    """The villains and their cards as the documents give them, each card's fields checked."""
    villains: list[Villain] = []
    cards: list[Card] = []
    types = card_types()
    for vrow, doc in enumerate(docs):
        meta = doc.get("villain", {})
        locs = doc.get("location", [])
        if len(locs) != K.N_LOC:
            raise CardDataError(f"{meta.get('name')}: a board has {K.N_LOC} locations, got {len(locs)}")
        tile = doc.get("tile", {})
        villains.append(
            Villain(
                vrow,
                meta["key"],
                meta["name"],
                meta.get("objective_text", ""),
                tuple(lc["name"] for lc in locs),
                doc,
                meta.get("prose_name", meta["name"]),
                meta.get("won_text", meta.get("objective_text", "")),
                tuple(tile[side] for side in ("name", "power_side") if side in tile),
            )
        )
        for c in doc.get("card", []):
            where = f"{meta['name']}: card {c.get('name')!r}"
            unknown = set(c) - CARD_FIELDS
            if unknown:
                raise CardDataError(f"{where}: unknown fields {sorted(unknown)}")
            if c.get("type") not in types:
                raise CardDataError(f"{where}: type must be one of {types}, got {c.get('type')!r}")
            if c.get("deck") not in ("villain", "fate"):
                raise CardDataError(f"{where}: deck must be 'villain' or 'fate'")
            home = {"Hero": "fate", "Ally": "villain"}.get(c["type"], c["deck"])
            if c["deck"] != home:
                # the engine looks for Heroes among a seat's Fate instances and for Allies among its Villain ones
                raise CardDataError(f"{where}: {c['type']} cards belong in the {home} deck, not the {c['deck']} deck")
            cards.append(
                Card(
                    len(cards),
                    c["name"],
                    meta["key"],
                    c["deck"],
                    c["type"],
                    _int(c, "copies", where, 1),
                    _int(c, "cost", where),
                    _int(c, "strength", where),
                    c.get("text", ""),
                    c,
                )
            )
    return villains, cards


def _card_row(card: np.ndarray, c: Card, villains: list[Villain], row_of: dict[str, int]) -> None:
    """Card ``c``'s row of the card table: its type, numbers, abilities, condition, targets and references."""
    r, raw, where = c.row, c.raw, f"{c.villain}: card {c.name!r}"
    vrow = next(v.row for v in villains if v.key == c.villain)
    card[r, K.CF_TYPE] = card_types().index(c.type)
    declared = {name: t for f in VILLAIN_FOLDERS for name, t in declared_card_types(f).items()}
    card[r, K.CF_WHEN_REVEALED] = bool(declared.get(c.type, {}).get("played_when_revealed", False))
    card[r, K.CF_COST] = c.cost
    card[r, K.CF_STRENGTH] = c.strength
    card[r, K.CF_VILLAIN] = vrow
    card[r, K.CF_FATE] = c.deck == "fate"
    card[r, K.CF_N] = _int(raw, "n", where)
    codes, slot_names = _ability_slots()
    for slot in SLOTS:
        name = raw.get(slot)
        if name is None:
            continue
        if name not in slot_names[slot]:
            allowed = sorted(slot_names[slot])
            raise CardDataError(f"{where}: {slot} {name!r} is not known to the engine; choose from {allowed}")
        card[r, SLOT_COLUMNS[slot]] = codes[name]
    cond = raw.get("condition")
    if c.type == "Condition":
        if cond not in K.CONDITION_CODES or cond == "none":
            raise CardDataError(f"{where}: a Condition needs a known condition trigger, got {cond!r}")
        card[r, K.CF_CONDITION] = K.CONDITION_CODES[cond]
    if c.type in ("Effect", "Condition") and "effect" not in raw:
        raise CardDataError(f"{where}: an {c.type} needs an effect")
    cost = raw.get("activate_cost")
    if "activate" in raw:
        if cost == "unprinted":
            card[r, K.CF_ACTIVATE_COST] = -1
        else:
            card[r, K.CF_ACTIVATE_COST] = _int(raw, "activate_cost", where)
    attach = raw.get("attach", "none")
    if attach not in ("none", "ally", "hero"):
        raise CardDataError(f"{where}: attach must be none, ally or hero")
    card[r, K.CF_ATTACH] = ("none", "ally", "hero").index(attach)
    if "location" in raw:
        if raw["location"] not in villains[vrow].locations:
            raise CardDataError(f"{where}: unknown location {raw['location']!r}")
        card[r, K.CF_LOCATION] = villains[vrow].locations.index(raw["location"])
    refs = raw.get("refs", [])
    for i, ref in enumerate(refs[:2]):
        if ref not in row_of:
            raise CardDataError(f"{where}: refers to unknown card {ref!r}")
        card[r, K.CF_REF0 + i] = row_of[ref]
    for key, colname in (("swap_from", K.CF_SWAP_FROM), ("exclusive_with", K.CF_EXCLUSIVE)):
        if key in raw:
            if raw[key] not in row_of:
                raise CardDataError(f"{where}: {key} names unknown card {raw[key]!r}")
            card[r, colname] = row_of[raw[key]]
    card[r, K.CF_UNTRAPPABLE] = bool(raw.get("untrappable", False))
    card[r, K.CF_MARKED] = bool(raw.get("marked", False))


# [[strength]] in a villain's cards.toml: an ongoing ability's change of Strength, read inline by the engine
# (query.strength_nb). changes: whose Strength; per: what its own change is counted per; amount: a number, "n" or
# "-n" (the card's number); once: counted at most once; untrapped: only while the card is an untrapped Hero
STRENGTH_CHANGES = {
    "own": K.SC_OWN,
    "host": K.SC_HOST,
    "allies_here": K.SC_ALLIES_HERE,
    "heroes_here": K.SC_HEROES_HERE,
    "other_heroes": K.SC_OTHER_HEROES,
}
STRENGTH_PER = {
    "none": K.SP_FLAT,
    "other_copy": K.SP_OTHER_COPY,
    "ally_here": K.SP_ALLY_HERE,
    "hero_here": K.SP_HERO_HERE,
}
STRENGTH_KEYS = {"ability", "changes", "per", "amount", "once", "untrapped", "text"}
# whose Strength each kind of change reaches: the villain table's masks (VF_ALLY_STRENGTH, VF_HERO_STRENGTH)
# (a host: what the card attaches to)
_REACHES = {K.SC_ALLIES_HERE: (True, False), K.SC_HEROES_HERE: (False, True), K.SC_OTHER_HEROES: (False, True)}


def strength_rules(villains: list[Villain], codes: dict[str, int]) -> dict[str, tuple[int, int, int, object]]:
    """Every [[strength]] declaration of the villain documents, by ability (one reading an ability, in any
    villain's file: a card of another villain with the same ongoing ability follows it too; a copy of a
    declaration is allowed, a different one refused), as (changes, per, flags, amount)."""
    out: dict[str, tuple[int, int, int, object]] = {}
    for v in villains:
        for i, raw in enumerate(v.raw.get("strength", ())):
            where = f"{v.name}: [[strength]] {i + 1}"
            extra = set(raw) - STRENGTH_KEYS
            if extra:
                raise CardDataError(f"{where}: unknown keys {sorted(extra)}; allowed: {sorted(STRENGTH_KEYS)}")
            name = raw.get("ability")
            if codes.get(name) not in K.PASSIVE_CODES:
                raise CardDataError(f"{where}: ability {name!r} is no ongoing ability")
            changes, per = raw.get("changes"), raw.get("per", "none")
            if changes not in STRENGTH_CHANGES:
                raise CardDataError(f"{where}: changes must be one of {sorted(STRENGTH_CHANGES)}, got {changes!r}")
            if per not in STRENGTH_PER or (per != "none" and changes != "own"):
                raise CardDataError(
                    f"{where}: per must be one of {sorted(STRENGTH_PER)}, and only with changes = 'own'"
                )
            amount = raw.get("amount")
            if amount not in ("n", "-n") and (not isinstance(amount, int) or isinstance(amount, bool)):
                raise CardDataError(f"{where}: amount must be a whole number, 'n' or '-n', got {amount!r}")
            flags = K.SF_ONCE * bool(raw.get("once", False)) | K.SF_UNTRAPPED * bool(raw.get("untrapped", False))
            rule = (STRENGTH_CHANGES[changes], STRENGTH_PER[per], flags, amount)
            if out.setdefault(name, rule) != rule:
                raise CardDataError(f"{where}: {name!r} is declared again, differently")
    return out


def _strength(vil: np.ndarray, card: np.ndarray, v: Villain, vcards: list[Card], codes: dict[str, int], rules) -> None:
    """The Strength data (``rules``, from :func:`strength_rules`) of villain ``v``'s cards into the card table's
    CF_STR_* columns, and the villain table's masks of its abilities that change other cards' Strength."""
    for c in vcards:
        name = c.raw.get("passive")
        if name not in rules:
            continue
        changes, per, flags, amount = rules[name]
        n = card[c.row, K.CF_N]
        card[c.row, K.CF_STR_CHANGES] = changes
        card[c.row, K.CF_STR_PER] = per
        card[c.row, K.CF_STR_FLAGS] = flags
        card[c.row, K.CF_STR_AMOUNT] = n if amount == "n" else -n if amount == "-n" else amount
        bit = 1 << (codes[name] - K.FIRST_PASSIVE)
        allies, heroes = _REACHES.get(changes, (False, False))
        if changes == K.SC_HOST:  # the host is what the card attaches to
            allies, heroes = card[c.row, K.CF_ATTACH] == K.A_ALLY, card[c.row, K.CF_ATTACH] == K.A_HERO
        vil[v.row, K.VF_ALLY_STRENGTH] |= bit * allies
        vil[v.row, K.VF_HERO_STRENGTH] |= bit * heroes


def _villain_row(
    vil: np.ndarray, decks, card: np.ndarray, v: Villain, vcards: list[Card], short_decks: bool, rules: dict
) -> None:
    """Villain ``v``'s decks (``decks``: the villain deck, fate deck and out-of-game tables) and its row of the
    villain table: passives, objective, traps, its tile."""
    v_deck, v_fate, v_out = decks
    doc, meta = v.raw, v.raw["villain"]
    for c in vcards:
        most = c.raw.get("max_copies")
        if most is not None and c.copies > most:
            raise CardDataError(
                f"{v.name}: {c.name} can have at most {most} {'copy' if most == 1 else 'copies'} (its cards.toml says "
                f"why: the rules engine resolves no more), got {c.copies}"
            )
    for deck, size, out, first in (("villain", K.N_VCARDS, v_deck, 0), ("fate", K.N_FCARDS, v_fate, K.N_VCARDS)):
        rows = [c.row for c in vcards if c.deck == deck for _ in range(c.copies)]
        if len(rows) > size or (len(rows) < size and not short_decks):
            raise CardDataError(f"{v.name}: the {deck} deck must hold {size} cards, got {len(rows)}")
        if not rows:
            raise CardDataError(f"{v.name}: the {deck} deck would be empty")
        # empty slots keep a real card row (never read while out of the game)
        out[v.row] = rows + [rows[0]] * (size - len(rows))
        v_out[v.row, first + len(rows) : first + size] = 1
        for row in rows:
            if card[row, K.CF_PASSIVE] != K.AB_NONE:
                vil[v.row, K.VF_PASSIVES] |= 1 << (card[row, K.CF_PASSIVE] - K.FIRST_PASSIVE)
    codes, slot_names = _ability_slots()
    _strength(vil, card, v, vcards, codes, rules)
    objective = meta.get("objective")
    if objective not in codes or objective in K.ABILITY_CODES:
        raise CardDataError(f"{v.name}: objective must name the villain's objective, got {objective!r}")
    vil[v.row, K.VF_OBJECTIVE] = codes[objective]
    for point in meta.get("objective_checked", ()):
        if point not in K.OBJECTIVE_POINTS:
            raise CardDataError(f"{v.name}: objective_checked: {point!r} is none of {sorted(K.OBJECTIVE_POINTS)}")
        vil[v.row, K.VF_OBJECTIVE_POINTS] |= 1 << K.OBJECTIVE_POINTS[point]
    vil[v.row, K.VF_HAS_TILE] = bool(meta.get("has_tile", False))
    vil[v.row, K.VF_TRAPS] = _int(meta, "trapped_tokens", v.name)
    for name in meta.get("watching", ()):
        if codes.get(name) not in K.PASSIVE_CODES:
            raise CardDataError(f"{v.name}: watching: {name!r} is no ongoing ability")
        vil[v.row, K.VF_WATCHING] |= 1 << (codes[name] - K.FIRST_PASSIVE)
    tile = doc.get("tile", {})
    vil[v.row, K.VF_SWAP_COST] = _int(tile, "swap_cost", v.name)
    vil[v.row, K.VF_FLIP_COST] = (
        -1 if tile.get("flip_activate_cost", "unprinted") == "unprinted" else _int(tile, "flip_activate_cost", v.name)
    )
    if "ability" in tile:
        if tile["ability"] not in slot_names["tile"]:
            raise CardDataError(f"{v.name}: [tile] ability must be one of {sorted(slot_names['tile'])}")
        vil[v.row, K.VF_TILE] = codes[tile["ability"]]


def _board(syms: np.ndarray, locs: np.ndarray, card: np.ndarray, v: Villain, row_of: dict[str, int]) -> None:
    """Villain ``v``'s board: each location's action symbols, Obstacle spots, lock and the cards it admits."""
    doc = v.raw
    for li, lc in enumerate(doc["location"]):
        symbols = [(s, 1) for s in lc.get("top", [])] + [(s, 0) for s in lc.get("bottom", [])]
        if len(symbols) > K.MAX_SYMBOLS:
            raise CardDataError(f"{v.name}: {lc['name']} has more than {K.MAX_SYMBOLS} action symbols")
        for j, (s, top) in enumerate(symbols):
            if s.startswith("gain_power_"):
                syms[v.row, li, j, K.SY_KIND] = K.S_GAIN
                syms[v.row, li, j, K.SY_VAL] = int(s.rsplit("_", 1)[1])
            elif s in SYMBOLS:
                syms[v.row, li, j, K.SY_KIND] = SYMBOLS[s]
            else:
                raise CardDataError(f"{v.name}: {lc['name']}: unknown action {s!r}")
            syms[v.row, li, j, K.SY_TOP] = top
        locs[v.row, li, K.LC_NSYM] = len(symbols)
        locs[v.row, li, K.LC_SPOTS] = _int(lc, "obstacle_spots", lc["name"])
        locs[v.row, li, K.LC_LOCKED] = bool(lc.get("locked", False))
        admits = lc.get("admits")
        if admits is not None:
            locs[v.row, li, K.LC_ADMITS_ONLY] = 1
            for name in admits:
                if name not in row_of:
                    raise CardDataError(f"{v.name}: {lc['name']} admits unknown card {name!r}")
                card[row_of[name], K.CF_ADMITTED] = 1


def _ability_slots() -> tuple[dict[str, int], dict[str, frozenset[str]]]:
    """Every ability name -> its code (:func:`simlab.villains.ability_codes`), and the names each slot may print: the
    core's names where the engine handles them, each name a registered folder declares (assigned its code at load)
    in a slot of its kind (an ongoing ability in ``passive`` only)."""
    codes = ability_codes()
    return codes, _slot_names(tuple(sorted(codes.items())))


@cache
def _slot_names(codes: tuple[tuple[str, int], ...]) -> dict[str, frozenset[str]]:
    core = dict(SLOTS, tile=K.TILE_SLOT)
    assigned = {name: code for name, code in codes if name not in K.ABILITY_CODES}
    return {
        slot: frozenset(allowed)
        | {n for n, code in assigned.items() if (code in K.PASSIVE_CODES) == (slot == "passive")}
        for slot, allowed in core.items()
    }


@cache
def load_cards() -> CardSet:
    """The shipped card data, loaded and compiled once per process."""
    return compile_cards()
