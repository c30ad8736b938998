"""The match win-rate table (issue 29 §3): does playing for the match win more matches?

    python tools/match_table.py [--tables gnav-2,gnav-3-lives2,...] [--matches 3000]
                                [--seed 29] [--jobs 1] [--pairs expert/counter,...]

For every table (``PRESET-SEATS``, or ``PRESET-SEATS-livesL`` at L lives: the match
files' own names) and every pair ``CHALLENGER/FIELD`` it runs ``gnav simulate --field
FIELD --challenger CHALLENGER --matches N --seed S``: the challenger put at each seat in
turn among the field, on the same N deal sequences, seats rotated. Printed: the command,
what the expert plays there (a match file, or the round's strategy where none fits), the
challenger's win rate at each seat and over all seats with its 95% interval (Wilson, the
seats pooled as if independent: they share their deals), and the fair share 1/seats.
The default pairs: one ``expert`` (the match strategy) among ``expert-round``s, among
``counter``s and among ``threshold`` bots, and one ``expert-round`` among ``expert``s.
CPU-heavy at its defaults (minutes): run it under ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import oneline
from gnav.errors import GnavError
from gnav.sim.stats import Estimate, wilson
from match_winrates import Table  # one reading of PRESET-SEATS[-livesL]

TABLES = "gnav-2,gnav-3-lives2,hypp-2,hypp-3,kille-2,kille-3"
PAIRS = "expert/expert-round,expert/counter:600,expert/threshold,expert-round/expert"


@dataclass(frozen=True)
class Cell:
    table: Table
    challenger: str
    field: str
    command: list[str]
    by_seat: list[Estimate]
    pooled: Estimate
    plays: str
    cpu: float


def pairs(text: str, matches: int) -> list[tuple[str, str, int]]:
    """(challenger, field, deal sequences) of ``CHALLENGER/FIELD[:MATCHES],...``."""
    out = []
    for part in text.split(","):
        pair, colon, count = part.strip().partition(":")
        challenger, slash, field = pair.partition("/")
        if not slash or not challenger or not field or (colon and not count.isdigit()):
            raise GnavError(f"a pair is CHALLENGER/FIELD[:MATCHES], e.g. expert/counter:500, "
                            f"not {part!r}")
        out.append((challenger, field, int(count) if colon else matches))
    return out


def measure(table: Table, challenger: str, field: str, matches: int, seed: int,
            jobs: int) -> Cell:
    args = ["simulate", "--preset", table.preset, "--seats", str(table.seats),
            *table.options(), "--field", field, "--challenger", challenger,
            "--matches", str(matches), "--seed", str(seed), "--jobs", str(jobs), "--json"]
    command = [sys.executable, "-m", "gnav.cli", *args]
    begin = time.process_time()
    before = _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    cpu = _children_cpu() - before + time.process_time() - begin
    data: dict[str, Any] = json.loads(done.stdout)
    rows = data["challenger"]["by_seat"]
    by_seat = [Estimate(**r["challenger_win_rate"]) for r in rows]
    # A shared win counts its share: value * n is the wins, fractional.
    wins = sum(e.value * e.n for e in by_seat)
    pooled = wilson(wins, sum(e.n for e in by_seat))
    said = data.get("plays", {}).get("expert", [])
    plays = "; ".join(f"{p['seats']}: {p['plays']}" for p in said)
    return Cell(table, challenger, field, ["gnav", *args[:-1]], by_seat, pooled, plays, cpu)


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fmt(e: Estimate) -> str:
    return f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}]"


def name(table: Table) -> str:
    return f"{table.preset}-{table.seats}" + ("" if table.lives is None
                                              else f"-lives{table.lives}")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/match_table.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", default=TABLES,
                   help=f"PRESET-SEATS[-livesL],... (default {TABLES})")
    p.add_argument("--pairs", default=PAIRS,
                   help=f"CHALLENGER/FIELD[:MATCHES],... (default {PAIRS}; :MATCHES "
                        f"sets that pair's deal sequences, e.g. fewer among the slow "
                        f"counter bots)")
    p.add_argument("--matches", type=int, default=3000,
                   help="deal sequences a cell: the challenger plays each at every seat")
    p.add_argument("--seed", type=int, default=29, help="gnav simulate's master seed")
    p.add_argument("--jobs", type=int, default=1, help="gnav simulate's processes")
    args = p.parse_args(argv)
    if args.matches < 1:
        p.error(f"--matches must be at least 1, not {args.matches}")
    tables = [Table.parse(t) for t in args.tables.split(",")]
    chosen = pairs(args.pairs, args.matches)
    print(f"match win rates, seats rotated: each deal sequence played with the challenger "
          f"at every seat; seed {args.seed}; 95% intervals (Wilson; the pooled one treats "
          f"the seats as independent, though they share their deals)")
    print()
    print("| table | challenger among field | challenger's win rate, by seat "
          "(seat 1 first) | all seats | fair share | matches (sequences x seats) | CPU s |")
    print("|---|---|---|---|---|---|---|")
    cells: list[Cell] = []
    for table in tables:
        for challenger, field, matches in chosen:
            cell = measure(table, challenger, field, matches, args.seed, args.jobs)
            cells.append(cell)
            print(f"| {name(table)} | {challenger} among {field} | "
                  f"{'; '.join(fmt(e) for e in cell.by_seat)} | {fmt(cell.pooled)} | "
                  f"{1 / table.seats:.3f} | {cell.pooled.n // table.seats:,} x "
                  f"{table.seats} | {cell.cpu:.0f} |",
                  flush=True)
    print()
    print("commands (python -m gnav.cli is gnav):")
    for cell in cells:
        print("  " + " ".join(cell.command))
    print("what expert plays, by table:")
    for table in tables:
        first = next(c for c in cells if c.table == table)
        print(f"  {name(table)}: {first.plays or 'not played'}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/match_table.py"))
