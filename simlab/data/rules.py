"""Rule variants: every point the reference leaves open, as a named setting with the recommended default.

The core rules' variants are written here; those that concern one villain's cards are in its folder
(``[[rule]]`` tables in ``simlab/villains/<folder>/cards.toml``), collected from the registry. Each names its
slot in the kernels' rules array (the core's ``R_*`` in :mod:`simlab.kernels.const`, named by what it does; a
villain's, assigned when the registry is loaded: :func:`simlab.villains.rule_slots`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from simlab.errors import RuleError
from simlab.kernels import const as K
from simlab.villains import rule_slots

DEFAULT_MAX_TURNS = 100
MAX_TURNS_LIMIT = 10_000  # more is a typo: expert games end by round 120; run histograms are this long


@dataclass(frozen=True)
class RuleVariant:
    name: str
    index: int  # R_* slot in the rules array
    values: dict[str, int]  # value name -> code; the first is the default
    description: str

    @property
    def default(self) -> str:
        return next(iter(self.values))


# Readings of the core rules. Those of one villain's cards are that villain's: ``[[rule]]`` tables in its
# cards.toml (see villain_variants), collected from the registry.
def core_variants(docs: list[dict]) -> list[RuleVariant]:
    """The core rules' variants; their examples are the registered villains' cards that print what they concern."""
    unprinted = _names(docs, lambda c: c.get("activate_cost") == "unprinted")
    unprinted += [d["tile"]["name"] for d in docs if d.get("tile", {}).get("flip_activate_cost") == "unprinted"]
    four = _names(docs, lambda c: c.get("condition") == "opponent_four_actions")
    two_allies = _names(docs, lambda c: "zero_strength_allies_vanquish" in c.get("rule_examples", ()))
    return [
        RuleVariant(
            "obstacles_cover_actions",
            K.R_OBSTACLES_COVER,
            {"no": 0, "yes": 1},
            "Obstacle tokens sit apart from the action symbols (inference), or each covers one top action.",
        ),
        RuleVariant(
            "unprinted_activation_cost",
            K.R_UNPRINTED_ACTIVATION_COST,
            {"0": 0, "1": 1, "2": 2},
            f"Power paid to activate cards that print no cost{_eg(unprinted)}.",
        ),
        RuleVariant(
            "other_revealed_card",
            K.R_OTHER_REVEALED_AFTER,
            {"discarded_first": 0, "discarded_after": 1},
            "In a Fate action the revealed card not chosen goes to the Fate discard pile before the chosen one "
            "resolves (reading: an Effect playing a Hero from the Fate discard pile can then play a Hero revealed "
            "beside it, one shuffling the discard pile into the deck shuffles it back), or only after it resolves "
            "(neither). The sources do not settle it.",
        ),
        RuleVariant(
            "four_actions_window",
            K.R_FOUR_ACTIONS_ONCE,
            {"every_later_action": 0, "once": 1},
            f"Conditions played after an opponent's 4th action{_eg(four)} are offered after the 4th and every later "
            "action of that turn, or once a turn, after the action that brings the count to 4 or more. The sources "
            "do not settle it.",
        ),
        RuleVariant(
            "zero_strength_allies_vanquish",
            K.R_ZERO_STRENGTH_NO_VANQUISH,
            {"join": 0, "cannot_join": 1},
            "An Ally whose Strength is 0 may join a Vanquish (it counts towards the two Allies a Vanquish needs "
            f"where a card says so{_colon(two_allies)}), or cannot. The sources do not settle it. (Strategies value "
            "Vanquishes by the first reading.)",
        ),
    ]


def _names(docs: list[dict], printed) -> list[str]:
    return [c["name"] for d in docs for c in d.get("card", []) if printed(c)]


def _eg(names: list[str]) -> str:
    return f" ({', '.join(dict.fromkeys(names))})" if names else ""


def _colon(names: list[str]) -> str:
    return f": {', '.join(dict.fromkeys(names))}" if names else ""


RULE_FIELDS = {"name", "slot", "values", "description"}
OPTIONAL_RULE_FIELDS = {"index"}  # the slot's index in the rules array (simlab.villains.rule_slots)


def villain_variants(folder: str, doc: dict) -> list[RuleVariant]:
    """The variants of one villain's cards: the ``[[rule]]`` tables of its cards.toml, each with ``name`` (as users
    write it), ``slot`` (its R_* slot in the kernels' rules array, lower case without ``R_``), ``values`` (value name
    = code; the first is the default) and ``description``."""
    out = []
    for i, r in enumerate(doc.get("rule", [])):
        where = f"simlab/villains/{folder}/cards.toml: rule {r.get('name', i + 1)!r}"
        if not RULE_FIELDS <= set(r) <= RULE_FIELDS | OPTIONAL_RULE_FIELDS:
            raise RuleError(
                f"{where}: needs exactly the fields {sorted(RULE_FIELDS)} (and may give "
                f"{sorted(OPTIONAL_RULE_FIELDS)}), has {sorted(r)}"
            )
        slots = rule_slots()
        slot = slots.get(r["slot"])
        if slot is None or slot == K.R_MAX_TURNS:
            raise RuleError(f"{where}: unknown slot {r['slot']!r}; choose from {sorted(slots)}")
        values = r["values"]
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
            raise RuleError(f"{where}: values must name at least one integer code")
        out.append(RuleVariant(r["name"], slot, {str(k): v for k, v in values.items()}, r["description"]))
    return out


def collect_variants() -> dict[str, RuleVariant]:
    """Every variant: the core's and those of the registered villains' cards, in slot order. Two villains may print
    the same rule (one name, one slot, the same values); one slot holds one variant."""
    import tomllib

    from simlab import villains as V

    docs = [(f, tomllib.loads(V.data_text(f))) for f in V.REGISTRY]
    found = core_variants([d for _, d in docs]) + [v for f, d in docs for v in villain_variants(f, d)]
    out: dict[str, RuleVariant] = {}
    for v in found:
        old = out.get(v.name)
        if old is not None and (old.index, old.values) != (v.index, v.values):
            raise RuleError(f"rule variant {v.name} is defined twice, with different slots or values")
        out.setdefault(v.name, v)
    slots: dict[int, str] = {}
    for v in out.values():
        if slots.setdefault(v.index, v.name) != v.name:
            raise RuleError(f"rule variants {slots[v.index]} and {v.name} share slot {v.index}")
    return {v.name: v for v in sorted(out.values(), key=lambda v: v.index)}


RULE_VARIANTS: dict[str, RuleVariant] = collect_variants()


def rules_array(variants: Mapping[str, str] | None = None, max_turns: int = DEFAULT_MAX_TURNS) -> np.ndarray:
    """The int64 rules array for the kernels: defaults, overridden by ``variants`` (name -> value name)."""
    ru = np.zeros(K.N_RULES, np.int64)
    for v in RULE_VARIANTS.values():
        ru[v.index] = v.values[v.default]
    for name, value in (variants or {}).items():
        if name not in RULE_VARIANTS:
            raise RuleError(f"unknown rule variant {name!r}; choose from {', '.join(RULE_VARIANTS)}")
        v = RULE_VARIANTS[name]
        value = str(value).lower() if isinstance(value, bool) else str(value)
        value = {"true": "yes", "false": "no"}.get(value, value)
        if value not in v.values:
            raise RuleError(f"rule variant {name} cannot be {value!r}; choose from {', '.join(v.values)}")
        ru[v.index] = v.values[value]
    ok = isinstance(max_turns, int | np.integer) and not isinstance(max_turns, bool)
    if not ok or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise RuleError(f"max_turns must be a positive integer of at most {MAX_TURNS_LIMIT:,}, got {max_turns!r}")
    ru[K.R_MAX_TURNS] = max_turns
    return ru


def variants_table() -> list[tuple[str, str, str, str]]:
    """(name, default, alternatives, description) for every variant, as documented in the README."""
    return [(v.name, v.default, ", ".join(list(v.values)[1:]), v.description) for v in RULE_VARIANTS.values()]
