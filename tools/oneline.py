"""Bad input to a developer tool said in one line: ``sys.exit(oneline.run(main, PROG))``.

A tool refused by gnav (an unknown preset, too many seats), by a ``gnav`` command it runs,
by a server it asks, or by the file system prints ``PROG: what was wrong`` on stderr and
exits 2, as gnav's own commands do, rather than a traceback (issue 28). Anything else is
a bug of the tool and keeps its traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
from collections.abc import Callable
from pathlib import Path

from gnav.errors import GnavError


def _last_line(text: str | bytes | None) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _http(e: urllib.error.HTTPError) -> str:
    body = e.read().decode("utf-8", "replace")
    try:
        reason = json.loads(body)["error"]["reason"]  # gnav's error_response
    except (ValueError, KeyError, TypeError):  # another server's page: its status alone
        reason = str(e.reason)
    return f"{e.url}: HTTP {e.code}: {reason}"


def message(e: BaseException) -> str | None:
    """The one line a refusal is told in, or None for an error that is a bug."""
    if isinstance(e, GnavError):
        return str(e)
    if isinstance(e, subprocess.CalledProcessError):
        # The child (a gnav command, git) said why on its stderr: its last line.
        said = _last_line(e.stderr) or f"exit status {e.returncode}"
        cmd = [str(part) for part in e.cmd[:4]]
        return f"{' '.join([Path(cmd[0]).name, *cmd[1:]])} ...: {said}"
    if isinstance(e, urllib.error.HTTPError):
        return _http(e)
    if isinstance(e, OSError):  # a folder that cannot be made, a file that is not there
        return str(e)
    return None


def run(main: Callable[[], int], prog: str) -> int:
    """``main()``'s exit status; a refusal printed as one line, status 2."""
    try:
        return main()
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        said = message(e)
        if said is None:
            raise
        print(f"{prog}: {said}", file=sys.stderr)
        return 2
