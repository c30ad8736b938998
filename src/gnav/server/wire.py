"""The WebSocket protocol: what a client may send, checked field by field, and the
server's error and close messages.

Client -> server (JSON text frames):
  {"type": "hello", "seat": n | null, "token": "...", "since": version | null}  first
  {"type": "act", "action": "stand" | "swap", "version": v}
  {"type": "shown", "version": v}  the page shows its player's turn at v (the turn timer
      starts then, a bounded time at most after the turn came: ``Table.shown``)
  {"type": "ping"}  (answered with {"type": "pong"} after everything sent before it)
Server -> client: "snapshot", "update" and "table" messages (the table's notices, as
``gnav.table.render`` renders them for each seat), "pong", and {"type": "error",
"code": ..., "reason": ...}.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gnav.errors import Code, RefusedError
from gnav.server.jsontext import dumps as _dumps
from gnav.server.untrusted import Untrusted, quote
from gnav.server.untrusted import token as checked_token
from gnav.table.render import Outbound
from gnav.vocab import Action

# Close codes beyond the standard ones (1008 policy, 1009 too big, 1011 server error,
# 1001 going away, 1013 try again later).
CLOSE_REPLACED = 4001  # another connection took this seat
CLOSE_REMOVED = 4003  # the host freed this seat
CLOSE_NO_TABLE = 4004
CLOSE_POLICY = 1008
CLOSE_SERVER_ERROR = 1011
CLOSE_GOING_AWAY = 1001
CLOSE_SLOW = 1013

SEAT_MAX = 9999
# The wire spells an action exactly as the vocabulary does (no case folding here).
_ACTIONS = frozenset(Action)


class WireError(RefusedError):
    """A client message that is not part of the protocol."""


@dataclass(frozen=True)
class Hello:
    seat: int | None
    token: str | None
    since: int | None


@dataclass(frozen=True)
class Act:
    action: Action
    version: int


@dataclass(frozen=True)
class Shown:
    version: int


@dataclass(frozen=True)
class Ping:
    pass


Message = Hello | Act | Shown | Ping
FIELDS = {"hello": {"type", "seat", "token", "since"}, "act": {"type", "action", "version"},
          "shown": {"type", "version"}, "ping": {"type"}}


def error(code: Code, reason: str) -> dict[str, Any]:
    # The reason may quote what the client sent: keep it encodable whatever that was.
    reason = reason.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"type": "error", "code": code, "reason": reason}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(text: str | bytes) -> Message:
    """A client message.

    :raises: :exc:`WireError` saying what is wrong and where, in one line.
    """
    if isinstance(text, bytes):
        raise WireError(Code.BAD_FRAME, "message: send JSON in text frames, not binary")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise WireError(Code.BAD_JSON, f"message: not JSON ({e.msg} at column {e.colno})") \
            from None
    except (ValueError, RecursionError):
        raise WireError(Code.BAD_JSON, "message: not JSON this server reads (a number too "
                        "long, or nesting too deep)") from None
    if not isinstance(data, dict):
        raise WireError(Code.BAD_MESSAGE, f"message: must be a JSON object, not "
                        f"{type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise WireError(Code.BAD_TYPE, f"type: unknown message type {quote(kind)} "
                        f"(expected hello, act, shown or ping)")
    extra = sorted(set(data) - FIELDS[kind])
    if extra:
        raise WireError(Code.BAD_FIELD, f"{kind}: unknown field {quote(extra[0])}")
    if kind == "ping":
        return Ping()
    if kind == "shown":
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise WireError(Code.BAD_FIELD, f"shown.version: must be the version whose turn "
                            f"the page shows (a whole number), not {quote(version)}")
        return Shown(version)
    if kind == "act":
        action, version = data.get("action"), data.get("version")
        if not isinstance(action, str) or action not in _ACTIONS:
            raise WireError(Code.BAD_FIELD, f"act.action: must be 'stand' or 'swap', "
                            f"not {quote(action)}")
        if not isinstance(version, int) or isinstance(version, bool):
            raise WireError(Code.BAD_FIELD, f"act.version: must be the version you are "
                            f"answering (a whole number), not {quote(version)}")
        return Act(Action(action), version)
    seat, token, since = data.get("seat"), data.get("token"), data.get("since")
    if seat is not None and not (_whole(seat) and 0 <= seat <= SEAT_MAX):
        raise WireError(Code.BAD_FIELD, f"hello.seat: must be a seat number or null "
                        f"(to watch), not {quote(seat)}")
    if seat is not None:
        try:
            token = checked_token(token, "hello.token")
        except Untrusted:
            raise WireError(Code.BAD_FIELD, "hello.token: a seat needs the token its join "
                            "gave") from None
    if since is not None and not (_whole(since) and since >= 0):
        raise WireError(Code.BAD_FIELD, f"hello.since: must be the last version you saw, or "
                        f"null, not {quote(since)}")
    return Hello(seat, token if seat is not None else None, since)


def dumps(message: dict[str, Any]) -> str:
    """A message's text (``jsontext.dumps``: compact, UTF-8 as it is)."""
    return _dumps(message)


def encode(out: Sequence[Outbound]) -> list[tuple[tuple[int | None, ...], str]]:
    """Each outbound message's text, ``dumps(message)``, with whom it is for (seats,
    None: the spectators). A message for several (news) is one ``Outbound``, encoded
    once."""
    return [(o.to, dumps(o.message)) for o in out]
