"""Shared hypothesis strategies and random-play helpers for the property tests.

A ``Setup`` is everything a random match needs: the rules (any preset of
``gnav.presets.PRESETS`` with random valid options of docs/spec/rules.md §7), a seat count within
the rules' limits (at most 12), and a seed. All chance (the first dealer, every shuffle,
every decision) comes from ``random.Random(seed)``, so a setup plays the same match
every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from gnav.events import Event
from gnav.match import MatchState
from gnav.presets import PRESETS
from gnav.rules import Rules

PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
MAX_SEATS = 12
ROUND_BOUND = 5000  # random play must end a match well before this many rounds


# -- strategies ----------------------------------------------------------------------


def _maybe(draw: st.DrawFn, options: dict[str, Any], name: str,
           values: st.SearchStrategy[Any]) -> None:
    """Either keep the preset's own value of option ``name`` or draw a new one."""
    if draw(st.booleans()):
        options[name] = draw(values)


@st.composite
def options_strategy(draw: st.DrawFn) -> dict[str, Any]:
    """A random subset of docs/spec/rules.md §7 options, each with a random valid value."""
    options: dict[str, Any] = {}
    _maybe(draw, options, "lives", st.integers(1, 10))
    _maybe(draw, options, "copies", st.integers(1, 4))
    _maybe(draw, options, "knock", st.sampled_from(("public", "silent")))
    _maybe(draw, options, "revealed", st.sampled_from(("skip", "act")))
    _maybe(draw, options, "drag", st.booleans())
    _maybe(draw, options, "two_fools", st.sampled_from(("gain", "pay", "plain")))
    _maybe(draw, options, "two_fools_sit_out", st.booleans())
    _maybe(draw, options, "penalty_to", st.sampled_from(("pool", "holder")))
    _maybe(draw, options, "stand_needs_matador", st.booleans())
    _maybe(draw, options, "max_rounds", st.one_of(st.none(), st.integers(1, 30)))
    _maybe(draw, options, "dealer_wins_ties", st.booleans())
    return options


@st.composite
def rules_strategy(draw: st.DrawFn, presets: tuple[str, ...] = PRESET_NAMES) -> Rules:
    """Any preset (of ``presets``) with random valid options."""
    name = draw(st.sampled_from(presets))
    return Rules.of(name, **draw(options_strategy()))


@dataclass(frozen=True)
class Setup:
    rules: Rules
    seats: int
    seed: int
    lives: tuple[tuple[int, int], ...] = ()  # (seat, starting lives) that differ

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"P{i}" for i in range(self.seats))

    def new_match(self) -> MatchState:
        return MatchState.new(self.rules, self.names, seed=self.seed, lives=dict(self.lives))


@st.composite
def setups(draw: st.DrawFn, presets: tuple[str, ...] = PRESET_NAMES,
           max_seats: int = MAX_SEATS, special_lives: bool = False) -> Setup:
    """Rules, a legal seat count (at most ``max_seats``) and a seed; with
    ``special_lives``, some seats may start with their own number of lives."""
    rules = draw(rules_strategy(presets))
    top = min(rules.max_seats, max_seats)
    seats = draw(st.integers(rules.min_seats, top))
    seed = draw(st.integers(0, 2**32 - 1))
    lives: dict[int, int] = {}
    if special_lives:
        lives = draw(st.dictionaries(st.integers(0, seats - 1), st.integers(1, 10),
                                     max_size=seats))
    return Setup(rules, seats, seed, tuple(sorted(lives.items())))


# -- random play ---------------------------------------------------------------------


@dataclass
class Played:
    """A match played at random: ``rounds[k]`` holds the match right after round k+1's
    deal and after each decision of it; ``events[k]`` the events of each decision;
    ``actions[k]`` the decisions as (seat, action)."""

    final: MatchState
    rounds: list[list[MatchState]] = field(default_factory=list)
    events: list[list[tuple[Event, ...]]] = field(default_factory=list)
    actions: list[list[tuple[int, str]]] = field(default_factory=list)


def random_action(match: MatchState, rng: random.Random) -> str:
    legal = match.legal_actions()
    assert legal, "a match in play always has a legal action"
    return rng.choice(legal)


def play_round(match: MatchState, rng: random.Random) -> tuple[
        list[MatchState], list[tuple[Event, ...]], list[tuple[int, str]]]:
    """Deal from ``rng`` and play the round out with random legal decisions."""
    match = match.deal(rng=rng)
    states = [match]
    events: list[tuple[Event, ...]] = []
    actions: list[tuple[int, str]] = []
    while match.phase == "play":
        seat = match.to_act
        assert seat is not None
        action = random_action(match, rng)
        match, new = match.apply_for(seat, action)
        states.append(match)
        events.append(new)
        actions.append((seat, action))
    return states, events, actions


def play_match(setup: Setup, *, rounds: int = ROUND_BOUND) -> Played:
    """Play ``setup``'s match at random until it is over or ``rounds`` rounds are played."""
    rng = random.Random(setup.seed)
    match = setup.new_match()
    played = Played(match)
    while not match.over and match.rounds < rounds:
        states, events, actions = play_round(match, rng)
        played.rounds.append(states)
        played.events.append(events)
        played.actions.append(actions)
        match = states[-1]
    played.final = match
    return played


def replay_round(before: MatchState, deal: list[int], stock: list[int],
                 actions: list[tuple[int, str]]) -> list[MatchState]:
    """Deal ``deal``/``stock`` explicitly to ``before`` and apply ``actions`` in order,
    stopping early if the round ends; every state is returned, the deal first."""
    match = before.deal(deal, stock)
    states = [match]
    for seat, action in actions:
        if match.phase != "play":
            break
        match, _ = match.apply_for(seat, action)
        states.append(match)
    return states
