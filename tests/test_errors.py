"""gnav.errors: one list of the codes a client reads, and one base for the errors that
carry them; the API, the OpenAPI schema, the browser's sentences and the wire read it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gnav.errors import Code, CodedError, GnavError, MalformedError, RefusedError

SRC = Path(__file__).parent.parent / "src" / "gnav"
STATIC = SRC / "web" / "static" / "js"


def _same() -> dict[str, str]:
    """errors.js's table of codes that share another code's sentence."""
    text = (STATIC / "errors.js").read_text()
    body = text.split("const SAME = {")[1].split("};")[0]
    return dict(re.findall(r"([a-z_]+): \"([a-z_]+)\"", body))


def test_every_code_has_a_status_that_is_an_http_error() -> None:
    for code in Code:
        assert 400 <= code.status < 600, code


def test_every_code_is_sent_somewhere() -> None:
    source = "\n".join(p.read_text() for p in SRC.rglob("*.py") if p.name != "errors.py")
    unused = [c.name for c in Code if f"Code.{c.name}" not in source]
    assert unused == []


def test_every_code_has_a_sentence_in_every_page_language() -> None:
    i18n = (STATIC / "i18n.js").read_text()
    entries = dict(re.findall(r"\"err\.([a-z_]+)\": \{(.*?)\" \},?\n", i18n, re.S))
    same = _same()
    for code in Code:
        key = same.get(code, code)
        assert key in entries, f"no sentence for {code} (err.{key})"
        for lang in ("en", "nb", "da"):
            assert f"{lang}:" in entries[key], (code, lang)
    # Whatever errors.js maps is a code the server sends.
    assert set(same) <= set(Code)


def test_the_sockets_stop_codes_are_codes() -> None:
    conn = (STATIC / "conn.js").read_text()
    stops = re.search(r"STOP_CODES = new Set\(\[(.*?)\]\)", conn)
    assert stops is not None
    assert set(re.findall(r'"([a-z_]+)"', stops.group(1))) <= set(Code)


def test_the_openapi_error_schema_lists_the_codes_by_status() -> None:
    pytest.importorskip("starlette")
    from gnav.server.openapi import SCHEMAS, _errors

    assert SCHEMAS["Error"]["properties"]["error"]["properties"]["code"]["enum"] == list(Code)
    described = _errors(409)["409"]["description"]
    assert all((c in described) == (c.status == 409) for c in Code
               if not any(c != o and c in o for o in Code))


def test_the_errors_with_codes_share_one_base() -> None:
    pytest.importorskip("starlette")
    from gnav.names import BadName
    from gnav.server.api import ApiError
    from gnav.server.faults import Fault
    from gnav.server.untrusted import Untrusted
    from gnav.server.wire import WireError
    from gnav.table import Refused
    from gnav.web.steps import ReplayError

    for kind in (Refused, Untrusted, WireError, ReplayError, ApiError, BadName):
        error = kind(Code.BAD_FIELD, "field: wrong")
        assert isinstance(error, RefusedError) and isinstance(error, GnavError)
        assert error.code is Code.BAD_FIELD and error.reason == "field: wrong"
    assert isinstance(BadName(Code.BAD_NAME, "x"), MalformedError)
    # A server's own failure has a code, but is no bad input.
    fault = Fault("the disk is gone", Code.STORE_FAILED)
    assert isinstance(fault, CodedError) and not isinstance(fault, ValueError)
    assert fault.code.status == 503


def test_an_api_error_answers_with_its_codes_status() -> None:
    pytest.importorskip("starlette")
    from gnav.server.api import error_response

    for code in (Code.FULL, Code.NO_TABLE, Code.TOO_BIG, Code.BAD_INVITE):
        response = error_response(code, "why")
        assert response.status_code == code.status
        assert response.body == (b'{"error":{"code":"%s","reason":"why"}}' % code.encode())
