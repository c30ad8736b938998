"""``python tools/odds_shots.py [DIR]``: the /odds page in Debian's Chromium, on a desktop
(1280×860) and a phone (390×844), in English and Norwegian, saved as PNGs to DIR (default
docs/screenshots): odds-desktop-en.png, odds-phone-nb.png and the other two.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import sync_playwright

from browser import context, launch
from devserver import start
from gnav.odds.docs import load

SHOTS = (("en", False, "gnav", 3, "5", 2), ("nb", True, "gnav", 3, "owl", 3),
         ("nb", False, "gnav", 10, "7", 4), ("en", True, "gnav", 10, "3", 1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/odds_shots.py")
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = start(Path(tmp) / "gnav.sqlite3")
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                for lang, phone, preset, seats, piece, seat in SHOTS:
                    if load(preset, seats) is None:
                        print(f"skipped {preset}-{seats}: no atlas made yet")
                        continue
                    page = context(browser, lang=lang, phone=phone).new_page()
                    page.goto(f"{server.url}/odds?preset={preset}&seats={seats}"
                              f"&piece={piece}&seat={seat}&lang={lang}")
                    page.wait_for_selector("#odds-answer")
                    name = f"odds-{'phone' if phone else 'desktop'}-{lang}-{seats}.png"
                    page.screenshot(path=str(out / name), full_page=not phone)
                    print(f"wrote {out / name}")
                    page.context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
