"""One table: seats, the match, versions, timers and stand-ins, without any I/O.

The table master speaks in types. Its methods take values the edge has parsed already
(a ``Name``, an ``Action``, a ``BotKind``, whole numbers and tokens) and refuse only
what depends on the table's state (not your turn, a stale version, a name taken, a full
table, not the host). Every method takes the time ``now`` from the caller and returns a
``Result``: the journal entries to store (before anyone is told) and typed notices of
what happened (``Played``, ``News``, ``Snapshot``), which ``gnav.table.render`` turns
into each seat's messages. A table is rebuilt from its journal alone
(``Table.restore``), timers included.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain, count
from random import Random
from typing import Any, TypeAlias

from gnav.bots.registry import table_bot
from gnav.errors import Code, GnavError, RefusedError
from gnav.events import Eliminated, Event, MatchEnd
from gnav.match import MatchState
from gnav.names import Name, name_key
from gnav.protocol import Bot
from gnav.record import from_match
from gnav.rules import Rules
from gnav.runner import play_until
from gnav.seeds import LEGACY, VIEWS, TableSeeds
from gnav.strategies.match import FIRST_SET, NEWEST_STRATEGIES, check_strategies
from gnav.table.config import DEFAULT, TableConfig
from gnav.table.journal import (
    ActEntry,
    BotEntry,
    CreateEntry,
    Entry,
    ExpireEntry,
    JoinEntry,
    Mover,
    Raw,
    StartEntry,
    UnbotEntry,
    parse_entry,
)
from gnav.table.retries import KEPT, RequestKey, digest, same, seal, unseal
from gnav.views import SeatView, seat_view
from gnav.vocab import Action, BotKind, Phase, SeatKind, TablePhase

# Updates re-sent on reconnect; a client further behind gets a fresh snapshot (one
# message, however far behind it is: nobody can ask for hundreds of frames).
MAX_CATCH_UP = 64
STEPS_KEPT = 128  # at least the steps one change can make (two per bot decision)


@dataclass(frozen=True)
class Pace:
    """How fast bots play, so that no table hogs the server and people can follow.

    One change plays at most ``burst`` bot decisions, and stops early once it has
    thought for ``seconds``; the timer carries on from there. With a person connected
    bots answer at once; with only spectators they take ``watched`` seconds a decision
    (a person's pace, so the watchers see the match); at a table nobody is at, the next
    burst waits at least ``idle`` seconds, and long enough that its bots think at most
    ``duty`` of the time. People's own pace: ``shown_within``.
    """

    burst: int = 24
    seconds: float = 0.01
    watched: float = 1.0
    idle: float = 0.1
    duty: float = 0.1
    # A person's turn timer starts when their page says it shows the turn (``shown``),
    # at most this many seconds after the turn came: a slow phone or network costs the
    # player no time, and a page that says so late (or lies) wins at most this much.
    shown_within: float = 3.0


class Refused(RefusedError):
    """A request the table turns down for the table's state (not your turn, a stale
    version, a name taken, a full table, not the host); ``code`` says which."""


# The public description of the table (``Table.info``): the same for everyone, so one
# is built per notice and every seat's message shares it.
Info: TypeAlias = dict[str, Any]


@dataclass(frozen=True)
class Step:
    """One applied change of the match, kept so a reconnecting seat can catch up."""

    version: int
    match: MatchState
    start: int  # index in the round's public log where this step's events begin
    extra: tuple[Event, ...]  # match-level events (elimination, match end)
    seat: int | None = None  # who decided (None: a deal)
    by: Mover | None = None
    action: Action | None = None  # what they decided (a retried decision is known by it)


@dataclass(frozen=True)
class Played:
    """The steps one decision made (the decision, and the deal it may have led to), to
    the people in ``told`` and the spectators, each through their own view."""

    steps: tuple[Step, ...]
    table: Info  # the table as it was right after these steps
    told: tuple[int, ...]


@dataclass(frozen=True)
class Missed:
    """The steps a connection missed, for that connection alone: a catch-up, which
    repeats no "a bot played for you" mark."""

    steps: tuple[Step, ...]
    table: Info


@dataclass(frozen=True)
class News:
    """The table changed without a move (a seat taken or freed, a lobby closed, someone
    gone or back): everyone gets the table as it is, at ``version``."""

    version: int
    table: Info
    told: tuple[int, ...]


@dataclass(frozen=True)
class Snapshot:
    """Everything needed to draw the table from scratch: for everyone when a match
    starts, or for one connection too far behind to catch up."""

    version: int
    match: MatchState | None
    table: Info
    told: tuple[int, ...] = ()


Notice: TypeAlias = Played | Missed | News | Snapshot


@dataclass
class Result:
    journal: list[Entry] = field(default_factory=list)  # the store's JSON: journal.dump
    notices: list[Notice] = field(default_factory=list)

    def extend(self, other: Result) -> None:
        self.journal += other.journal
        self.notices += other.notices


@dataclass(frozen=True)
class Saved:
    """What a change can alter, kept so a change that fails can be undone."""

    phase: TablePhase
    seats: tuple[Seat, ...]
    match: MatchState | None
    games: int
    version: int
    steps: tuple[Step, ...]
    turn_since: float | None
    coached: tuple[tuple[int, int], ...] = ()
    turn_shown: float | None = None
    asked: tuple[str, ...] = ()


@dataclass
class Seat:
    kind: SeatKind = SeatKind.EMPTY
    name: Name | None = None
    bot: BotKind | None = None  # the kind of bot in a bot seat
    token: str | None = None  # sha256 of the seat token, hex
    connected: bool = False
    away_since: float | None = None
    # The join's request key, digested, and the seat token sealed with it: a retried
    # join answers with the seat and its token (``gnav.table.retries``).
    req: str | None = None
    sealed: str | None = None

    def copy(self) -> Seat:
        # Every field, as dataclasses.replace would, at a fifth of its cost (a copy of
        # each seat is kept before every change, for its undo).
        twin = object.__new__(Seat)
        twin.__dict__.update(self.__dict__)
        return twin

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "name": self.name,
                "bot": None if self.bot is None else self.bot.value,
                "connected": self.kind == SeatKind.BOT or self.connected}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_token(token: object, digest: str | None) -> bool:
    if not isinstance(token, str) or digest is None:
        return False
    try:
        return hmac.compare_digest(hash_token(token), digest)
    except UnicodeEncodeError:  # a lone surrogate: no token this table gave
        return False


class Table:
    def __init__(self, table_id: str, config: TableConfig, *, seed: int, host: str,
                 now: float, seeds: int = VIEWS,
                 strategies: int = NEWEST_STRATEGIES) -> None:
        self.id = table_id
        self.config = config
        self.rules: Rules = config.rules()
        self.seed = seed
        self.seeds = TableSeeds(seed, seeds)  # a journal's own way, kept on restore
        # The shipped match strategies its bots play (gnav.strategies.match.MATCH_SETS),
        # kept on restore too: a file shipped since never changes how it goes on.
        self.strategies = check_strategies(strategies)
        self.host = host  # sha256 of the host token
        self.created = now
        self.phase = TablePhase.LOBBY
        self.seats = [Seat() for _ in range(config.seats)]
        self.match: MatchState | None = None
        self.games = 0
        self.version = 0
        self.steps: list[Step] = []
        self.turn_since: float | None = None  # when the seat to act got its turn
        # When that person's turn timer started: their page said it shows the turn (not
        # journaled, like who is connected: a table restored starts every timer again).
        self.turn_shown: float | None = None
        # The digests of the latest host requests' keys (at most ``KEPT``), and the
        # create's with the host token sealed: a retry of one changes nothing.
        self.asked: list[str] = []
        self.create_req: str | None = None
        self.host_sealed: str | None = None
        # Whether anyone watches (the server says, before each change): with only
        # spectators, bots play at a pace they can follow (see ``Pace``).
        self.watched = True
        self.pace = Pace()  # the server sets its own
        self._thought = 0.0  # seconds the last burst of bots took (for the pace)
        # The coach: the version at which each seat was last given the coach's figures
        # (not journaled: the decision it leads to is), and the match's decisions taken
        # with them, (round, seat), written to the record as ``x.coached``.
        self.advised: dict[int, int] = {}
        self.coached: list[tuple[int, int]] = []
        # Where an expert would play counter: worked out once, on first asking.
        self._counter_spans: list[dict[str, str]] | None = None
        self._expected: dict[str, object] | None = None
        # What times the bots' thinking, for the pace: a test gives one that stands
        # still, so that where its bursts end does not depend on how busy the machine is.
        self.stopwatch: Callable[[], float] = time.perf_counter

    def save(self) -> Saved:
        """What the next change may alter (cheap: the match is immutable)."""
        return Saved(self.phase, tuple(s.copy() for s in self.seats), self.match,
                     self.games, self.version, tuple(self.steps), self.turn_since,
                     tuple(self.coached), self.turn_shown, tuple(self.asked))

    def undo(self, saved: Saved) -> None:
        """Back to ``saved``: a change that failed half-way leaves no trace."""
        self.phase, self.match, self.games = saved.phase, saved.match, saved.games
        self.seats = [s.copy() for s in saved.seats]
        self.version, self.steps = saved.version, list(saved.steps)
        self.turn_since = saved.turn_since
        self.coached = list(saved.coached)
        self.turn_shown = saved.turn_shown
        self.asked = list(saved.asked)

    # -- creation and restore -------------------------------------------------------

    @classmethod
    def create(cls, table_id: str, config: TableConfig, *, now: float,
               seed: int | None = None, req: RequestKey | None = None
               ) -> tuple[Table, str, Result]:
        """A new table, its host token, and the journal entry that records it. ``req``:
        the client's key for this create, kept so that a retry finds the table and its
        host token (``host_token_for``)."""
        seed = secrets.randbits(48) if seed is None else seed
        token = secrets.token_urlsafe(24)
        table = cls(table_id, config, seed=seed, host=hash_token(token), now=now)
        if req is not None:
            table.create_req, table.host_sealed = digest(req), seal(token, req)
        entry = CreateEntry(table_id, config, seed, table.seeds.version, table.host, now,
                            table.create_req, table.host_sealed, table.strategies)
        return table, token, Result([entry])

    def host_token_for(self, req: RequestKey) -> str | None:
        """The host token, for a retry of the create made with ``req``; else None."""
        if self.host_sealed is None or not same(req, self.create_req):
            return None
        return unseal(self.host_sealed, req)

    @classmethod
    def restore(cls, journal: Sequence[Raw | Entry], *, now: float | None = None) -> Table:
        """The table as its journal left it. Bots are not asked again: every decision,
        theirs included, is in the journal. Raw entries (JSON, as a store gives them
        back) are parsed here, at the edge, each once (``gnav.table.journal``); typed
        ones (a table's own, not yet stored) are taken as they are.

        With ``now`` (a server coming back), the turn timer and every grace period start
        again at ``now``: nobody loses a turn, or a seat to a bot, to the outage.

        :raises: :exc:`GnavError` in one line for a journal that does not start with a
            creation, or an entry that is malformed or does not fit the table (naming
            the entry, counted from 0, and the field).
        """
        entries = [e if isinstance(e, Entry) else parse_entry(e, f"journal entry {i}")
                   for i, e in enumerate(journal)]
        if not entries or not isinstance(first := entries[0], CreateEntry):
            raise GnavError("a table journal starts with its creation")
        # A journal written before seeds were derived says nothing of them: it replays
        # with the arithmetic it was written with; one written before it said which
        # match strategies its bots play plays those that shipped then.
        table = cls(first.id, first.config, seed=first.seed, host=first.host, now=float(first.t),
                    seeds=LEGACY if first.seeds is None else first.seeds,
                    strategies=FIRST_SET if first.strategies is None else first.strategies)
        table.create_req, table.host_sealed = first.req, first.sealed
        for i, entry in enumerate(entries[1:], 1):
            table._replay(entry, f"journal entry {i} ({entry.op})")
        last = table.created if entries[-1].t is None else float(entries[-1].t)
        since = last if now is None else max(now, last)
        for seat in table.seats:  # nobody is connected to a restarted server yet
            if seat.kind == SeatKind.HUMAN:
                seat.connected = False
                seat.away_since = since
        if table.turn_since is not None:
            table.turn_since = max(table.turn_since, since)
        return table

    def _replay(self, e: Entry, where: str) -> None:
        # The journal is the table's own writing, parsed at the edge: its names, kinds
        # and actions were checked before they were written, so they are taken as they
        # are; only what depends on the table (its seats) is checked here.
        t = 0.0 if e.t is None else float(e.t)
        match e:
            case JoinEntry(seat=seat):
                self._replayed_seat(seat, where)
                self.seats[seat] = Seat(SeatKind.HUMAN, e.name, None, e.token, req=e.req,
                                        sealed=e.sealed)
            case BotEntry(seat=seat):
                self._replayed_seat(seat, where)
                self._asked(e.req)
                self.seats[seat] = Seat(SeatKind.BOT, e.name, e.kind)
            case UnbotEntry(seat=seat):
                self._replayed_seat(seat, where)
                self._asked(e.req)
                self.seats[seat] = Seat()
            case StartEntry():
                self._asked(e.req)
                self._start(t)
            case ActEntry(seat=seat):
                self._replayed_seat(seat, where)
                self._apply(seat, e.action, t, e.by, coached=e.coached)
            case ExpireEntry():
                self.phase = TablePhase.EXPIRED
            case CreateEntry():
                raise GnavError(f"{where}: a table journal holds one creation, at its start")
        if e.v is not None:
            self.version = e.v

    def _replayed_seat(self, seat: int, where: str) -> None:
        if seat >= len(self.seats):
            raise GnavError(f"{where}: seat: the table has seats 0 to {len(self.seats) - 1}, "
                            f"not {seat}")

    # -- what everyone may see -------------------------------------------------------

    def info(self, now: float) -> Info:
        """The table as anyone with its link sees it (no tokens, no hidden pieces)."""
        to_act = self.match.to_act if self.match is not None else None
        deadline = self.deadline()
        return {
            "id": self.id, "phase": self.phase, "version": self.version, "games": self.games,
            "config": self.config.to_json(), "seats": [s.to_json() for s in self.seats],
            "to_act": to_act,
            "timer_left": None if deadline is None else max(0.0, round(deadline - now, 2)),
            "expert_plays": self._expert_plays(),
            "length": self._length(),
        }

    def _length(self) -> dict[str, object] | None:
        """How long a match here is expected to last (``gnav.lengths.expected``), and
        whether the table set an option to make it end, for the lobby to say before the
        host starts; None where nothing was measured."""
        if self._expected is None:
            from gnav.lengths import expected, shipped, table_options

            found = expected(self.rules, self.config.seats)
            set_here = table_options(self.rules.name, self.config.seats,
                                     self.rules.options.lives)
            self._expected = {} if found is None else {
                **found.as_json(), "seats": self.config.seats,
                "cap": shipped().meta.get("cap"),
                # What a table of this size sets, and whether this one plays it.
                "table_options": set_here,
                "plays_table_options": all(self.config.options.get(k) == v
                                           for k, v in set_here.items())}
        return self._expected or None

    def _expert_plays(self) -> list[dict[str, str]] | None:
        """Where an expert bot here (seated, or standing in for people) plays as counter
        (nothing solved or trained for these rules at that size): the table sizes a
        match passes through, each span once, for the page to say so once; None where
        no expert sits or it plays a solved strategy or trained policy throughout."""
        experts = (BotKind.EXPERT, BotKind.EXPERT_ROUND)  # both fall back alike
        if self.config.bot not in experts and all(s.bot not in experts for s in self.seats):
            return None
        if self._counter_spans is None:
            from gnav.bots.expert import ExpertBot, what_plays

            sizes = range(self.rules.min_seats, self.config.seats + 1)
            self._counter_spans = [
                {"seats": span, "plays": str(BotKind.COUNTER)}
                for span, text in what_plays(ExpertBot(0, strategies=self.strategies),
                                             self.rules, sizes)
                if text.startswith(str(BotKind.COUNTER))]
        return self._counter_spans or None

    def deadline(self) -> float | None:
        """When a bot will play the seat to act: a bot's next decision at the table's
        pace, or a person's stand-in when their time is up or they are away too long."""
        if self.phase != TablePhase.PLAYING or self.match is None or self.turn_since is None:
            return None
        seat = self.match.to_act
        if seat is None:
            return None
        info = self.seats[seat]
        due = self.turn_since + self._bot_delay()
        if info.kind != SeatKind.HUMAN:
            return due
        times = []
        if self.config.turn_timer is not None:
            start = self.turn_since if self.turn_shown is None else self.turn_shown
            times.append(start + self.config.turn_timer)
        if not info.connected and info.away_since is not None:
            times.append(max(info.away_since + self.config.grace, due))
        return min(times) if times else None

    def _people(self) -> bool:
        return any(s.kind == SeatKind.HUMAN and s.connected for s in self.seats)

    def _told(self) -> tuple[int, ...]:
        """The seats of people: they hear of every change (and the spectators too)."""
        return tuple(i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN)

    def _bot_delay(self) -> float:
        """Seconds between a seat's turn and a bot's decision for it (see ``Pace``)."""
        if self._people():
            return 0.0
        if self.watched:
            return self.pace.watched
        duty = self.pace.duty
        return max(self.pace.idle, self._thought * (1 - duty) / duty)

    def snapshot(self, now: float) -> Snapshot:
        """Everything anyone needs to draw the table from scratch (each sees it through
        their own view: ``gnav.table.render``)."""
        return Snapshot(self.version, self.match, self.info(now), self._told())

    # -- lobby -----------------------------------------------------------------------

    def join(self, name: Name, now: float, req: RequestKey | None = None
             ) -> tuple[int, str, Result]:
        """A person takes the first empty seat; returns the seat and its token. A retry
        (the same ``req``) of a join that was stored gets the same seat and token, and
        changes nothing, even once the match has started.

        :raises: :exc:`Refused` (``expired``, ``started``, ``name_taken``, ``full``) if the
            table cannot seat them now.
        """
        if req is not None:
            for i, held in enumerate(self.seats):
                if held.kind == SeatKind.HUMAN and held.sealed is not None \
                        and same(req, held.req):
                    return i, unseal(held.sealed, req), Result()
        self._open()
        if self.phase != TablePhase.LOBBY:
            raise Refused(Code.STARTED, "the match has started: watch it, or wait for the next")
        # As people read names: "Åse" and "åse" are one person at a table, however typed.
        key = name_key(name)
        if any(s.name is not None and name_key(s.name) == key
               for s in self.seats if s.kind != SeatKind.EMPTY):
            raise Refused(Code.NAME_TAKEN, f"{name!r} is already at this table")
        seat = self._free()
        token = secrets.token_urlsafe(24)
        hashed = hash_token(token)
        taken = self.seats[seat] = Seat(SeatKind.HUMAN, name, None, hashed)
        if req is not None:
            taken.req, taken.sealed = digest(req), seal(token, req)
        entry = JoinEntry(seat, name, hashed, taken.req, taken.sealed,
                          v=self._next_version(), t=now)
        return seat, token, self._lobby_change(entry, now)

    def add_bot(self, host: str, kind: BotKind | None, now: float,
                req: RequestKey | None = None) -> Result:
        """The host seats a bot of ``kind`` (None: the table's) in the first empty seat
        (a retry of one stored, the same ``req``, changes nothing).

        :raises: :exc:`Refused` (``not_host``, ``expired``, ``started``, ``bad_bot`` for a bot
            too costly for this table's size, ``full``).
        """
        if self._again(host, req):
            return Result()
        self._open()
        if self.phase != TablePhase.LOBBY:
            raise Refused(Code.STARTED, "bots can only be seated before the match")
        bot = self.config.bot if kind is None else kind
        problem = self.config.bot_problem(bot)
        if problem is not None:
            raise Refused(Code.BAD_BOT, problem)
        seat = self._free()
        entry = BotEntry(seat, bot, self._bot_name(seat, bot), self._key(req),
                         v=self._next_version(), t=now)
        self.seats[seat] = Seat(SeatKind.BOT, entry.name, bot)
        return self._lobby_change(entry, now)

    def remove_seat(self, host: str, seat: int, now: float,
                    req: RequestKey | None = None) -> Result:
        """The host frees a seat (a bot's, or a person's who has not shown up); a retry
        of one stored (the same ``req``) changes nothing.

        :raises: :exc:`Refused` (``not_host``, ``expired``, ``started``, ``bad_seat``).
        """
        if self._again(host, req):
            return Result()
        self._open()
        if self.phase != TablePhase.LOBBY:
            raise Refused(Code.STARTED, "seats can only change before the match")
        self._seat(seat)
        self.seats[seat] = Seat()
        entry = UnbotEntry(seat, self._key(req), v=self._next_version(), t=now)
        return self._lobby_change(entry, now)

    def start(self, host: str, now: float, req: RequestKey | None = None) -> Result:
        """The host starts the match (or the next one): empty seats get bots. A retry
        (the same ``req``) of a start that was stored changes nothing: it is not
        refused as ``started``.

        :raises: :exc:`Refused` (``not_host``, ``expired``, ``started``).
        """
        if self._again(host, req):
            return Result()
        self._open()
        if self.phase == TablePhase.PLAYING:
            raise Refused(Code.STARTED, "the match is already being played")
        result = Result()
        bot = self.config.bot
        for i, s in enumerate(self.seats):
            if s.kind == SeatKind.EMPTY:
                seated = BotEntry(i, bot, self._bot_name(i, bot))  # when: the start's
                self.seats[i] = Seat(SeatKind.BOT, seated.name, bot)
                result.journal.append(seated)
        self._start(now)
        result.journal.append(StartEntry(t=now, v=self.version, req=self._key(req)))
        result.notices.append(self.snapshot(now))
        result.extend(self._run_bots(now))
        return result

    def _start(self, now: float) -> None:
        self.games += 1
        self.phase = TablePhase.PLAYING
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]
        self.match = MatchState.new(self.rules, names, seed=self.seeds.match(self.games))
        self.steps = []
        self.coached = []
        self.advised = {}
        self._deal(now)

    def _deal(self, now: float) -> None:
        """Deal the next round: a step of its own, with a version of its own."""
        match = self.match
        if match is None:  # pragma: no cover - only called with a match
            return
        # Each deal is seeded by the table, the game and the round: a restored table
        # deals exactly what the lost one would have.
        rng = Random(self.seeds.deal(self.games, match.rounds))
        self.match = match.deal(rng=rng)
        self.version += 1
        self._keep(Step(self.version, self.match, 0, ()))
        self._turn(now)

    def _turn(self, now: float) -> None:
        """A seat's turn begins. A person with no live connection then is away from
        now on (even one who never connected): after the grace period a stand-in plays
        for them, so no match waits for ever."""
        self.turn_since = now
        self.turn_shown = None
        seat = self.match.to_act if self.match is not None else None
        if seat is not None:
            info = self.seats[seat]
            if info.kind == SeatKind.HUMAN and not info.connected and info.away_since is None:
                info.away_since = now

    def _bot_name(self, seat: int, kind: BotKind) -> Name:
        """A name nobody at the table has. People may no longer take a bot's name
        (``gnav.names``), but a journal written before that may seat a "Bot 6", so the
        candidates go on until one is free."""
        taken = {name_key(s.name) for s in self.seats
                 if s.kind != SeatKind.EMPTY and s.name is not None}
        fixed = (f"{kind.capitalize()} bot {seat + 1}", f"Bot {seat + 1}")
        numbered = (f"Bot {seat + 1}.{k}" for k in count(2))
        return Name(next(c for c in chain(fixed, numbered) if name_key(c) not in taken))

    # -- the checks that depend on the table (the edge has checked the values) -------

    def _host(self, token: str) -> None:
        if not check_token(token, self.host):
            raise Refused(Code.NOT_HOST, "only the host may do that")

    def _again(self, host: str, req: RequestKey | None) -> bool:
        """Whether the host's request ``req`` was made already (a retry)."""
        self._host(host)
        return req is not None and digest(req) in self.asked

    def _key(self, req: RequestKey | None) -> str | None:
        """The digest of a host request's key, for its entry, now kept among the asked."""
        if req is None:
            return None
        key = digest(req)
        self._asked(key)
        return key

    def _asked(self, key: str | None) -> None:
        if key is not None:
            self.asked.append(key)
            del self.asked[:-KEPT]

    def _open(self) -> None:
        if self.phase == TablePhase.EXPIRED:
            raise Refused(Code.EXPIRED, "this table was never started and has closed")

    def _free(self) -> int:
        """The first empty seat."""
        for i, s in enumerate(self.seats):
            if s.kind == SeatKind.EMPTY:
                return i
        raise Refused(Code.FULL, "every seat is taken")

    def _seat(self, seat: int) -> Seat:
        """The seat numbered ``seat``: the one check of a seat number, the table's size
        being the table's own."""
        if not 0 <= seat < len(self.seats):
            raise Refused(Code.BAD_SEAT, f"no seat {seat!r} (seats: 0 to {len(self.seats) - 1})")
        return self.seats[seat]

    def _held(self, seat: int, token: str | None) -> Seat:
        """The person's seat ``token`` holds (the seat number checked by ``_seat``)."""
        info = self._seat(seat)
        if info.kind != SeatKind.HUMAN or not check_token(token, info.token):
            raise Refused(Code.BAD_TOKEN, "that token does not hold this seat")
        return info

    def _next_version(self) -> int:
        """A lobby change's version (its entry is written with it)."""
        self.version += 1
        return self.version

    def _lobby_change(self, entry: Entry, now: float) -> Result:
        return Result([entry], [self._news(now)])

    def _news(self, now: float) -> News:
        return News(self.version, self.info(now), self._told())

    # -- play ------------------------------------------------------------------------

    def act(self, seat: int, token: str, version: int, action: Action, now: float) -> Result:
        """A person's decision.

        :raises: :exc:`Refused` (``bad_seat``, ``bad_token``, ``not_playing``, ``stale``,
            ``not_your_turn``, ``illegal``) unless it is theirs to make now.
        """
        self._held(seat, token)
        if self.phase != TablePhase.PLAYING or self.match is None:
            raise Refused(Code.NOT_PLAYING, "no match is being played")
        if version != self.version:
            raise Refused(Code.STALE, f"you answered version {version!r}; the table is at "
                          f"version {self.version}")
        if self.match.to_act != seat:
            raise Refused(Code.NOT_YOUR_TURN, "it is not your turn")
        legal = self.match.legal_actions()
        if action not in legal:
            raise Refused(Code.ILLEGAL, f"{action.value!r} is not allowed now (allowed: "
                          f"{', '.join(legal)})")
        before = self.version
        # Coached: the seat was given the coach's figures for this very decision.
        coached = self.advised.pop(seat, None) == version
        self._apply(seat, action, now, Mover.PERSON, coached=coached)
        result = self._played(seat, action, Mover.PERSON, before, now, coached=coached)
        result.extend(self._run_bots(now, person=True))
        return result

    def shown(self, seat: int, token: str, version: int, now: float) -> Result:
        """``seat``'s page says it shows its player's turn at ``version`` (its buttons
        have come alive): their turn timer starts now, or ``pace.shown_within`` seconds
        after the turn came if that is sooner. So the player has the whole turn time
        however long the page took to catch up, and no page can stretch a turn by more
        than that bound. Said once a turn; anything else (not this seat's turn, another
        version, no timer, said already) changes nothing. Everyone is told the new
        deadline.

        :raises: :exc:`Refused` (``bad_seat``, ``bad_token``) for a seat the token does
            not hold.
        """
        self._held(seat, token)
        if self.phase != TablePhase.PLAYING or self.match is None \
                or self.match.to_act != seat or version != self.version \
                or self.turn_since is None or self.turn_shown is not None \
                or self.config.turn_timer is None:
            return Result()
        since = self.turn_since
        self.turn_shown = max(since, min(now, since + self.pace.shown_within))
        return Result([], [self._news(now)])

    def again(self, seat: int, token: str, version: int, action: Action,
              now: float) -> Missed | Snapshot | None:
        """A decision sent again, whose first sending was stored (the answer was lost
        with a process or a connection): what the seat has missed since ``version``,
        its answer as the first's was (the updates from there on). None if ``seat``
        did not make ``action`` at ``version`` itself: then it is refused as it is.

        :raises: :exc:`Refused` (``bad_seat``, ``bad_token``) for a seat the token does
            not hold.
        """
        self._held(seat, token)
        step = next((s for s in self.steps if s.version == version + 1), None)
        if step is None or (step.seat, step.by, step.action) != (seat, Mover.PERSON, action):
            return None
        return self._catch_up(version, now)

    def tick(self, now: float) -> Result:
        """The clock: bots play their next decisions, and a seat whose time is up, or
        whose player has been away too long, is played by a bot."""
        result = Result()
        deadline = self.deadline()
        if deadline is None or now < deadline or self.match is None:
            return result
        seat = self.match.to_act
        if seat is None:  # pragma: no cover - a deadline means a seat to act
            return result
        if self._mover(seat, now) is None:  # a person's turn timer ran out
            result.extend(self._bots(now, lambda s: Mover.TIMER, most=1))
        result.extend(self._run_bots(now))
        return result

    def expire(self, now: float) -> Result:
        """Close a lobby that was never started (the server's time for it is up).

        :raises: :exc:`Refused` (``started``) for a table that has started.
        """
        if self.phase != TablePhase.LOBBY:
            raise Refused(Code.STARTED, "only a table that has not started can expire")
        self.phase = TablePhase.EXPIRED
        return self._lobby_change(ExpireEntry(v=self._next_version(), t=now), now)

    def _bot_for(self, seat: int) -> Bot:
        """A bot for this one decision, seeded by the table, game and version: a table
        restored from its journal goes on exactly as the lost one would have."""
        kind = self.seats[seat].bot or self.config.bot
        return table_bot(kind, self.seeds.bot(self.games, self.version, seat), {},
                         self.seeds.version, self.strategies)

    def _mover(self, seat: int, now: float) -> Mover | None:
        """Who plays ``seat`` now without being asked: its bot, or a stand-in for a
        person away past the grace; None: a person is due."""
        info = self.seats[seat]
        if info.kind == SeatKind.BOT:
            return Mover.BOT
        if not info.connected and info.away_since is not None \
                and now >= info.away_since + self.config.grace:
            return Mover.STANDIN
        return None

    def _run_bots(self, now: float, *, person: bool = False) -> Result:
        """Bots (and stand-ins for seats away past their grace) play until a person is
        due, the match ends, or this change has played its share (``Pace``): then the
        timer carries on. ``person``: a person has just acted (so one is here)."""
        # With only spectators, one decision a change, at the timer's pace; else a
        # burst, bounded in number and in thinking time (where a burst ends never
        # changes the match: each decision is seeded by the version it answers).
        watched_only = self.watched and not person and not self._people()
        started = self.stopwatch()
        result = self._bots(now, lambda s: self._mover(s, now),
                            most=1 if watched_only else self.pace.burst, started=started)
        if result.journal:
            self._thought = self.stopwatch() - started
        return result

    def _bots(self, now: float, mover: Callable[[int], Mover | None], *, most: int,
              started: float | None = None) -> Result:
        """Bots decide, through the one game loop (``gnav.runner.play_until``), for each
        seat to act that ``mover`` names a mover for, at most ``most`` decisions and,
        after the first, while they have thought less than the pace's ``seconds`` since
        ``started``. Each decision is applied here before the next bot is asked (its
        seed is the version it answers), and a deal starts the next round's loop."""
        result = Result()
        made = 0
        by: dict[int, Mover] = {}

        def player(seat: int) -> Bot | None:
            if made >= most or (made and started is not None
                                and self.stopwatch() - started > self.pace.seconds):
                return None
            who = mover(seat)
            if who is None:
                return None
            by[seat] = who
            return self._bot_for(seat)

        def moved(seat: int, action: str, match: MatchState,
                  events: tuple[Event, ...]) -> None:
            nonlocal made
            made += 1
            before = self.version
            self._record(seat, match, events, now, by[seat], Action(action))
            result.extend(self._played(seat, Action(action), by[seat], before, now))

        while self.phase == TablePhase.PLAYING and self.match is not None:
            _, decisions = play_until(self.match, player, moved)
            if not decisions:
                break
        return result

    def _played(self, seat: int, action: Action, by: Mover, before: int,
                now: float, *, coached: bool = False) -> Result:
        """The journal entry of the decision that followed version ``before``, and the
        notice of its steps (the decision, and the deal it may have led to)."""
        entry = ActEntry(seat, action, by, t=now, v=self.version, coached=coached)
        steps = tuple(s for s in self.steps if s.version > before)
        return Result([entry], [Played(steps, self.info(now), self._told())])

    def _apply(self, seat: int, action: Action, now: float, by: Mover | None, *,
               coached: bool = False) -> None:
        match = self.match
        if match is None or match.round is None:
            raise GnavError("no match is being played")
        after, events = match.apply_for(seat, action)
        if coached:
            self.coached.append((match.round.number, seat))
        self._record(seat, after, events, now, by, action)

    def _record(self, seat: int, match: MatchState, events: tuple[Event, ...], now: float,
                by: Mover | None, action: Action | None = None) -> None:
        """``match``, the table's match after ``seat``'s decision, becomes a step; a
        round's end deals the next (a step of its own)."""
        previous = self.match
        start = 0 if previous is None or previous.round is None else len(previous.round.public)
        self.match = match
        self.version += 1
        extra = tuple(e for e in events if isinstance(e, Eliminated | MatchEnd))
        self._keep(Step(self.version, match, start, extra, seat, by, action))
        self._turn(now)
        if match.over:
            self.phase = TablePhase.FINISHED
            self.turn_since = None
        elif match.phase == Phase.DEAL:
            self._deal(now)

    def _keep(self, step: Step) -> None:
        self.steps.append(step)
        if len(self.steps) > STEPS_KEPT:
            del self.steps[: len(self.steps) - STEPS_KEPT]

    # -- connections -----------------------------------------------------------------

    def connect(self, seat: int | None, token: str | None, since: int | None,
                now: float) -> tuple[Missed | Snapshot, Result]:
        """A connection opens (or reopens). Returns what it missed (at most
        ``MAX_CATCH_UP`` steps), or a snapshot (too far behind, or missing nothing).

        :raises: :exc:`Refused` (``bad_seat``, ``bad_token``) for a seat the token does not
            hold.
        """
        result = Result()
        if seat is not None:
            info = self._held(seat, token)
            back = not info.connected
            info.connected = True
            info.away_since = None
            if back:  # the others see the seat is no longer away
                result.notices.append(self._news(now))
        if since is None:
            return self.snapshot(now), result
        return self._catch_up(since, now), result

    def _catch_up(self, since: int, now: float) -> Missed | Snapshot:
        """What a seat at ``since`` has missed: the steps since (at most
        ``MAX_CATCH_UP``), else a snapshot. Up to date, it gets a snapshot too: one
        whose decision was lost with a process (sent, never stored) is told it is still
        its turn, and nobody reconnects to silence."""
        if 0 <= since < self.version and self.version - since <= MAX_CATCH_UP:
            missed = tuple(s for s in self.steps if s.version > since)
            if len(missed) == self.version - since:  # every missed version is a step
                return Missed(missed, self.info(now))
        return self.snapshot(now)

    def disconnect(self, seat: int | None, now: float) -> Result:
        """A seat's connection closed; after the grace period a bot plays it."""
        result = Result()
        if seat is None:
            return result
        info = self.seats[seat]
        if info.kind == SeatKind.HUMAN:
            info.connected = False
            info.away_since = now
            # Who is here and who is away is seen at once, not with the next move.
            result.notices.append(self._news(now))
        return result

    # -- the record ------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match so far as a record (docs/spec/records.md; only once it is over: see
        server).

        :raises: :exc:`Refused` (``no_match``) before the first match.
        """
        if self.match is None:
            raise Refused(Code.NO_MATCH, "no match has been played at this table")
        names = self.match.names
        x: dict[str, Any] = {}
        if self.coached:
            x["coached"] = [[r, names[s]] for r, s in self.coached]
        if not self.config.coaching:
            x["coaching"] = False  # the host's "no coaching here"
        if self.config.look != DEFAULT.look:
            x["look"] = self.config.look  # the replay shows the pieces the table saw
        return from_match(self.match, x=x or None)

    # -- the coach -------------------------------------------------------------------

    def coach_view(self, seat: int, token: str) -> SeatView:
        """The view the coach reads for ``seat``'s decision now: that seat's own, and
        nothing else. The decision it leads to is marked coached.

        :raises: :exc:`Refused` (``bad_seat``, ``bad_token``, ``no_coaching``,
            ``not_playing``, ``not_your_turn``) unless the seat is to decide now at a
            table that allows the coach.
        """
        self._held(seat, token)
        if not self.config.coaching:
            raise Refused(Code.NO_COACHING, "the host chose no coaching at this table")
        if self.phase != TablePhase.PLAYING or self.match is None:
            raise Refused(Code.NOT_PLAYING, "no match is being played")
        if self.match.to_act != seat:
            raise Refused(Code.NOT_YOUR_TURN, "the coach answers at your own decision only")
        self.advised[seat] = self.version
        return seat_view(self.match, seat)
