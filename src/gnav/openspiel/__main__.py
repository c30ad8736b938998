"""``python -m gnav.openspiel``: OpenSpiel's CFR+ on one round of a preset, with its NashConv.

    python -m gnav.openspiel --preset le-her --seats 2 -o copies=1 --iterations 40

Every ``--every`` iterations it prints OpenSpiel's exact NashConv of the average policy
(lives per round); at the end, each player's expected change of lives under it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

import gnav.openspiel as gos
from gnav.options import parse_text


def _option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    return name.strip(), parse_text(name.strip(), value)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gnav.openspiel", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="le-her")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("-o", "--option", type=_option, action="append", default=[],
                        metavar="NAME=VALUE", help="a rules option, e.g. copies=1")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args(argv)
    try:
        game = gos.load(args.preset, args.seats, **dict(args.option))
    except ValueError as e:
        print(f"python -m gnav.openspiel: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i % args.every == 0 or i == args.iterations:
            nash_conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"iteration {i:5d}  NashConv {nash_conv:.6f}  "
                  f"({time.perf_counter() - start:.1f} s)")
    values = expected_game_score.policy_value(game.new_initial_state(),
                                              [solver.average_policy()] * game.num_players())
    for player, value in enumerate(values):
        role = "the dealer" if player == game.num_players() - 1 else f"position {player}"
        print(f"player {player} ({role}): {value:+.6f} lives per round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
