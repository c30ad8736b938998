"""The table's notices as each seat's messages: the one place per-seat JSON is built.

The table master (``gnav.table.table``) says what happened in types (``Played``,
``Missed``, ``News``, ``Snapshot``); this module turns a notice into the messages of
each one told of it: a person's seat, or the spectators (``None``). The transport
(``gnav.server``) only encodes and delivers them.

What the seats share is built once, on purpose: the table's public description is one
value per notice (the master builds it), a ``News`` is one message for everyone, a
step's public events are converted to JSON once, every seat then getting that list with
its own private overlays put in at their indices (a seat's ``PrivateLog`` is keyed by
the index in the public log, and its dealt piece sits in the round's first event), and
the view's public members (``views.public_view_json`` of the spectator's view: what
anyone may see) once per step, each seat's view adding only its own. A spectator's list
is the public one itself. Messages share these values; they are only ever encoded.

Messages (docs/server.md, the WebSocket protocol):
  {"type": "update", "version", "events", "view", "table"[, "by"]}  a step
  {"type": "snapshot", "version", "you", "table"[, "view"]}  the table from scratch
  {"type": "table", "version", "table"}  news that is no move
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from gnav.events import Event, RoundStart, event_to_json
from gnav.match import MatchState
from gnav.round import merge
from gnav.table.journal import Mover
from gnav.table.table import Missed, News, Notice, Played, Snapshot, Step
from gnav.views import SeatView, public_view_json, seat_view, spectator_view, view_to_json

Message: TypeAlias = dict[str, Any]
Json: TypeAlias = dict[str, Any]
# A decision a bot made for a person (their time ran out, or they are away past the
# grace) says so in its update, so every page can tell the table.
MARKED = frozenset({Mover.TIMER, Mover.STANDIN})


@dataclass(frozen=True)
class Outbound:
    """One message for the connections of ``to``: people's seats, and ``None`` for the
    spectators. A message for several (news) is one message, encoded once."""

    to: tuple[int | None, ...]
    message: Message


def view_of(match: MatchState, seat: int | None) -> SeatView:
    """What ``seat`` may know, or (None) what a spectator may."""
    return spectator_view(match) if seat is None else seat_view(match, seat)


def render(notices: Iterable[Notice],
           listening: Container[int | None] | None = None) -> list[Outbound]:
    """The messages of ``notices``, for those told of each who are ``listening`` (the
    seats with a connection, ``None`` for spectators; default: everyone told). Nothing
    is built for anyone not listening.

    :raises: :exc:`TypeError` for a ``Missed``: a catch-up goes to one connection
        (``messages``).
    """
    out: list[Outbound] = []
    for notice in notices:
        if isinstance(notice, Missed):
            raise TypeError("a catch-up is for one connection: render it with messages()")
        audience = tuple(s for s in (*notice.told, None)
                         if listening is None or s in listening)
        if not audience:
            continue
        if isinstance(notice, News):
            out.append(Outbound(audience, news(notice)))
            continue
        table = notice.table
        if isinstance(notice, Snapshot):
            out += [Outbound((s,), snapshot(notice, s, table)) for s in audience]
        elif isinstance(notice, Played):
            shared = [(public_events(step), public_view_json(spectator_view(step.match)))
                      for step in notice.steps]
            for s in audience:
                out += [Outbound((s,), update(step, events, s, table, mark=True, seen=seen))
                        for step, (events, seen) in zip(notice.steps, shared, strict=True)]
    return out


def messages(notice: Missed | Snapshot | None, seat: int | None) -> list[Message]:
    """What one connection of ``seat`` gets on its hello: the updates it missed (with
    no marks: they were made when it was away), a snapshot, or nothing."""
    if notice is None:
        return []
    if isinstance(notice, Snapshot):
        return [snapshot(notice, seat)]
    return [update(step, public_events(step), seat, notice.table, mark=False)
            for step in notice.steps]


def news(notice: News) -> Message:
    return {"type": "table", "version": notice.version, "table": notice.table}


def snapshot(notice: Snapshot, seat: int | None, table: Json | None = None) -> Message:
    """Everything ``seat`` (None: a spectator) needs to draw the table from scratch
    (``table``: the notice's, when the caller shares it among seats)."""
    msg: Message = {"type": "snapshot", "version": notice.version, "you": seat,
                    "table": notice.table if table is None else table}
    if notice.match is not None:
        msg["view"] = view_to_json(view_of(notice.match, seat))
    return msg


def public_events(step: Step) -> list[Json]:
    """The JSON of the events of ``step`` that anyone may see: the round's public log
    from the step's start on, then its match-level events."""
    match = step.match
    rnd = match.round
    public = rnd.public[step.start:] if rnd is not None else ()
    names = match.names
    return [event_to_json(e, names) for e in (*public, *step.extra)]


def update(step: Step, public: list[Json], seat: int | None, table: Json, *,
           mark: bool, seen: Json | None = None) -> Message:
    """The update of ``step`` as ``seat`` sees it, from the step's public events
    (``public_events``, shared by every seat) with the seat's own laid over them, and
    (``seen``, shared by every seat) the public members of its view:
    ``public_view_json`` of the spectator's view of the step."""
    view = view_of(step.match, seat)
    names = step.match.names
    own = _own(view, step.start)
    events = public
    if own:
        events = list(public)
        for index, event in own:
            events[index - step.start] = event_to_json(event, names)
    msg: Message = {"type": "update", "version": step.version, "events": events,
                    # The client has every event (the updates carry them): no merge.
                    "view": view_to_json(view, since=len(view.public), public=seen),
                    "table": table}
    if mark and step.by is not None and step.by in MARKED and step.seat is not None:
        msg["by"] = {"seat": names[step.seat], "how": step.by.value}
    return msg


def _own(view: SeatView, start: int) -> list[tuple[int, Event]]:
    """The events only ``view``'s seat sees, from index ``start`` of the round's public
    log on, by index: its dealt piece in the round's first event, then its private
    overlays (in ``merge``'s order, so a later one wins)."""
    own: list[tuple[int, Event]] = []
    public = view.public
    if start == 0 and view.dealt is not None and public and type(public[0]) is RoundStart:
        own.append((0, merge(public[:1], (), view.dealt)[0]))
    own += [(i, e) for i, e in view.private if i >= start]
    return own
