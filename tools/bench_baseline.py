"""A plain object-model Gnav engine with simplified rules, and the ratio to gnav's.

The yardstick of issue 10: how fast would a straightforward engine be, one class per
concept (a piece, a player, a deck, a round, a match), mutable objects, ``random.shuffle``,
a view object per decision and an event log? Its rules are simplified on purpose:

- the gnav deck (five matadors, XII to O, pot, owl, fool; two copies);
- a matador refuses a swap; the Dragoon and the Cat also charge the asker a life; the
  Cuckoo stops the round; Horse and House pass the request on to the next seat;
- no stock powers (a matador drawn from the stock is just a piece), no undo, no knock,
  no fool's drag, no two-fools rule: the lowest piece pays a life at the showdown.

So it does less work per round than gnav's engine, which also keeps private overlays,
immutable states and every rule of docs/spec/rules.md. It is a developer tool, outside the installed
package: ``python tools/bench_baseline.py --seats 10`` plays both in one process,
alternating, and prints each figure and the ratio (gnav / baseline).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field

import oneline

MATADORS = {"cuckoo": "stop", "dragoon": "charge", "cat": "charge", "horse": "pass",
            "house": "pass"}
ORDER = ["cuckoo", "dragoon", "cat", "horse", "house", *[str(n) for n in range(12, -1, -1)],
         "pot", "owl", "fool"]


@dataclass
class Piece:
    name: str
    rank: int  # 0 is the highest

    @property
    def power(self) -> str | None:
        return MATADORS.get(self.name)


class Deck:
    def __init__(self, copies: int = 2) -> None:
        self.pieces = [Piece(name, rank) for rank, name in enumerate(ORDER)
                       for _ in range(copies)]

    def shuffled(self, rng: random.Random) -> list[Piece]:
        pieces = list(self.pieces)
        rng.shuffle(pieces)
        return pieces


@dataclass
class Player:
    name: str
    lives: int
    piece: Piece | None = None


@dataclass
class Event:
    kind: str
    seat: int
    other: int | None = None
    detail: str = ""


@dataclass
class View:
    """What one seat knows: its piece, whose turn, the lives, the public log."""

    seat: int
    piece: str
    legal: tuple[str, ...]
    lives: list[int]
    log: list[Event] = field(repr=False)


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        return self.rng.choice(view.legal)


class Round:
    def __init__(self, players: list[Player], order: list[int], deal: list[Piece]) -> None:
        self.players = players
        self.order = order  # seat numbers, the dealer last
        self.log: list[Event] = []
        for seat, piece in zip(order, deal, strict=False):  # the rest of the deal is the stock
            players[seat].piece = piece
        self.stock = deal[len(order):]
        self.turn = 0
        self.stopped = False

    def view(self, seat: int) -> View:
        piece = self.players[seat].piece
        assert piece is not None
        return View(seat, piece.name, ("stand", "swap"), [p.lives for p in self.players],
                    self.log)

    def play(self, bots: list[RandomBot]) -> None:
        while self.turn < len(self.order) and not self.stopped:
            seat = self.order[self.turn]
            view = self.view(seat)
            action = bots[seat].act(view)
            if action not in view.legal:
                raise ValueError(f"seat {seat} chose {action!r}; legal: {view.legal}")
            if action == "stand":
                self.log.append(Event("stand", seat))
            else:
                self.swap(self.turn)
            self.turn += 1
        self.showdown()

    def swap(self, position: int) -> None:
        asker = self.players[self.order[position]]
        if position == len(self.order) - 1:  # the dealer draws from the stock
            if self.stock:
                asker.piece = self.stock.pop(0)
                self.log.append(Event("draw", self.order[position]))
            return
        target_pos = position + 1
        while target_pos < len(self.order):
            seat = self.order[target_pos]
            target = self.players[seat]
            assert target.piece is not None
            power = target.piece.power
            if power is None:
                asker.piece, target.piece = target.piece, asker.piece
                self.log.append(Event("swap", self.order[position], seat))
                return
            self.log.append(Event("answer", seat, self.order[position], target.piece.name))
            if power == "charge":
                asker.lives -= 1
                self.log.append(Event("pay", self.order[position], None, target.piece.name))
            if power == "stop":
                self.stopped = True
            if power != "pass":
                return
            target_pos += 1

    def showdown(self) -> None:
        held = [self.players[s] for s in self.order]
        lowest = max(p.piece.rank for p in held if p.piece is not None)
        for seat in self.order:
            player = self.players[seat]
            if player.piece is not None and player.piece.rank == lowest:
                player.lives -= 1
                self.log.append(Event("pay", seat, None, "lowest"))


class Match:
    def __init__(self, seats: int, lives: int, dealer: int = 0) -> None:
        self.players = [Player(f"S{i + 1}", lives) for i in range(seats)]
        self.dealer = dealer
        self.deck = Deck()

    def alive(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p.lives > 0]

    def play_round(self, rng: random.Random, bots: list[RandomBot]) -> None:
        alive = self.alive()
        d = alive.index(self.dealer) if self.dealer in alive else 0
        order = alive[d + 1:] + alive[:d + 1]
        Round(self.players, order, self.deck.shuffled(rng)).play(bots)
        self.dealer = order[0]


def run_baseline(seats: int, rounds: int, seed: int = 0) -> float:
    """Rounds per CPU second of the plain engine (matches restarted once a seat is out,
    as ``gnav.bench.reference`` does). CPU time, as ``gnav bench``'s per-core figure: the
    machine is shared, and wall time would measure the neighbours too."""
    rng = random.Random(seed)
    bots = [RandomBot(seed * 1000 + i) for i in range(seats)]
    match = Match(seats, 5)
    start = time.process_time()
    for _ in range(rounds):
        if len(match.alive()) < seats:
            match = Match(seats, 5, match.dealer)
        match.play_round(rng, bots)
    return rounds / (time.process_time() - start)


def run_gnav(seats: int, rounds: int, seed: int = 0) -> float:
    """Rounds per CPU second of ``gnav bench`` (one job) in this process."""
    from gnav.bench.reference import run
    from gnav.rules import Rules

    result = run(Rules.of("gnav"), seats, rounds, seed=seed)
    return result.rounds_per_core_s


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seats", type=int, default=10)
    p.add_argument("--rounds", type=int, default=20000)
    p.add_argument("--repeat", type=int, default=3,
                   help="alternating runs of each; the best of each is reported")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not 2 <= args.seats <= 41:
        p.error("--seats must be 2 to 41")
    if args.rounds < 1 or args.repeat < 1:
        p.error("--rounds and --repeat must be at least 1")
    base: list[float] = []
    gnav: list[float] = []
    for _ in range(args.repeat):
        base.append(run_baseline(args.seats, args.rounds))
        gnav.append(run_gnav(args.seats, args.rounds))
    best_base, best_gnav = max(base), max(gnav)
    ratio = best_gnav / best_base
    if args.json:
        print(json.dumps({"seats": args.seats, "rounds": args.rounds,
                          "baseline_rounds_per_s": round(best_base, 1),
                          "gnav_rounds_per_s": round(best_gnav, 1),
                          "ratio": round(ratio, 3)}))
    else:
        print(f"{args.seats} seats, {args.rounds} rounds, best of {args.repeat}: "
              f"baseline {best_base:,.0f} rounds/s, gnav {best_gnav:,.0f} rounds/s "
              "(per CPU second), "
              f"ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/bench_baseline.py"))
