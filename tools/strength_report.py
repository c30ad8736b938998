"""The strength and exploitability figures of docs/strategy.md, and their plots.

    python tools/strength_report.py --dir DIR [--run] [--jobs 2] [--plots docs/strategy]

Each figure is one ``gnav`` command whose JSON is kept in DIR under the figure's name
(``strength-gnav-10-counter.json``, ``exploit-gnav-6-expert-view.json``, ...). With
``--run`` the figures DIR lacks are computed first (long: start it with ``nice`` in the
background); without it only those already there are shown. The tables are printed as
Markdown; ``--plots`` draws ``strength.png`` and ``exploit.png`` there (matplotlib).
A developer tool, not part of the installed package.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import oneline

GNAV = [sys.executable, "-m", "gnav.cli"]


@dataclass(frozen=True)
class Strength:
    """``gnav simulate --field F --challenger expert`` on paired single rounds."""

    preset: str
    seats: int
    field: str
    rounds: int

    @property
    def name(self) -> str:
        return f"strength-{self.preset}-{self.seats}-{self.field}"

    def command(self, jobs: int) -> list[str]:
        return [*GNAV, "simulate", "--preset", self.preset, "--seats", str(self.seats),
                "--rounds", str(self.rounds), "--field", self.field, "--challenger",
                "expert", "--seed", "1", "--jobs", str(jobs), "--json"]


@dataclass(frozen=True)
class Exploit:
    """``gnav exploit``: a bracket against a table policy (``rows``), or the reference
    engine's lower bound (``search``/``measure``) for a field that decides by views."""

    seats: int
    field: str
    key: str
    rows: int = 0
    search: int = 0

    @property
    def name(self) -> str:
        return f"exploit-gnav-{self.seats}-{self.field}-{self.key}"

    def command(self, jobs: int) -> list[str]:
        size = ["--rows", str(self.rows)] if self.rows else \
            ["--search", str(self.search), "--rounds", str(self.search), "--jobs", str(jobs)]
        return [*GNAV, "exploit", "--seats", str(self.seats), "--field", self.field,
                "--key", self.key, *size, "--seed", "1", "--json"]


# In the order they run: the comparisons with counter first (the costly ones).
STRENGTH = [Strength("gnav", 10, "counter", 2000), Strength("gnav", 6, "counter", 3000),
            Strength("gnav-1917", 10, "counter", 2000),
            Strength("slabberjan", 10, "counter", 2000),
            Strength("gnav", 20, "counter", 2000)] + \
           [Strength(p, n, "threshold", 1000) for p, n in (
               ("gnav", 6), ("gnav", 10), ("gnav", 20), ("gnav-1917", 10),
               ("slabberjan", 10))] + \
           [Strength("gnav", 41, "threshold", 300), Strength("gnav", 41, "counter", 3000)]
EXPLOIT = [Exploit(n, f, k, rows=1_000_000 if n < 20 else 500_000) for n in (6, 10, 20)
           for f in ("expert", "threshold") for k in ("view", "rich", "abstraction")] + \
          [Exploit(n, "counter", "abstraction", search=s)
           for n, s in ((6, 30_000), (10, 20_000), (20, 10_000))]


def run(figures: Sequence[Strength | Exploit], where: Path, jobs: int) -> None:
    for f in figures:
        path = where / f"{f.name}.json"
        if path.exists():
            continue
        print(f"running {' '.join(f.command(jobs)[2:])}", file=sys.stderr, flush=True)
        out = subprocess.run(f.command(jobs), capture_output=True, text=True, check=True)
        path.write_text(out.stdout, encoding="utf-8")


def load(where: Path, name: str) -> dict[str, Any] | None:
    path = where / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _ci(e: dict[str, Any]) -> str:
    return f"{e['value']:+.4f} [{e['low']:+.4f}, {e['high']:+.4f}]"


def strength_table(where: Path) -> tuple[list[str], list[tuple[str, str, dict[str, Any]]]]:
    lines = ["| table | field | paired rounds | field − expert, lives a round [95%] "
             "| expert plays |", "|---|---|---|---|---|"]
    points = []
    for f in STRENGTH:
        s = load(where, f.name)
        if s is None:
            continue
        duel = s["challenger"]
        plays = "; ".join(r["plays"] for r in s["plays"].get("expert", []))
        label = f"{f.preset}, {f.seats} seats"
        lines.append(f"| {label} | {f.field} | {duel['deal_sequences']:,} | "
                     f"{_ci(duel['difference'])} | {plays} |")
        points.append((label, f.field, duel["difference"]))
    return lines, points


