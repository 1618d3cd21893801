"""Integer codes shared by the card tables, the game state and the kernels.

Module-level ints are frozen into compiled kernels as constants, which is what we want for codes
that never change; everything that can change between runs (card tables, rule variants) is passed to
the kernels as arrays instead.
"""

# ----------------------------------------------------------------------------- card types
T_ALLY = 0
T_HERO = 1
T_ITEM = 2
T_EFFECT = 3
T_CONDITION = 4
CARD_TYPES = ("Ally", "Hero", "Item", "Effect", "Condition")  # a villain's folder may declare more ([[card_type]])

# ----------------------------------------------------------------------------- zones of a card instance
Z_VDECK = 0  # Villain deck
Z_HAND = 1
Z_VDISCARD = 2  # Villain discard pile
Z_REALM = 3  # at a location of its owner's Realm (loc >= 0)
Z_FDECK = 4  # Fate deck
Z_FDISCARD = 5  # Fate discard pile
Z_LIMBO = 6  # revealed or being resolved (Effects, revealed Fate cards)
Z_OUT = 7  # out of the game: a slot left empty by a card edit that shortens the deck
N_ZONES = 8
ZONE_NAMES = ("deck", "hand", "discard", "realm", "fate deck", "fate discard", "limbo", "out of the game")

# ----------------------------------------------------------------------------- action symbols
S_GAIN = 0
S_PLAY = 1
S_ACTIVATE = 2
S_MOVE = 3
S_FATE = 4
S_VANQUISH = 5
S_DISCARD = 6
SYMBOL_NAMES = ("gain_power", "play_card", "activate", "move_item_or_ally", "fate", "vanquish", "discard_cards")
MAX_SYMBOLS = 6  # per location, top row first

# ----------------------------------------------------------------------------- attachment kinds
A_NONE = 0
A_ALLY = 1
A_HERO = 2

# ----------------------------------------------------------------------------- objectives
# A villain's objective is a name its folder declares ([villain] objective), with a code of its own; the villain's
# check (CHECK_OBJECTIVE) says whether it holds. The engine asks at the points the folder names
# ([villain] objective_checked: one bit each of VF_OBJECTIVE_POINTS) and declares the win; OBJECTIVE_MET asks at
# any time (the invariant checks).
OBJECTIVE_AFTER_OBSTACLE_REMOVED = 0  # right after one of the seat's Obstacles is removed
OBJECTIVE_AT_TURN_START = 1  # at the start of the seat's turn, before anything else
OBJECTIVE_BETWEEN_STEPS = 2  # after each step of the game
OBJECTIVE_MET = 3
OBJECTIVE_POINTS = {"after_obstacle_removed": 0, "turn_start": 1, "between_steps": 2}

# ----------------------------------------------------------------------------- conditions (triggers)
C_NONE = 0
C_OPPONENT_FOUR_ACTIONS = 1
C_OPPONENT_DISCARD_ACTION = 2
C_OPPONENT_VANQUISH_ACTION = 3
C_OPPONENT_PLAYS_ITEM = 4
C_FATED = 5

# ----------------------------------------------------------------------------- ability opcodes
# One vocabulary for every ability slot of a card (effect, on_play, on_enter, on_defeat, passive,
# activate); the card loader checks that each name is used in a slot where the engine handles it. The codes here
# are the core's; every ability a villain's folder prints gets its code when the registry is loaded
# (simlab.villains.ability_codes), from the codes left free below N_ABILITY_CODES (an ongoing ability from
# PASSIVE_CODES).
AB_NONE = 0
# Effects the core resolves itself (a villain's folder declares the codes of its other Effects, activations and
# when-played abilities; they are assigned below FIRST_PASSIVE)
AB_PLAY_HERO_FROM_FATE_DISCARD = 11
AB_HIJACK_FATE = 21
# Ongoing (passive) abilities: FIRST_PASSIVE and up, bit p - FIRST_PASSIVE of the villain table's VF_PASSIVES (the
# core reads none: each is its villain's folder's, asked by the engine and the queries where its text changes a rule)
FIRST_PASSIVE = 70

N_ABILITY_CODES = 128  # every ability code is below this: the engine's tables of villain routines have one entry a code
PASSIVE_CODES = range(FIRST_PASSIVE, FIRST_PASSIVE + 63)  # an ongoing ability's code: one bit of VF_PASSIVES
ABILITY_CODES = {k[3:].lower(): v for k, v in dict(globals()).items() if k.startswith("AB_")}
ABILITY_NAMES = {v: k for k, v in ABILITY_CODES.items()}
CONDITION_CODES = {k[2:].lower(): v for k, v in dict(globals()).items() if k.startswith("C_") and k != "CARD_TYPES"}

