"""Seeds: the one way a seed is drawn from another, for tables, simulations and the solver.

``derive(seed, *path)`` names each seed by where it is used (``derive(7, "deal", 3)``:
the deal of round 3 under master seed 7), hashed, so that no two paths share a seed and
a seed is the same in every process, on every machine and in every Python (``hash()`` of
a string is salted per process, so it will not do; arithmetic such as ``seed * 1009 +
game`` lets two tables' seeds collide).

An online table's journal stores its master seed and replays from it, so a table also
keeps the arithmetic it was created with: ``TableSeeds(seed, LEGACY)`` for a journal
written before seeds were derived (its creation entry has no ``"seeds"``), and
``TableSeeds(seed)`` (``DERIVED``, written into new journals) otherwise.
"""

from __future__ import annotations

import hashlib

LEGACY = 1  # the table's arithmetic of commit b809165 and before
DERIVED = 2  # derive(): what new tables write into their journal


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
        if version not in (LEGACY, DERIVED):
            raise ValueError(f"unknown way of seeding {version!r} (known: {LEGACY}, "
                             f"{DERIVED})")
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
