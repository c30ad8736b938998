"""Solved strategies: files of ``gnav solve --out`` and the ones shipped with gnav.

A strategy file is gzip'd JSON (plain JSON is read too)::

    {"format": "gnav-strategy/1", "preset": "gnav", "seats": 3, "options": {...},
     "nash_conv": ..., "values": [...], "iterations": ..., "scale": 10000,
     "swap": {infoset key: P(swap) * scale, rounded}}

``swap`` holds every information set where both stand and swap are legal (a key is
``gnav.infoset.infoset_key`` of the deciding seat's view). The probabilities are
quantised to 1/scale; ``nash_conv`` is measured on the quantised strategy.

A strategy is found by the game it was solved for, not by the preset's name: presets
with the same pieces and the same round options play the same round, one game, and the
game ships one file a size, named by its first built-in preset (``game_name``): gnav's
serve gnav-rulebook (the same game under another name), and gnav with ``two_fools =
pay`` (which a large table sets, docs/spec/rules.md §6.1) plays gnav-pagat's. A match
option (lives, rounds, who sits out after two fools, the pack) does not make another
game: a file holds one round.

This module needs only the standard library: the core and the server read strategies as
they are, without numpy.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gnav.errors import MalformedError
from gnav.options import Options
from gnav.presets import PRESETS_LIST
from gnav.rules import Rules

FORMAT = "gnav-strategy/1"
HERE = Path(__file__).resolve().parent
# Options that do not change one round (the solved game): a strategy holds for any.
ROUND_FREE = frozenset({"lives", "max_rounds", "two_fools_sit_out", "pack"})


def round_options(rules: Rules) -> dict[str, object]:
    """The options that shape one round, as a strategy file names them."""
    return _round(rules.options)


def _round(options: Options) -> dict[str, object]:
    return {k: v for k, v in options.as_dict().items() if k not in ROUND_FREE}


# Cached by the rules' value: shipped() asks at every decision the coach reads, and
# timeit put shipped() at 158 us a call uncached, 108 us cached.
@lru_cache(maxsize=256)
def game_name(rules: Rules) -> str:
    """The name of ``rules``' game: the first built-in preset with the same pieces and,
    as it comes, the same round options (``rules``' own name where none has them). Every
    shipped strategy and policy is named by its game, so one file serves every preset of
    the game and no two files are for one game."""
    options = round_options(rules)
    for preset in PRESETS_LIST:
        if preset.pieces == rules.pieces and _round(preset.options) == options:
            return preset.name
    return rules.name


@lru_cache(maxsize=256)  # rules are immutable; bots ask at every decision
def games_like(rules: Rules) -> tuple[str, ...]:
    """``rules``' preset and every built-in preset with the same pieces (the same deck,
    powers and order): a strategy or policy made for one of them holds for ``rules``
    wherever its round options are ``rules``'."""
    return (rules.name, *(p.name for p in PRESETS_LIST
                          if p.name != rules.name and p.pieces == rules.pieces))


@dataclass(frozen=True)
class Strategy:
    preset: str
    seats: int
    options: dict[str, object]
    nash_conv: float
    values: tuple[float, ...]
    swap: dict[str, int]
    scale: int
    meta: dict[str, Any]

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether this strategy is for one round of ``rules`` at ``seats`` active seats."""
        return (seats == self.seats and round_options(rules) == self.options
                and self.preset in games_like(rules))

    def swap_probability(self, key: str) -> float | None:
        q = self.swap.get(key)
        return None if q is None else q / self.scale


def parse(data: object, where: str) -> Strategy:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedError(f"{where}: not a gnav strategy (format {FORMAT!r})")
    try:
        swap, scale, options = swap_table(data, where)
        return Strategy(str(data["preset"]), int(data["seats"]), options,
                        float(data["nash_conv"]), tuple(float(v) for v in data["values"]),
                        swap, scale, {k: v for k, v in data.items() if k != "swap"})
    except KeyError as e:
        raise MalformedError(f"{where}: missing field {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        raise MalformedError(f"{where}: {e}") from None


@lru_cache(maxsize=64)
def load(path: str) -> Strategy:
    """A strategy file (gzip'd or plain JSON), read once per process."""
    return parse(read_json(path), path)


def read_json(path: str) -> Any:
    """The JSON of a strategy or policy file, gzip'd or plain.

    :raises: :exc:`MalformedError` if it cannot be read or is not JSON."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise MalformedError(f"{path}: cannot read ({e.strerror})") from None
    try:
        text = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        return json.loads(text)
    except (OSError, ValueError) as e:
        raise MalformedError(f"{path}: not JSON or gzip'd JSON ({e})") from None


def swap_table(data: dict[str, Any], where: str) -> tuple[dict[str, int], int, dict[str, Any]]:
    """A strategy's or policy's ``swap`` table (key to P(swap) in units of ``scale``), its
    ``scale`` and its ``options``, checked.

    :raises: :exc:`MalformedError` if one is not of its form; :exc:`KeyError`,
        :exc:`TypeError` or :exc:`ValueError` for its caller to word, as the rest of the
        file's fields."""
    swap = data["swap"]
    scale = int(data["scale"])
    if not isinstance(swap, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and 0 <= v <= scale
            for k, v in swap.items()):
        raise MalformedError(f"{where}: 'swap' must map keys to 0..{scale}")
    options = data["options"]
    if not isinstance(options, dict):
        raise MalformedError(f"{where}: 'options' must be an object")
    return swap, scale, options


def shipped_name(preset: str, seats: int) -> str:
    return f"{preset}-{seats}.json.gz"


def shipped_files() -> list[Path]:
    return sorted(HERE.glob("*.json.gz"))


def shipped(rules: Rules, seats: int) -> Strategy | None:
    """The shipped strategy for one round of ``rules`` at ``seats`` seats, if any: its
    game's (``game_name``), whatever the preset is called."""
    path = HERE / shipped_name(game_name(rules), seats)
    if path.exists():
        strategy = load(str(path))
        if strategy.fits(rules, seats):
            return strategy
    return None