# Which ability names the engine handles in each slot of a card.
EFFECT_SLOT = frozenset(n for n, v in ABILITY_CODES.items() if 1 <= v < 40)
ACTIVATE_SLOT = frozenset()  # the core handles no Activated Ability, no when-played ability
ON_PLAY_SLOT = frozenset()
ON_ENTER_SLOT = frozenset()
ON_DEFEAT_SLOT = frozenset()
PASSIVE_SLOT = frozenset(n for n, v in ABILITY_CODES.items() if v >= FIRST_PASSIVE)
assert max(ABILITY_CODES.values()) - FIRST_PASSIVE < 63, "VF_PASSIVES holds one bit per passive ability"
TILE_SLOT = frozenset()  # a villain's tile ([tile] ability): the core handles none

# ---------------------------------------------------------------- rule variants (index into the rules array)
# The core rules' slots; a villain's folder's rule variants ([[rule]] slot) get theirs when the registry is loaded
# (simlab.villains.rule_slots), the indices left free below N_RULES.
R_OBSTACLES_COVER = 5
R_UNPRINTED_ACTIVATION_COST = 8
R_MAX_TURNS = 12
R_OTHER_REVEALED_AFTER = 13  # the other revealed Fate card is discarded after the chosen one resolves
R_FOUR_ACTIONS_ONCE = 14  # "after 4 actions" Conditions are offered once per turn, not after every later action
R_ZERO_STRENGTH_NO_VANQUISH = 15  # an Ally at Strength 0 cannot join a Vanquish
N_RULES = 32  # room for the slots of villains added later
RULE_SLOTS = {k[2:].lower(): v for k, v in dict(globals()).items() if k.startswith("R_")}  # for [[rule]] tables

# ----------------------------------------------------------------------------- per-seat scalars: State.sv[seat, SV_*]
SV_VILLAIN = 0  # index of the villain in the tables
SV_POWER = 1
SV_MOVER = 2  # location of the Villain Mover
SV_TILE = 3  # the villain's tile: 0 not claimed, 1 its front side shows, 2 its back side
SV_SWAP_USED = 4  # the Power side was used this turn
SV_TURNS = 5  # turns taken
SV_VDECK_N = 6  # cards in the Villain deck (top = State.vdeck[seat, n - 1])
SV_FDECK_N = 7  # cards in the Fate deck
SV_STRATEGY = 8  # strategy id deciding for this seat
SV_TRAPS = 9  # Trapped tokens left in the supply
SV_SEAT_ORDER = 10  # 0 = first player
SV_OBST = 11  # SV_OBST + loc: Obstacles on that location
SV_LOCK = 15  # SV_LOCK + loc: 1 while that location is locked
SV_ZONE = 19  # SV_ZONE + zone: bitmask of the seat's instances in that zone (bit k = instance k), kept by set_zone_nb
SV_REALM_PASSIVES = 27  # bit p - FIRST_PASSIVE: a card in the seat's Realm (trapped or not) has ongoing ability p,
# kept by set_zone_nb from I_PASSIVE; a clear bit lets strength_nb skip its walk of the Realm
N_SV = 28

# ----------------------------------------------------------------------------- card instances: State.inst[seat, k, I_*]
I_CARD = 0  # card-table row
I_ZONE = 1  # Z_*
I_LOC = 2  # location 0-3 while in the Realm, else -1
I_HOST = 3  # instance this card is attached to, else -1
I_TRAPPED = 4  # 1 if a Trapped token is on this Hero
I_FLAGS = 5  # FLAG_DRAWN | FLAG_PLAYED seen this game
I_PASSIVE = 6  # the card's ongoing ability (its CF_PASSIVE), copied when the game is set up, for set_zone_nb
N_I = 7

