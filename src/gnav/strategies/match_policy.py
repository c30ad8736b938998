"""Trained match policies for large tables: ``gnav train --terms match``'s files, shipped
in ``policies/match/`` (issue 29 §2).

A match policy is a round policy (``gnav.strategies.policy``) for each lives class of
the decision (``gnav.lives_class``: the seat's own lives at the round's start, its left
and right neighbours'), trained in win chance rather than lives, and the lives-blind
policy of the same training (every class's decisions pooled) that answers where a class
holds nothing. The file is gzip'd JSON::

    {"format": "gnav-match-policy/1", "preset": "gnav", "seats": [5, 6],
     "options": {...}, "abstraction": "gnav-abstraction/1", "pieces": [...],
     "scale": 1000000, "dealer_stood": true, "meta": {...},
     "lives": {"features": ["own", "left", "right"], "classes": 12},
     "blind": {"keys": [...], "swap": [...]},
     "classes": [{"keys": [...], "swap": [...]}, ... one a class, in class order]}

``blind`` and each class are a round policy's two lists (``gnav-policy/2``: abstract
keys ascending, P(swap) * ``scale`` beside them). A class holds the keys its decisions
met often enough in training (no back-offs); ``blind`` is a round policy file's whole
table, back-offs included (``Layout.backoff``; the coarsest always there).
``lookup(cls, key)``: the class's key, else ``blind``'s lookup (its key, then its
back-offs). A class's own back-offs are not asked: at 6 seats of gnav, a challenger
whose class tables backed off before the lives-blind key won 0.1625 [0.1604, 0.1645] of
120,000 matches among ``expert-round``, one that asked the lives-blind key first
0.1660 [0.1639, 0.1680] (docs/strategy.md). ``lives`` names the classes' features and
count, so that a file made for other buckets is refused rather than misread.

Standard library only: the bots play it without numpy.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from gnav.errors import MalformedError
from gnav.lives_class import CLASSES, FEATURES
from gnav.rules import Rules
from gnav.strategies import game_name, read_json
from gnav.strategies.policy import FORMAT, POLICIES, Policy, check_table, parse

MATCH_POLICY_FORMAT = "gnav-match-policy/1"
MATCH_POLICIES = POLICIES / "match"


@dataclass(frozen=True)
class MatchPolicy:
    blind: Policy  # the lives-blind policy: the band, options, layout and scale
    classes: tuple[dict[int, int], ...]  # per lives class, abstract key -> P(swap) * scale

    @property
    def seats(self) -> tuple[int, int]:
        return self.blind.seats

    @property
    def preset(self) -> str:
        return self.blind.preset

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether this policy is for one round of ``rules`` at ``seats`` active seats."""
        return self.blind.fits(rules, seats)

    def lookup(self, cls: int, key: int) -> float | None:
        """P(swap) at abstract ``key`` of a decision of lives class ``cls``: the class's
        own answer at that key, else the lives-blind policy's (backing off to coarser
        keys there); None only where that has nothing either."""
        q = self.classes[cls].get(key)
        if q is None:
            return self.blind.lookup(key)
        return q / self.blind.scale


def parse_match_policy(data: object, where: str) -> MatchPolicy:
    """A match policy from a file's JSON.

    :raises: :exc:`MalformedError` with one line saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") != MATCH_POLICY_FORMAT:
        raise MalformedError(f"{where}: not a gnav match policy "
                             f"(format {MATCH_POLICY_FORMAT!r})")
    try:
        lives = data["lives"]
        if not isinstance(lives, dict) or lives.get("features") != list(FEATURES) \
                or lives.get("classes") != CLASSES:
            raise MalformedError(f"{where}: made for other lives classes than "
                                 f"{CLASSES} of {', '.join(FEATURES)}")
        blind = data["blind"]
        classes = data["classes"]
        if not isinstance(blind, dict) or not isinstance(classes, list) \
                or len(classes) != CLASSES or not all(isinstance(c, dict) for c in classes):
            raise MalformedError(f"{where}: 'blind' is an object and 'classes' a list of "
                                 f"{CLASSES} objects, each with 'keys' and 'swap'")
        head = {k: v for k, v in data.items() if k not in ("lives", "blind", "classes")}
        policy = parse({**head, "format": FORMAT, "keys": blind["keys"],
                        "swap": blind["swap"]}, where)
        tables = tuple(check_table(c["keys"], c["swap"], policy.scale, f"{where}: class {i}")
                       for i, c in enumerate(classes))
        return MatchPolicy(policy, tables)
    except KeyError as e:
        raise MalformedError(f"{where}: missing field {e.args[0]!r}") from None


@lru_cache(maxsize=64)
def load_match_policy(path: str) -> MatchPolicy:
    """A match policy file (gzip'd or plain JSON), read once per process.

    :raises: :exc:`OSError`, or :exc:`MalformedError` with one line."""
    return parse_match_policy(read_json(path), path)


def match_policy_name(preset: str, lo: int, hi: int) -> str:
    return f"{preset}-{lo}-{hi}.json.gz"


def match_policy_stem(preset: str, lo: int, hi: int) -> str:
    """How a shipped match policy is named in a version of the shipped set
    (``gnav.strategies.match.MATCH_SETS``): ``policy/gnav-5-6``."""
    return f"policy/{preset}-{lo}-{hi}"


@lru_cache(maxsize=1)
def _index() -> dict[str, list[tuple[int, int, str]]]:
    """preset -> (lo, hi, path) of every shipped match policy, read from the names."""
    out: dict[str, list[tuple[int, int, str]]] = {}
    for p in sorted(MATCH_POLICIES.glob("*.json.gz")):
        preset, lo, hi = p.name.removesuffix(".json.gz").rsplit("-", 2)
        out.setdefault(preset, []).append((int(lo), int(hi), str(p)))
    return out


def shipped_match_policy(rules: Rules, seats: int, allowed: Container[str] | None = None
                         ) -> MatchPolicy | None:
    """The shipped match policy for one round of ``rules`` at ``seats`` active seats, if
    any: its game's, of the bands that hold ``seats`` the narrowest; with ``allowed``,
    only a file it names (``match_policy_stem``: a table's version of the shipped set,
    ``gnav.strategies.match.MATCH_SETS``, so that a file shipped since is not the
    table's, as for match strategies)."""
    game = game_name(rules)
    found = sorted((hi - lo, path) for lo, hi, path in _index().get(game, [])
                   if lo <= seats <= hi and (allowed is None
                                             or match_policy_stem(game, lo, hi) in allowed))
    for _, path in found:
        policy = load_match_policy(path)
        if policy.fits(rules, seats):
            return policy
    return None


def shipped_match_policies() -> list[Path]:
    return sorted(MATCH_POLICIES.glob("*.json.gz"))

