"""The pictures of docs/strategy.md's *Where the match changes the right choice*, drawn
from the shipped solved tables (issue 29 §4).

    python tools/match_figures.py [--out docs/strategy]

Read with the standard library alone, as the bot and the coach read them: the shipped
match strategies (``gnav.strategies.match``), the round strategies (what ``expert-round``
plays) and the coach's match tables (``gnav.odds.match_coach``: the chance to win if the
seat stands and if it swaps, the match strategy played from there on). Written as SVG by
hand (no plotting library): a grid of shaded cells with their figures in them.

- ``match-fool-2.svg``: gnav, 2 seats, the fool knocked (its drag makes both seats pay
  when its holder stands): by the lives each seat starts the round with, the points of
  win probability standing gains over swapping, for the dealer after the receiver stood
  and for the receiver at its turn. The round strategy always swaps there.
- ``match-last-life-2.svg``: gnav, 2 seats, the dealer after the receiver stood: P(swap)
  by piece held at several lives, beside the round strategy's (one row for all lives).
- ``match-gain-2.svg``: the fool under the two rules for two fools, gnav's (each
  holder gains a life) and gnav-pagat's (they pay): the points standing gains over
  swapping for the same choices, at equal lives.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import oneline
from gnav.errors import GnavError
from gnav.odds.match_coach import WinTable, win_table
from gnav.rules import Rules
from gnav.strategies import Strategy, shipped
from gnav.strategies.match import MatchStrategy, StateKey, shipped_match

CELL_W, CELL_H = 64, 34
LEFT, TOP = 150, 92
FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
Rgb = tuple[int, int, int]
WHITE: Rgb = (255, 255, 255)
BLUE: Rgb = (49, 99, 170)
GREEN: Rgb = (46, 140, 70)
RED: Rgb = (196, 60, 50)


@dataclass(frozen=True)
class Grid:
    """A picture: rows by columns of cells, each a shade and a figure (None: no cell)."""

    title: str
    subtitle: str
    rows: list[str]
    columns: list[str]
    shade: list[list[float | None]]  # -1 .. 1 (diverging) or 0 .. 1
    text: list[list[str]]
    row_title: str
    column_title: str
    note: str
    cell_w: int = CELL_W


def mix(a: Rgb, b: Rgb, t: float) -> str:
    t = min(max(t, 0.0), 1.0)
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return f"#{r:02x}{g:02x}{bl:02x}"


def probability_colour(p: float) -> str:
    return mix(WHITE, BLUE, p)


def gain_colour(points: float) -> str:
    """Green where standing wins more, red where swapping does; full at 20 points."""
    return mix(WHITE, GREEN, points / 20) if points >= 0 else mix(WHITE, RED, -points / 20)


def svg(grid: Grid, colour: Callable[[float], str]) -> str:
    w = grid.cell_w
    width = max(LEFT + w * len(grid.columns) + 20, 660)
    height = TOP + CELL_H * len(grid.rows) + 58
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
           f"viewBox='0 0 {width} {height}' {FONT}>",
           f"<rect width='{width}' height='{height}' fill='white'/>",
           f"<text x='10' y='22' font-size='15' font-weight='bold'>{escape(grid.title)}</text>",
           f"<text x='10' y='41' font-size='12'>{escape(grid.subtitle)}</text>",
           f"<text x='{LEFT}' y='{TOP - 38}' font-size='11' fill='#444'>"
           f"{escape(grid.column_title)}</text>",
           f"<text x='10' y='{TOP - 6}' font-size='11' fill='#444'>"
           f"{escape(grid.row_title)}</text>"]
    for j, label in enumerate(grid.columns):
        x = LEFT + w * j + w / 2
        lines = label.split("\n")  # a label of two lines: the first above
        for k, line in enumerate(lines):
            y = TOP - 6 - 15 * (len(lines) - 1 - k)
            out.append(f"<text x='{x:.0f}' y='{y}' font-size='12' text-anchor='middle'>"
                       f"{escape(line)}</text>")
    for i, label in enumerate(grid.rows):
        y = TOP + CELL_H * i
        out.append(f"<text x='10' y='{y + CELL_H / 2 + 4:.0f}' font-size='12'>"
                   f"{escape(label)}</text>")
        for j, value in enumerate(grid.shade[i]):
            if value is None:
                continue
            x = LEFT + w * j
            out.append(f"<rect class='cell' x='{x}' y='{y}' width='{w}' "
                       f"height='{CELL_H}' fill='{colour(value)}' stroke='#ccc'/>")
            out.append(f"<text x='{x + w / 2:.0f}' y='{y + CELL_H / 2 + 4:.0f}' "
                       f"font-size='12' text-anchor='middle'>{escape(grid.text[i][j])}</text>")
    y = TOP + CELL_H * len(grid.rows) + 22
    for k, line in enumerate(grid.note.split("\n")):
        out.append(f"<text x='10' y='{y + 16 * k}' font-size='11' fill='#444'>"
                   f"{escape(line)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def tables(preset: str, seats: int, lives: int | None = None
           ) -> tuple[Rules, MatchStrategy, Strategy, WinTable | None]:
    rules = Rules.of(preset) if lives is None else Rules.of(preset, lives=lives)
    match = shipped_match(rules, seats)
    plain = shipped(rules, seats)
    if match is None or plain is None:
        raise GnavError(f"no shipped match and round strategy for {preset} at {seats} "
                        f"seats and {rules.options.lives} lives")
    return rules, match, plain, win_table(match)


def known(p: float | None, what: str) -> float:
    if p is None:
        raise GnavError(f"the shipped tables have no {what}")
    return p


def piece_name(rules: Rules, piece: str) -> str:
    for p in rules.pieces:
        if p.id == piece:
            return p.names["en"] if not piece.isdigit() else _roman(int(piece))
    return piece


def _roman(n: int) -> str:
    if n == 0:
        return "0"
    out = ""
    for value, mark in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += mark
            n -= value
    return out


def fool_grid() -> Grid:
    _, match, plain, wins = tables("gnav", 2)
    if wins is None:
        raise GnavError("gnav-2's coach match table is missing: gnav odds --coach-tables")
    # (key, who holds the fool, whether the holder is the dealer: the key's seat 0)
    choices = [("1/2|fool|fool|K1,S0", "dealer, after a stand", True),
               ("0/2|fool|fool|K0", "receiver, first", False)]
    top = match.lives + 1
    lives = list(range(1, top + 1))
    columns = [f"{o}" for o in lives]
    rows: list[str] = []
    shade: list[list[float | None]] = []
    text: list[list[str]] = []
    for key, who, dealer in choices:
        for h in lives:
            rows.append(f"{who.split(',')[0]} holds, {h}")
            line: list[float | None] = []
            words: list[str] = []
            for o in lives:
                state: StateKey = ((h, o) if dealer else (o, h), (), ())
                got = wins.chances(state, key, 2)
                if got is None:
                    line.append(None)
                    words.append("")
                    continue
                gain = 100 * (got[0] - got[1])
                line.append(gain)
                words.append("0.0" if abs(gain) < 0.05 else f"{gain:+.1f}")
            shade.append(line)
            text.append(words)
    rounds = ", ".join(f"{who}: {known(plain.swap_probability(key), key):.2f}"
                       for key, who, _ in choices)
    return Grid(
        "gnav, 2 seats: the fool knocked, stand or swap?",
        "points of win probability standing gains over swapping (green: stand)",
        rows, columns, shade, text, "the fool's holder, its lives",
        "the other seat's lives at the round's start",
        f"The round strategy (fewest lives) swaps the fool: P(swap) {rounds}.\n"
        f"Standing drags the other seat's piece down with it, both pay a life: an even race "
        f"stays even,\nand the match ends where the other is on its last life (0.0: "
        f"indifferent, the match strategy mixes).\nFrom odds/tables/match/gnav-2.json.gz, "
        f"the match strategy played from there on.")


def last_life_grid() -> Grid:
    rules, match, plain, _ = tables("gnav", 2)
    pieces = ["8", "7", "6", "5", "4"]
    keys = [f"1/2|{p}|{p}|S0" for p in pieces]
    states = [(1, 1), (2, 2), (4, 4), (1, 4), (4, 1)]
    rows = ["round strategy"] + [f"match, D {d} R {r}" for d, r in states]
    shade: list[list[float | None]] = []
    text: list[list[str]] = []
    first = [known(plain.swap_probability(k), k) for k in keys]
    shade.append(list(first))
    text.append([f"{p:.2f}" for p in first])
    for d, r in states:
        got = [match.swap_probability(((d, r), (), ()), k, 2) for k in keys]
        shade.append(list(got))
        text.append(["" if p is None else f"{p:.2f}" for p in got])
    return Grid(
        "gnav, 2 seats: the dealer after a stand, P(swap) by piece held",
        "the match strategy by lives at the round's start (D dealer, R receiver)",
        rows, [piece_name(rules, p) for p in pieces], shade, text, "",
        "piece held (the dealer swaps with the stock)",
        "On the last life a charge and a lost showdown cost no more than the showdown "
        "alone:\nat D 1 R 1 the dealer swaps a VII and a VI, which the round strategy "
        "keeps.\nFrom strategies/match/gnav-2 and strategies/gnav-2.")


def gain_grid() -> Grid:
    games = [("gnav", "gain"), ("gnav-pagat", "pay")]
    found = {}
    for preset, _ in games:
        _, match, _, wins = tables(preset, 2)
        if wins is None:
            raise GnavError(f"{preset}-2's coach match table is missing: gnav odds "
                            f"--coach-tables")
        found[preset] = (match, wins)
    choices = [("1/2|fool|fool|K1,S0", "dealer, fool"),
               ("0/2|fool|fool|K0", "receiver, fool"),
               ("1/2|fool|fool|K0,K1,S0", "dealer, 2 fools")]
    columns = [f"{what}\n({rule})" for _, what in choices for _, rule in games]
    top = min(m.lives for m, _ in found.values())
    rows = [f"{h} {'life' if h == 1 else 'lives'} each" for h in range(1, top + 1)]
    shade: list[list[float | None]] = []
    text: list[list[str]] = []
    for h in range(1, top + 1):
        line: list[float | None] = []
        words: list[str] = []
        for key, _ in choices:
            for preset, _ in games:
                got = found[preset][1].chances(((h, h), (), ()), key, 2)
                gain = None if got is None else 100 * (got[0] - got[1])
                line.append(gain)
                words.append("" if gain is None else
                             "0.0" if abs(gain) < 0.05 else f"{gain:+.1f}")
        shade.append(line)
        text.append(words)
    return Grid(
        "2 seats: the fool, two fools gaining (gnav) or paying (gnav-pagat)",
        "points of win probability standing gains over swapping, equal lives at the "
        "round's start",
        rows, columns, shade, text, "", "who decides, the two-fools rule",
        "The fool knocked (drag: standing makes both seats pay) is a stand under both "
        "rules at every count of lives;\nthe rules part on the last life. With both fools "
        "knocked, standing keeps the pair (a life each\nunder gain, a life paid each "
        "under pay): worth a few points at most (0.0: indifferent).\n"
        "From odds/tables/match/gnav-2.json.gz and gnav-pagat-2.json.gz.",
        cell_w=104)


FIGURES: dict[str, tuple[Callable[[], Grid], Callable[[float], str]]] = {
    "match-fool-2.svg": (fool_grid, gain_colour),
    "match-last-life-2.svg": (last_life_grid, probability_colour),
    "match-gain-2.svg": (gain_grid, gain_colour),
}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/match_figures.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="docs/strategy", help="folder for the SVG files")
    p.add_argument("--only", help=f"one of {', '.join(FIGURES)}")
    args = p.parse_args(argv)
    if args.only is not None and args.only not in FIGURES:
        p.error(f"no figure {args.only!r} (figures: {', '.join(FIGURES)})")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, (make, colour) in FIGURES.items():
        if args.only is not None and name != args.only:
            continue
        grid = make()
        (out / name).write_text(svg(grid, colour), encoding="utf-8")
        print(f"{out / name}: {len(grid.rows)} rows x {len(grid.columns)} columns")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/match_figures.py"))
