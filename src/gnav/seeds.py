"""Seeds: the one way a seed is drawn from another, for tables, simulations and the solver.

``derive(seed, *path)`` names each seed by where it is used (``derive(7, "deal", 3)``:
the deal of round 3 under master seed 7), hashed, so that no two paths share a seed and
a seed is the same in every process, on every machine and in every Python (``hash()`` of
a string is salted per process, so it will not do; arithmetic such as ``seed * 1009 +
game`` lets two tables' seeds collide).

An online table's journal stores its master seed and replays from it, and a table
restored from it goes on as the lost one would have: the same deals, and its bots the
same answers. So a table keeps the way of seeding it was created with (its creation
entry's ``"seeds"``):

- ``LEGACY`` (no ``"seeds"``): written before seeds were derived: arithmetic.
- ``DERIVED`` (2): the table's seeds derived; a bot still drew from its seed and a view
  through a text it hashed (the counter bot a ``Random`` of the text, the expert a
  BLAKE2b of it).
- ``VIEWS`` (3, what new tables write): derived all the way, a bot's draws too.

The old ways live here, named, and nowhere else: ``counter_base``, ``counter_random``
and ``expert_uniform`` give a bot's draws under the table's way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from random import Random

LEGACY = 1  # the table's arithmetic of commit b809165 and before
DERIVED = 2  # derive() for the table's seeds; a bot's draws from a view by text
VIEWS = 3  # derive() for a bot's draws too: what new tables write into their journal
SEEDINGS = (LEGACY, DERIVED, VIEWS)


def derive(seed: int, *path: object) -> int:
    """A 63-bit seed from the master ``seed`` and a ``path`` of names and numbers."""
    text = "/".join(str(p) for p in (seed, *path))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class TableSeeds:
    """The seeds of an online table, from its master seed: each match's first dealer,
    each deal, and each decision a bot takes for a seat. A table restored from its
    journal gets the same seeds, and so deals what the lost one dealt and plays on as it
    would have."""

    __slots__ = ("seed", "version")

    def __init__(self, seed: int, version: int = DERIVED) -> None:
        if version not in SEEDINGS:
            raise ValueError(f"unknown way of seeding {version!r} (known: "
                             f"{', '.join(map(str, SEEDINGS))})")
        self.seed = seed
        self.version = version

    def match(self, game: int) -> int:
        """The seed of match ``game`` (from 1): its first dealer's cut."""
        if self.version == LEGACY:
            return self.seed * 1009 + game
        return derive(self.seed, "match", game)

    def deal(self, game: int, round: int) -> int:
        """The seed of the deal of round ``round`` (the rounds played before it) of
        match ``game``."""
        if self.version == LEGACY:
            return self.seed * 1_000_003 + game * 10_007 + round
        return derive(self.seed, "deal", game, round)

    def bot(self, game: int, version: int, seat: int) -> int:
        """The seed of the bot that decides for ``seat`` at the table's ``version``."""
        if self.version == LEGACY:
            return ((self.seed * 1_000_003 + game) * 10_007 + version) * 41 + seat
        return derive(self.seed, "bot", game, version, seat)


# -- a bot's draws from its seed and a view, under a table's way of seeding ---------------

def counter_base(seed: int | None, seeding: int = VIEWS) -> int:
    """The counter bot's base for its draws: its seed (one drawn once when it has none)."""
    if seeding < VIEWS:
        return Random(seed).getrandbits(64)
    return Random().getrandbits(63) if seed is None else seed


def counter_random(base: int, fields: Sequence[object], seeding: int = VIEWS) -> Random:
    """The counter bot's generator for one view (``fields`` name it)."""
    if seeding < VIEWS:
        return Random(":".join(f"{x}" for x in (base, *fields)))
    return Random(derive(base, "counter", *fields))


def expert_uniform(seed: int, fields: Sequence[object], seeding: int = VIEWS) -> float:
    """The expert's uniform draw in [0, 1) for one view, to play a mixed strategy."""
    if seeding < VIEWS:
        text = "/".join(f"{x}" for x in (seed, *fields))
        digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64
    return derive(seed, "expert", *fields) / 2**63
