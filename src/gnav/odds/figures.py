"""What the odds atlas holds, whichever way it was computed.

One ``Atlas`` per table (preset, seats, policy): for each piece dealt and position from
the dealer, the chance of paying (ending the round with fewer lives: ``PAYS``) when the
seat plays the policy, when it stands whatever happens and when it swaps whenever it
may, and how often the policy swaps; each position's value in lives a round; and the
policy's swap choices by the piece held and what the public history shows at the seat's
turn.

A figure is a ``Figure``: exact (``low`` and ``high`` are None) or estimated with its 95%
interval. Positions count from the dealer's left (0) to the dealer (``seats - 1``).
Standard library only: the server's ``/odds`` page and the coach read atlases as JSON.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gnav.sim.stats import z_quantile

# What a seat's turn shows of the round so far, in the order a situation is tested:
# the first that fits names it (``situation``).
SITUATIONS = ("knock", "matador", "asked", "swaps", "plain")
# A threshold reads the choices met in at least this share of a position's decisions.
RARE = 0.001
Z = z_quantile()  # the 95% intervals' quantile, for every figure estimated
# What every engine counts as paying (a seat's lives at the round's end below its lives
# at the deal: ``gnav.solve.tree``, ``gnav.odds.batch``, ``gnav.odds.simulated``), in
# the words docs/odds.md, ``gnav odds``, the /odds page and the coach all use (tests
# hold them equal).
PAYS = ("Paying here means ending the round with fewer lives than you started it with: a "
        "life you gain in the same round makes up for one you paid. So a fool that paid a "
        "matador's penalty and then gained a life because two fools were shown has not "
        "paid.")


@dataclass(frozen=True)
class Figure:
    """A probability or a value: exact, or an estimate with its 95% interval."""

    value: float
    low: float | None = None
    high: float | None = None
    n: int = 0  # observations behind an estimate (0: exact)

    @property
    def exact(self) -> bool:
        return self.low is None

    def as_json(self) -> dict[str, float | int | None] | float:
        """A plain number when exact; else the estimate with its interval, ``None``
        where nothing was observed (JSON has no NaN)."""
        if self.low is None or self.high is None:
            return round(self.value, 6)
        if self.n == 0 or math.isnan(self.value):
            return {"value": None, "low": None, "high": None, "n": 0}
        return {"value": round(self.value, 6), "low": round(self.low, 6),
                "high": round(self.high, 6), "n": self.n}

    @classmethod
    def from_json(cls, data: object) -> Figure:
        if isinstance(data, int | float):
            return cls(float(data))
        if isinstance(data, dict):
            if data.get("value") is None:
                return cls(math.nan, math.nan, math.nan, 0)
            return cls(float(data["value"]), float(data["low"]), float(data["high"]),
                       int(data.get("n", 0)))
        raise ValueError(f"not a figure: {data!r}")


@dataclass(frozen=True)
class Cell:
    """One piece dealt at one position."""

    dealt: float  # the chance that this position is dealt this piece
    pay: Figure  # P(pay) playing the policy
    stand: Figure  # P(pay) standing whatever happens (the others play the policy)
    swap: Figure  # P(pay) swapping whenever it may
    swaps: Figure  # how often the policy swaps with this piece dealt here


@dataclass(frozen=True)
class Choice:
    """The policy at one position, one situation, one piece held at the turn."""

    weight: float  # how often this comes up (a share of the position's decisions)
    swap: float  # P(swap)
    pay_stand: Figure
    pay_swap: Figure


@dataclass
class Atlas:
    preset: str
    seats: int
    policy: str
    source: str  # "exact" or "simulated"
    pieces: list[str]  # piece ids, lowest first
    cells: dict[tuple[str, int], Cell]
    values: list[Figure]  # per position: expected change of lives a round
    pay: list[Figure]  # per position: P(pay) in a round
    choices: dict[tuple[int, str, str], Choice]  # (position, situation, piece held)
    rounds: int = 0  # simulated rounds (0: exact)
    note: str = ""  # what actually played, when that is not the policy named
    meta: dict[str, Any] = field(default_factory=dict)

    def threshold(self, position: int, situation: str = "plain") -> str | None:
        """The highest piece the policy swaps (P(swap) at least one half) at
        ``position`` in ``situation``, or None if it swaps nothing there. A choice met
        in fewer than ``RARE`` of the position's decisions is left out: a trained policy
        is barely trained there, a solved strategy's choice there is off the path of
        play, and one such piece would read as "swaps everything"."""
        best: str | None = None
        for piece in self.pieces:
            c = self.choices.get((position, situation, piece))
            if c is not None and c.weight >= RARE and c.swap >= 0.5:
                best = piece
        return best

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "gnav-odds/1", "preset": self.preset, "seats": self.seats,
            "policy": self.policy, "source": self.source, "rounds": self.rounds,
            "note": self.note, "pieces": self.pieces, "meta": self.meta,
            "cells": [{"piece": p, "position": i, "dealt": round(c.dealt, 6),
                       "pay": c.pay.as_json(), "stand": c.stand.as_json(),
                       "swap": c.swap.as_json(), "swaps": c.swaps.as_json()}
                      for (p, i), c in self.cells.items()],
            "values": [f.as_json() for f in self.values],
            "pay": [f.as_json() for f in self.pay],
            "thresholds": {s: [self.threshold(i, s) for i in range(self.seats)]
                           for s in SITUATIONS},
            "choices": [{"position": i, "situation": s, "piece": p,
                         "weight": round(c.weight, 6), "swap": round(c.swap, 6),
                         "pay_stand": c.pay_stand.as_json(),
                         "pay_swap": c.pay_swap.as_json()}
                        for (i, s, p), c in self.choices.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Atlas:
        f = Figure.from_json
        cells = {(c["piece"], int(c["position"])): Cell(
            float(c["dealt"]), f(c["pay"]), f(c["stand"]), f(c["swap"]), f(c["swaps"]))
            for c in data["cells"]}
        choices = {(int(c["position"]), c["situation"], c["piece"]): Choice(
            float(c["weight"]), float(c["swap"]), f(c["pay_stand"]), f(c["pay_swap"]))
            for c in data["choices"]}
        return cls(data["preset"], int(data["seats"]), data["policy"], data["source"],
                   list(data["pieces"]), cells, [f(v) for v in data["values"]],
                   [f(v) for v in data["pay"]], choices, int(data.get("rounds", 0)),
                   str(data.get("note", "")), dict(data.get("meta", {})))


def situation(key: str) -> str:
    """What the public history shows at a seat's turn, from its information set key
    (``gnav.infoset.key_of``): a fool knocked, a matador answered, the seat on the right
    asked this seat (its piece changed hands), other seats swapped, or every seat before
    stood (plain)."""
    head, _, events = key.rpartition("|")
    me = head.split("/", 1)[0]
    codes = [c for c in events.split(",") if c]
    if any(c.startswith("K") for c in codes):
        return "knock"
    if any(c.startswith("R") for c in codes):
        return "matador"
    # A swap whose pieces the seat sees (its own private overlay) that another seat
    # asked for: the seat was the target, its piece changed hands.
    if any(c.startswith("W") and ":" in c and c[1:].split(":", 1)[0] != me
           for c in codes):
        return "asked"
    if any(c.startswith("W") for c in codes):
        return "swaps"
    return "plain"


def wilson(hits: float, n: float) -> Figure:
    """A chance from ``hits`` of ``n`` with Wilson's 95% interval."""
    if n == 0:
        return Figure(math.nan, math.nan, math.nan, 0)
    p = hits / n
    d = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / d
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return Figure(p, max(0.0, centre - half), min(1.0, centre + half), round(n))
