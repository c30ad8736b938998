"""One round: the deal, the turns, the requests and the showdown (docs/spec/rules.md §2 to §5).

``RoundState`` is an immutable value. ``apply(action)`` returns a new state and the
public events the action caused. Positions count in turn order: position 0 sits at the
dealer's left and the dealer is the last position, so "left" is always ``position + 1``
and the dealer's left is the stock.

The stock is either known at the deal (a record, a server table, a seeded simulation:
``stock`` holds every piece, top first) or still undrawn (``RoundState.start`` with
``stock=None``: the rest of the deck, face down, no piece of it known to the engine
either). Then when a request reaches the stock's next piece, chance acts: the state's
``phase`` is ``Phase.DRAW``, nobody is ``to_act``, ``chance_outcomes()`` gives each piece
it may draw with its probability (copies left / pieces left, as OpenSpiel's chance nodes
do) and ``apply(piece)`` draws it, the request going on from there. docs/chance.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import itemgetter
from typing import NamedTuple

from gnav.errors import IllegalActionError, MalformedError
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
from gnav.kernel import Outcome, holders
from gnav.rules import Rules
from gnav.vocab import Action, EndedBy, Ending, Phase, ending_of, parse_action

STAND = Action.STAND
SWAP = Action.SWAP
# Enum members read once: ``Outcome.PASS`` is a class attribute lookup of ~0.1 us on
# Python 3.11, paid on every answer if written in place.
_PASS, _STOP, _UNDO = Outcome.PASS, Outcome.STOP, Outcome.UNDO
_TURNS = Ending.TURNS
_PLAY, _DRAW, _OVER = Phase.PLAY, Phase.DRAW, Phase.OVER
NONE: tuple[Action, ...] = ()

PrivateLog = tuple[tuple[int, Event], ...]  # (index in the public log, the seat's version)


class RoundState(NamedTuple):
    """One round, immutable: build it with ``start`` (a deal), play it with ``apply``;
    ``_replace`` gives a what-if copy by field name."""

    rules: Rules
    number: int  # 1-based round number in the match
    seats: tuple[int, ...]  # the seat at each position
    deal: tuple[int, ...]  # piece dealt to each position
    hands: tuple[int, ...]  # piece held now
    stock: tuple[int, ...]  # the stock's known pieces, top first (all of it, if known)
    drawn: int  # pieces drawn from the stock so far
    undrawn: int  # stock pieces below ``stock`` that chance has not drawn (0: all known)
    aside: tuple[int, ...]  # set aside, out of play
    lives: tuple[int, ...]  # per seat of the match, payments of this round included
    revealed: int  # bit mask of positions whose matador has been revealed
    turn: int  # the position to act; len(seats) once the round is over
    drawing: bool  # chance draws next: ``turn``'s request has reached an undrawn piece
    ended_by: EndedBy | None  # "turns" or the id of the piece that ended the round
    sit_out: tuple[int, ...]  # seats that sit out the next round (set at the end)
    returning: int  # seats sitting out this round, who are back next round
    public: tuple[Event, ...]
    private: tuple[PrivateLog, ...]  # per position

    # -- construction --------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        seats: Sequence[int],
        deal: Sequence[int],
        stock: Sequence[int] | None,
        lives: Sequence[int],
        *,
        number: int = 1,
        returning: int = 0,
        checked: bool = False,
    ) -> RoundState:
        """A dealt round. ``seats`` are in turn order, the dealer last; ``lives`` has one
        entry per seat of the match. ``stock`` is the stock top first, or None for the
        rest of the deck undrawn: chance draws each piece when a request reaches it
        (``Phase.DRAW``). ``checked`` skips the piece count check for a deal taken from
        ``rules.shuffle``.

        :raises:
            - :exc:`IllegalActionError` for fewer than 2 seats.
            - :exc:`MalformedError` for a deal that does not give one piece to each seat or
              uses a piece more often than the deck holds it.
        """
        n = len(seats)
        if n < 2:
            raise IllegalActionError(f"a round needs at least 2 active seats, not {n}")
        if len(deal) != n:
            raise MalformedError("a deal gives one piece to each active seat")
        if not checked:
            if len(set(seats)) != n or not all(0 <= s < len(lives) for s in seats):
                raise MalformedError("a deal names each active seat once")
            check_pieces(rules, [*deal, *(stock or ())])
        if stock is None:
            stock, undrawn = (), len(rules.deck) - n
            if undrawn < 0:
                raise MalformedError(f"the deck of {rules.name} holds {len(rules.deck)} "
                                     f"pieces, not one for each of {n} seats")
        else:
            stock, undrawn = tuple(stock), 0
        seats = tuple(seats)
        deal = tuple(deal)
        public: tuple[Event, ...] = (RoundStart(number, seats[-1], seats,
                                                len(stock) + undrawn),)
        kernel = rules.kernel
        if kernel.knock_public:
            for p in kernel.fool_holders(deal):
                public += (_KNOCKS.get(seats[p]) or _knock(seats[p]),)
        hands = deal
        drawn = revealed = turn = 0
        drawing = False
        aside = sit_out = ()
        lives = tuple(lives)
        ended_by = None
        private = ((),) * n
        return _round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives,
                      revealed, turn, drawing, ended_by, sit_out, returning, public, private)

    @classmethod
    def imagined(
        cls,
        rules: Rules,
        seats: Sequence[int],
        deal: Sequence[int],
        hands: Sequence[int],
        stock: Sequence[int],
        lives: Sequence[int],
        *,
        number: int,
        turn: int,
        revealed: int = 0,
    ) -> RoundState:
        """A round met in the middle, for a bot's look-ahead: ``hands`` held now at
        ``turn``, ``stock`` the pieces still to draw (top first), ``revealed`` the bit
        mask of positions whose matador has answered. It has no event log (nobody reads
        one), and the pieces are not checked: a sampler's guesses are its own business.

        :raises: :exc:`IllegalActionError` if ``turn`` is no position of ``seats``.
        """
        n = len(seats)
        if not 0 <= turn < n:
            raise IllegalActionError(f"no position {turn} to act among {n} seats")
        seats, deal, hands, stock, lives = (tuple(seats), tuple(deal), tuple(hands),
                                            tuple(stock), tuple(lives))
        drawn = undrawn = returning = 0
        drawing = False
        aside = sit_out = public = ()
        ended_by = None
        private = ((),) * n
        return _round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives,
                      revealed, turn, drawing, ended_by, sit_out, returning, public, private)

    def __repr__(self) -> str:
        # The default spells out every piece and event: thousands of characters.
        state = f"ended by {self.ended_by}" if self.over else \
            f"chance draws for position {self.turn}" if self.drawing else \
            f"position {self.turn} of {len(self.seats)} to act"
        return (f"<RoundState {self.rules.name} round {self.number}: {state}, "
                f"{self.stock_left()} in the stock, {len(self.public)} events>")

    # -- queries -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.turn >= len(self.seats)

    @property
    def dealer(self) -> int:
        return self.seats[-1]

    @property
    def phase(self) -> Phase:
        """``PLAY`` while a seat decides, ``DRAW`` while chance draws the stock's next
        piece, ``OVER`` once the round has ended."""
        return _OVER if self.turn >= len(self.seats) else _DRAW if self.drawing else _PLAY

    @property
    def to_act(self) -> int | None:
        """The seat whose decision comes next, or None: the round is over, or chance
        draws (``phase`` says which)."""
        if self.turn >= len(self.seats) or self.drawing:
            return None
        return self.seats[self.turn]

    @property
    def ending(self) -> Ending | None:
        """How the round ended (None while it is being played)."""
        return None if self.ended_by is None else ending_of(self.ended_by)

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (none once the round is over, or while
        chance draws)."""
        turn = self.turn
        if turn >= len(self.seats) or self.drawing:
            return NONE
        return self.rules.legal_holding[self.hands[turn]]

    def chance_pool(self) -> tuple[int, ...]:
        """Copies of each piece (by index) among the stock's undrawn pieces: what chance
        may draw from. The deck less the deal and the stock's known pieces; all 0 when
        the stock was known at the deal."""
        rules = self.rules
        left = [0] * len(rules.pieces)
        if self.undrawn:
            for piece in rules.deck:
                left[piece] += 1
            for piece in self.deal:
                left[piece] -= 1
            for piece in self.stock:
                left[piece] -= 1
        return tuple(left)

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """What chance may do now, as OpenSpiel's ``chance_outcomes`` gives it: each piece
        (by index) the stock's next draw may be, with its exact probability (copies left /
        pieces left), in piece order. Empty unless chance acts (``phase`` is ``DRAW``);
        ``apply(piece)`` draws one."""
        if not self.drawing:
            return ()
        pool = self.chance_pool()
        total = sum(pool)
        return tuple((piece, Fraction(count, total)) for piece, count in enumerate(pool)
                     if count)

    def position(self, seat: int) -> int:
        """The position of ``seat`` in the turn order.

        :raises: :exc:`IllegalActionError` if it is not dealt in.
        """
        try:
            return self.seats.index(seat)
        except ValueError:
            raise IllegalActionError(f"seat {seat} is not playing this round") from None

    def piece_of(self, seat: int) -> str:
        """The id of the piece ``seat`` holds now (the whole truth: not for a view)."""
        return self.rules.ids[self.hands[self.position(seat)]]

    @property
    def knocked(self) -> tuple[int, ...]:
        return tuple(e.seat for e in self.public if type(e) is Knock)

    def is_revealed(self, seat: int) -> bool:
        """Whether ``seat``'s matador has answered this round.

        :raises: :exc:`IllegalActionError` if the seat is not dealt in.
        """
        return bool(self.revealed >> self.position(seat) & 1)

    def stock_left(self) -> int:
        """Pieces still to draw from the stock."""
        return len(self.stock) + self.undrawn - self.drawn

    def seat_events(self, seat: int) -> list[Event]:
        """The round's events as ``seat`` sees them."""
        pos = self.position(seat)
        return merge(self.public, self.private[pos], self.rules.ids[self.deal[pos]])

    # -- play ----------------------------------------------------------------------

    def apply_for(self, seat: int, action: object) -> tuple[RoundState, tuple[Event, ...]]:
        """``apply``, checking first that it is ``seat``'s turn (IllegalActionError if
        not)."""
        if self.turn >= len(self.seats):
            raise IllegalActionError(f"seat {seat} cannot act: the round is over")
        if self.drawing:
            raise IllegalActionError(f"seat {seat} cannot act: chance draws from the stock")
        if self.seats[self.turn] != seat:
            raise IllegalActionError(
                f"it is seat {self.seats[self.turn]}'s turn, not seat {seat}'s"
            )
        return self.apply(action)

    def apply(self, action: object) -> tuple[RoundState, tuple[Event, ...]]:
        """The state after the seat to act takes ``action``, and the public events; or,
        while chance draws (``Phase.DRAW``), after the stock's next piece turns out to be
        ``action``, a piece of ``chance_outcomes()``.

        :raises:
            - :exc:`MalformedError` for an action that is not stand or swap where a seat
              decides.
            - :exc:`IllegalActionError` if the round is over, the rules forbid the action, a
              seat's action comes while chance draws, or chance's piece is not left in the
              stock.
        """
        if action is not STAND and action is not SWAP:
            if self.drawing:
                return self._draw(action)
            action = parse_action(action)
        (rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives, revealed,
         turn, drawing, ended_by, sit_out, returning, public, private) = self
        n = len(seats)
        if turn >= n or drawing:
            raise IllegalActionError("the round is over" if turn >= n else
                                     f"chance draws from the stock, not seat {seats[turn]}")
        kernel = rules.kernel
        effects = kernel.effects
        if action is STAND:
            if kernel.stand_needs_matador and effects[hands[turn]] is None:
                raise IllegalActionError(
                    f"seat {seats[turn]} may not stand without a matador "
                    "(stand_needs_matador)"
                )
            # A stand changes nothing but the turn.
            events: tuple[Event, ...] = _STANDS.get(seats[turn]) or _stand(seats[turn])
        elif turn < n - 1 and effects[hands[turn + 1]] is None:
            # A plain piece on the left: the two swap, the commonest request. (The request
            # of ``_Play`` swaps through ``swap`` too, past pass pieces.)
            asker, target = turn, turn + 1
            events = _ASK_SWAP.get(seats[asker] << 8 | seats[target]) \
                or _ask_swap(seats[asker], seats[target])
            held, overlays = list(hands), list(private)
            swap(rules, seats, held, overlays, asker, target, len(public) + 1)
            hands, private = tuple(held), tuple(overlays)
        else:  # a matador answers, or the dealer asks the stock
            return self._request()
        # No matador revealed yet (the common case): nobody to skip, no call.
        nxt = kernel.next_turn(revealed, turn, n) if revealed else turn + 1
        if nxt >= n:  # this decision ends the round: the showdown, on the working copy
            play = _Play(self)
            play.hands, play.private = list(hands), list(private)
            play.new += events
            return play.finish()
        turn = nxt
        public = public + events
        return _round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives,
                      revealed, turn, drawing, ended_by, sit_out, returning, public,
                      private), events

    def _request(self) -> tuple[RoundState, tuple[Event, ...]]:
        """The swap of ``apply`` that a matador answers, or that the dealer makes with
        the stock: on the working copy."""
        seats, turn = self.seats, self.turn
        seat = seats[turn]
        play = _Play(self)
        if turn == len(seats) - 1:
            play.emit(_STOCK_ASKS.get(seat) or _stock_ask(seat))
            play.from_stock(turn)
        else:
            play.emit(Ask(seat, seats[turn + 1]))
            play.request(turn)
        return play.finish()

    def _draw(self, piece: object) -> tuple[RoundState, tuple[Event, ...]]:
        """Chance's step: the stock's next piece is ``piece``, and the request that
        reached it goes on (it may reach the next undrawn piece, and chance acts again)."""
        pool = self.chance_pool()
        if isinstance(piece, bool) or not isinstance(piece, int) \
                or not 0 <= piece < len(pool) or not pool[piece]:
            left = ", ".join(str(p) for p, count in enumerate(pool) if count)
            raise IllegalActionError(f"chance draws a piece left in the stock ({left}), "
                                     f"not {piece!r}")
        (rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives, revealed,
         turn, drawing, ended_by, sit_out, returning, public, private) = self
        stock = (*stock, piece)
        undrawn -= 1
        drawing = False
        play = _Play(_round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside,
                            lives, revealed, turn, drawing, ended_by, sit_out, returning,
                            public, private))
        play.from_stock(turn)
        return play.finish()

    def redraw(self, other: RoundState, piece: int) -> RoundState:
        """What ``self.apply(piece)`` gives, made from ``other``: ``self`` is a chance
        step (``Phase.DRAW``) and ``other`` is ``self.apply(q)`` for another piece ``q``
        without a power. A plain piece drawn ends the request the same way whichever it
        is: only the asker's piece, its private Draw and the stock's last piece differ
        (and the showdown, if the round ended), so a search that enumerates chance's
        outcomes (the solver) pays for one draw and copies it for the others. When the
        draw ended the round, it is ``apply`` itself.

        :raises: :exc:`IllegalActionError` if ``self`` is no chance step, or ``piece``
            or ``other``'s piece is a matador or not left in the stock.
        """
        pool = self.chance_pool()
        effects = self.rules.kernel.effects
        asker = self.turn
        if not self.drawing or not 0 <= piece < len(pool) or not pool[piece] \
                or effects[piece] is not None or len(other.stock) != len(self.stock) + 1 \
                or effects[other.stock[-1]] is not None or other.drawing:
            raise IllegalActionError("redraw takes a chance step, a plain piece left in "
                                     "its stock and the state after another plain draw")
        if other.turn >= len(other.seats):
            return self.apply(piece)[0]
        ids = self.rules.ids
        (rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives, revealed,
         turn, drawing, ended_by, sit_out, returning, public, private) = other
        held = list(hands)
        held[asker] = piece
        hands = tuple(held)
        stock = (*stock[:-1], piece)
        overlay = list(private[asker])
        for k in range(len(self.private[asker]), len(overlay)):
            index, event = overlay[k]
            if type(event) is Draw and event.piece is not None:
                overlay[k] = (index, Draw(event.seat, ids[piece], event.set_aside))
        overlays = list(private)
        overlays[asker] = tuple(overlay)
        private = tuple(overlays)
        return _round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives,
                      revealed, turn, drawing, ended_by, sit_out, returning, public, private)


