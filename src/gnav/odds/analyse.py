"""The analysis of a finished match: every decision against the expert, from the
deciding seat's view only.

For each decision with a choice (both actions legal) the coach's figures
(``gnav.odds.coach.advise``, the one function that computes a decision's figures, called
here exactly as the coach calls it) give the expected change of lives of standing and of
swapping, given exactly what that seat saw; the decision's **cost** is the better one's
minus the one taken (0 for the better action). Exact where a solved strategy ships (the
other seats playing it), sampled elsewhere (as many deals as the gap between the actions
needs to be known to 0.01 lives, capped; its 95% interval is given beside the cost).

Marks (``gnav.odds.verdict.mark``), by the cost in lives (expected lives given away this
round) and its interval:

- ``good``: below 0.02;
- ``close`` (too close to call): 0.02 or more, but the 95% interval of the gap between
  the two actions (paired on the same deals) holds 0: the samples cannot tell them apart;
- ``inaccuracy``: 0.02 to 0.05;
- ``mistake``: 0.05 to 0.15;
- ``blunder``: 0.15 or more.

Where the coach knows the chance to win (a match strategy ships for the table, or else
the lives model values the round, sampled or an exact table's: ``gnav.odds.coach``'s
``win_source``), each decision also has its figures in the match: the chance to win
standing and swapping, its **loss** (the better one's minus the one taken, in percentage
points), the accuracy and mark Lichess would give that loss
(``gnav.odds.verdict.accuracy``, ``win_mark``), and each seat its mean accuracy.

A sampled cost is added to the seat's total whatever its mark (an estimate, as
unbiased as the samples).

A seat's total: the expected lives lost to its own decisions (the sum of its costs), and
**luck**: the lives its rounds actually brought (a loss is negative) minus what its
decisions were expected to bring when taken; a round where it had no choice counts
whole. Positive luck: the deals and the draws went better than the seat could expect.

What it shows: a finished match's record holds every deal, so nothing the record does
not already make public is shown; each figure is still computed from the deciding seat's
view alone, never from the pieces it could not see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gnav.errors import GnavError
from gnav.odds.coach import Advice, advise, looks_up
from gnav.odds.figures import Figure
from gnav.odds.verdict import CLOSE, MARKS, accuracy, mark, win_mark
from gnav.record import Record, replay
from gnav.views import SeatView, seat_view
from gnav.vocab import Action

__all__ = ["MARKS", "Analysis", "Decision", "SeatTotal", "TooCostly", "analyse", "mark"]

# The figures of many views at once, in order (None where there is no choice): ``advise``
# over each by default; the server passes one that spreads them over its workers.
Advisor = Callable[[Sequence[SeatView]], list[Advice | None]]


@dataclass
class Decision:
    round: int  # 1-based, as the record counts
    seat: int
    position: int  # from the dealer's left
    piece: str  # the piece held at the decision (public once the match is over)
    action: Action
    advice: Advice
    coached: bool = False

    @property
    def shortfall(self) -> Figure:
        """The other action's expected lives minus the taken one's (the cost, before it
        is held at 0), with the paired 95% interval where sampled."""
        gain = self.advice.swap_gain
        if self.action == Action.SWAP:
            low, high = (None, None) if gain.high is None or gain.low is None else \
                (-gain.high, -gain.low)
            return Figure(-gain.value, low, high, gain.n)
        return gain

    @property
    def cost(self) -> float:
        a = self.advice
        taken = a.lives_swap if self.action == Action.SWAP else a.lives_stand
        best = max(a.lives_swap.value, a.lives_stand.value)
        return max(0.0, best - taken.value)

    @property
    def mark(self) -> str:
        """The cost's mark; ``close`` (too close to call) where it is above the good
        threshold but the interval of the gap between the actions holds 0."""
        return mark(self.cost, self.shortfall.low)

    @property
    def win_loss(self) -> float | None:
        """What the decision gave away of the chance to win the match, in percentage
        points; None where no match strategy ships for the table."""
        return self.advice.win_loss(self.action)

    @property
    def accuracy(self) -> float | None:
        """Lichess's accuracy of the decision (0 to 100), from ``win_loss``."""
        loss = self.win_loss
        return None if loss is None else accuracy(loss)

    @property
    def win_mark(self) -> str | None:
        loss = self.win_loss
        return None if loss is None else win_mark(loss)

    def win_json(self) -> dict[str, Any]:
        """The decision's figures in the match, where known (else nothing)."""
        loss, acc, said = self.win_loss, self.accuracy, self.win_mark
        if loss is None or acc is None:
            return {}
        return {"win_loss": round(loss, 4), "accuracy": round(acc, 2), "win_mark": said}

    @property
    def expected(self) -> float:
        """The expected change of lives of the action taken."""
        a = self.advice
        return (a.lives_swap if self.action == Action.SWAP else a.lives_stand).value


