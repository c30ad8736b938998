"""The match: lives, elimination, dealer rotation, sitting out, the winners (docs/spec/rules.md §6).

``MatchState`` is an immutable value with three phases. Between rounds it waits for a
deal: chance is an explicit step (``deal``), so a runner can sample it from a seeded
generator, or a record can give it. During a round ``apply`` plays the round and, when
the round ends, settles it. A round dealt with its stock undrawn (``deal(hands)``) has a
fourth: chance draws the stock's next piece (``DRAW``), by ``apply(piece)`` too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from random import Random
from typing import NamedTuple

from gnav.errors import IllegalActionError, MalformedError
from gnav.events import Eliminated, Event, MatchEnd
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.vocab import Action, Phase

# Enum members read once: each ``Phase.PLAY`` is a ~0.1 us lookup on Python 3.11.
_OVER, _PLAY, _DEAL, _DRAW = Phase.OVER, Phase.PLAY, Phase.DEAL, Phase.DRAW
# The turn orders of a full table, by seat count and dealer (at most 41 x 41): made once,
# not on every deal.
_FULL_ORDERS: dict[int, tuple[int, ...]] = {}


class MatchState(NamedTuple):
    """A match, immutable: ``new`` starts one, ``deal`` (chance) and ``apply`` (a
    decision) move it on; ``_replace`` gives a what-if copy by field name.

    ``seat_count`` is the number of seats (``names``); a round's ``seats`` are the
    seats dealt in, in turn order."""

    rules: Rules
    names: tuple[str, ...]
    lives: tuple[int, ...]  # per seat, as of the start of the current round
    out: tuple[int, ...]  # eliminated seats, in the order they went out
    sitting_out: tuple[int, ...]  # seats sitting out the current (or next) round
    dealer: int  # dealer of the current round, or of the next while waiting for a deal
    rounds: int  # rounds dealt so far
    round: RoundState | None  # the current round (the last one, once over)
    history: tuple[RoundState, ...]  # finished rounds
    winners: tuple[int, ...] | None
    start_lives: tuple[int, ...]  # every seat's lives when the match began

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: Sequence[str],
        *,
        dealer: int | None = None,
        seed: int | None = None,
        lives: Mapping[int, int] | None = None,
    ) -> MatchState:
        """A match waiting for its first deal. Without ``dealer``, the first dealer is
        cut by chance from ``seed``.

        ``seed`` seeds only that cut: the deals are a separate step (``deal``), each
        shuffled from the generator given to it (``deal(rng=...)``), or from a fresh
        unseeded one. ``gnav.play_match(seed=...)`` seeds both from one number.

        :raises:
            - :exc:`OptionError` for a number of seats the rules do not allow.
            - :exc:`MalformedError` for repeated names, a dealer or starting lives out of range.
        """
        n = len(names)
        rules.check_seats(n)
        if len(set(names)) != n:
            raise MalformedError("seat names must be unique")
        if dealer is None:
            dealer = Random(seed).randrange(n)
        if not 0 <= dealer < n:
            raise MalformedError(f"no seat {dealer} to deal")
        start = [rules.options.lives] * n
        for seat, value in (lives or {}).items():
            if not 0 <= seat < n:
                raise MalformedError(f"no seat {seat} for starting lives")
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MalformedError(f"starting lives must be at least 1, not {value!r}")
            start[seat] = value
        return cls(rules=rules, names=tuple(names), lives=tuple(start), out=(),
                   sitting_out=(), dealer=dealer, rounds=0, round=None, history=(),
                   winners=None, start_lives=tuple(start))

    def __repr__(self) -> str:
        # The default spells out every round of the history: thousands of characters.
        return (f"<MatchState {self.rules.name}, {len(self.names)} seats, "
                f"{self.phase} after {self.rounds} round(s), {len(self.out)} out>")

    # -- queries -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """``DEAL`` between rounds, ``PLAY`` during one, ``DRAW`` while chance draws from a
        round's undrawn stock, ``OVER`` once there are winners."""
        if self.winners is not None:
            return _OVER
        if self.round is None or self.round.over:
            return _DEAL
        return _DRAW if self.round.drawing else _PLAY

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def seat_count(self) -> int:
        """The number of seats (``len(names)``)."""
        return len(self.names)

    def alive(self) -> tuple[int, ...]:
        """Seats not eliminated, in seat order."""
        out = set(self.out)
        return tuple(s for s in range(len(self.names)) if s not in out)

    def active(self) -> tuple[int, ...]:
        """Seats dealt in the current round, or the next one while waiting for a deal."""
        skip = set(self.out) | set(self.sitting_out)
        return tuple(s for s in range(len(self.names)) if s not in skip)

    def turn_order(self) -> tuple[int, ...]:
        """Active seats clockwise from the dealer's left, the dealer last."""
        dealer = self.dealer
        if not self.out and not self.sitting_out:  # everyone is dealt in: no search
            n = len(self.names)
            order = _FULL_ORDERS.get(n << 8 | dealer)
            if order is None:
                order = _FULL_ORDERS[n << 8 | dealer] = (*range(dealer + 1, n),
                                                         *range(dealer + 1))
            return order
        active = self.active()
        d = active.index(dealer)
        return (*active[d + 1:], *active[: d + 1])

    def current_lives(self) -> tuple[int, ...]:
        """Lives now, payments of the round in progress included."""
        rnd = self.round
        if rnd is None or rnd.over or self.winners is not None:
            return self.lives
        return rnd.lives

    @property
    def to_act(self) -> int | None:
        """The seat whose decision comes next, or None (between rounds, while chance
        draws, or over)."""
        rnd = self.round
        if rnd is None or self.winners is not None or rnd.turn >= len(rnd.seats) \
                or rnd.drawing:
            return None
        return rnd.seats[rnd.turn]

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (none between rounds, while chance draws
        or once over)."""
        rnd = self.round
        if rnd is None or self.winners is not None:
            return ()
        return rnd.legal_actions()

    def seat_index(self, name: str) -> int:
        """The seat called ``name``.

        :raises: :exc:`MalformedError` if there is none.
        """
        try:
            return self.names.index(name)
        except ValueError:
            raise MalformedError(f"no seat named {name!r}") from None

    # -- chance --------------------------------------------------------------------

    def deal(
        self,
        hands: Sequence[int] | None = None,
        stock: Sequence[int] | None = None,
        *,
        rng: Random | None = None,
    ) -> MatchState:
        """Start the next round: with ``hands`` (one piece per seat of ``turn_order``,
        the dealer last) and ``stock`` (top first), or shuffled from ``rng`` (a fresh
        unseeded generator without it). ``hands`` without ``stock`` leaves the rest of
        the deck undrawn: chance draws each piece when a request reaches it
        (``Phase.DRAW``, ``chance_outcomes``, ``apply(piece)``).

        :raises:
            - :exc:`IllegalActionError` while a round is being played or once the match is over.
            - :exc:`MalformedError` for a bad deal.
        """
        (rules, names, lives, out, sitting_out, dealer, rounds, round, history, winners,
         start_lives) = self
        if winners is not None or (round is not None and round.turn < len(round.seats)):
            raise IllegalActionError(
                "the match is over" if winners is not None else "a round is still being played"
            )
        order = self.turn_order()
        checked = hands is None
        if hands is None:
            deck = rules.shuffle(rng if rng is not None else Random())
            hands, stock = deck[: len(order)], deck[len(order):]
        rounds += 1
        round = RoundState.start(rules, order, hands, stock, lives, number=rounds,
                                 returning=len(sitting_out), checked=checked)
        return _match(rules, names, lives, out, sitting_out, dealer, rounds, round, history,
                      winners, start_lives)

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """While chance draws (``Phase.DRAW``): each piece the stock's next draw may be,
        with its probability (``RoundState.chance_outcomes``); ``apply(piece)`` draws
        one. Empty otherwise (a deal is ``deal``'s)."""
        rnd = self.round
        if rnd is None or self.winners is not None:
            return ()
        return rnd.chance_outcomes()

    def deal_seeded(self, seed: int) -> MatchState:
        """``deal`` shuffled from ``Random(seed)``: a record's seeded round."""
        return self.deal(rng=Random(seed))

    # -- play ----------------------------------------------------------------------

    def apply(self, action: object) -> tuple[MatchState, tuple[Event, ...]]:
        """The match after the seat to act takes ``action``, and the events; a round's
        end is settled (lives, eliminations, the next dealer, the winners).

        :raises:
            - :exc:`IllegalActionError` if no round is being played or the rules forbid the
              action.
            - :exc:`MalformedError` for an action that is not stand or swap.
        """
        (rules, names, lives, out, sitting_out, dealer, rounds, round, history, winners,
         start_lives) = self
        if round is None or round.turn >= len(round.seats):
            raise IllegalActionError(
                "the match is over" if winners is not None else "no round is being played"
            )
        moved, events = round.apply(action)  # a decision, or chance's draw (Phase.DRAW)
        if moved.turn < len(moved.seats):  # the round goes on: the lean path
            round = moved
            return _match(rules, names, lives, out, sitting_out, dealer, rounds, round,
                          history, winners, start_lives), events
        return self._settle(moved, events)

    def apply_for(self, seat: int, action: object) -> tuple[MatchState, tuple[Event, ...]]:
        """``apply``, checking first that it is ``seat``'s turn (IllegalActionError if
        not)."""
        if self.to_act != seat:
            if self.to_act is None:
                raise IllegalActionError(f"{self.names[seat]} cannot act: no decision is due")
            raise IllegalActionError(
                f"it is {self.names[self.to_act]}'s turn, not {self.names[seat]}'s"
            )
        return self.apply(action)

    def settle(self, rnd: RoundState, events: tuple[Event, ...]) -> tuple[
            MatchState, tuple[Event, ...]]:
        """The match once its round, played on by decisions alone, has ended as ``rnd``
        (``events``: those of the round's last decision): what ``apply`` gives for that
        last decision. The game loop's lean path plays a round on the RoundState and
        settles it once (``gnav.runner``).

        :raises: :exc:`IllegalActionError` if ``rnd`` is not over, or is not the match's round
            under way played on (another number, seats or deal).
        """
        now = self.round
        if rnd.turn < len(rnd.seats) or now is None or self.winners is not None \
                or now.number != rnd.number or now.seats != rnd.seats or now.deal != rnd.deal:
            raise IllegalActionError("only the end of this match's round under way settles")
        return self._settle(rnd, events)

    def _settle(self, rnd: RoundState, events: tuple[Event, ...]) -> tuple[
            MatchState, tuple[Event, ...]]:
        rules, names, _, out, _, dealer, rounds, _, history, _, start_lives = self
        lives = rnd.lives
        n = len(names)
        # Lives never go below 0, so without a 0 nobody went out.
        gone = tuple(sorted(s for s in rnd.seats if lives[s] <= 0)) if 0 in lives else ()
        if gone:
            out += gone
        history = (*history, rnd)
        extra: tuple[Event, ...] = ()
        winners: tuple[int, ...] | None = None
        if gone:
            extra = (Eliminated(gone),)
            alive = [s for s in range(n) if lives[s] > 0]
            if len(alive) == 1:
                winners = (alive[0],)
            elif not alive:
                winners = gone  # everyone left went out together: a shared win
        max_rounds = rules.options.max_rounds
        if winners is None and max_rounds is not None and rounds >= max_rounds:
            best = max(lives[s] for s in range(n) if s not in out)
            winners = tuple(s for s in range(n) if s not in out and lives[s] == best)
        sitting_out = rnd.sit_out
        if winners is None:
            skip = (*out, *sitting_out)
            dealer = (dealer + 1) % n
            while dealer in skip:
                dealer = (dealer + 1) % n
        else:
            extra += (MatchEnd(winners),)
        round = rnd
        state = _match(rules, names, lives, out, sitting_out, dealer, rounds, round, history,
                       winners, start_lives)
        return state, events + extra if extra else events


def _match(rules: Rules, names: tuple[str, ...], lives: tuple[int, ...], out: tuple[int, ...],
           sitting_out: tuple[int, ...], dealer: int, rounds: int, round: RoundState | None,
           history: tuple[RoundState, ...], winners: tuple[int, ...] | None,
           start_lives: tuple[int, ...]) -> MatchState:
    """The one place a MatchState is rebuilt (``deal``, the lean path of ``apply`` and the
    settling of a round; ``new`` builds the first by keyword). Positional for speed, so
    by rule every argument is a variable named for its field, in field order
    (tests/test_states.py reads every call)."""
    return tuple.__new__(MatchState, (rules, names, lives, out, sitting_out, dealer, rounds,
                                      round, history, winners, start_lives))
