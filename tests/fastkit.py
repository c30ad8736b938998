"""The batch simulator's rounds replayed through the reference engine, shared by the
``test_fast*`` tests: the same deal and stock, the actions the compiled engine
recorded, then the same hands at the showdown, the same Pay and Gain events per seat,
lives, sit-outs and the piece that ended the round, for every row.

``Reference.watch`` is ``play_matches``' ``watch`` (a round of whole matches);
``replay`` does the same for a table of fresh rounds (``JitRounds`` with given decks).
Either may call ``at_decision(rnd, row, column, view)`` at every decision (``rnd`` the
round played, ``view`` the deciding seat's ``SeatView``) before the recorded action is
applied: the place to hold the key the compiled engine wrote at ``rnd.keys[row,
column]``, and the action it took, to what that view holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from random import Random

import numpy as np
import numpy.typing as npt

from gnav.events import Answer, Draw, Gain, Pay, StockEmpty, Undo
from gnav.fast.deck import Deck
from gnav.fast.jit import JitRounds
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import SeatView, seat_view
from gnav.vocab import Action

Ints = npt.NDArray[np.intp]
AtDecision = Callable[[JitRounds, int, int, SeatView], None]


class Reference:
    """Plays the same matches through gnav.match, one round at a time, and compares."""

    def __init__(self, rules: Rules, seats: int, matches: int, dealers: list[int],
                 seed: int, at_decision: AtDecision | None = None) -> None:
        self.rules = rules
        self.seed = seed
        names = [f"S{i}" for i in range(seats)]
        self.states = [MatchState.new(rules, names, dealer=d) for d in dealers]
        self.decks: dict[tuple[int, int], list[int]] = {}
        self.seen: Counter[str] = Counter()
        self.at_decision = at_decision

    def deck(self, number: int, match: int) -> list[int]:
        key = (number, match)
        if key not in self.decks:
            self.decks[key] = self.rules.shuffle(Random(self.seed * 7919 + match * 1009 + number))
        return self.decks[key]

    def decks_for(self, number: int, rows: Ints, n: Ints) -> Deck:
        return Deck.given([self.deck(number, int(m)) for m in rows])

    def watch(self, number: int, rows: Ints, order: Ints, rnd: JitRounds) -> None:
        ids = self.rules.ids
        for i, m in enumerate(rows.tolist()):
            match = self.states[m]
            assert match.winners is None, "the batch played a round of a finished match"
            assert match.rounds == number - 1
            seats = [s for s in order[i].tolist() if s >= 0]
            assert tuple(seats) == match.turn_order()
            col = {s: c for c, s in enumerate(order[i].tolist()) if s >= 0}
            deck = self.deck(number, m)
            n = len(seats)
            match = match.deal(deck[:n], deck[n:])
            decided = set()
            while match.to_act is not None:
                seat = match.to_act
                action = int(rnd.actions[i, col[seat]])
                assert action >= 0, f"the reference asks seat {seat}, the batch did not"
                decided.add(col[seat])
                if self.at_decision is not None:
                    self.at_decision(rnd, i, col[seat], seat_view(match, seat))
                match, _ = match.apply(Action.SWAP if action else Action.STAND)
            assert decided == set(np.flatnonzero(rnd.actions[i] >= 0).tolist())
            last = match.history[-1]
            assert [ids[p] for p in last.hands] == \
                [ids[int(rnd.hands[i, col[s]])] for s in seats]
            if rnd.per_row is not None:  # fresh rounds do not keep the stock drawn
                assert last.drawn == rnd.drawn[i]
            assert str(last.ended_by) == ("turns" if rnd.ended_by[i] < 0
                                          else ids[rnd.ended_by[i]])
            pays = Counter(e.seat for e in last.public if type(e) is Pay)
            gains = Counter(e.seat for e in last.public if type(e) is Gain)
            for s in seats:
                assert pays[s] == rnd.pays[i, col[s]], f"seat {s}'s payments"
                assert gains[s] == rnd.gains[i, col[s]], f"seat {s}'s gains"
                assert last.lives[s] == rnd.lives[i, col[s]], f"seat {s}'s lives"
            assert set(last.sit_out) == {s for s in seats if rnd.sit_out[i, col[s]]}
            self.states[m] = match
            self.count(last)

    def count(self, last: object) -> None:
        public = last.public  # type: ignore[attr-defined]
        kinds = Counter(type(e).__name__ for e in public)
        self.seen["undo"] += kinds[Undo.__name__] > 0
        self.seen["stock draw"] += kinds[Draw.__name__] > 0
        self.seen["stock empty"] += kinds[StockEmpty.__name__] > 0
        passes = [e for e in public if type(e) is Answer and e.power == "pass"]
        self.seen["pass chain"] += any(e.seat is not None for e in passes)
        self.seen["drag"] += any(type(e) is Pay and e.reason == "fool" for e in public)
        self.seen["two fools"] += any(type(e) in (Pay, Gain) and e.reason == "two_fools"
                                      for e in public)
        self.seen["sit out"] += bool(last.sit_out)  # type: ignore[attr-defined]
        self.seen["unpaid"] += any(type(e) is Pay and not e.paid for e in public)


def replay(rules: Rules, rnd: JitRounds, decks: npt.ArrayLike,
           at_decision: AtDecision | None = None) -> Reference:
    """Each row of ``rnd`` (fresh rounds at a full table, played on ``decks``: rows x
    pieces) as round 1 of its own match, the dealer the last seat, so that seat ``s``
    is column ``s``; compared as ``Reference.watch`` compares."""
    given = np.asarray(decks)
    rows, seats = rnd.rows, rnd.seats
    ref = Reference(rules, seats, rows, [seats - 1] * rows, 0, at_decision)
    for m in range(rows):
        ref.decks[1, m] = [int(x) for x in given[m]]
    everyone = np.broadcast_to(np.arange(seats), (rows, seats))
    ref.watch(1, np.arange(rows), everyone, rnd)
    return ref