def _round(rules: Rules, number: int, seats: tuple[int, ...], deal: tuple[int, ...],
           hands: tuple[int, ...], stock: tuple[int, ...], drawn: int, undrawn: int,
           aside: tuple[int, ...], lives: tuple[int, ...], revealed: int, turn: int,
           drawing: bool, ended_by: EndedBy | None, sit_out: tuple[int, ...], returning: int,
           public: tuple[Event, ...], private: tuple[PrivateLog, ...]) -> RoundState:
    """The one place a RoundState is built (``start``, ``imagined``, ``apply``, a draw,
    and the working copy's ``finish``). Positional for speed, so by rule every
    argument is a variable named for its field, in field order; tests/test_states.py
    reads every call to hold it so (a swap of two fields would not pass)."""
    return tuple.__new__(RoundState, (rules, number, seats, deal, hands, stock, drawn,
                                      undrawn, aside, lives, revealed, turn, drawing,
                                      ended_by, sit_out, returning, public, private))


# Events are values: the commonest (a stand, a knock, the dealer's ask of the stock and
# the public draw, a seat's piece back after an undo, a plain swap's public pair) are
# made once per seat (pair of seats, holder and piece) and shared, rather than built
# again every round. Every key is bounded: 41 seats, the pieces of the presets in use.
_STANDS: dict[int, tuple[Stand]] = {}  # as a decision's events
_KNOCKS: dict[int, Knock] = {}
_STOCK_ASKS: dict[int, Ask] = {}  # the dealer asks the stock
_DRAWS: dict[int, Draw] = {}  # public: no piece
_UNDOS: dict[tuple[int | None, str], Undo] = {}  # a seat's own piece back
_SWAPS: dict[int, Swap] = {}  # public: no pieces
_ASK_SWAP: dict[int, tuple[Ask, Swap]] = {}  # a plain swap with the left neighbour