@dataclass
class SeatTotal:
    decisions: int = 0
    cost: float = 0.0  # expected lives lost to its own decisions
    lost: int = 0  # lives the rounds actually cost
    luck: float = 0.0
    marks: dict[str, int] = field(
        default_factory=lambda: {m: 0 for m in (*(m for m, _ in MARKS), CLOSE)})
    # Over its decisions with figures in the match: how many, their accuracies' sum.
    won: int = 0
    accuracy_sum: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """The mean accuracy of its decisions in the match (None: none had figures)."""
        return None if self.won == 0 else self.accuracy_sum / self.won


class TooCostly(GnavError):
    """More decisions need sampling than the caller allows (``analyse``'s ``most``)."""


@dataclass
class Analysis:
    names: tuple[str, ...]
    decisions: list[Decision]
    totals: list[SeatTotal]
    exact: bool  # every figure exact
    # Per round (1-based, in order), per seat: the luck and the lives lost that round, so
    # that a viewer can total the rounds it has shown so far.
    luck_by_round: list[list[float]] = field(default_factory=list)
    lost_by_round: list[list[int]] = field(default_factory=list)
    # The rounds analysed (1-based): all of them unless a budget chose a sample.
    analysed: list[int] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        """Whether every round was analysed."""
        return len(self.analysed) == len(self.luck_by_round)

    def as_json(self) -> dict[str, Any]:
        chosen = set(self.analysed)
        return {
            "seats": list(self.names),
            "marks": {m: t for m, t in MARKS if t != float("inf")},
            "decisions": [{
                "round": d.round, "seat": self.names[d.seat], "position": d.position,
                "piece": d.piece, "action": str(d.action), "cost": round(d.cost, 6),
                "cost_interval": _interval(d.shortfall), "mark": d.mark,
                "coached": d.coached, **d.advice.as_json(), **d.win_json()}
                for d in self.decisions],
            "totals": {self.names[s]: {"decisions": t.decisions, "cost": round(t.cost, 6),
                                       "lost": t.lost, "luck": round(t.luck, 6),
                                       "marks": t.marks,
                                       **({} if t.accuracy is None else
                                          {"accuracy": round(t.accuracy, 2)})}
                       for s, t in enumerate(self.totals)},
            "exact": self.exact,
            # A sample: only these rounds were analysed, the totals are over them.
            "analysed": None if self.whole else {
                "rounds": self.analysed, "of": len(self.luck_by_round),
                "every": self.analysed[1] - self.analysed[0] if len(self.analysed) > 1
                else len(self.luck_by_round)},
            "rounds": [{"round": k, "luck": {self.names[s]: round(x, 6)
                                              for s, x in enumerate(luck)},
                        "lost": {self.names[s]: x for s, x in enumerate(lost)}}
                       for k, (luck, lost) in enumerate(
                           zip(self.luck_by_round, self.lost_by_round, strict=True), 1)
                       if k in chosen],
        }


def _interval(f: Figure) -> list[float] | None:
    """The cost's 95% interval: the shortfall's, held at 0 as the cost is (None where
    exact)."""
    if f.low is None or f.high is None:
        return None
    return [round(max(0.0, f.low), 6), round(max(0.0, f.high), 6)]


def coached_of(record: Record) -> set[tuple[int, int]]:
    """(round, seat) of the decisions the record marks as coached (``x.coached``)."""
    x = record.x if isinstance(record.x, dict) else {}
    out = set()
    for item in x.get("coached", []) or []:
        if isinstance(item, list) and len(item) == 2 and item[1] in record.seats:
            out.add((int(item[0]), record.seats.index(item[1])))
    return out


