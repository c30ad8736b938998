"""The routes of the browser client: its pages, its static files, and read-only helpers
built on the engine (the presets, the rules in words, a record's replay and analysis,
the odds).

Errors are ``{"error": {"code": ..., "reason": ...}}`` with one line, as the API's are.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from gnav.errors import Code, GnavError, RefusedError
from gnav.web.analysis import analysis_json
from gnav.web.data import presets_text, read_options, rules_json, texts_text
from gnav.web.odds import ODDS_PAGE, Maker
from gnav.web.steps import MAX_BYTES, ReplayError, replay_steps

STATIC = Path(__file__).resolve().parent / "static"
INDEX = STATIC / "index.html"
COMPANION = STATIC / "companion" / "index.html"
COMPANION_SW = STATIC / "companion" / "sw.js"

# Everything the page loads comes from this server; nothing runs inline.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def error(code: Code, reason: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "reason": reason}}, status_code=code.status)


class Static(StaticFiles):
    """The client's files: revalidated on every load (an ETag makes that cheap), so a
    new version of the server never runs with yesterday's modules."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


async def page(request: Request) -> Response:
    """The one page: it reads the address and draws the start page, a table, or the
    replay viewer."""
    return FileResponse(INDEX, media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)


async def companion(request: Request) -> Response:
    """The companion: a phone lying on a real table keeps the game (docs/companion.md)."""
    return FileResponse(COMPANION, media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)


async def companion_sw(request: Request) -> Response:
    """The companion's service worker, served from the top so that its scope may hold
    ``/companion`` (a worker's scope is at most its own folder)."""
    return FileResponse(COMPANION_SW, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


async def card(request: Request) -> Response:
    """``GET /card/{preset}?lang=en|nb|da``: the printable card of ``pack = cards52``."""
    from gnav.rules import Rules
    from gnav.web.card import card_html

    lang = request.query_params.get("lang", "en")
    try:
        rules = Rules.from_spec({"preset": request.path_params["preset"], "pack": "cards52"},
                                where="card")
        body = card_html(rules, lang)
    except GnavError as e:
        return error(Code.BAD_RULES, str(e))
    return Response(body, media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)


# Where the machines' routes live: an unknown address under these stays a JSON error.
MACHINE_PREFIXES = ("/api/", "/api", "/ws/", "/static/", "/openapi.json", "/health")

ErrorHandler = Callable[[Request, Exception], Awaitable[Response]]


def page_not_found(fallback: ErrorHandler) -> ErrorHandler:
    """The 404 handler: a browser asking for a page that is not there gets the page
    (which says so in the reader's language, with a way back); the API, the sockets,
    the static files and any client that does not ask for HTML get ``fallback``'s
    JSON."""

    async def handler(request: Request, exc: Exception) -> Response:
        path = request.url.path
        wants_page = (request.method in ("GET", "HEAD") and not path.startswith(MACHINE_PREFIXES)
                      and "text/html" in request.headers.get("accept", ""))
        if wants_page:
            return FileResponse(INDEX, status_code=404, media_type="text/html; charset=utf-8",
                                headers=PAGE_HEADERS)
        return await fallback(request, exc)

    return handler


async def presets(request: Request) -> Response:
    return Response(presets_text(), media_type="application/json",
                    headers={"Cache-Control": "no-cache"})


async def texts(request: Request) -> Response:
    return Response(texts_text(), media_type="application/json",
                    headers={"Cache-Control": "no-cache"})


async def rules(request: Request) -> Response:
    """``GET /api/rules?preset=P&lang=en|nb|da&options={...}&score=tokens|strokes|gnav``."""
    q = request.query_params
    extra = sorted(set(q) - {"preset", "lang", "options", "score"})
    if extra:
        return error(Code.BAD_FIELD, f"rules: unknown query parameter {extra[0]!r} "
                     "(parameters: preset, lang, options, score)")
    try:
        body = rules_json(q.get("preset", "gnav"), read_options(q.get("options")),
                          q.get("lang", "en"), q.get("score"))
    except GnavError as e:
        return error(Code.BAD_RULES, f"rules: {e}")
    return JSONResponse(body)


async def _record_text(request: Request) -> str | Response:
    """The record a request's body holds, as text, or the error response saying why not."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BYTES:
        return error(Code.TOO_BIG, f"record: the body is over {MAX_BYTES} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BYTES:
            return error(Code.TOO_BIG, f"record: the body is over {MAX_BYTES} bytes")
    try:
        text = bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        return error(Code.BAD_RECORD, "record: not UTF-8 text")
    if not text.strip():
        return error(Code.BAD_RECORD, "record: the body is empty: send a record's JSON")
    return text


async def _from_record(request: Request, work: Callable[[str], dict[str, Any]]) -> Response:
    text = await _record_text(request)
    if isinstance(text, Response):
        return text
    try:
        body: dict[str, Any] = await asyncio.to_thread(work, text)
    except ReplayError as e:
        return error(e.code, str(e))
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                    media_type="application/json")


async def replay(request: Request) -> Response:
    """``POST /api/replay`` with a record (docs/spec/records.md) as the body: the viewer's steps."""
    return await _from_record(request, replay_steps)


async def analysis(request: Request) -> Response:
    """``POST /api/analyse`` with a record as the body: every decision against the
    expert, from each seat's view (gnav.web.analysis). ``?progress=1``: the answer is a
    stream of JSON lines, ``{"done": k, "total": n}`` as the sampled decisions come
    back, then ``{"analysis": ...}`` or ``{"error": {"code", "reason"}}``."""
    extra = sorted(set(request.query_params) - {"progress"})
    if extra or request.query_params.get("progress", "1") != "1":
        return error(Code.BAD_FIELD, "analyse: the one query parameter is progress=1")
    if "progress" not in request.query_params:
        return await _from_record(request, analysis_json)
    text = await _record_text(request)
    if isinstance(text, Response):
        return text
    return StreamingResponse(_analysis_lines(text), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-cache"})


async def _analysis_lines(text: str) -> AsyncIterator[bytes]:
    """The analysis of ``text`` as JSON lines: its progress, then its answer."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def progress(done: int, total: int) -> None:
        loop.call_soon_threadsafe(lines.put_nowait, {"done": done, "total": total})

    def work() -> dict[str, Any]:
        try:
            return {"analysis": analysis_json(text, progress=progress)}
        except ReplayError as e:
            return {"error": {"code": e.code, "reason": str(e)}}

    task = asyncio.ensure_future(asyncio.to_thread(work))
    while True:
        waiting = asyncio.ensure_future(lines.get())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if waiting.done():
            yield _line(waiting.result())
            continue
        waiting.cancel()
        while not lines.empty():
            yield _line(lines.get_nowait())
        yield _line(task.result())
        return


def _line(body: dict[str, Any]) -> bytes:
    return (json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


async def odds_page(request: Request) -> Response:
    """``/odds``: the odds atlas, its own small page (odds.html, js/odds.js)."""
    return FileResponse(STATIC / ODDS_PAGE, media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)


def odds_routes(maker: Maker) -> list[BaseRoute]:
    """``/api/odds`` over ``maker`` (gnav.web.odds): ``GET`` the index, or one table's
    atlas (200) or its making's progress (202); ``POST ?preset=P&seats=N`` makes it."""

    async def odds(request: Request) -> Response:
        q = request.query_params
        extra = sorted(set(q) - {"preset", "seats"})
        if extra:
            return error(Code.BAD_FIELD, f"odds: unknown query parameter {extra[0]!r} "
                         "(parameters: preset, seats)")
        if request.method == "GET" and "preset" not in q and "seats" not in q:
            return JSONResponse(await asyncio.to_thread(maker.index),
                                headers={"Cache-Control": "no-cache"})
        seats = q.get("seats", "")
        if not (seats.isascii() and seats.isdigit() and len(seats) < 4):
            return error(Code.BAD_FIELD, f"odds: seats must be a whole number, not {seats!r}")
        ask = maker.start if request.method == "POST" else maker.status
        try:
            status, body = await asyncio.to_thread(ask, q.get("preset", "gnav"), int(seats))
        except RefusedError as e:
            return error(e.code, str(e))
        except GnavError as e:
            return error(Code.NO_ODDS, str(e))
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-cache"})

    return [Route("/api/odds", odds, methods=["GET", "POST"])]


async def learn(request: Request) -> Response:
    """``GET /api/learn?preset=gnav|gnav-1917``: the guided match's frames, played by the
    engine (gnav.learn.lesson), language-free (the page says the sentence ids)."""
    from gnav.web.learn import lesson_text

    q = request.query_params
    extra = sorted(set(q) - {"preset"})
    if extra:
        return error(Code.BAD_FIELD, f"learn: unknown query parameter {extra[0]!r} "
                     "(parameters: preset)")
    try:
        body = lesson_text(q.get("preset", "gnav"))
    except GnavError as e:
        return error(Code.BAD_RULES, f"learn: {e}")
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})


