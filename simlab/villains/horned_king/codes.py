"""The Horned King's codes, named once: the codes of the abilities his cards print (beyond the core's, in the order
his ``cards.toml`` first prints them) and the rule slots of his variants, as assigned when the registry was loaded.
His abilities, queries and plan import them from here and freeze them into their kernels;
:func:`simlab.villains.codes_for` keeps the numba cache of every module importing this one apart by them."""

from simlab.villains import codes_for, slots_for

CODES = codes_for(__name__)
OBJECTIVE = CODES["cauldron_born_everywhere"]  # checked by abilities.check_nb (CHECK_OBJECTIVE)
AB_GRANTS_ACTIVATE = CODES["grants_activate"]
AB_TILE_ALLY = CODES["tile_ally"]
AB_VANQUISH_ADJACENT = CODES["vanquish_adjacent"]
AB_FREE_ITEM = CODES["free_item"]
AB_POWER_CAULDRON = CODES["power_cauldron"]
AB_CLAIM_OR_GAIN = CODES["claim_or_gain"]
AB_POWER_PER_HERO = CODES["power_per_hero"]
AB_FIND_OR_DEFEAT_STRENGTH = CODES["find_or_defeat_strength"]
AB_RESHUFFLE_OR_PAY_CLAIM = CODES["reshuffle_or_pay_claim"]
AB_DRAW = CODES["draw"]
AB_MOVES_TO_VILLAIN_AFTER_VANQUISH = CODES["moves_to_villain_after_vanquish"]
AB_PLUS_WITH_ALLY_HERE = CODES["plus_with_ally_here"]
AB_DISCARD_HAND_DRAW = CODES["discard_hand_draw"]
AB_MAY_MOVE_EACH_HERO = CODES["may_move_each_hero"]
AB_ATTACHED_NEEDS_TWO_ALLIES = CODES["attached_needs_two_allies"]
AB_BLOCKS_GRANTING_ITEMS_HERE = CODES["blocks_granting_items_here"]
AB_GATHER_ALLIES = CODES["gather_allies"]
AB_RETURNS_TO_FATE_DECK = CODES["returns_to_fate_deck"]
AB_RESHUFFLE_FATE_PLAY_TWO = CODES["reshuffle_fate_play_two"]
AB_DEPOWER_CAULDRON = CODES["depower_cauldron"]
AB_CLAIM_CAULDRON = CODES["claim_cauldron"]
AB_NO_EFFECTS = CODES["no_effects"]
AB_OTHER_HEROES_PLUS = CODES["other_heroes_plus"]
AB_PLUS_PER_OTHER_HERO_HERE = CODES["plus_per_other_hero_here"]
AB_LOSE_POWER_OR_DISCARD = CODES["lose_power_or_discard"]
AB_FLIP_CAULDRON = CODES["flip_cauldron"]

SLOTS = slots_for(__name__)
R_TILE_ALLY_ANY_LOCATION = SLOTS["tile_ally_any_location"]
R_TILE_ALLY_PLAY_CARD = SLOTS["tile_ally_play_card"]
R_MOVE_EACH_HERO_SINGLE_DESTINATION = SLOTS["move_each_hero_single_destination"]
