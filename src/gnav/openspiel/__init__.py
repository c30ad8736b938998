"""One round of Gnav as an OpenSpiel game: importing this module registers ``python_gnav``.

The adapter is a thin layer over the engine: every decision is ``RoundState.apply``, and
every information state is read from ``gnav.views.seat_view``. What it adds is explicit
chance, so that OpenSpiel's exact algorithms (CFR, best response, ``nash_conv``) can walk
the tree:

- The deal is one chance node per position, dealer's left first, the dealer last. An
  outcome is a piece *type* (its rank, 0 the highest), with probability copies left /
  pieces left, so equal pieces are one branch and the tree stays small.
- Every stock draw is a chance node too: the engine's own (``Phase.DRAW``). The round is
  dealt with its stock undrawn, so when a request reaches the stock the engine stops
  there, offers ``chance_outcomes()`` (the pieces not dealt and not drawn yet, copies
  left / pieces left) and goes on with the piece chance applies. A request that draws a
  pass piece draws again: one chance node per piece drawn.

Players are positions: player 0 sits at the dealer's left and player ``seats - 1`` deals.
Actions: 0 ``stand``, 1 ``swap``. The game is one round; the returns are each seat's
change of lives in it (penalties, gains and the showdown). docs/rl.md shows how to play a
match on top, and ``match=true`` makes the whole match one game, its returns the match's
result (``gnav.openspiel.match_game``).

Parameters: ``preset`` (default ``gnav``), ``seats`` (default 2), ``match`` (default
false: one round), and every option of the rules contract. An option left at its
default keeps the preset's own value: ``lives``,
``copies`` and ``max_rounds`` at 0, ``knock``, ``revealed``, ``two_fools`` and
``penalty_to`` at "", and the true/false options at gnav's value (``drag``,
``two_fools_sit_out`` true; ``stand_needs_matador``, ``dealer_wins_ties`` false). A
true/false option set against gnav's value overrides the preset.

What a player sees (all of it built from its ``SeatView``, nothing else):

- ``information_state_string``: the seat's information set, ``gnav.infoset.infoset_key``
  (position, dealt piece, piece held, and every event of the round as the seat saw it),
  with the showdown added once the round is over. Perfect recall: it is the seat's
  whole round.
- ``information_state_tensor``: ``gnav.features.information``, the same round as
  one-hot slots, one per event.
- ``observation_string`` / ``observation_tensor``: the table as the seat sees it now
  (``gnav.features.observation``): its piece, who knocked, stood, swapped, which matadors
  answered, lives, the stock; no order of past events.

Before the deal is complete a seat has no view of the round: every player's strings say
so, and their tensors are zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, cast

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from gnav.bots import Bot, make_bot, parse_bot_spec
from gnav.errors import IllegalActionError, MalformedError
from gnav.events import Ask, Stand
from gnav.features import information, information_size, observation, observation_size
from gnav.match import MatchState
from gnav.openspiel.common import ACTIONS as ACTIONS
from gnav.openspiel.common import SHORT_NAME as SHORT_NAME
from gnav.openspiel.common import STAND as STAND
from gnav.openspiel.common import SWAP as SWAP
from gnav.openspiel.common import Tensors, check_player, undealt
from gnav.openspiel.common import info_string as info_string
from gnav.openspiel.common import observation_text as observation_text
from gnav.openspiel.match_game import ROUNDS_PER_LIFE
from gnav.openspiel.match_game import GnavMatchState as GnavMatchState
from gnav.options import RANGES, Options
from gnav.presets import PRESETS
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.views import SeatView, seat_view, spectator_view

# Nodes a game remembers as children of others (one or two kB each): a whole small tree
# (le-her has 5,396 states), and never an unbounded memory for long sampling runs.
CACHE_LIMIT = 50_000

_GENERIC = Options()
# An option parameter at this value keeps the preset's own value.
_KEEP: dict[str, object] = {"lives": 0, "copies": 0, "max_rounds": 0}


def _keep_value(name: str) -> object:
    if name in _KEEP:
        return _KEEP[name]
    value = getattr(_GENERIC, name)
    return value if isinstance(value, bool) else ""


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))
PARAMETERS: dict[str, object] = {"preset": "gnav", "seats": 2, "match": False,
                                 **{name: _keep_value(name) for name in OPTION_NAMES}}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Gnav (one round)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    # The largest table any preset allows: the biggest deck in 4 copies, less the stock.
    max_num_players=max(len(p.pieces) for p in PRESETS.values()) * RANGES["copies"][1] - 1,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_from_params(params: Mapping[str, object]) -> tuple[Rules, int]:
    """The rules and the seat count a parameter set stands for (see the module doc)."""
    preset = params.get("preset", "gnav")
    changes = {name: params[name] for name in OPTION_NAMES
               if name in params and params[name] != _keep_value(name)}
    rules = Rules.of(str(preset), **changes)
    seats = params.get("seats", 2)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise MalformedError(f"seats must be a whole number, not {seats!r}")
    rules.check_seats(seats)
    if params.get("match", False) is True and rules.options.max_rounds is None:
        # OpenSpiel's games are finite: a match without the rules' round limit gets one
        # no ordinary match comes near (gnav.openspiel.match_game).
        rules = Rules(rules.preset, rules.options.updated(
            {"max_rounds": ROUNDS_PER_LIFE * seats * rules.options.lives}))
    return rules, seats


class _Same:
    """Immutable: OpenSpiel's clone deep-copies a Python state's attributes, and an
    immutable value can be shared instead of copied."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> _Same:
        return self


