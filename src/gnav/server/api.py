"""The HTTP JSON API: create and list tables, join, seat bots, start, download records.

Every error is ``{"error": {"code": ..., "reason": ...}}`` with one line saying what is
wrong and where; the codes are those of ``gnav.table.Refused`` plus the transport's own.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gnav.bots.registry import BOT_KINDS
from gnav.errors import Code, MalformedError, RefusedError
from gnav.names import BadName, Name, parse_name
from gnav.server.faults import Fault
from gnav.server.hub import Hub
from gnav.server.logs import Log
from gnav.server.loopwatch import LoopWatch
from gnav.server.openapi import document
from gnav.server.security import PerKey, bearer, invite_code
from gnav.server.settings import Settings
from gnav.server.untrusted import Untrusted, address_block, quote, token, whole
from gnav.table import Refused, TableConfig
from gnav.table.config import lang_problem
from gnav.table.retries import KEY_MAX, KEY_MIN, RequestKey, parse_key
from gnav.vocab import BotKind


@dataclass(frozen=True)
class JoinRequest:
    name: Name
    invite: str | None


@dataclass(frozen=True)
class BotRequest:
    kind: BotKind | None


class ApiError(RefusedError):
    """A request the API turns down before the table sees it, with headers to send."""

    def __init__(self, code: Code, reason: str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(code, reason)
        self.headers = dict(headers or {})


def error_response(code: Code, reason: str, headers: Mapping[str, str] | None = None,
                   status: int | None = None) -> JSONResponse:
    # The reason may quote what the client sent: keep it encodable whatever that was.
    reason = reason.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": {"code": code, "reason": reason}},
                        status_code=status or code.status, headers=headers)


def page_links(base: str, table_id: str, host_token: str | None,
               host_digest: str) -> dict[str, str]:
    """Links to hand out. Tokens ride in the fragment, which browsers never send to a
    server or put in a Referer."""
    page = f"{base}/t/{table_id}"
    links = {"invite": f"{page}#invite={invite_code(host_digest)}", "watch": page}
    if host_token is not None:
        links["host"] = f"{page}#host={host_token}"
    return links


class Api:
    def __init__(self, hub: Hub, settings: Settings, log: Log,
                 watch: LoopWatch | None = None) -> None:
        self.hub = hub
        self.watch = watch
        self.settings = settings
        self.log = log
        per_minute = settings.creates_per_minute
        self.creates = PerKey(per_minute / 60.0, per_minute, time.monotonic)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/health", self.health, methods=["GET"]),
            Route("/openapi.json", self.openapi, methods=["GET"]),
            Route("/api/tables", self.lobby, methods=["GET"]),
            Route("/api/tables", self.create, methods=["POST"]),
            Route("/api/tables/{table_id}", self.table, methods=["GET"]),
            Route("/api/tables/{table_id}/join", self.join, methods=["POST"]),
            Route("/api/tables/{table_id}/bots", self.add_bot, methods=["POST"]),
            Route("/api/tables/{table_id}/seats/{seat}", self.remove_seat,
                  methods=["DELETE"]),
            Route("/api/tables/{table_id}/start", self.start, methods=["POST"]),
            Route("/api/tables/{table_id}/record", self.record, methods=["GET"]),
            Route("/api/tables/{table_id}/seats/{seat}/coach", self.coach,
                  methods=["POST"]),
        ]

    def handlers(self) -> dict[Any, Any]:
        return {ApiError: self._on_error, Refused: self._on_error, Fault: self._on_error,
                Untrusted: self._on_error, HTTPException: self._on_error,
                Exception: self._on_error}

    async def _on_error(self, request: Request, exc: Exception) -> Response:
        where = request.scope.get("gnav.where", "request")
        if isinstance(exc, ApiError):
            return error_response(exc.code, exc.reason, exc.headers)
        if isinstance(exc, Untrusted):
            return error_response(exc.code, exc.reason)
        if isinstance(exc, Refused):
            return error_response(exc.code, f"{where}: {exc}")
        if isinstance(exc, HTTPException):
            code = {404: Code.NOT_FOUND, 405: Code.METHOD_NOT_ALLOWED}.get(exc.status_code,
                                                                         Code.HTTP)
            reason = {404: f"{request.url.path}: no such route (see /openapi.json)",
                      405: f"{request.method} {request.url.path}: method not allowed"}
            return error_response(code, reason.get(exc.status_code, str(exc.detail)),
                                  exc.headers, exc.status_code)
        if isinstance(exc, Fault):
            retry = {"Retry-After": "5"} if exc.code in (Code.STORE_FAILED, Code.STORE_FULL) \
                else None
            return error_response(exc.code, f"{where}: {exc}", retry)
        self.log.error("http.failed", path=request.url.path, exc=True)
        return error_response(Code.INTERNAL, f"{where}: internal error")

    # -- request helpers -------------------------------------------------------------

    async def _body(self, request: Request, where: str,
                    fields: frozenset[str] | None) -> dict[str, Any]:
        """The JSON object in the body (an empty body is ``{}``), size-capped; with
        ``fields``, nothing else may be in it."""
        request.scope["gnav.where"] = where
        limit = self.settings.http_max_bytes
        length = request.headers.get("content-length")
        if length is not None and whole(length.strip(), f"{where}: Content-Length",
                                        most=10**9, code=Code.BAD_BODY) > limit:
            raise ApiError(Code.TOO_BIG, f"{where}: the body is over {limit} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise ApiError(Code.TOO_BIG, f"{where}: the body is over {limit} bytes")
        if not body.strip():
            return {}
        try:
            data = json.loads(bytes(body))
        except json.JSONDecodeError as e:
            raise ApiError(Code.BAD_JSON, f"{where}: the body is not JSON ({e.msg} at line "
                           f"{e.lineno} column {e.colno})") from None
        except (ValueError, RecursionError):
            raise ApiError(Code.BAD_JSON, f"{where}: the body is not JSON this server reads "
                           f"(not UTF-8, a number too long, or nesting too deep)") from None
        if not isinstance(data, dict):
            raise ApiError(Code.BAD_BODY, f"{where}: the body must be a JSON object, not "
                           f"{type(data).__name__}")
        if fields is not None:
            extra = sorted(set(data) - fields)
            if extra:
                raise ApiError(Code.BAD_FIELD, f"{where}: unknown field {extra[0]!r}"
                               + (f" (fields: {', '.join(sorted(fields))})" if fields else ""))
        return data

    @staticmethod
    def _host(request: Request, where: str) -> str:
        request.scope["gnav.where"] = where
        given = bearer(request.headers)
        if given is None:
            raise ApiError(Code.NO_HOST_TOKEN, f"{where}: send the host token in an "
                           f"'Authorization: Bearer <token>' header",
                           {"WWW-Authenticate": "Bearer"})
        return token(given, f"{where}: the host token", Code.NOT_HOST)

    @staticmethod
    def _key(request: Request, where: str) -> RequestKey | None:
        """The request's ``Idempotency-Key`` (``gnav.table.retries``): sent again with
        a retry, it makes the retry answer as the first did. None if there is none."""
        given = request.headers.get("idempotency-key")
        if given is None:
            return None
        key = parse_key(given)
        if key is None:
            raise ApiError(Code.BAD_FIELD, f"{where}: Idempotency-Key must be {KEY_MIN} to "
                           f"{KEY_MAX} letters, digits, '-' or '_', not {quote(given)}")
        return key

    @staticmethod
    def _client(request: Request) -> str:
        return address_block(request.client.host if request.client else "")

    @staticmethod
    def _table_id(request: Request) -> str:
        return str(request.path_params["table_id"])

    # -- routes ----------------------------------------------------------------------

    async def health(self, request: Request) -> Response:
        watched = self.watch.stats() if self.watch is not None else {}
        return JSONResponse({"status": "ok", **self.hub.stats(), **watched})

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(document(self.settings.base_url))

    async def lobby(self, request: Request) -> Response:
        base = self.settings.base_url
        tables = [{**line, "watch": f"{base}/t/{line['id']}"}
                  for line in await self.hub.lobby()]
        return JSONResponse({"tables": tables})

    async def create(self, request: Request) -> Response:
        data = await self._body(request, "table", None)
        try:
            config = TableConfig.from_json(data, new=True)
        except MalformedError as e:
            raise ApiError(Code.BAD_CONFIG, str(e)) from None
        problem = lang_problem(config)
        if problem is not None:
            raise ApiError(Code.BAD_LANG, problem)
        address = self._client(request)
        wait = self.creates.take(address)
        if wait is not None:
            raise ApiError(Code.RATE_LIMITED, f"table: at most {self.settings.creates_per_minute}"
                           f" new tables a minute from one address; try again in "
                           f"{math.ceil(wait)} s", {"Retry-After": str(math.ceil(wait))})
        table, host_token = await self.hub.create(config, address, self._key(request, "table"))
        base = self.settings.base_url
        return JSONResponse({
            "id": table.id, "host_token": host_token, "invite": invite_code(table.host),
            "links": page_links(base, table.id, host_token, table.host),
            "ws": self._ws_url(table.id), "table": table.info(self.hub.clock()),
        }, status_code=201)

    def _ws_url(self, table_id: str) -> str:
        base = self.settings.base_url
        return "ws" + base.removeprefix("http") + f"/ws/{table_id}"

    async def table(self, request: Request) -> Response:
        table_id = self._table_id(request)
        request.scope["gnav.where"] = "table"
        given = bearer(request.headers)
        info, is_host = await self.hub.info(
            table_id, None if given is None else token(given, "table: the token", Code.NOT_HOST))
        body: dict[str, Any] = {**info, "ws": self._ws_url(table_id)}
        if is_host:  # the host may fetch the invite link again
            digest = await self.hub.host_digest(table_id)
            body["links"] = page_links(self.settings.base_url, table_id, None, digest)
        return JSONResponse(body)

    async def join(self, request: Request) -> Response:
        data = await self._body(request, "join", frozenset({"name", "invite"}))
        table_id = self._table_id(request)
        asked = self._join_request(data)
        seat, seat_token, info = await self.hub.join(table_id, asked.name, asked.invite,
                                                     self._key(request, "join"))
        return JSONResponse({"seat": seat, "token": seat_token, "ws": self._ws_url(table_id),
                             "table": info}, status_code=201)

    @staticmethod
    def _join_request(data: dict[str, Any]) -> JoinRequest:
        try:
            name = parse_name(data.get("name"))
        except BadName as e:
            raise Untrusted(e.code, f"join.name: {e}") from None
        invite = data.get("invite")
        return JoinRequest(name, None if invite is None else token(invite, "join.invite",
                                                                   Code.BAD_INVITE))

    async def add_bot(self, request: Request) -> Response:
        host = self._host(request, "bots")
        data = await self._body(request, "bots", frozenset({"kind"}))
        kind = data.get("kind")
        if kind is not None and kind not in BOT_KINDS:
            raise ApiError(Code.BAD_BOT, f"bots.kind: unknown bot {quote(kind)} (bots: "
                           f"{', '.join(BOT_KINDS)})")
        asked = BotRequest(None if kind is None else BotKind(kind))
        return JSONResponse(await self.hub.add_bot(self._table_id(request), host, asked.kind,
                                                   self._key(request, "bots")))

    async def remove_seat(self, request: Request) -> Response:
        host = self._host(request, "seats")
        seat = whole(str(request.path_params["seat"]), "seats: the seat", most=9999,
                     code=Code.BAD_SEAT)
        return JSONResponse(await self.hub.remove_seat(self._table_id(request), host, seat,
                                                       self._key(request, "seats")))

    async def start(self, request: Request) -> Response:
        host = self._host(request, "start")
        await self._body(request, "start", frozenset())
        return JSONResponse(await self.hub.start(self._table_id(request), host,
                                                 self._key(request, "start")))

    async def record(self, request: Request) -> Response:
        request.scope["gnav.where"] = "record"
        table_id = self._table_id(request)
        extra = sorted(set(request.query_params) - {"game"})
        if extra:
            raise ApiError(Code.BAD_FIELD, f"record: unknown query parameter {extra[0]!r} "
                           f"(parameters: game)")
        text = request.query_params.get("game")
        number = None if text is None else whole(text, "record: game (1, 2, ...)",
                                                 most=999999, code=Code.BAD_GAME)
        game, record = await self.hub.record(table_id, number)
        return JSONResponse(record, headers={
            "Content-Disposition": f'attachment; filename="gnav-{table_id}-{game}.json"'})

    async def coach(self, request: Request) -> Response:
        """The coach for a seat's own decision: the seat's token (``Authorization:
        Bearer``) says whose view it reads."""
        where = "coach"
        request.scope["gnav.where"] = where
        seat = whole(str(request.path_params["seat"]), f"{where}: the seat", most=9999,
                     code=Code.BAD_SEAT)
        given = bearer(request.headers)
        if given is None:
            raise ApiError(Code.BAD_TOKEN, f"{where}: send the seat's token in an "
                           f"'Authorization: Bearer <token>' header",
                           {"WWW-Authenticate": "Bearer"})
        seat_token = token(given, f"{where}: the seat's token", Code.BAD_TOKEN)
        await self._body(request, where, frozenset())
        return JSONResponse(await self.hub.coach(self._table_id(request), seat, seat_token))
