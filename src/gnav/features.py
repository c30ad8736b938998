"""Fixed-size numeric encodings of a seat's view, for learning code (OpenSpiel, PettingZoo).

Both encodings read a ``SeatView`` and nothing else, so they can hold no more than the
seat may know. They are plain lists of floats: the core stays free of numpy, and the
adapters turn them into arrays.

- ``observation``: what the seat sees on the table now (its piece, who knocked, who stood
  or swapped, which matadors have answered, the lives, the stock), without the order of
  past events. Its size depends on the rules and the number of seats of the match.
- ``information``: the seat's whole round as it saw it (perfect recall): its position,
  its dealt piece, and every event of the round with its private overlays, one slot per
  event, in order. Two views with the same events give the same vector.

Seats are encoded by seat number (``view.names``), so the same layout serves one round
and a whole match, where the dealer moves round the table.
"""

from __future__ import annotations

from gnav.events import (
    Answer,
    Ask,
    Draw,
    Event,
    Gain,
    Knock,
    Pay,
    RoundEnd,
    RoundStart,
    Showdown,
    Stand,
    StockEmpty,
    Swap,
    Undo,
)
from gnav.rules import Rules
from gnav.views import SeatView
from gnav.vocab import Action, Phase

# Event kinds a round's log can hold, in a fixed order.
KINDS: tuple[type, ...] = (RoundStart, Knock, Stand, Ask, Answer, Swap, Draw, StockEmpty,
                           Pay, Gain, Undo, Showdown, RoundEnd)
_KIND = {kind: i for i, kind in enumerate(KINDS)}
# The "why" of a payment or a gain: a matador's penalty, or one of the showdown's rules.
REASONS = ("matador", "lowest", "fool", "two_fools", "penalty", "paid")


def _one_hot(out: list[float], at: int, index: int | None) -> None:
    if index is not None:
        out[at + index] = 1.0


def _matadors_in_deck(rules: Rules) -> int:
    return sum(1 for e in rules.effects if e is not None) * rules.options.copies


def max_events(rules: Rules, seats: int) -> int:
    """A bound on the events of one round at ``seats`` seats.

    The deal and the knocks; per turn a decision, the answers of every other seat and of
    every matador in the stock, a swap or draw, a payment with its gain, and an undo;
    then the showdown's payments and gains, the showdown and the end."""
    per_turn = 1 + (seats - 1) + _matadors_in_deck(rules) + 1 + 2 + 1
    return 1 + seats + seats * per_turn + 2 * seats + 2


# -- observation -----------------------------------------------------------------------

def observation_size(rules: Rules, seats: int) -> int:
    p = len(rules.pieces)
    # per seat: in the round, is me, is dealer, to act, stood, swapped, knocked, out,
    # sitting out, lives; plus the matador it revealed and the piece it showed
    per_seat = 10 + 2 * p
    return seats * per_seat + 2 * p + p + 2 + 2


def observation(view: SeatView) -> list[float]:
    """The seat's table now (see the module docstring); a spectator's has no own piece."""
    rules = view.rules
    n = len(view.names)
    p = len(rules.pieces)
    out = [0.0] * observation_size(rules, n)
    per_seat = 10 + 2 * p
    in_round = set(view.order)
    knocked = set(view.knocked)
    stood: set[int] = set()
    swapped: set[int] = set()
    shown: dict[int, str] = {}
    from_stock = [0.0] * p
    index = rules.index
    for e in view.public:
        if isinstance(e, Stand):
            stood.add(e.seat)
        elif isinstance(e, Ask):
            swapped.add(e.seat)
        elif isinstance(e, Answer):
            if e.seat is None:
                from_stock[index(e.piece)] += 1.0
        elif isinstance(e, Showdown):
            shown = e.hands
    revealed = view.revealed
    out_set, sitting = set(view.out), set(view.sitting_out)
    for seat in range(n):
        at = seat * per_seat
        flags = (seat in in_round, seat == view.seat, seat == view.dealer and view.round > 0,
                 seat == view.to_act, seat in stood, seat in swapped, seat in knocked,
                 seat in out_set, seat in sitting)
        for k, flag in enumerate(flags):
            out[at + k] = 1.0 if flag else 0.0
        out[at + 9] = float(view.lives[seat])
        if seat in revealed:
            out[at + 10 + index(revealed[seat])] = 1.0
        if seat in shown:
            out[at + 10 + p + index(shown[seat])] = 1.0
    at = n * per_seat
    _one_hot(out, at, None if view.piece is None else index(view.piece))
    _one_hot(out, at + p, None if view.dealt is None else index(view.dealt))
    at += 2 * p
    out[at:at + p] = from_stock
    at += p
    out[at] = float(view.stock_left)
    out[at + 1] = 1.0 if view.phase == Phase.OVER else 0.0
    out[at + 2] = 1.0 if Action.STAND in view.legal else 0.0
    out[at + 3] = 1.0 if Action.SWAP in view.legal else 0.0
    return out


