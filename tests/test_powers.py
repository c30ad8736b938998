"""docs/spec/rules.md §2: one test per power, each played through a real round with a
hand-made deal."""

from __future__ import annotations

import pytest

from gnav.events import (
    Answer,
    Ask,
    Draw,
    Gain,
    Pay,
    Stand,
    Swap,
    Undo,
)
from gnav.powers import Power
from roundkit import assert_conserved, end, ev, hands, ids, play, sd, start

# -- the power table itself ------------------------------------------------------------


def test_power_vocabulary_is_exactly_the_seven_of_rules_2() -> None:
    assert {p.value for p in Power} == {
        "stop", "refuse", "charge", "charge_stop", "charge_undo", "undo", "pass",
    }
    charged = {p.value for p in Power if p.effect.charge}
    assert charged == {"charge", "charge_stop", "charge_undo"}


# -- stop ------------------------------------------------------------------------------


def test_power_stop_gnav_cuckoo_ends_round_at_once() -> None:
    state = start("gnav", ["5", "cuckoo", "7", "9"], ["3"])
    state, events = play(state, "swap")
    assert state.over
    assert state.ended_by == "cuckoo"
    assert state.to_act is None
    assert state.legal_actions() == ()
    # The asker keeps its own piece; the cuckoo is revealed; seats 2 and 3 never act.
    assert hands(state) == ["5", "cuckoo", "7", "9"]
    assert state.is_revealed(1)
    assert not state.is_revealed(0)
    assert state.drawn == 0
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "cuckoo", "stop", 0),
        sd("5", "cuckoo", "7", "9"),
        Pay(0, None, "lowest", 3, True),
        end("cuckoo", (3, 4, 4, 4), ()),
    ])
    assert state.lives == (3, 4, 4, 4)
    assert_conserved(state)


# -- refuse ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "matador", "high", "low"),
    [
        ("gnav-1917", "cuckoo", "9", "5"),
        ("slabberjan", "vogel", "9", "5"),
        ("chase-the-ace", "king", "9", "5"),
        ("cuccu", "osteria", "9", "5"),
    ],
)
def test_power_refuse_nothing_happens_and_play_goes_on(
    preset: str, matador: str, high: str, low: str
) -> None:
    state = start(preset, [low, matador, high], ["3"])
    state, events = play(state, "swap")
    assert not state.over
    assert ev(events) == ev([Ask(0, 1), Answer(1, matador, "refuse", 0)])
    assert hands(state) == [low, matador, high]
    assert state.lives == (4, 4, 4)
    assert state.is_revealed(1)
    # The refusing holder is revealed, so it takes no turn: the dealer is next.
    assert state.to_act == 2
    state, events = play(state, "stand")
    assert state.ended_by == "turns"
    assert ev(events)[-2] == ev([Pay(0, None, "lowest", 3, True)])[0]
    assert state.lives == (3, 4, 4)
    assert_conserved(state)


def test_power_refuse_chase_the_ace_king_exact_lives() -> None:
    state = start("chase-the-ace", ["queen", "king", "ace"], ["2"], lives=3)
    state, events = play(state, "swap", "stand")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "king", "refuse", 0),
        Stand(2),
        sd("queen", "king", "ace"),
        Pay(2, None, "lowest", 2, True),
        end("turns", (3, 3, 2), ()),
    ])
    assert state.lives == (3, 3, 2)
    assert_conserved(state)


# -- charge ----------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "matador"), [("gnav", "dragoon"), ("gnav-1917", "cat")])
def test_power_charge_asker_pays_and_play_goes_on(preset: str, matador: str) -> None:
    state = start(preset, ["5", matador, "7", "9"], ["3"])
    state, events = play(state, "swap")
    assert not state.over
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, matador, "charge", 0),
        Pay(0, None, matador, 3, True),
    ])
    assert hands(state) == ["5", matador, "7", "9"]  # no undo, asker keeps its piece
    assert state.lives == (3, 4, 4, 4)
    assert state.to_act == 2  # the revealed holder is skipped
    state, events = play(state, "stand", "stand")
    assert state.ended_by == "turns"
    assert state.lives == (2, 4, 4, 4)  # the 5 is lowest at the showdown
    assert_conserved(state)


# -- charge_stop -----------------------------------------------------------------------