# ----------------------------------------------------------------------------- card table: Tables.card[row, CF_*]
CF_TYPE = 0  # T_*
CF_COST = 1  # Power cost (0 for Fate cards and Conditions)
CF_STRENGTH = 2  # printed Strength (0 where none)
CF_VILLAIN = 3  # villain row owning the card
CF_FATE = 4  # 1 if the card belongs to a Fate deck
CF_EFFECT = 5  # AB_* resolved when an Effect or Condition is played
CF_CONDITION = 6  # C_* trigger of a Condition
CF_ON_PLAY = 7  # AB_* when played
CF_ON_ENTER = 8  # AB_* when played or moved
CF_ON_DEFEAT = 9  # AB_* when defeated
CF_PASSIVE = 10  # AB_* ongoing ability
CF_ACTIVATE = 11  # AB_* Activated Ability
CF_ACTIVATE_COST = 12  # Power, or -1 = not printed (a rule variant decides)
CF_ATTACH = 13  # A_* what an Item attaches to
CF_LOCATION = 14  # location index the card names, or -1
CF_N = 15  # the number in the card's text
CF_REF0 = 16  # card row the text names, or -1
CF_REF1 = 17
CF_SWAP_FROM = 18  # row of the everyday version a Ball Gown card replaces, or -1
CF_EXCLUSIVE = 19  # row of the other version whose presence blocks this card, or -1
CF_UNTRAPPABLE = 20
CF_MARKED = 21  # 1: a card its villain's folder marks ([[card]] marked) for its own routines and plan
CF_ADMITTED = 22  # may be played or moved to its villain's admits-only location
CF_BLOCKED = 23  # 1: ablated, never played (from hand, as a Condition, by a swap or when revealed by a Fate action)
CF_WHEN_REVEALED = 24  # 1: revealed by a Fate action, played at once to its location (its card type says so)
# what the card's ongoing ability does to Strength, from its villain's [[strength]] data (simlab/data/cards.py), so
# query.strength_nb reads it inline: whose Strength (SC_*), counted per what (SP_*, its own only), SF_* conditions,
# and the change per count (signed; the card's number already put in where the data says "n")
CF_STR_CHANGES = 25
CF_STR_PER = 26
CF_STR_FLAGS = 27
CF_STR_AMOUNT = 28
CF_SLOT = 29  # the card's place among its villain's cards of the same deck, in the data's order (0, 1, ...)
N_CF = 30

# whose Strength a card's ongoing ability changes (CF_STR_CHANGES)
SC_NONE = 0
SC_OWN = 1  # its own
SC_HOST = 2  # the card it is attached to
SC_ALLIES_HERE = 3  # each Ally at its location
SC_HEROES_HERE = 4  # each other Hero at its location
SC_OTHER_HEROES = 5  # every other Hero in the Realm
# what its own change is counted per (CF_STR_PER)
SP_FLAT = 0  # once
SP_OTHER_COPY = 1  # each other copy of the card in the Realm
SP_ALLY_HERE = 2  # each other Ally at its location
SP_HERO_HERE = 3  # each other Hero at its location
# conditions (CF_STR_FLAGS bits)
SF_ONCE = 1  # counted at most once
SF_UNTRAPPED = 2  # only while the card is an untrapped Hero

# ----------------------------------------------------------------------------- villain table: Tables.vil[v, VF_*]
VF_OBJECTIVE = 0  # the code of the villain's objective (see OBJECTIVE_POINTS)
VF_HAS_TILE = 1  # 1: the villain has a tile ([villain] has_tile)
VF_TRAPS = 2  # Trapped tokens
VF_SWAP_COST = 3  # Power to use the tile's back side ([tile] swap_cost)
VF_FLIP_COST = 4  # activation cost of the tile's front side, -1 = not printed
VF_TILE = 5  # AB_* of the villain's tile, resolved by its villain's routines ([tile] ability), 0 = none
VF_PASSIVES = 6  # bit p - FIRST_PASSIVE set: some card of the villain's two decks has ongoing ability p. A seat's
# Realm holds only its own decks' cards, so a clear bit answers "none in play" without walking the Realm
VF_OBJECTIVE_POINTS = 7  # bit p: the engine asks whether the objective holds at point p (OBJECTIVE_POINTS)
VF_WATCHING = 8  # bit p - FIRST_PASSIVE: ongoing ability p watches where cards stand ([villain] watching): it acts
# as its card is played and whenever a card enters or moves in the Realm, by its villain's routine
VF_ALLY_STRENGTH = 9  # bit p - FIRST_PASSIVE: ongoing ability p of the villain's cards changes other Allies' Strength
VF_HERO_STRENGTH = 10  # the same for other Heroes' Strength
N_VF = 11

# board symbols: Tables.syms[v, loc, j, SY_*], j = 0.. with the top row first
SY_KIND = 0  # S_*, -1 = none
SY_VAL = 1  # Power of a gain symbol
SY_TOP = 2  # 1 if in the top (coverable) row
N_SY = 3