def _stand(seat: int) -> tuple[Stand]:
    events = _STANDS[seat] = (Stand(seat),)
    return events


def _knock(seat: int) -> Knock:
    event = _KNOCKS[seat] = Knock(seat)
    return event


def _stock_ask(seat: int) -> Ask:
    event = _STOCK_ASKS[seat] = Ask(seat, None)
    return event


def _draw(seat: int) -> Draw:
    event = _DRAWS[seat] = Draw(seat, None, None)
    return event


def _undo(by: int | None, piece: str) -> Undo:
    event = _UNDOS[by, piece] = Undo(by, piece)
    return event


def _swap(a: int, b: int) -> Swap:
    event = _SWAPS[a << 8 | b] = Swap(a, b, None, None)
    return event


def _ask_swap(a: int, b: int) -> tuple[Ask, Swap]:
    events = _ASK_SWAP[a << 8 | b] = (Ask(a, b), _SWAPS.get(a << 8 | b) or _swap(a, b))
    return events


def swap(rules: Rules, seats: tuple[int, ...], hands: list[int], private: list[PrivateLog],
         asker: int, target: int, index: int) -> None:
    """The one rule of a swap, wherever it happens: ``asker`` and ``target`` exchange
    their pieces (in ``hands``), and each sees what both now hold, laid over the public
    Swap at ``index`` of the log (in ``private``). Both lists change in place; the public
    events are the caller's (shared per pair of seats)."""
    hands[asker], hands[target] = hands[target], hands[asker]
    ids = rules.ids
    full = ((index, Swap(seats[asker], seats[target], ids[hands[asker]],
                         ids[hands[target]])),)
    private[asker] += full
    private[target] += full


