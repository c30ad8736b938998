"""The ``gnav analyse`` command: every decision of a finished match against the expert.

Standard library only (the exact figures are shipped tables; elsewhere the coach
samples).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gnav.cli.common import add_json
from gnav.errors import GnavError, MalformedError


def register(sub: Any) -> None:
    """Add ``analyse`` to the ``gnav`` parser."""
    s = sub.add_parser(
        "analyse", help="each decision of a match against the expert, from views only",
        description="For every decision with a choice: the expert's choice and the "
                    "expected cost in lives of the decision taken against the better "
                    "one, given only what that seat saw; marks (good < 0.02 lives, "
                    "inaccuracy < 0.05, mistake < 0.15, blunder); each seat's total and "
                    "luck. Exact where a solved strategy ships, sampled elsewhere.")
    s.add_argument("record", metavar="RECORD", help="a game record (gnav play saves one)")
    add_json(s, "print the analysis as one JSON object")
    s.add_argument("--all", action="store_true",
                   help="list every decision, not only the inaccuracies and worse")
    s.add_argument("--samples", type=int, default=None,
                   help="deals sampled per decision where the figures are not exact "
                        "(default 128)")
    s.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    from gnav.odds.analyse import analyse
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
    result = analyse(record, samples=args.samples)
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
        if not args.all and d.mark == "good":
            continue
        a = d.advice
        gain = a.swap_gain
        interval = "" if gain.low is None or gain.high is None else \
            f" (swap − stand {gain.value:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}])"
        print(f"round {d.round:>3}  {names[d.seat]:<12} held {d.piece:<8} "
              f"{d.action!s:<5}  expert: {a.expert!s:<5}  cost {d.cost:.3f}  "
              f"{d.mark}{' (coached)' if d.coached else ''}{interval}")
    print()
    print(f"{'seat':<12} {'decisions':>9} {'cost':>7} {'lost':>5} {'luck':>7}  marks")
    for s, t in enumerate(result.totals):
        marks = ", ".join(f"{k} {v}" for k, v in t.marks.items() if v)
        print(f"{names[s]:<12} {t.decisions:>9} {t.cost:>7.3f} {t.lost:>5} "
              f"{t.luck:>+7.2f}  {marks}")
    print()
    print("cost: expected lives given away by the seat's own decisions; luck: lives the "
          "rounds brought minus what its decisions were expected to bring (positive: "
          "lucky; rounds without a choice count whole)")
    return 0
