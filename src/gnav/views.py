"""Per-seat views: the only thing bots, clients and adapters ever see.

A view is built from the public log and the seat's own private overlays, and holds no
reference to the state, so nothing hidden can be reached through it.
"""

from __future__ import annotations

from typing import NamedTuple

from gnav.events import Answer, Event, Knock
from gnav.match import MatchState
from gnav.round import PrivateLog, merge
from gnav.rules import Rules


class SeatView(NamedTuple):
    rules: Rules
    names: tuple[str, ...]
    seat: int | None  # None: a spectator
    phase: str  # "deal", "play" or "over"
    round: int  # the round number (0 before the first deal)
    dealer: int
    order: tuple[int, ...]  # this round's turn order, the dealer last
    lives: tuple[int, ...]  # every seat's lives now
    out: tuple[int, ...]
    sitting_out: tuple[int, ...]
    piece: str | None  # the seat's own piece now (None for a spectator or a seat not dealt)
    dealt: str | None  # the piece the seat was dealt this round
    to_act: int | None
    legal: tuple[str, ...]  # the seat's legal actions (empty unless it is to act)
    stock_left: int
    public: tuple[Event, ...]
    private: PrivateLog
    winners: tuple[int, ...] | None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat

    @property
    def events(self) -> list[Event]:
        """This round's events as this seat sees them."""
        return merge(self.public, self.private, self.dealt)

    @property
    def knocked(self) -> tuple[int, ...]:
        return tuple(e.seat for e in self.public if type(e) is Knock)

    @property
    def revealed(self) -> dict[int, str]:
        """Seats whose matador has answered this round, and the matador."""
        return {e.seat: e.piece for e in self.public if type(e) is Answer and e.seat is not None}

    def left_of(self, seat: int) -> int | None:
        """The seat a request from ``seat`` goes to this round (None: the stock)."""
        order = self.order
        i = order.index(seat)
        return order[i + 1] if i + 1 < len(order) else None


def seat_view(match: MatchState, seat: int | None) -> SeatView:
    """What ``seat`` may know now; ``seat=None`` gives the spectator's view."""
    rnd = match.round
    if rnd is None:
        return SeatView(match.rules, match.names, seat, match.phase, 0, match.dealer, (),
                        match.lives, match.out, match.sitting_out, None, None, None, (), 0, (),
                        (), match.winners)
    seats = rnd.seats
    piece = dealt = None
    private: PrivateLog = ()
    legal: tuple[str, ...] = ()
    turn = rnd.turn
    pos = -1
    if seat is not None:
        # The acting seat is the common case: no search through the seats.
        if turn < len(seats) and seats[turn] == seat:
            pos = turn
        elif seat in seats:
            pos = seats.index(seat)
    if pos >= 0:
        ids = rnd.rules.ids
        piece = ids[rnd.hands[pos]]
        dealt = ids[rnd.deal[pos]]
        private = rnd.private[pos]
        if turn == pos and match.winners is None:
            legal = rnd.legal_actions()
    over = match.winners is not None
    to_act = None if over or rnd.turn >= len(seats) else seats[rnd.turn]
    phase = "over" if over else "play" if to_act is not None else "deal"
    return _new(SeatView, (match.rules, match.names, seat, phase, rnd.number, seats[-1], seats,
                           rnd.lives, match.out, match.sitting_out, piece, dealt, to_act, legal,
                           len(rnd.stock) - rnd.drawn, rnd.public, private, match.winners))


_new = tuple.__new__


def spectator_view(match: MatchState) -> SeatView:
    return seat_view(match, None)


def view_to_json(view: SeatView, *, since: int = 0) -> dict[str, object]:
    """A view as JSON-ready data, seat names spelled out; ``since`` drops the round's
    first events (a client that already has them)."""
    from gnav.events import event_to_json

    names = view.names
    return {
        "seat": None if view.seat is None else names[view.seat],
        "phase": view.phase,
        "round": view.round,
        "dealer": names[view.dealer],
        "order": [names[s] for s in view.order],
        "lives": {names[s]: v for s, v in enumerate(view.lives)},
        "out": [names[s] for s in view.out],
        "sitting_out": [names[s] for s in view.sitting_out],
        "piece": view.piece,
        "to_act": None if view.to_act is None else names[view.to_act],
        "legal": list(view.legal),
        "stock_left": view.stock_left,
        "knocked": [names[s] for s in view.knocked],
        "revealed": {names[s]: p for s, p in view.revealed.items()},
        # A client that has every event (the server's updates) costs no merge at all.
        "events": [event_to_json(e, names) for e in view.events[since:]]
        if since < len(view.public) else [],
        "winners": None if view.winners is None else [names[s] for s in view.winners],
    }