def analyse(record: Record, *, samples: int | None = None, most: int | None = None,
            advisor: Advisor | None = None, budget: int | None = None) -> Analysis:
    """Every decision of ``record`` (replayed, so a record the rules contradict raises
    InconsistentError) against the expert, from views alone. ``samples``: a fixed number
    of deals a sampled decision (None: the coach's own, as many as it needs);
    ``advisor``: how the views' figures are computed (``advise`` over each unless told);
    ``budget``: at most this many sampled decisions, from a stated sample of the rounds
    (every k-th, the smallest k that fits) where the match has more.

    :raises: :exc:`TooCostly` if more than ``most`` decisions need sampling (checked
        before any is sampled).
    """
    rep = replay(record)
    names = tuple(record.seats)
    coached = coached_of(record)
    # Every decision with a choice, as its seat saw it, before any figure is computed.
    asked: list[tuple[int, int, int, str, Action, SeatView]] = []
    for k, seen in enumerate(rep.states, 1):
        for before, (seat, action) in zip(seen, record.rounds[k - 1].actions, strict=False):
            assert before.round is not None
            view = seat_view(before, seat)
            if len(view.legal) < 2:
                continue
            asked.append((k, seat, before.round.seats.index(seat), view.piece or "", action,
                          view))
    if most is not None:
        costly = sum(1 for *_, view in asked if sampled(view))
        if costly > most:
            raise TooCostly(f"analysis: {costly} decisions of this match need sampling, "
                            f"more than the {most} analysed here; gnav analyse RECORD "
                            f"does any match")
    chosen = _rounds_within(asked, budget, len(record.rounds))
    asked = [a for a in asked if a[0] in chosen]
    views = [view for *_, view in asked]
    advices = advisor(views) if advisor is not None else \
        [advise(v, samples=samples) for v in views]
    by_round: dict[int, list[Decision]] = {}
    for (k, seat, position, piece, action, _), advice in zip(asked, advices, strict=True):
        if advice is not None:
            by_round.setdefault(k, []).append(
                Decision(k, seat, position, piece, action, advice, (k, seat) in coached))
    return _totals(names, rep.states, by_round, chosen)


def _rounds_within(asked: Sequence[tuple[int, int, int, str, Action, SeatView]],
                   budget: int | None, rounds: int) -> set[int]:
    """The rounds analysed: all of them, or where their sampled decisions are more than
    ``budget``, every k-th from the first with the smallest k that keeps within it (a
    sample spread over the whole match, so that early and late rounds are both in)."""
    every = set(range(1, rounds + 1))
    if budget is None:
        return every
    per_round = [0] * (rounds + 1)
    for k, *_, view in asked:
        per_round[k] += sampled(view)
    for step in range(1, rounds + 1):
        chosen = set(range(1, rounds + 1, step))
        if sum(per_round[k] for k in chosen) <= budget:
            return chosen
    return {1}


def _totals(names: tuple[str, ...], states: Sequence[Sequence[Any]],
            by_round: dict[int, list[Decision]], chosen: set[int]) -> Analysis:
    """The analysis of the decisions ``by_round``: each seat's cost, marks and luck,
    over the rounds ``chosen`` (the others' luck is listed, never totalled)."""
    totals = [SeatTotal() for _ in names]
    decisions: list[Decision] = []
    exact = True
    luck_by_round: list[list[float]] = []
    lost_by_round: list[list[int]] = []
    for k, seen in enumerate(states, 1):
        expected = [0.0] * len(names)
        decided: set[int] = set()
        for d in by_round.get(k, []):
            exact = exact and d.advice.source == "exact"
            decisions.append(d)
            expected[d.seat] += d.expected
            decided.add(d.seat)
            t = totals[d.seat]
            t.decisions += 1
            t.cost += d.cost
            t.marks[d.mark] += 1
            acc = d.accuracy
            if acc is not None:
                t.won += 1
                t.accuracy_sum += acc
        start, end = seen[0].lives, seen[-1].lives
        luck_now: list[float] = []
        lost_now: list[int] = []
        for s in range(len(names)):
            change = end[s] - start[s]
            luck = change - expected[s] if s in decided else float(change)
            if k in chosen:
                totals[s].lost += max(0, -change)
                totals[s].luck += luck
            luck_now.append(luck)
            lost_now.append(max(0, -change))
        luck_by_round.append(luck_now)
        lost_by_round.append(lost_now)
    return Analysis(names, decisions, totals, exact, luck_by_round, lost_by_round,
                    sorted(chosen))


def sampled(view: SeatView) -> bool:
    """Whether the coach samples (rather than looks up) its figures for ``view``."""
    return len(view.legal) >= 2 and view.seat is not None and not looks_up(view)

