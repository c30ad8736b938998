"""``python tools/ship_puzzles.py``: the puzzles that ship with gnav, made again.

For each (preset, seats) of ``TABLES``, ``MATCHES`` seeded matches of a random bot, a
threshold bot and counter bots (the random bot's blunders make plain puzzles, the others'
close calls harder ones) are played; their records are bundled into
``src/gnav/learn/data/puzzle-records.json.gz`` (the test that re-checks every shipped
puzzle replays them) and cut as ``gnav puzzles`` cuts (``gnav.learn.puzzles.cut``) into
``src/gnav/learn/data/puzzles.json.gz``. Prints how many puzzles from how many decisions,
and their margins. A few seconds of CPU; run it under ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence

import gnav
from gnav.learn.puzzles import RECORDS, SHIPPED, cut, dump
from gnav.record import dumps, from_match, loads
from gnav.seeds import derive

TABLES = (("gnav", 3), ("gnav", 4), ("gnav-1917", 4), ("hypp", 3), ("gnav", 6))
MATCHES = 3
LIVES = 3


def matches(seed: int) -> dict[str, str]:
    """The records, by name, of every table's seeded matches."""
    out = {}
    for preset, seats in TABLES:
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
    parser = argparse.ArgumentParser(prog="python tools/ship_puzzles.py")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    records = matches(args.seed)
    bundle = json.dumps({k: json.loads(v) for k, v in records.items()}, ensure_ascii=False,
                        separators=(",", ":"), sort_keys=True)
    RECORDS.write_bytes(gzip.compress(bundle.encode(), mtime=0))
    start = time.process_time()
    result = dump(cut([(k, loads(v)) for k, v in records.items()]))
    cpu = time.process_time() - start
    body = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    SHIPPED.write_bytes(gzip.compress(body.encode(), mtime=0))
    margins = sorted(p["margin"] for p in result["puzzles"])
    by = Counter((p["preset"], p["seats"], p["source"]) for p in result["puzzles"])
    print(f"{result['count']} puzzles from {result['decisions']} decisions of "
          f"{len(records)} matches ({cpu:.1f} s of CPU); margins {margins[0]:.3f} to "
          f"{margins[-1]:.3f} lives, median {result['median_margin']:.3f}")
    for (preset, seats, source), n in sorted(by.items()):
        print(f"  {preset} at {seats} seats ({source}): {n}")
    print(f"wrote {RECORDS} and {SHIPPED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
