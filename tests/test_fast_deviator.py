"""The lone deviator's best response on the compiled engine."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.deviator import best_response, from_pieces
from gnav.fast.jit import ABSTRACT, RICH, JitRounds
from gnav.fast.policies import ThresholdPolicy
from gnav.rules import Rules
from gnav.seeds import derive


def test_the_held_out_gain_is_what_the_deviator_gets_when_it_plays() -> None:
    """Second method: the deviator's table played at its position (policy_of) on the same
    seed gives, on the measured half, exactly the gain the forced replays gave."""
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    field = np.random.default_rng(3).random(abstraction.size).astype(np.float32)
    rows, seats = 4000, 5
    gain = best_response(rules, seats, field, rows, seed=2)
    half = rows // 2
    for column in range(seats):
        who = np.zeros(seats, np.int64)
        who[column] = 1
        seed = derive(2, "deviator", column)  # the seed best_response gives the column
        own = JitRounds(rules, seats, rows, seed=seed).play(np.stack([field, field]), ABSTRACT)
        dev = JitRounds(rules, seats, rows, seed=seed).play(
            np.stack([field, gain.tables[column]]), ABSTRACT, policy_of=who)
        played = (dev.lives[half:, column].astype(float) - own.lives[half:, column]).mean()
        assert played == pytest.approx(gain.per_position[column], abs=1e-12)


def test_a_table_that_always_stands_is_beaten() -> None:
    """Against a field that never swaps, swapping the fool away is worth a life nearly
    every time it comes: the deviator's gain is well above its noise."""
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    gain = best_response(rules, 4, np.zeros(abstraction.size, np.float32), 6000, seed=1)
    assert gain.mean - gain.half_width > 0.01


def test_the_threshold_table_over_the_abstraction_plays_as_the_threshold_bot() -> None:
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    by_piece = ThresholdPolicy(rules).table[:len(rules.pieces)].astype(np.float32)
    a = JitRounds(rules, 7, 3000, seed=5).play(by_piece[None])
    b = JitRounds(rules, 7, 3000, seed=5).play(from_pieces(abstraction, by_piece)[None],
                                               ABSTRACT)
    assert (a.actions == b.actions).all() and (a.lives == b.lives).all()


def test_rich_keys_refine_the_abstraction() -> None:
    """RICH plays as ABSTRACT and writes a finer key, whose top bits are the abstract
    index and whose low bits hold the exact position and seats."""
    rules = Rules.of("gnav-1917")
    size = GnavAbstraction(rules).size
    field = np.random.default_rng(4).random((1, size))
    a = JitRounds(rules, 9, 2000, seed=8).play(field, ABSTRACT)
    b = JitRounds(rules, 9, 2000, seed=8).play(field, RICH)
    assert (a.lives == b.lives).all() and (a.actions == b.actions).all()
    decided = a.keys >= 0
    assert ((b.keys[decided] >> 33) == a.keys[decided]).all()
    column = np.broadcast_to(np.arange(9), a.keys.shape)
    assert ((b.keys[decided] >> 27 & 63) == column[decided]).all()
    assert ((b.keys[decided] >> 21 & 63) == 9).all()


def test_a_richer_deviator_beats_always_standing_too() -> None:
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    gain = best_response(rules, 4, np.zeros(abstraction.size, np.float32), 6000, seed=1,
                         rich=True)
    assert gain.mean - gain.half_width > 0.01 and gain.tables == ()