def full_event(rnd: RoundState | None, index: int, event: Event) -> Event:
    """``event`` (at ``index`` of ``rnd``'s public log) with its hidden pieces filled in
    from whichever seat's overlay holds them: the whole truth, for replays of finished
    records and never for a view. Events outside the log pass through."""
    if rnd is None or not isinstance(event, Swap | Draw):
        return event
    for overlay in rnd.private:
        for i, e in overlay:
            if i == index and type(e) is type(event):
                return e
    return event


def merge(public: tuple[Event, ...], private: PrivateLog, dealt: str | None) -> list[Event]:
    """A seat's events: the public log with its private overlays laid over it."""
    events = list(public)
    first = events[0] if events else None
    if isinstance(first, RoundStart) and dealt is not None:
        # Built directly: NamedTuple._replace costs several times more, on every view.
        events[0] = RoundStart(first.round, first.dealer, first.order, first.stock, dealt)
    for index, event in private:
        events[index] = event
    return events


def check_pieces(rules: Rules, pieces: Sequence[int]) -> None:
    """No piece more often than the deck holds it."""
    copies = rules.options.copies
    for index, count in Counter(pieces).items():
        if not 0 <= index < len(rules.pieces):
            raise MalformedError(f"no piece number {index} in {rules.name}")
        if count > copies:
            raise MalformedError(
                f"piece {rules.ids[index]!r} is used {count} times; "
                f"the deck holds {copies}"
            )


