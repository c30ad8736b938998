"""``python tools/coach_shots.py [DIR]``: the browser's coach and the replay's analysis in
Debian's Chromium, on a desktop (1280×860) in English and on a phone (390×844) in
Norwegian, saved as PNGs to DIR (default docs/screenshots): coach-desktop-en.png and
coach-phone-nb.png (the reader's own turn at a 3-seat table, two bots), and
analysis-desktop-en.png and analysis-phone-nb.png (a 3-seat match of the expert, a random
player and the sources' tips, replayed to its end with the analysis open).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from playwright.sync_api import Page

import gnav
from browser import can_act, context, create_table, until
from gnav.record import dumps, from_match
from gnav.rules import Rules
from shots import save, served

SHOTS = (("en", False), ("nb", True))


def coached(page: Page) -> bool:
    return page.get_attribute("#coach", "data-state") in ("advice", "none")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/coach_shots.py")
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with served() as (url, browser, tmp):
        for lang, phone in SHOTS:
            page = context(browser, lang=lang, phone=phone, coach=True,
                           hints=False).new_page()
            create_table(page, url, "Astrid", seats=3, lives=3, bots=2)
            page.click("#start-match")
            until(partial(can_act, page), 20, "the reader's turn")
            until(partial(coached, page), 10, "the coach")
            save(page, out / f"coach-{'phone' if phone else 'desktop'}-{lang}.png")
            page.context.close()
        record = tmp / "match.json"
        bots = [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2),
                gnav.make_bot("threshold", seed=3)]
        final = gnav.play_match(Rules.of("gnav", lives=2), ["Expert", "Random", "Tips"],
                                bots, seed=8)
        record.write_text(dumps(from_match(final)), encoding="utf-8")
        for lang, phone in SHOTS:
            page = context(browser, lang=lang, phone=phone).new_page()
            page.goto(f"{url}/replay")
            page.set_input_files("#record-file", str(record))
            page.click("#replay-analyse")
            page.wait_for_selector("#analysis-none")
            page.click("#replay-last")
            page.wait_for_selector("#analysis-list li")
            if phone:  # the analysis, under the board and the log
                page.locator("#analysis").scroll_into_view_if_needed()
            save(page, out / f"analysis-{'phone' if phone else 'desktop'}-{lang}.png",
                 full_page=not phone)
            page.context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
