"""The batch simulator beside the reference engine, in one run, so both see the same
machine: ``gnav bench --json`` and ``gnav bench --engine jit --json`` alternated at each
table size, in fresh interpreters, one core each.

    python tools/bench_engines.py --seats 3 10 20 41 --repeat 3

The best per-core figure of each is reported (rounds per CPU second), with the ratio.
The reference engine decides every round by random bots from views; the batch
simulator's compiled engine (jit) by the threshold bot's table. A developer tool,
outside the installed package.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import oneline


def _bench(args: list[str]) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "gnav.cli", "bench", *args, "--jobs", "1",
                           "--json"], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seats", type=int, nargs="+", default=[3, 10, 20, 41])
    p.add_argument("--preset", default="gnav")
    p.add_argument("--rounds", type=int, default=20000, help="reference engine rounds")
    p.add_argument("--batch-rounds", type=int, default=1_000_000,
                   help="compiled engine rounds")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    rows = []
    for seats in args.seats:
        best = {"reference": 0.0, "jit": 0.0}
        for _ in range(args.repeat):
            for engine, rounds in (("reference", args.rounds), ("jit", args.batch_rounds)):
                result = _bench(["--preset", args.preset, "--seats", str(seats),
                                 "--engine", engine, "--rounds", str(rounds)])
                rate = result["rounds_per_core_s"]
                assert isinstance(rate, int | float)
                best[engine] = max(best[engine], float(rate))
        rows.append({"seats": seats, "reference_rounds_per_s": round(best["reference"]),
                     "jit_rounds_per_s": round(best["jit"]),
                     "jit_ratio": round(best["jit"] / best["reference"], 1)})
    if args.json:
        print(json.dumps(rows))
    else:
        print(f"{args.preset}, rounds per CPU second (best of {args.repeat}, alternated):")
        print(f"{'seats':>5} {'reference':>10} {'jit':>10} {'jit/ref':>8}")
        for r in rows:
            print(f"{r['seats']:>5} {r['reference_rounds_per_s']:>10,} "
                  f"{r['jit_rounds_per_s']:>10,} {r['jit_ratio']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/bench_engines.py"))
