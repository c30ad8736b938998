"""The coach: for the seat about to decide, the chance of paying if it stands and if it
swaps, given exactly what its view shows, and what the expert would do.

It reads one ``SeatView`` and nothing else (a property test changes hidden pieces and
checks every figure stays put). Two ways, one bounded cost each:

- **A lookup** where a solved strategy ships (2 to 4 seats of most presets): the
  information set's exact figures, computed once from the round's whole tree
  (``gnav.odds.exact.coach_table``) and shipped in ``gnav/odds/tables/``. The other
  seats play the solved strategy.
- **Sampling** elsewhere: deals of the pieces the view hides (how many: below), drawn under
  every constraint the view gives and weighted by how well they explain the other seats'
  decisions (``gnav.bots.counter.Deals``, the counter bot's own sampler), each played
  out both ways by the engine with the later seats following the sources' tips (the
  counter bot's model of them). The figures carry 95% intervals from the samples'
  effective number. Where a trained policy ships for the table (5 to 41 seats of the
  gnav presets) and numpy and numba are installed, the deals are played on the compiled
  batch engine instead (``gnav.odds.batch.weighted_playouts``): each from its deal,
  the earlier seats forced to what they did, the later seats playing the policy the
  expert plays; after a first call per table size that reads the policy into a table
  (half a second).

How many deals: as many as it takes (issue 26). Both choices are played out on the same
deals and the same random numbers (common random numbers), and deals are drawn
``BATCH`` at a time until the standard error of the gap between them (lives if swap
minus lives if stand), over at least ``FEWEST`` effective deals, is below what the
pages print (``PRINTED``, 0.01 lives), or
``MOST`` deals were drawn (``MOST_REFERENCE`` on the reference engine): the bound on a
decision's cost. The analysis of a match (``gnav.odds.analyse``) reads every decision
through ``advise`` too, so the coach and the analysis give one view the same figures.
What the figures say (the verdict, and why the expert may differ) is
``gnav.odds.verdict``'s, for both.

**The match.** Where a match strategy ships for the table (``gnav.strategies.match``: 2
seats of every game at its default lives and at 2, 3 seats of most games), the figures also hold
the deciding seat's chance to win the match if it stands and if it swaps, every seat
playing the match strategy from there on (``win_stand``, ``win_swap``: a lookup,
``gnav.odds.match_coach``; ``win_source`` "match"). Where the figures are sampled (5
seats and up, and any table without an exact table), every playout's lives are valued
by the lives model instead (``gnav.odds.match_model``; "model"): the same deals give the
lives and the chance to win, so the two readings of one decision come from one sample.
An exact lookup without a match file (4 seats, other lives counts at 2 and 3 seats, a
large table down to a few seats) values its own round by the lives model too: the
exact table holds, for standing and for swapping, the chance of each way the round can
end for the lives (``gnav.odds.exact.ending_chances``), and each way's chance to win
by the model, weighted by them, is the figure ("model"). Lives and chance to win are
again two readings of one distribution: the solved strategy's round.

The API is ``advise(view) -> Advice | None``: a view in, the figures out, read from the
view alone (anything that cuts puzzles or marks decisions may call it).
"""

from __future__ import annotations

import gzip
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

from gnav.bots.counter import DEFAULT_LIKELIHOOD, Deals, _Model
from gnav.bots.expert import ExpertBot
from gnav.bots.threshold import resolve_threshold
from gnav.events import Ask, Stand
from gnav.infoset import infoset_key
from gnav.odds.figures import Figure, Z, wilson
from gnav.odds.match_coach import match_chances
from gnav.odds.match_model import ModelWins
from gnav.odds.verdict import PRINTED, verdict, why
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.strategies import shipped
from gnav.strategies.policy import Policy, shipped_policy
from gnav.views import SeatView
from gnav.vocab import Action

HERE = Path(__file__).resolve().parent / "tables"
BATCH = 256  # deals drawn at a time until the gap is known (one engine size per table)
# The cap on deals a decision: the bound on its cost (measured in docs/odds.md).
MOST = 8192  # on the compiled engine
MOST_REFERENCE = 2048  # on the reference engine, about ten times dearer a deal
FEWEST = 32  # effective deals before the gap's standard error is believed
FORMAT = "gnav-coach/1"
# The master seed of the coach's random streams, each derived from it and the view, so
# that one view always gets one answer.
SEED = 0


