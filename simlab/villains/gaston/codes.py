"""Gaston's codes, named once: the codes of the abilities his cards print (beyond the core's, in the order his
``cards.toml`` first prints them) and the rule slots of his variants, as assigned when the registry was loaded. His
abilities, queries and plan import them from here and freeze them into their kernels; :func:`simlab.villains.codes_for`
keeps the numba cache of every module importing this one apart by them."""

from simlab.villains import codes_for, slots_for

CODES = codes_for(__name__)
OBJECTIVE = CODES["remove_all_obstacles"]  # checked by abilities.check_nb (CHECK_OBJECTIVE)
AB_WOLF_PACK = CODES["wolf_pack"]
AB_REMOVE_OBSTACLES = CODES["remove_obstacles"]
AB_REPLACE_ONE_GAIN_OR_DRAW = CODES["replace_one_gain_or_draw"]
AB_EXTRA_VANQUISH = CODES["extra_vanquish"]
AB_REMOVE_OBSTACLES_ONE_LOCATION = CODES["remove_obstacles_one_location"]
AB_ATTACHED_STRENGTH = CODES["attached_strength"]
AB_DEFEAT_HERO_MAX_STRENGTH = CODES["defeat_hero_max_strength"]
AB_REVEAL_UNTIL_ALLY = CODES["reveal_until_ally"]
AB_REVEAL_UNTIL_HERO = CODES["reveal_until_hero"]
AB_EXTRA_MOVE = CODES["extra_move"]
AB_VANQUISH_HERE_RETURNS_ALLIES = CODES["vanquish_here_returns_allies"]
AB_NAMED_HEROES_REMOVE_REPLACE_OR_GAIN = CODES["named_heroes_remove_replace_or_gain"]
AB_PUSH_ALLIES_OUT = CODES["push_allies_out"]
AB_CLEAR_OBSTACLES_AT = CODES["clear_obstacles_at"]
AB_BLOCKS_OBSTACLE_REMOVAL = CODES["blocks_obstacle_removal"]
AB_OTHER_HEROES_HERE_PLUS = CODES["other_heroes_here_plus"]
AB_REPLACE_ONE_EACH_LOCATION = CODES["replace_one_each_location"]
AB_REPLACE_OBSTACLES = CODES["replace_obstacles"]
AB_MAY_MOVE_ONE_HERO = CODES["may_move_one_hero"]
AB_FIND_HERO_RESHUFFLE_FATE = CODES["find_hero_reshuffle_fate"]
AB_FETCH_ATTACHMENT_HERE = CODES["fetch_attachment_here"]
AB_ALLIES_HERE_MINUS = CODES["allies_here_minus"]
AB_MAY_MOVE_HEROES_OR_ITEMS = CODES["may_move_heroes_or_items"]
AB_REPLACE_ALL_ONE_LOCATION = CODES["replace_all_one_location"]
AB_PLAY_OTHER_REVEAL_AGAIN = CODES["play_other_reveal_again"]

SLOTS = slots_for(__name__)
R_OBSTACLE_WIN_AT_START_OF_TURN = SLOTS["obstacle_win_at_start_of_turn"]
R_REMOVE_N_NEEDS_N = SLOTS["remove_n_needs_n"]
R_PUSH_ALLIES_SINGLE_DESTINATION = SLOTS["push_allies_single_destination"]
R_MOVE_HEROES_SINGLE_DESTINATION = SLOTS["move_heroes_single_destination"]
