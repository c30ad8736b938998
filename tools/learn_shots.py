"""``python tools/learn_shots.py [DIR]``: the guided first match (``/learn``) in Debian's
Chromium, played to its end as a person would, with three of its steps saved as PNGs
to DIR (default docs/screenshots): learn-ask-desktop-en.png (the first decision, a wrong
choice explained), learn-cat-phone-nb.png (the Cat undoing every swap, on a phone in
Norwegian) and learn-end-desktop-da.png (the end, in Danish); and puzzle-phone-en.png (the
puzzle of the day on a phone, answered and explained). ``play_lesson`` is the walk the
browser tests take too.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from playwright.sync_api import Page

from browser import context
from shots import save, served

STEP = "#learn-stand, #learn-next, #learn-done"


def play_lesson(page: Page, *, at: Callable[[Page, int, str], None] | None = None,
                seconds: float = 60) -> list[str]:
    """From the lesson's first panel to its end: Next at every note; at every decision
    Stand first, and Swap if Stand is explained away (so each wrong choice is seen once).
    ``at(page, step, notes)`` is called at each step with the notes shown. Returns the
    notes of every step, the explanations of wrong choices among them."""
    said: list[str] = []
    step = 0
    while True:
        page.wait_for_selector(STEP, timeout=seconds * 1000)
        notes = page.inner_text("#learn-notes")
        if at is not None:
            at(page, step, notes)
        step += 1
        if page.query_selector("#learn-done"):
            said.append(notes)
            return said
        said.append(notes)
        if page.query_selector("#learn-next"):
            page.click("#learn-next")
        else:
            page.click("#learn-stand")
            # Either the explanation comes, or the lesson moves on (stand was its choice).
            page.wait_for_function(
                "() => document.querySelector('#learn-why')"
                " || !document.querySelector('#learn-stand')",
                timeout=seconds * 1000)
            why = page.query_selector("#learn-why")
            if why is not None:
                said.append(why.inner_text())
                page.click("#learn-swap")
        page.wait_for_function("(n) => document.querySelector('#learn-notes') &&"
                               " document.querySelector('#learn-notes').innerText !== n",
                               arg=notes, timeout=seconds * 1000)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/learn_shots.py")
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with served() as (url, browser, _):
        page = context(browser, lang="en", speed="fast").new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")
        page.wait_for_selector("#learn-stand")
        page.click("#learn-stand")
        page.wait_for_selector("#learn-why")
        save(page, out / "learn-ask-desktop-en.png")

        page = context(browser, lang="nb", speed="fast", phone=True).new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")

        def cat(p: Page, step: int, notes: str) -> None:
            if "Katten" in notes and "gjøres om" in notes:
                save(p, out / "learn-cat-phone-nb.png", full_page=True)

        play_lesson(page, at=cat)

        page = context(browser, lang="da", speed="instant").new_page()
        page.goto(f"{url}/learn")
        page.click("#learn-start")
        play_lesson(page)
        save(page, out / "learn-end-desktop-da.png")

        page = context(browser, lang="en", phone=True).new_page()
        page.goto(f"{url}/puzzles")
        page.wait_for_selector("#puzzle-swap")
        page.click("#puzzle-swap")
        page.wait_for_selector("#puzzle-next")
        save(page, out / "puzzle-phone-en.png", full_page=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