@dataclass(frozen=True)
class Advice:
    """The coach's figures for one decision (``lives_*``: expected change of lives in
    the round, negative is a loss)."""

    pay_stand: Figure
    pay_swap: Figure
    lives_stand: Figure
    lives_swap: Figure
    expert: Action  # what the expert bot does here
    expert_swap: float  # the expert's probability of swapping (0 or 1 where it is pure)
    source: str  # "exact" or "sampled"
    samples: int = 0
    # lives if swap minus lives if stand: sampled on the same deals, so its interval is
    # the paired one (narrower than the two figures' intervals suggest)
    gain: Figure | None = None
    # what the expert plays here: "strategy" (solved), "policy" (trained) or "counter"
    plays: str = "strategy"
    # The chance to win the match if it stands, if it swaps (0 to 1): the match strategy
    # played from there on where one ships for the table (``win_source`` "match"), else
    # the round valued by the lives model ("model", gnav.odds.match_model: the sampled
    # playouts, or an exact table's chances of each way the round ends); None where
    # neither is known (an exact table made without those chances).
    win_stand: float | None = None
    win_swap: float | None = None
    win_source: str | None = None

    @property
    def wins(self) -> bool:
        """Whether the figures hold the chance to win the match."""
        return self.win_stand is not None and self.win_swap is not None

    def win_loss(self, action: Action) -> float | None:
        """What ``action`` gives away of the chance to win the match against the better
        action, in percentage points (0 for the better one); None without the match."""
        if self.win_stand is None or self.win_swap is None:
            return None
        taken = self.win_swap if action == Action.SWAP else self.win_stand
        return 100.0 * max(0.0, max(self.win_stand, self.win_swap) - taken)

    @property
    def verdict(self) -> str:
        """What the figures favour: "stand", "swap" or "close" (gnav.odds.verdict)."""
        return verdict(self.swap_gain)

    @property
    def why(self) -> str | None:
        """Why the expert's choice is not the verdict (None where it is)."""
        return why(self.verdict, self.expert, self.expert_swap, self.plays)

    @property
    def swap_gain(self) -> Figure:
        if self.gain is not None:
            return self.gain
        return Figure(self.lives_swap.value - self.lives_stand.value)

    @property
    def best(self) -> Action:
        """The action with the better expected lives (stand on a tie)."""
        return Action.SWAP if self.lives_swap.value > self.lives_stand.value + 1e-9 \
            else Action.STAND

    def as_json(self) -> dict[str, object]:
        return {"pay_stand": self.pay_stand.as_json(), "pay_swap": self.pay_swap.as_json(),
                "lives_stand": self.lives_stand.as_json(),
                "lives_swap": self.lives_swap.as_json(), "expert": str(self.expert),
                "expert_swap": round(self.expert_swap, 6), "best": str(self.best),
                "swap_gain": self.swap_gain.as_json(), "verdict": self.verdict,
                "why": self.why, "source": self.source, "samples": self.samples,
                # Only where the match is known: elsewhere the answer is as it was.
                **({"win_stand": round(self.win_stand, 6),
                    "win_swap": round(self.win_swap, 6), "win_source": self.win_source}
                   if self.win_stand is not None and self.win_swap is not None else {})}


def table_path(preset: str, seats: int) -> Path:
    return HERE / f"{preset}-{seats}.json.gz"


@lru_cache(maxsize=32)
def _data(preset: str, seats: int) -> dict[str, Any] | None:
    path = table_path(preset, seats)
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    return data if data.get("format") == FORMAT else None


def _table(preset: str, seats: int) -> dict[str, list[float]] | None:
    data = _data(preset, seats)
    if data is None:
        return None
    keys: dict[str, list[float]] = data["keys"]
    return keys


def ending_pairs(text: str) -> list[tuple[int, float]]:
    """One action's chances of each way the round ends as an exact table holds them
    ("k:p" apart by spaces: the index into the table's ``changes`` and its chance;
    ``gnav.odds.exact.coach_table``)."""
    return [(int(k), float(p)) for k, _, p in (x.partition(":") for x in text.split())]


def _ends(preset: str, seats: int, key: str
          ) -> tuple[list[list[int]], list[list[tuple[int, float]]]] | None:
    """The ways the round can end for the lives (a change of lives per position) and,
    for standing and for swapping, each one's chance at ``key``; None for a table made
    without them."""
    data = _data(preset, seats)
    if data is None or "ends" not in data:
        return None
    row = data["ends"].get(key)
    return None if row is None else (data["changes"], [ending_pairs(t) for t in row])