class _Config(_Same):
    """What every state of one game shares."""

    def __init__(self, spec: object, seats: int, match: bool = False) -> None:
        self.rules = Rules.from_spec(spec)
        self.seats = seats
        self.match = match  # the whole match (gnav.openspiel.match_game), not a round
        self.lives = self.rules.options.lives
        self.stock_size = len(self.rules.deck) - seats
        self.types = len(self.rules.pieces)
        self.names = tuple(f"p{i}" for i in range(seats))
        self.cached = 0  # nodes remembered as children, up to CACHE_LIMIT
        self.info_size = information_size(self.rules, seats)
        self.obs_size = observation_size(self.rules, seats)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_Config, (self.rules.to_spec(), self.seats, self.match))


class _Node(_Same):
    """Where a game stands: the deal so far, and the round once dealt (its stock undrawn:
    the engine says when chance draws)."""

    __slots__ = ("cache", "children", "dealt", "round")

    def __init__(self, dealt: tuple[int, ...], rnd: RoundState | None) -> None:
        self.dealt = dealt
        self.round = rnd
        self.cache: dict[tuple[str, int], str] = {}
        # The node each action leads to: algorithms that walk the tree again and again
        # (CFR) then run the engine once per node, not once per visit.
        self.children: dict[int, _Node] = {}

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_Node, (self.dealt, self.round))


