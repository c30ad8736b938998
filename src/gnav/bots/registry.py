"""Bots by name: what a command line or a config file asks for. The one bot factory.

The kinds are ``gnav.vocab.BotKind``: a kind added there needs a maker here (a test
checks that each kind has one), and every list of kinds (``BOT_KINDS``, the command
line's help, the table's config) is read from the enum.
"""

from __future__ import annotations

from collections.abc import Callable

from gnav.bots.counter import DEFAULT_LIKELIHOOD, DEFAULT_SAMPLES, CounterBot
from gnav.bots.random_bot import RandomBot
from gnav.bots.threshold import ThresholdBot
from gnav.errors import MalformedError
from gnav.protocol import Bot
from gnav.rules import Rules
from gnav.seeds import VIEWS
from gnav.strategies.match import NEWEST_STRATEGIES
from gnav.vocab import BotKind, parse_bot_kind

BOT_KINDS: tuple[BotKind, ...] = tuple(BotKind)
# The kinds that play solved strategies and take a strategy file.
EXPERTS = frozenset({BotKind.EXPERT, BotKind.EXPERT_ROUND})


def _random(seed: int | None, params: dict[str, object], seeding: int,
            strategies: int) -> Bot:
    if params:
        raise MalformedError(f"bot 'random' takes no parameters, not {', '.join(params)}")
    return RandomBot(seed)


def _threshold(seed: int | None, params: dict[str, object], seeding: int,
            strategies: int) -> Bot:
    unknown = set(params) - {"threshold"}
    if unknown:
        raise MalformedError(f"bot 'threshold' takes only 'threshold', not "
                             f"{', '.join(sorted(unknown))}")
    threshold = params.get("threshold")
    if threshold is not None and not isinstance(threshold, str | int):
        raise MalformedError(f"a threshold is a piece name or a rank, not {threshold!r}")
    return ThresholdBot(seed, threshold)


def _counter(seed: int | None, params: dict[str, object], seeding: int,
            strategies: int) -> Bot:
    unknown = set(params) - {"samples", "threshold", "likelihood"}
    if unknown:
        raise MalformedError(f"bot 'counter' takes samples, threshold and likelihood, not "
                             f"{', '.join(sorted(unknown))}")
    samples = params.get("samples", DEFAULT_SAMPLES)
    threshold = params.get("threshold")
    likelihood = params.get("likelihood", DEFAULT_LIKELIHOOD)
    if isinstance(samples, bool) or not isinstance(samples, int):
        raise MalformedError(f"samples must be a whole number, not {samples!r}")
    if threshold is not None and not isinstance(threshold, str | int):
        raise MalformedError(f"a threshold is a piece name or a rank, not {threshold!r}")
    if not isinstance(likelihood, int | float):
        raise MalformedError(f"likelihood must be a number, not {likelihood!r}")
    return CounterBot(seed, samples, threshold=threshold, likelihood=likelihood,
                      seeding=seeding)


def _expert(seed: int | None, params: dict[str, object], seeding: int, strategies: int,
            match: bool = True) -> Bot:
    from gnav.bots.expert import ExpertBot

    name = BotKind.EXPERT if match else BotKind.EXPERT_ROUND
    unknown = set(params) - {"strategy"}
    if unknown:
        raise MalformedError(f"bot {name!r} takes only 'strategy', not "
                             f"{', '.join(sorted(unknown))}")
    strategy = params.get("strategy")
    if strategy is not None and not isinstance(strategy, str):
        raise MalformedError(f"a strategy is a file name, not {strategy!r}")
    return ExpertBot(seed, strategy, seeding=seeding, match=match, strategies=strategies)


def _expert_round(seed: int | None, params: dict[str, object], seeding: int,
            strategies: int) -> Bot:
    return _expert(seed, params, seeding, strategies, match=False)


# A maker takes the seed, the parameters, the way of seeding of the table the bot plays
# at (gnav.seeds: only the bots that draw from a view read it) and the table's version of
# the shipped match strategies (gnav.strategies.match.MATCH_SETS: only the expert reads
# it).
MAKERS: dict[BotKind, Callable[[int | None, dict[str, object], int, int], Bot]] = {
    BotKind.RANDOM: _random,
    BotKind.THRESHOLD: _threshold,
    BotKind.COUNTER: _counter,
    BotKind.EXPERT: _expert,
    BotKind.EXPERT_ROUND: _expert_round,
}