def model_chances(view: SeatView) -> tuple[float, float] | None:
    """The deciding seat's chance to win the match if it stands and if it swaps, by the
    lives model (``ModelWins``), from the exact table's chances of each way the round
    ends (None where no exact table holds them for ``view``). The round is the lookup's
    own (the other seats play the solved strategy), so the lives and the chance to win
    beside them are two readings of one distribution."""
    strategy = shipped(view.rules, len(view.order))
    got = None if strategy is None else \
        _ends(strategy.preset, len(view.order), infoset_key(view))
    if got is None:
        return None
    changes, row = got
    model = ModelWins(view)
    out = []
    for pairs in row:
        total = sum(p for _, p in pairs)
        win = sum(p * model.after(changes[k]) for k, p in pairs)
        out.append(win / total if total > 0 else 0.0)  # rounding leaves sums off by 1e-6
    return out[0], out[1]


def table_for(rules: Rules, seats: int) -> dict[str, list[float]] | None:
    """The shipped exact table for ``seats`` seats of ``rules``, where the solved
    strategy it was made from fits these rules."""
    strategy = shipped(rules, seats)
    if strategy is None:
        return None
    # Named by the game it was solved for, as the strategy is: gnav-rulebook reads gnav's,
    # gnav with two_fools = pay gnav-pagat's.
    return _table(strategy.preset, seats)


# The round's expert (expert-round): the coach's figures are in lives, and so is the
# choice it sets beside them.
_EXPERT = ExpertBot(seed=0, match=False)


def advise(view: SeatView, *, samples: int | None = None) -> Advice | None:
    """The coach's figures for ``view``'s seat, or None where it has no choice to make
    (not its turn, or one legal action). ``samples``: where the figures are sampled,
    exactly that many deals (None: as many as the gap needs, see the module's
    docstring)."""
    if view.seat is None or len(view.legal) < 2 or view.seat not in view.order:
        return None
    advice = _advise_round(view, samples)
    if advice is None:
        return None
    wins = match_chances(view)
    if wins is not None:
        return replace(advice, win_stand=wins[0], win_swap=wins[1], win_source="match")
    if advice.source == "exact" and (wins := model_chances(view)) is not None:
        return replace(advice, win_stand=wins[0], win_swap=wins[1], win_source="model")
    return advice  # sampled: the model's chances came with the playouts


def _advise_round(view: SeatView, samples: int | None) -> Advice | None:
    """The round's figures (in lives) for a seat with a choice to make."""
    probs = _EXPERT.probabilities(view)
    swap_p = float(probs.get(Action.SWAP, 0.0))
    expert = Action.SWAP if swap_p > 0.5 else Action.STAND
    table = table_for(view.rules, len(view.order))
    if table is not None:
        row = table.get(infoset_key(view))
        if row is not None:
            _, _, ps, pw, ls, lw = row
            return Advice(Figure(ps), Figure(pw), Figure(ls), Figure(lw), expert, swap_p,
                          "exact")
    return sampled(view, samples, expert, swap_p)


def _plays(view: SeatView) -> str:
    """What the expert plays at ``view``'s table: "strategy", "policy" or "counter"."""
    table = _EXPERT.table(view.rules, len(view.order))
    return "policy" if isinstance(table, Policy) else \
        "counter" if table is None else "strategy"


def looks_up(view: SeatView) -> bool:
    """Whether the coach's figures for ``view`` are a lookup in a shipped exact table
    (cheap enough for any thread) rather than sampled."""
    table = table_for(view.rules, len(view.order))
    return table is not None and infoset_key(view) in table


def answer(view: SeatView) -> dict[str, object]:
    """The coach's answer as the server sends it: the figures for ``view``'s seat (None
    where it has no choice to make) and the CPU they took in milliseconds (this
    thread's own, so it is the decision's cost whatever else the process does)."""
    start = time.thread_time()
    advice = advise(view)
    cpu = (time.thread_time() - start) * 1000.0
    return {"advice": None if advice is None else advice.as_json(),
            "cpu_ms": round(cpu, 3), "round": view.round, "seats": len(view.order)}


def _mean(total: float, square: float, weight: float, n_eff: float,
          proportion: bool) -> Figure:
    """A weighted mean with its 95% interval from the effective number of samples
    (Wilson's for a chance)."""
    mean = total / weight
    if proportion:
        w = wilson(mean * n_eff, max(n_eff, 1.0))
        return Figure(mean, w.low, w.high, round(n_eff))
    var = max(square / weight - mean * mean, 0.0)
    half = Z * math.sqrt(var / max(n_eff, 1.0))
    return Figure(mean, mean - half, mean + half, round(n_eff))