async def puzzles(request: Request) -> Response:
    """``GET /api/puzzles``: how many puzzles and today's; ``?n=N``: puzzle N
    (gnav.web.puzzles)."""
    import datetime as dt

    from gnav.web.puzzles import index_json, puzzle_text

    q = request.query_params
    extra = sorted(set(q) - {"n"})
    if extra:
        return error(Code.BAD_FIELD, f"puzzles: unknown query parameter {extra[0]!r} "
                     "(parameters: n)")
    # The host's own puzzles, where the server grows them (gnav serve --grow-puzzles).
    grown = getattr(request.app.state, "grow_puzzles", None)
    if "n" not in q:
        return JSONResponse(index_json(dt.datetime.now(dt.UTC).date(), grown),
                            headers={"Cache-Control": "no-cache"})
    n = q["n"]
    if not (n.isascii() and n.isdigit() and len(n) <= 6):
        return error(Code.BAD_FIELD, f"puzzles: n must be a whole number, not {n[:20]!r}")
    try:
        body = puzzle_text(int(n), grown)
    except GnavError as e:
        return error(Code.BAD_FIELD, f"puzzles: {e}")
    return Response(body, media_type="application/json")


def routes(odds_dir: Path | None = None) -> list[BaseRoute]:
    """The client's routes; ``odds_dir``: where /odds keeps the tables it makes (None:
    the user's cache folder)."""
    return [
        Route("/", page, methods=["GET"]),
        Route("/t/{table_id}", page, methods=["GET"]),
        Route("/replay", page, methods=["GET"]),
        Route("/learn", page, methods=["GET"]),
        Route("/api/learn", learn, methods=["GET"]),
        Route("/puzzles", page, methods=["GET"]),
        Route("/api/puzzles", puzzles, methods=["GET"]),
        Route("/companion", companion, methods=["GET"]),
        Route("/companion-sw.js", companion_sw, methods=["GET"]),
        Route("/card/{preset}", card, methods=["GET"]),
        Route("/odds", odds_page, methods=["GET"]),
        *odds_routes(Maker(odds_dir)),
        Route("/static/presets.json", presets, methods=["GET"]),
        Route("/static/texts.json", texts, methods=["GET"]),
        Route("/api/rules", rules, methods=["GET"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/analyse", analysis, methods=["POST"]),
        Mount("/static", app=Static(directory=STATIC), name="static"),
    ]
