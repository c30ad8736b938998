"""What the screenshot scripts share: a server over a throwaway SQLite file with Debian's
Chromium beside it, and saving a page as a PNG.

The browser kit they drive the client with (``browser.py``, ``devserver.py``,
``companion_drive.py``, ``learn_drive.py``) is the browser tests', in ``tests/``: the
pictures are taken as the tests play. Importing this module puts that folder on the path,
so a script imports ``shots`` before the kit (``import shots`` sorts first).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

KIT = Path(__file__).resolve().parents[1] / "tests"
if str(KIT) not in sys.path:
    sys.path.append(str(KIT))

from browser import launch  # noqa: E402  (found in KIT, just put on the path)
from devserver import start  # noqa: E402


@contextmanager
def served(**settings: Any) -> Iterator[tuple[str, Browser, Path]]:
    """(the server's URL, a browser, a scratch folder), all gone on leaving."""
    with tempfile.TemporaryDirectory() as tmp:
        server = start(Path(tmp) / "gnav.sqlite3", **settings)
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                try:
                    yield server.url, browser, Path(tmp)
                finally:
                    browser.close()
        finally:
            server.stop()


def save(page: Page, path: Path, *, full_page: bool = False) -> None:
    """``page`` as a PNG at ``path``, said on stdout."""
    page.screenshot(path=str(path), full_page=full_page)
    print(f"wrote {path}")
