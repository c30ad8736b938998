"""The numeric encodings of a view (gnav.features): their sizes and one-hots hold for any
rules and table, the information state grows with every event the seat sees, and pieces
nobody has seen change nothing."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings

from gnav.features import (
    information,
    information_size,
    max_events,
    observation,
    observation_size,
)
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import SeatView, seat_view, spectator_view
from strategies import Setup, play_round, setups

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(setups(max_seats=10))
def test_sizes_one_hots_and_bounds_hold_at_every_step(setup: Setup) -> None:
    rules, n = setup.rules, setup.seats
    states, _, _ = play_round(setup.new_match(), random.Random(setup.seed))
    p = len(rules.pieces)
    for match in states:
        rnd = match.round
        assert rnd is not None
        assert len(rnd.public) + 2 <= max_events(rules, n)
        for seat in (*range(n), None):
            view = view_of(match, seat)
            obs, info = observation(view), information(view)
            assert len(obs) == observation_size(rules, n)
            assert len(info) == information_size(rules, n)
            assert all(x >= 0 for x in obs) and all(x in (0.0, 1.0) for x in info)
            if seat is None:
                assert sum(info[:n]) == 0  # a spectator is nobody
            else:
                assert info[seat] == 1.0 and sum(info[:n]) == 1
                dealt = info[n:n + p]
                in_round = seat in rnd.seats
                assert sum(dealt) == (1 if in_round else 0)
                if in_round:
                    assert dealt[rules.index(rnd.rules.ids[rnd.deal[rnd.position(seat)]])] == 1


@FAST
@given(setups(max_seats=6))
def test_the_information_state_grows_with_every_decision(setup: Setup) -> None:
    """Perfect recall: after each decision every seat's vector differs from before."""
    states, _, _ = play_round(setup.new_match(), random.Random(setup.seed))
    for before, after in itertools.pairwise(states):
        assert after.round is not None
        for seat in after.round.seats:
            assert information(seat_view(before, seat)) != information(seat_view(after, seat))


@FAST
@given(setups(max_seats=6))
def test_pieces_nobody_has_seen_change_nothing(setup: Setup) -> None:
    """The same round with the undrawn stock shuffled again: every seat's encodings, at
    every step, are the same (only the drawn top of the stock can ever be seen)."""
    rng = random.Random(setup.seed)
    match = setup.new_match().deal(rng=rng)
    rnd = match.round
    assert rnd is not None
    actions: list[str] = []
    states = [match]
    while match.phase == "play":
        action = rng.choice(match.legal_actions())
        actions.append(action)
        match, _ = match.apply(action)
        states.append(match)
    final = states[-1].round
    assert final is not None
    drawn = final.drawn
    rest = list(rnd.stock[drawn:])
    random.Random(setup.seed + 1).shuffle(rest)
    other = _with_stock(states[0], (*rnd.stock[:drawn], *rest))
    moves: list[str | None] = [*actions, None]
    for move, mine in zip(moves, states, strict=True):
        for seat in (*range(setup.seats), None):
            a, b = view_of(mine, seat), view_of(other, seat)
            assert observation(a) == observation(b)
            assert information(a) == information(b)
        if move is not None:
            other, _ = other.apply(move)


def view_of(match: MatchState, seat: int | None) -> SeatView:
    return spectator_view(match) if seat is None else seat_view(match, seat)


def _with_stock(match: MatchState, stock: tuple[int, ...]) -> MatchState:
    rnd = match.round
    assert rnd is not None
    return match._replace(round=rnd._replace(stock=stock))


def test_a_knock_is_public_and_a_swap_is_private() -> None:
    """Three seats of gnav, by hand: the fool's knock shows in everyone's observation,
    and the pieces of a swap only to the two who swapped."""
    rules = Rules.of("gnav")
    ids = rules.ids
    fool, two, five = (ids.index(x) for x in ("fool", "2", "5"))
    stock = list(rules.deck)
    for piece in (two, five, fool):
        stock.remove(piece)
    match = MatchState.new(rules, ("a", "b", "c"), dealer=2).deal((two, five, fool), stock)
    n, p = 3, len(rules.pieces)
    per_seat = 10 + 2 * p
    for seat in (0, 1, 2, None):
        obs = observation(view_of(match, seat))
        assert [obs[s * per_seat + 6] for s in range(n)] == [0.0, 0.0, 1.0]  # knocked
    match, _ = match.apply("swap")  # seat 0 gives its II for seat 1's V
    width = 13 + 2 * (n + 1) + 2 * (p + 1) + 6  # kinds, two seats, two pieces, reasons
    for seat, sees in ((0, True), (1, True), (2, False)):
        view = seat_view(match, seat)
        info = information(view)
        slot = n + p + n * p + (len(view.events) - 1) * width  # the swap, the last event
        pieces = info[slot + 13 + 2 * (n + 1):slot + width - 6]
        hidden = pieces[p] == 1.0 and pieces[2 * p + 1] == 1.0
        assert hidden == (not sees)
        if sees:  # the asker got the V, the target the II: both know both
            assert view.piece == ("5" if seat == 0 else "2")
            assert pieces[ids.index("5")] == 1.0 and pieces[p + 1 + ids.index("2")] == 1.0
