"""``python tools/coach_figures.py analyse|coach [--seats N] [--matches M]``: the figures
of the coach and the analysis (issue 19's note).

- ``analyse``: M matches of gnav at N seats where seat 1 plays the expert, seat 2 plays
  at random and the others play the sources' tips (3 seats) or the expert (more), each
  analysed by ``gnav.odds.analyse``; the expected lives each of the first two lost to
  its own decisions, with the sampling error stated where the figures are sampled (95%,
  from each costly decision's paired interval).
- ``coach``: the coach's CPU per decision (``gnav.odds.coach.answer``, this thread's
  CPU) at 3, 4, 6, 10, 20 and 41 seats of gnav (or ``--seats N`` alone), 30 decisions
  each (``--decisions``).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from random import Random

import gnav
import oneline
from gnav.match import MatchState
from gnav.odds.analyse import analyse
from gnav.odds.coach import answer
from gnav.record import dumps, from_match, loads
from gnav.rules import Rules
from gnav.views import seat_view


def analysed(seats: int, matches: int, lives: int) -> None:
    others = "threshold" if seats == 3 else "expert"
    names = ["Expert", "Random"] + [f"O{i}" for i in range(seats - 2)]
    cost = [0.0, 0.0]
    var = [0.0, 0.0]
    count = [0, 0]
    exact = True
    for m in range(matches):
        rules = Rules.of("gnav", lives=lives)
        bots = [gnav.make_bot("expert", seed=m), gnav.RandomBot(seed=1000 + m)] + \
            [gnav.make_bot(others, seed=50 + i + 100 * m) for i in range(seats - 2)]
        record = loads(dumps(from_match(gnav.play_match(rules, names, bots, seed=m))))
        result = analyse(record)
        exact = exact and result.exact
        for d in result.decisions:
            if d.seat > 1:
                continue
            cost[d.seat] += d.cost
            count[d.seat] += 1
            gain = d.advice.gain
            if gain is not None and gain.low is not None and gain.high is not None \
                    and d.cost > 0:
                var[d.seat] += ((gain.high - gain.low) / (2 * 1.96)) ** 2
    print(f"gnav, {seats} seats, {matches} matches of {lives} lives: seat 1 the expert, "
          f"seat 2 random, the others {others}; figures {'exact' if exact else 'sampled'}")
    for s in (0, 1):
        error = "" if exact else f" ±{1.96 * math.sqrt(var[s]):.3f} (95%, sampling)"
        print(f"  {names[s]}: {count[s]} decisions, {cost[s]:.3f} lives lost to its own "
              f"decisions ({cost[s] / max(count[s], 1):.4f} a decision){error}")


COACH_SEATS = (3, 4, 6, 10, 20, 41)


def coach_cost(seats: int, decisions: int = 30) -> None:
    rules = Rules.of("gnav")
    rng = Random(seats)
    cpu: list[float] = []
    sources: set[str] = set()
    while len(cpu) < decisions:
        match = MatchState.new(rules, [f"s{i}" for i in range(seats)],
                               dealer=seats - 1).deal(rng=rng)
        for _ in range(rng.randrange(seats)):  # a few stands in, so the views vary
            if match.to_act is None or gnav.STAND not in match.legal_actions():
                break
            match, _ = match.apply(gnav.STAND)
        if match.to_act is None:
            continue
        view = seat_view(match, match.to_act)
        if len(view.legal) < 2:
            continue
        got = answer(view)
        advice = got["advice"]
        assert isinstance(advice, dict)
        sources.add(str(advice["source"]))
        ms = got["cpu_ms"]
        assert isinstance(ms, float)
        cpu.append(ms)
    print(f"  {seats} seats ({'/'.join(sorted(sources))}): median "
          f"{statistics.median(cpu):.2f} ms, first {cpu[0]:.2f} ms, most {max(cpu):.2f} ms "
          f"CPU over {decisions} decisions")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/coach_figures.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("what", choices=("analyse", "coach"))
    parser.add_argument("--seats", type=int, default=None,
                        help="analyse: seats (default 3); coach: only this size "
                             f"(default {', '.join(map(str, COACH_SEATS))})")
    parser.add_argument("--matches", type=int, default=20, help="analyse: matches")
    parser.add_argument("--lives", type=int, default=6, help="analyse: lives a match")
    parser.add_argument("--decisions", type=int, default=30, help="coach: decisions a size")
    args = parser.parse_args(argv)
    if args.seats is not None:
        Rules.of("gnav").check_seats(args.seats)  # a GnavError: one line (oneline.run)
    if args.what == "analyse":
        analysed(args.seats or 3, args.matches, args.lives)
    else:
        if args.decisions < 1:
            parser.error("--decisions must be at least 1")
        print("the coach's CPU per decision (gnav.odds.coach.answer):")
        for seats in (args.seats,) if args.seats else COACH_SEATS:
            coach_cost(seats, args.decisions)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/coach_figures.py"))