def test_power_charge_stop_slabberjan_ruiter_pays_and_ends_round() -> None:
    state = start("slabberjan", ["7", "5", "ruiter", "9"], ["3"])
    state, events = play(state, "stand", "swap")
    assert state.over
    assert state.ended_by == "ruiter"
    assert hands(state) == ["7", "5", "ruiter", "9"]
    assert state.is_revealed(2)
    assert ev(events) == ev([
        Stand(0),
        Ask(1, 2),
        Answer(2, "ruiter", "charge_stop", 1),
        Pay(1, None, "ruiter", 3, True),
        sd("7", "5", "ruiter", "9"),
        Pay(1, None, "lowest", 2, True),
        end("ruiter", (4, 2, 4, 4), ()),
    ])
    assert_conserved(state)


# -- charge_undo -----------------------------------------------------------------------


def test_power_charge_undo_gnav_cat_pays_then_resets_every_holding() -> None:
    state = start("gnav", ["5", "7", "cat", "9"], ["3"])
    state, _ = play(state, "swap")  # 0 and 1 swap: 7, 5
    assert hands(state) == ["7", "5", "cat", "9"]
    state, events = play(state, "swap")  # 1 (now holding the 5) asks the cat
    assert ev(events) == ev([
        Ask(1, 2),
        Answer(2, "cat", "charge_undo", 1),
        Pay(1, None, "cat", 3, True),
        Undo(2, None),
    ])
    assert hands(state) == ["5", "7", "cat", "9"]
    assert state.lives == (4, 3, 4, 4)
    assert state.to_act == 3  # play goes on; the cat holder is skipped
    # Each seat privately sees the piece it gets back.
    assert ev(state.seat_events(0))[-1] == ev([Undo(2, "5")])[0]
    assert ev(state.seat_events(1))[-1] == ev([Undo(2, "7")])[0]
    state, _ = play(state, "stand")
    assert state.lives == (3, 3, 4, 4)  # the 5 is lowest
    assert_conserved(state)


def test_power_charge_undo_payments_made_before_the_undo_stand() -> None:
    state = start("gnav", ["5", "dragoon", "7", "8", "cat", "9"], ["3"])
    state, _ = play(state, "swap")  # 0 pays the dragoon
    assert state.lives == (3, 4, 4, 4, 4, 4)
    assert state.to_act == 2
    state, _ = play(state, "swap")  # 2 and 3 swap
    assert hands(state) == ["5", "dragoon", "8", "7", "cat", "9"]
    state, events = play(state, "swap")  # 3 asks the cat: pays, everything goes back
    assert ev(events)[-2:] == ev([Pay(3, None, "cat", 3, True), Undo(4, None)])
    assert hands(state) == ["5", "dragoon", "7", "8", "cat", "9"]
    assert state.lives == (3, 4, 4, 3, 4, 4)  # 0's dragoon payment still stands
    assert state.revealed == 0b10010  # revealed matadors stay revealed
    assert state.to_act == 5
    state, _ = play(state, "stand")
    assert state.lives == (2, 4, 4, 3, 4, 4)
    assert_conserved(state)


def test_power_undo_resets_stock_swaps_drawn_piece_out_of_play() -> None:
    # revealed=act so that the dealer (a passing House) still draws after a pass chain.
    state = start("gnav", ["5", "7", "horse", "house"], ["3", "cat", "2"], revealed="act")
    state, _ = play(state, "swap")  # 0 and 1 swap
    state, events = play(state, "swap")  # 1 asks: horse, house pass, the stock gives a 3
    assert ev(events) == ev([
        Ask(1, 2),
        Answer(2, "horse", "pass", 1),
        Answer(3, "house", "pass", 1),
        Draw(1, None, None),
    ])
    assert hands(state) == ["7", "3", "horse", "house"]
    assert ids(state, state.aside) == ["5"]
    state, _ = play(state, "stand")  # the horse holder stands
    state, events = play(state, "swap")  # the dealer draws the cat from the stock
    assert ev(events) == ev([
        Ask(3, None),
        Answer(None, "cat", "charge_undo", 3),
        Pay(3, None, "cat", 3, True),
        Undo(None, None),
        sd("5", "7", "horse", "house"),
        Pay(0, None, "lowest", 3, True),
        end("turns", (3, 4, 4, 3), ()),
    ])
    assert hands(state) == ["5", "7", "horse", "house"]
    # The 3 drawn by seat 1 is out of play, with the cat; the 5 went home.
    assert sorted(ids(state, state.aside)) == ["3", "cat"]
    assert state.drawn == 2
    assert state.stock_left() == 1
    assert_conserved(state)


