"""The analysis of a finished match: every decision against the expert, from the
deciding seat's view only.

For each decision with a choice (both actions legal) the coach's figures
(``gnav.odds.coach.advise``) give the expected change of lives of standing and of
swapping, given exactly what that seat saw; the decision's **cost** is the better one's
minus the one taken (0 for the better action). Exact where a solved strategy ships (the
other seats playing it), sampled elsewhere (the coach's sampler: its 95% interval is
given beside the cost).

Marks, by the cost in lives (expected lives given away this round):

- ``good``: below 0.02 (or the better action);
- ``inaccuracy``: 0.02 to 0.05;
- ``mistake``: 0.05 to 0.15;
- ``blunder``: 0.15 or more.

Where the figures are sampled, a decision is ``good`` whenever the 95% interval of the
gap between the two actions (paired on the same deals) holds 0; its cost is still added
to the seat's total (an estimate, as unbiased as the samples).

A seat's total: the expected lives lost to its own decisions (the sum of its costs), and
**luck**: the lives its rounds actually brought (a loss is negative) minus what its
decisions were expected to bring when taken; a round where it had no choice counts
whole. Positive luck: the deals and the draws went better than the seat could expect.

What it shows: a finished match's record holds every deal, so nothing the record does
not already make public is shown; each figure is still computed from the deciding seat's
view alone, never from the pieces it could not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gnav.errors import GnavError
from gnav.odds.coach import Advice, advise, looks_up
from gnav.record import Record, replay
from gnav.views import SeatView, seat_view
from gnav.vocab import Action

MARKS = (("good", 0.02), ("inaccuracy", 0.05), ("mistake", 0.15), ("blunder", float("inf")))


def mark(cost: float) -> str:
    for name, below in MARKS:
        if cost < below:
            return name
    return MARKS[-1][0]


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
    def cost(self) -> float:
        a = self.advice
        taken = a.lives_swap if self.action == Action.SWAP else a.lives_stand
        best = max(a.lives_swap.value, a.lives_stand.value)
        return max(0.0, best - taken.value)

    @property
    def mark(self) -> str:
        """The cost's mark; a sampled decision whose paired interval for the gap between
        the actions holds 0 is ``good``: the samples cannot tell the actions apart."""
        gain = self.advice.gain
        if gain is not None and gain.low is not None and gain.high is not None \
                and gain.low <= 0.0 <= gain.high:
            return "good"
        return mark(self.cost)

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
    marks: dict[str, int] = field(default_factory=lambda: {m: 0 for m, _ in MARKS})


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

    def as_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.names),
            "marks": {m: t for m, t in MARKS if t != float("inf")},
            "decisions": [{
                "round": d.round, "seat": self.names[d.seat], "position": d.position,
                "piece": d.piece, "action": str(d.action), "cost": round(d.cost, 6),
                "mark": d.mark, "coached": d.coached, **d.advice.as_json()}
                for d in self.decisions],
            "totals": {self.names[s]: {"decisions": t.decisions, "cost": round(t.cost, 6),
                                       "lost": t.lost, "luck": round(t.luck, 6),
                                       "marks": t.marks}
                       for s, t in enumerate(self.totals)},
            "exact": self.exact,
            "rounds": [{"round": k, "luck": {self.names[s]: round(x, 6)
                                              for s, x in enumerate(luck)},
                        "lost": {self.names[s]: x for s, x in enumerate(lost)}}
                       for k, (luck, lost) in enumerate(
                           zip(self.luck_by_round, self.lost_by_round, strict=True), 1)],
        }


def coached_of(record: Record) -> set[tuple[int, int]]:
    """(round, seat) of the decisions the record marks as coached (``x.coached``)."""
    x = record.x if isinstance(record.x, dict) else {}
    out = set()
    for item in x.get("coached", []) or []:
        if isinstance(item, list) and len(item) == 2 and item[1] in record.seats:
            out.add((int(item[0]), record.seats.index(item[1])))
    return out


def analyse(record: Record, *, samples: int | None = None,
            most: int | None = None) -> Analysis:
    """Every decision of ``record`` (replayed, so a record the rules contradict raises
    InconsistentError) against the expert, from views alone.

    :raises: :exc:`TooCostly` if more than ``most`` decisions need sampling (checked
        before any is sampled: the server bounds its cost so).
    """
    rep = replay(record)
    names = tuple(record.seats)
    totals = [SeatTotal() for _ in names]
    decisions: list[Decision] = []
    coached = coached_of(record)
    exact = True
    if most is not None:
        costly = sum(1 for k, seen in enumerate(rep.states, 1)
                     for before, (seat, _) in zip(seen, record.rounds[k - 1].actions,
                                                  strict=False)
                     if before.round is not None and _sampled(seat_view(before, seat)))
        if costly > most:
            raise TooCostly(f"analysis: {costly} decisions of this match need sampling, "
                            f"more than the {most} analysed here; gnav analyse RECORD "
                            f"does any match")
    luck_by_round: list[list[float]] = []
    lost_by_round: list[list[int]] = []
    for k, seen in enumerate(rep.states, 1):
        expected = [0.0] * len(names)
        decided: set[int] = set()
        for before, (seat, action) in zip(seen, record.rounds[k - 1].actions,
                                          strict=False):
            assert before.round is not None
            view = seat_view(before, seat)
            if len(view.legal) < 2:
                continue
            advice = advise(view) if samples is None else advise(view, samples=samples)
            if advice is None:
                continue
            exact = exact and advice.source == "exact"
            order = before.round.seats
            d = Decision(k, seat, order.index(seat), view.piece or "", action, advice,
                         (k, seat) in coached)
            decisions.append(d)
            expected[seat] += d.expected
            decided.add(seat)
            t = totals[seat]
            t.decisions += 1
            t.cost += d.cost
            t.marks[d.mark] += 1
        start, end = seen[0].lives, seen[-1].lives
        luck_now: list[float] = []
        lost_now: list[int] = []
        for s in range(len(names)):
            change = end[s] - start[s]
            luck = change - expected[s] if s in decided else float(change)
            totals[s].lost += max(0, -change)
            totals[s].luck += luck
            luck_now.append(luck)
            lost_now.append(max(0, -change))
        luck_by_round.append(luck_now)
        lost_by_round.append(lost_now)
    return Analysis(names, decisions, totals, exact, luck_by_round, lost_by_round)


def _sampled(view: SeatView) -> bool:
    """Whether the coach samples (rather than looks up) its figures for ``view``."""
    return len(view.legal) >= 2 and view.seat is not None and not looks_up(view)

