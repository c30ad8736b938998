"""``python -m gnav.pettingzoo``: a random masked agent plays ``gnav_v0`` and the table is shown.

    python -m gnav.pettingzoo --preset gnav --seats 3 --seed 1 --mode match
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from random import Random

import numpy as np

import gnav.pettingzoo as gpz


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gnav.pettingzoo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="gnav")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mode", choices=gpz.MODES, default="match")
    parser.add_argument("--quiet", action="store_true", help="print only the totals")
    args = parser.parse_args(argv)
    try:
        env = gpz.env(preset=args.preset, seats=args.seats, mode=args.mode,
                      render_mode=None if args.quiet else "human")
    except ValueError as e:
        print(f"python -m gnav.pettingzoo: {e}", file=sys.stderr)
        return 2
    env.reset(seed=args.seed)
    rng = Random(args.seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    winners: list[str] = []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        winners = info.get("winners", winners)
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
        env.step(action)
    print("lives won or lost: " + ", ".join(f"{a} {v:+g}" for a, v in totals.items()))
    if winners and args.quiet:  # otherwise the last table rendered said it
        print("won by " + ", ".join(winners))
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
