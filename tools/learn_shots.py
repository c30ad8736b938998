"""``python tools/learn_shots.py [DIR]``: the guided first match (``/learn``) in Debian's
Chromium, played to its end as a person would, with three of its steps saved as PNGs
to DIR (default docs/screenshots): learn-ask-desktop-en.png (the first decision, a wrong
choice explained), learn-cat-phone-nb.png (the Cat undoing every swap, on a phone in
Norwegian) and learn-end-desktop-da.png (the end, in Danish); and puzzle-phone-en.png (the
puzzle of the day on a phone, answered and explained). The walk through the lesson is the
browser tests' (``tests/learn_drive.py``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Page

import oneline
import shots
from browser import context
from learn_drive import play_lesson


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/learn_shots.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with shots.served() as (url, browser, _):
        page = context(browser, lang="en", speed="fast").new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")
        page.wait_for_selector("#learn-stand")
        page.click("#learn-stand")
        page.wait_for_selector("#learn-why")
        shots.save(page, out / "learn-ask-desktop-en.png")

        page = context(browser, lang="nb", speed="fast", phone=True).new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")

        def cat(p: Page, step: int, notes: str) -> None:
            if "Katten" in notes and "gjøres om" in notes:
                shots.save(p, out / "learn-cat-phone-nb.png", full_page=True)

        play_lesson(page, at=cat)

        page = context(browser, lang="da", speed="instant").new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")
        play_lesson(page)
        shots.save(page, out / "learn-end-desktop-da.png")

        page = context(browser, lang="en", phone=True).new_page()
        page.goto(f"{url}/puzzles")
        page.wait_for_selector("#puzzle-swap")
        page.click("#puzzle-swap")
        page.wait_for_selector("#puzzle-next")
        shots.save(page, out / "puzzle-phone-en.png", full_page=True)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/learn_shots.py"))
