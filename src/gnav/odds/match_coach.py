"""The coach's figures for the match: where a match strategy ships for the table
(``gnav.strategies.match``), the deciding seat's chance to win the match if it stands
and if it swaps, the match strategy played from there on by every seat.

A lookup, standard library only: the tables in ``odds/tables/match/`` are made from the
shipped match files by ``gnav.solve.match_coach`` (``gnav odds --coach-tables``), one per
match file, keyed as it is: the state the round started from (``MatchStrategy.key_of``,
rebuilt from the view's lives and the round's public payments), then the information
set (``gnav.infoset.infoset_key``). Only the view is read. Where no match file fits the
table, or the file lacks the state or the set, there is no figure (None) and the coach
says what it said before.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from gnav.infoset import infoset_key
from gnav.rules import Rules
from gnav.strategies.match import MatchStrategy, StateKey, match_stem, shipped_match
from gnav.views import SeatView

HERE = Path(__file__).resolve().parent / "tables" / "match"
FORMAT = "gnav-coach-match/1"


@dataclass(frozen=True)
class WinTable:
    """One match file's coach table: per state, per information set of its round,
    (chance to win if stand, if swap) in millionths."""

    lives: int
    cap: int
    options: dict[str, object]
    scale: int
    index: dict[int, dict[str, int]]  # by active seats: information set -> place
    states: dict[StateKey, tuple[tuple[int, ...], tuple[int, ...]]]  # stand, swap

    def fits(self, strategy: MatchStrategy) -> bool:
        """Whether this table was made for ``strategy``'s match."""
        return (self.lives == strategy.lives and self.cap == strategy.cap
                and self.options == strategy.options)

    def chances(self, key: StateKey, infoset: str, active: int
                ) -> tuple[float, float] | None:
        got = self.states.get(key)
        at = self.index.get(active, {}).get(infoset)
        if got is None or at is None or at >= len(got[0]) or at >= len(got[1]):
            return None
        return got[0][at] / self.scale, got[1][at] / self.scale


def table_path(preset: str, seats: int, lives: int | None = None) -> Path:
    """The coach table of the match file of that name (``match_stem``: the lives in the
    name where they are not the preset's)."""
    return HERE / f"{match_stem(preset, seats, lives)}.json.gz"


@lru_cache(maxsize=32)
def _read(preset: str, seats: int, lives: int) -> WinTable | None:
    path = table_path(preset, seats, lives)
    if not path.exists():
        return None
    data = json.loads(gzip.decompress(path.read_bytes()))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    index = {int(m): {k: i for i, k in enumerate(ks)} for m, ks in data["keys"].items()}
    states = {(tuple(s["lives"]), tuple(s["out"]), tuple(s["sitting_out"])):
              (tuple(s["stand"]), tuple(s["swap"])) for s in data["states"]}
    return WinTable(int(data["lives"]), int(data["cap"]), dict(data["options"]),
                    int(data["scale"]), index, states)


def win_table(strategy: MatchStrategy) -> WinTable | None:
    """The coach's table of ``strategy``'s match, if one ships and was made for it."""
    table = _read(strategy.preset, strategy.seats, strategy.lives)
    return table if table is not None and table.fits(strategy) else None


@lru_cache(maxsize=64)
def _for_table(rules: Rules, seats: int) -> tuple[MatchStrategy, WinTable] | None:
    """The match strategy and its coach table at a table of ``seats`` seats of ``rules``
    (kept per rules object: looking for the file on disk at every decision was half
    of a lookup's cost)."""
    strategy = shipped_match(rules, seats)
    if strategy is None:
        return None
    table = win_table(strategy)
    return None if table is None else (strategy, table)


def match_chances(view: SeatView) -> tuple[float, float] | None:
    """(the chance to win the match if ``view``'s seat stands, if it swaps), where a
    match strategy ships for the table and its coach table holds this decision; else
    None."""
    found = _for_table(view.rules, len(view.names))
    if found is None:
        return None
    strategy, table = found
    return table.chances(strategy.key_of(view), infoset_key(view), len(view.order))
