"""``python tools/coach_shots.py [DIR]``: the browser's coach in Debian's Chromium, at the
reader's own turn at a 3-seat table (two bots), on a desktop (1280×860) in English and
on a phone (390×844) in Norwegian, saved as PNGs to DIR (default docs/screenshots):
coach-desktop-en.png and coach-phone-nb.png.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import sync_playwright

from browser import can_act, context, create_table, launch, until
from devserver import start

SHOTS = (("en", False), ("nb", True))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/coach_shots.py")
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = start(Path(tmp) / "gnav.sqlite3")
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                for lang, phone in SHOTS:
                    page = context(browser, lang=lang, phone=phone, coach=True,
                                   hints=False).new_page()
                    create_table(page, server.url, "Astrid", seats=3, lives=3, bots=2)
                    page.click("#start-match")
                    until(lambda p=page: can_act(p), 20, "the reader's turn")
                    until(lambda p=page: p.get_attribute("#coach", "data-state")
                          in ("advice", "none"), 10, "the coach")
                    name = f"coach-{'phone' if phone else 'desktop'}-{lang}.png"
                    page.screenshot(path=str(out / name), full_page=False)
                    print(f"wrote {out / name}")
                    page.context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
