"""The OpenAPI 3.1 document of the server (served at ``/openapi.json``).

Written by hand: the routes are few, and the WebSocket protocol, which no generator
describes, is documented here next to them.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from gnav.bots.registry import BOT_KINDS
from gnav.errors import Code
from gnav.options import Options
from gnav.table.config import DEFAULT, GRACE_SECONDS, LOOKS, SCORES, TIMER_SECONDS
from gnav.table.retries import KEY_MAX, KEY_MIN
from gnav.vocab import TEXT_LANGS, Lang, SeatKind, TablePhase

J = dict[str, Any]


def _ref(name: str) -> J:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: J, description: str) -> J:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> J:
    text = {400: "Malformed request: the reason says what is wrong and where",
            401: "No host token (Authorization: Bearer)", 403: "Wrong token or invite code",
            404: "No such table (or game)", 409: "Not now (started, full, not over...)",
            410: "The table was never started and has closed (expired)",
            413: "Body over the size limit",
            429: "Too many requests or unfinished tables from this address (Retry-After)",
            503: "Server full, shutting down, or its database cannot be written"}
    # Each status names the codes it carries, read off gnav.errors.Code.
    return {str(s): _json(_ref("Error"), f"{text[s]} (codes: "
                          f"{', '.join(c for c in Code if c.status == s)})")
            for s in statuses}


def _body(schema: J, required: bool) -> J:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


TABLE_ID: J = {"name": "table_id", "in": "path", "required": True,
               "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{6,32}$"}}
HOST: list[J] = [{"bearerAuth": []}]
# A change's key (gnav.table.retries): sent again with it, a request answers as the first.
RETRY_KEY: J = {"name": "Idempotency-Key", "in": "header", "required": False,
                "description": "the client's key for this request: a retry with the same "
                               "key, at any process, answers as the first did and changes "
                               "nothing",
                "schema": {"type": "string", "pattern": f"^[A-Za-z0-9_-]{{{KEY_MIN},{KEY_MAX}}}$"}}
NULLABLE_STRING: J = {"type": ["string", "null"]}

SCHEMAS: J = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "reason"],
        "properties": {"code": {"type": "string", "enum": list(Code)},
                       "reason": {"type": "string"}}}}},
    "TableConfig": {
        "type": "object", "additionalProperties": False,
        "properties": {
            "preset": {"type": "string", "default": DEFAULT.preset},
            "options": {"type": "object",
                        "description": "Options (docs/spec/rules.md §7), e.g. {\"lives\": 2}"},
            "seats": {"type": "integer", "default": DEFAULT.seats,
                      "description": "2 to the preset's maximum"},
            "turn_timer": {"type": ["number", "null"], "minimum": TIMER_SECONDS[0],
                           "maximum": TIMER_SECONDS[1], "default": DEFAULT.turn_timer,
                           "description": "seconds per decision; null: off"},
            "grace": {"type": "number", "minimum": GRACE_SECONDS[0],
                      "maximum": GRACE_SECONDS[1], "default": DEFAULT.grace,
                      "description": "seconds a disconnected seat waits before a bot "
                                     "plays it"},
            "listed": {"type": "boolean", "default": DEFAULT.listed,
                       "description": "shown in the lobby, and joinable without invite"},
            "bot": {"enum": list(BOT_KINDS), "default": DEFAULT.bot.value},
            "score": {"enum": [*SCORES, None]},
            "look": {"enum": list(LOOKS), "default": DEFAULT.look},
            "lang": {"enum": [*Lang, None]},
            "coaching": {"type": "boolean", "default": DEFAULT.coaching,
                         "description": "false: the host's \"no coaching here\" (the "
                                        "coach is refused to every seat)"},
        },
    },
    "Seat": {"type": "object", "properties": {
        "kind": {"enum": list(SeatKind)}, "name": NULLABLE_STRING,
        "bot": NULLABLE_STRING, "connected": {"type": "boolean"}}},
    "TableInfo": {"type": "object", "properties": {
        "id": {"type": "string"}, "phase": {"enum": list(TablePhase)},
        "version": {"type": "integer"}, "games": {"type": "integer"},
        "config": _ref("TableConfig"), "seats": {"type": "array", "items": _ref("Seat")},
        "to_act": {"type": ["integer", "null"]}, "timer_left": {"type": ["number", "null"]},
        "expert_plays": {
            "type": ["array", "null"],
            "description": "table sizes where an expert bot here plays as counter "
                           "(nothing solved or trained for these rules); null: none",
            "items": {"type": "object", "properties": {
                "seats": {"type": "string"}, "plays": {"type": "string"}}}},
        "length": {
            "type": ["object", "null"],
            "description": "how many rounds a match here lasts (expert bots, measured by "
                           "gnav simulate --lengths), and the options a table of this size "
                           "sets so that a match ends (docs/spec/rules.md §6.1); null: "
                           "not measured",
            "properties": {
                "seats": {"type": "integer"}, "median": {"type": "number"},
                "p95": {"type": "number"}, "ends": {"type": "number"},
                "cap": {"type": ["integer", "null"]},
                "measured": {"type": "boolean"}, "scaled": {"type": "boolean"},
                "remedied": {"type": "boolean"},
                "remedy": {"type": ["object", "null"]},
                "table_options": {"type": "object"},
                "plays_table_options": {"type": "boolean"}}},
        "ws": {"type": "string"}, "links": _ref("Links")}},
    "Links": {"type": "object", "properties": {
        "host": {"type": "string", "description": "only in the creation answer"},
        "invite": {"type": "string"}, "watch": {"type": "string"}}},
    "Created": {"type": "object", "required": ["id", "host_token", "links"], "properties": {
        "id": {"type": "string"}, "host_token": {"type": "string"},
        "invite": {"type": "string"}, "links": _ref("Links"), "ws": {"type": "string"},
        "table": _ref("TableInfo")}},
    "Joined": {"type": "object", "required": ["seat", "token"], "properties": {
        "seat": {"type": "integer"}, "token": {"type": "string"}, "ws": {"type": "string"},
        "table": _ref("TableInfo")}},
    "LobbyLine": {"type": "object", "properties": {
        "id": {"type": "string"}, "phase": {"type": "string"}, "preset": {"type": "string"},
        "seats": {"type": "integer"}, "open": {"type": "integer"},
        "players": {"type": "array", "items": {"type": "string"}},
        "turn_timer": {"type": ["number", "null"]}, "games": {"type": "integer"},
        "coaching": {"type": "boolean"}, "watch": {"type": "string"}}},
    "Record": {"type": "object", "required": ["gnav", "rules", "seats", "rounds"],
               "description": "A game record (docs/spec/records.md); gnav verify checks it"},
}

WS_PROTOCOL = """\
WebSocket (upgrade this GET). One socket per seat or spectator.

