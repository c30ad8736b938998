"""What a table is created with, checked field by field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gnav.bots.registry import BOT_KINDS
from gnav.errors import MalformedError
from gnav.lengths import table_options
from gnav.presets import get_preset
from gnav.rules import Rules
from gnav.vocab import BotKind, Lang

LOOKS = ("pawns", "cards", "cards52")  # cards52: docs/spec/rules.md §7.1
SCORES = ("tokens", "strokes", "gnav")
TIMER_SECONDS = (3, 600)  # a turn timer's range (it may also be off)
GRACE_SECONDS = (0, 600)
# The counter bot samples every hidden piece for each decision: its cost grows with the
# seats (7 ms a decision at 41 seats, 8,000 decisions a match). A creator may ask for
# it at tables up to this size; bigger tables get threshold or random bots. The expert
# bot looks its decision up (an exact strategy to 4 seats, a trained policy from 5 to 41:
# under 0.05 ms a decision at 41 seats) wherever one is shipped for the table's rules and
# options, and plays as counter elsewhere, where the same cap holds for it.
MAX_COUNTER_SEATS = 12
_LANGS = frozenset(Lang)
COSTLY_BOTS = frozenset({BotKind.COUNTER, BotKind.EXPERT, BotKind.EXPERT_ROUND})


def costly_bot_problem(kind: str, seats: int, rules: Rules | None = None) -> str | None:
    """Why bots of ``kind`` may not sit at a table of ``seats`` (of ``rules``), if they
    may not: the one check behind creating a table and adding a bot to it."""
    if kind not in COSTLY_BOTS or seats <= MAX_COUNTER_SEATS:
        return None
    if kind in (BotKind.EXPERT, BotKind.EXPERT_ROUND) and rules is not None \
            and _expert_looks_up(rules, seats):
        return None
    return (f"{kind} bots play at tables of at most {MAX_COUNTER_SEATS} seats, "
            f"not {seats}: choose threshold or random")


def _expert_looks_up(rules: Rules, seats: int) -> bool:
    """Whether the expert plays a shipped strategy or policy at every table size a match
    of ``seats`` passes through (never counter)."""
    from gnav.bots.expert import ExpertBot

    bot = ExpertBot(0)
    return all(not bot.plays(rules, n).startswith("counter")
               for n in range(rules.min_seats, seats + 1))


@dataclass(frozen=True)
class TableConfig:
    preset: str = "gnav"
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 6
    turn_timer: float | None = 30.0  # seconds a person has for a decision; None: no timer
    grace: float = 20.0  # seconds a disconnected seat waits before a bot plays it
    listed: bool = False  # shown in the lobby
    bot: BotKind = BotKind.THRESHOLD  # the kind of bot that fills empty seats and stands in
    score: str | None = None  # lives shown as tokens, strokes or G-N-A-V (None: the preset's)
    look: str = "pawns"
    lang: str | None = None  # the calls' language (None: the preset's)
    # The coach may be asked at this table (the host's "no coaching here" is False):
    # chosen at creation, shown to every seat, enforced by the server.
    coaching: bool = True

    def bot_problem(self, kind: BotKind) -> str | None:
        """Why bots of ``kind`` may not sit at this table, if they may not."""
        return costly_bot_problem(kind, self.seats, self.rules())

    def rules(self) -> Rules:
        return Rules.from_spec({"preset": self.preset, **self.options}, where="options")

    @classmethod
    def from_json(cls, data: object, *, new: bool = False) -> TableConfig:
        """A config from untrusted JSON. ``new``: a table being created, which sets the
        options a table of its size sets by default (``gnav.lengths.table_options``,
        docs/spec/rules.md §6.1) where the host named none, and keeps them in its
        options, so that its journal and records name them; a table restored from its
        journal keeps the options it was created with.

        :raises: :exc:`MalformedError` naming the bad field.
        """
        if not isinstance(data, Mapping):
            raise MalformedError("table: must be an object")
        known = {f for f in cls.__dataclass_fields__}
        extra = set(data) - known
        if extra:
            raise MalformedError(f"table: unknown field {sorted(extra)[0]!r}")
        d = dict(data)
        default = DEFAULT  # what a field left out is: the dataclass's own defaults
        preset = d.get("preset", default.preset)
        options = d.get("options", {})
        if not isinstance(options, Mapping):
            raise MalformedError("options: must be an object of option: value")
        rules = Rules.from_spec({"preset": preset, **options}, where="options")
        seats = d.get("seats", default.seats)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise MalformedError(f"seats: must be a whole number, not {seats!r}")
        try:
            rules.check_seats(seats)
        except ValueError as e:
            raise MalformedError(f"seats: {e}") from None
        if new:
            options = {**table_options(rules.name, seats, rules.options.lives), **options}
            rules = Rules.from_spec({"preset": preset, **options}, where="options")
        timer = d.get("turn_timer", default.turn_timer)
        lo, hi = TIMER_SECONDS
        if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int | float)
                                  or not lo <= timer <= hi):
            raise MalformedError(f"turn_timer: must be off (null) or {lo} to {hi} seconds, "
                                 f"not {timer!r}")
        grace = d.get("grace", default.grace)
        lo, hi = GRACE_SECONDS
        if isinstance(grace, bool) or not isinstance(grace, int | float) \
                or not lo <= grace <= hi:
            raise MalformedError(f"grace: must be {lo} to {hi} seconds, not {grace!r}")
        listed = d.get("listed", default.listed)
        if not isinstance(listed, bool):
            raise MalformedError(f"listed: must be true or false, not {listed!r}")
        bot = d.get("bot", default.bot)
        if bot not in BOT_KINDS:
            raise MalformedError(f"bot: must be one of {', '.join(BOT_KINDS)}, not {bot!r}")
        problem = costly_bot_problem(bot, seats, rules)
        if problem is not None:
            raise MalformedError(f"bot: {problem}")
        score = d.get("score")
        if score is not None and score not in SCORES:
            raise MalformedError(f"score: must be one of {', '.join(SCORES)}, not {score!r}")
        look = d.get("look", default.look)
        if look not in LOOKS:
            raise MalformedError(f"look: must be one of {', '.join(LOOKS)}, not {look!r}")
        lang = d.get("lang")
        if lang is not None and lang not in _LANGS:
            raise MalformedError(f"lang: must be one of {', '.join(Lang)}, not {lang!r}")
        coaching = d.get("coaching", default.coaching)
        if not isinstance(coaching, bool):
            raise MalformedError(f"coaching: must be true or false, not {coaching!r}")
        return cls(rules.preset.name, dict(options), seats,
                   None if timer is None else float(timer), float(grace), listed,
                   BotKind(bot), score, look, lang, coaching)

    def to_json(self) -> dict[str, Any]:
        # The preset alone gives the defaults (options never change them): looking it up
        # is cheap, where building the rules is not, and every message to a seat carries
        # this.
        preset = get_preset(self.preset)
        return {"preset": self.preset, "options": dict(self.options), "seats": self.seats,
                "turn_timer": self.turn_timer, "grace": self.grace, "listed": self.listed,
                "bot": self.bot.value, "score": self.score or preset.score,
                "look": self.look, "lang": self.lang or preset.lang,
                "coaching": self.coaching}


DEFAULT = TableConfig()


def call_langs(preset: str) -> tuple[str, ...]:
    """The languages ``preset``'s calls are made in: its own, then those its pieces have
    calls in, sorted."""
    p = get_preset(preset)
    others = {lang for piece in p.pieces for lang in piece.calls} - {p.lang}
    return (p.lang, *sorted(others))


def lang_problem(config: TableConfig) -> str | None:
    """Why the table's calls cannot be made in its ``lang``, if they cannot. Checked when
    a table is created (not when one is restored: its journal is history)."""
    if config.lang is None:
        return None
    have = call_langs(config.preset)
    if config.lang in have:
        return None
    return (f"lang: {config.preset} has its calls in {', '.join(have)}, "
            f"not {config.lang!r}")
