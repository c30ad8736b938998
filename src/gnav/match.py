"""The match: lives, elimination, dealer rotation, sitting out, the winners (docs/spec/rules.md §6).

``MatchState`` is an immutable value with three phases. Between rounds it waits for a
deal: chance is an explicit step (``deal``), so a runner can sample it from a seeded
generator, or a record can give it. During a round ``apply`` plays the round and, when
the round ends, settles it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import NamedTuple

from gnav.errors import IllegalActionError, MalformedError
from gnav.events import Eliminated, Event, MatchEnd
from gnav.round import RoundState
from gnav.rules import Rules

_new = tuple.__new__

DEAL = "deal"
PLAY = "play"
OVER = "over"


class MatchState(NamedTuple):
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
        cut by chance from ``seed``."""
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
        return cls(rules, tuple(names), tuple(start), (), (), dealer, 0, None, (), None,
                   tuple(start))

    # -- queries -------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.winners is not None:
            return OVER
        if self.round is None or self.round.over:
            return DEAL
        return PLAY

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def seats(self) -> int:
        return len(self.names)

    def alive(self) -> tuple[int, ...]:
        out = set(self.out)
        return tuple(s for s in range(len(self.names)) if s not in out)

    def active(self) -> tuple[int, ...]:
        """Seats dealt in the current round, or the next one while waiting for a deal."""
        skip = set(self.out) | set(self.sitting_out)
        return tuple(s for s in range(len(self.names)) if s not in skip)

    def turn_order(self) -> tuple[int, ...]:
        """Active seats clockwise from the dealer's left, the dealer last."""
        active = self.active() if self.out or self.sitting_out else range(len(self.names))
        d = active.index(self.dealer)
        return (*active[d + 1:], *active[: d + 1])

    def current_lives(self) -> tuple[int, ...]:
        """Lives now, payments of the round in progress included."""
        rnd = self.round
        if rnd is None or rnd.over or self.winners is not None:
            return self.lives
        return rnd.lives

    @property
    def to_act(self) -> int | None:
        rnd = self.round
        if rnd is None or self.winners is not None or rnd.turn >= len(rnd.seats):
            return None
        return rnd.seats[rnd.turn]

    def legal_actions(self) -> tuple[str, ...]:
        rnd = self.round
        if rnd is None or self.winners is not None:
            return ()
        return rnd.legal_actions()

    def seat_index(self, name: str) -> int:
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
        the dealer last) and ``stock``, or shuffled from ``rng``."""
        rnd = self.round
        if self.winners is not None or (rnd is not None and rnd.turn < len(rnd.seats)):
            raise IllegalActionError(
                "the match is over" if self.over else "a round is still being played"
            )
        order = self.turn_order()
        checked = hands is None
        if hands is None:
            deck = self.rules.shuffle(rng if rng is not None else Random())
            hands, stock = deck[: len(order)], deck[len(order):]
        if stock is None:
            raise MalformedError("a deal needs a stock")
        rnd = RoundState.start(self.rules, order, hands, stock, self.lives,
                               number=self.rounds + 1, returning=len(self.sitting_out),
                               checked=checked)
        return _new(MatchState, (self.rules, self.names, self.lives, self.out, self.sitting_out,
                                 self.dealer, self.rounds + 1, rnd, self.history, None,
                                 self.start_lives))

    def deal_seeded(self, seed: int) -> MatchState:
        return self.deal(rng=Random(seed))

    # -- play ----------------------------------------------------------------------

    def apply(self, action: object) -> tuple[MatchState, tuple[Event, ...]]:
        rnd = self.round
        if rnd is None or rnd.turn >= len(rnd.seats):
            raise IllegalActionError(
                "the match is over" if self.winners is not None else "no round is being played"
            )
        rnd, events = rnd.apply(action)
        if rnd.turn < len(rnd.seats):
            return _new(MatchState, (self.rules, self.names, self.lives, self.out,
                                     self.sitting_out, self.dealer, self.rounds, rnd,
                                     self.history, None, self.start_lives)), events
        return self._settle(rnd, events)

    def apply_for(self, seat: int, action: object) -> tuple[MatchState, tuple[Event, ...]]:
        if self.to_act != seat:
            if self.to_act is None:
                raise IllegalActionError(f"{self.names[seat]} cannot act: no decision is due")
            raise IllegalActionError(
                f"it is {self.names[self.to_act]}'s turn, not {self.names[seat]}'s"
            )
        return self.apply(action)

    def _settle(self, rnd: RoundState, events: tuple[Event, ...]) -> tuple[
            MatchState, tuple[Event, ...]]:
        lives = rnd.lives
        n = len(self.names)
        gone = tuple(sorted(s for s in rnd.seats if lives[s] <= 0)) if 0 in lives else ()
        out = self.out + gone if gone else self.out
        history = (*self.history, rnd)
        extra: list[Event] = []
        winners: tuple[int, ...] | None = None
        max_rounds = self.rules.options.max_rounds
        if gone:
            extra.append(Eliminated(gone))
            alive = [s for s in range(n) if lives[s] > 0]
            if len(alive) == 1:
                winners = (alive[0],)
            elif not alive:
                winners = gone  # everyone left went out together: a shared win
        if winners is None and max_rounds is not None and self.rounds >= max_rounds:
            best = max(lives[s] for s in range(n) if s not in out)
            winners = tuple(s for s in range(n) if s not in out and lives[s] == best)
        sitting = rnd.sit_out
        dealer = self.dealer
        if winners is None:
            skip = (*out, *sitting)
            dealer = (dealer + 1) % n
            while dealer in skip:
                dealer = (dealer + 1) % n
        else:
            extra.append(MatchEnd(winners))
        state = _new(MatchState, (self.rules, self.names, lives, out, sitting, dealer,
                                  self.rounds, rnd, history, winners, self.start_lives))
        return state, events + tuple(extra) if extra else events
