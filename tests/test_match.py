"""docs/spec/rules.md §6: the match. Lives, elimination, dealer rotation, sitting out, winners."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from gnav.errors import GnavError, IllegalActionError, MalformedError
from gnav.events import Eliminated, Event, MatchEnd, Pay, RoundEnd
from gnav.match import MatchState
from gnav.round import RoundState
from gnav.rules import Rules

NAMES = ("A", "B", "C", "D", "E", "F")


def new(
    seats: int,
    dealer: int,
    preset: str = "gnav",
    lives: Mapping[int, int] | None = None,
    **opts: object,
) -> MatchState:
    return MatchState.new(Rules.of(preset, **opts), NAMES[:seats], dealer=dealer, lives=lives)


def deal(match: MatchState, hand_ids: Sequence[str], stock_ids: Sequence[str] = ("3",)) -> (
        MatchState):
    """Deal ``hand_ids`` to the seats of ``match.turn_order()`` (the dealer last)."""
    rules = match.rules
    return match.deal([rules.index(p) for p in hand_ids], [rules.index(p) for p in stock_ids])


def play(match: MatchState, *actions: str) -> tuple[MatchState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        seat = match.to_act
        assert seat is not None
        match, new_events = match.apply_for(seat, action)
        events.extend(new_events)
        assert_conserved(last_round(match))
    return match, events


def stand_all(match: MatchState) -> tuple[MatchState, list[Event]]:
    events: list[Event] = []
    while match.to_act is not None:
        match, new_events = match.apply("stand")
        events.extend(new_events)
        assert_conserved(last_round(match))
    return match, events


def ev(events: Sequence[Event]) -> list[tuple[object, ...]]:
    """Events with their kind, since NamedTuples of different types compare equal."""
    return [(e.kind, *e) for e in events]


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def last_round(match: MatchState) -> RoundState:
    assert match.round is not None
    return match.round


def assert_conserved(state: RoundState) -> None:
    before = Counter(state.deal) + Counter(state.stock)
    after = Counter(state.hands) + Counter(state.stock[state.drawn:]) + Counter(state.aside)
    assert before == after


# -- lives -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "opts", "expected"),
    [
        ("gnav", {}, 4),
        ("gnav", {"lives": 2}, 2),
        ("gnav", {"lives": 10}, 10),
        ("cuccu", {}, 3),
        ("chase-the-ace", {}, 3),
        ("chase-the-ace", {"lives": 5}, 5),
    ],
)
def test_rule_6_every_seat_starts_with_lives(
    preset: str, opts: dict[str, object], expected: int
) -> None:
    match = MatchState.new(Rules.of(preset, **opts), NAMES[:3], dealer=0)
    assert match.lives == (expected,) * 3
    assert match.start_lives == (expected,) * 3
    assert match.current_lives() == (expected,) * 3
    assert match.phase == "deal"
    assert match.rounds == 0
    assert match.winners is None


def test_rule_6_per_seat_starting_lives() -> None:
    match = new(3, 0, lives={1: 2, 2: 7})
    assert match.lives == (4, 2, 7)
    assert match.start_lives == (4, 2, 7)
    match = deal(match, ["5", "7", "9"])  # order 1, 2, 0
    assert last_round(match).lives == (4, 2, 7)
    match, _ = stand_all(match)
    assert match.lives == (4, 1, 7)  # seat 1 held the 5
    assert match.start_lives == (4, 2, 7)


@pytest.mark.parametrize("bad", [{0: 0}, {0: -1}, {3: 4}, {-1: 4}, {0: True}])
def test_rule_6_per_seat_starting_lives_must_be_valid(bad: dict[int, int]) -> None:
    with pytest.raises(MalformedError):
        new(3, 0, lives=bad)


def test_rule_6_paying_loses_a_life_carried_into_next_round() -> None:
    match = new(3, 2)
    assert match.turn_order() == (0, 1, 2)
    match = deal(match, ["5", "7", "9"])
    assert match.phase == "play"
    match, events = stand_all(match)
    assert ev([e for e in events if isinstance(e, Pay)]) == ev([Pay(0, None, "lowest", 3, True)])
    assert match.lives == (3, 4, 4)
    assert match.phase == "deal"
    assert match.rounds == 1
    assert len(match.history) == 1
    assert match.dealer == 0
    assert match.turn_order() == (1, 2, 0)
    match = deal(match, ["5", "7", "9"])
    rnd = last_round(match)
    assert rnd.number == 2
    assert rnd.lives == (3, 4, 4)
    assert rnd.seats == (1, 2, 0)
    assert_conserved(rnd)


# -- elimination -----------------------------------------------------------------------


def test_rule_6_seat_at_zero_mid_round_plays_on_and_is_out_at_end() -> None:
    match = new(4, 3, lives={1: 1})
    match = deal(match, ["7", "5", "dragoon", "9"])  # order 0, 1, 2, 3
    match, events = play(match, "stand", "swap")  # seat 1 pays its last life
    assert match.phase == "play"
    assert match.current_lives() == (4, 0, 4, 4)
    assert match.lives == (4, 1, 4, 4)  # as of the round's start
    assert match.out == ()
    assert 1 in match.active()
    assert "eliminated" not in kinds(events)
    assert match.to_act == 3  # the dragoon holder (seat 2) is skipped
    match, events = play(match, "stand")
    # Seat 1's 5 is still in the showdown and is lowest; it has nothing left to pay.
    assert ev([Pay(1, None, "lowest", 0, False)])[0] in ev(events)
    assert kinds(events)[-1] == "eliminated"
    assert ev(events[-1:]) == ev([Eliminated((1,))])
    assert match.out == (1,)
    assert match.lives == (4, 0, 4, 4)
    assert match.alive() == (0, 2, 3)
    assert match.winners is None
    assert match.dealer == 0
    assert match.turn_order() == (2, 3, 0)  # seat 1 is no longer dealt in
    assert_conserved(last_round(match))


def test_rule_6_seat_at_zero_mid_round_can_regain_a_life_and_stay_in() -> None:
    match = new(5, 4, lives={0: 1})
    match = deal(match, ["fool", "dragoon", "fool", "5", "9"])  # order 0..4
    match, _ = play(match, "swap")  # seat 0 pays the dragoon: 0 lives
    assert match.current_lives() == (0, 4, 4, 4, 4)
    match, events = stand_all(match)
    # Two fools at the showdown: both holders gain, so seat 0 ends on 1 and stays in.
    assert "eliminated" not in kinds(events)
    assert match.out == ()
    assert match.lives == (1, 4, 5, 4, 4)
    assert match.sitting_out == (0, 2)


def test_rule_6_lives_never_go_below_zero() -> None:
    match = new(3, 2, lives={0: 1})
    match = deal(match, ["5", "dragoon", "9"])
    match, _ = play(match, "swap", "stand")
    assert match.lives == (0, 4, 4)
    assert min(last_round(match).lives) == 0


# -- dealer rotation and sitting out ---------------------------------------------------


def test_rule_6_dealer_rotation_passes_over_out_seat() -> None:
    match = new(4, 3, lives={0: 1})
    match = deal(match, ["5", "7", "9", "11"])  # order 0, 1, 2, 3: seat 0 is lowest
    match, events = stand_all(match)
    assert ev(events[-1:]) == ev([Eliminated((0,))])
    assert match.out == (0,)
    assert match.dealer == 1  # seat 0, next clockwise from 3, is out
    assert match.turn_order() == (2, 3, 1)


def test_rule_6_dealer_rotation_after_the_dealer_itself_goes_out() -> None:
    match = new(3, 2, lives={2: 1})
    match = deal(match, ["7", "9", "5"])  # order 0, 1, 2: the dealer holds the 5
    match, events = stand_all(match)
    assert ev(events[-1:]) == ev([Eliminated((2,))])
    assert match.out == (2,)
    assert match.dealer == 0
    assert match.turn_order() == (1, 0)


def test_rule_6_dealer_rotation_passes_over_sitting_out_seats_for_one_round() -> None:
    match = new(5, 3)  # D deals; order E, A, B, C, D
    assert match.turn_order() == (4, 0, 1, 2, 3)
    match = deal(match, ["fool", "fool", "10", "9", "8"])
    match, _ = stand_all(match)
    assert match.lives == (5, 4, 4, 4, 5)
    assert match.sitting_out == (0, 4)
    # The deal would pass to E, but E and A sit out: B deals to B, C and D.
    assert match.dealer == 1
    assert match.active() == (1, 2, 3)
    assert match.turn_order() == (2, 3, 1)
    match = deal(match, ["7", "2", "9"])
    rnd = last_round(match)
    assert rnd.seats == (2, 3, 1)
    assert rnd.returning == 2
    match, _ = stand_all(match)
    assert match.lives == (5, 4, 4, 3, 5)  # D's 2 was lowest; sitting-out seats kept theirs
    # Sitting out lasted exactly one round: A and E are back, and C deals.
    assert match.sitting_out == ()
    assert match.dealer == 2
    assert match.active() == (0, 1, 2, 3, 4)
    assert match.turn_order() == (3, 4, 0, 1, 2)
    match = deal(match, ["7", "3", "9", "10", "11"])
    assert last_round(match).seats == (3, 4, 0, 1, 2)
    match, _ = stand_all(match)
    assert match.lives == (5, 4, 4, 3, 4)  # E held the 3


def test_rule_6_next_dealer_passes_over_a_sitting_out_seat() -> None:
    match = new(4, 3)  # order 0, 1, 2, 3
    match = deal(match, ["fool", "5", "fool", "9"])
    match, _ = stand_all(match)
    assert match.sitting_out == (0, 2)
    assert match.dealer == 1  # seat 0, next after the dealer, sits out
    assert match.turn_order() == (3, 1)


# -- winning ---------------------------------------------------------------------------


def test_rule_6_last_seat_with_lives_wins() -> None:
    match = new(2, 1, lives={0: 1, 1: 1})
    match = deal(match, ["5", "9"])
    match, events = stand_all(match)
    assert ev(events[-2:]) == ev([Eliminated((0,)), MatchEnd((1,))])
    assert kinds(events)[-2:] == ["eliminated", "match_end"]
    assert match.winners == (1,)
    assert match.over
    assert match.phase == "over"
    assert match.to_act is None
    assert match.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        deal(match, ["5", "9"])
    with pytest.raises(IllegalActionError):
        match.apply("stand")


def test_rule_6_shared_win_when_all_remaining_reach_zero_together() -> None:
    match = new(2, 1, lives={0: 1, 1: 1})
    match = deal(match, ["5", "5"])  # a tie for lowest: both pay their last life
    match, events = stand_all(match)
    assert ev(events[-2:]) == ev([Eliminated((0, 1)), MatchEnd((0, 1))])
    assert match.winners == (0, 1)
    assert match.out == (0, 1)
    assert match.phase == "over"


def test_rule_6_shared_win_after_an_earlier_elimination() -> None:
    match = new(3, 2, lives={0: 1, 1: 1, 2: 2})
    match = deal(match, ["5", "7", "9"])  # order 0, 1, 2: seat 0 pays its last life
    match, _ = stand_all(match)
    assert match.out == (0,)
    assert match.winners is None
    assert match.dealer == 1  # 0 is out
    assert match.turn_order() == (2, 1)
    match = deal(match, ["6", "7"])  # seat 2 holds the 6 and pays
    match, _ = stand_all(match)
    assert match.lives == (0, 1, 1)
    assert match.dealer == 2
    match = deal(match, ["5", "5"])  # order 1, 2: both pay their last life
    assert last_round(match).seats == (1, 2)
    match, events = stand_all(match)
    assert match.lives == (0, 0, 0)
    assert match.out == (0, 1, 2)
    assert match.winners == (1, 2)  # the seat out earlier does not share
    assert ev(events[-2:]) == ev([Eliminated((1, 2)), MatchEnd((1, 2))])


def test_rule_6_max_rounds_ends_match_most_lives_win() -> None:
    match = new(3, 2, max_rounds=2)
    match = deal(match, ["5", "7", "9"])  # order 0, 1, 2
    match, events = stand_all(match)
    assert match.lives == (3, 4, 4)
    assert match.winners is None
    assert match.phase == "deal"
    assert "match_end" not in kinds(events)
    match = deal(match, ["5", "9", "7"])  # order 1, 2, 0
    match, events = stand_all(match)
    assert match.lives == (3, 3, 4)
    assert match.winners == (2,)
    assert ev(events[-1:]) == ev([MatchEnd((2,))])
    assert match.phase == "over"


def test_rule_6_max_rounds_ties_share() -> None:
    match = new(3, 2, max_rounds=1)
    match = deal(match, ["5", "7", "9"])
    match, events = stand_all(match)
    assert match.lives == (3, 4, 4)
    assert match.winners == (1, 2)
    assert ev(events[-1:]) == ev([MatchEnd((1, 2))])


def test_rule_6_nobody_sits_out_after_the_last_round_of_max_rounds() -> None:
    # Two fools end the last round: they gain (4 -> 5) and win, and there is no next
    # round for them to sit out.
    match = new(4, 3, max_rounds=1)
    match = deal(match, ["fool", "fool", "3", "5"])  # order 0, 1, 2, 3
    match, events = stand_all(match)
    assert match.lives == (5, 5, 4, 4)
    assert match.winners == (0, 1)
    assert last_round(match).sit_out == ()
    assert match.sitting_out == ()
    end = [e for e in events if isinstance(e, RoundEnd)]
    assert [e.sit_out for e in end] == [()]  # the event says so too, not only the state


def test_rule_6_two_fools_before_the_last_round_still_sit_out() -> None:
    match = new(4, 3, max_rounds=2)
    match = deal(match, ["fool", "fool", "3", "5"])
    match, _ = stand_all(match)
    assert match.winners is None
    assert last_round(match).sit_out == (0, 1)
    assert match.turn_order() == (3, 2)  # D dealt; the next dealer skips A and B: C
    match = deal(match, ["fool", "fool"])  # round 2 is the last: C and D both hold fools
    match, _ = stand_all(match)
    assert match.winners is not None
    assert last_round(match).sit_out == ()


def test_rule_6_nobody_sits_out_after_the_round_that_ends_by_elimination() -> None:
    # two_fools = pay: A (1 life) and B (2) pay for their fools; C, the dealer, paid
    # its last life to a Dragoon drawn from the stock. A and C are out, B wins, and B
    # (still alive) does not sit out: there is no next round.
    match = new(3, 2, lives={0: 1, 1: 2, 2: 1}, two_fools="pay")
    match = deal(match, ["fool", "fool", "5"], ["dragoon"])  # order 0, 1, 2
    match, _ = play(match, "stand", "stand", "swap")
    assert match.lives == (0, 1, 0)
    assert match.winners == (1,)
    assert last_round(match).sit_out == ()


def test_rule_6_max_rounds_out_seats_are_not_winners() -> None:
    match = new(3, 2, lives={0: 1, 1: 1, 2: 1}, max_rounds=1)
    match = deal(match, ["5", "7", "9"])
    match, events = stand_all(match)
    assert match.out == (0,)
    assert match.winners == (1, 2)
    assert ev(events[-2:]) == ev([Eliminated((0,)), MatchEnd((1, 2))])


# -- seats -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "low", "high"),
    [
        ("gnav", 2, 41),
        ("gnav-1917", 2, 41),
        ("hypp", 2, 20),
        ("gnav-summary", 3, 39),
        ("slabberjan", 2, 41),
        ("cuccu", 2, 39),
        ("kille", 2, 39),
        ("chase-the-ace", 2, 51),
    ],
)
def test_rule_6_seats_from_two_to_pieces_minus_one(preset: str, low: int, high: int) -> None:
    rules = Rules.of(preset)
    assert rules.min_seats == low
    assert rules.max_seats == high == len(rules.deck) - 1
    rules.check_seats(low)
    rules.check_seats(high)
    with pytest.raises(GnavError, match=str(low - 1)):
        rules.check_seats(low - 1)
    with pytest.raises(GnavError, match=str(high + 1)):
        rules.check_seats(high + 1)


def test_rule_6_check_seats_named_cases() -> None:
    gnav = Rules.of("gnav")
    for bad in (1, 42):
        with pytest.raises(ValueError):
            gnav.check_seats(bad)
    with pytest.raises(GnavError):
        Rules.of("hypp").check_seats(21)
    with pytest.raises(GnavError):
        Rules.of("gnav-summary").check_seats(2)
    Rules.of("gnav-summary").check_seats(3)
    # copies changes the count: one set of Gnav is 21 pieces.
    with pytest.raises(GnavError):
        Rules.of("gnav", copies=1).check_seats(21)
    Rules.of("gnav", copies=4).check_seats(83)


def test_rule_6_match_refuses_bad_seat_counts() -> None:
    with pytest.raises(GnavError):
        MatchState.new(Rules.of("gnav"), ["A"], dealer=0)
    with pytest.raises(GnavError):
        MatchState.new(Rules.of("gnav"), [f"p{i}" for i in range(42)], dealer=0)
    with pytest.raises(GnavError):
        MatchState.new(Rules.of("gnav-summary"), ["A", "B"], dealer=0)
    big = MatchState.new(Rules.of("gnav"), [f"p{i}" for i in range(41)], dealer=40)
    assert len(big.turn_order()) == 41


def test_rule_6_match_refuses_duplicate_names_and_bad_dealer() -> None:
    with pytest.raises(MalformedError):
        MatchState.new(Rules.of("gnav"), ["A", "A", "B"], dealer=0)
    with pytest.raises(MalformedError):
        MatchState.new(Rules.of("gnav"), ["A", "B", "C"], dealer=3)


# -- the first dealer ------------------------------------------------------------------


def test_first_dealer_cut_from_seed_is_deterministic() -> None:
    rules = Rules.of("gnav")
    names = NAMES[:5]
    dealers = []
    for seed in range(40):
        first = MatchState.new(rules, names, seed=seed).dealer
        again = MatchState.new(rules, names, seed=seed).dealer
        assert first == again
        assert 0 <= first < 5
        dealers.append(first)
    assert len(set(dealers)) > 1  # the cut depends on the seed
    # An explicit dealer wins over the seed.
    assert MatchState.new(rules, names, dealer=2, seed=1).dealer == 2


# -- phases ----------------------------------------------------------------------------


def test_match_phases_and_errors() -> None:
    match = new(3, 0)
    with pytest.raises(IllegalActionError):
        match.apply("stand")
    assert match.to_act is None
    match = deal(match, ["5", "7", "9"])
    assert match.phase == "play"
    with pytest.raises(IllegalActionError):
        deal(match, ["5", "7", "9"])
    assert match.to_act == 1
    with pytest.raises(IllegalActionError):
        match.apply_for(2, "stand")
    with pytest.raises(MalformedError):
        match.apply("fold")


def test_the_shuffle_draws_as_sorting_by_one_random_key_per_piece() -> None:
    # Seeded deals (records' "seed" rounds, simulate's figures) depend on this order.
    from random import Random

    for preset in ("gnav", "hypp", "chase-the-ace"):
        rules = Rules.of(preset)
        for seed in range(20):
            keys = Random(seed)
            expected = sorted(rules.deck, key=lambda _: keys.random())
            assert rules.shuffle(Random(seed)) == expected
        assert sorted(rules.shuffle(Random(1))) == sorted(rules.deck)