class GnavGame(pyspiel.Game):  # type: ignore[misc]
    """``python_gnav``: one round of a preset at a number of seats (see the module doc)."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        params = dict(params or {})
        try:
            rules, seats = rules_from_params(params)
        except ValueError as e:
            raise ValueError(f"{SHORT_NAME}: {e}") from None
        match = params.get("match", False)
        if not isinstance(match, bool):
            raise ValueError(f"{SHORT_NAME}: match must be true or false, not {match!r}")
        self.config = _Config(rules.to_spec(), seats, match)
        # Every initial state starts from this node, so the children it remembers serve
        # every walk of the tree, and a new state allocates nothing.
        self.root = _Node((), None)
        matadors = sum(1 for e in rules.effects if e is not None)
        passes = sum(1 for e in rules.effects if e is not None and e.outcome.value == "pass")
        stock = self.config.stock_size
        # One decision per seat, and per request at most every pass piece and one more.
        draws = min(stock, seats * (passes * rules.options.copies + 1))
        if match:
            # Each round: a deal of at most every seat, a decision each and the draws;
            # at most the rules' round limit of them. The match's result: 1 for its
            # winner, shared where the win is. The returns sum to 1, but one game type
            # serves the round too (general-sum), and OpenSpiel's checks hold a
            # general-sum game to no stated sum.
            rounds = rules.options.max_rounds
            assert rounds is not None  # rules_from_params sets one for a match
            info = pyspiel.GameInfo(
                num_distinct_actions=len(ACTIONS), max_chance_outcomes=len(rules.pieces),
                num_players=seats, min_utility=0.0, max_utility=1.0, utility_sum=None,
                max_game_length=rounds * (2 * seats + draws))
        else:
            info = pyspiel.GameInfo(
                num_distinct_actions=len(ACTIONS),
                max_chance_outcomes=len(rules.pieces),
                num_players=seats,
                # A seat pays at most a penalty and the showdown; it gains at most a
                # penalty from every other seat and the two fools' life.
                min_utility=-float(min(2, rules.options.lives)),
                max_utility=float(seats if matadors else 1),
                utility_sum=None,
                max_game_length=2 * seats + draws,
            )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> GnavState | GnavMatchState:
        return GnavMatchState(self) if self.config.match else GnavState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, object] | None = None) -> GnavObserver:
        """OpenSpiel's observers, which its C++ side reads (the state's own methods give
        the same): perfect recall is the information state, else the observation; no
        private information is the spectator's view."""
        if isinstance(iig_obs_type, Mapping):  # called with the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{SHORT_NAME}: observers take no parameters, not {dict(params)}")
        if iig_obs_type is None:
            return GnavObserver(self.config, perfect_recall=False, public_only=False)
        private = iig_obs_type.private_info
        if private not in (pyspiel.PrivateInfoType.SINGLE_PLAYER,
                           pyspiel.PrivateInfoType.NONE):
            raise ValueError(f"{SHORT_NAME}: only one seat's or the spectator's view exists")
        return GnavObserver(self.config, perfect_recall=bool(iig_obs_type.perfect_recall),
                            public_only=private == pyspiel.PrivateInfoType.NONE)


