"""The options of docs/spec/rules.md §7: names, values and defaults are part of the contract.

An option with a few named values has a ``StrEnum`` of ``gnav.vocab`` as its type, and
``CHOICES`` (what a form offers, what a check accepts) is read off those types: a new
value is added in one place. A member is its string, so records, forms and the wire keep
the plain words (``KnockMode.PUBLIC == "public"``, ``json.dumps`` writes ``"public"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any, get_type_hints

from gnav.errors import OptionError
from gnav.vocab import KnockMode, Pack, PenaltyTo, Revealed, TwoFools

RANGES: dict[str, tuple[int, int]] = {"lives": (1, 10), "copies": (1, 4)}


@dataclass(frozen=True)
class Options:
    """The options of docs/spec/rules.md §7, checked: build changed ones with ``updated``."""

    lives: int = 4
    copies: int = 2
    knock: KnockMode = KnockMode.PUBLIC
    revealed: Revealed = Revealed.SKIP
    drag: bool = True
    two_fools: TwoFools = TwoFools.GAIN
    two_fools_sit_out: bool = True
    penalty_to: PenaltyTo = PenaltyTo.POOL
    stand_needs_matador: bool = False
    max_rounds: int | None = None
    # Le Her's rule: the dealer never pays for a tie on the rank that pays.
    dealer_wins_ties: bool = False
    # What the table plays with: wooden pieces, the game's own cards, or an ordinary pack
    # of 52 cards and two jokers (gnav.cards maps the pieces onto it). It changes how the
    # pieces are shown and named, never the play.
    pack: Pack = Pack.PIECES

    def __post_init__(self) -> None:
        # ``Options(knock="silent")`` is read as the word it is: every option of named
        # values holds its enum member, however it was built (a bad word: OptionError).
        for name, kind in CHOICE_TYPES.items():
            value = getattr(self, name)
            if type(value) is not kind:
                object.__setattr__(self, name, check(name, value, where="options"))

    def updated(self, changes: Mapping[str, object], *, where: str = "rules") -> Options:
        """These options with ``changes`` applied, each one checked.

        :raises: :exc:`OptionError` for an unknown option or a value out of its range, naming
            ``where``.
        """
        known = {f.name for f in fields(self)}
        checked: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in known:
                raise OptionError(
                    f"{where}: unknown option {name!r} (options: {', '.join(sorted(known))})"
                )
            checked[name] = check(name, value, where=where)
        return replace(self, **checked)

    def as_dict(self) -> dict[str, object]:
        """Every option by name, as a record or a form would spell it."""
        return asdict(self)


_HINTS = get_type_hints(Options)
# The options of named values, by their enum; their choices, as a form offers them.
CHOICE_TYPES: dict[str, type[StrEnum]] = {
    name: hint for name, hint in _HINTS.items()
    if isinstance(hint, type) and issubclass(hint, StrEnum)}
CHOICES: dict[str, tuple[str, ...]] = {
    name: tuple(kind) for name, kind in CHOICE_TYPES.items()}
BOOLS: tuple[str, ...] = tuple(name for name, hint in _HINTS.items() if hint is bool)


def check(name: str, value: object, *, where: str = "rules") -> object:
    """``value`` if it is a valid value of option ``name`` (an option of named
    values: its enum member).

    :raises: :exc:`OptionError` for an unknown option or a value out of its range.
    """
    if name in RANGES:
        lo, hi = RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise OptionError(f"{where}: {name} must be a whole number from {lo} to {hi}, "
                              f"not {value!r}")
        return value
    if name in CHOICE_TYPES:
        if not isinstance(value, str) or value not in CHOICES[name]:
            raise OptionError(f"{where}: {name} must be one of {', '.join(CHOICES[name])}, "
                              f"not {value!r}")
        return CHOICE_TYPES[name](value)
    if name in BOOLS:
        if not isinstance(value, bool):
            raise OptionError(f"{where}: {name} must be true or false, not {value!r}")
        return value
    if name == "max_rounds":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(f"{where}: max_rounds must be none or a whole number of at "
                              f"least 1, not {value!r}")
        return value
    raise OptionError(f"{where}: unknown option {name!r}")


def parse_text(name: str, text: str) -> object:
    """An option value typed on a command line, as the JSON value it stands for."""
    low = text.strip().lower()
    if name in BOOLS:
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        return text
    if name in RANGES or name == "max_rounds":
        if name == "max_rounds" and low in ("none", "null", ""):
            return None
        try:
            return int(low)
        except ValueError:
            return text
    return low
