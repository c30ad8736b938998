"""The ``gnav analyse`` command: every decision of a finished match against the expert.

Standard library only (the exact figures are shipped tables; elsewhere the coach
samples).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from gnav.cli.common import add_json
from gnav.errors import GnavError, MalformedError

if TYPE_CHECKING:
    from gnav.odds.analyse import Decision
    from gnav.odds.coach import Advice
    from gnav.views import SeatView


def register(sub: Any) -> None:
    """Add ``analyse`` to the ``gnav`` parser."""
    s = sub.add_parser(
        "analyse", help="each decision of a match against the expert, from views only",
        description="For every decision with a choice: the expert's choice and the "
                    "expected cost in lives of the decision taken against the better "
                    "one, given only what that seat saw; marks (good < 0.02 lives, "
                    "inaccuracy < 0.05, mistake < 0.15, blunder); each seat's total and "
                    "luck. Exact where a solved strategy ships, sampled elsewhere. Where "
                    "a match strategy ships (2 seats, chase-the-ace at 3), also the "
                    "chance to win the match standing and swapping, the points given "
                    "away and Lichess's accuracy.")
    s.add_argument("record", metavar="RECORD", help="a game record (gnav play saves one)")
    add_json(s, "print the analysis as one JSON object")
    s.add_argument("--all", action="store_true",
                   help="list every decision, not only the inaccuracies and worse")
    s.add_argument("--samples", type=int, default=None,
                   help="a fixed number of deals per decision where the figures are not "
                        "exact (default: as the coach, as many as the gap needs)")
    s.set_defaults(func=cmd_analyse)


# Why the expert's choice differs from the figures' verdict (gnav.odds.verdict.why).
WHY = {"mixed": "it mixes here", "policy": "its trained policy decides from a summary of "
       "the table", "counter": "it plays counter here, from its own smaller sample",
       "strategy": "the solved strategy is approximate"}


def _advise_all(views: Sequence[SeatView], *, samples: int | None,
                bar: TextIO | None) -> list[Advice | None]:
    """The coach's figures for each view, with a progress bar on ``bar`` where some are
    sampled (a long match takes minutes)."""
    from gnav.odds.analyse import sampled
    from gnav.odds.coach import advise
    from gnav.tui.progress import ProgressBar

    costly = sum(1 for v in views if sampled(v))
    show = ProgressBar(bar, "decisions") if bar is not None and costly else None
    out: list[Advice | None] = []
    for i, view in enumerate(views, 1):
        out.append(advise(view, samples=samples))
        if show is not None:
            show(i, len(views))
    if show is not None:
        show.close()
    return out


def _in_match(d: Decision) -> str:
    """A decision's figures in the match, where they are known: the chance to win
    standing and swapping (``by lives``: the lives model's, where no match strategy
    ships), the points given away, Lichess's accuracy and mark."""
    a = d.advice
    loss, acc, said = d.win_loss, d.accuracy, d.win_mark
    if a.win_stand is None or a.win_swap is None or loss is None or acc is None:
        return ""
    by = " by lives" if a.win_source == "model" else ""
    return (f"; win{by} {100 * a.win_stand:.1f}% / {100 * a.win_swap:.1f}%, lost "
            f"{loss:.1f} points, accuracy {acc:.0f}% ({said})")


def cmd_analyse(args: argparse.Namespace) -> int:
    from gnav.odds.analyse import analyse
    from gnav.odds.verdict import CLOSE
    from gnav.record import loads

    if args.samples is not None and args.samples < 1:
        raise GnavError(f"--samples must be at least 1, not {args.samples}")
    path = Path(args.record)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise MalformedError(f"{path}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise MalformedError(f"{path}: not a text file") from None
    record = loads(text)
    result = analyse(record, advisor=partial(_advise_all, samples=args.samples,
                                             bar=None if args.json else sys.stderr))
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    names = result.names
    how = "exact (solved strategy)" if result.exact else \
        "sampled where no solved strategy ships (95% intervals)"
    print(f"{path.name}: {len(result.decisions)} decisions with a choice; figures {how}")
    print("(a finished match's record shows every deal; each figure uses only what the "
          "deciding seat saw)")
    print()
    for d in result.decisions:
        if not args.all and d.mark == "good" and d.win_mark in (None, "good"):
            continue
        a = d.advice
        gain = a.swap_gain
        interval = "" if gain.low is None or gain.high is None else \
            f" (swap − stand {gain.value:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}])"
        mark = "too close to call" if d.mark == CLOSE else d.mark
        why = "" if a.why is None else f"; the expert differs: {WHY[a.why]}"
        print(f"round {d.round:>3}  {names[d.seat]:<12} held {d.piece:<8} "
              f"{d.action!s:<5}  expert: {a.expert!s:<5}  cost {d.cost:.3f}  "
              f"{mark}{' (coached)' if d.coached else ''}{interval}{why}{_in_match(d)}")
    print()
    match = any(t.accuracy is not None for t in result.totals)
    print(f"{'seat':<12} {'decisions':>9} {'cost':>7} {'lost':>5} {'luck':>7}  "
          f"{'accuracy  ' if match else ''}marks")
    for s, t in enumerate(result.totals):
        marks = ", ".join(f"{k} {v}" for k, v in t.marks.items() if v)
        acc = "" if not match else "       -  " if t.accuracy is None else \
            f"{t.accuracy:>7.1f}%  "
        print(f"{names[s]:<12} {t.decisions:>9} {t.cost:>7.3f} {t.lost:>5} "
              f"{t.luck:>+7.2f}  {acc}{marks}")
    print()
    if match:
        print("win: the chance to win the match standing / swapping, the match strategy "
              "played from there on; win by lives: where no match strategy ships, the "
              "round played out from what the seat saw and the lives after it valued as "
              "if each later round one seat still in loses a life; lost: points of it "
              "given away against the better choice; accuracy and its mark as Lichess "
              "reads a move (inaccuracy from 5 points, mistake from 10, blunder from 15)")
    print("too close to call: the cost is above 0.02 lives, but the 95% interval of the "
          "gap between the actions holds 0")
    print("cost: expected lives given away by the seat's own decisions; luck: lives the "
          "rounds brought minus what its decisions were expected to bring (positive: "
          "lucky; rounds without a choice count whole)")
    return 0