class GnavState(Tensors, pyspiel.State):  # type: ignore[misc]
    """A state of ``python_gnav``: chance deals, seats decide, chance draws."""

    def __init__(self, game: GnavGame) -> None:
        super().__init__(game)
        self._cfg = game.config
        self._node = game.root

    # -- the engine underneath ---------------------------------------------------------

    @property
    def round(self) -> RoundState | None:
        """The engine's round (None while the deal goes on), dealt with its stock
        undrawn: its ``stock`` is the pieces chance has drawn so far."""
        return self._node.round

    def _left(self) -> list[int]:
        """While the deal goes on: copies of each piece type not dealt yet."""
        return undealt(self._cfg.types, self._cfg.rules.deck, self._node.dealt)

    # -- OpenSpiel's API -----------------------------------------------------------------

    def current_player(self) -> int:
        rnd = self._node.round
        if rnd is None or rnd.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return rnd.turn

    def is_terminal(self) -> bool:
        rnd = self._node.round
        return rnd is not None and rnd.over

    def _legal_actions(self, player: int) -> list[int]:
        rnd = self._node.round
        assert rnd is not None and player == rnd.turn
        return [ACTIONS.index(a) for a in rnd.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rnd = self._node.round
        if rnd is not None:  # a draw: the engine's own chance step
            return [(piece, float(p)) for piece, p in rnd.chance_outcomes()]
        left = self._left()
        total = sum(left)
        return [(piece, count / total) for piece, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        node = self._node
        child = node.children.get(action)
        if child is None:
            child = self._child(action)
            cfg = self._cfg
            if cfg.cached < CACHE_LIMIT:
                node.children[action] = child
                cfg.cached += 1
        self._node = child

    def _child(self, action: int) -> _Node:
        node = self._node
        cfg = self._cfg
        rnd = node.round
        if rnd is None:
            if not 0 <= action < cfg.types or self._left()[action] <= 0:
                raise ValueError(f"{SHORT_NAME}: no piece {action} left to deal")
            dealt = (*node.dealt, action)
            if len(dealt) == cfg.seats:
                rnd = RoundState.start(cfg.rules, range(cfg.seats), dealt, None,
                                       (cfg.lives,) * cfg.seats, checked=True)
            return _Node(dealt, rnd)
        if rnd.drawing:
            if not 0 <= action < cfg.types or not rnd.chance_pool()[action]:
                raise ValueError(f"{SHORT_NAME}: no piece {action} left to draw")
            new, _ = rnd.apply(action)
        else:
            if action not in (STAND, SWAP):
                raise ValueError(f"{SHORT_NAME}: no action {action} (0 stand, 1 swap)")
            new, _ = rnd.apply(ACTIONS[action])
        return _Node(node.dealt, new)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            piece = self._cfg.rules.ids[action] if 0 <= action < self._cfg.types else "?"
            node = self._node
            if node.round is None:
                return f"deal p{len(node.dealt)}: {piece}"
            return f"draw: {piece}"
        return ACTIONS[action] if action in (STAND, SWAP) else f"action {action}"

    def returns(self) -> list[float]:
        rnd = self._node.round
        lives = self._cfg.lives
        if rnd is None or not self.is_terminal():
            return [0.0] * self._cfg.seats
        return [float(rnd.lives[s] - lives) for s in range(self._cfg.seats)]

    def view(self, player: int | None) -> SeatView | None:
        """``player``'s view of the round (None while the deal goes on); ``None`` for
        the spectator's."""
        rnd = self._node.round
        if rnd is None:
            return None
        cfg = self._cfg
        lives = (cfg.lives,) * cfg.seats
        match = MatchState(cfg.rules, cfg.names, lives, (), (), cfg.seats - 1, 1, rnd, (),
                           None, lives)
        return spectator_view(match) if player is None else seat_view(match, player)

    def _cached(self, kind: str, player: int, make: Callable[[SeatView], str]) -> str:
        node = self._node
        key = (kind, player)
        text = node.cache.get(key)
        if text is None:
            view = self.view(player)
            text = node.cache[key] = (f"p{player}: the deal" if view is None else make(view))
        return text

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        return self._cached("info", player, info_string)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        return self._cached("obs", player, observation_text)

    def __str__(self) -> str:
        """The whole truth, for debugging: the deal, the drawn stock, the hands."""
        node = self._node
        ids = self._cfg.rules.ids
        rnd = node.round
        if rnd is None:
            return "deal " + " ".join(ids[p] for p in node.dealt)
        text = (f"deal {' '.join(ids[p] for p in rnd.deal)} | hands "
                f"{' '.join(ids[p] for p in rnd.hands)} | drawn "
                f"{' '.join(ids[p] for p in rnd.stock)} | turn {rnd.turn}")
        if rnd.drawing:
            text += " | waits for a draw"
        return text


class GnavObserver:
    """OpenSpiel's Python observer for ``python_gnav``: the tensors and strings above.
    ``perfect_recall`` gives the information state, else the observation."""

    def __init__(self, cfg: _Config, *, perfect_recall: bool, public_only: bool) -> None:
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        size = cfg.info_size if perfect_recall else cfg.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def _view(self, state: GnavState | GnavMatchState, player: int) -> SeatView | None:
        return state.view(None if self.public_only else player)

    def set_from(self, state: GnavState | GnavMatchState, player: int) -> None:
        view = self._view(state, player)
        self.tensor.fill(0)
        if view is not None:
            self.tensor[:] = information(view) if self.perfect_recall else observation(view)

    def string_from(self, state: GnavState | GnavMatchState, player: int) -> str:
        if not self.public_only:  # the state's own strings: a match's too
            return state.information_state_string(player) if self.perfect_recall \
                else state.observation_string(player)
        view = self._view(state, player)
        if view is None:
            return f"p{player}: the deal"
        return ";".join(repr(e) for e in view.public)


# -- policies from bots ------------------------------------------------------------------

class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """An OpenSpiel policy that asks one of gnav's bots, through the seat's view only.

    ``spec`` names the bot as the command line does: ``kind`` or ``kind:arg``
    (``"threshold:7"``, ``"expert:my.json.gz"``). A bot with ``probabilities(view) ->
    {action: probability}`` (the ``expert``) gives its mixed strategy exactly; ``random``
    gives the uniform strategy (its coin); any other bot gives the action it chooses,
    with probability 1. The bot of player ``p`` is made from ``derive(seed, "bot", p)``,
    afresh for each question, so the answer is a function of the information state and
    the seed alone, as OpenSpiel expects of a policy."""

    def __init__(self, game: GnavGame, spec: str, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.kind, self.params = parse_bot_spec(spec)
        self.seed = seed
        self._bots = [self._make(p) for p in range(game.num_players())]

    def _make(self, player: int) -> Bot:
        return make_bot(self.kind, derive(self.seed, "bot", player), **self.params)

    def action_probabilities(self, state: GnavState,
                             player_id: int | None = None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        view = state.view(player)
        if view is None or not view.legal:
            raise IllegalActionError(f"player {player} has no decision in this state")
        bot = self._bots[player]
        probabilities = getattr(bot, "probabilities", None)
        if probabilities is not None:
            mixed = cast(Mapping[str, float], probabilities(view))
            return {ACTIONS.index(a): float(mixed.get(a, 0.0)) for a in view.legal}
        if self.kind == "random":
            return {ACTIONS.index(a): 1.0 / len(view.legal) for a in view.legal}
        chosen = self._make(player).act(view)
        return {ACTIONS.index(a): 1.0 if a == chosen else 0.0 for a in view.legal}


def policy_from_bot(game: GnavGame, kind: str, seed: int = 0) -> BotPolicy:
    """An OpenSpiel policy playing gnav's bot ``kind`` (or ``kind:arg``) for every
    player (see ``BotPolicy``)."""
    return BotPolicy(game, kind, seed)


def state_of_round(game: GnavGame, rnd: RoundState) -> GnavState:
    """The state of ``game`` at the point ``rnd`` has reached: how a match plays its rounds
    with a policy of the one-round game. Players are ``rnd``'s positions (player 0 at the
    dealer's left); the deal, the decisions and the draws of ``rnd`` are replayed through
    the adapter. Lives are the game's: a match's own lives change no decision's key."""
    cfg = game.config
    if len(rnd.seats) != cfg.seats or rnd.rules != cfg.rules:
        raise MalformedError(f"{SHORT_NAME}: a round of {len(rnd.seats)} seats of "
                             f"{rnd.rules.name} is not a state of {game}")
    state = game.new_initial_state()
    for piece in rnd.deal:
        state.apply_action(piece)
    draws = iter(rnd.stock[: rnd.drawn])
    for e in rnd.public:
        if isinstance(e, Stand | Ask):
            state.apply_action(STAND if isinstance(e, Stand) else SWAP)
            while state.is_chance_node():
                state.apply_action(next(draws))
    return state


def load(preset: str = "gnav", seats: int = 2, **options: object) -> GnavGame:
    """``pyspiel.load_game("python_gnav", ...)`` with the rules contract's option names."""
    params: dict[str, object] = {"preset": preset, "seats": seats}
    for name, value in options.items():
        if name not in OPTION_NAMES:
            raise MalformedError(f"unknown option {name!r} (options: {', '.join(OPTION_NAMES)})")
        params[name] = 0 if name == "max_rounds" and value is None else value
    return cast(GnavGame, pyspiel.load_game(SHORT_NAME, params))


pyspiel.register_game(_GAME_TYPE, GnavGame)
