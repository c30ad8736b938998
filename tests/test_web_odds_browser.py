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
    """The answer's text, a percent sign written next to its number as English writes
    it (Norwegian and Danish put a no-break space before it: "27 %")."""
    return (page.text_content("#odds-answer") or "").replace("\u00a0%", "%")


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


def test_figures_titles_and_the_colour_key_are_in_the_pages_language(
        server: Running, browser: Browser) -> None:
    """Issue 26: in Norwegian the seat values read "−0,27" and the chances "27 %"; the
    games are named by their titles; the grid has a colour key; the seat's box shows
    its whole text on a phone ("plass 1 (til venstre for given)" was cut)."""
    from gnav.presets import PRESETS
    from gnav.texts.rules import title

    atlas = load("gnav", 3)
    assert atlas is not None
    page = context(browser, lang="nb", phone=True).new_page()
    page.goto(f"{server.url}/odds?preset=gnav&seats=3&seat=1&lang=nb")
    page.wait_for_selector("#odds-answer")
    lives = page.locator(".odds-seats td.odds-lives").all_inner_texts()
    want = [f"{v.value:+.2f}".replace("-", "\u2212").replace(".", ",") for v in atlas.values]
    assert lives == want and any("\u2212" in x for x in lives)
    grid_first = page.locator("table.odds-grid tbody td").first.inner_text()
    assert grid_first.isdigit()
    options = dict(page.eval_on_selector_all("#odds-preset option",
                                             "os => os.map(o => [o.value, o.text])"))
    assert options["gnav-1917"] == title(PRESETS["gnav-1917"], "nb")
    key = page.locator("#odds-key").inner_text()
    assert "Farge" in key and "0\u00a0%" in key and "100\u00a0%" in key
    # Every option of the seat's box fits it, at the box's own font.
    cut = page.evaluate("""() => {
        const s = document.querySelector('#odds-seat');
        const c = document.createElement('canvas').getContext('2d');
        c.font = getComputedStyle(s).font;
        const room = s.clientWidth - 36;  // the arrow and the padding
        return [...s.options].map((o) => o.text).filter((t) => c.measureText(t).width > room);
    }""")
    assert page.locator("#odds-seat option").first.inner_text() == "plass 1 (til venstre for given)"
    assert cut == []
    # What "paying" counts is said on the page.
    assert "færre liv" in page.inner_text("#odds-means")
    page.context.close()


def test_a_size_that_ships_nothing_is_made_with_its_progress(server: Running,
                                                              browser: Browser) -> None:
    """2 seats of gnav ship no table: choosing them makes it on the server (exact, a
    second or two), the page showing its progress, then the answer; the made table is
    then offered as ready."""
    from gnav.odds.source import atlas
    from gnav.rules import Rules
    from gnav.web.odds import shipped

    assert 2 not in shipped()["gnav"]
    made = atlas(Rules.of("gnav"), 2, "expert")
    page = context(browser, lang="en").new_page()
    page.goto(f"{server.url}/odds?preset=gnav&seats=3&lang=en")
    page.wait_for_selector("#odds-answer")
    # Whether the progress was shown, caught as it happens (it may be brief).
    page.evaluate("""() => { window.__making = false;
        new MutationObserver(() => { if (document.querySelector('#odds-making progress'))
            window.__making = true; }).observe(document.body, {childList: true, subtree: true});
    }""")
    groups = page.eval_on_selector_all("#odds-size optgroup", "gs => gs.map(g => g.label)")
    assert groups[1].startswith("Made on the server")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.select_option("#odds-size", "2")
    # The progress replaces the answer, and the new table's answer replaces the progress.
    page.wait_for_function("() => window.__making === true", timeout=60_000)
    page.wait_for_selector("#odds-answer", timeout=120_000)
    assert errors == []
    assert "seats=2" in page.url
    page.select_option("#odds-piece", "owl")
    page.select_option("#odds-seat", "2")
    until(lambda: answer(page).startswith(f"{round(100 * made.cells['owl', 1].pay.value)}%"), 5,
          "the owl at the dealer's, as computed here")
    page.goto(f"{server.url}/odds?preset=gnav&seats=2&lang=en")
    page.wait_for_selector("#odds-answer")
    ready = page.eval_on_selector_all("#odds-size optgroup:first-child option",
                                      "os => os.map(o => o.value)")
    assert "2" in ready
    page.context.close()


def test_a_server_that_cannot_make_a_size_says_why(server: Running, browser: Browser,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import gnav.odds.ondemand as ondemand
    from gnav.web.odds import offered

    monkeypatch.setattr(ondemand, "_installed", lambda *modules: False)
    offered.cache_clear()
    try:
        page = context(browser, lang="da").new_page()
        page.goto(f"{server.url}/odds?preset=gnav&seats=7&lang=da")
        page.wait_for_selector("#odds-note")
        note = page.inner_text("#odds-note")
        assert "7 spillere" in note and "numpy og numba" in note
        assert page.locator("#odds-answer").count() == 0
        page.context.close()
    finally:
        offered.cache_clear()
