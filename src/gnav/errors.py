"""Error types.

Every error the engine raises for bad input is a ``ValueError`` subclass, so callers
that only care about "bad input" can catch ``ValueError``; callers that care can tell
malformed input (it does not parse) from illegal moves (it parses, the rules forbid it).
"""

from __future__ import annotations

from enum import StrEnum


class GnavError(ValueError):
    """Base of every error gnav raises for bad input."""


class MalformedError(GnavError):
    """Input that does not parse: an unknown preset, piece, option or field, bad JSON."""


class UnknownPresetError(MalformedError):
    """A preset name that is neither a preset nor an alias of one."""


class UnknownPieceError(MalformedError):
    """A piece name that the deck of the rules in force does not know."""


class OptionError(MalformedError):
    """An unknown option, or a value outside the option's range."""


class IllegalActionError(GnavError):
    """A well-formed action that the rules forbid now (wrong seat, round over, ...)."""


class InconsistentError(GnavError):
    """A well-formed record that the rules contradict: a wrong dealer, a decision out
    of turn, a result that differs from the engine's."""


class Code(StrEnum):
    """Every machine-readable code the table, the server and the web routes answer with
    (``{"error": {"code": ..., "reason": ...}}``, and the socket's ``{"type": "error"}``):
    the one list that the API's statuses, the OpenAPI schema, the browser's sentences
    (``err.<code>`` in web/static/js/i18n.js) and the tests read. ``status`` is the HTTP
    status an answer with the code carries."""

    # The request does not parse, or a field of it is wrong.
    BAD_JSON = "bad_json"
    BAD_BODY = "bad_body"
    BAD_FIELD = "bad_field"
    BAD_CONFIG = "bad_config"
    BAD_LANG = "bad_lang"
    BAD_RULES = "bad_rules"
    BAD_RECORD = "bad_record"
    INCONSISTENT = "inconsistent"
    BAD_NAME = "bad_name"
    NAME_BLANK = "name_blank"
    NAME_TOO_LONG = "name_too_long"
    NAME_RESERVED = "name_reserved"
    BAD_SEAT = "bad_seat"
    BAD_BOT = "bad_bot"
    BAD_GAME = "bad_game"
    # A socket's messages.
    BAD_FRAME = "bad_frame"
    BAD_MESSAGE = "bad_message"
    BAD_TYPE = "bad_type"
    NO_HELLO = "no_hello"
    # Who may do it.
    NO_HOST_TOKEN = "no_host_token"
    NOT_HOST = "not_host"
    BAD_TOKEN = "bad_token"
    BAD_INVITE = "bad_invite"
    BAD_ORIGIN = "bad_origin"
    NOT_SEATED = "not_seated"
    NO_COACHING = "no_coaching"
    # What is not there.
    NO_TABLE = "no_table"
    NO_RECORD = "no_record"
    NO_ODDS = "no_odds"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    # Not now: the table's state says no.
    NAME_TAKEN = "name_taken"
    FULL = "full"
    STARTED = "started"
    NOT_PLAYING = "not_playing"
    NOT_OVER = "not_over"
    NO_MATCH = "no_match"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    CLOSED = "closed"
    EXPIRED = "expired"
    # Too much.
    TOO_BIG = "too_big"
    RATE_LIMITED = "rate_limited"
    TOO_MANY = "too_many"
    TOO_MANY_SOCKETS = "too_many_sockets"
    # The server's own trouble.
    HTTP = "http"
    INTERNAL = "internal"
    BUSY = "busy"
    CLOSING = "closing"
    CROWDED = "crowded"
    STORE_FAILED = "store_failed"
    STORE_FULL = "store_full"

    @property
    def status(self) -> int:
        return _STATUS[self]


_STATUS: dict[Code, int] = {
    **dict.fromkeys((Code.BAD_JSON, Code.BAD_BODY, Code.BAD_FIELD, Code.BAD_CONFIG,
                     Code.BAD_LANG, Code.BAD_RULES, Code.BAD_RECORD, Code.INCONSISTENT,
                     Code.BAD_NAME, Code.NAME_BLANK, Code.NAME_TOO_LONG, Code.NAME_RESERVED,
                     Code.BAD_SEAT,
                     Code.BAD_BOT, Code.BAD_GAME, Code.BAD_FRAME, Code.BAD_MESSAGE,
                     Code.BAD_TYPE, Code.NO_HELLO, Code.HTTP), 400),
    Code.NO_HOST_TOKEN: 401,
    **dict.fromkeys((Code.NOT_HOST, Code.BAD_TOKEN, Code.BAD_INVITE, Code.BAD_ORIGIN,
                     Code.NOT_SEATED, Code.NO_COACHING), 403),
    **dict.fromkeys((Code.NO_TABLE, Code.NO_RECORD, Code.NO_ODDS, Code.NOT_FOUND), 404),
    Code.METHOD_NOT_ALLOWED: 405,
    **dict.fromkeys((Code.NAME_TAKEN, Code.FULL, Code.STARTED, Code.NOT_PLAYING,
                     Code.NOT_OVER, Code.NO_MATCH, Code.STALE, Code.NOT_YOUR_TURN,
                     Code.ILLEGAL, Code.CLOSED), 409),
    Code.EXPIRED: 410,
    Code.TOO_BIG: 413,
    **dict.fromkeys((Code.RATE_LIMITED, Code.TOO_MANY, Code.TOO_MANY_SOCKETS), 429),
    Code.INTERNAL: 500,
    **dict.fromkeys((Code.BUSY, Code.CLOSING, Code.CROWDED, Code.STORE_FAILED,
                     Code.STORE_FULL), 503),
}
if set(_STATUS) != set(Code):  # pragma: no cover - a code added without its status
    raise AssertionError(f"codes without a status: {sorted(set(Code) - set(_STATUS))}")


class CodedError(Exception):
    """Base of every error a client reads by its ``code`` (a ``Code``); the text is one
    line for developers (a person reads the page's sentence for the code).

    It sits beside ``GnavError``, not below it, on purpose: a server's own failure
    (``Fault``: ``internal``, ``store_failed``) has a code but is no bad input, and must
    not be caught where bad input is (``except ValueError``). A request turned down is
    both: ``RefusedError``."""

    def __init__(self, code: Code, reason: str) -> None:
        super().__init__(reason)
        self.code = code

    @property
    def reason(self) -> str:
        return str(self)


class RefusedError(CodedError, GnavError):
    """A request turned down for what it asks (a bad field, a seat taken, not your
    turn): bad input, with a code. The table's ``Refused``, the server's ``Untrusted``
    and ``WireError``, the replay viewer's ``ReplayError`` and ``BadName`` are these."""
