"""``python tools/companion_screenshots.py [DIR]``: pictures of the companion page and
of the printable card of ``pack = cards52`` (default DIR: docs/screenshots).

It runs a server with the client (a temporary database), taps a match on the companion
at a phone's size (390 × 844) in Debian's Chromium, prints the card of ``gnav`` to PDF
and turns its page into a PNG with ``pdftoppm`` (poppler-utils), so the picture is the
printed page itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import oneline
import shots
from browser import context
from companion_drive import MATCH, NAMES, A, B, C, D, deal, pick_for, play, set_up, show, tap


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default="docs/screenshots")
    out = Path(ap.parse_args(argv).dir)
    out.mkdir(parents=True, exist_ok=True)
    with shots.served() as (url, browser, tmp):
        ctx = context(browser, phone=True)
        page = ctx.new_page()
        set_up(page, url)
        page.goto(url + "/companion")
        page.wait_for_selector("#c-play")
        page.click("#c-undo")  # back to the setup, filled in
        page.wait_for_selector("#c-start")
        page.screenshot(path=str(out / "companion-setup.png"))
        page.click("#c-start")
        first = MATCH[0]
        deal(page, first["knocked"])
        for what in first["taps"][:3]:
            tap(page, what)
        page.screenshot(path=str(out / "companion-answer.png"))
        for what in first["taps"][3:]:
            tap(page, what)
        show(page, first["hands"], first["aside"])
        page.wait_for_selector("#c-summary")
        page.screenshot(path=str(out / "companion-pays.png"))
        play(page, MATCH[1:])
        page.wait_for_selector("#c-winners")
        page.screenshot(path=str(out / "companion-winner.png"))
        ctx.close()
        # An ordinary pack: the showdown's picker shows the cards.
        ctx = context(browser, phone=True)
        page = ctx.new_page()
        set_up(page, url, NAMES[:4], pack="cards52", lives=3)
        deal(page, [])
        for what in ("swap", "answer:swap", "stand", "stand", "stand"):
            tap(page, what)
        pick_for(page, B)
        page.click('#c-picker .pick-piece[data-piece="8"]')
        pick_for(page, C)
        page.screenshot(path=str(out / "companion-cards52.png"))
        page.click('#c-picker .pick-piece[data-piece="2"]')
        show(page, {D: "dragoon", A: "9"}, [])
        page.wait_for_selector("#c-summary")
        kept = page.evaluate("() => JSON.stringify(window.gnavCompanion.record())")
        ctx.close()
        # The replay viewer shows that match with its cards.
        ctx = context(browser)
        page = ctx.new_page()
        page.goto(url + "/companion")
        page.evaluate("(r) => localStorage.setItem('gnav.replay.record', r)", kept)
        page.goto(url + "/replay?record=local")
        page.wait_for_selector(".board svg.c52")
        page.keyboard.press("End")
        page.wait_for_timeout(600)
        page.screenshot(path=str(out / "replay-cards52.png"))
        ctx.close()
        # The printable card, printed.
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(url + "/card/gnav?lang=en")
        pdf = tmp / "card.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True,
                 prefer_css_page_size=True)
        ctx.close()
        try:  # the printed page itself, as a picture
            subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", str(pdf),
                            str(out / "card-cards52")], check=True)
        except FileNotFoundError:
            print("pdftoppm not found (apt-get install poppler-utils): no card picture",
                  file=sys.stderr)
            return 1
    print(f"pictures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/companion_screenshots.py"))
