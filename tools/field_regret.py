"""Where expert gains and loses against a field, by abstract key.

    python tools/field_regret.py [--preset gnav] [--seats 41] [--field counter]
                                 [--rounds 4000] [--seed 1] [--jobs 2] [--top 20]

Each round on the reference engine puts expert at one position drawn at random, the field
everywhere else. At expert's decision both actions are played out to the round's end
(the field deciding from its views, on the same random numbers), unless expert and the
field's bot would both take the same action for certain there. Summed by expert's
abstract key: (P_expert(swap) − P_field(swap)) × (value of swap − value of stand) is what
playing expert's choice instead of the field's own gains there. The total, over rounds,
is the decision's share of ``gnav simulate --field F --challenger expert``'s difference
(that also counts what expert's choice changes in the field's later play). The keys
where expert loses most are printed first: what found the two holes of the 41-seat
policy (docs/strategy.md, "41 seats"). Slow (the field's bot plays every turn of both
lines): a developer tool, not part of the installed package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random

import oneline
from gnav.abstraction import Layout
from gnav.rules import Rules
from gnav.train.exploit import both_values, field_of, to_decision
from gnav.train.play import Tracker, deal

# key -> [decisions, sum of (v_swap - v_stand), sum of P_expert(swap), sum of P_field(swap),
#         sum of (P_expert - P_field) * (v_swap - v_stand)]
Sums = dict[int, list[float]]
SURE = 0.001  # below this (or above 1 - this) a choice is taken as certain


def shard(job: tuple[str, int, str, int, int, int]) -> Sums:
    preset, seats, spec, rounds, seed, index = job
    rules = Rules.of(preset)
    field, _ = field_of(spec, rules, seats, seed)
    expert, _ = field_of("expert", rules, seats, seed)
    rng = Random(f"{seed}/{index}")
    out: Sums = {}
    for _ in range(rounds):
        state, u = deal(rules, seats, rng)
        me = rng.randrange(seats)
        at = to_decision(state, Tracker(seats, state.public), u, field, me)
        if at is None:
            continue
        state, tracker = at
        pe = expert(state, me, tracker)
        pf = field(state, me, tracker)
        row = out.setdefault(tracker.key(state, me), [0.0] * 5)
        row[0] += 1
        row[2] += pe
        row[3] += pf
        if (pe < SURE and pf < SURE) or (pe > 1 - SURE and pf > 1 - SURE):
            continue  # the same certain choice: nothing to tell them apart
        stand, swap = both_values(state, tracker, u, field)
        row[1] += swap - stand
        row[4] += (pe - pf) * (swap - stand)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/field_regret.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="gnav")
    p.add_argument("--seats", type=int, default=41)
    p.add_argument("--field", default="counter")
    p.add_argument("--rounds", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--top", type=int, default=20, help="keys shown each way")
    args = p.parse_args(argv)
    shards = 8
    per = [args.rounds // shards + (i < args.rounds % shards) for i in range(shards)]
    jobs = [(args.preset, args.seats, args.field, n, args.seed, i) for i, n in enumerate(per)]
    total: Sums = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(shard, jobs):
            for key, row in part.items():
                acc = total.setdefault(key, [0.0] * 5)
                for i, x in enumerate(row):
                    acc[i] += x
    gain = sum(row[4] for row in total.values()) / args.rounds
    print(f"{args.preset}, {args.seats} seats, expert at one seat of a field of {args.field}, "
          f"{args.rounds:,} rounds: expert's choice gains {gain:+.5f} lives a round over "
          f"the field's at expert's own decisions")
    print("| key | decisions | mean swap - stand (0 where both were sure) | P(swap) expert | "
          "P(swap) field | lives a round |")
    print("|---|---|---|---|---|---|")
    # Where expert loses most, then where it gains most: keys that tell the two apart.
    apart = sorted((kv for kv in total.items() if kv[1][4] != 0), key=lambda kv: kv[1][4])
    shown = [kv for kv in apart[:args.top] if kv[1][4] < 0] + \
        [kv for kv in apart[::-1][:args.top] if kv[1][4] > 0]
    layout = Layout.of(Rules.of(args.preset))
    for key, row in shown:
        n = row[0]
        print(f"| `{layout.text(key)}` | {n:,.0f} | {row[1] / n:+.3f} | {row[2] / n:.2f} | "
              f"{row[3] / n:.2f} | {row[4] / args.rounds:+.5f} |")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/field_regret.py"))
