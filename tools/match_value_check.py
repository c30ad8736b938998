"""The match-value model (``gnav.match_value``) held to what it models (issue 29):

    python tools/match_value_check.py solved          # the solved match files, state by state
    python tools/match_value_check.py mc --seats 6 --matches 20000 [--law measured]
    python tools/match_value_check.py laws --seats 6 --matches 60000 --gains 0,0.03,0.06

``solved`` reads every shipped match file of gnav (2 and 3 seats; the solver's values,
each seat's chance to win under the solved match play) and gives, per state, the model's
chance beside the solver's. ``mc`` plays whole matches of the shipped expert on the batch
engine and, for every lives state met at a round's start (the lives of the seats still
in, as a multiset) and every lives value in it, the share of the seats at that value that
went on to win, beside the model's chance: where it is off, by how much, and how sure
(the binomial standard error of the share). ``laws`` does the same for several laws (one
life a round, with a gain that often instead), over the pairs seen ``--seen`` times or
more: the error beyond the noise and the leader's lean. Figures for docs/strategy.md.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

import numpy as np

from gnav.fast.expert import ExpertPolicy
from gnav.fast.lifestates import RoundStarts, measured_law, round_starts
from gnav.match_value import ONE_LIFE, LifeLaw, win_chances
from gnav.strategies.match import load_match, shipped_match_files

Pair = tuple[tuple[int, ...], int]  # a lives state (the seats in, sorted), a lives value


def _tally(starts: RoundStarts) -> tuple[dict[Pair, float], dict[Pair, int]]:
    """For every (state, lives value) met at a round's start: the wins of the seats there
    (a shared win counts its share) and how many seat-rounds met it."""
    wins: dict[Pair, float] = defaultdict(float)
    seen: dict[Pair, int] = defaultdict(int)
    result = starts.result[starts.match]
    for row in range(len(starts.match)):
        lv = starts.lives[row]
        alive = tuple(sorted(int(v) for v in lv if v > 0))
        if len(alive) < 2:
            continue
        for s in np.flatnonzero(lv > 0):
            key = (alive, int(lv[s]))
            wins[key] += float(result[row, s])
            seen[key] += 1
    return wins, seen


def solved() -> None:
    for path in shipped_match_files():
        if not (path.name.startswith("gnav-2") or path.name.startswith("gnav-3")):
            continue
        strategy = load_match(str(path))
        worst, total, count, worst_plain = 0.0, 0.0, 0, 0.0
        below: list[float] = []
        shares: list[float] = []
        print(f"\n{path.name}: {len(strategy.states)} states")
        for (lives, out, sitting), (values, _) in sorted(strategy.states.items()):
            alive = [0 if c in out else v for c, v in enumerate(lives)]
            model = win_chances(alive)
            err = max(abs(a - b) for a, b in zip(model, values, strict=True))
            total += err
            count += 1
            worst = max(worst, err)
            if not sitting:
                worst_plain = max(worst_plain, err)
            if max(lives) < strategy.cap:
                below.append(err)
                shares.append(max(abs(v / sum(alive) - b)
                                  for v, b in zip(alive, values, strict=True)))
            print(f"  lives {lives} out {out} sitting {sitting}: solved "
                  f"{' '.join(f'{v:.4f}' for v in values)}  model "
                  f"{' '.join(f'{v:.4f}' for v in model)}  off {err:.4f}")
        print(f"  largest error {worst:.4f} (states nobody sits out: {worst_plain:.4f}), "
              f"mean of each state's largest {total / count:.4f}")
        if below:
            print(f"  {len(below)} states below the cap {strategy.cap}: largest "
                  f"{max(below):.4f}, mean {sum(below) / len(below):.4f}; lives' shares "
                  f"(v / total) largest {max(shares):.4f}, mean {sum(shares) / len(shares):.4f}")

def mc(seats: int, matches: int, seed: int, law_name: str, least: int) -> None:
    from gnav.rules import Rules
    rules = Rules.of("gnav")
    begin = time.process_time()
    starts = round_starts(rules, seats, matches, [ExpertPolicy(rules, seats)],
                          rng=np.random.default_rng(seed))
    cpu = time.process_time() - begin
    law = ONE_LIFE if law_name == "one" else measured_law(starts)
    print(f"{seats} seats, {matches} matches, {len(starts.match)} rounds, "
          f"{cpu:.1f} s CPU to play; law {law.steps}")
    shared = float((starts.result.max(1) < 1).mean())
    print(f"matches ending in a shared win: {shared:.4f}")
    by_seat = starts.result.mean(0)
    print("each seat's share of the wins (seat 0 deals first; the model: "
          f"{1 / seats:.4f} each): {' '.join(f'{x:.4f}' for x in by_seat)} "
          f"(standard error {math.sqrt(by_seat.mean() * (1 - by_seat.mean()) / matches):.4f})")
    wins, seen = _tally(starts)
    rows = []
    plain = 0.0
    for key, n in seen.items():
        share = wins[key] / n
        state, v = key
        model = win_chances((v, *_without(state, v)), law)[0]
        se = math.sqrt(max(share * (1 - share), 1e-12) / n)
        rows.append((key, n, share, model, se))
        plain += n * abs(share - v / sum(state))
    weighted = sum(n * abs(share - model) for _, n, share, model, _ in rows) / \
        sum(n for _, n, *_ in rows)
    sure = [r for r in rows if r[1] >= least]
    # What the mean would be from sampling alone, were the model exact: E|N(0, se)|.
    floor = sum(n * se * math.sqrt(2 / math.pi) for _, n, _, _, se in rows) / \
        sum(n for _, n, *_ in rows)
    print(f"noise alone would give a mean |off| of about {floor:.4f}")
    # The model's own error beyond the noise: mean square of off less that of the noise.
    weight = sum(n for _, n, *_ in rows)
    excess = sum(n * ((share - model) ** 2 - se ** 2) for _, n, share, model, se in rows)
    print(f"root mean square of the error beyond noise: "
          f"{math.sqrt(max(0.0, excess / weight)):.4f}")
    print(f"{len(rows)} (state, lives) pairs; mean |model - share| weighted by seat-rounds "
          f"{weighted:.4f} (lives' shares, v / total: "
          f"{plain / sum(n for _, n, *_ in rows):.4f})")
    z = sorted(sure, key=lambda r: -abs(r[2] - r[3]))
    print(f"the largest errors among pairs seen {least}+ times (state, lives: seat-rounds, "
          f"share, model, off, standard error):")
    for (state, v), n, share, model, se in z[:12]:
        print(f"  {state} at {v}: {n}  {share:.4f}  {model:.4f}  {share - model:+.4f}  "
              f"{se:.4f}")
    big = [r for r in sure if abs(r[2] - r[3]) > 3 * r[4]]
    print(f"pairs off by more than 3 standard errors: {len(big)} of {len(sure)}")
    # Which way it leans: seats with the most lives of their state, and the fewest.
    for name, pick in (("the most lives", max), ("the fewest", min)):
        chosen = [(n, share - model, se) for (state, v), n, share, model, se in rows
                  if v == pick(state) and min(state) != max(state)]
        w = sum(n for n, _, _ in chosen)
        lean = sum(n * off for n, off, _ in chosen) / w
        print(f"seats with {name} in their state: share - model {lean:+.4f} on average "
              f"({w} seat-rounds)")
    by_seats: dict[int, list[float]] = defaultdict(list)
    for (state, _), n, share, model, _ in sure:
        by_seats[len(state)].extend([abs(share - model)] * n)
    for k in sorted(by_seats):
        print(f"  {k} seats in: mean |off| {np.mean(by_seats[k]):.4f}")

def laws(seats: int, matches: int, seed: int, gains: list[float], seen_least: int) -> None:
    from gnav.rules import Rules
    rules = Rules.of("gnav")
    starts = round_starts(rules, seats, matches, [ExpertPolicy(rules, seats)],
                          rng=np.random.default_rng(seed))
    wins, seen = _tally(starts)
    keys = [k for k, n in seen.items() if n >= seen_least]
    print(f"{seats} seats, {matches} matches: {len(keys)} pairs seen {seen_least}+ times")
    for gain in gains:
        law = ONE_LIFE if gain == 0 else LifeLaw(((-1, 1 - gain), (1, gain)))
        square, weight, lean, lean_weight = 0.0, 0, 0.0, 0
        for state, v in keys:
            n = seen[(state, v)]
            share = wins[(state, v)] / n
            model = win_chances((v, *_without(state, v)), law)[0]
            square += n * ((share - model) ** 2 - max(share * (1 - share), 1e-12) / n)
            weight += n
            if v == max(state) and min(state) != max(state):
                lean += n * (share - model)
                lean_weight += n
        print(f"  a gain {gain:.0%} of the time: beyond the noise (RMS) "
              f"{math.sqrt(max(0.0, square / weight)):.4f}, the leader's share - model "
              f"{lean / lean_weight:+.4f}")


def _without(state: tuple[int, ...], v: int) -> tuple[int, ...]:
    rest = list(state)
    rest.remove(v)
    return tuple(rest)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python tools/match_value_check.py",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("solved", "mc", "laws"))
    parser.add_argument("--seats", type=int, default=6, help="mc, laws: seats at the table")
    parser.add_argument("--matches", type=int, default=None,
                        help="mc, laws: matches played (default 20,000 and 60,000)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--law", choices=("one", "measured"), default="one",
                        help="mc: one life a round, or the steps the field's play makes")
    parser.add_argument("--least", type=int, default=2000,
                        help="mc: the pairs seen this often are listed")
    parser.add_argument("--gains", default="0,0.03,0.04,0.06",
                        help="laws: the chances of a life gained, comma-separated")
    parser.add_argument("--seen", type=int, default=200,
                        help="laws: the pairs seen this often are counted")
    args = parser.parse_args()
    if not 2 <= args.seats <= 41:
        parser.error(f"--seats must be 2 to 41, not {args.seats}")
    if args.matches is not None and args.matches < 1:
        parser.error(f"--matches must be at least 1, not {args.matches}")
    try:
        gains = [float(x) for x in args.gains.split(",")]
    except ValueError:
        parser.error(f"--gains is chances separated by commas, not {args.gains!r}")
    if any(not 0 <= g < 1 for g in gains):
        parser.error(f"--gains are chances from 0 up to 1, not {args.gains!r}")
    if args.what == "solved":
        solved()
    elif args.what == "laws":
        laws(args.seats, args.matches or 60_000, args.seed, gains, args.seen)
    else:
        mc(args.seats, args.matches or 20_000, args.seed, args.law, args.least)


if __name__ == "__main__":
    main()
