"""docs/spec/rules.md §2-§5 through RoundState: each test is named for the rule it checks."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gnav import round as round_module
from gnav.errors import GnavError, IllegalActionError, MalformedError
from gnav.events import (
    Answer,
    Ask,
    Draw,
    Event,
    Gain,
    Knock,
    Pay,
    RoundStart,
    Stand,
    StockEmpty,
    Swap,
    Undo,
)
from gnav.match import MatchState
from gnav.presets import PRESETS_LIST
from gnav.round import RoundState, fool_holders, holders
from gnav.rules import Rules
from gnav.vocab import Action
from roundkit import assert_conserved, end, ev, hands, ids, play, sd, start
from strategies import Setup, play_match, setups

# -- §3.1 the deal ---------------------------------------------------------------------


def test_rule_3_1_deal_one_piece_each_rest_is_stock() -> None:
    state = start("gnav", ["5", "7", "9"], ["3", "2", "1"])
    assert ev(state.public) == ev([RoundStart(1, 2, (0, 1, 2), 3)])
    assert state.dealer == 2
    assert state.stock_left() == 3
    assert hands(state) == ["5", "7", "9"]
    # Each seat sees its own dealt piece in the opening event, nobody else's.
    assert ev(state.seat_events(1))[0] == ev([RoundStart(1, 2, (0, 1, 2), 3, "7")])[0]
    assert_conserved(state)


def test_rule_3_1_deal_checks_the_piece_counts() -> None:
    rules = Rules.of("gnav")
    five = rules.index("5")
    with pytest.raises(MalformedError):
        RoundState.start(rules, (0, 1, 2), [five, five, five], [], [4, 4, 4])
    with pytest.raises(MalformedError):
        RoundState.start(rules, (0, 1), [five], [], [4, 4])
    with pytest.raises(IllegalActionError):
        RoundState.start(rules, (0,), [five], [], [4])


# -- §3.2 the fool's knock -------------------------------------------------------------


def test_rule_2_knock_public_and_silent() -> None:
    public = start("gnav", ["fool", "5", "fool", "9"], ["3"])
    assert ev(public.public) == ev([RoundStart(1, 3, (0, 1, 2, 3), 1), Knock(0), Knock(2)])
    assert public.knocked == (0, 2)
    silent = start("gnav", ["fool", "5", "fool", "9"], ["3"], knock="silent")
    assert ev(silent.public) == ev([RoundStart(1, 3, (0, 1, 2, 3), 1)])
    assert silent.knocked == ()
    no_fool = start("gnav", ["7", "5", "9"], ["3"])
    assert no_fool.knocked == ()
    # Slabberjan is silent by default (and has no fool anyway).
    slab = start("slabberjan", ["janrit", "5"], ["3"])
    assert slab.knocked == ()
    assert_conserved(public)


def test_rule_3_2_knock_happens_once_at_the_deal() -> None:
    state = start("gnav", ["5", "fool", "9"], ["3"])
    state, events = play(state, "swap", "stand")
    assert not any(isinstance(e, Knock) for e in events)
    assert state.knocked == (1,)
    assert_conserved(state)


# -- §3.3 turns ------------------------------------------------------------------------


def test_rule_3_3_turns_start_left_of_dealer_dealer_last() -> None:
    rules = Rules.of("gnav")
    match = MatchState.new(rules, ["A", "B", "C", "D"], dealer=1)
    assert match.turn_order() == (2, 3, 0, 1)
    match = match.deal([rules.index(p) for p in ("5", "7", "9", "11")], [rules.index("3")])
    assert match.round is not None
    assert match.round.dealer == 1
    order = []
    while match.to_act is not None:
        seat = match.to_act
        order.append(seat)
        match, _ = match.apply_for(seat, "stand")
    assert order == [2, 3, 0, 1]
    state = start("gnav", ["5", "7", "9", "11"], ["3"])
    seen = []
    events: list[Event] = []
    while state.to_act is not None:
        seen.append(state.to_act)
        state, new = state.apply("stand")
        events.extend(new)
    assert seen == [0, 1, 2, 3]
    assert ev(events[:4]) == ev([Stand(0), Stand(1), Stand(2), Stand(3)])
    assert_conserved(state)


def test_rule_3_3_revealed_matador_holder_skips_turn() -> None:
    state = start("gnav", ["5", "dragoon", "7", "9"], ["3"])
    state, _ = play(state, "swap")
    assert state.to_act == 2
    # A pass chain reveals its holders too: both are skipped.
    state = start("gnav", ["5", "horse", "house", "7", "9"], ["3"])
    state, _ = play(state, "swap")
    assert state.to_act == 3
    # A revealed dealer takes no turn: the round is over.
    state = start("gnav", ["5", "7", "dragoon"], ["3"])
    state, events = play(state, "stand", "swap")
    assert state.over
    assert state.ended_by == "turns"
    assert ev(events)[-1] == ev([end("turns", (3, 3, 4), ())])[0]
    assert_conserved(state)


def test_rule_3_3_revealed_act_option_lets_holder_act() -> None:
    state = start("gnav", ["5", "dragoon", "7", "9"], ["3"], revealed="act")
    state, _ = play(state, "swap")
    assert state.to_act == 1
    assert state.legal_actions() == ("stand", "swap")
    state, events = play(state, "swap")  # the revealed dragoon swaps with the 7
    assert ev(events) == ev([Ask(1, 2), Swap(1, 2, None, None)])
    assert hands(state) == ["5", "7", "dragoon", "9"]
    assert state.to_act == 2
    state, _ = play(state, "stand", "stand")
    assert state.lives == (2, 4, 4, 4)
    assert_conserved(state)


def test_rule_3_3_seat_that_received_piece_still_takes_turn() -> None:
    state = start("gnav", ["5", "7", "9"], ["3"])
    state, _ = play(state, "swap")
    assert hands(state) == ["7", "5", "9"]
    assert state.to_act == 1
    assert state.legal_actions() == ("stand", "swap")
    state, _ = play(state, "swap")  # seat 1 passes the 5 on
    assert hands(state) == ["7", "9", "5"]
    assert state.to_act == 2
    assert_conserved(state)


# -- §3.4 a non-dealer's swap ----------------------------------------------------------


def test_rule_3_4_nonmatador_must_swap() -> None:
    state = start("gnav", ["5", "7", "9"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([Ask(0, 1), Swap(0, 1, None, None)])
    assert hands(state) == ["7", "5", "9"]
    # Unseen by others: only the two sides get the pieces.
    full = ev([Swap(0, 1, "7", "5")])[0]
    assert ev(state.seat_events(0))[-1] == full
    assert ev(state.seat_events(1))[-1] == full
    assert ev(state.seat_events(2))[-1] == ev([Swap(0, 1, None, None)])[0]
    assert state.lives == (4, 4, 4)
    assert_conserved(state)


def test_rule_3_4_matador_holder_may_ask_and_gives_it_away() -> None:
    state = start("gnav", ["dragoon", "7", "9"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([Ask(0, 1), Swap(0, 1, None, None)])
    assert hands(state) == ["7", "dragoon", "9"]
    assert state.revealed == 0  # giving a matador away does not reveal it
    assert state.to_act == 1
    assert_conserved(state)


def test_rule_3_4_right_neighbour_of_knocked_fool_may_ask() -> None:
    state = start("gnav", ["5", "fool", "9"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([Ask(0, 1), Swap(0, 1, None, None)])
    assert hands(state) == ["fool", "5", "9"]
    state, events = play(state, "stand", "stand")
    # One fool: its holder pays, and it drags the lowest other piece (the 5).
    assert state.lives == (3, 3, 4)
    assert_conserved(state)


# -- §3.5 the dealer's swap ------------------------------------------------------------


def test_rule_3_5_dealer_swaps_with_stock() -> None:
    state = start("gnav", ["5", "9"], ["3", "2"])
    state, events = play(state, "stand", "swap")
    assert ev(events)[:3] == ev([Stand(0), Ask(1, None), Draw(1, None, None)])
    assert hands(state) == ["5", "3"]
    assert ids(state, state.aside) == ["9"]
    assert state.drawn == 1
    assert state.stock_left() == 1
    assert ev(state.seat_events(1))[3] == ev([Draw(1, "3", "9")])[0]
    assert ev(state.seat_events(0))[3] == ev([Draw(1, None, None)])[0]
    # The dealer's 3 is lowest now.
    assert state.lives == (4, 3)
    assert_conserved(state)


# -- §3.6 the end of the round ---------------------------------------------------------


def test_rule_3_6_round_ends_after_dealer() -> None:
    state = start("gnav", ["5", "7", "9"], ["3"])
    state, _ = play(state, "stand", "stand")
    assert not state.over
    assert state.ended_by is None
    assert state.to_act == 2
    state, events = play(state, "stand")
    assert state.over
    assert state.ended_by == "turns"
    assert state.to_act is None
    assert state.legal_actions() == ()
    assert ev(events) == ev([
        Stand(2),
        sd("5", "7", "9"),
        Pay(0, None, "lowest", 3, True),
        end("turns", (3, 4, 4), ()),
    ])
    assert_conserved(state)


def test_rule_3_6_round_ends_at_once_on_stop() -> None:
    state = start("gnav", ["5", "7", "cuckoo", "9"], ["3"])
    state, events = play(state, "stand", "swap")
    assert state.over
    assert state.ended_by == "cuckoo"
    assert ev(events)[-1] == ev([end("cuckoo", (3, 4, 4, 4), ())])[0]
    assert_conserved(state)


# -- §4 the stock ----------------------------------------------------------------------


def test_rule_4_stock_horse_house_set_aside_draw_again() -> None:
    state = start("gnav", ["5", "9"], ["house", "horse", "2", "1"])
    state, events = play(state, "stand", "swap")
    assert ev(events)[:5] == ev([
        Stand(0),
        Ask(1, None),
        Answer(None, "house", "pass", 1),
        Answer(None, "horse", "pass", 1),
        Draw(1, None, None),
    ])
    assert hands(state) == ["5", "2"]
    assert sorted(ids(state, state.aside)) == ["9", "horse", "house"]
    assert state.drawn == 3
    assert state.stock_left() == 1
    assert state.revealed == 0  # no seat revealed anything
    assert state.lives == (4, 3)
    assert_conserved(state)


def test_rule_4_empty_stock_request_fails() -> None:
    state = start("gnav", ["5", "9"], [])
    state, events = play(state, "stand", "swap")
    assert ev(events)[:3] == ev([Stand(0), Ask(1, None), StockEmpty(1)])
    assert hands(state) == ["5", "9"]
    assert state.aside == ()
    assert state.lives == (3, 4)  # only the showdown: no swap, no penalty
    assert_conserved(state)


def test_rule_4_stock_emptied_by_pass_pieces_request_fails() -> None:
    state = start("gnav", ["5", "horse"], ["house"])
    state, events = play(state, "swap")
    assert ev(events)[:5] == ev([
        Ask(0, 1),
        Answer(1, "horse", "pass", 0),
        Answer(None, "house", "pass", 0),
        StockEmpty(0),
        sd("5", "horse"),
    ])
    assert hands(state) == ["5", "horse"]
    assert ids(state, state.aside) == ["house"]
    assert state.lives == (3, 4)
    assert_conserved(state)


@pytest.mark.parametrize(
    ("matador", "power", "lives", "ended_by"),
    [
        ("cuckoo", "stop", (3, 4), "cuckoo"),
        ("dragoon", "charge", (2, 4), "turns"),
        ("cat", "charge_undo", (2, 4), "turns"),
    ],
)
def test_rule_4_stock_matador_acts_on_asker(
    matador: str, power: str, lives: tuple[int, ...], ended_by: str
) -> None:
    # Reached through a pass at the dealer: the asker is seat 0, not the dealer.
    state = start("gnav", ["5", "horse"], [matador, "3"])
    state, events = play(state, "swap")
    assert ev(events)[:3] == ev([
        Ask(0, 1),
        Answer(1, "horse", "pass", 0),
        Answer(None, matador, power, 0),
    ])
    assert hands(state) == ["5", "horse"]
    assert ids(state, state.aside) == [matador]
    assert state.drawn == 1
    assert state.ended_by == ended_by
    assert state.lives == lives
    pays = [e for e in events if isinstance(e, Pay) and e.reason == matador]
    assert ev(pays) == (ev([Pay(0, None, matador, 3, True)]) if power != "stop" else [])
    assert any(isinstance(e, Undo) for e in events) == (power == "charge_undo")
    assert_conserved(state)


def test_rule_4_stock_cuckoo_on_dealer_ends_round() -> None:
    state = start("gnav", ["5", "9"], ["cuckoo"])
    state, events = play(state, "stand", "swap")
    assert ev(events)[1:4] == ev([
        Ask(1, None),
        Answer(None, "cuckoo", "stop", 1),
        sd("5", "9"),
    ])
    assert state.ended_by == "cuckoo"
    assert hands(state) == ["5", "9"]
    assert_conserved(state)


# -- §5 showdown -----------------------------------------------------------------------


def test_rule_5_lowest_pays_ties_all_pay() -> None:
    state = start("gnav", ["5", "9", "5", "owl"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (4, 4, 4, 3)  # the owl is lowest (no fool)
    state = start("gnav", ["5", "9", "5", "7"], ["3"])
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-3:] == ev([
        Pay(0, None, "lowest", 3, True),
        Pay(2, None, "lowest", 3, True),
        end("turns", (3, 4, 3, 4), ()),
    ])
    assert_conserved(state)


def test_rule_5_rank_order_decides_lowest() -> None:
    # 0 > pot > owl > fool, and the matadors are above the numbers.
    state = start("gnav", ["0", "pot", "12", "cuckoo"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (4, 3, 4, 4)
    state = start("gnav-1917", ["0", "pot", "owl", "12"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.lives == (4, 3, 4, 4)  # 1917: the pot ranks below the owl


def test_rule_5_fool_drags_next_lowest() -> None:
    state = start("gnav", ["fool", "5", "9", "5"], ["3"])
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-5:] == ev([
        sd("fool", "5", "9", "5"),
        Pay(0, None, "fool", 3, True),
        Pay(1, None, "lowest", 3, True),
        Pay(3, None, "lowest", 3, True),
        end("turns", (3, 3, 4, 3), ()),
    ])
    assert_conserved(state)


def test_rule_5_drag_false() -> None:
    state = start("gnav", ["fool", "5", "9", "5"], ["3"], drag=False)
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-2:] == ev([
        Pay(0, None, "lowest", 3, True),
        end("turns", (3, 4, 4, 4), ()),
    ])
    assert_conserved(state)


def test_rule_5_two_fools_gain() -> None:
    state = start("gnav", ["fool", "5", "fool", "9"], ["3"])
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-3:] == ev([
        Gain(0, "two_fools", 5),
        Gain(2, "two_fools", 5),
        end("turns", (5, 4, 5, 4), (0, 2)),
    ])
    assert state.lives == (5, 4, 5, 4)
    assert state.sit_out == (0, 2)
    assert_conserved(state)


def test_rule_5_two_fools_pay() -> None:
    state = start("gnav", ["fool", "5", "fool", "9"], ["3"], two_fools="pay")
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-3:] == ev([
        Pay(0, None, "two_fools", 3, True),
        Pay(2, None, "two_fools", 3, True),
        end("turns", (3, 4, 3, 4), (0, 2)),
    ])
    assert state.lives == (3, 4, 3, 4)
    # gnav-pagat is this rule by default.
    pagat = start("gnav-pagat", ["fool", "5", "fool", "9"], ["3"])
    pagat, _ = play(pagat, "stand", "stand", "stand", "stand")
    assert pagat.lives == (3, 4, 3, 4)
    assert_conserved(state)


def test_rule_5_two_fools_plain() -> None:
    state = start("gnav", ["fool", "5", "fool", "9"], ["3"], two_fools="plain")
    state, events = play(state, "stand", "stand", "stand", "stand")
    assert ev(events)[-3:] == ev([
        Pay(0, None, "lowest", 3, True),
        Pay(2, None, "lowest", 3, True),
        end("turns", (3, 4, 3, 4), ()),
    ])
    assert state.sit_out == ()
    assert_conserved(state)


def test_rule_5_two_fools_counted_at_showdown() -> None:
    # Two fools dealt, one drawn away by the dealer: the one-fool rule applies.
    state = start("gnav", ["fool", "5", "7", "fool"], ["3"])
    state, events = play(state, "stand", "stand", "stand", "swap")
    assert hands(state) == ["fool", "5", "7", "3"]
    assert ev(events)[-4:] == ev([
        sd("fool", "5", "7", "3"),
        Pay(0, None, "fool", 3, True),
        Pay(3, None, "lowest", 3, True),
        end("turns", (3, 4, 4, 3), ()),
    ])
    assert_conserved(state)
    # One fool dealt, a second drawn from the stock: two fools at the showdown.
    state = start("gnav", ["fool", "5", "7", "9"], ["fool"])
    assert state.knocked == (0,)
    state, events = play(state, "stand", "stand", "stand", "swap")
    assert ev(events)[-3:] == ev([
        Gain(0, "two_fools", 5),
        Gain(3, "two_fools", 5),
        end("turns", (5, 4, 4, 5), (0, 3)),
    ])
    assert_conserved(state)


def test_rule_5_two_fools_sit_out_unless_fewer_than_two_active() -> None:
    # Three seats: two would sit out, leaving one; nobody sits out.
    state = start("gnav", ["fool", "5", "fool"], ["3"])
    state, events = play(state, "stand", "stand", "stand")
    assert state.lives == (5, 4, 5)
    assert state.sit_out == ()
    assert ev(events)[-1] == ev([end("turns", (5, 4, 5), ())])[0]
    # Two seats, both fools: nobody sits out.
    state = start("gnav", ["fool", "fool"], ["3"])
    state, _ = play(state, "stand", "stand")
    assert state.sit_out == ()
    # Four seats: the two holders sit out.
    state = start("gnav", ["5", "fool", "9", "fool"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.sit_out == (1, 3)
    # Option off: nobody sits out (and gnav-1917 has it off).
    state = start("gnav", ["5", "fool", "9", "fool"], ["3"], two_fools_sit_out=False)
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.sit_out == ()
    assert state.lives == (4, 5, 4, 5)
    state = start("gnav-1917", ["5", "fool", "9", "fool"], ["3"])
    state, _ = play(state, "stand", "stand", "stand", "stand")
    assert state.sit_out == ()
    assert_conserved(state)


def test_rule_5_two_fools_pay_holder_at_zero_is_out_not_sitting_out() -> None:
    state = start("gnav", ["fool", "5", "fool", "9", "7"], ["3"], lives=[1, 4, 4, 4, 4],
                  two_fools="pay")
    state, _ = play(state, "stand", "stand", "stand", "stand", "stand")
    assert state.lives == (0, 4, 3, 4, 4)
    assert state.sit_out == (2,)
    assert_conserved(state)


# -- §7 stand_needs_matador ------------------------------------------------------------


def test_stand_needs_matador() -> None:
    state = start("gnav", ["5", "dragoon", "9"], ["3"], stand_needs_matador=True,
                  revealed="act")
    assert state.legal_actions() == ("swap",)
    with pytest.raises(IllegalActionError):
        state.apply("stand")
    state, _ = play(state, "swap")  # pays the dragoon
    assert state.to_act == 1
    assert state.legal_actions() == ("stand", "swap")  # the dragoon holder may stand
    state, _ = play(state, "stand")
    assert state.to_act == 2
    assert state.legal_actions() == ("swap",)  # the dealer must draw
    with pytest.raises(IllegalActionError):
        state.apply_for(2, "stand")
    state, events = play(state, "swap")
    assert ev(events)[:2] == ev([Ask(2, None), Draw(2, None, None)])
    assert hands(state) == ["5", "dragoon", "3"]
    assert state.lives == (3, 4, 3)
    assert_conserved(state)


def test_stand_needs_matador_dealer_with_empty_stock_swaps_and_nothing_happens() -> None:
    state = start("gnav", ["dragoon", "9"], [], stand_needs_matador=True)
    state, _ = play(state, "stand")
    assert state.legal_actions() == ("swap",)
    state, events = play(state, "swap")
    assert ev(events)[:2] == ev([Ask(1, None), StockEmpty(1)])
    assert state.lives == (4, 3)
    assert_conserved(state)


def test_stand_needs_matador_off_by_default_everyone_may_stand() -> None:
    state = start("gnav", ["5", "7", "9"], ["3"])
    for _ in range(3):
        assert state.legal_actions() == ("stand", "swap")
        state, _ = state.apply("stand")
    assert state.over


@pytest.mark.parametrize("forced", [False, True])
@pytest.mark.parametrize("preset", [p.name for p in PRESETS_LIST])
def test_the_legal_table_is_the_stand_needs_matador_rule(preset: str, forced: bool) -> None:
    # Views read ``rules.legal_holding`` instead of working the rule out per decision.
    rules = Rules.of(preset, stand_needs_matador=forced)
    for index, piece in enumerate(rules.pieces):
        expected = ("swap",) if forced and piece.power is None else ("stand", "swap")
        assert rules.legal_holding[index] == expected, piece.id


# -- errors ----------------------------------------------------------------------------


def test_illegal_action_when_round_is_over() -> None:
    state = start("gnav", ["5", "9"], ["3"])
    state, _ = play(state, "stand", "stand")
    with pytest.raises(IllegalActionError):
        state.apply("stand")
    with pytest.raises(IllegalActionError):
        state.apply("swap")
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_for(0, "stand")
    assert_conserved(state)


def test_illegal_action_wrong_seat_via_apply_for() -> None:
    state = start("gnav", ["5", "7", "9"], ["3"])
    with pytest.raises(IllegalActionError, match="seat 0"):
        state.apply_for(1, "stand")
    with pytest.raises(IllegalActionError):
        state.apply_for(2, "swap")
    after, events = state.apply_for(0, "swap")
    assert ev(events) == ev([Ask(0, 1), Swap(0, 1, None, None)])
    assert after.to_act == 1
    # The failed attempts changed nothing.
    assert state.turn == 0
    assert hands(state) == ["5", "7", "9"]
    assert_conserved(after)


def test_illegal_action_stand_without_matador() -> None:
    state = start("gnav", ["5", "9"], ["3"], stand_needs_matador=True)
    with pytest.raises(IllegalActionError, match="matador"):
        state.apply_for(0, "stand")


@pytest.mark.parametrize("action", ["fold", "", "pass", 3, None, ("stand",)])
def test_malformed_action_raises_malformed_error(action: object) -> None:
    state = start("gnav", ["5", "9"], ["3"])
    with pytest.raises(MalformedError):
        state.apply(action)
    with pytest.raises(MalformedError):
        state.apply_for(0, action)


def test_action_text_is_read_in_any_case() -> None:
    state = start("gnav", ["5", "9"], ["3"])
    after, events = state.apply(" STAND ")
    assert ev(events) == ev([Stand(0)])
    assert after.to_act == 1


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(MalformedError, ValueError)
    assert issubclass(IllegalActionError, GnavError)
    assert issubclass(MalformedError, GnavError)
    assert not issubclass(IllegalActionError, MalformedError)
    state = start("gnav", ["5", "9"], ["3"])
    with pytest.raises(ValueError):
        state.apply("jump")
    with pytest.raises(ValueError):
        state.apply_for(1, "stand")


# -- the showdown's searches -----------------------------------------------------------


@given(st.lists(st.integers(0, 6), min_size=2, max_size=41), st.integers(0, 6))
def test_holders_are_every_position_holding_the_piece_in_order(hands: list[int],
                                                               piece: int) -> None:
    # Found by count/index in the common case of one holder, by a loop otherwise.
    assert holders(hands, piece) == [p for p, h in enumerate(hands) if h == piece]
    assert holders(tuple(hands), piece) == holders(hands, piece)


@given(st.sampled_from([p.name for p in PRESETS_LIST]), st.data())
def test_fool_holders_are_the_positions_of_every_fool_in_order(preset: str,
                                                               data: st.DataObject) -> None:
    rules = Rules.of(preset)
    hands = data.draw(st.lists(st.sampled_from(range(len(rules.pieces))), min_size=2,
                               max_size=41))
    assert fool_holders(rules, hands) == [p for p, h in enumerate(hands) if rules.fools[h]]


# -- the plain swap of apply -----------------------------------------------------------


def _same(a: tuple[RoundState, tuple[Event, ...]], b: tuple[RoundState, tuple[Event, ...]]
          ) -> None:
    # Events compare as plain tuples (Stand(3) == Knock(3)), so the logs compare by repr,
    # which names each event's class.
    (sa, ea), (sb, eb) = a, b
    assert sa._replace(public=(), private=()) == sb._replace(public=(), private=())
    assert repr(sa.public) == repr(sb.public)
    assert repr(sa.private) == repr(sb.private)
    assert repr(ea) == repr(eb)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_the_plain_swap_of_apply_is_the_request_on_the_working_copy(setup: Setup) -> None:
    # apply swaps with a plain left neighbour on the state itself; the working copy's
    # request (_Play.request, which swaps past pass pieces too) walked from the same left
    # neighbour must come out the same at every state of random matches, round-ending
    # swaps included. (A stand has one path: apply's.)
    for states in play_match(setup, rounds=20).rounds:
        for state in states:
            rnd = state.round
            if rnd is None or rnd.over or rnd.turn == len(rnd.seats) - 1 \
                    or rnd.rules.effects[rnd.hands[rnd.turn + 1]] is not None:
                continue
            _same(rnd.apply(Action.SWAP), rnd._request())


def test_a_swap_and_a_stand_are_each_made_in_one_place() -> None:
    # One rule per decision: the swap's pieces change hands and are told in round.swap
    # (apply's plain swap and the working copy's request both call it), its public
    # event and a stand's are each made in one helper, shared per seat or pair.
    tree = ast.parse(Path(round_module.__file__).read_text(encoding="utf-8"))
    made: dict[str, list[str]] = {}
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef):
            for call in ast.walk(func):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                        and call.func.id in ("Swap", "Stand", "swap"):
                    made.setdefault(call.func.id, []).append(func.name)
    assert sorted(made["Swap"]) == ["_swap", "swap"]
    assert made["Stand"] == ["_stand"]
    assert sorted(made["swap"]) == ["apply", "request"]


def test_most_steps_at_a_full_table_make_no_working_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # apply plays a stand and a plain swap with the left neighbour on the state itself:
    # at 10 seats of gnav most decisions never make the working copy (_Play), stands and
    # swaps alike.
    made: list[RoundState] = []
    real = round_module._Play

    def counted(state: RoundState) -> round_module._Play:
        made.append(state)
        return real(state)

    monkeypatch.setattr(round_module, "_Play", counted)
    rules = Rules.of("gnav")
    match = MatchState.new(rules, [str(i) for i in range(10)], dealer=0)
    rng, decisions, kinds = Random(7), 0, Counter[str]()
    for _ in range(50):
        if match.out:
            match = MatchState.new(rules, match.names, dealer=match.dealer)
        match = match.deal(rng=rng)
        while match.to_act is not None:
            action = ("stand", "swap")[rng.random() < 0.5]
            before = len(made)
            match, _ = match.apply(action)
            decisions += 1
            if len(made) == before:
                kinds[action] += 1
    assert sum(kinds.values()) > decisions / 2 and kinds["stand"] and kinds["swap"]