def make_bot(kind: str, seed: int | None = None, **params: object) -> Bot:
    """A bot of ``kind`` (one of ``BOT_KINDS``, any case) with its parameters:
    ``threshold`` for the threshold bot; ``samples``, ``threshold`` (the model of the
    other seats) and ``likelihood`` for the counter bot.

    :raises: :exc:`MalformedError` for an unknown kind or a parameter the kind does not
        take.
    """
    return table_bot(kind, seed, params)


def table_bot(kind: str, seed: int | None, params: dict[str, object],
              seeding: int = VIEWS, strategies: int = NEWEST_STRATEGIES) -> Bot:
    """``make_bot`` for a table of a given way of seeding (``gnav.seeds``) and version of
    the shipped match strategies (``gnav.strategies.match.MATCH_SETS``): a table restored
    from an old journal has its bots answer as they did.

    :raises: :exc:`MalformedError` as ``make_bot``; :exc:`ValueError` for an unknown
        ``strategies``.
    """
    return MAKERS[parse_bot_kind(kind)](seed, dict(params), seeding, strategies)


def bot_from_spec(spec: str, seed: int | None = None, rules: Rules | None = None) -> Bot:
    """A bot from a spec (``"threshold"``, ``"threshold:7"``, ``"counter:96"``).

    With ``rules``, a threshold piece is read now (a bot reads it only when it first
    acts), so a typo is one MalformedError before any game starts."""
    kind, params = parse_bot_spec(spec)
    threshold = params.get("threshold")
    if rules is not None and isinstance(threshold, str):
        rules.index(threshold)
    return make_bot(kind, seed, **params)


def canonical_spec(spec: str) -> str:
    """``spec`` in its one spelling (``" Threshold : 7"`` -> ``"threshold:7"``).

    :raises: :exc:`MalformedError` if it does not parse.
    """
    kind, params = parse_bot_spec(spec)
    _, sep, arg = spec.strip().partition(":")
    return f"{kind}:{arg.strip()}" if sep and params else str(kind)


def parse_bot_spec(spec: str) -> tuple[BotKind, dict[str, object]]:
    """``"kind"`` or ``"kind:arg"`` as ``(kind, params)`` for ``make_bot``.

    The part after ``:`` is the bot's main parameter: the threshold piece for
    ``threshold`` (``"threshold:7"`` swaps at or below ``7``; any piece name the deck
    reads, e.g. ``"threshold:owl"``), the number of samples for ``counter``
    (``"counter:96"``), a strategy file of ``gnav solve --out`` (or ``--match --out``)
    for ``expert`` and ``expert-round`` (``"expert:my.json.gz"``). ``random`` takes
    none.

    :raises: :exc:`MalformedError` for a spec of another shape or an argument the kind
        does not read (``"counter:many"``).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise MalformedError(f"a bot is named as kind or kind:arg, not {spec!r}")
    text, sep, arg = spec.strip().partition(":")
    kind = parse_bot_kind(text)
    arg = arg.strip()
    if not sep:
        return kind, {}
    if not arg:
        raise MalformedError(f"bot spec {spec!r}: nothing after ':'")
    if kind == BotKind.THRESHOLD:
        return kind, {"threshold": arg}
    if kind == BotKind.COUNTER:
        try:
            samples = int(arg)
        except ValueError:
            raise MalformedError(f"bot spec {spec!r}: samples must be a whole number, "
                                 f"not {arg!r}") from None
        return kind, {"samples": samples}
    if kind in EXPERTS:
        return kind, {"strategy": arg}
    raise MalformedError(f"bot {kind!r} takes no parameter (given {arg!r})")


def with_strategy(spec: str, strategy: str | None) -> str:
    """``spec`` with ``strategy`` (a file of ``gnav solve --out``) given to a plain
    ``expert`` or ``expert-round``: what a command's ``--strategy FILE`` does to its bot
    specs."""
    kind = spec.strip().lower()
    if strategy is None or kind not in EXPERTS:
        return spec
    return f"{kind}:{strategy}"