# -- information state -----------------------------------------------------------------

def _event_width(rules: Rules, seats: int) -> int:
    # kind, two seats (or "none": the stock or the pool), two pieces (or "hidden"), why
    return len(KINDS) + 2 * (seats + 1) + 2 * (len(rules.pieces) + 1) + len(REASONS)


def information_size(rules: Rules, seats: int) -> int:
    p = len(rules.pieces)
    return seats + p + seats * p + max_events(rules, seats) * _event_width(rules, seats)


def information(view: SeatView) -> list[float]:
    """The seat's round as it saw it, every event in order (see the module docstring).
    A spectator's holds only the public log."""
    rules = view.rules
    n = len(view.names)
    p = len(rules.pieces)
    out = [0.0] * information_size(rules, n)
    _one_hot(out, 0, view.seat)
    index = rules.index
    _one_hot(out, n, None if view.dealt is None else index(view.dealt))
    at = n + p
    events: list[Event] = view.events if view.seat is not None else list(view.public)
    for e in events:
        if isinstance(e, Showdown):  # the pieces shown, one block per seat
            for seat, piece in e.hands.items():
                out[at + seat * p + index(piece)] = 1.0
    at += n * p
    width = _event_width(rules, n)
    limit = max_events(rules, n)
    for slot, e in enumerate(events[:limit]):
        _event(out, at + slot * width, e, rules, n)
    return out


def _event(out: list[float], at: int, e: Event, rules: Rules, n: int) -> None:
    p = len(rules.pieces)
    seat_a = at + len(KINDS)
    seat_b = seat_a + n + 1
    piece_a = seat_b + n + 1
    piece_b = piece_a + p + 1
    why = piece_b + p + 1
    out[at + _KIND[type(e)]] = 1.0

    def seat(base: int, s: int | None) -> None:
        out[base + (n if s is None else s)] = 1.0

    def piece(base: int, pid: str | None) -> None:
        out[base + (p if pid is None else rules.index(pid))] = 1.0

    if isinstance(e, RoundStart):
        seat(seat_a, e.dealer)
        piece(piece_a, e.piece)
    elif isinstance(e, Knock | Stand | StockEmpty):
        seat(seat_a, e.seat)
    elif isinstance(e, Ask):
        seat(seat_a, e.seat)
        seat(seat_b, e.target)
    elif isinstance(e, Answer):
        seat(seat_a, e.seat)
        seat(seat_b, e.asker)
        piece(piece_a, e.piece)
    elif isinstance(e, Swap):
        seat(seat_a, e.seat)
        seat(seat_b, e.target)
        piece(piece_a, e.seat_got)
        piece(piece_b, e.target_got)
    elif isinstance(e, Draw):
        seat(seat_a, e.seat)
        piece(piece_a, e.piece)
        piece(piece_b, e.set_aside)
    elif isinstance(e, Pay):
        seat(seat_a, e.seat)
        seat(seat_b, e.to)
        if e.reason in REASONS:
            out[why + REASONS.index(e.reason)] = 1.0
        else:
            out[why] = 1.0
            piece(piece_a, e.reason)
        if e.paid:
            out[why + REASONS.index("paid")] = 1.0
    elif isinstance(e, Gain):
        seat(seat_a, e.seat)
        out[why + REASONS.index(e.reason)] = 1.0
    elif isinstance(e, Undo):
        seat(seat_a, e.by)
        piece(piece_a, e.piece)
