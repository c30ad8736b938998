"""Which lives features earn their place in a match policy's key (issue 29 §2), measured
against the exact match values with no training: the solved match strategy projected
onto the round's abstraction keyed by more or fewer lives features, and each
projection's exact match NashConv in win probability.

    python tools/match_features.py [TABLE ...] [--features NAME,...] [--json]

A TABLE is a shipped match strategy (``gnav-3-lives2``, the default) or a file of
``gnav solve --match --out FILE`` (gnav at 3 seats and 1 life, chase-the-ace at 4 seats
and 1 life: neither ships). At each merged key the projection plays the mean P(swap) of
the sets it merges, weighted by how often a match from the start reaches each
(``gnav.train.lives_features.project``). The rows, coarsest first: ``none`` (a lives-blind
round policy), ``own`` lives, ``own+left`` (the left neighbour's), ``own+left+right``
(the class of ``gnav.lives_class``), ``own+left3+right3`` (the class with the
neighbours read to 3 and more), ``every-seat`` (every seat's lives) and ``state`` (the
state itself: the floor the round's abstraction leaves). Beside them the
solved match strategy as the file holds it, and the shipped round strategy (the
equilibrium in lives) played at every state. ``--cfr N``: CFR+ with the sets merged
by each key instead (``gnav.train.lives_features.merged_cfr``: the best each key does,
roughly). Each line says its CPU time: tens of seconds a table at 3 seats, minutes at 4
or with ``--cfr``; a command, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import oneline
from gnav.errors import GnavError
from gnav.strategies import shipped
from gnav.strategies.match import MATCH_HERE, load_match
from gnav.train.exact_match import measure, solved
from gnav.train.lives_features import FEATURE_SETS, merged_cfr, projection_conv


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/match_features.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tables", nargs="*", default=["gnav-3-lives2"], metavar="TABLE",
                   help="shipped match tables (gnav-3-lives2) or match strategy files")
    p.add_argument("--features", default=",".join(FEATURE_SETS),
                   help="the feature sets to project onto, comma-separated (default all: "
                        + ", ".join(FEATURE_SETS) + ")")
    p.add_argument("--cfr", type=int, default=0, metavar="N",
                   help="N iterations of CFR+ on the merged keys (the solved match's "
                        "continuation values held fixed) in place of each projection")
    p.add_argument("--only-seats", type=int, default=None, metavar="N",
                   help="project only the rounds of N active seats, the others playing "
                        "the solved match strategy (at 3 seats: the 2-seat endgame "
                        "exact, as a policy of the 3-seat band is checked)")
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    args = p.parse_args(argv)
    features = [f.strip() for f in args.features.split(",")]
    if args.only_seats is not None and args.cfr:
        raise GnavError("--only-seats projects: it goes without --cfr")
    if args.cfr < 0:
        raise GnavError(f"--cfr must be 0 (projections) or more, not {args.cfr}")
    unknown = [f for f in features if f not in FEATURE_SETS]
    if unknown:
        raise GnavError(f"no feature set {unknown[0]!r} (known: {', '.join(FEATURE_SETS)})")
    for table in args.tables:
        path = table if table.endswith((".json", ".json.gz")) \
            else str(MATCH_HERE / f"{table}.json.gz")
        if not os.path.exists(path):
            raise GnavError(f"no match table {table!r}: a shipped one "
                            f"({MATCH_HERE.name}/NAME.json.gz) or a file of "
                            f"gnav solve --match --out")
        _table(table, path, features, args.cfr, args.only_seats, args.json)
    return 0


def _table(table: str, path: str, features: list[str], cfr: int, only: int | None,
           as_json: bool) -> None:
    from gnav.solve.match_export import rules_of, sigma_of

    start = time.process_time()
    strategy = load_match(path)
    solver, strategies = solved(strategy)
    conv, gains, _ = measure(solver, strategies)
    head = {"table": table, "preset": strategy.preset, "seats": strategy.seats,
            "lives": strategy.lives, "cap": strategy.cap, "states": len(solver.states)}
    _say(head, "the solved match strategy", None, conv, list(gains),
         time.process_time() - start, as_json)
    rules = rules_of(strategy)
    rounds = {}
    for m in sorted(solver.tables):
        plain = shipped(rules, m)
        rounds[m] = sigma_of(solver.table(m).game, (lambda key: None) if plain is None
                             else plain.swap_probability)[0]
    start = time.process_time()
    conv, gains, _ = measure(solver, [rounds[len(s.positions)] for s in solver.states])
    _say(head, "the round strategy (in lives) at every state", None, conv, list(gains),
         time.process_time() - start, as_json)
    fixed = None if only is None else (
        lambda k: None if len(solver.states[k].positions) == only else strategies[k])
    for name in features:
        start = time.process_time()
        if cfr:
            got, keys, _ = merged_cfr(solver, strategies, FEATURE_SETS[name], cfr)
            what = f"CFR+ on merged keys ({cfr} iterations): lives features {name}"
        else:
            got, keys = projection_conv(solver, strategies, FEATURE_SETS[name],
                                        fixed=fixed)
            what = f"projected: lives features {name}" + (
                f" (rounds of {only} seats; the others as solved)" if only else "")
        _say(head, what, keys, got.nash_conv,
             list(got.gains), time.process_time() - start, as_json)


def _say(head: dict[str, Any], what: str, keys: int | None, conv: float,
         gains: list[float], cpu: float, as_json: bool) -> None:
    if as_json:
        print(json.dumps({**head, "what": what, "keys": keys, "nash_conv": conv,
                          "gains": gains, "cpu_seconds": round(cpu, 1)}), flush=True)
        return
    print(f"{head['table']} ({head['seats']} seats, {head['lives']} lives, "
          f"{head['states']} states): {what}"
          + (f", {keys:,} keys" if keys is not None else "")
          + f": match NashConv {conv:.2e} (gains "
          + ", ".join(f"{g:.1e}" for g in gains) + f", dealer first; {cpu:.1f} s CPU)",
          flush=True)


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/match_features.py"))
