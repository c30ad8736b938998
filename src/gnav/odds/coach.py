"""The coach: for the seat about to decide, the chance of paying if it stands and if it
swaps, given exactly what its view shows, and what the expert would do.

It reads one ``SeatView`` and nothing else (a property test changes hidden pieces and
checks every figure stays put). Two ways, one bounded cost each:

- **A lookup** where a solved strategy ships (2 to 4 seats of most presets): the
  information set's exact figures, computed once from the round's whole tree
  (``gnav.solve.atlas.coach_table``) and shipped in ``gnav/odds/tables/``. The other
  seats play the solved strategy.
- **Sampling** elsewhere: ``SAMPLES`` deals of the pieces the view hides, drawn under
  every constraint the view gives and weighted by how well they explain the other seats'
  decisions (``gnav.bots.counter.Deals``, the counter bot's own sampler), each played
  out both ways by the engine with the later seats following the sources' tips (the
  counter bot's model of them). The figures carry 95% intervals from the samples'
  effective number.
"""

from __future__ import annotations

import gzip
import json
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from random import Random

from gnav.bots.counter import DEFAULT_LIKELIHOOD, Deals, _Model
from gnav.bots.expert import ExpertBot
from gnav.bots.threshold import resolve_threshold
from gnav.infoset import infoset_key
from gnav.odds.figures import Figure
from gnav.odds.simulated import Z, wilson
from gnav.rules import Rules
from gnav.strategies import shipped
from gnav.views import SeatView
from gnav.vocab import Action

HERE = Path(__file__).resolve().parent / "tables"
SAMPLES = 128  # the sampled coach's deals per decision: its bounded cost
FORMAT = "gnav-coach/1"


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
                "swap_gain": self.swap_gain.as_json(),
                "source": self.source, "samples": self.samples}


def table_path(preset: str, seats: int) -> Path:
    return HERE / f"{preset}-{seats}.json.gz"


@lru_cache(maxsize=32)
def _table(preset: str, seats: int) -> dict[str, list[float]] | None:
    path = table_path(preset, seats)
    if not path.exists():
        return None
    data = json.loads(gzip.decompress(path.read_bytes()))
    if data.get("format") != FORMAT:
        return None
    keys: dict[str, list[float]] = data["keys"]
    return keys


def table_for(rules: Rules, seats: int) -> dict[str, list[float]] | None:
    """The shipped exact table for ``seats`` seats of ``rules``, where the solved
    strategy it was made from fits these rules."""
    if shipped(rules, seats) is None:
        return None
    return _table(rules.name, seats)


_EXPERT = ExpertBot(seed=0)


def advise(view: SeatView, *, samples: int = SAMPLES) -> Advice | None:
    """The coach's figures for ``view``'s seat, or None where it has no choice to make
    (not its turn, or one legal action)."""
    if view.seat is None or len(view.legal) < 2 or view.seat not in view.order:
        return None
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


def sampled(view: SeatView, samples: int, expert: Action, swap_p: float) -> Advice | None:
    """The figures from ``samples`` deals of what the view hides (see the module's
    docstring). None if no deal fits the view."""
    deals = Deals.of(view, _model(view.rules))
    if deals is None:
        return None
    seat = deals.seat
    # One view, one answer: the stream is drawn from the view's own contents.
    rng = Random(f"coach:{infoset_key(view)}:{view.round}")
    n = deals.seats
    before = view.lives[seat]
    policy = deals.model.policy
    acts = (Action.STAND, Action.SWAP)
    pay = [0.0, 0.0]
    got = [0.0, 0.0]
    got_sq = [0.0, 0.0]
    weight = square = diff = diff_sq = 0.0
    for _ in range(samples):
        start, w = deals.sample(rng)
        if start is None:
            continue
        got_now = [0, 0]
        for i, action in enumerate(acts):
            state, _ = start.apply(action)
            while state.turn < n:
                state, _ = state.apply(policy[state.hands[state.turn]])
            change = state.lives[seat] - before
            got_now[i] = change
            pay[i] += w * (change < 0)
            got[i] += w * change
            got_sq[i] += w * change * change
        d = got_now[1] - got_now[0]
        diff += w * d
        diff_sq += w * d * d
        weight += w
        square += w * w
    if weight <= 0.0:
        return None
    n_eff = weight * weight / square
    return Advice(_mean(pay[0], 0.0, weight, n_eff, True),
                  _mean(pay[1], 0.0, weight, n_eff, True),
                  _mean(got[0], got_sq[0], weight, n_eff, False),
                  _mean(got[1], got_sq[1], weight, n_eff, False),
                  expert, swap_p, "sampled", samples,
                  _mean(diff, diff_sq, weight, n_eff, False))
