"""The app's own other pages are linked where a player looks (issue 26): /odds and
/companion from the start page, the rules, the coach and the winner panel, in the
reader's language; and the host's own lobby tells the host to start."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import time
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser

from browser import can_act, click_action, context, create_table, until
from devserver import Running

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def query(href: str | None) -> dict[str, str]:
    assert href is not None
    parts = urlsplit(href)
    assert parts.path == "/odds", href
    return {k: v[0] for k, v in parse_qs(parts.query).items()}


def test_the_start_page_links_the_odds_and_the_companion(server: Running,
                                                         browser: Browser) -> None:
    page = context(browser, lang="nb").new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    assert query(page.get_attribute(".start-side a.odds-link", "href")) == {
        "preset": "gnav", "lang": "nb"}
    assert page.get_attribute(".start-side a.companion-link", "href") == "/companion"
    assert "Gnav ved bordet" in page.inner_text(".start-side a.companion-link")
    page.click(".start-side a.odds-link")
    page.wait_for_selector("#odds-answer")
    assert page.text_content("#odds-title") == "Oddsen"
    page.context.close()


def test_the_rules_the_settings_the_coach_and_the_winner_panel_link_them(
        server: Running, browser: Browser) -> None:
    page = context(browser, lang="en", coach=True).new_page()
    create_table(page, server.url, "Astrid", seats=3, lives=1, bots=2, preset="gnav-1917")
    until(lambda: (page.text_content("#turn-status") or "").startswith("You are the host"),
          10, "the host's own lobby line")
    # The rules: both links, each in a new tab (the game stays open).
    page.click("#rules-btn")
    page.wait_for_selector(".rules-dialog a.odds-link")
    link = page.locator(".rules-dialog a.odds-link")
    assert query(link.get_attribute("href"))["preset"] == "gnav-1917"
    assert link.get_attribute("target") == "_blank"
    assert page.locator(".rules-dialog a.companion-link").count() == 1
    page.keyboard.press("Escape")
    # Settings: what the coach's "paying" counts, the /odds page's words.
    page.click("#settings-btn")
    page.wait_for_selector("#coach-pays")
    assert page.inner_text("#coach-pays").startswith("Paying here means ending the round")
    page.keyboard.press("Escape")
    page.click("#start-match")
    # A 1-life match can end before the reader's first turn (a Cuckoo's stop, the fool's
    # knock), or with only turns the coach has no answer for: the host plays again then.
    coached = False
    for _ in range(6):
        end = time.monotonic() + 90
        while not page.locator("#win-title").count():
            assert time.monotonic() < end, "the match did not end"
            if can_act(page):
                until(lambda: page.locator("#coach a.odds-link").count() > 0
                      or page.get_attribute("#coach", "data-state") in ("none", "error"), 20,
                      "the coach's answer")
                if page.locator("#coach a.odds-link").count():
                    href = page.get_attribute("#coach a.odds-link", "href")
                    assert query(href)["preset"] == "gnav-1917"
                    coached = True
                click_action(page, "stand")
            page.wait_for_timeout(50)
        win = query(page.get_attribute(".win-panel a.odds-link", "href"))
        assert win == {"preset": "gnav-1917", "seats": "3", "lang": "en"}
        assert page.locator(".win-panel a.companion-link").count() == 1
        if coached:
            break
        page.click(".win-panel button.btn.primary")  # the host's "play again"
        until(lambda: page.locator("#win-title").count() == 0, 20, "the new match")
    assert coached, "six matches and the coach never linked the odds"
    page.context.close()
