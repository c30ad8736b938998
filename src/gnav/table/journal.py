"""The table's journal entries, as types: one frozen dataclass for each kind of entry.

The table writes these (``Table.create``, ``join``, ``act`` ...); the server turns them
into JSON at the store's edge (``to_json``, ``dump``) and a store keeps that JSON as it
always has: the bytes are those written before there were types, so journals already
stored replay, and Redis seals the first entry's secrets as before
(``gnav.server.sealing``). A journal read back from a store is data from outside the
process, as the wire's messages are: ``parse_entry`` checks every field of an entry once,
at the edge (``Table.restore``), and refuses a malformed one in one line naming the
entry and the field; the table then replays types alone. An entry parsed and dumped
again is the text it was; only an old creation's config comes back as the table reads it
(``TableConfig``: a field added since, at its default), which changes nothing stored, as
a stored entry is never rewritten.

``t`` (the clock at the change) and ``v`` (the table's version after it) are left out
of an entry that has none: the bots a start seats write neither, and a journal written
by an early table may lack them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias, TypeVar

from gnav.errors import MalformedError
from gnav.names import Name
from gnav.seeds import SEEDINGS
from gnav.strategies.match import STRATEGY_SETS
from gnav.table.config import TableConfig
from gnav.vocab import Action, BotKind

# An entry as a store keeps it: JSON, from outside the process.
Raw: TypeAlias = dict[str, Any]


class Op(StrEnum):
    """What a journal entry records (its ``op``): the table's creation, a person
    seated, a bot seated or a seat freed, a match started, a decision, a lobby closed."""

    CREATE = "create"
    JOIN = "join"
    BOT = "bot"
    UNBOT = "unbot"
    START = "start"
    ACT = "act"
    EXPIRE = "expire"


class Mover(StrEnum):
    """Who made a decision at the table, as the journal's ``by`` writes it: the person
    in the seat, the seat's bot, a stand-in for a person away past their grace, or a
    bot for a person whose turn timer ran out."""

    PERSON = "person"
    BOT = "bot"
    STANDIN = "standin"
    TIMER = "timer"


def _later(raw: Raw, **fields: object) -> Raw:
    """``raw`` with those of ``fields`` that are set (None: the entry has none)."""
    raw.update((k, v) for k, v in fields.items() if v is not None)
    return raw


@dataclass(frozen=True)
class CreateEntry:
    """The table's creation: its config, master seed (and how seeds are drawn from
    it: None, a journal written before that was said), and the host token's digest.
    ``req``/``sealed``: the create's request key, digested, and the host token sealed
    with it (``gnav.table.retries``). ``strategies``: the version of the shipped match
    strategies its bots play (``gnav.strategies.match.MATCH_SETS``; None, a journal
    written before that was said: the first set)."""

    op: ClassVar[Op] = Op.CREATE
    id: str
    config: TableConfig
    seed: int
    seeds: int | None
    host: str
    t: float
    req: str | None = None
    sealed: str | None = None
    strategies: int | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value, "id": self.id, "config": self.config.to_json(),
                       "seed": self.seed}, seeds=self.seeds, strategies=self.strategies,
                      host=self.host, t=self.t, req=self.req, sealed=self.sealed)


@dataclass(frozen=True)
class JoinEntry:
    """A person seated: their name and the digest of their seat token (and of the
    join's request key, with the token sealed with it)."""

    op: ClassVar[Op] = Op.JOIN
    seat: int
    name: Name
    token: str
    req: str | None = None
    sealed: str | None = None
    v: int | None = None
    t: float | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value, "seat": self.seat, "name": self.name,
                       "token": self.token}, req=self.req, sealed=self.sealed, v=self.v,
                      t=self.t)


@dataclass(frozen=True)
class BotEntry:
    """A bot seated, by the host (with ``v`` and ``t``) or by a start filling empty
    seats (without: the start's own entry says when)."""

    op: ClassVar[Op] = Op.BOT
    seat: int
    kind: BotKind
    name: Name
    req: str | None = None
    v: int | None = None
    t: float | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value, "seat": self.seat, "kind": self.kind.value,
                       "name": self.name}, req=self.req, v=self.v, t=self.t)


