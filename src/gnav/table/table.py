"""One table: seats, the match, versions, timers and stand-ins, without any I/O.

Every method takes the time ``now`` from the caller and returns a ``Result``: the
journal entries to store (before anyone is told) and the messages to deliver. A table
is rebuilt from its journal alone (``Table.restore``), timers included.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass, field, replace
from itertools import chain, count
from random import Random
from typing import Any

from gnav.bots.base import Bot
from gnav.bots.registry import BOT_KINDS
from gnav.errors import GnavError
from gnav.events import Eliminated, Event, MatchEnd, event_to_json
from gnav.match import MatchState
from gnav.names import NAME_MAX  # the one cap for every place a name is typed
from gnav.record import from_match
from gnav.round import merge
from gnav.rules import Rules
from gnav.table.config import TableConfig
from gnav.views import SeatView, seat_view, spectator_view, view_to_json

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
EXPIRED = "expired"  # a lobby that was never started, closed after its time (see Hub)
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
    ``duty`` of the time.
    """

    burst: int = 24
    seconds: float = 0.01
    watched: float = 1.0
    idle: float = 0.1
    duty: float = 0.1


class Refused(GnavError):
    """A request the table turns down; ``code`` is machine-readable, the text is not."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Outbound:
    """A message for one seat's connection, or for every spectator (``seat`` None)."""

    seat: int | None
    message: dict[str, Any]


@dataclass
class Result:
    journal: list[dict[str, Any]] = field(default_factory=list)
    out: list[Outbound] = field(default_factory=list)

    def extend(self, other: Result) -> None:
        self.journal += other.journal
        self.out += other.out


@dataclass(frozen=True)
class Saved:
    """What a change can alter, kept so a change that fails can be undone."""

    phase: str
    seats: tuple[Seat, ...]
    match: MatchState | None
    games: int
    version: int
    steps: tuple[Step, ...]
    turn_since: float | None


@dataclass
class Seat:
    kind: str = "empty"  # "empty", "human" or "bot"
    name: str | None = None
    bot: str | None = None  # the kind of bot in a bot seat
    token: str | None = None  # sha256 of the seat token, hex
    connected: bool = False
    away_since: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot,
                "connected": self.kind == "bot" or self.connected}


@dataclass(frozen=True)
class Step:
    """One applied change of the match, kept so a reconnecting seat can catch up."""

    version: int
    match: MatchState
    start: int  # index in the round's public log where this step's events begin
    extra: tuple[Event, ...]  # match-level events (elimination, match end)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_token(token: object, digest: str | None) -> bool:
    if not isinstance(token, str) or digest is None:
        return False
    try:
        return hmac.compare_digest(hash_token(token), digest)
    except UnicodeEncodeError:  # a lone surrogate: no token this table gave
        return False


