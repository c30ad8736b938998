"""``python tools/odds_shots.py [DIR]``: the /odds page in Debian's Chromium, on a desktop
(1280×860) and a phone (390×844), in English and Norwegian, saved as PNGs to DIR (default
docs/screenshots): odds-desktop-en-3.png, odds-phone-nb-3.png, odds-desktop-nb-10.png and
odds-phone-en-10.png (the atlas of gnav at 3 and at 10 seats).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import oneline
import shots
from browser import context
from gnav.odds.docs import load

SHOTS = (("en", False, "gnav", 3, "5", 2), ("nb", True, "gnav", 3, "owl", 3),
         ("nb", False, "gnav", 10, "7", 4), ("en", True, "gnav", 10, "3", 1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/odds_shots.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with shots.served() as (url, browser, _):
        for lang, phone, preset, seats, piece, seat in SHOTS:
            if load(preset, seats) is None:
                print(f"skipped {preset}-{seats}: no atlas made yet")
                continue
            page = context(browser, lang=lang, phone=phone).new_page()
            page.goto(f"{url}/odds?preset={preset}&seats={seats}"
                      f"&piece={piece}&seat={seat}&lang={lang}")
            page.wait_for_selector("#odds-answer")
            shots.save(page, out / f"odds-{'phone' if phone else 'desktop'}-{lang}-{seats}.png",
                 full_page=not phone)
            page.context.close()
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/odds_shots.py"))