@dataclass(frozen=True)
class UnbotEntry:
    """A seat freed by the host (a bot's, or a person's who has not shown up)."""

    op: ClassVar[Op] = Op.UNBOT
    seat: int
    req: str | None = None
    v: int | None = None
    t: float | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value, "seat": self.seat}, req=self.req, v=self.v,
                      t=self.t)


@dataclass(frozen=True)
class StartEntry:
    """A match started (its deal follows from the seeds: no piece is written)."""

    op: ClassVar[Op] = Op.START
    t: float | None = None
    v: int | None = None
    req: str | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value}, t=self.t, v=self.v, req=self.req)


@dataclass(frozen=True)
class ActEntry:
    """A decision: whose, which, by whom (None: a journal from before that was
    written), and whether the seat had the coach's figures for it."""

    op: ClassVar[Op] = Op.ACT
    seat: int
    action: Action
    by: Mover | None = None
    t: float | None = None
    v: int | None = None
    coached: bool = False

    def to_json(self) -> Raw:
        return _later({"op": self.op.value, "seat": self.seat, "action": self.action.value},
                      by=None if self.by is None else self.by.value, t=self.t, v=self.v,
                      coached=self.coached or None)  # written only when true


@dataclass(frozen=True)
class ExpireEntry:
    """A lobby closed, never started."""

    op: ClassVar[Op] = Op.EXPIRE
    v: int | None = None
    t: float | None = None

    def to_json(self) -> Raw:
        return _later({"op": self.op.value}, v=self.v, t=self.t)


Entry: TypeAlias = (CreateEntry | JoinEntry | BotEntry | UnbotEntry | StartEntry | ActEntry
                    | ExpireEntry)


def dump(entries: Iterable[Entry]) -> list[Raw]:
    """Entries as a store keeps them."""
    return [e.to_json() for e in entries]


# -- parsing ---------------------------------------------------------------------------

_E = TypeVar("_E", bound=StrEnum)


