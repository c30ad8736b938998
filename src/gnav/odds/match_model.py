"""The coach's chance to win the match where no match strategy ships (issue 29 §4): the
round's playouts valued by the lives model (``gnav.match_value``).

From 4 seats up the match is not solved, so the coach cannot look a chance to win up as
it does at small tables (``gnav.odds.match_coach``). It already plays the round out both
ways on deals of what the view hides (``gnav.odds.coach.sampled``); each playout ends
with every seat's lives, and the model turns those into the deciding seat's chance to
win from there (``match_result``: the last seat in wins; seats that all go out in one
round share it). Averaged with the deals' weights, that is the chance to win if it
stands and if it swaps, on the same deals as the lives beside it: one sample, two
readings, so the two cannot disagree about what happened in the round, only about what
it is worth. Where the figures are an exact lookup and no match file fits (4 seats,
other lives counts), the lookup's table gives the chance of each way the round ends
instead of playouts, and each way is valued here the same (``coach.model_chances``).

What the model knows is lives: each later round one seat still in loses a life, each
equally likely (docs/strategy.md, "The match at large tables"). It does not know
position or play, so its chances lean a little to the leader (about half a point of win
chance at 6 and 10 seats); what it is good for here is the difference between two
actions, which it values by what they do to the lives.

Every seat's lives at the round's start come from the view (``round_start_lives``: the
lives now, the round's public payments undone), the seats sitting out or out of the
round keep theirs. A chance is a function of the deciding seat's lives after the round
and of the others' as a multiset, cached per decision, so the playouts' thousands of rows
need a few dozen of the model's values. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from gnav.match_value import match_result
from gnav.strategies.match import round_start_lives
from gnav.views import SeatView


class ModelWins:
    """The deciding seat's chance to win the match after a round of ``view``'s table, by
    the lives model, from the round's columns' changes of lives (gains less payments, in
    turn order: the dealer last)."""

    __slots__ = ("_cache", "before", "me", "rest")

    def __init__(self, view: SeatView) -> None:
        if view.seat is None or view.seat not in view.order:
            raise ValueError("the chance to win is the deciding seat's: a seat in the round")
        start = round_start_lives(view)
        self.me = view.order.index(view.seat)  # the deciding seat's column
        # The round's columns at its start, and the lives of the seats in the match that
        # sit this round out (they cannot move in it).
        self.before = tuple(start[s] for s in view.order)
        self.rest = tuple(v for s, v in enumerate(start) if s not in view.order and v > 0)
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def after(self, change: Sequence[int]) -> float:
        """The chance to win once the round moved the columns' lives by ``change``."""
        if len(change) != len(self.before):
            raise ValueError(f"one change a column: {len(self.before)}, not {len(change)}")
        after = [max(0, b + d) for b, d in zip(self.before, change, strict=True)]
        mine = after.pop(self.me)
        key = (mine, tuple(sorted(after)))
        got = self._cache.get(key)
        if got is None:
            # match_result in an order of its own: the deciding seat first, then the
            # others (its value depends on their multiset alone), then the seats sitting
            # out; the lives before only say who shares a round that puts everyone out,
            # and every column was in.
            others = key[1]
            before = (1,) * (1 + len(others)) + self.rest
            change_all = (mine - 1, *(v - 1 for v in others), *(0,) * len(self.rest))
            got = self._cache[key] = match_result(before, change_all)[0]
        return got
