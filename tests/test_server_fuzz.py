"""A bounded fuzz of the wire and the HTTP API: arbitrary Unicode (lone surrogates
included), numbers and shapes in every field of every message and route. After each
one the server has answered with a clear refusal (a code and a one-line reason, never a
5xx), every other connection at the table is still open, and the table's state is what
it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from gnav.server.wire import Act, Hello, Ping, Shown, WireError, parse
from gnav.table import TableConfig
from server_kit import Match, SessionLink, a_match

# Every character, lone surrogates and controls included.
CHARS = st.characters(exclude_categories=())
TEXT = st.text(CHARS, max_size=12)
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.integers(-3, 60)
           | st.floats(allow_nan=True, allow_infinity=True) | TEXT
           | st.sampled_from(["stand", "swap", "hello", "act", "shown", "ping", "", "0", "²",
                              "-1", "\ud800", "\udfff", "\u202e", "\x00", "null"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(TEXT, inner, max_size=3), max_leaves=6)
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FIELDS = {"hello": ("seat", "token", "since"), "act": ("action", "version"),
          "shown": ("version",), "ping": ()}


def _text(value: Any) -> str:
    """JSON text as a client might write it: a lone surrogate as its escape."""
    return json.dumps(value)  # ensure_ascii: "\ud800" stays the six characters \ud800


@st.composite
def messages(draw: st.DrawFn, valid: dict[str, Any]) -> str:
    """A message whose fields are each what the protocol wants or anything at all."""
    if draw(st.integers(0, 9)) == 0:  # not a message at all
        return draw(st.sampled_from(["", "{", "[1]", "nul", '"\\ud800"', "{" * 300]))
    kind = draw(st.sampled_from(sorted(FIELDS)) | VALUES)
    message: dict[str, Any] = {"type": kind}
    for name in FIELDS.get(kind, ()) if isinstance(kind, str) else ():
        if draw(st.booleans()):
            message[name] = valid.get(name) if draw(st.booleans()) else draw(VALUES)
    if draw(st.integers(0, 4)) == 0:
        message[draw(TEXT)] = draw(VALUES)
    return _text(message)


def _answers(match: Match, text: str) -> list[dict[str, Any]]:
    """What the mover's socket gets for ``text``, up to the pong of a ping sent after it
    (two pongs if ``text`` was itself a ping)."""
    link = match.mover.link
    assert isinstance(link, SessionLink)
    link.send_raw(text)
    link.send({"type": "ping"})
    want = 2 if _is_ping(text) else 1
    got: list[dict[str, Any]] = []
    while sum(f["type"] == "pong" for f in got) < want:
        got.append(link.recv())
    return got


def _is_ping(text: str) -> bool:
    try:
        return isinstance(parse(text), Ping)
    except WireError:
        return False


def _is_shown(text: str) -> bool:
    """A well-formed "shown": a hint to the clock, dropped without a word where it does
    not apply (this table has no timer: it never applies)."""
    try:
        return isinstance(parse(text), Shown)
    except WireError:
        return False


def _clear(error: dict[str, Any]) -> None:
    assert error["type"] == "error", error
    assert isinstance(error["code"], str) and error["code"] != "internal", error
    reason = error["reason"]
    assert isinstance(reason, str) and reason and "\n" not in reason
    reason.encode("utf-8")


def _unchanged(match: Match, before: Any) -> None:
    for p in match.players:
        p.sync()  # still open: a closed socket raises
        assert not p.errors, p.errors
    assert match.state() == before


@contextmanager
def _match(tmp_path: Path) -> Iterator[tuple[Match, Any]]:
    with a_match(tmp_path, creates_per_minute=10**6, tables_per_client=10**6,
                 costly_per_minute=10**6) as m:
        yield m, m.state()


def test_hostile_messages_on_a_seated_socket(tmp_path: Path) -> None:
    with _match(tmp_path) as (m, before):
        valid = {"seat": 0, "token": m.tokens[0], "since": None, "action": "stand"}

        @FUZZ
        @given(st.data())
        def check(data: st.DataObject) -> None:
            version = m.mover.version
            text = data.draw(messages({**valid, "version": version}))
            try:
                parsed = parse(text)
                # A well-formed act for the version the table is at would be played.
                assume(not isinstance(parsed, Act) or parsed.version != version)
            except WireError:
                pass
            answers = _answers(m, text)
            errors = [a for a in answers if a["type"] == "error"]
            assert len(errors) == (0 if _is_ping(text) or _is_shown(text) else 1), answers
            for e in errors:
                _clear(e)
            assert all(a["type"] in ("error", "pong") for a in answers), answers
            _unchanged(m, before)

        check()


def test_hostile_hellos_on_a_new_socket(tmp_path: Path) -> None:
    with _match(tmp_path) as (m, before):
        valid = {"seat": 1, "token": m.tokens[1], "since": None}

        @FUZZ
        @given(st.data())
        def check(data: st.DataObject) -> None:
            text = data.draw(messages(valid))
            try:
                parsed = parse(text)
                # A spectator's hello, or this seat's own token, is let in: not hostile.
                assume(not isinstance(parsed, Hello) or parsed.seat is not None)
                assume(getattr(parsed, "token", None) != m.tokens[1])
            except WireError:
                pass
            with m.client.websocket_connect(f"/ws/{m.tid}") as ws:
                ws.send_text(text)
                _clear(ws.receive_json())
                try:
                    ws.receive_json()
                    raise AssertionError("the socket stayed open after a bad hello")
                except WebSocketDisconnect as closed:
                    assert closed.code in (1008, 4004)
            _unchanged(m, before)

        check()


ROUTES = ("create", "join", "bots", "unseat", "start", "record", "info", "replay", "rules")
CONFIG_FIELDS = tuple(TableConfig.__dataclass_fields__)


def _segment(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def test_hostile_requests_to_every_route(tmp_path: Path) -> None:
    with _match(tmp_path) as (m, before):
        host_token = m.created["host_token"]
        invite = m.created["invite"]

        @FUZZ
        @given(st.data())
        def check(data: st.DataObject) -> None:
            route = data.draw(st.sampled_from(ROUTES))
            draw = data.draw

            def field(good: Any) -> Any:
                return good if draw(st.booleans()) else draw(VALUES)

            def body(names: tuple[str, ...], good: dict[str, Any]) -> bytes:
                if draw(st.integers(0, 5)) == 0:
                    return draw(st.binary(max_size=20) | st.sampled_from(
                        [b"[]", b"1", b'"x"', b"{", b"\xff", b"[" * 2000]))
                shape = {n: field(good.get(n)) for n in names if draw(st.booleans())}
                if draw(st.integers(0, 4)) == 0:
                    shape[draw(TEXT)] = draw(VALUES)
                return _text(shape).encode()

            tid = m.tid if draw(st.integers(0, 3)) else _segment(draw(VALUES))
            token = host_token if draw(st.booleans()) else draw(TEXT)
            raw = ("Bearer " + token).encode("utf-8", "surrogatepass")
            auth = {"Authorization": raw.translate(None, b"\r\n\x00")} \
                if draw(st.booleans()) else {}
            c = m.client
            if route == "create":
                r = c.post("/api/tables", content=body(CONFIG_FIELDS, {"seats": 3}))
            elif route == "join":
                r = c.post(f"/api/tables/{tid}/join", content=body(
                    ("name", "invite"), {"name": "Cecilie", "invite": invite}))
            elif route == "bots":
                r = c.post(f"/api/tables/{tid}/bots", content=body(("kind",), {"kind": "random"}),
                           headers=auth)
            elif route == "unseat":
                r = c.delete(f"/api/tables/{tid}/seats/{_segment(draw(VALUES))}", headers=auth)
            elif route == "start":
                r = c.post(f"/api/tables/{tid}/start", content=body((), {}), headers=auth)
            elif route == "record":
                r = c.get(f"/api/tables/{tid}/record?game={_segment(draw(VALUES))}")
            elif route == "info":
                r = c.get(f"/api/tables/{tid}", headers=auth)
            elif route == "replay":
                r = c.post("/api/replay", content=body(("seats", "rounds", "preset"), {}))
            else:
                q = "&".join(f"{_segment(k)}={_segment(draw(VALUES))}" for k in
                             ("preset", "lang", "options", draw(TEXT)) if draw(st.booleans()))
                r = c.get(f"/api/rules?{q}")
            assert r.status_code < 500, (route, r.status_code, r.text[:300])
            if r.status_code >= 400:
                error = r.json()["error"]
                _clear({"type": "error", **error})
            _unchanged(m, before)

        check()
