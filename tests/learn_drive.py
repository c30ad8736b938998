"""Walking the guided first match (``/learn``) as a person would: for its browser tests
and its pictures (``tools/learn_shots.py``)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page

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
