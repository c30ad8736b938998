"""Where the atlas's figures come from: the one place that chooses.

- ``expert`` at a table with a solved strategy (2 to 4 seats of most presets): exact,
  the strategy evaluated on the round's whole tree (``gnav.solve.atlas``, numpy).
- Anywhere else, and for ``threshold`` and ``counter``: rounds played through the
  reference engine by the policy's bot (``gnav.odds.simulated``), 95% intervals beside
  every figure. At tables with no solved strategy the ``expert`` bot plays as
  ``counter``; the atlas says so in its note.

When the batch simulator and the large-table policies land (issue 18), this module is
where they are chosen; nothing else knows where a figure came from.
"""

from __future__ import annotations

from collections.abc import Callable

from gnav.bots.registry import bot_from_spec
from gnav.errors import MalformedError
from gnav.odds.figures import Atlas
from gnav.rules import Rules
from gnav.strategies import shipped
from gnav.vocab import BotKind

POLICIES = (BotKind.EXPERT.value, BotKind.THRESHOLD.value, BotKind.COUNTER.value)
# Rounds a simulated atlas plays unless told: about a minute of one core at 10 seats of
# threshold, several of expert (which plays as counter there).
DEFAULT_ROUNDS = 2000


def is_exact(rules: Rules, seats: int, policy: str) -> bool:
    """Whether the atlas of ``policy`` at ``seats`` seats of ``rules`` is computed
    exactly (a solved strategy ships for it)."""
    return policy == BotKind.EXPERT and shipped(rules, seats) is not None


def compute(rules: Rules, seats: int, policy: str = "expert", *,
            rounds: int = DEFAULT_ROUNDS, seed: int = 1,
            progress: Callable[[int, int], None] | None = None) -> Atlas:
    """The atlas of ``policy`` at ``seats`` seats of ``rules``: exact where a solved
    strategy ships, else simulated over ``rounds`` rounds from ``seed``.

    :raises:
        - :exc:`MalformedError` for an unknown policy.
        - :exc:`OptionError` for a size the rules do not allow.
    """
    if policy not in POLICIES:
        raise MalformedError(f"--policy must be one of {', '.join(POLICIES)}, not "
                             f"{policy!r}")
    rules.check_seats(seats)
    strategy = shipped(rules, seats) if policy == BotKind.EXPERT else None
    if strategy is not None:
        from gnav.solve.atlas import atlas as exact_atlas  # numpy: only where needed
        return exact_atlas(rules, seats, strategy, policy, progress=progress)[0]
    from gnav.odds.simulated import atlas as simulated_atlas
    bots = [bot_from_spec(policy, seed=seed * 1000 + i, rules=rules) for i in range(seats)]
    note = ""
    if policy == BotKind.EXPERT:
        # The bot says what it plays here: a trained policy where one ships (issue 18),
        # else counter.
        from gnav.bots.expert import ExpertBot
        expert = bots[0]
        assert isinstance(expert, ExpertBot)
        note = f"the expert bot plays {expert.plays(rules, seats)}"
    return simulated_atlas(rules, seats, bots, policy, rounds, seed=seed, note=note,
                           progress=progress)
