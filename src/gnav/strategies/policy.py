"""Trained policies for large tables: files of ``gnav train``, shipped in ``policies/``.

A policy file is gzip'd JSON (plain JSON is read too)::

    {"format": "gnav-policy/2", "preset": "gnav", "seats": [10, 14],
     "options": {...}, "abstraction": "gnav-abstraction/1",
     "pieces": [piece ids, by rank], "scale": 1000000, "meta": {...},
     "keys": [abstract key, ...], "swap": [P(swap) * scale, ...]}

``keys`` and ``swap`` are two lists of integers of one length, ``swap[i]`` the answer at
``keys[i]``, the keys ascending (two flat lists: JSON reads them three times as fast as
rows of pairs, and they pack smaller). A key is ``gnav.abstraction.abstract_key`` of the
deciding seat's view, an int whose layout ``gnav.abstraction.Layout`` documents for a
deck of ``pieces``; ``Layout.text`` writes one for people. The keys are every key seen
in training where both actions are legal, and besides the backed-off keys (``gave``,
then ``right``, ``left``, ``k`` left out: ``Layout.backoff``), each the visit-weighted
mean of the keys it stands for, so that a key never seen in training still gets an
answer from the policy (``lookup``). ``seats`` is the band of table sizes the policy was
trained for (both ends included); ``options`` the round options (as a strategy file
names them). As strategies are, policies are shipped one a band per game, named by the
game (``gnav.strategies.game_name``).

Files of ``gnav-policy/1`` (the same, but ``swap`` an object keyed by ``Layout.text``'s
strings, and no ``keys`` nor ``pieces``: the preset's) are read too, their keys read into
ints once as the file is; ``gnav.train.export`` writes format 2 only, and converts a
file.

Like ``gnav.strategies``, this needs only the standard library: the bots and the server
play policies without numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gnav.abstraction import FEATURES, SHIFT, VERSION, Layout, dealer_copies
from gnav.errors import MalformedError, UnknownPresetError
from gnav.rules import Rules
from gnav.strategies import HERE, game_name, games_like, read_json, round_options, swap_table

FORMAT = "gnav-policy/2"
FORMAT_1 = "gnav-policy/1"  # read, never written
POLICIES = HERE / "policies"
KEYS = 1 << (SHIFT + len(FEATURES))  # every key is below: the features and their mask


@dataclass(frozen=True)
class Policy:
    preset: str
    seats: tuple[int, int]
    options: dict[str, object]
    swap: dict[int, int]
    scale: int
    meta: dict[str, Any]
    layout: Layout

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether this policy is for one round of ``rules`` at ``seats`` active seats."""
        lo, hi = self.seats
        return (lo <= seats <= hi and round_options(rules) == self.options
                and self.preset in games_like(rules) and self.layout.ids == rules.ids)

    def swap_probability(self, key: int) -> float | None:
        """P(swap) at abstract ``key`` as trained, or None if training never saw it."""
        q = self.swap.get(key)
        return None if q is None else q / self.scale

    def lookup(self, key: int) -> float | None:
        """P(swap) at ``key``, backing off to coarser keys where training never saw it;
        None only if not even the coarsest (position and piece) was seen."""
        swap = self.swap
        q = swap.get(key)
        if q is None:
            for coarse in self.layout.backoffs(key):
                q = swap.get(coarse)
                if q is not None:
                    break
            else:
                return None
        return q / self.scale


def parse(data: object, where: str, *, as_made: bool = False) -> Policy:
    """A policy from a file's JSON (format 2, or 1). A file made before the dealer's
    ``left`` digit (no ``dealer_stood``) has each dealer key answer for both its values
    (``gnav.abstraction.dealer_copies``), so that it plays as it did; ``as_made``: the
    keys as the file holds them.

    :raises: :exc:`MalformedError` with one line saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, FORMAT_1):
        raise MalformedError(f"{where}: not a gnav policy (format {FORMAT!r})")
    try:
        if data["abstraction"] != VERSION:
            raise MalformedError(f"{where}: made for abstraction {data['abstraction']!r}, "
                                 f"this gnav keys by {VERSION!r}")
        if data["format"] == FORMAT:
            swap, scale, options, layout = _rows(data, where)
        else:
            text, scale, options = swap_table(data, where)
            layout = Layout.of(Rules.of(str(data["preset"])))
            swap = {layout.read_text(k): q for k, q in text.items()}
        if data.get("dealer_stood") is not True and not as_made:
            swap = dealer_copies(layout, swap)
        lo, hi = (int(s) for s in data["seats"])
        meta = data.get("meta", {})
        return Policy(str(data["preset"]), (lo, hi), options, swap, scale,
                      meta if isinstance(meta, dict) else {}, layout)
    except KeyError as e:
        raise MalformedError(f"{where}: missing field {e.args[0]!r}") from None
    except (TypeError, ValueError, UnknownPresetError) as e:
        raise MalformedError(f"{where}: {e}") from None


def _rows(data: dict[str, Any], where: str
          ) -> tuple[dict[int, int], int, dict[str, Any], Layout]:
    """A format 2 file's table (``keys`` to ``swap``), scale, options and key layout,
    checked."""
    pieces = data["pieces"]
    if not isinstance(pieces, list) or not pieces or not all(
            isinstance(x, str) for x in pieces) or len(set(pieces)) != len(pieces):
        raise MalformedError(f"{where}: 'pieces' must be a list of distinct piece ids")
    layout = Layout.of_ids(tuple(pieces))
    scale = int(data["scale"])
    keys, values = data["keys"], data["swap"]
    options = data["options"]
    if not isinstance(options, dict):
        raise MalformedError(f"{where}: 'options' must be an object")
    swap = check_table(keys, values, scale, where)
    return swap, scale, options, layout


def check_table(keys: object, values: object, scale: int, where: str) -> dict[int, int]:
    """A file's ``keys`` and ``swap`` lists, checked, as key -> P(swap) * ``scale``.

    :raises: :exc:`MalformedError` with one line saying what is wrong."""
    if not isinstance(keys, list) or not isinstance(values, list) \
            or len(keys) != len(values):
        raise MalformedError(f"{where}: 'keys' and 'swap' must be lists of one length")
    # bool is an int to Python. A key in range that is no key of the layout (a digit
    # past its radix) is never looked up: harmless, so not worth a check per key.
    last = -1
    for key in keys:
        if type(key) is not int or not last < key < KEYS:
            raise MalformedError(f"{where}: 'keys' must be {VERSION} keys, ascending")
        last = key
    for q in values:
        if type(q) is not int or not 0 <= q <= scale:
            raise MalformedError(f"{where}: 'swap' must hold 0..{scale}")
    return dict(zip(keys, values, strict=True))


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
