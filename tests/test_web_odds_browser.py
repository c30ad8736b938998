"""The /odds page in Chromium: a player chooses a table, a piece and a seat and reads the
answer, in two languages, on a desktop and on a phone."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import pytest
from playwright.sync_api import Browser, Page

from browser import context, until
from devserver import Running
from gnav.odds.docs import load

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def answer(page: Page) -> str:
    return page.text_content("#odds-answer") or ""


@pytest.mark.parametrize(("lang", "phone", "words"), [
    ("en", False, "costs you a life"), ("nb", True, "koster deg et liv"),
    ("da", False, "koster dig et liv")])
def test_choosing_a_piece_and_a_seat_gives_its_chance(server: Running, browser: Browser,
                                                      lang: str, phone: bool,
                                                      words: str) -> None:
    atlas = load("gnav", 3)
    assert atlas is not None
    page = context(browser, lang=lang, phone=phone).new_page()
    page.goto(f"{server.url}/odds?preset=gnav&seats=3&lang={lang}")
    page.wait_for_selector("#odds-answer")
    assert words in answer(page)
    page.select_option("#odds-piece", "owl")
    page.select_option("#odds-seat", "3")
    cell = atlas.cells["owl", 2]
    shown = f"{round(100 * cell.pay.value)}%"
    until(lambda: answer(page).startswith(shown), 5, "the owl at the dealer's chance")
    assert f"{round(100 * cell.stand.value)}%" in answer(page)
    # A square of the grid chooses too: the Cuckoo at seat 1 never pays.
    page.locator("table.odds-grid tbody tr").first.locator("td").first.click()
    until(lambda: answer(page).startswith("0%"), 5, "the top piece's chance")
    assert "lang=" + lang in page.url and "piece=" in page.url
    # The page fits a phone's width: nothing wider than the window but the grid's box.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1  # type: ignore[index]
    page.context.close()


def test_the_language_can_be_changed_on_the_page(server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/odds?preset=gnav&seats=3&lang=en")
    page.wait_for_selector("#odds-answer")
    page.select_option("#odds-lang", "nb")
    until(lambda: "koster deg et liv" in answer(page), 5, "Norwegian")
    assert page.text_content("#odds-title") == "Oddsen"
    page.context.close()
