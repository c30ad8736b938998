"""Bots by name: what a command line or a config file asks for."""

from __future__ import annotations

from collections.abc import Callable

from gnav.bots.base import Bot
from gnav.bots.counter import DEFAULT_LIKELIHOOD, DEFAULT_SAMPLES, CounterBot
from gnav.bots.random_bot import RandomBot
from gnav.bots.threshold import ThresholdBot
from gnav.errors import MalformedError

BOT_KINDS: tuple[str, ...] = ("random", "threshold", "counter", "expert")


def _random(seed: int | None, params: dict[str, object]) -> Bot:
    if params:
        raise MalformedError(f"bot 'random' takes no parameters, not {', '.join(params)}")
    return RandomBot(seed)


def _threshold(seed: int | None, params: dict[str, object]) -> Bot:
    unknown = set(params) - {"threshold"}
    if unknown:
        raise MalformedError(f"bot 'threshold' takes only 'threshold', not "
                             f"{', '.join(sorted(unknown))}")
    threshold = params.get("threshold")
    if threshold is not None and not isinstance(threshold, str | int):
        raise MalformedError(f"a threshold is a piece name or a rank, not {threshold!r}")
    return ThresholdBot(seed, threshold)


def _counter(seed: int | None, params: dict[str, object]) -> Bot:
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
    return CounterBot(seed, samples, threshold=threshold, likelihood=likelihood)


def _expert(seed: int | None, params: dict[str, object]) -> Bot:
    from gnav.bots.expert import ExpertBot

    unknown = set(params) - {"strategy"}
    if unknown:
        raise MalformedError(f"bot 'expert' takes only 'strategy', not "
                             f"{', '.join(sorted(unknown))}")
    strategy = params.get("strategy")
    if strategy is not None and not isinstance(strategy, str):
        raise MalformedError(f"a strategy is a file name, not {strategy!r}")
    return ExpertBot(seed, strategy)


_MAKERS: dict[str, Callable[[int | None, dict[str, object]], Bot]] = {
    "random": _random,
    "threshold": _threshold,
    "counter": _counter,
    "expert": _expert,
}


def make_bot(kind: str, seed: int | None = None, **params: object) -> Bot:
    """A bot of ``kind`` (one of ``BOT_KINDS``, any case) with its parameters:
    ``threshold`` for the threshold bot; ``samples``, ``threshold`` (the model of the
    other seats) and ``likelihood`` for the counter bot."""
    maker = _MAKERS.get(kind.strip().lower()) if isinstance(kind, str) else None
    if maker is None:
        raise MalformedError(f"unknown bot {kind!r} (bots: {', '.join(BOT_KINDS)})")
    return maker(seed, params)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``"kind"`` or ``"kind:arg"`` as ``(kind, params)`` for ``make_bot``.

    The part after ``:`` is the bot's main parameter: the threshold piece for
    ``threshold`` (``"threshold:7"`` swaps at or below ``7``; any piece name the deck
    reads, e.g. ``"threshold:owl"``), the number of samples for ``counter``
    (``"counter:96"``), a strategy file of ``gnav solve --out`` for ``expert``
    (``"expert:my.json.gz"``). ``random`` takes none.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise MalformedError(f"a bot is named as kind or kind:arg, not {spec!r}")
    kind, sep, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind not in BOT_KINDS:
        raise MalformedError(f"unknown bot {kind!r} (bots: {', '.join(BOT_KINDS)})")
    if not sep:
        return kind, {}
    if not arg:
        raise MalformedError(f"bot spec {spec!r}: nothing after ':'")
    if kind == "threshold":
        return kind, {"threshold": arg}
    if kind == "counter":
        try:
            samples = int(arg)
        except ValueError:
            raise MalformedError(f"bot spec {spec!r}: samples must be a whole number, "
                                 f"not {arg!r}") from None
        return kind, {"samples": samples}
    if kind == "expert":
        return kind, {"strategy": arg}
    raise MalformedError(f"bot {kind!r} takes no parameter (given {arg!r})")


def with_strategy(spec: str, strategy: str | None) -> str:
    """``spec`` with ``strategy`` (a file of ``gnav solve --out``) given to a plain
    ``expert``: what a command's ``--strategy FILE`` does to its bot specs."""
    if strategy is None or spec.strip().lower() != "expert":
        return spec
    return f"expert:{strategy}"
