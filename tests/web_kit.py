"""Helpers of the browser tests (no tests here): a server with the client in a thread,
and Debian's Chromium through Playwright. A module imports the fixtures it uses."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from browser import chromium_path, launch
from devserver import Running, start

if chromium_path() is None:  # a missing browser fails the run: no skip stands in for it
    raise RuntimeError("the browser tests need Debian's chromium (apt-get install chromium); "
                       "make test installs it first (tools/sysdeps.txt)")

Json = dict[str, Any]


def _server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    db = tmp_path_factory.mktemp("web") / "gnav.sqlite3"
    # The odds tables made on demand stay beside the test's store, not in ~/.cache.
    running = start(db, creates_per_minute=10_000, ws_rate=1e6, ws_burst=10**6,
                    odds_dir=str(db.parent / "odds"))
    yield running
    running.stop()


def _pw() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


def _browser(pw: Playwright) -> Iterator[Browser]:
    b = launch(pw)
    yield b
    b.close()


def fixtures(server: Literal["module", "function"] = "module") -> tuple[Any, ...]:
    """The fixtures ``server``, ``pw`` and ``browser``, one of each per test module, which
    takes them as ``server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()``.
    ``server="function"``: a server for each test (the tables a test leaves behind go
    with it: a table whose people have gone plays on with bots, at a tenth of the
    server's time each, ``gnav.table.Pace``)."""
    return (pytest.fixture(scope=server, name="server")(_server),
            pytest.fixture(scope="module", name="pw")(_pw),
            pytest.fixture(scope="module", name="browser")(_browser))


def frames_of(page: Any) -> list[Json]:
    """Every WebSocket frame ``page`` receives from now on, parsed, in order."""
    frames: list[Json] = []

    def on_socket(ws: Any) -> None:
        def got(payload: Any) -> None:
            if isinstance(payload, str):
                frames.append(json.loads(payload))

        ws.on("framereceived", got)

    page.on("websocket", on_socket)
    return frames


def rng(seed: int = 7) -> random.Random:
    return random.Random(seed)


def record_path(tmp: Path, text: str) -> Path:
    p = tmp / "record.json"
    p.write_text(text, encoding="utf-8")
    return p


def get_json(url: str) -> tuple[int, Any]:
    """A GET's status and JSON body, an error's too (the API answers errors in JSON)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
