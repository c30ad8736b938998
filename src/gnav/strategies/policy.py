"""Trained policies for large tables: files of ``gnav train``, shipped in ``policies/``.

A policy file is gzip'd JSON (plain JSON is read too)::

    {"format": "gnav-policy/1", "preset": "gnav", "seats": [10, 14],
     "options": {...}, "abstraction": "gnav-abstraction/1", "scale": 1000000,
     "swap": {abstract key: P(swap) * scale}, "meta": {...}}

``swap`` is keyed by ``gnav.abstraction.abstract_key`` of the deciding seat's view and
holds every key seen in training where both actions are legal, and besides the backed-off
keys (``*`` for a feature left out: ``gave``, then ``right``, ``left``, ``k``), each the
visit-weighted mean of the keys it stands for, so that a key never seen in training still
gets an answer from the policy (``lookup``). ``seats`` is the band of table sizes the
policy was trained for (both ends included); ``options`` the round options (as a
strategy file names them). As strategies are, policies are shipped one a band per game,
named by the game (``gnav.strategies.game_name``).

Like ``gnav.strategies``, this needs only the standard library: the bots and the server
play policies without numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gnav.abstraction import FEATURES, VERSION
from gnav.errors import MalformedError
from gnav.rules import Rules
from gnav.strategies import HERE, game_name, games_like, read_json, round_options, swap_table

FORMAT = "gnav-policy/1"
POLICIES = HERE / "policies"
# Features left out one after another when a key was never seen in training.
BACKOFF = ("gave", "right", "left", "k")


def backoffs(key: str) -> list[str]:
    """``key`` with the ``BACKOFF`` features written ``*``, one more each step."""
    parts = key.split("|")
    out = []
    for f in BACKOFF:
        parts[FEATURES.index(f)] = "*"
        out.append("|".join(parts))
    return out


@dataclass(frozen=True)
class Policy:
    preset: str
    seats: tuple[int, int]
    options: dict[str, object]
    swap: dict[str, int]
    scale: int
    meta: dict[str, Any]

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether this policy is for one round of ``rules`` at ``seats`` active seats."""
        lo, hi = self.seats
        return (lo <= seats <= hi and round_options(rules) == self.options
                and self.preset in games_like(rules))

    def swap_probability(self, key: str) -> float | None:
        """P(swap) at abstract ``key`` as trained, or None if training never saw it."""
        q = self.swap.get(key)
        return None if q is None else q / self.scale

    def lookup(self, key: str) -> float | None:
        """P(swap) at ``key``, backing off to coarser keys where training never saw it;
        None only if not even the coarsest (position and piece) was seen."""
        q = self.swap.get(key)
        if q is None:
            for k in backoffs(key):
                q = self.swap.get(k)
                if q is not None:
                    break
            else:
                return None
        return q / self.scale


def parse(data: object, where: str) -> Policy:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedError(f"{where}: not a gnav policy (format {FORMAT!r})")
    try:
        if data["abstraction"] != VERSION:
            raise MalformedError(f"{where}: made for abstraction {data['abstraction']!r}, "
                                 f"this gnav keys by {VERSION!r}")
        swap, scale, options = swap_table(data, where)
        lo, hi = (int(s) for s in data["seats"])
        meta = data.get("meta", {})
        return Policy(str(data["preset"]), (lo, hi), options, swap, scale,
                      meta if isinstance(meta, dict) else {})
    except KeyError as e:
        raise MalformedError(f"{where}: missing field {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        raise MalformedError(f"{where}: {e}") from None


@lru_cache(maxsize=256)
def load_policy(path: str) -> Policy:
    """A policy file (gzip'd or plain JSON), read once per process."""
    return parse(read_json(path), path)


def policy_name(preset: str, lo: int, hi: int) -> str:
    return f"{preset}-{lo}-{hi}.json.gz"


def shipped_policies() -> list[Path]:
    return sorted(POLICIES.glob("*.json.gz"))


@lru_cache(maxsize=1)
def _index() -> dict[str, list[tuple[int, int, str]]]:
    """preset -> (lo, hi, path) of every shipped policy, read from the file names."""
    out: dict[str, list[tuple[int, int, str]]] = {}
    for p in shipped_policies():
        stem = p.name.removesuffix(".json.gz")
        preset, lo, hi = stem.rsplit("-", 2)
        out.setdefault(preset, []).append((int(lo), int(hi), str(p)))
    return out


def shipped_policy(rules: Rules, seats: int) -> Policy | None:
    """The shipped policy for one round of ``rules`` at ``seats`` seats, if any: its
    game's (``gnav.strategies.game_name``), whatever the preset is called; of the game's
    bands that hold ``seats``, the narrowest."""
    found = sorted((hi - lo, path) for lo, hi, path in _index().get(game_name(rules), [])
                   if lo <= seats <= hi)
    for _, path in found:
        policy = load_policy(path)
        if policy.fits(rules, seats):
            return policy
    return None