def test_power_charge_undo_cuccu_gnao() -> None:
    state = start("cuccu", ["5", "gnao", "7"], ["3"], lives=3)
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "gnao", "charge_undo", 0),
        Pay(0, None, "gnao", 2, True),
        Undo(1, None),
    ])
    assert state.lives == (2, 3, 3)
    assert_conserved(state)


# -- undo ------------------------------------------------------------------------------


def test_power_undo_slabberjan_poesje_resets_without_payment() -> None:
    state = start("slabberjan", ["5", "7", "poesje", "9"], ["3"])
    state, _ = play(state, "swap")
    assert hands(state) == ["7", "5", "poesje", "9"]
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(1, 2),
        Answer(2, "poesje", "undo", 1),
        Undo(2, None),
    ])
    assert hands(state) == ["5", "7", "poesje", "9"]
    assert state.lives == (4, 4, 4, 4)
    assert state.to_act == 3
    state, _ = play(state, "stand")
    assert state.lives == (3, 4, 4, 4)
    assert_conserved(state)


# -- pass ------------------------------------------------------------------------------


def test_power_pass_gnav_horse_house_chain_reaches_a_plain_piece() -> None:
    state = start("gnav", ["5", "horse", "house", "7", "9"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "horse", "pass", 0),
        Answer(2, "house", "pass", 0),
        Swap(0, 3, None, None),
    ])
    assert hands(state) == ["7", "horse", "house", "5", "9"]
    # Only the two sides of the swap see its pieces.
    assert ev(state.seat_events(0))[-1] == ev([Swap(0, 3, "7", "5")])[0]
    assert ev(state.seat_events(3))[-1] == ev([Swap(0, 3, "7", "5")])[0]
    assert ev(state.seat_events(1))[-1] == ev([Swap(0, 3, None, None)])[0]
    assert state.is_revealed(1) and state.is_revealed(2)
    assert state.lives == (4, 4, 4, 4, 4)
    assert state.to_act == 3  # both passers are skipped
    state, _ = play(state, "stand", "stand")
    assert state.lives == (4, 4, 4, 3, 4)
    assert_conserved(state)


def test_power_pass_slabberjan_herberg_then_refuse_ends_the_request() -> None:
    state = start("slabberjan", ["5", "herberg", "vogel", "9"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "herberg", "pass", 0),
        Answer(2, "vogel", "refuse", 0),
    ])
    assert hands(state) == ["5", "herberg", "vogel", "9"]
    assert state.to_act == 3
    assert_conserved(state)


def test_power_pass_chain_at_dealer_goes_to_the_stock() -> None:
    state = start("gnav", ["5", "horse", "house"], ["3", "2"])
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "horse", "pass", 0),
        Answer(2, "house", "pass", 0),
        Draw(0, None, None),
        sd("3", "horse", "house"),
        Pay(0, None, "lowest", 3, True),
        end("turns", (3, 4, 4), ()),
    ])
    # Never wraps round to seat 0 again: the stock answered, the asker drew a 3.
    assert hands(state) == ["3", "horse", "house"]
    assert ids(state, state.aside) == ["5"]
    assert state.drawn == 1
    assert ev(state.seat_events(0))[4] == ev([Draw(0, "3", "5")])[0]
    assert ev(state.seat_events(1))[4] == ev([Draw(0, None, None)])[0]
    assert_conserved(state)


def test_power_pass_from_stock_slabberjan_herberg_set_aside_draw_again() -> None:
    state = start("slabberjan", ["5", "herberg"], ["herberg", "3"])
    state, events = play(state, "swap")
    assert ev(events)[:5] == ev([
        Ask(0, 1),
        Answer(1, "herberg", "pass", 0),
        Answer(None, "herberg", "pass", 0),
        Draw(0, None, None),
        sd("3", "herberg"),
    ])
    assert sorted(ids(state, state.aside)) == ["5", "herberg"]
    assert_conserved(state)


# -- in every case: the asker keeps its piece, the matador is revealed -------------------


