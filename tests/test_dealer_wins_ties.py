"""docs/spec/rules.md §5 `dealer_wins_ties` and the `le-her` preset (§8): ties on the paying rank
go to the dealer. Every expected result is worked out by hand in the comment beside it."""

from __future__ import annotations

import pytest

from gnav.errors import OptionError
from gnav.match import MatchState
from gnav.rules import Rules
from roundkit import play, start


def test_dealer_wins_a_tie_for_lowest() -> None:
    # Seats 0 and 3 (the dealer) both hold the lowest 5: only seat 0 pays.
    state = start("gnav", ["5", "9", "7", "5"], ["3"], dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (3, 4, 4, 4)


def test_without_the_option_the_tie_all_pay() -> None:
    state = start("gnav", ["5", "9", "7", "5"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (3, 4, 4, 3)


def test_dealer_alone_on_the_lowest_still_pays() -> None:
    # No tie: the dealer's 5 is the only lowest piece and pays as usual.
    state = start("gnav", ["9", "8", "7", "5"], ["3"], dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (4, 4, 4, 3)


def test_tie_among_others_all_pay() -> None:
    # Seats 0 and 1 tie for lowest, the dealer holds a higher piece: both pay.
    state = start("gnav", ["5", "5", "7", "9"], ["3"], dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (3, 3, 4, 4)


def test_with_the_drag_the_dealer_wins_a_tie_for_the_lowest_other_rank() -> None:
    # One fool (seat 0) pays; the lowest other rank is 5, held by seat 2 and the dealer:
    # seat 2 pays, the dealer does not.
    state = start("gnav", ["fool", "9", "5", "5"], ["3"], dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (3, 4, 3, 4)


def test_dealer_holding_the_fool_pays_for_it() -> None:
    # The fool's payment is not a tie: the dealer holding it pays, and so does the
    # lowest other piece.
    state = start("gnav", ["9", "5", "7", "fool"], ["3"], dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (4, 3, 4, 3)


def test_two_plain_fools_tie_and_the_dealer_wins_it() -> None:
    # two_fools = plain: the fools tie for lowest; the dealer's fool is let off.
    state = start("gnav", ["fool", "9", "7", "fool"], ["3"], two_fools="plain",
                  dealer_wins_ties=True)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (3, 4, 4, 4)


def test_le_her_is_two_seats_with_ties_to_the_dealer() -> None:
    rules = Rules.of("le-her")
    assert rules.options.dealer_wins_ties
    assert (rules.min_seats, rules.max_seats) == (2, 2)
    assert len(rules.deck) == 52
    rules.check_seats(2)
    with pytest.raises(OptionError, match="takes exactly 2 seats, not 3"):
        rules.check_seats(3)
    with pytest.raises(OptionError):
        MatchState.new(rules, ["A", "B", "C"], seed=1)


def test_le_her_tie_goes_to_the_dealer() -> None:
    # Both hold a 7 and stand: the dealer wins the tie; the other seat pays.
    state = start("le-her", ["7", "7"], ["3"], lives=3)
    state, _ = play(state, "stand", "stand")
    assert state.lives == (2, 3)


def test_le_her_king_in_hand_refuses() -> None:
    # Seat 0 asks the dealer's King: refused, seat 0 keeps its ace. The dealer has shown a
    # matador, so it takes no turn (the skip rule): the round ends and the ace pays.
    state = start("le-her", ["ace", "king"], ["2"], lives=3)
    state, _ = play(state, "swap")
    assert state.over
    assert state.lives == (2, 3)


def test_le_her_king_from_the_stock_refuses_the_dealer() -> None:
    # The dealer asks the stock and draws a King: refused, the dealer keeps its 5 and, below
    # seat 0's 9, pays.
    state = start("le-her", ["9", "5"], ["king", "2"], lives=3)
    state, _ = play(state, "stand", "swap")
    assert state.lives == (3, 2)


def test_le_her_dealer_exchanges_with_the_stock() -> None:
    # The dealer swaps its 2 for the stock's 9, which beats the 5: seat 0 pays.
    state = start("le-her", ["5", "2"], ["9"], lives=3)
    state, _ = play(state, "stand", "swap")
    assert state.lives == (2, 3)
