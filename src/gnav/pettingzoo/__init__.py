"""Gnav as a PettingZoo AEC environment, ``gnav_v0``: one agent per seat, turn by turn.

``env(preset="gnav", seats=3, mode="match", render_mode=None, ...)`` is the environment
wrapped in PettingZoo's usual checks; ``raw_env`` is the bare one. The engine plays the
game (``MatchState``) and every observation is read from the seat's ``SeatView``:

- agents ``seat_0`` … ``seat_{n-1}``; actions ``Discrete(2)``: 0 stand, 1 swap;
- an observation is ``{"observation": features.observation(view), "action_mask": [stand,
  swap]}``: the mask is all zeros for an agent whose turn it is not. With
  ``perfect_recall=True`` the observation is ``features.information(view)`` instead: the
  whole round as the seat saw it, event by event;
- the reward of a step is each seat's change of lives in it (penalties, gains, the
  showdown), so a round's rewards add up to the seat's change of lives in the round;
- ``mode="round"``: one round, after which every agent terminates; ``mode="match"``: the
  match, round after round (the deals come from the seed), until one seat is left (or
  ``max_rounds``); a seat knocked out terminates then, the rest when the match ends.
  ``info["winners"]`` names the winners at the end;
- ``max_cycles``: the match is truncated after that many rounds (each seat acts at most
  once a round, so a round is one cycle of the agents);
- ``reset(seed=...)`` seeds the first dealer and every deal: the same seed and the same
  actions give the same game;
- ``render_mode="ansi"`` returns the terminal game's table (``gnav.tui``) as a string,
  ``"human"`` prints it; both show the spectator's view, so no hidden piece ever shows
  before the showdown.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gnav.errors import MalformedError
from gnav.features import information, information_size, observation, observation_size
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.tui.board import play_frame
from gnav.tui.style import Style
from gnav.views import SeatView, seat_view, spectator_view
from gnav.vocab import Action

NAME = "gnav_v0"
MODES = ("round", "match")
RENDER_COLS = 100
# The actions of the Discrete(2) space, by index.
ACTIONS: tuple[Action, ...] = (Action.STAND, Action.SWAP)


def env(**kwargs: Any) -> Any:
    """``raw_env`` in PettingZoo's wrappers: an illegal move or an action out of bounds is
    an error, and the order of calls is checked."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


RENDER_MODES = ("human", "ansi")


class raw_env(AECEnv):  # type: ignore[misc]
    """The environment itself (PettingZoo's name for it); ``env`` wraps it."""

    metadata: ClassVar[dict[str, object]] = {
        "render_modes": list(RENDER_MODES), "name": NAME, "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, preset: str = "gnav", seats: int = 3, *, mode: str = "match",
                 render_mode: str | None = None, max_cycles: int | None = None,
                 options: Mapping[str, object] | None = None,
                 perfect_recall: bool = False) -> None:
        super().__init__()
        if mode not in MODES:
            raise MalformedError(f"{NAME}: mode must be round or match, not {mode!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise MalformedError(f"{NAME}: render_mode must be human, ansi or None, not "
                                 f"{render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or
                                       not isinstance(max_cycles, int) or max_cycles < 1):
            raise MalformedError(f"{NAME}: max_cycles must be a whole number of at least 1, "
                                 f"not {max_cycles!r}")
        self.rules = Rules.of(preset, **dict(options or {}))
        self.rules.check_seats(seats)
        self.seats = seats
        self.mode = mode
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        self.agents = self.possible_agents[:]
        self._names = tuple(self.possible_agents)
        self.perfect_recall = bool(perfect_recall)
        self._encode = information if self.perfect_recall else observation
        size = (information_size if self.perfect_recall else observation_size)(self.rules, seats)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(len(ACTIONS),), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(len(ACTIONS))
        self._rng = Random()
        self.match: MatchState | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- the game ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:  # a game of its own
            seed = Random().getrandbits(63)
        self._rng = Random(derive(seed, "deals"))
        match = MatchState.new(self.rules, self._names, seed=derive(seed, "match"))
        self.match = match.deal(rng=self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        match = self.match
        assert match is not None
        seat = match.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def view(self, agent: str | None) -> SeatView:
        """``agent``'s view of the game now; None gives the spectator's."""
        if self.match is None:
            raise MalformedError(f"{NAME}: call reset() before anything else")
        if agent is None:
            return spectator_view(self.match)
        return seat_view(self.match, self._names.index(agent))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = self.view(agent)
        mask = np.array([a in view.legal for a in ACTIONS], dtype=np.int8)
        return {"observation": np.asarray(self._encode(view), dtype=np.float32),
                "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        view = self.view(agent)
        move = ACTIONS[int(action)]
        if move not in view.legal:
            raise MalformedError(f"{NAME}: {agent} may not {move} now (legal: "
                                 f"{', '.join(view.legal)})")
        before = match.current_lives()
        match, _ = match.apply_for(self._names.index(agent), move)
        self._cumulative_rewards[agent] = 0.0
        if match.round is not None and match.round.over and not match.over:
            self._round_over(match)
            if self.mode == "match" and not self._truncated(match):
                match = match.deal(rng=self._rng)
        self.match = match
        after = match.current_lives()
        for seat, name in enumerate(self._names):
            if name in self.rewards:
                self.rewards[name] = float(after[seat] - before[seat])
        self._finish(match)
        self._accumulate_rewards()
        self._select()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _truncated(self, match: MatchState) -> bool:
        return self.max_cycles is not None and match.rounds >= self.max_cycles

    def _round_over(self, match: MatchState) -> None:
        """Between rounds of a match: seats knocked out terminate."""
        for seat in match.out:
            name = self._names[seat]
            if name in self.terminations:
                self.terminations[name] = True

    def _finish(self, match: MatchState) -> None:
        rnd = match.round
        ended = rnd is not None and rnd.over
        if match.over or (ended and self.mode == "round"):
            winners = match.winners
            for name in self.agents:
                self.terminations[name] = True
                if winners is not None:
                    self.infos[name]["winners"] = [self._names[s] for s in winners]
        elif ended and self._truncated(match):
            for name in self.agents:
                if not self.terminations[name]:
                    self.truncations[name] = True

    # -- output ------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        view = self.view(None)
        prompt = [] if view.to_act is None else [f"{self._names[view.to_act]} to act"]
        if self.match is not None and self.match.over and self.match.winners is not None:
            prompt = ["won by " + ", ".join(self._names[s] for s in self.match.winners)]
        start = self.match.start_lives if self.match is not None else ()
        lines = play_frame(view, start, None, prompt, style=Style(False), cols=RENDER_COLS,
                           rows=60, lang=self.rules.preset.lang, title=self.rules.preset.title)
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None