@pytest.mark.parametrize(
    ("preset", "matador"),
    [
        ("gnav", "cuckoo"),
        ("gnav", "dragoon"),
        ("gnav", "cat"),
        ("gnav-1917", "cuckoo"),
        ("gnav-1917", "cat"),
        ("slabberjan", "ruiter"),
        ("slabberjan", "vogel"),
        ("slabberjan", "poesje"),
        ("chase-the-ace", "king"),
    ],
)
def test_power_asker_keeps_own_piece_and_matador_is_revealed(preset: str, matador: str) -> None:
    state = start(preset, ["7", "5", matador, "9"], ["3"])
    assert not state.is_revealed(2)
    state, events = play(state, "stand", "swap")
    assert hands(state)[1] == "5"
    assert hands(state)[2] == matador
    assert state.is_revealed(2)
    assert state.revealed == 0b100
    power = state.rules.pieces[state.hands[2]].power
    assert power is not None
    answers = [e for e in events if isinstance(e, Answer)]
    assert ev(answers) == ev([Answer(2, matador, power.value, 1)])
    # The public log shows the matador to everyone.
    for seat in range(4):
        assert any(isinstance(e, Answer) and e.piece == matador for e in state.seat_events(seat))
    assert_conserved(state)


# -- penalty_to ------------------------------------------------------------------------


def test_power_charge_penalty_to_holder_gives_the_life_to_the_holder() -> None:
    state = start("gnav", ["5", "dragoon", "7"], ["3"], penalty_to="holder")
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "dragoon", "charge", 0),
        Pay(0, 1, "dragoon", 3, True),
        Gain(1, "penalty", 5),
    ])
    assert state.lives == (3, 5, 4)
    assert_conserved(state)


def test_power_charge_undo_penalty_to_holder_in_gnav_summary() -> None:
    state = start("gnav-summary", ["5", "cat", "7"], ["3"])
    state, events = play(state, "swap")
    assert ev(events) == ev([
        Ask(0, 1),
        Answer(1, "cat", "charge_undo", 0),
        Pay(0, 1, "cat", 3, True),
        Gain(1, "penalty", 5),
        Undo(1, None),
    ])
    assert state.lives == (3, 5, 4)
    assert_conserved(state)


def test_power_stock_drawn_matador_penalty_goes_to_the_pool_under_holder() -> None:
    state = start("gnav", ["5", "9", "7"], ["dragoon", "3"], penalty_to="holder")
    state, events = play(state, "stand", "stand", "swap")
    assert ev(events)[2:5] == ev([
        Ask(2, None),
        Answer(None, "dragoon", "charge", 2),
        Pay(2, None, "dragoon", 3, True),
    ])
    assert not any(isinstance(e, Gain) for e in events)
    assert hands(state) == ["5", "9", "7"]  # the dealer keeps its own piece
    assert ids(state, state.aside) == ["dragoon"]
    assert state.revealed == 0
    # Showdown: 5 is lowest.
    assert state.lives == (3, 4, 3)
    assert sum(state.lives) == 10
    assert_conserved(state)


# -- a seat at 0 lives pays nothing ----------------------------------------------------


def test_power_charge_seat_at_zero_pays_nothing() -> None:
    state = start("gnav", ["5", "dragoon", "7"], ["3"], lives=1)
    state, events = play(state, "swap")
    assert ev(events)[-1] == ev([Pay(0, None, "dragoon", 0, True)])[0]
    assert state.lives == (0, 1, 1)
    state, events = play(state, "stand")
    # The seat plays on; at the showdown its 5 is lowest, but it has nothing to pay.
    assert ev(events)[-2] == ev([Pay(0, None, "lowest", 0, False)])[0]
    assert state.lives == (0, 1, 1)
    assert_conserved(state)


def test_power_charge_seat_at_zero_gives_holder_nothing_under_holder() -> None:
    state = start("gnav", ["5", "dragoon", "7"], ["3"], lives=[0, 4, 4],
                  penalty_to="holder")
    state, events = play(state, "swap")
    assert ev(events)[-1] == ev([Pay(0, 1, "dragoon", 0, False)])[0]
    assert not any(isinstance(e, Gain) for e in events)
    assert state.lives == (0, 4, 4)
    assert_conserved(state)
