"""What the shipped equilibria say: the figures of docs/strategy.md and its plots.

    python tools/strategy_tables.py [--rounds N] [--plots DIR] [TABLE ...]

TABLE is PRESET-SEATS (default: 3 and 4 seats of gnav, gnav-1917 and hypp). It reads
the shipped strategies (no solving) and prints Markdown:

- each position's value (expected change of lives a round);
- P(swap) by piece and position when every seat before has stood (and nobody else
  knocked): the plain situation of each turn;
- from N rounds of the strategy playing itself through the engine, the frequencies the
  sources' tips speak of, each decision weighted by how often it comes up: swapping a
  matador, swapping IX-XII, standing on 0-III, how often a choice is mixed.

``--plots DIR`` also draws one PNG per table (matplotlib: the ``[plot]`` extra). A
developer tool that makes docs, outside the installed package (issue 28 §3).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, TypeVar

from gnav.bots.expert import ExpertBot
from gnav.errors import GnavError
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.runner import play_round
from gnav.strategies import Strategy, shipped
from gnav.views import SeatView
from gnav.vocab import Action

if TYPE_CHECKING:  # matplotlib loads only when a plot is drawn
    from matplotlib.figure import Figure

T = TypeVar("T")

TABLES = ("gnav-3", "gnav-4", "gnav-1917-3", "gnav-1917-4", "hypp-3", "hypp-4")
MIXED = 0.02  # a choice with both probabilities above this is "mixed"
# The summary source's groups of pieces (S0's tips), by id.
HIGH = ("12", "11", "10", "9")
LOW = ("3", "2", "1", "0")
BELOW = ("pot", "owl", "fool")


def table_name(name: str, example: str) -> tuple[Rules, int]:
    """The rules and the seats of a table named PRESET-SEATS (``gnav-3``).

    :raises: :exc:`GnavError` for a name of another form, saying ``example``."""
    preset, _, seats = name.rpartition("-")
    if not preset or not seats.isdigit():
        raise GnavError(f"a table is PRESET-SEATS, e.g. {example}, not {name!r}")
    return Rules.of(preset), int(seats)


def shipped_for(name: str, example: str, find: Callable[[Rules, int], T | None],
                what: str, making: str) -> tuple[Rules, int, T]:
    """The rules, seats and shipped ``what`` (``find(rules, seats)``) of a table named
    PRESET-SEATS.

    :raises: :exc:`GnavError` for a name of another form, or a table none ships for."""
    rules, seats = table_name(name, example)
    found = find(rules, seats)
    if found is None:
        raise GnavError(f"no shipped {what} for {name} ({making} makes them)")
    return rules, seats, found


def table(name: str) -> tuple[Rules, int, Strategy]:
    return shipped_for(name, "gnav-3", shipped, "strategy", "gnav solve --ship")


def plain_key(rules: Rules, seats: int, position: int, piece: str) -> str:
    """The key of ``position`` holding its dealt ``piece`` when every seat before stood
    and nobody else knocked."""
    codes = []
    if rules.knock_public and rules.fools[rules.index(piece)]:
        codes.append(f"K{position}")
    codes += [f"S{i}" for i in range(position)]
    return f"{position}/{seats}|{piece}|{piece}|{','.join(codes)}"


def plain_swaps(rules: Rules, seats: int, strategy: Strategy) -> dict[str, list[float | None]]:
    """Piece id -> P(swap) at each position in the plain situation (None: not legal)."""
    return {piece: [strategy.swap_probability(plain_key(rules, seats, pos, piece))
                    for pos in range(seats)] for piece in rules.ids}


@dataclass
class Play:
    """Expected counts from self-play, by (position, piece held)."""

    decisions: dict[tuple[int, str], float] = field(default_factory=lambda: defaultdict(float))
    swaps: dict[tuple[int, str], float] = field(default_factory=lambda: defaultdict(float))
    mixed: float = 0.0
    total: float = 0.0

    def rate(self, pieces: Sequence[str], position: int | None = None) -> float:
        keys = [k for k in self.decisions if k[1] in pieces
                and (position is None or k[0] == position)]
        n = sum(self.decisions[k] for k in keys)
        return sum(self.swaps[k] for k in keys) / n if n else float("nan")


class _Sampler:
    """The expert's mixed strategy played by sampling ``rng``, counting as it goes what
    the strategy would swap (expected counts, not the draws)."""

    name = "expert, sampled"

    def __init__(self, bot: ExpertBot, rng: Random, out: Play) -> None:
        self.bot, self.rng, self.out = bot, rng, out

    def act(self, view: SeatView) -> Action:
        """STAND or SWAP drawn from the strategy at ``view``.

        :raises: :exc:`IllegalActionError` (from the expert) if nothing is legal.
        """
        p = self.bot.probabilities(view).get(Action.SWAP, 0.0)
        if len(view.legal) == 2 and view.seat is not None and view.piece is not None:
            out = self.out
            slot = (view.order.index(view.seat), view.piece)
            out.decisions[slot] += 1
            out.swaps[slot] += p
            out.total += 1
            out.mixed += MIXED < p < 1 - MIXED
        return Action.SWAP if self.rng.random() < p else Action.STAND


def self_play(rules: Rules, seats: int, strategy: Strategy, rounds: int, seed: int) -> Play:
    """``rounds`` rounds of the strategy against itself, through the game loop."""
    rng = Random(seed)
    out = Play()
    players = [_Sampler(ExpertBot(seed, strategy, match=False), rng, out)] * seats
    names = tuple(f"s{i}" for i in range(seats))
    for k in range(rounds):
        match = MatchState.new(rules, names, seed=k, dealer=k % seats).deal(rng=rng)
        play_round(match, players)
    return out


def report(name: str, rounds: int, seed: int) -> tuple[str, dict[str, object]]:
    rules, seats, strategy = table(name)
    lines = [f"### {rules.name}, {seats} seats", ""]
    lines.append(f"NashConv {strategy.nash_conv:.1e} lives a round. Values (expected change "
                 f"of lives a round), from the dealer's left to the dealer: "
                 + ", ".join(f"{v:+.3f}" for v in strategy.values) + ".")
    lines += ["", "P(swap) when every seat before stood (`-`: the choice does not arise):", ""]
    head = "| piece | " + " | ".join(
        "dealer" if p == seats - 1 else f"pos {p + 1}" for p in range(seats)) + " |"
    lines += [head, "|---" * (seats + 1) + "|"]
    swaps = plain_swaps(rules, seats, strategy)
    for piece, row in swaps.items():
        cells = ["-" if p is None else f"{p:.2f}" for p in row]
        lines.append(f"| {piece} | " + " | ".join(cells) + " |")
    play = self_play(rules, seats, strategy, rounds, seed)
    matadors = [p.id for p in rules.pieces if p.power is not None]
    figures: dict[str, object] = {
        "values": list(strategy.values),
        "swap_matador": play.rate(matadors),
        "swap_high": play.rate([p for p in HIGH if p in rules.ids]),
        "stand_low": 1 - play.rate([p for p in LOW if p in rules.ids]),
        "stand_below": 1 - play.rate([p for p in BELOW if p in rules.ids]),
        "mixed": play.mixed / play.total if play.total else float("nan"),
        "swaps": swaps,
        "ids": list(rules.ids),
        "labels": [p.name() for p in rules.pieces],  # as the game names them: III, Cat
    }
    lines += ["", f"From {rounds:,} rounds of self-play (each decision weighted by how often "
              "it comes up):", "",
              f"- swaps a matador: {figures['swap_matador']:.3f}",
              f"- swaps IX-XII: {figures['swap_high']:.3f}",
              f"- stands on 0-III: {figures['stand_low']:.3f}",
              f"- stands on Pot, Owl or Fool: {figures['stand_below']:.3f}",
              f"- mixed choices (both above {MIXED}): {figures['mixed']:.3f} of decisions",
              ""]
    return "\n".join(lines), figures


def figure(name: str, figures: dict[str, object]) -> Figure:
    """The plot of one table: P(swap) by piece and position, and each position's value.
    The pieces are labelled as the game names them (III, IV, Cat), not by id, and the
    colour bar says which end is stand and which swap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    swaps = figures["swaps"]
    ids = figures["ids"]
    names = figures["labels"]
    values = figures["values"]
    assert isinstance(swaps, dict) and isinstance(ids, list) and isinstance(values, list)
    assert isinstance(names, list)
    seats = len(values)
    grid = [[float("nan") if v is None else v for v in swaps[p]] for p in ids]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 6), gridspec_kw={"width_ratios": [2, 1]})
    im = ax.imshow(grid, cmap="RdYlGn_r", vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(range(len(ids)), names)
    labels = [f"pos {p + 1}" for p in range(seats - 1)] + ["dealer"]
    ax.set_xticks(range(seats), labels)
    ax.set_title(f"{name}: P(swap), every seat before stood")
    bar = fig.colorbar(im, ax=ax, fraction=0.05)
    bar.set_ticks([0, 0.5, 1], labels=["0: stands", "0.5", "1: swaps"])
    bx.bar(labels, values, color="tab:blue")
    bx.set_title("value (lives a round)")
    bx.axhline(0, color="black", linewidth=0.5)
    fig.tight_layout()
    return fig


def plot(name: str, figures: dict[str, object], path: str) -> None:
    import matplotlib.pyplot as plt

    fig = figure(name, figures)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="strategy_tables.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tables", nargs="*", default=list(TABLES), metavar="TABLE")
    p.add_argument("--rounds", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--plots", metavar="DIR", help="also write DIR/TABLE.png")
    args = p.parse_args(argv)
    try:
        for name in args.tables:
            text, figures = report(name, args.rounds, args.seed)
            print(text, flush=True)
            if args.plots:
                plot(name, figures, f"{args.plots}/{name}.png")
    except GnavError as e:
        print(f"strategy_tables.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
