"""Match strategies: the match solved at a small table (``gnav solve --match --out`` and
the ones shipped in ``strategies/match/``), read with the standard library only.

A match strategy file is gzip'd JSON (plain JSON is read too)::

    {"format": "gnav-match-strategy/1", "preset": "gnav", "seats": 2, "lives": 4,
     "cap": 5, "options": {...}, "nash_conv": ..., "round_exploitability": ...,
     "scale": 1000000,
     "keys": {"2": [infoset key, ...]},
     "states": [{"lives": [...], "out": [...], "sitting_out": [...],
                 "values": [...], "swap": [P(swap) * scale, ...]}, ...]}

A state is what a round starts from, in the frame where the dealer is seat 0 (seat
``c`` of the frame is the table's seat ``dealer + c``): each seat's lives (above ``cap``
read as ``cap``, the solver's one approximation), who is out and who sits out.
``values`` is each seat's chance to win the match from there (the frame's seats). A
state's round has as many active seats as are neither out nor sitting out; its
``swap`` runs along ``keys`` of that many seats (every information set of the round
where both stand and swap are legal, ``gnav.infoset.infoset_key``), quantised to
1/scale. ``nash_conv`` is the match NashConv (win probability, summed over the seats, at
the start) of exactly what the file holds; ``round_exploitability`` what a best response
gains, the same way, against the round strategy played at every state. ``off_path``
(files made since it was added) says whether unreached sets hold the solver's greedy
answer or its own even odds, whichever a best response gains less against.

``options`` are every option but the lives (their own field) and the pack: unlike a
round strategy, the lives, the round limit and who sits out after two fools make
another match. A match strategy is found by its game (``game_name``) as a round's is,
and by its lives: ``gnav-2.json.gz`` is the match at the game's preset's lives,
``gnav-2-lives2.json.gz`` at 2 (``match_stem``).

**Versions.** Which match files an expert may read is a numbered set (``MATCH_SETS``),
and a table records the one its bots play (its journal's creation: ``"strategies"``), so
that shipping a match file never changes how a stored table goes on: a table restored
from its journal plays the set it was created with, new tables the newest
(``NEWEST_STRATEGIES``). A journal written before tables said so plays ``FIRST_SET``,
what shipped then. A file ships by a new version holding it; a version that shipped
never changes. (The round files and policies are not versioned: none has shipped again.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from gnav.errors import MalformedError
from gnav.lives_class import round_start_lives as round_start_lives  # the bots key by it
from gnav.rules import Rules
from gnav.strategies import HERE, game_name, games_like, read_json
from gnav.views import SeatView

MATCH_FORMAT = "gnav-match-strategy/1"
MATCH_HERE = HERE / "match"
# Options that make no other match: the pack only changes how the pieces look.
MATCH_FREE = frozenset({"lives", "pack"})
# Lives, out seats and sitting-out seats, in the frame where the dealer is seat 0.
StateKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

# -- the versions of the shipped set (the table's journal names one: "strategies") -----
# Every match file of commit bc5d63a, before tables said which they play: 2 seats of
# every game at its preset's lives and at 2, 3 seats of five games, gnav's 3 at 2 lives.
_GAMES_2 = ("chase-the-ace", "cuccu", "gnav", "gnav-1917", "gnav-pagat", "hypp", "kille",
            "le-her", "slabberjan")
_FIRST = frozenset(
    [f"{g}-2" for g in _GAMES_2] + [f"{g}-2-lives2" for g in _GAMES_2]
    + [f"{g}-3" for g in ("chase-the-ace", "slabberjan", "kille", "hypp", "gnav-pagat")]
    + ["gnav-3-lives2"])
FIRST_SET = 1  # what shipped at bc5d63a: a journal without "strategies" plays it
CUCCU_3 = 2  # and cuccu's 3 seats at its preset's 3 lives
# and gnav's trained match policies (gnav.strategies.match_policy, "policy/" and the
# file's stem): the expert plays for the match at 5 to 14 seats
MATCH_POLICIES = 3
# version -> the match files (match_stem) its experts may read. Append, never change.
MATCH_SETS: dict[int, frozenset[str]] = {
    FIRST_SET: _FIRST,
    CUCCU_3: _FIRST | {"cuccu-3"},
    MATCH_POLICIES: _FIRST | {"cuccu-3", "policy/gnav-5-6", "policy/gnav-7-9",
                              "policy/gnav-10-14"},
}
STRATEGY_SETS = tuple(MATCH_SETS)
NEWEST_STRATEGIES = max(STRATEGY_SETS)  # what new tables write into their journal


def check_strategies(version: int) -> int:
    """``version`` if it is one of ``STRATEGY_SETS``.

    :raises: :exc:`ValueError` naming the known ones otherwise."""
    if version not in MATCH_SETS:
        raise ValueError(f"unknown strategies version {version!r} (known: "
                         f"{', '.join(map(str, STRATEGY_SETS))})")
    return version


def match_options(rules: Rules) -> dict[str, object]:
    """The options that shape a match beside its lives, as a match file names them."""
    return dict(_match_options(rules))


# Rules are immutable: what a table's rules say of its match is worked out once, since
# a table's bots look their match file up at every decision.
@lru_cache(maxsize=256)
def _match_options(rules: Rules) -> tuple[tuple[str, object], ...]:
    return tuple((k, v) for k, v in rules.options.as_dict().items() if k not in MATCH_FREE)


@lru_cache(maxsize=64)
def _preset_lives(preset: str) -> int:
    return Rules.of(preset).options.lives


def state_key(lives: Sequence[int], out: Sequence[int], sitting_out: Sequence[int],
              dealer: int, cap: int) -> StateKey:
    """A match state's key: lives (above ``cap`` read as ``cap``), out and sitting-out
    seats, turned so that the dealer is seat 0. The solver and the bot both key by it."""
    n = len(lives)
    return (tuple(min(lives[(j + dealer) % n], cap) for j in range(n)),
            tuple(sorted((s - dealer) % n for s in out)),
            tuple(sorted((s - dealer) % n for s in sitting_out)))


@dataclass(frozen=True)
class MatchStrategy:
    preset: str
    seats: int
    lives: int
    cap: int
    options: dict[str, object]
    nash_conv: float
    round_exploitability: float
    scale: int
    keys: dict[int, tuple[str, ...]]  # by active seats: the information sets, in order
    states: dict[StateKey, tuple[tuple[float, ...], tuple[int, ...]]]  # values, swap
    meta: dict[str, Any] = field(default_factory=dict)
    # By active seats: information set -> its place in ``keys`` (built once on load).
    index: dict[int, dict[str, int]] = field(default_factory=dict)

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether this is the match of ``rules`` at a table of ``seats`` seats."""
        return (seats == self.seats and rules.options.lives == self.lives
                and match_options(rules) == self.options
                and self.preset in games_like(rules))

    def key_of(self, view: SeatView) -> StateKey:
        """The state ``view``'s round started from, as this file keys it."""
        return state_key(round_start_lives(view), view.out, view.sitting_out, view.dealer,
                         self.cap)

    def values(self, key: StateKey) -> tuple[float, ...] | None:
        """Each seat's chance to win from ``key`` (the key's frame), if the file has it."""
        got = self.states.get(key)
        return None if got is None else got[0]

    def swap_probability(self, key: StateKey, infoset: str, active: int) -> float | None:
        """P(swap) at ``infoset`` of the round at state ``key`` with ``active`` seats
        dealt in; None where the file has no such state or set."""
        got = self.states.get(key)
        at = self.index.get(active, {}).get(infoset)
        if got is None or at is None:
            return None
        return got[1][at] / self.scale


