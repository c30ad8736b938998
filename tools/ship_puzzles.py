"""``python tools/ship_puzzles.py [--tables PRESET-SEATS ...] [--out DIR]``: the puzzles
that ship with gnav, made again.

For each (preset, seats) of ``TABLES``, ``MATCHES`` seeded matches of a random bot, a
threshold bot and counter bots (the random bot's blunders make plain puzzles, the others'
close calls harder ones) are played; their records are bundled into
``src/gnav/learn/data/puzzle-records.json.gz`` (the test that re-checks every shipped
puzzle replays them) and cut as ``gnav puzzles`` cuts (``gnav.learn.puzzles.cut``) into
``src/gnav/learn/data/puzzles.json.gz``. Prints how many puzzles from how many decisions,
and their margins. Twenty seconds of CPU; run it under ``nice -n 10``. ``--tables``
makes some tables' only and ``--out`` writes elsewhere (a test makes one table's and
compares it with what ships: each table's matches are seeded by its own name).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import gnav
import oneline
from gnav.learn.puzzles import RECORDS, SHIPPED, cut, dump
from gnav.record import dumps, from_match, loads
from gnav.seeds import derive
from strategy_tables import table_name

TABLES = (("gnav", 3), ("gnav", 4), ("gnav-1917", 4), ("hypp", 3), ("gnav", 6))
MATCHES = 3
LIVES = 3


def matches(seed: int, tables: Sequence[tuple[str, int]] = TABLES) -> dict[str, str]:
    """The records, by name, of every table's seeded matches."""
    out = {}
    for preset, seats in tables:
        rules = gnav.Rules.of(preset, lives=LIVES)
        for m in range(MATCHES):
            s = derive(seed, preset, seats, m)
            kinds = ["random", "threshold", *["counter"] * (seats - 2)]
            bots = [gnav.make_bot(k, seed=derive(s, i)) for i, k in enumerate(kinds)]
            names = [f"{k.capitalize()} {i + 1}" for i, k in enumerate(kinds)]
            final = gnav.play_match(rules, names, bots, seed=s)
            out[f"{preset}-{seats}-{m}.json"] = dumps(from_match(final))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/ship_puzzles.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tables", nargs="+", metavar="PRESET-SEATS",
                        default=[f"{p}-{n}" for p, n in TABLES],
                        help="the tables whose matches are played (default: all that ship)")
    parser.add_argument("--out", type=Path, default=SHIPPED.parent, metavar="DIR",
                        help=f"where the two files are written (default {SHIPPED.parent})")
    args = parser.parse_args(argv)
    tables = []
    for name in args.tables:
        rules, seats = table_name(name, "gnav-3")  # a GnavError: one line (oneline.run)
        rules.check_seats(seats)
        tables.append((name.rpartition("-")[0], seats))
    args.out.mkdir(parents=True, exist_ok=True)
    records_path, shipped_path = args.out / RECORDS.name, args.out / SHIPPED.name
    records = matches(args.seed, tables)
    bundle = json.dumps({k: json.loads(v) for k, v in records.items()}, ensure_ascii=False,
                        separators=(",", ":"), sort_keys=True)
    records_path.write_bytes(gzip.compress(bundle.encode(), mtime=0))
    start = time.process_time()
    result = dump(cut([(k, loads(v)) for k, v in records.items()]))
    cpu = time.process_time() - start
    body = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    shipped_path.write_bytes(gzip.compress(body.encode(), mtime=0))
    margins = sorted(p["margin"] for p in result["puzzles"])
    by = Counter((p["preset"], p["seats"], p["source"]) for p in result["puzzles"])
    spread = f"; margins {margins[0]:.3f} to {margins[-1]:.3f} lives, median " \
        f"{result['median_margin']:.3f}" if margins else ""
    print(f"{result['count']} puzzles from {result['decisions']} decisions of "
          f"{len(records)} matches ({cpu:.1f} s of CPU){spread}")
    for (preset, seats, source), n in sorted(by.items()):
        print(f"  {preset} at {seats} seats ({source}): {n}")
    print(f"wrote {records_path} and {shipped_path}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/ship_puzzles.py"))
