"""The WebSocket endpoint ``/ws/{table_id}``: origin check, hello, then the seat's
messages out and its actions in, each message size-capped and rate-limited.

One task reads, one task writes (from the connection's queue, so every message goes
out in the order the table produced it); whichever ends first ends the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import MutableMapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from gnav.errors import Code
from gnav.server.conn import Conn
from gnav.server.faults import Fault
from gnav.server.hub import Hub
from gnav.server.logs import Log
from gnav.server.security import Flood, PerKey, origin_allowed
from gnav.server.settings import Settings
from gnav.server.untrusted import address_block
from gnav.server.wire import (
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    Hello,
    Ping,
    Shown,
    WireError,
    dumps,
    error,
    parse,
)
from gnav.table import Refused

PONG = dumps({"type": "pong"})


def _payload(message: MutableMapping[str, Any]) -> str | bytes:
    text = message.get("text")
    if isinstance(text, str):
        return text
    data = message.get("bytes")
    return data if isinstance(data, bytes) else b""


def _size(payload: str | bytes, limit: int) -> int:
    if isinstance(payload, bytes) or len(payload) > limit:
        return len(payload)
    return len(payload.encode())


class Sockets:
    def __init__(self, hub: Hub, settings: Settings, log: Log) -> None:
        self.hub = hub
        self.settings = settings
        self.log = log
        # Open sockets by address block: one client cannot take the server's whole share
        # of connections (``max_connections``) and lock everyone else out; nor open and
        # close them for ever (each hello costs a snapshot): as many opens a minute.
        self.open: dict[str, int] = {}
        per_minute = settings.sockets_per_client
        self.opens = PerKey(per_minute / 60.0, per_minute, time.monotonic)

    async def endpoint(self, ws: WebSocket) -> None:
        table_id = str(ws.path_params["table_id"])
        origin = ws.headers.get("origin")
        if not origin_allowed(origin, self.settings.origins):
            self.log.warning("ws.refused", table_id, code=Code.BAD_ORIGIN, origin=origin[:200]
                             if origin else None)
            await self._deny(ws, Code.BAD_ORIGIN, f"origin {origin!r} may not open sockets on "
                             f"this server (see --allow-origin)")
            return
        client = address_block(ws.client.host if ws.client else "")
        held = self.open.get(client, 0)
        if held >= self.settings.sockets_per_client:
            self.log.warning("ws.refused", table_id, code=Code.TOO_MANY_SOCKETS, client=client)
            await self._deny(ws, Code.TOO_MANY_SOCKETS, f"this address has {held} sockets "
                             f"open, as many as one address may; close one first")
            return
        wait = self.opens.take(client)
        if wait is not None:
            self.log.warning("ws.refused", table_id, code=Code.RATE_LIMITED, client=client)
            await self._deny(ws, Code.RATE_LIMITED, f"this address opened "
                             f"{self.settings.sockets_per_client} sockets in the last minute, "
                             f"as many as one address may; try again in {wait:.0f} s")
            return
        self.open[client] = held + 1
        try:
            await self._session(ws, table_id, client)
        finally:
            left = self.open[client] - 1
            if left:
                self.open[client] = left
            else:
                del self.open[client]

    async def _session(self, ws: WebSocket, table_id: str, client: str) -> None:
        await ws.accept()
        flood = Flood(self.settings.ws_rate, self.settings.ws_burst, time.monotonic)
        conn = await self._hello(ws, table_id, flood)
        if conn is None:
            return
        self.log.info("ws.opened", table_id, seat=conn.seat, client=client)
        try:
            await self._serve(ws, conn, flood)
        finally:
            await self.hub.detach(conn)
            self.log.info("ws.closed", table_id, seat=conn.seat,
                          code=conn.close_code if conn.closed else None)

    async def _deny(self, ws: WebSocket, code: Code, reason: str) -> None:
        if "websocket.http.response" in ws.scope.get("extensions", {}):
            await ws.send_denial_response(JSONResponse(
                {"error": {"code": code, "reason": reason}}, status_code=code.status))
        else:  # the server cannot answer the handshake with a body: refuse it bare
            await ws.close(CLOSE_POLICY, reason[:120])

    async def _refuse(self, ws: WebSocket, table_id: str, code: Code, reason: str,
                      close: int = CLOSE_POLICY) -> None:
        self.log.warning("ws.refused", table_id, code=code)
        reason = reason.encode("utf-8", "backslashreplace").decode("utf-8")
        with contextlib.suppress(Exception):  # the client may be gone already
            await ws.send_text(dumps(error(code, reason)))
            await ws.close(close, reason.encode()[:120].decode(errors="ignore"))

    async def _hello(self, ws: WebSocket, table_id: str, flood: Flood) -> Conn | None:
        timeout = self.settings.hello_timeout
        try:
            message = await asyncio.wait_for(ws.receive(), timeout)
        except TimeoutError:
            await self._refuse(ws, table_id, Code.NO_HELLO, f"hello: none came within "
                               f"{timeout:g} s")
            return None
        if message["type"] == "websocket.disconnect":
            return None
        payload = _payload(message)
        size = _size(payload, self.settings.ws_max_bytes)
        try:
            flood.check()
            if size > self.settings.ws_max_bytes:
                raise WireError(Code.TOO_BIG, f"message: {size} bytes is over the limit of "
                                f"{self.settings.ws_max_bytes}")
            hello = parse(payload)
            if not isinstance(hello, Hello):
                raise WireError(Code.NO_HELLO, 'hello: say {"type": "hello", "seat": n or '
                                'null, "token": ..., "since": version or null} first')
        except WireError as e:
            await self._refuse(ws, table_id, e.code, e.reason)
            return None
        try:
            return await self.hub.attach(table_id, hello.seat, hello.token, hello.since)
        except Refused as e:
            close = CLOSE_NO_TABLE if e.code == Code.NO_TABLE else CLOSE_POLICY
            await self._refuse(ws, table_id, e.code, f"hello: {e}", close)
        except Fault as e:
            await self._refuse(ws, table_id, e.code, f"hello: {e}")
        return None

    async def _serve(self, ws: WebSocket, conn: Conn, flood: Flood) -> None:
        pump = asyncio.create_task(self._pump(ws, conn))
        reader = asyncio.create_task(self._read(ws, conn, flood))
        done, _ = await asyncio.wait({pump, reader}, return_when=asyncio.FIRST_COMPLETED)
        if reader in done and conn.closed and not pump.done():
            # The reader closed the connection (a flood): let the close frame go out.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(pump), 5.0)
        for task in (pump, reader):
            task.cancel()
        for outcome in await asyncio.gather(pump, reader, return_exceptions=True):
            if isinstance(outcome, Exception):
                self.log.error("ws.failed", conn.table_id, error=repr(outcome))

    async def _pump(self, ws: WebSocket, conn: Conn) -> None:
        while True:
            text = await conn.take()
            try:
                if text is None:
                    await ws.close(conn.close_code, conn.close_reason[:120])
                    return
                await ws.send_text(text)
            except Exception:  # the client went away mid-send: the reader sees it too
                return

    async def _read(self, ws: WebSocket, conn: Conn, flood: Flood) -> None:
        limit = self.settings.ws_max_bytes
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            verdict = flood.check()
            if verdict == "close":
                self.log.warning("ws.flood", conn.table_id, seat=conn.seat)
                conn.close(CLOSE_POLICY, "flood: too many messages", drop=True)
                return
            if verdict == "refuse":
                conn.send(dumps(error(Code.RATE_LIMITED, f"message: over "
                                      f"{self.settings.ws_rate:g} messages a second; "
                                      f"this one was dropped")))
                continue
            payload = _payload(message)
            size = _size(payload, limit)
            if size > limit:
                conn.send(dumps(error(Code.TOO_BIG, f"message: {size} bytes is over the limit "
                                      f"of {limit}; it was dropped")))
                continue
            try:
                parsed = parse(payload)
            except WireError as e:
                conn.send(dumps(error(e.code, e.reason)))
                continue
            if isinstance(parsed, Ping):
                conn.send(PONG)
            elif isinstance(parsed, Shown):
                try:
                    await self.hub.shown(conn, parsed.version)
                except Fault as e:
                    conn.send(dumps(error(e.code, f"shown: {e}")))
            elif isinstance(parsed, Hello):
                conn.send(dumps(error(Code.BAD_TYPE, "hello: this socket has said hello "
                                      "already; open another to change seat")))
            else:
                try:
                    await self.hub.act(conn, parsed.action, parsed.version)
                except Refused as e:
                    conn.send(dumps(error(e.code, f"act: {e}")))
                except Fault as e:
                    conn.send(dumps(error(e.code, f"act: {e}")))
                except Exception:  # a bug: refuse this message alone, keep the socket
                    self.log.error("ws.act_failed", conn.table_id, exc=True)
                    conn.send(dumps(error(Code.INTERNAL, "act: the server hit an internal "
                                          "error; nothing was changed")))