class _Play:
    """The mutable working copy of one ``apply``; frozen again by ``finish``."""

    __slots__ = ("aside", "drawing", "drawn", "emit", "ended_by", "hands", "lives", "new",
                 "private", "revealed", "state")

    def __init__(self, state: RoundState) -> None:
        self.state = state
        self.hands = list(state.hands)
        self.lives = list(state.lives)
        self.aside = state.aside
        self.drawn = state.drawn
        self.revealed = state.revealed
        self.ended_by: EndedBy | None = None
        self.drawing = False  # the request waits for chance to draw the stock's next piece
        self.new: list[Event] = []
        # ``emit(event)`` adds a public event: the list's own append, no Python frame.
        self.emit: Callable[[Event], None] = self.new.append
        self.private: list[PrivateLog] | None = None

    def overlays(self) -> list[PrivateLog]:
        """Every position's private overlays, to change (copied once, when first asked)."""
        if self.private is None:
            self.private = list(self.state.private)
        return self.private

    def last_index(self) -> int:
        """The index in the round's log of the last public event emitted."""
        return len(self.state.public) + len(self.new) - 1

    def emit_private(self, position: int, event: Event) -> None:
        """``event`` as ``position`` sees it, in place of the last public event."""
        self.overlays()[position] += ((self.last_index(), event),)

    def request(self, asker: int) -> None:
        """``asker`` asks its left neighbour; the answer may pass further left."""
        state = self.state
        rules = state.rules
        seats = state.seats
        hands = self.hands
        effects = rules.kernel.effects
        last = len(seats) - 1
        target = asker + 1
        while True:
            effect = effects[hands[target]]
            if effect is None:
                a, b = seats[asker], seats[target]
                self.emit(_SWAPS.get(a << 8 | b) or _swap(a, b))
                swap(rules, seats, hands, self.overlays(), asker, target, self.last_index())
                return
            if self.answer(asker, target, effect.charge, effect.outcome, hands[target]):
                return
            if target == last:  # a pass at the dealer goes to the stock
                self.from_stock(asker)
                return
            target += 1

    def answer(self, asker: int, target: int | None, charge: bool, outcome: Outcome,
               piece: int) -> bool:
        """A matador answers ``asker``. True unless the request passes on."""
        state = self.state
        rules = state.rules
        seats = state.seats
        holder = None if target is None else seats[target]
        self.emit(Answer(holder, rules.ids[piece], rules.power_names[piece], seats[asker]))
        if target is not None:
            self.revealed |= 1 << target
        if charge:
            self.pay(asker, rules.ids[piece], to=target)
        if outcome is _PASS:
            return False
        if outcome is _STOP:
            self.ended_by = rules.ids[piece]
        elif outcome is _UNDO:
            self.undo(holder)
        return True

    def from_stock(self, asker: int) -> None:
        """The request reaches the stock: the top piece answers as if it had a holder. An
        undrawn piece stops the request here, for chance to draw it (``drawing``)."""
        state = self.state
        rules = state.rules
        stock = state.stock
        effects = rules.kernel.effects
        while True:
            if self.drawn >= len(stock):
                if state.undrawn:
                    self.drawing = True
                else:
                    self.emit(StockEmpty(state.seats[asker]))
                return
            piece = stock[self.drawn]
            self.drawn += 1
            effect = effects[piece]
            if effect is None:
                old = self.hands[asker]
                self.hands[asker] = piece
                self.aside += (old,)
                seat = state.seats[asker]
                self.emit(_DRAWS.get(seat) or _draw(seat))
                self.emit_private(asker, Draw(seat, rules.ids[piece], rules.ids[old]))
                return
            self.aside += (piece,)
            if self.answer(asker, None, effect.charge, effect.outcome, piece):
                return

    def undo(self, by: int | None) -> None:
        state = self.state
        ids = state.rules.ids
        self.hands = list(state.deal)
        # Pieces drawn from the stock go out of play; dealt pieces go home.
        self.aside = state.stock[: self.drawn]
        self.emit(Undo(by, None))
        # Each seat's own piece back, laid over the public Undo: emit_private's work for
        # every position at once, the events shared per holder and piece.
        private = self.overlays()
        index = self.last_index()
        for pos, piece in enumerate(state.deal):
            mine = ids[piece]
            private[pos] += ((index, _UNDOS.get((by, mine)) or _undo(by, mine)),)

    def pay(self, position: int, reason: str, *, to: int | None = None) -> None:
        """``position`` pays a life: to the pool, or to the matador at ``to`` under
        ``penalty_to = holder``."""
        seats = self.state.seats
        lives = self.lives
        seat = seats[position]
        paid = lives[seat] > 0
        if paid:
            lives[seat] -= 1
        holder = None
        if to is not None and self.state.rules.kernel.to_holder:
            holder = seats[to]
        self.emit(Pay(seat, holder, reason, lives[seat], paid))
        if holder is not None and paid:
            lives[holder] += 1
            self.emit(Gain(holder, "penalty", lives[holder]))

    def finish(self) -> tuple[RoundState, tuple[Event, ...]]:
        state = self.state
        n = len(state.seats)
        ended_by = self.ended_by
        drawing = self.drawing
        sit_out: tuple[int, ...] = ()
        if drawing:  # the turn stays with the asker until chance has drawn
            turn = state.turn
        else:
            turn = n if ended_by is not None else \
                state.rules.kernel.next_turn(self.revealed, state.turn, n)
            if turn >= n:
                ended_by = ended_by or _TURNS
                sit_out = self.showdown(ended_by)
        events = tuple(self.new)
        rules, number, seats, deal, _, stock, _, undrawn, _, _, _, _, _, _, _, returning, public, \
            _ = state
        hands = tuple(self.hands)
        drawn = self.drawn
        aside = self.aside
        lives = tuple(self.lives)
        revealed = self.revealed
        public = public + events
        private = state.private if self.private is None else tuple(self.private)
        return _round(rules, number, seats, deal, hands, stock, drawn, undrawn, aside, lives,
                      revealed, turn, drawing, ended_by, sit_out, returning, public,
                      private), events

    def showdown(self, ended_by: EndedBy) -> tuple[int, ...]:
        """The showdown of the hands: the kernel settles who gains and who pays
        (``Kernel.settle``), and who sits out the next round; this emits it."""
        state = self.state
        rules = state.rules
        kernel = rules.kernel
        seats = state.seats
        hands = self.hands
        # An itemgetter of two or more positions (a round has at least two) returns the
        # tuple in one C call: a third of what tuple(map(ids.__getitem__, ...)) costs.
        self.emit(Showdown(seats, itemgetter(*hands)(rules.ids)))
        gains, pays, fools, _ = kernel.settle(hands)
        lives = self.lives
        for p in gains:
            lives[seats[p]] += 1
            self.emit(Gain(seats[p], "two_fools", lives[seats[p]]))
        for p, reason in pays:
            self.pay(p, reason)
        out: tuple[int, ...] = ()
        if fools:
            # Once the fools have paid or gained: who is alive to sit out. (A round that
            # ends the match by elimination leaves fewer than 2 seats alive, which the
            # kernel turns into nobody sitting out.)
            sit = kernel.sit_out(fools, [lives[s] > 0 for s in seats], state.number,
                                 state.returning)
            out = tuple(sorted(seats[p] for p in sit))
        self.emit(RoundEnd(ended_by, tuple(lives), out))
        return out


def fool_holders(rules: Rules, hands: Sequence[int]) -> list[int]:
    """The positions holding a fool, in order (none, most often): ``Kernel.fool_holders``."""
    return rules.kernel.fool_holders(hands)


__all__ = ["NONE", "STAND", "SWAP", "PrivateLog", "RoundState", "check_pieces",
           "fool_holders", "full_event", "holders", "merge", "swap"]
