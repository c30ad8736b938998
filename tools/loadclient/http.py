"""The HTTP side of a load test: a few worker threads, each with its own kept-alive
``http.client`` connection, so thousands of setup requests need few TCP connections."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gnav.errors import Code
from loadclient.failures import Failure, HttpStatus, Unknown, code_of

IDLE = 2.0  # seconds after which a kept connection is replaced (servers drop idle ones)


class HttpError(Exception):
    """A request that failed: ``code`` is the server's error code, or what the client
    saw (the transport failed, an answer with a status and no code, or no JSON)."""

    def __init__(self, code: Code | Failure | HttpStatus | Unknown, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


class Http:
    def __init__(self, host: str, port: int, workers: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self._pool = ThreadPoolExecutor(max_workers=workers,
                                        thread_name_prefix="gnav-loadtest-http")
        self._local = threading.local()
        self._all: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def _conn(self) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        used: float = getattr(self._local, "used", 0.0)
        if conn is not None and time.monotonic() - used > IDLE:
            conn.close()
            conn = None
        if conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def _request(self, method: str, path: str, body: dict[str, Any] | None,
                 token: str | None, key: str | None = None) -> dict[str, Any]:
        conn = self._conn()
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:  # the request's key: sent again, it answers as the first
            headers["Idempotency-Key"] = key
        try:
            conn.request(method, path, body=None if method == "GET" else
                         json.dumps(body or {}).encode(), headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            self._local.conn = None
            raise HttpError(Failure.HTTP_FAILED, f"{method} {path}: {e!r}") from None
        self._local.used = time.monotonic()
        if response.will_close:
            conn.close()
            self._local.conn = None
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {}
        if response.status >= 400:
            error = parsed.get("error", {}) if isinstance(parsed, dict) else {}
            code = error.get("code")
            raise HttpError(HttpStatus(response.status) if code is None else code_of(code),
                            f"{method} {path}: {error.get('reason', response.reason)}")
        if not isinstance(parsed, dict):
            raise HttpError(Failure.BAD_RESPONSE, f"{method} {path}: not a JSON object")
        return parsed

    async def post(self, path: str, body: dict[str, Any] | None = None,
                   token: str | None = None, key: str | None = None) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._request, "POST", path, body,
                                          token, key)

    async def get(self, path: str) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._request, "GET", path, None, None)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        for conn in self._all:
            conn.close()