@lru_cache(maxsize=16)
def _model(rules: Rules) -> _Model:
    return _Model(rules, resolve_threshold(rules, None), DEFAULT_LIKELIHOOD)


# One batch's weighted sums (``_Sums``), as gnav.odds.batch.weighted_playouts gives
# them: [paid], [lives], [lives squared], weight, weight squared, gap, gap squared, and
# [the chance to win by the lives model] (None where not valued).
Batch = tuple[list[float], list[float], list[float], float, float, float, float,
              list[float] | None]


class _Sums:
    """The weighted sums the figures are made of, over the deals so far: [paid],
    [lives], [lives squared] for standing and for swapping, the total weight and its
    square, and the swap-minus-stand gap's sum and sum of squares (paired per deal);
    and the chance to win by the lives model, where every batch valued it."""

    __slots__ = ("diff", "diff_sq", "got", "got_sq", "pay", "square", "weight", "win")

    def __init__(self) -> None:
        self.pay = [0.0, 0.0]
        self.got = [0.0, 0.0]
        self.got_sq = [0.0, 0.0]
        self.weight = self.square = self.diff = self.diff_sq = 0.0
        self.win: list[float] | None = [0.0, 0.0]

    def add(self, pay: list[float], got: list[float], got_sq: list[float], weight: float,
            square: float, diff: float, diff_sq: float, win: list[float] | None) -> None:
        if win is None or self.win is None:
            self.win = None
        for i in (0, 1):
            self.pay[i] += pay[i]
            self.got[i] += got[i]
            self.got_sq[i] += got_sq[i]
            if self.win is not None and win is not None:
                self.win[i] += win[i]
        self.weight += weight
        self.square += square
        self.diff += diff
        self.diff_sq += diff_sq

    def known(self) -> bool:
        """Whether the gap's standard error is below what the pages print, from enough
        deals to trust the estimate of it (a few heavy deals can look unanimous)."""
        if self.weight <= 0.0:
            return False
        n_eff = self.weight * self.weight / self.square
        if n_eff < FEWEST:
            return False
        mean = self.diff / self.weight
        var = max(self.diff_sq / self.weight - mean * mean, 0.0)
        return math.sqrt(var / max(n_eff, 1.0)) < PRINTED

    def advice(self, expert: Action, swap_p: float, samples: int, plays: str
               ) -> Advice | None:
        if self.weight <= 0.0:
            return None
        w = self.weight
        n_eff = w * w / self.square
        won = self.win
        return Advice(_mean(self.pay[0], 0.0, w, n_eff, True),
                      _mean(self.pay[1], 0.0, w, n_eff, True),
                      _mean(self.got[0], self.got_sq[0], w, n_eff, False),
                      _mean(self.got[1], self.got_sq[1], w, n_eff, False),
                      expert, swap_p, "sampled", samples,
                      _mean(self.diff, self.diff_sq, w, n_eff, False), plays,
                      None if won is None else won[0] / w,
                      None if won is None else won[1] / w,
                      None if won is None else "model")


def sampled(view: SeatView, samples: int | None, expert: Action, swap_p: float
            ) -> Advice | None:
    """The figures from deals of what the view hides (see the module's docstring):
    exactly ``samples`` of them, or (None) ``BATCH`` at a time until the gap between
    the actions is known to what the pages print, at most ``MOST`` (``MOST_REFERENCE``
    on the reference engine). None if no deal fits the view."""
    deals = Deals.of(view, _model(view.rules))
    if deals is None:
        return None
    # One view, one answer: the streams are derived from the view's own contents, one
    # for the deals and one for the engine's draws of each batch, so that both engines
    # meet the same deals.
    where = infoset_key(view)
    rng = Random(derive(SEED, "coach", "deals", where, view.round))
    policy = _batch_policy(view, deals)
    plays = _plays(view)
    batch: Callable[[int, int], Batch | None]
    if policy is not None:
        play = _BatchPlay(view, deals, policy)
        most = MOST

        def batch(size: int, first: int) -> Batch | None:
            return play.sums(rng, size, derive(SEED, "coach", "engine", where, view.round,
                                               first))
    else:
        most = MOST_REFERENCE

        def batch(size: int, first: int) -> Batch | None:
            return _reference_sums(view, deals, rng, size)
    sums = _Sums()
    drawn = 0
    while True:
        size = samples if samples is not None else BATCH
        got = batch(size, drawn)
        drawn += size
        if got is not None:
            sums.add(*got)
        if samples is not None or drawn >= most or sums.known() or sums.weight <= 0.0:
            break  # (no deal of a whole batch fits the view: none will)
    return sums.advice(expert, swap_p, drawn, plays)