# locations: Tables.locs[v, loc, LC_*]
LC_NSYM = 0
LC_SPOTS = 1  # Obstacle spots
LC_LOCKED = 2  # locked at setup
LC_ADMITS_ONLY = 3  # only admitted cards may be played or moved there
N_LC = 4

# ----------------------------------------------------------------------------- global scalars: State.g[G_*]
G_NSEATS = 0
G_ACTIVE = 1  # seat whose turn it is
G_PHASE = 2  # PH_*
G_ROUND = 3  # 1-based round number
G_WINNER = 4  # seat, or -1
G_END = 5  # END_* reason
G_ACTIONS = 6  # actions taken this turn (extra actions from cards included)
G_USED = 7  # bitmask of the board symbols used at the mover's location this turn
G_AS_USED = 8  # Activate actions granted by cards in the Realm (query.Q_GRANTED_ACTIVATES) used this turn
G_NOPT = 9  # options currently in State.opts
G_LOG_N = 10
G_SP = 11  # routines on the stack (State.fr[:G_SP]); 0 between steps
G_ASK = 12  # 1 while a decision waits for a player (State.opts[:G_PEND_N], G_PEND_*)
G_CHOICE = 13  # index of the option chosen for the last decision (read by the routine that asked)
G_PEND_N = 14  # the waiting decision: number of options
G_PEND_KIND = 15  # DK_*
G_PEND_PLAYER = 16  # seat deciding
G_PEND_CTX = 17  # ability (AB_*) or trigger being resolved
G_TRIGGERS = 18  # bitmask of TRIG_* raised during the current step
G_DECISIONS = 19  # decisions taken by a player (forced choices are not counted)
G_STEPS = 20
G_ITEM_ACTOR = 21  # seat that played the Item raising TRIG_ITEM
G_PEND_REALM = 22  # seat whose Realm the waiting decision concerns
G_RET0 = 23  # values returned by the routine that finished last
G_RET1 = 24
G_FOUR_OPENED = 25  # the "after 4 actions" Condition window has opened this turn
G_SCORING = 26  # 1 while a strategy scores a decision: State.memo then keeps what it has worked out (else 0)
G_MEMO_KEPT = 27  # G_STEPS + 1 at the decision (of kind G_MEMO_FOR) that may keep the memo the strategy's last
# decision worked out (strategies.heuristic: the step between changes nothing its values read); 0: none may
G_MEMO_FOR = 28
G_MEMO_READS = 29  # READ_* bits: what the values in the memo read that some steps change (query.py's accessors)
N_G = 30
READ_MOVER = 1  # the Villain Mover's location (mover_location_nb)
READ_USED = 2  # the board symbols used this turn (used_symbols_nb)

TRIG_VANQUISH = 1
TRIG_DISCARD = 2
TRIG_ITEM = 4

# ----------------------------------------------------------------------------- phases of a turn
PH_START = 0  # start-of-turn effects
PH_BEFORE_MOVE = 1  # "before you move" abilities
PH_MOVE = 2
PH_ACTIONS = 3
PH_END = 4  # draw up to 4, pass the turn
PH_OVER = 5
PHASE_NAMES = ("start", "before_move", "move", "actions", "end", "over")

END_NONE = 0
END_OBJECTIVE = 1
END_TURN_CAP = 2
END_REASONS = ("none", "objective", "turn_cap")

# ----------------------------------------------------------------------------- decisions
DK_MOVE = 0  # where to move the Villain Mover
DK_ACTION = 1  # next action, or end the turn
DK_LOCATION = 2  # a location (context: the ability)
DK_CARD = 3  # a card instance (context: the ability)
DK_MODE = 4  # one of a card's modes
DK_VANQUISH_ALLY = 5  # add an Ally to a Vanquish, or done
DK_DISCARD = 6  # discard a card, or done
DK_FATE_PICK = 7  # which revealed Fate card to play, and where
DK_CONDITION = 8  # play a Condition, or pass
DK_ARRANGE = 9  # which card goes next on top of a deck
DK_SWAP = 10  # use the back side of the tile, or pass
DK_PLACE = 11  # where to play a card (location, host)
DECISION_NAMES = (
    "move",
    "action",
    "location",
    "card",
    "mode",
    "vanquish_ally",
    "discard",
    "fate_pick",
    "condition",
    "arrange",
    "swap",
    "place",
)

