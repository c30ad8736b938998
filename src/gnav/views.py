"""Per-seat views: the only thing bots, clients and adapters ever see.

A view is built from the public log and the seat's own private overlays, and holds no
reference to the state, so nothing hidden can be reached through it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gnav.errors import IllegalActionError
from gnav.events import Answer, Event, Knock
from gnav.match import MatchState
from gnav.round import PrivateLog, RoundState, merge
from gnav.rules import Rules
from gnav.vocab import Action, Phase


class SeatView(NamedTuple):
    """What one seat (or a spectator, ``seat`` None) may know: built by ``seat_view``
    and ``spectator_view``, never from a state by hand (``_replace`` gives a what-if
    copy by field name)."""

    rules: Rules
    names: tuple[str, ...]
    seat: int | None  # None: a spectator
    phase: Phase
    round: int  # the round number (0 before the first deal)
    dealer: int
    order: tuple[int, ...]  # this round's turn order, the dealer last
    lives: tuple[int, ...]  # every seat's lives now
    out: tuple[int, ...]
    sitting_out: tuple[int, ...]
    piece: str | None  # the seat's own piece now (None for a spectator or a seat not dealt)
    dealt: str | None  # the piece the seat was dealt this round
    to_act: int | None
    legal: tuple[Action, ...]  # the seat's legal actions (empty unless it is to act)
    stock_left: int
    public: tuple[Event, ...]
    private: PrivateLog
    winners: tuple[int, ...] | None

    def __repr__(self) -> str:
        # The default spells out the whole event log. No piece either: a repr ends up
        # in logs, which are no place for even the seat's own piece.
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return (f"<SeatView {self.rules.name} round {self.round} for {who}: {self.phase}, "
                f"legal {'/'.join(self.legal) or '-'}, {len(self.public)} events>")

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


# Enum members read once: each ``Phase.PLAY`` is a ~0.1 us lookup on Python 3.11.
_OVER, _PLAY, _DEAL, _DRAW = Phase.OVER, Phase.PLAY, Phase.DEAL, Phase.DRAW
_SPECTATOR: Any = object()  # spectator_view's seat: no seat number can be mistaken for it


def seat_view(match: MatchState, seat: int) -> SeatView:
    """What ``seat`` may know now. A spectator's view is ``spectator_view``.

    :raises: :exc:`IllegalActionError` for None (a lost seat number must not turn into a
        spectator's view silently) and for a seat the match does not have.
    """
    return _view(match, match.round, seat)


def seat_view_during(match: MatchState, round: RoundState, seat: int) -> SeatView:
    """What ``seat`` may know once the round of ``match`` has moved on to ``round`` by
    decisions alone (``round`` is a later state of ``match.round``, not yet settled):
    exactly ``seat_view`` of the match rebuilt with it. The game loop's way to play a
    round without rebuilding the match at each decision (``gnav.runner``).

    :raises: :exc:`IllegalActionError` as ``seat_view`` does.
    """
    return _view(match, round, seat)


def _view(match: MatchState, rnd: RoundState | None, seat: int) -> SeatView:
    # The one place a SeatView is built, for a seat or (from spectator_view) for nobody.
    # Built on every decision, so it is built directly, not through keywords (18 keyword
    # arguments cost several times the rest of the view); instead every value has the
    # name of its field, in field order, and a test reads this function to hold it so.
    rules, names, lives, out, sitting_out, dealer, _, _, _, winners, _ = match
    if seat is _SPECTATOR:  # spectator_view's call: the view of nobody
        seat = None  # type: ignore[assignment]
    elif seat is None:
        raise IllegalActionError("seat_view needs a seat (a spectator's view is "
                                 "spectator_view)")
    elif not 0 <= seat < len(names):
        raise IllegalActionError(f"no seat {seat!r} to view (the match has {len(names)})")
    piece = dealt = to_act = None
    private: PrivateLog = ()
    legal: tuple[Action, ...] = ()
    if rnd is None:
        phase = match.phase
        round = stock_left = 0
        order: tuple[int, ...] = ()
        public: tuple[Event, ...] = ()
    else:
        _, round, order, deals, hands, stock, drawn, undrawn, _, lives, _, turn, drawing, _, \
            _, _, public, overlays = rnd
        over = winners is not None
        if not over and turn < len(order) and not drawing:
            to_act = order[turn]
        phase = _OVER if over else _PLAY if to_act is not None else \
            _DRAW if drawing else _DEAL
        dealer = order[-1]
        stock_left = len(stock) + undrawn - drawn
        pos = -1
        if seat is not None:
            # The acting seat is the common case: no search through the seats.
            if to_act == seat:
                pos = turn
            elif seat in order:
                pos = order.index(seat)
        if pos >= 0:
            ids = rules.ids
            piece = ids[hands[pos]]
            dealt = ids[deals[pos]]
            private = overlays[pos]
            if pos == turn and to_act is not None:
                legal = rules.legal_holding[hands[pos]]  # rnd.legal_actions(), no call
    return tuple.__new__(SeatView, (rules, names, seat, phase, round, dealer, order, lives,
                                    out, sitting_out, piece, dealt, to_act, legal,
                                    stock_left, public, private, winners))


def spectator_view(match: MatchState) -> SeatView:
    """What anyone watching may know: the public log, no piece."""
    return _view(match, match.round, _SPECTATOR)


def public_view_json(view: SeatView) -> dict[str, object]:
    """The members of ``view_to_json`` that anyone at the table may see (the same in
    every seat's view and the spectator's): what a renderer builds once for all of
    them, from the spectator's view."""
    names = view.names
    return {
        "phase": view.phase,
        "round": view.round,
        "dealer": names[view.dealer],
        "order": [names[s] for s in view.order],
        "lives": {names[s]: v for s, v in enumerate(view.lives)},
        "out": [names[s] for s in view.out],
        "sitting_out": [names[s] for s in view.sitting_out],
        "to_act": None if view.to_act is None else names[view.to_act],
        "stock_left": view.stock_left,
        "knocked": [names[s] for s in view.knocked],
        "revealed": {names[s]: p for s, p in view.revealed.items()},
        "winners": None if view.winners is None else [names[s] for s in view.winners],
    }


def view_to_json(view: SeatView, *, since: int = 0,
                 public: dict[str, object] | None = None) -> dict[str, object]:
    """A view as JSON-ready data, seat names spelled out; ``since`` drops the round's
    first events (a client that already has them). ``public``: ``public_view_json`` of
    a view of the same state (the spectator's), shared by many seats' views; only the
    seat's own members are then built here."""
    from gnav.events import event_to_json

    names = view.names
    p = public_view_json(view) if public is None else public
    return {
        "seat": None if view.seat is None else names[view.seat],
        "phase": p["phase"],
        "round": p["round"],
        "dealer": p["dealer"],
        "order": p["order"],
        "lives": p["lives"],
        "out": p["out"],
        "sitting_out": p["sitting_out"],
        "piece": view.piece,
        "to_act": p["to_act"],
        "legal": list(view.legal),
        "stock_left": p["stock_left"],
        "knocked": p["knocked"],
        "revealed": p["revealed"],
        # A client that has every event (the server's updates) costs no merge at all.
        "events": [event_to_json(e, names) for e in view.events[since:]]
        if since < len(view.public) else [],
        "winners": p["winners"],
    }
