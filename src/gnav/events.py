"""Events: what happened, as immutable values.

The round keeps one public log and, per seat, private overlays: an overlay replaces
the public event at the same index with the version that seat may see (its own dealt
piece, the pieces of a swap it took part in, its own stock draw). A public event never
holds a hidden piece, so the public log is what a spectator sees.

Seats are numbers (indices into the match's seat list); pieces are piece ids.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple, TypeAlias

from gnav.vocab import EndedBy


class EventKind(StrEnum):
    """What an event is: its ``type`` in records' and the wire's JSON, and the key of
    the narration table (``gnav.texts.narration``) and the terminal's log colours."""

    ROUND_START = "round_start"
    KNOCK = "knock"
    STAND = "stand"
    ASK = "ask"
    ANSWER = "answer"
    SWAP = "swap"
    DRAW = "draw"
    STOCK_EMPTY = "stock_empty"
    PAY = "pay"
    GAIN = "gain"
    UNDO = "undo"
    SHOWDOWN = "showdown"
    ROUND_END = "round_end"
    ELIMINATED = "eliminated"
    MATCH_END = "match_end"


class RoundStart(NamedTuple):
    """The deal: one piece to each seat of ``order``, the rest to the stock."""

    round: int
    dealer: int
    order: tuple[int, ...]  # turn order: the dealer's left first, the dealer last
    stock: int  # pieces in the stock
    piece: str | None = None  # the reader's own dealt piece; None in the public log

    @property
    def kind(self) -> EventKind:
        return EventKind.ROUND_START


class Knock(NamedTuple):
    seat: int  # dealt a fool, and says so

    @property
    def kind(self) -> EventKind:
        return EventKind.KNOCK


class Stand(NamedTuple):
    seat: int

    @property
    def kind(self) -> EventKind:
        return EventKind.STAND


class Ask(NamedTuple):
    seat: int
    target: int | None  # None: the stock

    @property
    def kind(self) -> EventKind:
        return EventKind.ASK


class Answer(NamedTuple):
    """A matador answers a request: it is revealed to everyone."""

    seat: int | None  # None: drawn from the stock, and set aside
    piece: str
    power: str
    asker: int

    @property
    def kind(self) -> EventKind:
        return EventKind.ANSWER


class Swap(NamedTuple):
    seat: int  # the asker
    target: int
    seat_got: str | None  # the pieces each side now holds: None in the public log
    target_got: str | None

    @property
    def kind(self) -> EventKind:
        return EventKind.SWAP


class Draw(NamedTuple):
    """The asker takes a plain piece from the stock; its own piece is set aside."""

    seat: int
    piece: str | None  # None in the public log
    set_aside: str | None

    @property
    def kind(self) -> EventKind:
        return EventKind.DRAW


class StockEmpty(NamedTuple):
    seat: int

    @property
    def kind(self) -> EventKind:
        return EventKind.STOCK_EMPTY


class Pay(NamedTuple):
    seat: int
    to: int | None  # None: the pool
    reason: str  # the matador's id, or "lowest", "fool", "two_fools"
    lives: int  # after paying
    paid: bool  # False when the seat had no life left to pay

    @property
    def kind(self) -> EventKind:
        return EventKind.PAY


class Gain(NamedTuple):
    seat: int
    reason: str  # "penalty" (a matador's penalty paid to its holder) or "two_fools"
    lives: int

    @property
    def kind(self) -> EventKind:
        return EventKind.GAIN


class Undo(NamedTuple):
    """Every holding goes back to the deal."""

    by: int | None  # the undoing matador's holder; None: drawn from the stock
    piece: str | None  # the seat's own piece back: None in the public log

    @property
    def kind(self) -> EventKind:
        return EventKind.UNDO


class Showdown(NamedTuple):
    """Every active seat shows its piece: ``pieces[i]`` is the piece of ``seats[i]``."""

    seats: tuple[int, ...]
    pieces: tuple[str, ...]

    @property
    def kind(self) -> EventKind:
        return EventKind.SHOWDOWN

    @property
    def hands(self) -> dict[int, str]:
        return dict(zip(self.seats, self.pieces, strict=True))


class RoundEnd(NamedTuple):
    ended_by: EndedBy  # "turns" or the id of the piece that ended it
    lives: tuple[int, ...]  # every seat of the match, after the round
    sit_out: tuple[int, ...]

    @property
    def kind(self) -> EventKind:
        return EventKind.ROUND_END


class Eliminated(NamedTuple):
    seats: tuple[int, ...]

    @property
    def kind(self) -> EventKind:
        return EventKind.ELIMINATED


class MatchEnd(NamedTuple):
    winners: tuple[int, ...]

    @property
    def kind(self) -> EventKind:
        return EventKind.MATCH_END


Event: TypeAlias = (
    RoundStart | Knock | Stand | Ask | Answer | Swap | Draw | StockEmpty | Pay | Gain
    | Undo | Showdown | RoundEnd | Eliminated | MatchEnd
)

SEAT_FIELDS = frozenset({"seat", "target", "to", "asker", "by", "dealer"})


def event_to_json(event: Event, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A JSON-ready dict; with ``names``, seat numbers become seat names."""

    def seat(i: int | None) -> Any:
        return i if names is None or i is None else names[i]

    out: dict[str, Any] = {"type": event.kind}
    value: Any
    for key, value in zip(event._fields, event, strict=True):
        if key in SEAT_FIELDS:
            out[key] = seat(value)
        elif key in ("order", "seats", "winners", "sit_out"):
            out[key] = [seat(v) for v in value]
        elif key == "lives" and isinstance(value, tuple):
            out[key] = {seat(s): v for s, v in enumerate(value)}
        else:
            out[key] = value
    return out
