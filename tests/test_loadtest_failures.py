"""tools/loadclient/failures.py: the load client's errors are typed values (the server's
``Code``, or a failure of its own), read once from an answer, and the report writes
each as the string it always had."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gnav.errors import Code
from loadclient.failures import Closed, Failure, HttpStatus, Raised, Unknown, code_of
from loadclient.http import Http, HttpError
from loadclient.run import RETRYABLE
from loadclient.stats import Stats


def test_a_servers_code_is_read_into_a_code_and_an_unknown_one_kept_as_sent() -> None:
    assert code_of("busy") is Code.BUSY
    assert code_of("store_failed") is Code.STORE_FAILED
    assert code_of("from_a_newer_server") == Unknown("from_a_newer_server")
    assert code_of(None) == Unknown("None")


def test_no_failure_of_the_client_shares_a_string_with_a_servers_code() -> None:
    # A key of the report names one thing: the server's code or the client's failure.
    assert not {f.value for f in Failure} & {c.value for c in Code}


def test_the_report_writes_each_error_as_the_string_it_always_had() -> None:
    stats = Stats()
    for what in (Failure.HTTP_FAILED, Failure.CONNECT_FAILED, Failure.TIMEOUT,
                 Failure.SETUP_TIMEOUT, Failure.BAD_RESPONSE, Closed(4001), Closed(4001),
                 Closed(None), HttpStatus(502), Raised("InvalidMessage"), Code.BUSY,
                 Code.BAD_MESSAGE, Unknown("from_a_newer_server")):
        stats.error(what)
    report = stats.report(config={}, setup_s=1.0, play_s=1.0, matches_expected=None)
    assert report["errors"] == {
        "InvalidMessage": 1, "bad_message": 1, "bad_response": 1, "busy": 1, "closed": 1,
        "closed_4001": 2, "connect_failed": 1, "from_a_newer_server": 1, "http_502": 1,
        "http_failed": 1, "setup_timeout": 1, "timeout": 1}
    assert list(report["errors"]) == sorted(report["errors"])


def test_what_is_sent_again_is_typed() -> None:
    assert Failure.HTTP_FAILED in RETRYABLE and Code.BUSY in RETRYABLE
    assert all(isinstance(code, Code | Failure) for code in RETRYABLE)
    assert Code.NOT_HOST not in RETRYABLE


class _Answers(BaseHTTPRequestHandler):
    """POST /busy: the server's error with its code; /bare: a status and no JSON;
    /list: a JSON answer that is not an object."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, body = {
            "/busy": (503, json.dumps({"error": {"code": "busy", "reason": "full"}})),
            "/bare": (502, ""),
            "/list": (200, "[]"),
        }[self.path]
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # quiet in the test's output
        pass


@contextmanager
def _server() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)


def _failure(port: int, path: str) -> object:
    async def post() -> object:
        http = Http("127.0.0.1", port, 1, timeout=30)
        try:
            with pytest.raises(HttpError) as caught:
                await http.post(path)
            return caught.value.code
        finally:
            http.close()
    return asyncio.run(post())


def test_an_answer_is_read_into_the_failure_it_is() -> None:
    with _server() as port:
        assert _failure(port, "/busy") is Code.BUSY
        assert _failure(port, "/bare") == HttpStatus(502)
        assert _failure(port, "/list") is Failure.BAD_RESPONSE
    # A port held but not listening: the connection is refused, no server answers.
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        assert _failure(held.getsockname()[1], "/busy") is Failure.HTTP_FAILED
