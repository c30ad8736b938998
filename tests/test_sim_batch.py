"""The simulation batches (gnav.sim.batch): seeds, chunks and pairing of deals."""

from __future__ import annotations

from random import Random

import pytest

from gnav.bots.registry import bot_from_spec as make_bot
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.sim.batch import (
    CHUNK_ROUNDS,
    MATCHES,
    ROUNDS,
    Chunk,
    Plan,
    Remembered,
    Tally,
    _round_chunk,
    play_one_match,
    play_rounds,
    run,
)
from gnav.views import seat_view

RULES = Rules.of("gnav")


def test_chunks_have_a_fixed_size() -> None:
    plan = Plan(RULES, ("random",) * 4, ROUNDS, CHUNK_ROUNDS * 2 + 7, 0)
    sizes = [c.count for c in plan.chunks()]
    assert sizes == [CHUNK_ROUNDS, CHUNK_ROUNDS, 7]
    assert [c.start for c in plan.chunks()] == [0, CHUNK_ROUNDS, 2 * CHUNK_ROUNDS]


def test_rounds_deal_the_same_whatever_the_bots_decide() -> None:
    random_bots = [make_bot("random", i) for i in range(5)]
    threshold_bots = [make_bot("threshold", i) for i in range(5)]
    a = list(play_rounds(RULES, random_bots, 0, 40, 123))
    b = list(play_rounds(RULES, threshold_bots, 0, 40, 123))
    assert [r.deal for r in a] == [r.deal for r in b]
    assert [r.stock for r in a] == [r.stock for r in b]
    assert [r.dealer for r in a] == [i % 5 for i in range(40)]
    # The decisions did differ, so the pairing was tested, not assumed.
    assert [r.hands for r in a] != [r.hands for r in b]


def test_matches_deal_the_same_whatever_the_bots_decide() -> None:
    a = play_one_match(RULES, [make_bot("random", i) for i in range(4)], 77)
    b = play_one_match(RULES, [make_bot("threshold", i) for i in range(4)], 77)
    assert a.history[0].deal == b.history[0].deal
    assert a.history[0].dealer == b.history[0].dealer
    # Every later shuffle is drawn whole from the match's own generator.
    for ra, rb in zip(a.history, b.history, strict=False):
        assert sorted(ra.deal + ra.stock) == sorted(rb.deal + rb.stock)
        if ra.seats == rb.seats:
            assert ra.deal == rb.deal


def test_one_job_or_two_give_the_same_tally() -> None:
    plan = Plan(RULES, ("random", "threshold", "random"), MATCHES, 23, 5)
    one, two = run(plan, jobs=1), run(plan, jobs=2)
    assert one.tally == two.tally
    assert one.tally.matches == 23


def test_a_challenger_like_the_field_differs_by_nothing() -> None:
    # Same bot, same seeds, same deals: every game replays exactly, so the paired
    # differences are all zero. Any leak of decisions into chance would show here.
    for mode, count in ((ROUNDS, 60), (MATCHES, 3)):
        plan = Plan(RULES, ("threshold",) * 4, mode, count, 11, challenger="threshold")
        duel = run(plan, jobs=1).duel
        assert duel is not None
        assert duel.units == count
        assert duel.pooled.s == 0 and duel.pooled.ss == 0
        assert all(m.s == 0 for m in duel.by_seat)


@pytest.mark.parametrize("field", ["counter:8", "expert", "threshold"])
def test_a_remembered_field_gives_the_same_duel(field: str) -> None:
    """Second method: the challenger's replays with the field's answers remembered give
    the very same sums as the field's bots asked afresh in every replay."""
    plan = Plan(RULES, (field,) * 5, ROUNDS, 12, 3, challenger="expert")
    chunk = Chunk(plan, 0, 0, 12)
    kept = _round_chunk(chunk, Tally.empty(plan), remember=True)
    fresh = _round_chunk(chunk, Tally.empty(plan), remember=False)
    assert kept == fresh


def test_remembered_answers_come_from_memory() -> None:
    calls = []

    class Counting:
        name = "counting"

        def act(self, view: object) -> str:
            calls.append(view)
            return "stand"

    bot = Remembered(Counting())
    match = MatchState.new(RULES, ("a", "b", "c"), dealer=2).deal(rng=Random(1))
    view = seat_view(match, 0)
    assert [bot.act(view), bot.act(view), bot.act(view._replace())] == ["stand"] * 3
    assert len(calls) == 1


def test_progress_is_reported_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    run(Plan(RULES, ("random",) * 3, ROUNDS, CHUNK_ROUNDS + 1, 0), jobs=1,
        progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, CHUNK_ROUNDS + 1), (CHUNK_ROUNDS, CHUNK_ROUNDS + 1),
                    (CHUNK_ROUNDS + 1, CHUNK_ROUNDS + 1)]


@pytest.mark.parametrize("preset", ["gnav-summary", "slabberjan", "chase-the-ace"])
def test_other_presets_run(preset: str) -> None:
    rules = Rules.of(preset)
    tally = run(Plan(rules, ("threshold",) * 3, MATCHES, 3, 1), jobs=1).tally
    assert tally.matches == 3
    # Every round deals at least two seats; full-table rounds count once per position.
    assert sum(tally.piece_rounds) >= 2 * tally.rounds
    assert len(set(tally.position_rounds)) == 1
    assert len(tally.piece_rounds) == len(rules.pieces)