def _kind_of(value: object) -> str:
    """What a JSON value is, in words (the value itself is never shown: a journal
    holds digests and sealed tokens, and an error line ends up in logs)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__  # pragma: no cover - JSON has no other values


class _Fields:
    """The fields of one raw entry, each taken once and checked; ``done`` refuses
    those left over."""

    def __init__(self, raw: Mapping[str, Any], where: str) -> None:
        self.raw, self.where = raw, where
        self.taken = {"op"}

    def fail(self, name: str, problem: str) -> MalformedError:
        return MalformedError(f"{self.where}: {name}: {problem}")

    def absent(self, name: str) -> bool:
        self.taken.add(name)
        return name not in self.raw

    def value(self, name: str) -> object:
        """The field as it is (its type checked by the caller)."""
        if self.absent(name):
            raise self.fail(name, "missing")
        return self.raw[name]

    def _wrong(self, name: str, what: str, value: object) -> MalformedError:
        return self.fail(name, f"must be {what}, not {_kind_of(value)}")

    def text(self, name: str) -> str:
        value = self.value(name)
        if not isinstance(value, str):
            raise self._wrong(name, "text", value)
        return value

    def maybe_text(self, name: str) -> str | None:
        return None if self.absent(name) else self.text(name)

    def whole(self, name: str, *, least: int | None = 0) -> int:
        value = self.value(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(name, "a whole number", value)
        if least is not None and value < least:
            raise self.fail(name, f"must be at least {least}, not {value}")
        return value

    def maybe_whole(self, name: str) -> int | None:
        return None if self.absent(name) else self.whole(name)

    def time(self, name: str) -> float:
        # Kept as written (a whole number stays one): the entry dumps to the same bytes.
        value = self.value(name)
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise self._wrong(name, "a finite number of seconds", value)
        return value

    def maybe_time(self, name: str) -> float | None:
        return None if self.absent(name) else self.time(name)

    def choice(self, name: str, kind: type[_E]) -> _E:
        value = self.value(name)
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return kind(value)
        except ValueError:
            shown = repr(value) if isinstance(value, str) and len(value) <= 24 \
                else _kind_of(value)
            raise self.fail(name, f"must be one of {', '.join(kind)}, not {shown}") from None

    def flag(self, name: str) -> bool:
        if self.absent(name):
            return False
        value = self.raw[name]
        if not isinstance(value, bool):
            raise self._wrong(name, "true or false", value)
        return value

    def done(self) -> None:
        extra = sorted(set(self.raw) - self.taken)
        if extra:  # (a name from outside: shown quoted and cut, so the line stays one)
            raise self.fail(repr(extra[0][:24]), "not a field of this entry")


def _create(f: _Fields) -> CreateEntry:
    id_ = f.text("id")
    try:
        config = TableConfig.from_json(f.value("config"))
    except MalformedError as e:
        raise f.fail("config", str(e)) from None
    seed = f.whole("seed", least=None)
    seeds = f.maybe_whole("seeds")
    if seeds is not None and seeds not in SEEDINGS:
        raise f.fail("seeds", f"must be one of {', '.join(map(str, SEEDINGS))}, not {seeds}")
    strategies = f.maybe_whole("strategies")
    if strategies is not None and strategies not in STRATEGY_SETS:
        raise f.fail("strategies", f"must be one of {', '.join(map(str, STRATEGY_SETS))}, "
                                   f"not {strategies}")
    host = f.text("host")
    return CreateEntry(id_, config, seed, seeds, host, f.time("t"), f.maybe_text("req"),
                       f.maybe_text("sealed"), strategies)


def _join(f: _Fields) -> JoinEntry:
    return JoinEntry(f.whole("seat"), Name(f.text("name")), f.text("token"),
                     f.maybe_text("req"), f.maybe_text("sealed"), f.maybe_whole("v"),
                     f.maybe_time("t"))


def _bot(f: _Fields) -> BotEntry:
    return BotEntry(f.whole("seat"), f.choice("kind", BotKind), Name(f.text("name")),
                    f.maybe_text("req"), f.maybe_whole("v"), f.maybe_time("t"))


def _unbot(f: _Fields) -> UnbotEntry:
    return UnbotEntry(f.whole("seat"), f.maybe_text("req"), f.maybe_whole("v"),
                      f.maybe_time("t"))


def _start(f: _Fields) -> StartEntry:
    return StartEntry(f.maybe_time("t"), f.maybe_whole("v"), f.maybe_text("req"))


def _act(f: _Fields) -> ActEntry:
    seat, action = f.whole("seat"), f.choice("action", Action)
    by = None if f.absent("by") else f.choice("by", Mover)
    return ActEntry(seat, action, by, f.maybe_time("t"), f.maybe_whole("v"),
                    f.flag("coached"))


def _expire(f: _Fields) -> ExpireEntry:
    return ExpireEntry(f.maybe_whole("v"), f.maybe_time("t"))


_PARSERS: dict[Op, Callable[[_Fields], Entry]] = {
    Op.CREATE: _create, Op.JOIN: _join, Op.BOT: _bot, Op.UNBOT: _unbot, Op.START: _start,
    Op.ACT: _act, Op.EXPIRE: _expire}


def parse_entry(raw: object, where: str = "journal entry") -> Entry:
    """``raw`` (an entry a store gave back) as its type, every field checked.

    :raises: :exc:`MalformedError` in one line naming ``where`` (e.g. "journal entry
        5"), the entry's kind and the field, for an entry the table never writes.
    """
    if not isinstance(raw, Mapping):
        raise MalformedError(f"{where}: must be an object, not {_kind_of(raw)}")
    op = raw.get("op")
    if op not in _PARSERS:
        shown = repr(op) if isinstance(op, str) and len(op) <= 24 else _kind_of(op)
        raise MalformedError(f"{where}: op: must be one of {', '.join(Op)}, not {shown}")
    fields = _Fields(raw, f"{where} ({op})")
    entry = _PARSERS[Op(op)](fields)
    fields.done()
    return entry
