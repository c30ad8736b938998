"""What the shipped policies of large tables say: docs/strategy.md's tables and plots.

    python tools/policy_report.py [--plots DIR] [TABLE ...]

TABLE is PRESET-SEATS (default: gnav at 6, 10, 20 and 41 seats, gnav-1917 and
slabberjan at 10). It reads the shipped policies (no training) and prints Markdown:
P(swap) by piece and position in the plain situation (every seat before stood, nobody
else knocked), each position's highest piece it swaps there, and how the policy
differs from ``threshold`` (one piece for every position). ``--plots DIR`` draws one PNG
per table (matplotlib).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import oneline
from gnav.abstraction import RIGHT, Key, Layout, band_index
from gnav.bots.threshold import default_threshold
from gnav.rules import Rules
from gnav.strategies.policy import Policy, shipped_policy
from strategy_tables import shipped_for

TABLES = ("gnav-6", "gnav-10", "gnav-20", "gnav-41", "gnav-1917-10", "slabberjan-10")


def table(name: str) -> tuple[Rules, int, Policy]:
    return shipped_for(name, "gnav-10", shipped_policy, "policy", "gnav train --ship")


def plain_key(rules: Rules, n: int, pos: int, piece: str) -> int:
    """The abstract key of position ``pos`` holding its dealt ``piece`` (an id), every
    seat before it having stood and nobody else knocked."""
    layout = Layout.of(rules)
    right = RIGHT.index("-" if pos == 0 else "S")
    return layout.pack(Key(band_index(pos), band_index(n - 1 - pos), layout.rank[piece],
                           layout.pieces, right, 0, 0))


def plain(rules: Rules, n: int, policy: Policy) -> dict[str, list[float | None]]:
    """P(swap) by piece id (highest first) and position, in the plain situation."""
    return {p.id: [policy.lookup(plain_key(rules, n, pos, p.id)) for pos in range(n)]
            for p in rules.pieces}


def highest_swapped(rules: Rules, swaps: dict[str, list[float | None]], pos: int) -> str:
    """The highest plain piece (no matador, no fool) swapped with P > 1/2 at ``pos``."""
    for piece in rules.pieces:
        if piece.power is None and not piece.fool:
            p = swaps[piece.id][pos]
            if p is not None and p > 0.5:
                return piece.name()
    return "-"


def report(name: str) -> tuple[str, dict[str, object]]:
    rules, n, policy = table(name)
    swaps = plain(rules, n, policy)
    lo, hi = policy.seats
    meta = policy.meta
    lines = [f"### {name} (policy of {lo}-{hi} seats, {meta.get('rounds', 0):,} rounds of "
             f"training, seed {meta.get('seed')})", ""]
    marks = sorted({0, 1, n // 4, n // 2, (3 * n) // 4, n - 2, n - 1})
    head = ["piece"] + [("dealer" if p == n - 1 else f"pos {p + 1}") for p in marks]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for piece in rules.pieces:
        row = swaps[piece.id]
        cells = ["" if row[p] is None else f"{row[p]:.2f}" for p in marks]
        lines.append(f"| {piece.name()} | " + " | ".join(cells) + " |")
    lines.append("")
    tops = [highest_swapped(rules, swaps, p) for p in range(n)]
    threshold = rules.pieces[default_threshold(rules)].name()
    lines.append(f"Highest plain piece swapped, by position: {', '.join(tops)} "
                 f"(threshold swaps at or below {threshold} everywhere).")
    return "\n".join(lines) + "\n", {"swaps": swaps, "ids": [p.name() for p in rules.pieces],
                                     "n": n}


def plot(name: str, figures: dict[str, object], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    swaps, ids, n = figures["swaps"], figures["ids"], figures["n"]
    assert isinstance(swaps, dict) and isinstance(ids, list) and isinstance(n, int)
    grid = [[float("nan") if v is None else v for v in row] for row in swaps.values()]
    fig, ax = plt.subplots(figsize=(max(6.0, n * 0.25 + 3), 6))
    im = ax.imshow(grid, cmap="RdYlGn_r", vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(range(len(ids)), ids)
    step = max(1, n // 10)
    ticks = list(range(0, n, step))
    ax.set_xticks(ticks, [str(t + 1) for t in ticks])
    ax.set_xlabel("position from the dealer's left (the dealer last)")
    ax.set_title(f"{name}: P(swap), every seat before stood")
    fig.colorbar(im, ax=ax, fraction=0.05)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/policy_report.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tables", nargs="*", default=list(TABLES), metavar="TABLE")
    p.add_argument("--plots", metavar="DIR", help="also write DIR/policy-TABLE.png")
    args = p.parse_args(argv)
    if args.plots:
        Path(args.plots).mkdir(parents=True, exist_ok=True)
    for name in args.tables:  # a bad name is a GnavError: one line (oneline.run)
        text, figures = report(name)
        print(text, flush=True)
        if args.plots:
            plot(name, figures, f"{args.plots}/policy-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/policy_report.py"))
