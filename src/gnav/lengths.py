"""How many rounds a match lasts, and the options a table sets where a preset's own
would keep a match going for ever (docs/spec/rules.md §6.1).

The figures are a data file beside this module, ``lengths.json``, made by ``gnav simulate
--lengths`` (``gnav.fast.lengths``): for every game at every table size, matches of
expert bots with the preset's default options, and with the table's options where they
differ. Nothing here is typed in: the sizes at which a table changes an option are the
file's, chosen by the command by a rule written beside it. A game is measured once, under
its first preset (``game_of``: gnav-rulebook plays gnav's matches and reads gnav's
figures), as the shipped strategies are named by their game (``gnav.strategies``).

Why a table changes anything: without a gain of lives, every round costs at least one
life (the lowest piece always pays), so a match of ``seats`` seats at ``lives`` lives
ends within ``seats * lives`` rounds. With ``two_fools = gain`` at a large table, both
fools are in hand in most rounds, their holders gain and nobody pays: the match drags on
or never ends. Where the file says so, a table sets the option it names (``two_fools =
pay``, S1's rule; or a fixed number of rounds, S0's) unless the host named that option.
The meaning of a preset and its options never changes with the size: a table writes the
option it set into the record, which says it explicitly.

Standard library only: the table, the server and the terminal read it without numpy.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gnav.errors import MalformedError
from gnav.presets import PRESETS_LIST, Preset, get_preset
from gnav.rules import Rules

FORMAT = "gnav-lengths/1"
PATH = Path(__file__).resolve().with_name("lengths.json")
# The fixed number of rounds a remedy may set: this many rounds for each life at the
# table (seats * lives), the most a match can last without a gain of lives.
ROUNDS_PER_LIFE = "rounds_per_life"


@dataclass(frozen=True)
class Length:
    """Rounds a match lasted over the measured matches: the median, the 95th percentile,
    and the share that ended within the cap (the rest: "does not end")."""

    median: float
    p95: float
    ends: float


@dataclass(frozen=True)
class Remedy:
    """What a table sets from ``start`` seats up: ``options`` (an option's value, or for
    ``max_rounds`` the words ``rounds_per_life``: seats times lives)."""

    start: int
    options: Mapping[str, object]


@dataclass(frozen=True)
class PresetLengths:
    preset: str
    lives: int
    default: Mapping[int, Length]  # by size, the preset's default options
    remedy: Remedy | None
    remedied: Mapping[int, Length]  # by size, with the remedy's options (all sizes)


@dataclass(frozen=True)
class Expected:
    """The expected length of a match at a table: ``length``, and how it was found:
    ``measured`` (these very options), ``scaled`` (measured at other lives, scaled), or
    neither (measured with the table's default options, which these differ from)."""

    length: Length
    measured: bool
    scaled: bool
    remedy: Remedy | None  # the preset's remedy, if it has one (whatever the size)
    remedied: bool  # these options are the remedy's (at any size)

    def as_json(self) -> dict[str, Any]:
        r = self.remedy
        return {"median": self.length.median, "p95": self.length.p95,
                "ends": self.length.ends, "measured": self.measured, "scaled": self.scaled,
                "remedied": self.remedied,
                "remedy": None if r is None else {"from": r.start, "options": dict(r.options)}}


def game_of(preset: Preset) -> str:
    """The name of ``preset``'s game for its match lengths: the first built-in preset
    with the same pieces, default options and table sizes (the same matches, so one
    measurement), or ``preset``'s own name where none has them. Unlike a strategy's game
    (``gnav.strategies.game_name``: the round's options), a match's length depends on
    every option, the lives among them."""
    for p in PRESETS_LIST:
        if (p.pieces, p.options, p.min_seats, p.max_seats) == \
                (preset.pieces, preset.options, preset.min_seats, preset.max_seats):
            return p.name
    return preset.name


@dataclass(frozen=True)
class Lengths:
    presets: Mapping[str, PresetLengths]  # by game (``game_of``), one entry each
    meta: Mapping[str, Any]

    def of(self, preset: Preset) -> PresetLengths | None:
        """The figures ``preset`` plays by: its game's, None where none were measured."""
        return self.presets.get(game_of(preset))


def _rows(data: object, where: str) -> dict[int, Length]:
    if not isinstance(data, list):
        raise MalformedError(f"{where}: must be a list of [seats, median, p95, ends]")
    out: dict[int, Length] = {}
    for row in data:
        if not (isinstance(row, list) and len(row) == 4
                and all(isinstance(x, int | float) for x in row)):
            raise MalformedError(f"{where}: {row!r} is not [seats, median, p95, ends]")
        out[int(row[0])] = Length(float(row[1]), float(row[2]), float(row[3]))
    return out


def parse(data: object, where: str = "lengths") -> Lengths:
    """The lengths file's JSON, checked.

    :raises: :exc:`MalformedError` for anything not of its form."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedError(f"{where}: not a lengths file (format {FORMAT!r})")
    presets: dict[str, PresetLengths] = {}
    try:
        for entry in data["presets"]:
            name = str(entry["preset"])
            r = entry["remedy"]
            remedy = None if r is None else Remedy(int(r["from"]), dict(r["options"]))
            presets[name] = PresetLengths(
                name, int(entry["lives"]), _rows(entry["default"], f"{where}: {name}"),
                remedy, _rows(entry.get("remedied", []), f"{where}: {name}"))
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedError(f"{where}: {e!r}") from None
    return Lengths(presets, {k: v for k, v in data.items() if k != "presets"})


@lru_cache(maxsize=1)
def shipped() -> Lengths:
    """The shipped figures (``lengths.json``), read once."""
    return parse(json.loads(PATH.read_text(encoding="utf-8")), str(PATH))


def remedy_options(remedy: Remedy, seats: int, lives: int) -> dict[str, object]:
    """The options ``remedy`` sets at a table of ``seats`` seats and ``lives`` lives."""
    return {name: seats * lives if value == ROUNDS_PER_LIFE else value
            for name, value in remedy.options.items()}


def table_options(preset: str, seats: int, lives: int | None = None) -> dict[str, object]:
    """The options a table of ``preset`` at ``seats`` seats sets by default (none where
    the preset's own end): docs/spec/rules.md §6.1. ``lives``: the table's (default:
    the preset's)."""
    found = shipped().of(get_preset(preset))
    if found is None or found.remedy is None or seats < found.remedy.start:
        return {}
    return remedy_options(found.remedy, seats, found.lives if lives is None else lives)


def at_table(rules: Rules, seats: int, named: Collection[str] = ()) -> Rules:
    """``rules`` as a table of ``seats`` seats plays them: with the options of
    ``table_options`` set, except those in ``named`` (the ones the host chose)."""
    changes = {k: v for k, v in table_options(rules.name, seats, rules.options.lives).items()
               if k not in named}
    if not changes:
        return rules
    return Rules(rules.preset, rules.options.updated(changes))


def _key(rules: Rules) -> dict[str, object]:
    return {k: v for k, v in rules.options.as_dict().items() if k not in ("lives", "pack")}


def expected(rules: Rules, seats: int) -> Expected | None:
    """How long a match of ``rules`` at ``seats`` seats is expected to last, or None
    where the file holds nothing for the preset or the size."""
    found = shipped().of(rules.preset)
    if found is None or seats not in found.default:
        return None
    lives = rules.options.lives
    base = Rules.of(rules.preset, lives=found.lives)
    remedy = found.remedy
    key = _key(rules)
    remedied = remedy is not None and key == _key(
        Rules(base.preset, base.options.updated(remedy_options(remedy, seats, lives))))
    if remedied and seats in found.remedied:
        length = found.remedied[seats]
    elif key == _key(base):
        length = found.default[seats]
    else:  # options the file does not hold: the table's own defaults' figure, said so
        own = remedy is not None and seats >= remedy.start
        return Expected((found.remedied if own else found.default)[seats], False, False,
                        remedy, False)
    if lives == found.lives:
        return Expected(length, True, False, remedy, remedied)
    if length.ends < 1.0:  # held up by gains: no proportion to the lives holds
        return Expected(length, False, False, remedy, remedied)
    # A match that ends takes a number of rounds about in proportion to the lives at the
    # table: the figure scaled, and said to be.
    f = lives / found.lives
    return Expected(Length(round(length.median * f, 1), round(length.p95 * f, 1),
                           length.ends), False, True, remedy, remedied)


def remedy_rows(found: Lengths) -> list[str]:
    """The table of docs/spec/rules.md §6.1, a Markdown row a remedy: presets with the
    same remedy from the same size in one row (every built-in preset of a game)."""
    rows: dict[tuple[int, str], list[str]] = {}
    for name, p in found.presets.items():
        if p.remedy is None:
            continue
        said = ", ".join("max_rounds = n × L" if v == ROUNDS_PER_LIFE else f"{k} = {v}"
                         for k, v in p.remedy.options.items())
        rows.setdefault((p.remedy.start, said), []).extend(
            f"`{q.name}`" for q in PRESETS_LIST if game_of(q) == name)
    return [f"| {', '.join(names)} | {start} seats | `{said}` |"
            for (start, said), names in rows.items()]


def render(found: Lengths) -> str:
    """The figures as a text table, a line a preset and size: the preset's own options,
    and from the size a table remedies, the options it sets and their figures."""
    lines = [f"{'preset':<14} {'seats':>5} {'median':>7} {'p95':>6} {'ends':>6}   "
             f"{'a table plays':<28} {'median':>7} {'p95':>6}"]
    for name, p in found.presets.items():
        for n, x in sorted(p.default.items()):
            extra = ""
            if p.remedy is not None and n >= p.remedy.start:
                y = p.remedied[n]
                said = ", ".join(f"{k}={v}" for k, v in
                                 remedy_options(p.remedy, n, p.lives).items())
                extra = f"   {said:<28} {y.median:>7.0f} {y.p95:>6.0f}"
            ends = "never" if x.ends == 0 else f"{x.ends:.0%}"
            lines.append(f"{name:<14} {n:>5} {x.median:>7.0f} {x.p95:>6.0f} {ends:>6}{extra}")
    return "\n".join(lines)
