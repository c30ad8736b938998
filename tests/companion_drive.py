"""Driving the companion page (``/companion``) as a table would, tap by tap: for its
browser test and its pictures (``tools/companion_screenshots.py``). Test code, not part of
the installed package.

``MATCH`` is a whole match of six seats with one life each, written out as what the
table taps: a Dragoon's answer, a Cat's undo, two fools who gain and sit out, a Horse
from the stock and a piece put aside, the fool's drag, eliminations and a winner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from playwright.sync_api import Page

NAMES = ("Astrid", "Bjørn", "Cecilie", "Dag", "Eirik", "Frida")
A, B, C, D, E, F = range(6)

# Each round: the seats that knock, the taps in order ("stand", "swap", or an answer:
# "answer:swap", "answer:<matador>", "answer:empty"), the pieces shown by seat, and the
# pieces put aside by draws from the stock.
MATCH: list[dict[str, Any]] = [
    {  # Astrid deals. B and C swap; the Dragoon charges C; the Cat charges E and undoes.
        "knocked": [], "taps": ["swap", "answer:swap", "swap", "answer:dragoon",
                                "swap", "answer:cat", "stand"],
        "hands": {B: "8", C: "2", D: "dragoon", E: "6", F: "cat", A: "9"}, "aside": [],
        "says": ["Cecilie is out", "Eirik is out"],
    },
    {  # Bjørn deals. Dag and Astrid were dealt the fool: they gain and sit out.
        "knocked": [D, A], "taps": ["stand", "stand", "stand", "stand"],
        "hands": {D: "fool", F: "10", A: "fool", B: "4"}, "aside": [],
        "says": ["Dag sits out the next round", "Astrid sits out the next round"],
    },
    {  # Frida deals to Bjørn and herself; the stock gives a Horse, then a III.
        "knocked": [], "taps": ["stand", "swap", "answer:horse", "answer:swap"],
        "hands": {B: "7", F: "3"}, "aside": ["11"], "says": ["Frida is out"],
    },
    {  # Astrid deals to Bjørn, Dag and herself, and holds the fool: it drags Bjørn's II.
        "knocked": [A], "taps": ["stand", "stand", "stand"],
        "hands": {B: "2", D: "9", A: "fool"}, "aside": [], "says": ["Bjørn is out"],
    },
    {  # Dag deals; Astrid's Owl is the lowest: Dag wins.
        "knocked": [], "taps": ["stand", "stand"],
        "hands": {A: "owl", D: "12"}, "aside": [], "says": ["Dag wins!"],
    },
]


def set_up(page: Page, base: str, names: Sequence[str] = NAMES, *, lives: int = 1,
           preset: str = "gnav", pack: str = "pieces", dealer: int = 0,
           options: dict[str, object] | None = None) -> None:
    """Open the companion on a fresh store and start a match, with ``options`` as house
    rules."""
    page.goto(base + "/companion")
    page.wait_for_selector("#c-start")
    page.select_option("#c-preset", preset)
    page.fill("#c-lives", str(lives))
    page.locator("#c-lives").dispatch_event("change")
    page.check(f"#c-pack input[value={pack}]")
    while page.locator(".seat-name").count() < len(names):
        page.click("#c-add")
    for i, name in enumerate(names):
        page.locator(".seat-name").nth(i).fill(name)
    page.select_option("#c-dealer", str(dealer))
    for name, value in (options or {}).items():
        if page.locator("#c-options").get_attribute("open") is None:
            page.click("#c-options summary")
        control = f"#c-opt-{name}"
        if isinstance(value, bool):
            page.set_checked(control, value)
        elif value is None or isinstance(value, int):
            page.fill(control, "" if value is None else str(value))
            page.locator(control).dispatch_event("change")
        else:
            page.select_option(control, str(value))
    page.click("#c-start")
    page.wait_for_selector("#c-play")


def tap(page: Page, what: str) -> None:
    """One tap of a round: stand, swap, or an answer."""
    if what == "stand":
        page.click("#c-stand")
    elif what == "swap":
        page.click("#c-swap")
    elif what.startswith("answer:"):
        page.click(f"#c-answer-{what.split(':', 1)[1]}")
    else:
        raise ValueError(f"no tap {what!r}")


def deal(page: Page, knocked: Sequence[int]) -> None:
    for seat in knocked:
        page.click(f'.seat[data-seat="{seat}"]')
    page.click("#c-play")


def show(page: Page, hands: dict[int, str], aside: Sequence[str]) -> None:
    """The showdown entered: each seat's piece, then the pieces put aside."""
    for seat, piece in hands.items():
        pick_for(page, seat)
        page.click(f'#c-picker .pick-piece[data-piece="{piece}"]')
    for i, piece in enumerate(aside):
        close_picker(page)
        page.click(f"#c-aside-{i}")
        page.click(f'#c-picker .pick-piece[data-piece="{piece}"]')
    page.click("#c-settle")


def close_picker(page: Page) -> None:
    if page.locator("#c-picker").count():
        page.click("#c-picker-close")


def pick_for(page: Page, seat: int) -> None:
    """Open the piece picker for ``seat``: after a piece is picked it opens by itself for
    the next seat round the table, so it may be open already."""
    name = page.locator(f'.seat[data-seat="{seat}"] .name').inner_text()
    sheet = page.locator("#c-picker")
    if sheet.count() and sheet.get_attribute("aria-label") == name:
        return
    close_picker(page)
    page.click(f'.seat[data-seat="{seat}"]')


def play(page: Page, rounds: Sequence[dict[str, Any]] = MATCH,
         between: Callable[[int, str], None] | None = None) -> None:
    """Play ``rounds``; ``between(round, moment)`` is called after the deal ("dealt"),
    after each tap ("tap:N") and at the showdown ("showdown"), for a test's checks."""
    for k, rnd in enumerate(rounds):
        page.wait_for_selector("#c-play")
        deal(page, rnd["knocked"])
        if between:
            between(k, "dealt")
        for i, what in enumerate(rnd["taps"]):
            tap(page, what)
            if between:
                between(k, f"tap:{i}")
        page.wait_for_selector("#c-settle")
        if between:
            between(k, "showdown")
        show(page, rnd["hands"], rnd["aside"])
        page.wait_for_selector("#c-summary")


def record(page: Page) -> dict[str, Any]:
    """The record the companion keeps, as it would save it."""
    data: dict[str, Any] = page.evaluate("() => window.gnavCompanion.record()")
    return data
