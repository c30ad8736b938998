"""What a decision's figures say, in one place for the coach and the analysis, so that
neither contradicts itself or the other (issue 26).

- **The verdict** (``verdict``): which action the figures favour, read off the gap
  between them (lives if swap minus lives if stand). Exact figures: the larger, or
  ``close`` where they differ by less than half of what the pages print (0.01 lives).
  Sampled figures: the gap's 95% interval, paired on the same deals; ``close`` (too
  close to call) where it holds 0.
- **Why the expert differs** (``why``): where the verdict is clear and the expert's
  choice is not it, the reason, from what the expert plays here: it mixes (``mixed``:
  it takes the other action some of the time), or it plays a
  trained policy (``policy``: one table for a band of table sizes, over a summary of
  the view, so it can give away lives at one exact view), the counter bot (``counter``:
  its own estimate from its own deals) or a solved strategy (``strategy``: an
  approximate equilibrium).
- **The mark** of a decision taken (``mark``): by its cost, the lives the better action
  would have kept on average, and by the interval of that cost: ``good`` only below the
  good threshold, ``close`` (too close to call) where the interval holds 0 and the cost
  is above it, else ``inaccuracy``, ``mistake`` or ``blunder`` by the cost.
- **In the match** (where a match strategy ships for the table, so the figures hold the
  chance to win the match standing and swapping): a decision's **loss** is what it gives
  away of that chance against the better action, in percentage points, read as Lichess
  reads a move (https://lichess.org/page/accuracy): its **accuracy** is
  ``103.1668 * exp(-0.04354 * loss) - 3.1669`` (100 for the better action, held to 0
  to 100), and its mark (``win_mark``) is Lichess's by the drop in winning chances:
  ``inaccuracy`` from 5 points, ``mistake`` from 10, ``blunder`` from 15 (0.1, 0.2 and
  0.3 on its -1 to 1 scale), ``good`` below.
"""

from __future__ import annotations

import math

from gnav.odds.figures import Figure
from gnav.vocab import Action

PRINTED = 0.01  # the pages print lives to two decimals
MIXED = 0.02  # the expert mixes where it swaps with a chance strictly between this and 1-it
# Marks by the cost in lives: each holds the costs below its threshold.
MARKS = (("good", 0.02), ("inaccuracy", 0.05), ("mistake", 0.15), ("blunder", float("inf")))
GOOD = MARKS[0][1]
CLOSE = "close"  # too close to call
WHYS = ("mixed", "policy", "counter", "strategy")


def verdict(gain: Figure) -> str:
    """``swap``, ``stand`` or ``close``, from ``gain`` (lives if swap minus if stand)."""
    if gain.low is None or gain.high is None:
        if abs(gain.value) < PRINTED / 2:
            return CLOSE
        return str(Action.SWAP if gain.value > 0 else Action.STAND)
    if gain.low > 0.0:
        return str(Action.SWAP)
    if gain.high < 0.0:
        return str(Action.STAND)
    return CLOSE


def mixes(expert_swap: float) -> bool:
    return MIXED < expert_swap < 1.0 - MIXED


def why(said: str, expert: Action, expert_swap: float, plays: str) -> str | None:
    """Why the expert's choice is not the verdict ``said`` (None where it is, or where
    the verdict is ``close``: the headline says so, and either choice fits it).
    ``plays``: ``policy``, ``counter`` or ``strategy``."""
    if said == CLOSE:
        return None
    if mixes(expert_swap):
        return "mixed"
    return None if said == str(expert) else plays


def mark(cost: float, low: float | None = None) -> str:
    """The mark of a decision that cost ``cost`` lives (the better action's expected
    lives minus the taken one's, at least 0), ``low`` the low end of the 95% interval
    of that difference where it was sampled."""
    if cost < GOOD:
        return MARKS[0][0]
    if low is not None and low <= 0.0:
        return CLOSE
    for name, below in MARKS:
        if cost < below:
            return name
    return MARKS[-1][0]


# Marks by the loss in percentage points of the chance to win the match (Lichess's).
WIN_MARKS = (("good", 5.0), ("inaccuracy", 10.0), ("mistake", 15.0),
             ("blunder", float("inf")))


def accuracy(loss: float) -> float:
    """Lichess's accuracy (0 to 100) of a move that gave away ``loss`` percentage points
    of the chance to win."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def win_mark(loss: float) -> str:
    """The mark of a decision that gave away ``loss`` percentage points of the chance to
    win the match (Lichess's thresholds)."""
    for name, below in WIN_MARKS:
        if loss < below:
            return name
    return WIN_MARKS[-1][0]