Client messages (JSON text frames, at most 4096 bytes, about 20 a second):
- {"type": "hello", "seat": n | null, "token": "...", "since": version | null} first;
  seat null watches (no token). `since`: the last version you saw; the server sends
  what you missed, or a fresh snapshot.
- {"type": "act", "action": "stand" | "swap", "version": v}: v is the version you are
  answering.
- {"type": "shown", "version": v}: your page now lets its player act on version v;
  the turn timer starts then (at most 3 s after the turn came).
- {"type": "ping"}: answered with {"type": "pong"} after everything queued before it.

Server messages: "snapshot" {version, you, table, view}, "update" {version, events,
view, table}, "table" {version, table}, "pong", and
{"type": "error", "code": ..., "reason": ...} (a refused message changes nothing).
Views hold only what the receiver may know. Close codes: 1008 policy (bad hello,
flood), 1011 server error, 1013 too slow, 1001 shutdown, 4001 seat taken by another
connection, 4003 seat freed by the host, 4004 no such table. A page on another origin
is refused with 403 (see --allow-origin)."""


PAGE: J = {"description": "The page", "content": {"text/html": {"schema": {"type": "string"}}}}


def _names(values: tuple[str, ...] | list[str]) -> J:
    """An array of some of ``values``, in order (the client offers them as listed)."""
    return {"type": "array", "items": {"enum": [str(v) for v in values]}}


OPTION_NAMES = [f.name for f in fields(Options)]
# Per language: a text in each of the page's languages.
TEXTS: J = {"type": "object", "required": [str(x) for x in TEXT_LANGS],
            "additionalProperties": {"type": "string"}}

SCHEMAS["Meta"] = {
    "type": "object",
    "required": ["presets", "options", "bot_kinds", "bot_default", "looks", "look_default",
                 "scores", "page_languages", "languages"],
    "properties": {
        "presets": {"type": "array", "items": {"type": "object", "required": [
            "name", "title", "titles", "description", "min_seats", "max_seats", "score",
            "lang", "options", "pieces", "kernel"], "properties": {"kernel": {
                "type": "object", "required": ["base", "by_option"],
                "description": "the rules kernel (gnav.kernel) at the preset's options, and "
                               "for each option and value the kernel's fields it sets"}}}},
        "options": {**_names(OPTION_NAMES), "description": "every option, in the order of "
                    "docs/spec/rules.md §7"},
        "option_choices": {"type": "object", "additionalProperties": {
            "type": "array", "items": {"type": "string"}}},
        "option_bools": _names(OPTION_NAMES),
        "option_ranges": {"type": "object", "additionalProperties": {
            "type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
        "option_at_least": {"type": "object", "additionalProperties": {"type": "integer"},
                            "description": "a whole number of at least this, or null"},
        "option_defaults": {"type": "object"},
        "option_text": {"type": "object", "additionalProperties": TEXTS},
        "bot_kinds": _names(list(BOT_KINDS)),
        "bot_default": {"enum": [str(k) for k in BOT_KINDS]},
        "looks": _names(LOOKS), "look_default": {"enum": list(LOOKS)},
        "scores": _names(SCORES),
        "page_languages": {"type": "object",
                           "description": "the page's languages, each named in itself",
                           "propertyNames": {"enum": [str(x) for x in TEXT_LANGS]},
                           "additionalProperties": {"type": "string"}},
        "languages": {"type": "object", "description": "the languages a call can be made "
                      "in, named in each of the page's languages",
                      "propertyNames": {"enum": [str(x) for x in Lang]},
                      "additionalProperties": TEXTS},
    },
}


def _paths() -> J:
    tables = "/api/tables/{table_id}"
    info = _json(_ref("TableInfo"), "The table")
    seat = {"name": "seat", "in": "path", "required": True,
            "schema": {"type": "integer", "minimum": 0}}
    game = {"name": "game", "in": "query", "required": False,
            "schema": {"type": "integer", "minimum": 1}, "description": "default: the latest"}
    join = {"type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {"name": {"type": "string", "maxLength": 24},
                           "invite": {"type": "string",
                                      "description": "the invite code (unlisted tables)"}}}
    bot = {"type": "object", "additionalProperties": False,
           "properties": {"kind": {"enum": list(BOT_KINDS)}}}
    health = {"type": "object", "properties": {
        "status": {"const": "ok"}, "tables": {"type": "integer"},
        "unfinished": {"type": "integer"}, "connections": {"type": "integer"},
        # How late the event loop woke for a 10 ms timer (p50, p99 of the last minute;
        # max since start) and the collector's collections: a load's own stalls.
        "loop_late_ms": {"type": "object", "properties": {
            k: {"type": "number"} for k in ("p50", "p99", "max")}},
        "gc": {"type": "object", "properties": {
            "collections": {"type": "integer"}, "ms": {"type": "number"},
            "longest_ms": {"type": "number"}, "by_generation": {"type": "array"}}}}}
    coach = {"type": "object", "properties": {
        "advice": {"type": ["object", "null"]}, "cpu_ms": {"type": "number"},
        "version": {"type": "integer"}, "seat": {"type": "integer"},
        "round": {"type": "integer"}, "seats": {"type": "integer"}}}
    lobby = {"type": "object", "properties": {
        "tables": {"type": "array", "items": _ref("LobbyLine")}}}
    return {
        "/health": {"get": {"summary": "Liveness and load",
                            "responses": {"200": _json(health, "Up")}}},
        "/openapi.json": {"get": {"summary": "This document", "responses": {
            "200": _json({"type": "object"}, "OpenAPI 3.1")}}},
        "/api/tables": {
            "get": {"summary": "The lobby: listed tables not finished, newest first",
                    "responses": {"200": _json(lobby, "Listed tables")}},
            "post": {"summary": "Create a table; the answer holds the host token and the "
                                "links (host, invite, watch)",
                     "parameters": [RETRY_KEY],
                     "requestBody": _body(_ref("TableConfig"), False),
                     "responses": {"201": _json(_ref("Created"), "Created"),
                                   **_errors(400, 413, 429, 503)}},
        },
        tables: {"get": {
            "summary": "The table as anyone sees it (with the host token: its links too)",
            "parameters": [TABLE_ID], "security": [{}, *HOST],
            "responses": {"200": info, **_errors(404, 429)}}},
        f"{tables}/join": {"post": {
            "summary": "Take the first empty seat; the answer holds the seat token",
            "parameters": [TABLE_ID, RETRY_KEY], "requestBody": _body(join, True),
            "responses": {"201": _json(_ref("Joined"), "Seated"),
                          **_errors(400, 403, 404, 409, 410, 413, 503)}}},
        f"{tables}/bots": {"post": {
            "summary": "Seat a bot in the first empty seat (host)",
            "parameters": [TABLE_ID, RETRY_KEY], "security": HOST,
            "requestBody": _body(bot, False),
            "responses": {"200": info, **_errors(400, 401, 403, 404, 409, 410, 503)}}},
        tables + "/seats/{seat}": {"delete": {
            "summary": "Free a seat, a bot's or a person's, before the match (host)",
            "parameters": [TABLE_ID, seat, RETRY_KEY], "security": HOST,
            "responses": {"200": info, **_errors(400, 401, 403, 404, 409, 410, 503)}}},
        f"{tables}/start": {"post": {
            "summary": "Start the match, or play again once it is over (host); empty seats "
                       "get bots",
            "parameters": [TABLE_ID, RETRY_KEY], "security": HOST,
            "responses": {"200": info, **_errors(400, 401, 403, 404, 409, 410, 503)}}},
        f"{tables}/seats/{{seat}}/coach": {"post": {
            "summary": "The coach for the seat's own decision now, from its view alone: "
                       "the chance of paying if it stands and if it swaps, and what the "
                       "expert would do (gnav.odds.coach); that decision is marked coached",
            "parameters": [TABLE_ID, seat], "security": [{"bearerAuth": []}],
            "description": "Authorization: Bearer <the seat's token from join>",
            "responses": {"200": _json(coach, "The coach's figures (advice null: no "
                                              "choice to make)"),
                          **_errors(400, 403, 404, 409, 503)}}},
        f"{tables}/record": {"get": {
            "summary": "The record of a finished match (docs/spec/records.md)",
            "parameters": [TABLE_ID, game],
            "responses": {"200": _json(_ref("Record"), "The record"),
                          **_errors(400, 404, 409, 429)}}},
        # The browser client (gnav.web): its pages, files and helpers.
        "/": {"get": {"summary": "The browser client: the start page",
                      "responses": {"200": PAGE}}},
        "/t/{table_id}": {"get": {"summary": "The browser client: a table (play or watch)",
                                  "parameters": [TABLE_ID], "responses": {"200": PAGE}}},
        "/replay": {"get": {"summary": "The browser client: the replay viewer",
                            "responses": {"200": PAGE}}},
        "/companion": {"get": {"summary": "The companion: a phone on a real table keeps the "
                                          "game (docs/companion.md)",
                               "responses": {"200": PAGE}}},
        "/companion-sw.js": {"get": {"summary": "The companion's service worker (offline)",
                                     "responses": {"200": {"description": "A script"}}}},
        "/card/{preset}": {"get": {
            "summary": "The card of pack = cards52 for a preset, one A4 page to print",
            "parameters": [{"name": "preset", "in": "path", "required": True,
                            "schema": {"type": "string"}},
                           {"name": "lang", "in": "query",
                            "schema": {"enum": [str(x) for x in TEXT_LANGS]}}],
            "responses": {"200": PAGE, **_errors(400)}}},
        "/odds": {"get": {"summary": "The odds atlas page (docs/odds.md's figures)",
                          "responses": {"200": PAGE}}},
        "/api/odds": {
            "get": {
                "summary": "The odds atlas: without parameters every game with its titles, "
                           "the sizes shipped, made here and offered (2 to 41), and why "
                           "this server cannot make the others if it cannot; with preset "
                           "and seats one table's figures (gnav odds), or how far its "
                           "making is (202), or no_odds (404) if it is neither here nor "
                           "being made",
                "parameters": [
                    {"name": "preset", "in": "query", "schema": {"type": "string"}},
                    {"name": "seats", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": _json({"type": "object"}, "The atlas"),
                              "202": _json({"type": "object"},
                                           "{making: {preset, seats, done, total}}"),
                              **_errors(400, 404)}},
            "post": {
                "summary": "Make the table of preset and seats that ships none (gnav.odds."
                           "ondemand: one at a time on the machine, seconds of a core); "
                           "6 a minute per address",
                "parameters": [
                    {"name": "preset", "in": "query", "required": True,
                     "schema": {"type": "string"}},
                    {"name": "seats", "in": "query", "required": True,
                     "schema": {"type": "integer"}}],
                "responses": {"200": _json({"type": "object"}, "The atlas, already here"),
                              "202": _json({"type": "object"},
                                           "{making: {preset, seats, done, total}}"),
                              **_errors(400, 404, 429, 503)}}},
        "/learn": {"get": {"summary": "Learn to play: the guided first match (docs/learn.md)",
                           "responses": {"200": PAGE}}},
        "/api/learn": {"get": {
            "summary": "The guided first match, played by the engine: its frames (each the "
                       "player's own events, the notes said there by sentence id, and the "
                       "expected choice where the player decides)",
            "parameters": [{"name": "preset", "in": "query",
                            "schema": {"enum": ["gnav", "gnav-1917"]}}],
            "responses": {"200": _json({"type": "object"}, "The lesson"),
                          **_errors(400)}}},
        "/puzzles": {"get": {"summary": "Puzzles cut from finished matches, one at a time",
                             "responses": {"200": PAGE}}},
        "/api/puzzles": {"get": {
            "summary": "Without n: how many puzzles ship and which is today's; with n: that "
                       "puzzle (the deciding seat's view, the choices' figures, the answer "
                       "and its explanation)",
            "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": _json({"type": "object"}, "A puzzle, or the index"),
                          **_errors(400)}}},
        "/static/presets.json": {"get": {
            "summary": "The client's metadata: every preset (pieces, names, calls), every "
                       "option and what it may be, the bot kinds, looks, scores and languages",
            "description": "The browser keeps no copy of these lists: it reads them here.",
            "responses": {"200": _json(_ref("Meta"), "The metadata")}}},
        "/static/{path}": {"get": {
            "summary": "The client's scripts, styles and images",
            "parameters": [{"name": "path", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "A static file"}, **_errors(404)}}},
        "/api/rules": {"get": {
            "summary": "The rules of a preset in plain words",
            "parameters": [
                {"name": "preset", "in": "query", "schema": {"type": "string"}},
                {"name": "lang", "in": "query", "schema": {"enum": [str(x) for x in TEXT_LANGS]}},
                {"name": "options", "in": "query", "schema": {"type": "string"},
                 "description": "the options as a JSON object"}],
            "responses": {"200": _json({"type": "object"}, "The rules"), **_errors(400)}}},
        "/api/replay": {"post": {
            "summary": "A record (docs/spec/records.md) as replay steps, everything face up",
            "requestBody": _body(_ref("Record"), True),
            "responses": {"200": _json({"type": "object"}, "The steps"),
                          **_errors(400, 413, 429)}}},
        "/api/analyse": {"post": {
            "summary": "A finished match's analysis: each decision against the expert from "
                       "the deciding seat's view, marks, and each seat's cost and luck "
                       "(gnav analyse; sampled figures are the coach's, and a match needing "
                       "more than 200 sampled decisions is analysed on a stated sample of "
                       "its rounds). ?progress=1: JSON lines, {done, total} as sampled "
                       "decisions come back, then {analysis} or {error}",
            "parameters": [{"name": "progress", "in": "query", "required": False,
                            "schema": {"enum": ["1"]}}],
            "requestBody": _body(_ref("Record"), True),
            "responses": {"200": _json({"type": "object"}, "The analysis"),
                          **_errors(400, 413, 429)}}},
        "/static/texts.json": {"get": {
            "summary": "Every sentence of the engine's catalogue by id and language, and the "
                       "narration table (for the client; gnav.texts)",
            "responses": {"200": _json({"type": "object"}, "The texts")}}},
        "/ws/{table_id}": {"get": {
            "summary": "Play or watch over a WebSocket", "description": WS_PROTOCOL,
            "parameters": [TABLE_ID],
            "responses": {"101": {"description": "Switching to the WebSocket protocol"},
                          "403": _json(_ref("Error"), "Origin not allowed")}}},
    }


def document(base_url: str) -> J:
    return {
        "openapi": "3.1.0",
        "info": {"title": "gnav table server", "version": "1",
                 "description": "Create tables, seat people and bots, play Gnav over "
                                "WebSockets, download records (docs/spec/records.md)."},
        "servers": [{"url": base_url}],
        "components": {"schemas": SCHEMAS, "securitySchemes": {"bearerAuth": {
            "type": "http", "scheme": "bearer",
            "description": "the host token from POST /api/tables, or a seat's token "
                           "from its join (the coach)"}}},
        "paths": _paths(),
    }
