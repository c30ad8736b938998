"""Information sets: what a deciding seat knows about the round, as one string.

The solver (``gnav.solve``) keys its strategy by this string and the ``expert`` bot looks
its move up by it, so both must compute it from the same thing: the seat's ``SeatView``.
The key holds exactly the round-relevant parts of the view and nothing else:

- the seat's position in the turn order and the number of seats (position 0 sits at the
  dealer's left, the dealer is the last position);
- the piece dealt to it and the piece it holds now;
- the round's events as the seat sees them (the public log with its own private overlays),
  with seats written as positions.

Lives are left out on purpose: the solved game assumes every seat has lives to pay, so a
payment's "lives left" and "paid" fields say nothing the equilibrium uses. The round
number and seat numbers are left out too: position is all that matters within a round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gnav.errors import IllegalActionError
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
from gnav.views import SeatView


def infoset_key(view: SeatView) -> str:
    """The information set of the seat of ``view`` in its current round."""
    if view.seat is None or view.dealt is None or view.piece is None:
        raise IllegalActionError("only a seat dealt into the round has an information set")
    if view.seat not in view.order:
        raise IllegalActionError(f"seat {view.seat} is not playing this round")
    return key_of(view.order, view.seat, view.dealt, view.piece, view.events)


def key_of(order: Sequence[int], seat: int, dealt: str, piece: str,
           events: Iterable[Event]) -> str:
    """The key from its parts; ``events`` are the round's events as ``seat`` sees them.

    ``infoset_key`` is the entry point; the solver calls this directly with the same
    parts taken from the round, which a test checks against ``infoset_key``."""
    pos = {s: i for i, s in enumerate(order)}
    codes = [_code(e, pos) for e in events]
    return f"{pos[seat]}/{len(order)}|{dealt}|{piece}|{','.join(c for c in codes if c)}"


def _p(pos: dict[int, int], seat: int | None) -> str:
    return "s" if seat is None else str(pos[seat])  # s: no seat (the stock, the pool)


def _code(e: Event, pos: dict[int, int]) -> str:
    """One event, short: seats as positions, lives dropped. Types are tested most common
    first; RoundStart says nothing beyond the order (the own dealt piece is in the key)."""
    t = type(e)
    if t is Stand:
        assert isinstance(e, Stand)
        return f"S{pos[e.seat]}"
    if t is Ask:
        assert isinstance(e, Ask)
        return f"A{pos[e.seat]}{_p(pos, e.target)}"
    if t is Swap:
        assert isinstance(e, Swap)
        if e.seat_got is None:
            return f"W{pos[e.seat]}"
        return f"W{pos[e.seat]}:{e.seat_got}:{e.target_got}"
    if t is Answer:
        assert isinstance(e, Answer)
        return f"R{_p(pos, e.seat)}:{e.piece}"
    if t is Pay:
        assert isinstance(e, Pay)
        return f"P{pos[e.seat]}{_p(pos, e.to)}:{e.reason}"
    if t is Gain:
        assert isinstance(e, Gain)
        return f"G{pos[e.seat]}:{e.reason}"
    if t is Knock:
        assert isinstance(e, Knock)
        return f"K{pos[e.seat]}"
    if t is Draw:
        assert isinstance(e, Draw)
        return f"D{pos[e.seat]}" if e.piece is None else f"D{pos[e.seat]}:{e.piece}:{e.set_aside}"
    if t is Undo:
        assert isinstance(e, Undo)
        return f"U{_p(pos, e.by)}"
    if t is StockEmpty:
        assert isinstance(e, StockEmpty)
        return f"E{pos[e.seat]}"
    if t is RoundStart:
        return ""
    # Showdown and RoundEnd come after the last decision; nothing else is in a round.
    return e.kind
