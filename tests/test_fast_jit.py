"""The compiled engine (gnav.fast.jit) is the reference engine, row for row: on the
same decks, every preset with random options, table policies by piece and over the
abstraction, a deviator and forced decisions, each row replayed through ``gnav.match``
with the actions the engine recorded gives the same hands, payments, gains, lives,
sit-outs and end; and each action is the one its table gives at the key the deciding
seat's view gives, drawn with the engine's own uniform."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastkit import replay
from gnav.abstraction import abstract_key
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.jit import ABSTRACT, FLIP, PIECE, JitRounds, decks, uniforms, values
from gnav.fast.tables import Tables
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.views import SeatView
from gnav.vocab import Action
from strategies import rules_strategy


def compare(rules: Rules, seats: int, seed: int, kind: int, mixed: bool,
            rng: np.random.Generator, rows: int = 300) -> JitRounds:
    tables = Tables.of(rules)
    abstraction = GnavAbstraction(rules)
    size = tables.pieces if kind == PIECE else abstraction.size
    table = rng.random((2, size))
    if not mixed:
        table = (table < 0.6).astype(np.float64)
    who = np.zeros(seats, np.int64)
    who[rng.integers(seats)] = 1
    force = np.full(seats, -1)
    if rng.random() < 0.5:
        force[rng.integers(seats)] = rng.integers(2)
    d = decks(tables, seed, rows)
    jit = JitRounds(rules, seats, rows, seed=seed, decks=d).play(
        table, kind, policy_of=who, forced=force)
    u = uniforms(seed, rows, seats)

    def check(rnd: JitRounds, r: int, c: int, view: SeatView) -> None:
        key = abstract_key(view) if kind == ABSTRACT else rules.index(view.piece)
        assert rnd.keys[r, c] == key
        p = table[who[c], key]
        want = bool(force[c]) if force[c] >= 0 else bool(p >= 1 or (p > 0 and u[r, c] < p))
        if Action.STAND not in view.legal:  # stand_needs_matador: made swap, as bots do
            want = True
        assert bool(rnd.actions[r, c]) == want

    replay(rules, jit, d, check)
    return jit


def test_the_compiled_engine_is_the_reference_engine() -> None:
    seen = {"undo": 0, "two fools": 0, "stop": 0}

    def check(rules: Rules, data: st.DataObject, seed: int) -> None:
        full = rules.max_seats <= 45 and data.draw(st.integers(0, 3)) == 0
        seats = rules.max_seats if full else \
            data.draw(st.integers(rules.min_seats, min(rules.max_seats, 20)))
        kind = data.draw(st.sampled_from((PIECE, ABSTRACT)))
        jit = compare(rules, seats, seed, kind, data.draw(st.booleans()),
                      np.random.default_rng(seed))
        seen["stop"] += int((jit.ended_by >= 0).sum())
        seen["two fools"] += int((jit.gains > 0).sum() + jit.sit_out.sum())

    for preset in sorted(PRESETS):
        settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))(
            given(rules=rules_strategy((preset,)), data=st.data(),
                  seed=st.integers(0, 2**40))(check))()
    assert seen["stop"] and seen["two fools"]


def test_shuffled_decks_are_the_decks_function() -> None:
    """Without given decks the kernel shuffles the same decks, lazily."""
    rules = Rules.of("gnav")
    table = np.random.default_rng(1).random((1, 21))
    lazy = JitRounds(rules, 10, 500, seed=9).play(table)
    full = JitRounds(rules, 10, 500, seed=9, decks=decks(Tables.of(rules), 9, 500)).play(table)
    assert (lazy.lives == full.lives).all() and (lazy.hands == full.hands).all()


def test_values_are_the_forced_replays() -> None:
    rules = Rules.of("gnav")
    table = np.random.default_rng(2).random((1, 21))
    stand, swap, on = values(rules, 6, 2000, table, PIECE, 3, seed=4)
    decided = on.actions[:, 3] >= 0
    # Where the seat swapped on its own, the swap replay is the round itself.
    took = on.actions[:, 3] == 1
    assert (swap[took] == on.lives[took, 3]).all()
    assert (stand[decided & ~took] == on.lives[decided & ~took, 3]).all()
    # Swapping a fool away is worth something on average.
    fool = decided & (on.keys[:, 3] == 20)
    assert fool.any() and (swap[fool].mean() > stand[fool].mean())


def test_a_flipped_decision_is_the_other_forced_replay() -> None:
    """FLIP plays the other action than the policy's: where the policy swapped, the
    replay forced to stand, and where it stood, the replay forced to swap."""
    rules = Rules.of("gnav")
    table = np.random.default_rng(3).random((1, 21))
    stand, swap, on = values(rules, 7, 3000, table, PIECE, 2, seed=5)
    force = np.full(7, -1)
    force[2] = FLIP
    flipped = JitRounds(rules, 7, 3000, seed=5).play(table, PIECE, forced=force)
    took = on.actions[:, 2] == 1
    stood = on.actions[:, 2] == 0
    assert took.any() and stood.any()
    assert (flipped.lives[took, 2] == stand[took]).all()
    assert (flipped.lives[stood, 2] == swap[stood]).all()
    assert (flipped.actions[took | stood, 2] == 1 - on.actions[took | stood, 2]).all()


def test_many_lives_let_every_seat_pay_what_it_owes() -> None:
    """With lives to spare, the lives lost are the payments less the gains, row by row;
    at the preset's lives a seat at 0 pays nothing more."""
    rules = Rules.of("gnav", lives=1)
    table = np.random.default_rng(4).random((1, 21))
    many = JitRounds(rules, 12, 3000, seed=2, lives=100).play(table)
    assert (100 - many.lives == many.pays.astype(int) - many.gains).all()
    few = JitRounds(rules, 12, 3000, seed=2).play(table)
    assert (few.pays > 1).any() and (few.lives >= 0).all()


def test_the_view_key_plays_as_the_abstraction_and_refines_it() -> None:
    """jit.VIEW changes nothing in the play, and its key holds the abstraction's index
    above its history hash: the same rows, lives and actions, and ``key >> VIEW_BITS``
    the abstraction's key; and it splits the abstraction's cells (it sees more)."""
    from gnav.fast.jit import VIEW, VIEW_BITS

    rules = Rules.of("gnav")
    table = np.random.default_rng(2).random((1, GnavAbstraction(rules).size))
    a = JitRounds(rules, 7, 3000, seed=9).play(table, ABSTRACT)
    v = JitRounds(rules, 7, 3000, seed=9).play(table, VIEW)
    assert np.array_equal(a.lives, v.lives) and np.array_equal(a.actions, v.actions)
    on = a.keys >= 0
    assert np.array_equal(on, v.keys >= 0)
    assert np.array_equal(v.keys[on] >> VIEW_BITS, a.keys[on])
    assert len(np.unique(v.keys[on])) > len(np.unique(a.keys[on]))
