"""The browser client says how long a match lasts and what a large table sets so that a
match ends (docs/spec/rules.md §6.1), before the host starts: on the start page under
the seats, and in the lobby; in every language of the page."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import httpx
from playwright.sync_api import Browser

from browser import context, create_table, until
from devserver import Running
from gnav.lengths import shipped

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def test_a_large_table_plays_two_fools_paying_and_the_lobby_says_so(
        server: Running, browser: Browser) -> None:
    gnav = shipped().presets["gnav"]
    assert gnav.remedy is not None
    start = gnav.remedy.start
    page = context(browser).new_page()
    # On the start page: below the remedy's size nothing is said, from it on the note.
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    page.fill("#seats", str(start - 1))
    assert (page.text_content("#table-options-note") or "") == ""
    page.fill("#seats", "41")
    until(lambda: str(start) in (page.text_content("#table-options-note") or ""),
          10, "the start page's note")
    assert page.input_value("#opt-two_fools") == "pay"
    table = create_table(page, server.url, "Astrid", seats=41, lives=4)
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert info["config"]["options"] == {"two_fools": "pay"}
    note = page.locator("#length-note")
    until(lambda: note.count() == 1, 10, "the lobby's length note")
    said = note.text_content() or ""
    assert str(round(gnav.remedied[41].median)) in said and "pagat" in said
    page.context.close()


def test_the_host_may_keep_the_presets_own_rule_and_is_told_what_that_means(
        server: Running, browser: Browser) -> None:
    gnav = shipped().presets["gnav"]
    page = context(browser).new_page()
    table = create_table(page, server.url, "Bjørn", seats=41, lives=4,
                         options={"two_fools": "gain"})
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert info["config"]["options"] == {"two_fools": "gain"}
    assert info["length"]["plays_table_options"] is False
    note = page.locator("#length-note")
    until(lambda: note.count() == 1, 10, "the lobby's length note")
    said = note.text_content() or ""
    ends = round(gnav.default[41].ends * 100)
    assert f"Only {ends} of 100" in said and "The host chose the preset's own rule" in said
    # The page's other languages say it too.
    for lang, words in (("nb", "Verten valgte"), ("da", "Værten valgte")):
        page.select_option("#lang-select", lang)
        page.wait_for_function(
            "(w) => (document.querySelector('#length-note')?.textContent || '').includes(w)",
            arg=words, timeout=20_000)
    page.context.close()