def view_of(match: MatchState, seat: int | None) -> SeatView:
    """What ``seat`` may know, or (None) what a spectator may."""
    return spectator_view(match) if seat is None else seat_view(match, seat)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be shown to the other players, if it cannot."""
    for char in name:
        category = unicodedata.category(char)
        if category == "Cs":
            return "a name must be valid Unicode (it holds a lone surrogate)"
        if category in ("Cc", "Cf"):
            return "a name may not hold control or formatting characters"
    return None


class Table:
    def __init__(self, table_id: str, config: TableConfig, *, seed: int, host: str,
                 now: float) -> None:
        self.id = table_id
        self.config = config
        self.rules: Rules = config.rules()
        self.seed = seed
        self.host = host  # sha256 of the host token
        self.created = now
        self.phase = LOBBY
        self.seats = [Seat() for _ in range(config.seats)]
        self.match: MatchState | None = None
        self.games = 0
        self.version = 0
        self.steps: list[Step] = []
        self.turn_since: float | None = None  # when the seat to act got its turn
        # Whether anyone watches (the server says, before each change): if nobody does,
        # the spectators' updates are not built. A spectator who comes later gets a
        # snapshot or catches up from the steps, as after any reconnection.
        self.watched = True
        self.pace = Pace()  # the server sets its own
        self._thought = 0.0  # seconds the last burst of bots took (for the pace)
        self._replaying = False

    def save(self) -> Saved:
        """What the next change may alter (cheap: the match is immutable)."""
        return Saved(self.phase, tuple(replace(s) for s in self.seats), self.match,
                     self.games, self.version, tuple(self.steps), self.turn_since)

    def undo(self, saved: Saved) -> None:
        """Back to ``saved``: a change that failed half-way leaves no trace."""
        self.phase, self.match, self.games = saved.phase, saved.match, saved.games
        self.seats = [replace(s) for s in saved.seats]
        self.version, self.steps = saved.version, list(saved.steps)
        self.turn_since = saved.turn_since

    # -- creation and restore -------------------------------------------------------

    @classmethod
    def create(cls, table_id: str, config: TableConfig, *, now: float,
               seed: int | None = None) -> tuple[Table, str, Result]:
        """A new table, its host token, and the journal entry that records it."""
        seed = secrets.randbits(48) if seed is None else seed
        token = secrets.token_urlsafe(24)
        table = cls(table_id, config, seed=seed, host=hash_token(token), now=now)
        entry = {"op": "create", "id": table_id, "config": config.to_json(), "seed": seed,
                 "host": table.host, "t": now}
        return table, token, Result([entry])

    @classmethod
    def restore(cls, journal: list[dict[str, Any]], *, now: float | None = None) -> Table:
        """The table as its journal left it. Bots are not asked again: every decision,
        theirs included, is in the journal.

        With ``now`` (a server coming back), the turn timer and every grace period start
        again at ``now``: nobody loses a turn, or a seat to a bot, to the outage.
        """
        if not journal or journal[0].get("op") != "create":
            raise GnavError("a table journal starts with its creation")
        first = journal[0]
        config = TableConfig.from_json({k: v for k, v in first["config"].items()})
        table = cls(first["id"], config, seed=int(first["seed"]), host=first["host"],
                    now=float(first["t"]))
        table._replaying = True
        for entry in journal[1:]:
            table._replay(entry)
        table._replaying = False
        last = float(journal[-1].get("t", table.created))
        since = last if now is None else max(now, last)
        for seat in table.seats:  # nobody is connected to a restarted server yet
            if seat.kind == "human":
                seat.connected = False
                seat.away_since = since
        if table.turn_since is not None:
            table.turn_since = max(table.turn_since, since)
        return table

    def _replay(self, e: dict[str, Any]) -> None:
        op, t = e["op"], float(e.get("t", 0.0))
        if op == "join":
            self.seats[e["seat"]] = Seat("human", e["name"], None, e["token"])
        elif op == "bot":
            self.seats[e["seat"]] = Seat("bot", e["name"], e["kind"])
        elif op == "unbot":
            self.seats[e["seat"]] = Seat()
        elif op == "start":
            self._start(t)
        elif op == "act":
            self._apply(e["seat"], e["action"], t)
        elif op == "expire":
            self.phase = EXPIRED
        else:
            raise GnavError(f"unknown journal entry {op!r}")
        self.version = int(e.get("v", self.version))

    # -- what everyone may see -------------------------------------------------------

    def info(self, now: float) -> dict[str, Any]:
        """The table as anyone with its link sees it (no tokens, no hidden pieces)."""
        to_act = self.match.to_act if self.match is not None else None
        deadline = self.deadline()
        return {
            "id": self.id, "phase": self.phase, "version": self.version, "games": self.games,
            "config": self.config.to_json(), "seats": [s.to_json() for s in self.seats],
            "to_act": to_act,
            "timer_left": None if deadline is None else max(0.0, round(deadline - now, 2)),
        }

    def deadline(self) -> float | None:
        """When a bot will play the seat to act: a bot's next decision at the table's
        pace, or a person's stand-in when their time is up or they are away too long."""
        if self.phase != PLAYING or self.match is None or self.turn_since is None:
            return None
        seat = self.match.to_act
        if seat is None:
            return None
        info = self.seats[seat]
        due = self.turn_since + self._bot_delay()
        if info.kind != "human":
            return due
        times = []
        if self.config.turn_timer is not None:
            times.append(self.turn_since + self.config.turn_timer)
        if not info.connected and info.away_since is not None:
            times.append(max(info.away_since + self.config.grace, due))
        return min(times) if times else None

    def _people(self) -> bool:
        return any(s.kind == "human" and s.connected for s in self.seats)

    def _bot_delay(self) -> float:
        """Seconds between a seat's turn and a bot's decision for it (see ``Pace``)."""
        if self._people():
            return 0.0
        if self.watched:
            return self.pace.watched
        duty = self.pace.duty
        return max(self.pace.idle, self._thought * (1 - duty) / duty)

    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything ``seat`` (None: a spectator) needs to draw the table from scratch."""
        msg: dict[str, Any] = {"type": "snapshot", "version": self.version,
                               "you": seat, "table": self.info(now)}
        if self.match is not None:
            msg["view"] = view_to_json(view_of(self.match, seat))
        return msg

    # -- lobby -----------------------------------------------------------------------

    def join(self, name: str, now: float) -> tuple[int, str, Result]:
        """A person takes the first empty seat; returns the seat and its token."""
        if not isinstance(name, str):  # the server parses names; other callers may not
            raise Refused("bad_name", "a name is needed to sit down")
        # Blank and overlong names get codes of their own: the page says which it was.
        if not name.strip():
            raise Refused("name_blank", "a name of only spaces says nothing: give a name")
        problem = name_problem(name)
        if problem is not None:
            raise Refused("bad_name", problem)
        name = " ".join(name.split())
        if len(name) > NAME_MAX:
            raise Refused("name_too_long", f"a name has at most {NAME_MAX} characters")
        self._open()
        if self.phase != LOBBY:
            raise Refused("started", "the match has started: watch it, or wait for the next")
        if any(s.name == name for s in self.seats if s.kind != "empty"):
            raise Refused("name_taken", f"{name!r} is already at this table")
        free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
        if not free:
            raise Refused("full", "every seat is taken")
        seat = free[0]
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat("human", name, None, hash_token(token))
        entry = {"op": "join", "seat": seat, "name": name, "token": self.seats[seat].token}
        return seat, token, self._lobby_change(entry, now)

    def add_bot(self, host: str, kind: str | None, now: float) -> Result:
        self._host(host)
        self._open()
        if self.phase != LOBBY:
            raise Refused("started", "bots can only be seated before the match")
        bot = self.config.bot if kind is None else kind
        if bot not in BOT_KINDS:
            raise Refused("bad_bot", f"unknown bot {bot!r} (bots: {', '.join(BOT_KINDS)})")
        problem = self.config.bot_problem(bot)
        if problem is not None:
            raise Refused("bad_bot", problem)
        free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
        if not free:
            raise Refused("full", "every seat is taken")
        seat = free[0]
        self.seats[seat] = Seat("bot", self._bot_name(seat, str(bot)), str(bot))
        entry = {"op": "bot", "seat": seat, "kind": bot, "name": self.seats[seat].name}
        return self._lobby_change(entry, now)

    def remove_seat(self, host: str, seat: int, now: float) -> Result:
        """The host frees a seat (a bot's, or a person's who has not shown up)."""
        self._host(host)
        self._open()
        if self.phase != LOBBY:
            raise Refused("started", "seats can only change before the match")
        self._seat(seat)
        self.seats[seat] = Seat()
        return self._lobby_change({"op": "unbot", "seat": seat}, now)

    def start(self, host: str, now: float) -> Result:
        """The host starts the match (or the next one): empty seats get bots."""
        self._host(host)
        self._open()
        if self.phase == PLAYING:
            raise Refused("started", "the match is already being played")
        result = Result()
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                self.seats[i] = Seat("bot", self._bot_name(i, self.config.bot), self.config.bot)
                result.journal.append({"op": "bot", "seat": i, "kind": self.config.bot,
                                       "name": self.seats[i].name})
        self._start(now)
        result.journal.append({"op": "start", "t": now, "v": self.version})
        result.out += self._broadcast_snapshot(now)
        result.extend(self._run_bots(now))
        return result

    def _start(self, now: float) -> None:
        self.games += 1
        self.phase = PLAYING
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]
        seed = self.seed * 1009 + self.games
        self.match = MatchState.new(self.rules, names, seed=seed)
        self.steps = []
        self._deal(now)

    def _deal(self, now: float) -> None:
        """Deal the next round: a step of its own, with a version of its own."""
        match = self.match
        if match is None:  # pragma: no cover - only called with a match
            return
        # Each deal is seeded by the table, the game and the round: a restored table
        # deals exactly what the lost one would have.
        rng = Random(self.seed * 1_000_003 + self.games * 10_007 + match.rounds)
        self.match = match.deal(rng=rng)
        self.version += 1
        self.steps.append(Step(self.version, self.match, 0, ()))
        self._turn(now)

    def _turn(self, now: float) -> None:
        """A seat's turn begins. A person with no live connection then is away from
        now on (even one who never connected): after the grace period a stand-in plays
        for them, so no match waits for ever."""
        self.turn_since = now
        seat = self.match.to_act if self.match is not None else None
        if seat is not None:
            info = self.seats[seat]
            if info.kind == "human" and not info.connected and info.away_since is None:
                info.away_since = now

    def _bot_name(self, seat: int, kind: str) -> str:
        """A name nobody at the table has: people may call themselves anything,
        "Bot 6" included, so the candidates go on until one is free."""
        taken = {s.name for s in self.seats if s.kind != "empty"}
        fixed = (f"{kind.capitalize()} bot {seat + 1}", f"Bot {seat + 1}")
        numbered = (f"Bot {seat + 1}.{k}" for k in count(2))
        return next(c for c in chain(fixed, numbered) if c not in taken)

    def _host(self, token: str) -> None:
        if not check_token(token, self.host):
            raise Refused("not_host", "only the host may do that")

    def _open(self) -> None:
        if self.phase == EXPIRED:
            raise Refused("expired", "this table was never started and has closed")

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise Refused("bad_seat", f"no seat {seat!r} (seats: 0 to {len(self.seats) - 1})")

    def _lobby_change(self, entry: dict[str, Any], now: float) -> Result:
        self.version += 1
        entry["v"] = self.version
        entry["t"] = now
        msg = {"type": "table", "version": self.version, "table": self.info(now)}
        out = [Outbound(i, msg) for i, s in enumerate(self.seats) if s.kind == "human"]
        return Result([entry], [*out, Outbound(None, msg)])

    def _broadcast_snapshot(self, now: float) -> list[Outbound]:
        out = [Outbound(i, self.snapshot(i, now)) for i, s in enumerate(self.seats)
               if s.kind == "human"]
        return [*out, Outbound(None, self.snapshot(None, now))]

    # -- play ------------------------------------------------------------------------

    def act(self, seat: int, token: str, version: int, action: str, now: float) -> Result:
        """A person's decision. Refused, with a reason, unless it is theirs to make now."""
        self._seat(seat)
        info = self.seats[seat]
        if info.kind != "human" or not check_token(token, info.token):
            raise Refused("bad_token", "that token does not hold this seat")
        if self.phase != PLAYING or self.match is None:
            raise Refused("not_playing", "no match is being played")
        if version != self.version:
            raise Refused("stale", f"you answered version {version!r}; the table is at "
                          f"version {self.version}")
        if self.match.to_act != seat:
            raise Refused("not_your_turn", "it is not your turn")
        if action not in self.match.legal_actions():
            legal = ", ".join(self.match.legal_actions())
            raise Refused("illegal", f"{action!r} is not allowed now (allowed: {legal})")
        result = self._step(seat, action, now, by="person")
        result.extend(self._run_bots(now, person=True))
        return result

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
        if not self._stands_in(seat, now):  # a person's turn timer ran out
            result.extend(self._step(seat, self._bot_for(seat).act(
                seat_view(self.match, seat)), now, by="timer"))
        result.extend(self._run_bots(now))
        return result

    def expire(self, now: float) -> Result:
        """Close a lobby that was never started (the server's time for it is up)."""
        if self.phase != LOBBY:
            raise Refused("started", "only a table that has not started can expire")
        self.phase = EXPIRED
        return self._lobby_change({"op": "expire"}, now)

    def _bot_for(self, seat: int) -> Bot:
        """A bot for this one decision, seeded by the table, game and version: a table
        restored from its journal goes on exactly as the lost one would have."""
        from gnav.bots.registry import make_bot

        kind = self.seats[seat].bot or self.config.bot
        seed = ((self.seed * 1_000_003 + self.games) * 10_007 + self.version) * 41 + seat
        return make_bot(kind, seed=seed)

    def _stands_in(self, seat: int, now: float) -> bool:
        info = self.seats[seat]
        if info.kind == "bot":
            return True
        return (not info.connected and info.away_since is not None
                and now >= info.away_since + self.config.grace)

    def _run_bots(self, now: float, *, person: bool = False) -> Result:
        """Bots (and stand-ins for seats away past their grace) play until a person is
        due, the match ends, or this change has played its share (``Pace``): then the
        timer carries on. ``person``: a person has just acted (so one is here)."""
        result = Result()
        # With only spectators, one decision a change, at the timer's pace; else a
        # burst, bounded in number and in thinking time (where a burst ends never
        # changes the match: each decision is seeded by the version it answers).
        watched_only = self.watched and not person and not self._people()
        most = 1 if watched_only else self.pace.burst
        started = time.perf_counter()
        for made in range(most):
            if self.phase != PLAYING or self.match is None:
                break
            seat = self.match.to_act
            if seat is None or not self._stands_in(seat, now):
                break
            if made and time.perf_counter() - started > self.pace.seconds:
                break
            action = self._bot_for(seat).act(seat_view(self.match, seat))
            kind = "bot" if self.seats[seat].kind == "bot" else "standin"
            result.extend(self._step(seat, action, now, by=kind))
        if result.journal:
            self._thought = time.perf_counter() - started
        return result

    def _step(self, seat: int, action: str, now: float, *, by: str) -> Result:
        before = self.version
        self._apply(seat, action, now)
        entry = {"op": "act", "seat": seat, "action": action, "by": by, "t": now,
                 "v": self.version}
        return Result([entry], self._mark_by(self._updates(before, now), before + 1, seat,
                                             by))

    def _mark_by(self, out: list[Outbound], version: int, seat: int,
                 by: str) -> list[Outbound]:
        """A decision a bot made for a person (their time ran out, or they are away past
        the grace) says so in its update, so every page can tell the table."""
        if by in ("timer", "standin"):
            name = self.seats[seat].name or f"Seat {seat + 1}"
            for o in out:
                if o.message.get("version") == version:
                    o.message["by"] = {"seat": name, "how": by}
        return out

    def _apply(self, seat: int, action: str, now: float) -> None:
        match = self.match
        if match is None or match.round is None:
            raise GnavError("no match is being played")
        start = len(match.round.public)
        match, events = match.apply_for(seat, action)
        self.match = match
        self.version += 1
        extra = tuple(e for e in events if isinstance(e, Eliminated | MatchEnd))
        self.steps.append(Step(self.version, match, start, extra))
        if len(self.steps) > STEPS_KEPT:
            del self.steps[: len(self.steps) - STEPS_KEPT]
        self._turn(now)
        if match.over:
            self.phase = FINISHED
            self.turn_since = None
        elif match.phase == "deal":
            self._deal(now)

    def _updates(self, before: int, now: float) -> list[Outbound]:
        """The steps after version ``before``, as each human seat and the spectators
        see them."""
        steps = [s for s in self.steps if s.version > before]
        # What every seat's updates share is built once, not once a seat: the table as
        # it is now, and the JSON of each public event (by identity: a seat's private
        # overlays are other objects). The messages share these dicts; they are only
        # ever encoded.
        info = self.info(now)
        shared: dict[int, tuple[Event, dict[str, Any]]] = {}
        out = []
        for i, s in enumerate(self.seats):
            if s.kind == "human":
                out += [Outbound(i, m) for m in self._messages(i, steps, now, info, shared)]
        if self.watched:
            out += [Outbound(None, m) for m in self._messages(None, steps, now, info, shared)]
        return out

    def _messages(self, seat: int | None, steps: list[Step], now: float,
                  info: dict[str, Any] | None = None,
                  shared: dict[int, tuple[Event, dict[str, Any]]] | None = None,
                  ) -> list[dict[str, Any]]:
        """The updates of ``steps`` as ``seat`` sees them. Each carries the table as it
        is now (``info``, if the caller has built it already); ``shared`` holds the JSON
        of events already converted for another seat of the same steps."""
        table = self.info(now) if info is None else info
        done: dict[int, tuple[Event, dict[str, Any]]] = {} if shared is None else shared
        msgs = []
        for step in steps:
            view = view_of(step.match, seat)
            # ``view.events`` from ``step.start`` on. The piece dealt to the seat only
            # changes the round's first event, so past it the merge can leave it out
            # (rebuilding that event is most of a merge's cost).
            start = step.start
            seen = view.events if start == 0 else merge(view.public, view.private, None)
            names = step.match.names
            events = []
            for e in [*seen[start:], *step.extra]:
                # Keyed by identity, and the event is kept with its JSON: an event made
                # for one seat alone (its dealt piece in the round's start) stays alive,
                # so no other event can be given its id, and its JSON goes to it alone.
                hit = done.get(id(e))
                if hit is None or hit[0] is not e:
                    hit = done[id(e)] = (e, event_to_json(e, names))
                events.append(hit[1])
            msgs.append({"type": "update", "version": step.version, "events": events,
                         "view": view_to_json(view, since=len(seen)), "table": table})
        return msgs

    # -- connections -----------------------------------------------------------------

    def connect(self, seat: int | None, token: str | None, since: int | None,
                now: float) -> tuple[list[dict[str, Any]], Result]:
        """A connection opens (or reopens). Returns what it missed (at most
        ``MAX_CATCH_UP`` updates), or a snapshot."""
        result = Result()
        if seat is not None:
            self._seat(seat)
            info = self.seats[seat]
            if info.kind != "human" or not check_token(token, info.token):
                raise Refused("bad_token", "that token does not hold this seat")
            back = not info.connected
            info.connected = True
            info.away_since = None
            if back:  # the others see the seat is no longer away
                result.out += self._presence(now)
        if since is not None and 0 <= since <= self.version \
                and self.version - since <= MAX_CATCH_UP:
            if since == self.version:
                return [], result
            missed = [s for s in self.steps if s.version > since]
            if len(missed) == self.version - since:  # every missed version is a step
                return self._messages(seat, missed, now), result
        return [self.snapshot(seat, now)], result

    def disconnect(self, seat: int | None, now: float) -> Result:
        """A seat's connection closed; after the grace period a bot plays it."""
        result = Result()
        if seat is None:
            return result
        info = self.seats[seat]
        if info.kind == "human":
            info.connected = False
            info.away_since = now
            result.out += self._presence(now)
        return result

    def _presence(self, now: float) -> list[Outbound]:
        """The table as it is now, to everyone: who is here and who is away is seen at
        once, not with the next move. The version stays: nothing was played."""
        msg = {"type": "table", "version": self.version, "table": self.info(now)}
        return [*(Outbound(i, msg) for i, s in enumerate(self.seats) if s.kind == "human"),
                Outbound(None, msg)]

    # -- the record ------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match so far as a record (docs/spec/records.md; only once it is over: see server)."""
        if self.match is None:
            raise Refused("no_match", "no match has been played at this table")
        return from_match(self.match)