def parse_match(data: object, where: str) -> MatchStrategy:
    if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT:
        raise MalformedError(f"{where}: not a gnav match strategy (format {MATCH_FORMAT!r})")
    try:
        scale = int(data["scale"])
        options = data["options"]
        if not isinstance(options, dict):
            raise MalformedError(f"{where}: 'options' must be an object")
        keys: dict[int, tuple[str, ...]] = {}
        for m, listed in dict(data["keys"]).items():
            if not isinstance(listed, list) or not all(isinstance(k, str) for k in listed):
                raise MalformedError(f"{where}: 'keys' must map seats to lists of keys")
            keys[int(m)] = tuple(listed)
        seats = int(data["seats"])
        states: dict[StateKey, tuple[tuple[float, ...], tuple[int, ...]]] = {}
        for s in data["states"]:
            key = (tuple(int(v) for v in s["lives"]), tuple(int(v) for v in s["out"]),
                   tuple(int(v) for v in s["sitting_out"]))
            swap = s["swap"]
            active = seats - len(set(key[1]) | set(key[2]))
            if len(key[0]) != seats or not isinstance(swap, list) \
                    or len(swap) != len(keys.get(active, ())) \
                    or not all(isinstance(q, int) and 0 <= q <= scale for q in swap):
                raise MalformedError(f"{where}: state {key} must hold {seats} seats' lives "
                                     f"and one P(swap) in 0..{scale} per key of its round")
            states[key] = (tuple(float(v) for v in s["values"]), tuple(swap))
        return MatchStrategy(
            str(data["preset"]), seats, int(data["lives"]), int(data["cap"]), options,
            float(data["nash_conv"]), float(data["round_exploitability"]), scale, keys,
            states, {k: v for k, v in data.items() if k not in ("keys", "states")},
            {m: {k: i for i, k in enumerate(ks)} for m, ks in keys.items()})
    except KeyError as e:
        raise MalformedError(f"{where}: missing field {e.args[0]!r}") from None
    except (TypeError, ValueError, AttributeError) as e:
        raise MalformedError(f"{where}: {e}") from None


