"""Where the atlas's figures come from: the one place that chooses.

- ``expert`` at a table with a solved strategy (2 to 4 seats of most presets): exact,
  the strategy evaluated on the round's whole tree (``gnav.odds.exact``, numpy).
- ``expert`` where it plays a shipped trained policy (``gnav.strategies.policy``, 5 to
  41 seats of the gnav presets): the batch simulator's compiled engine plays the
  policy's table (``gnav.odds.batch``), every position both ways on the same deals, a
  hundred times the reference engine's rounds in the same time; 95% intervals.
- Anywhere else, and for ``threshold`` and ``counter``: rounds played through the
  reference engine by the policy's bot (``gnav.odds.simulated``), 95% intervals beside
  every figure. At tables with neither a solved strategy nor a trained policy the
  ``expert`` bot plays as ``counter``; the atlas says so in its note.

Nothing else knows where a figure came from.
"""

from __future__ import annotations

from collections.abc import Callable

from gnav.bots.registry import bot_from_spec
from gnav.errors import MalformedError
from gnav.odds.figures import Atlas
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.strategies import shipped
from gnav.strategies.policy import shipped_policy
from gnav.vocab import BotKind

POLICIES = (BotKind.EXPERT.value, BotKind.THRESHOLD.value, BotKind.COUNTER.value)
# Rounds a simulated atlas plays unless told: about a minute of one core at 10 seats of
# threshold, several of expert where it plays as counter. The batch engine's own
# default (gnav.odds.batch.ROUNDS) is a hundred times that, in seconds.
DEFAULT_ROUNDS = 2000


def engine(rules: Rules, seats: int, policy: str) -> str:
    """How the atlas of ``policy`` at ``seats`` seats of ``rules`` is computed: "exact"
    (a solved strategy), "batch" (a trained policy on the compiled engine) or
    "reference" (bots through the reference engine)."""
    if policy != BotKind.EXPERT:
        return "reference"
    if shipped(rules, seats) is not None:
        return "exact"
    if shipped_policy(rules, seats) is not None and _batch_installed():
        return "batch"
    return "reference"


def _batch_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("numpy", "numba"))


def is_exact(rules: Rules, seats: int, policy: str) -> bool:
    """Whether the atlas of ``policy`` at ``seats`` seats of ``rules`` is computed
    exactly (a solved strategy ships for it)."""
    return policy == BotKind.EXPERT and shipped(rules, seats) is not None


def atlas(rules: Rules, seats: int, policy: str = "expert", *,
            rounds: int | None = None, seed: int = 1,
            progress: Callable[[int, int], None] | None = None) -> Atlas:
    """The atlas of ``policy`` at ``seats`` seats of ``rules``: exact where a solved
    strategy ships, else simulated over ``rounds`` rounds from ``seed`` (None: the
    engine's default, ``DEFAULT_ROUNDS`` or ``gnav.odds.batch.ROUNDS``).

    :raises:
        - :exc:`MalformedError` for an unknown policy.
        - :exc:`OptionError` for a size the rules do not allow.
    """
    if policy not in POLICIES:
        raise MalformedError(f"--policy must be one of {', '.join(POLICIES)}, not "
                             f"{policy!r}")
    rules.check_seats(seats)
    how = engine(rules, seats, policy)
    if how == "exact":
        strategy = shipped(rules, seats)
        assert strategy is not None
        from gnav.odds.exact import from_tree  # numpy: only where needed
        return from_tree(rules, seats, strategy, policy, progress=progress)[0]
    if how == "batch":
        from gnav.bots.expert import ExpertBot
        from gnav.odds.batch import ROUNDS, from_batch

        trained = shipped_policy(rules, seats)
        assert trained is not None
        plays = ExpertBot(match=False).plays(rules, seats)  # an atlas is of rounds
        return from_batch(rules, seats, trained, rounds or ROUNDS, seed=seed,
                           note=f"the expert bot plays {plays}",
                           progress=progress)
    from gnav.odds.simulated import from_bots
    rounds = rounds or DEFAULT_ROUNDS
    bots = [bot_from_spec(policy, seed=derive(seed, "bot", i), rules=rules) for i in range(seats)]
    note = ""
    if policy == BotKind.EXPERT:
        # The bot says what it plays here: a trained policy where one ships (issue 18),
        # else counter.
        from gnav.bots.expert import ExpertBot
        expert = bots[0]
        assert isinstance(expert, ExpertBot)
        note = f"the expert bot plays {expert.plays(rules, seats)}"
    return from_bots(rules, seats, bots, policy, rounds, seed=seed, note=note,
                           progress=progress)
