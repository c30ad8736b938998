"""tools/oneline.py: a refusal by gnav, by a command a tool runs, by a server or by the
file system is one line with status 2; any other error is a bug and keeps its traceback."""

from __future__ import annotations

import io
import subprocess
import urllib.error
from email.message import Message

import pytest

import oneline
from gnav.errors import OptionError


def _http(body: bytes) -> urllib.error.HTTPError:
    return urllib.error.HTTPError("http://127.0.0.1:1/api/tables", 400, "Bad Request",
                                  Message(), io.BytesIO(body))


def test_each_kind_of_refusal_is_said_in_its_own_words() -> None:
    assert oneline.message(OptionError("gnav takes 2 to 41 seats, not 1")) == \
        "gnav takes 2 to 41 seats, not 1"
    failed = subprocess.CalledProcessError(
        128, ["/usr/bin/git", "archive", "nope", "src", "--more"],
        stderr=b"warning: first\nfatal: not a valid object name: nope\n\n")
    assert oneline.message(failed) == \
        "git archive nope src ...: fatal: not a valid object name: nope"
    silent = subprocess.CalledProcessError(3, ["gnav", "bench"], stderr=None)
    assert oneline.message(silent) == "gnav bench ...: exit status 3"
    assert oneline.message(_http(b'{"error": {"code": "bad", "reason": "seats: no"}}')) == \
        "http://127.0.0.1:1/api/tables: HTTP 400: seats: no"
    assert oneline.message(_http(b"<html>\nbad gateway\n</html>")) == \
        "http://127.0.0.1:1/api/tables: HTTP 400: Bad Request"
    assert oneline.message(FileExistsError(17, "File exists", "/x")) == \
        "[Errno 17] File exists: '/x'"
    assert oneline.message(KeyError("bug")) is None


def test_run_prints_one_line_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    def refused() -> int:
        raise OptionError("no such table")

    assert oneline.run(refused, "python tools/x.py") == 2
    assert capsys.readouterr().err == "python tools/x.py: no such table\n"
    assert oneline.run(lambda: 0, "python tools/x.py") == 0


def test_run_keeps_a_bug_s_traceback() -> None:
    def buggy() -> int:
        return [1][2]

    with pytest.raises(IndexError):
        oneline.run(buggy, "python tools/x.py")