def _reference_sums(view: SeatView, deals: Deals, rng: Random, size: int) -> Batch:
    """``size`` deals played out both ways on the reference engine, the later seats
    following the sources' tips: the sums ``_Sums.add`` takes."""
    seat = deals.seat
    n = deals.seats
    before = view.lives[seat]
    later = deals.model.policy
    acts = (Action.STAND, Action.SWAP)
    pay = [0.0, 0.0]
    got = [0.0, 0.0]
    got_sq = [0.0, 0.0]
    won = [0.0, 0.0]
    wins = ModelWins(view)
    weight = square = diff = diff_sq = 0.0
    for _ in range(size):
        start, w = deals.sample(rng)
        if start is None:
            continue
        got_now = [0, 0]
        for i, action in enumerate(acts):
            state, _ = start.apply(action)
            while state.turn < n:
                state, _ = state.apply(later[state.hands[state.turn]])
            change = state.lives[seat] - before
            got_now[i] = change
            pay[i] += w * (change < 0)
            got[i] += w * change
            got_sq[i] += w * change * change
            # The whole round's change of every column (charges before this turn too):
            # the model values the round from its start.
            won[i] += w * wins.after([state.lives[s] - b
                                      for s, b in zip(view.order, wins.before, strict=True)])
        d = got_now[1] - got_now[0]
        diff += w * d
        diff_sq += w * d * d
        weight += w
        square += w * w
    return pay, got, got_sq, weight, square, diff, diff_sq, won


def _batch_policy(view: SeatView, deals: Deals) -> Policy | None:
    """The trained policy the later seats play on the compiled engine, where one ships
    for this table and numpy and numba are installed (else None: the reference engine
    plays the sources' tips)."""
    n = len(view.order)
    if len(view.rules.deck) != deals.sampler.size:  # pieces set aside: not a whole deck
        return None
    policy = shipped_policy(view.rules, n)
    if policy is None or not _batch_installed():
        return None
    return policy


@lru_cache(maxsize=1)
def _batch_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("numpy", "numba"))


class _BatchPlay:
    """The playouts on the compiled engine (``gnav.odds.batch``): the deals of what
    the view hides, each played from its deal with the seats before this one doing what
    they did, this one standing and then swapping, and the later seats playing the
    trained policy the expert plays here."""

    def __init__(self, view: SeatView, deals: Deals, policy: Policy) -> None:
        self.rules = view.rules
        self.deals = deals
        self.policy = policy
        self.wins = ModelWins(view)
        n = deals.seats
        position = {s: p for p, s in enumerate(view.order)}
        self.forced = [-1] * n
        for event in view.events:
            if isinstance(event, Stand | Ask) and event.seat in position:
                self.forced[position[event.seat]] = int(isinstance(event, Ask))
        # How many of each piece the deck holds, to fill the slots no playout reads
        # (a list, not a Counter: a quarter of a decision's cost went to Counters).
        self.counts = [0] * (max(self.rules.deck) + 1)
        for piece in self.rules.deck:
            self.counts[piece] += 1

    def sums(self, rng: Random, size: int, seed: int) -> Batch | None:
        from gnav.odds.batch import weighted_playouts

        rows: list[list[int]] = []
        weights: list[float] = []
        for _ in range(size):
            values, w = self.deals.pieces(rng)
            if w <= 0.0:
                continue
            # The slots the rest of the round cannot reach (-1) take the pieces left, in
            # any order: no playout reads them.
            count = self.counts.copy()
            for v in values:
                if v >= 0:
                    count[v] -= 1
            left = [piece for piece, k in enumerate(count) for _ in range(k)]
            rows.append([v if v >= 0 else left.pop() for v in values])
            weights.append(w)
        if not rows:
            return None
        while len(rows) < size:  # one engine size per table: pad with weightless rows
            rows.append(rows[0])
            weights.append(0.0)
        return weighted_playouts(self.rules, self.policy, rows, weights, self.forced,
                                 self.deals.know.me, seed=seed, wins=self.wins)
