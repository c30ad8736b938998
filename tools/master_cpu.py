"""The server's master path alone, in CPU time per action: ``Table.act``, the renderer
and the wire's encoder for 6-seat tables of people with every seat listening (no
sockets, no store), over ``--matches`` matches chosen at random with fixed seeds.

    python tools/master_cpu.py --matches 30
    PYTHONPATH=/tmp/old/src python tools/master_cpu.py   # another commit's src, to compare

A developer tool, outside the installed package; docs/server.md quotes it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import oneline
from gnav.names import parse_name
from gnav.server.wire import encode
from gnav.table import Table, TableConfig, render


def play(seed: int, seats: int) -> tuple[int, float, float, float]:
    """One match: its actions, and the CPU seconds of acting, rendering and encoding."""
    config = TableConfig.from_json({"seats": seats, "turn_timer": None,
                                    "options": {"lives": 3}})
    table, host, _ = Table.create("abcdefgh", config, now=0.0, seed=seed)
    tokens = [table.join(parse_name(f"P{i}"), 0.0)[1] for i in range(seats)]
    table.start(host, 0.0)
    rng = random.Random(seed)
    listening = set(range(seats))
    actions, acting, rendering, encoding = 0, 0.0, 0.0, 0.0
    while table.phase == "playing" and table.match is not None:
        seat = table.match.to_act
        assert seat is not None
        action = rng.choice(table.match.legal_actions())
        t0 = time.process_time()
        result = table.act(seat, tokens[seat], table.version, action, 1.0)
        t1 = time.process_time()
        out = render(result.notices, listening)
        t2 = time.process_time()
        encode(out)
        t3 = time.process_time()
        actions += 1
        acting, rendering, encoding = acting + t1 - t0, rendering + t2 - t1, encoding + t3 - t2
    return actions, acting, rendering, encoding


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=30)
    p.add_argument("--seats", type=int, default=6)
    a = p.parse_args()
    totals = [0.0, 0.0, 0.0, 0.0]
    for seed in range(a.matches):
        for i, value in enumerate(play(seed, a.seats)):
            totals[i] += value
    n = max(1.0, totals[0])
    act, rend, enc = (1e6 * t / n for t in totals[1:])
    print(f"{int(n)} actions: act {act:.0f} us, render {rend:.0f} us, encode {enc:.0f} us, "
          f"total {act + rend + enc:.0f} us an action")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/master_cpu.py"))