def exploit_table(where: Path) -> tuple[list[str], list[tuple[int, str, str, Any]]]:
    lines = ["| table | field | key | rounds a position | held out (below the best "
             "response) | in sample (above it) |", "|---|---|---|---|---|---|"]
    points = []
    for f in EXPLOIT:
        e = load(where, f.name)
        if e is None:
            continue
        if e["engine"] == "compiled":
            lines.append(f"| gnav, {f.seats} seats | {f.field} | {f.key} | {e['rows']:,} | "
                         f"{_ci(e['held_out'])} | {_ci(e['in_sample'])} |")
            points.append((f.seats, f.field, f.key, (e["held_out"], e["in_sample"])))
        else:
            g = e["gain"]
            lines.append(f"| gnav, {f.seats} seats | {f.field} | {f.key} (reference "
                         f"engine) | {e['search_rounds']:,} + {g['n']:,} | {_ci(g)} | - |")
            points.append((f.seats, f.field, f.key, (g, None)))
    return lines, points


def plot_strength(points: list[tuple[str, str, dict[str, Any]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    labels = list(dict.fromkeys(p[0] for p in points))
    for shift, (field, colour) in zip((-0.15, 0.15), (("counter", "tab:blue"),
                                                      ("threshold", "tab:orange")),
                                      strict=True):
        xs, ys, lo, hi = [], [], [], []
        for label, f, d in points:
            if f != field:
                continue
            xs.append(labels.index(label) + shift)
            ys.append(d["value"])
            lo.append(d["value"] - d["low"])
            hi.append(d["high"] - d["value"])
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", color=colour, capsize=4,
                    label=f"field of {field}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_ylabel("field − expert, lives a round (95%)")
    ax.set_title("expert against the field, paired rounds (positive: expert better)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_exploit(points: list[tuple[int, str, str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    style = {"expert": "tab:green", "threshold": "tab:orange", "counter": "tab:blue"}
    shift = {"expert": -0.2, "threshold": 0.0, "counter": 0.2}
    # Any deviation by the abstraction is one by the view too: the best response's lower
    # end is the larger held-out figure; its upper end the view key's in-sample one.
    low: dict[tuple[int, str], Any] = {}
    high: dict[tuple[int, str], Any] = {}
    for seats, field, key, (held, inside) in points:
        if (seats, field) not in low or held["value"] > low[seats, field]["value"]:
            low[seats, field] = held
        if key == "view":
            high[seats, field] = inside
    seen: set[str] = set()
    for (seats, field), held in low.items():
        x = [6, 10, 20].index(seats) + shift[field]
        inside = high.get((seats, field))
        top = inside["high"] if inside is not None else held["high"]
        bottom = max(held["low"], 1e-4)
        if field in seen:
            ax.vlines(x, bottom, top, color=style[field], lw=6, alpha=0.5)
        else:
            ax.vlines(x, bottom, top, color=style[field], lw=6, alpha=0.5, label=field)
        seen.add(field)
        ax.plot([x], [max(held["value"], 1e-4)], "v", color=style[field])
        if inside is not None:
            ax.plot([x], [inside["value"]], "^", color=style[field])
    ax.axhline(0.005, color="grey", ls="--", lw=0.8)
    ax.text(2.25, 0.005, "goal 0.005", va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlim(-0.5, 2.5)
    ax.set_xticks(range(3), ["6 seats", "10 seats", "20 seats"])
    ax.set_ylabel("a lone deviator's best gain, lives a round")
    ax.set_title("gnav: a lone deviator's best response, bracketed\n"
                 "(▼ held out: a deviation that exists; ▲ in sample, view key: above it)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", type=Path, required=True, help="where each figure's JSON is kept")
    p.add_argument("--run", action="store_true", help="compute the figures DIR lacks")
    p.add_argument("--only", choices=("strength", "exploit"), default=None)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--plots", type=Path, default=None, help="draw the plots in this folder")
    args = p.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.run:
        if args.only != "exploit":
            run(STRENGTH, args.dir, args.jobs)
        if args.only != "strength":
            run(EXPLOIT, args.dir, args.jobs)
    s_lines, s_points = strength_table(args.dir)
    e_lines, e_points = exploit_table(args.dir)
    print("\n".join(s_lines), "", "\n".join(e_lines), sep="\n")
    if args.plots is not None:
        args.plots.mkdir(parents=True, exist_ok=True)
        if s_points:
            plot_strength(s_points, args.plots / "strength.png")
        if e_points:
            plot_exploit(e_points, args.plots / "exploit.png")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/strength_report.py"))