@lru_cache(maxsize=32)
def load_match(path: str) -> MatchStrategy:
    """A match strategy file (gzip'd or plain JSON), read once per process.

    :raises: :exc:`MalformedError` if it cannot be read or is not one."""
    return parse_match(read_json(path), path)


def match_stem(preset: str, seats: int, lives: int | None = None) -> str:
    """A match table's name: ``gnav-3`` at the game's own preset's lives (``lives`` None
    or those), ``gnav-3-lives2`` at another count. The round files' names, with the lives
    added only where they are not the preset's: a match at other lives is another match
    (``MatchStrategy.fits``), and the default keeps the name it always had."""
    if lives is None or lives == _preset_lives(preset):
        return f"{preset}-{seats}"
    return f"{preset}-{seats}-lives{lives}"


def shipped_match_name(preset: str, seats: int, lives: int | None = None) -> str:
    return f"{match_stem(preset, seats, lives)}.json.gz"


def shipped_match_files() -> list[Path]:
    return sorted(MATCH_HERE.glob("*.json.gz"))


def shipped_match(rules: Rules, seats: int, strategies: int = NEWEST_STRATEGIES
                  ) -> MatchStrategy | None:
    """The shipped match strategy for a table of ``seats`` seats of ``rules`` (its game's,
    at its lives and match options), if any: the file named for the table's lives, so a
    table of 2 lives plays ``gnav-2-lives2`` and one of 3 (none shipped) nothing. Only a
    file of the set ``strategies`` (the table's version, ``MATCH_SETS``) is read: a file
    shipped since is not the table's.

    :raises: :exc:`ValueError` for a version not in ``STRATEGY_SETS``."""
    stem = match_stem(game_name(rules), seats, rules.options.lives)
    if stem not in MATCH_SETS[check_strategies(strategies)]:
        return None
    path = MATCH_HERE / f"{stem}.json.gz"
    if path.exists():
        strategy = load_match(str(path))
        if strategy.fits(rules, seats):
            return strategy
    return None
