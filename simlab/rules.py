"""Rule variants: every point the reference leaves open, as a named setting with the recommended default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from simlab.kernels import const as K

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


RULE_VARIANTS: dict[str, RuleVariant] = {
    v.name: v
    for v in (
        RuleVariant(
            "gaston_win_timing",
            K.R_OBSTACLE_WIN_AT_START_OF_TURN,
            {"immediate": 0, "start_of_turn": 1},
            "Gaston wins the moment the 8th Obstacle is removed (WIKI, RB: no start-of-turn wording), or only at the "
            "start of his turn (BlueFox71).",
        ),
        RuleVariant(
            "get_out",
            K.R_REMOVE_N_NEEDS_N,
            {"up_to_three": 0, "exactly_three": 1},
            "Get Out! removes as many as it can up to 3 (WIKI general rule), or can only be played with 3 left to "
            "remove (DVFAQ).",
        ),
        RuleVariant(
            "cauldron_born_placement",
            K.R_TILE_ALLY_ANY_LOCATION,
            {"same_location": 0, "any_location": 1},
            "The Power of the Black Cauldron puts the Cauldron Born where the Ancient Soldiers was (tile text), or at "
            "any location (Villain Guide wording).",
        ),
        RuleVariant(
            "cauldron_born_play_card",
            K.R_TILE_ALLY_PLAY_CARD,
            {"no": 0, "yes": 1},
            "Cauldron Born enter play only through the Power side (Villain Guide), or also with a Play a Card action "
            "while the Power side shows.",
        ),
        RuleVariant(
            "glass_slippers_cover_actions",
            K.R_GLASS_SLIPPERS_COVER,
            {"yes": 1, "no": 0},
            "A Glass Slipper covers the top actions of its location like a Hero (TRK), or covers nothing.",
        ),
        RuleVariant(
            "obstacles_cover_actions",
            K.R_OBSTACLES_COVER,
            {"no": 0, "yes": 1},
            "Obstacle tokens sit apart from the action symbols (inference), or each covers one top action.",
        ),
        RuleVariant(
            "lucifer_trap",
            K.R_TRAPS_HEROES_HERE_CONTINUOUS,
            {"continuous": 1, "on_play": 0},
            "Lucifer traps every Hero that ever shares his location (playtester ruling), or one Hero when he is "
            "played (printed text).",
        ),
        RuleVariant(
            "prince_into_locked_ballroom",
            K.R_PLAYED_WHEN_REVEALED_INTO_LOCKED,
            {"yes": 1, "no": 0},
            "A revealed Prince is played to The Ballroom even while it is locked (Villain Guide, Hook precedent), or "
            "is discarded while it is locked.",
        ),
        RuleVariant(
            "unprinted_activation_cost",
            K.R_UNPRINTED_ACTIVATION_COST,
            {"0": 0, "1": 1, "2": 2},
            "Power paid to activate cards that print no cost (the Cane, The Key, Wedding Bells, the Black Cauldron).",
        ),
        RuleVariant(
            "beast_destination",
            K.R_PUSH_ALLIES_SINGLE_DESTINATION,
            {"single": 1, "each": 0},
            "Allies pushed out by Beast all go to one location (DVFAQ), or each to any other location.",
        ),
        RuleVariant(
            "doli_destination",
            K.R_MOVE_EACH_HERO_SINGLE_DESTINATION,
            {"single": 1, "each": 0},
            "Heroes moved by Doli all go to one location (DVFAQ), or each anywhere.",
        ),
        RuleVariant(
            "mrs_potts_destination",
            K.R_MOVE_HEROES_SINGLE_DESTINATION,
            {"each": 0, "single": 1},
            "Heroes moved by Mrs. Potts and Chip each go to any new location (recommended), or all to one.",
        ),
        RuleVariant(
            "other_revealed_card",
            K.R_OTHER_REVEALED_AFTER,
            {"discarded_first": 0, "discarded_after": 1},
            "In a Fate action the revealed card not chosen goes to the Fate discard pile before the chosen one "
            "resolves (reading: Be Our Guest can then play a Hero revealed beside it, Magic Mirror shuffles it back "
            "into the deck), or only after it resolves (neither). The sources do not settle it.",
        ),
        RuleVariant(
            "four_actions_window",
            K.R_FOUR_ACTIONS_ONCE,
            {"every_later_action": 0, "once": 1},
            "Conditions played after an opponent's 4th action (Beautiful as Me) are offered after the 4th and every "
            "later action of that turn, or once a turn, after the action that brings the count to 4 or more. The "
            "sources do not settle it.",
        ),
        RuleVariant(
            "zero_strength_allies_vanquish",
            K.R_ZERO_STRENGTH_NO_VANQUISH,
            {"join": 0, "cannot_join": 1},
            "An Ally whose Strength is 0 may join a Vanquish (it counts towards Dyrnwyn's two Allies), or cannot. "
            "The sources do not settle it. (Strategies value Vanquishes by the first reading.)",
        ),
    )
}


class RuleError(ValueError):
    """An unknown rule variant or value."""


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