# option rows: State.opts[i] = (code, a, b, c)
O_PASS = 0  # end the turn / decline / done
O_GAIN = 1  # a = symbol index, b = amount
O_PLAY = 2  # a = card instance, b = location, c = host instance (-1 none)
O_ACTIVATE = 3  # a = card instance (-1 = the villain's tile)
O_MOVE = 4  # a = card instance, b = destination
O_FATE = 5  # a = target seat
O_VANQUISH = 6  # a = Hero instance
O_DISCARD = 7  # take the Discard action
O_LOC = 8  # a = location
O_CARD = 9  # a = card instance (b = seat owning it)
O_MODE = 10  # a = mode
O_FATE_PLAY = 11  # a = revealed instance, b = location, c = host instance
O_SWAP = 12  # a = the instance swapped out, b = the tile Ally swapped in, c = destination
O_SEAT = 13
OPTION_NAMES = (
    "pass",
    "gain",
    "play",
    "activate",
    "move",
    "fate",
    "vanquish",
    "discard",
    "location",
    "card",
    "mode",
    "fate_play",
    "swap",
    "seat",
)

# modes of multi-choice cards
M_GAIN = 0
M_DRAW = 1
M_CLAIM = 2
M_SHUFFLE = 3
M_MOVE = 4
M_ACTIVATE = 5
M_MOVE_HEROES = 6
M_MOVE_ITEMS = 7
M_LOSE_POWER = 8
M_DISCARD_CARDS = 9
M_FIND = 10
M_DEFEAT = 11
M_NOTHING = 12
MODE_NAMES = (
    "gain power",
    "draw",
    "claim the tile",
    "shuffle discard into deck",
    "move",
    "activate",
    "move all Heroes",
    "move Fate Items",
    "lose Power",
    "discard cards",
    "find",
    "defeat",
    "nothing",
)

# ---------------------------------------------------------------- log events: State.log[i] = (ev, seat, a, b, c, d)
EV_TURN = 0  # seat, round, power
EV_MOVE_MOVER = 1  # seat, loc
EV_GAIN = 2  # seat, amount, power after
EV_PLAY = 3  # seat, inst, loc, host, cost
EV_ACTIVATE = 4  # seat, inst (-1 the tile), cost
EV_MOVE_CARD = 5  # seat(realm), inst, from, to
EV_FATE = 6  # actor, target
EV_REVEAL = 7  # realm seat, inst
EV_FATE_PLAY = 8  # realm seat, inst, loc, host, actor
EV_FATE_DISCARD = 9  # realm seat, inst
EV_VANQUISH = 10  # seat, hero inst, n allies, strength
EV_DEFEAT = 11  # seat, hero inst
EV_DISCARD = 12  # seat, inst
EV_DRAW = 13  # seat, inst
EV_OBSTACLE_REMOVE = 14  # seat, loc, left
EV_OBSTACLE_REPLACE = 15  # seat, loc, left
EV_TRAP = 16  # seat, inst
EV_UNTRAP = 17
EV_TILE = 18  # seat, side
EV_CONDITION = 19  # seat, inst
EV_WIN = 20  # seat, objective
EV_SHUFFLE = 21  # seat, which (0 villain deck, 1 fate deck)
EV_SWAP = 22  # seat, AS inst, CB inst, loc
EV_TURN_CAP = 23
EV_UNLOCK = 24  # seat, loc
EV_POWER_LOSS = 25  # seat, amount
EV_TO_HAND = 26  # seat, inst
EV_CHOICE = 27  # player, kind, option index, n options
EV_HIJACK = 28  # seat (LT), inst
EV_END_TURN = 29  # seat

# ----------------------------------------------------------------------------- sizes
N_LOC = 4
N_VCARDS = 30
N_FCARDS = 15
N_INST = N_VCARDS + N_FCARDS  # card instances per seat: villain cards first, then Fate cards
MAX_OPTS = 512
N_MEMO = 11  # rows of State.memo per seat (what each holds: strategies.heuristic, M_*)

# ----------------------------------------------------------------------------- routine frames: State.fr[depth, FR_*]
FR_ROUTINE = 0  # RT_* of the routine
FR_PC = 1  # where it resumes: 0 = start, other values name a point after a decision or a call
FR_A = 2  # first of its argument and local slots
N_LOCALS = 12
N_FR = FR_A + N_LOCALS
MAX_DEPTH = 32
FLAG_DRAWN = 1
FLAG_PLAYED = 2
