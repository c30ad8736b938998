"""``python_gnav(match=true)``: the whole match as one OpenSpiel game, its returns the
match's result, passing OpenSpiel's own checks; the one-round game stays as it was."""

from __future__ import annotations

import re
from random import Random

import pyspiel
import pytest

import gnav.openspiel as gos
from gnav.openspiel.match_game import ROUNDS_PER_LIFE, GnavMatchState
from gnav.rules import Rules

CHECKED = [("gnav", 2, 0), ("gnav", 3, 2), ("chase-the-ace", 3, 0), ("le-her", 2, 2),
           ("slabberjan", 2, 2)]


def _load(preset: str, seats: int, lives: int = 0) -> gos.GnavGame:
    game = pyspiel.load_game("python_gnav", {"preset": preset, "seats": seats,
                                             "lives": lives, "match": True})
    assert isinstance(game, gos.GnavGame)
    return game


def _play(game: gos.GnavGame, rng: Random) -> tuple[GnavMatchState, list[int]]:
    """A match at random, every chance node's probabilities checked; the chance
    outcomes in order."""
    state = game.new_initial_state()
    assert isinstance(state, GnavMatchState)
    chance: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            actions, probs = zip(*outcomes, strict=True)
            action = rng.choices(actions, probs)[0]
            chance.append(action)
        else:
            assert state.current_player() == state.match.to_act
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return state, chance


@pytest.mark.parametrize(("preset", "seats", "lives"), CHECKED)
def test_openspiels_random_sim_with_serialisation(preset: str, seats: int,
                                                  lives: int) -> None:
    pyspiel.random_sim_test(_load(preset, seats, lives), num_sims=3, serialize=True,
                            verbose=False)


@pytest.mark.parametrize(("preset", "seats", "lives"), CHECKED)
def test_the_returns_are_the_matchs_result(preset: str, seats: int, lives: int) -> None:
    game = _load(preset, seats, lives)
    rng = Random(f"{preset}{seats}")
    for _ in range(4):
        state, chance = _play(game, rng)
        winners = state.match.winners
        assert winners is not None
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0)
        assert returns == [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]
        # The engine's rounds are the chance outcomes: each deal in turn order, then
        # the pieces its requests drew from the stock, round after round.
        at = 0
        for rnd in state.match.history:
            deal, drawn = list(rnd.deal), list(rnd.stock[: rnd.drawn])
            assert chance[at: at + len(deal)] == deal
            at += len(deal)
            assert chance[at: at + len(drawn)] == drawn
            at += len(drawn)
        assert at == len(chance)
        # Every seat that lost the match is out or has fewer lives than a winner.
        lives_now = state.match.current_lives()
        best = max(lives_now[s] for s in winners)
        for s in range(seats):
            if s not in winners:
                assert s in state.match.out or lives_now[s] < best


def test_a_match_is_finite_where_the_rules_set_no_round_limit() -> None:
    game = _load("gnav", 2)
    rules = Rules.of("gnav")
    assert rules.options.max_rounds is None
    assert game.config.rules.options.max_rounds == ROUNDS_PER_LIFE * 2 * rules.options.lives
    limited = pyspiel.load_game("python_gnav", {"seats": 2, "match": True,
                                                "max_rounds": 3})
    assert limited.config.rules.options.max_rounds == 3
    assert limited.max_game_length() < game.max_game_length()


def test_a_seat_cannot_tell_hidden_pieces_apart_until_the_showdown() -> None:
    """Two matches whose first deals differ only in the dealer's piece: the first seat's
    information state is the same while the round is played, and the showdown (kept for
    the rest of the match) tells them apart."""
    game = _load("le-her", 2, 2)
    ids = Rules.of("le-her").ids
    states = []
    for theirs in ("2", "3"):
        state = game.new_initial_state()
        state.apply_action(ids.index("9"))
        state.apply_action(ids.index(theirs))
        states.append(state)
    a, b = states
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    for s in states:
        s.apply_action(gos.STAND)  # the first seat stands; the dealer stands too
        s.apply_action(gos.STAND)
        assert s.is_chance_node()  # the next deal
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "shown:" in a.information_state_string(0)


def test_the_one_round_game_is_the_default() -> None:
    state = gos.load("gnav", 2).new_initial_state()
    assert isinstance(state, gos.GnavState)
    assert gos.PARAMETERS["match"] is False


def test_a_bad_match_parameter_gives_one_clear_line() -> None:
    with pytest.raises(Exception) as info:  # pyspiel wraps it in its own error type
        pyspiel.load_game("python_gnav", {"match": "yes"})
    text = str(info.value)
    assert re.search("parameter match", text), text
    assert "\n" not in text.strip()


def test_the_match_expert_plays_through_a_policy() -> None:
    """A policy from the expert answers at every decision of a match game from the seat's
    view, as at a round's."""
    game = _load("le-her", 2, 2)
    policy = gos.policy_from_bot(game, "expert")
    rng = Random(3)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        mixed = policy.action_probabilities(state)
        assert set(mixed) == set(state.legal_actions())
        assert sum(mixed.values()) == pytest.approx(1.0)
        asked += 1
        state.apply_action(max(mixed, key=lambda a: mixed[a]))
    assert asked >= 2
