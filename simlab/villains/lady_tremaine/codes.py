"""Lady Tremaine's codes, named once: the codes of the abilities her cards print (beyond the core's, in the order
her ``cards.toml`` first prints them), the rule slots of her variants and the code of the card type she declares, as
assigned when the registry was loaded. Her abilities, queries and plan import them from here and freeze them into their
kernels; :func:`simlab.villains.codes_for` keeps the numba cache of every module importing this one apart by them."""

from simlab.villains import card_type_code, codes_for, slots_for

CODES = codes_for(__name__)
OBJECTIVE = CODES["wedding_bells"]  # checked by abilities.check_nb (CHECK_OBJECTIVE)
AB_EXTRA_MOVE_OR_ACTIVATE = CODES["extra_move_or_activate"]
AB_RESHUFFLE_DISCARD_DRAW = CODES["reshuffle_discard_draw"]
AB_TRAP_HERO = CODES["trap_hero"]
AB_REFRESH_HAND = CODES["refresh_hand"]
AB_RESHUFFLE_FATE_ARRANGE = CODES["reshuffle_fate_arrange"]
AB_DEFEAT_NAMED_HERO = CODES["defeat_named_hero"]
AB_UNLOCK_PLAY_NAMED = CODES["unlock_play_named"]
AB_PEEK_FATE_DISCARD_ONE = CODES["peek_fate_discard_one"]
AB_DISCARD_GLASS_SLIPPER = CODES["discard_glass_slipper"]
AB_TRAPS_HEROES_HERE = CODES["traps_heroes_here"]
AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS = CODES["defeat_all_heroes_play_slippers"]
AB_MOVE_NAMED_HERE_TRAP = CODES["move_named_here_trap"]
AB_MOVE_HERO_HERE_TRAP = CODES["move_hero_here_trap"]
AB_ACTIVATE_TO_WIN = CODES["activate_to_win"]
AB_UNTRAP_AND_MOVE = CODES["untrap_and_move"]
AB_MOVE_OPPONENT_ALLY = CODES["move_opponent_ally"]
AB_GLASS_SLIPPER = CODES["glass_slipper"]
AB_PLAY_GLASS_SLIPPERS = CODES["play_glass_slippers"]
AB_NO_ALLIES_ENTER_BALLROOM = CODES["no_allies_enter_ballroom"]
AB_FETCH_ALLY_HERE = CODES["fetch_ally_here"]
AB_EFFECT_COST_PLUS = CODES["effect_cost_plus"]
AB_FIND_NAMED_HERO_PLAY = CODES["find_named_hero_play"]
AB_ALLIES_MOVED_ONLY_BY_FATE = CODES["allies_moved_only_by_fate"]
AB_ITEM_COST_PLUS = CODES["item_cost_plus"]
AB_DISCARD_ITEM_HERE = CODES["discard_item_here"]

SLOTS = slots_for(__name__)
R_GLASS_SLIPPERS_COVER = SLOTS["glass_slippers_cover"]
R_TRAPS_HEROES_HERE_CONTINUOUS = SLOTS["traps_heroes_here_continuous"]
R_PLAYED_WHEN_REVEALED_INTO_LOCKED = SLOTS["played_when_revealed_into_locked"]

T_PRINCE = card_type_code("Prince")
