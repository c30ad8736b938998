"""The companion page (/companion) in Debian's Chromium at a phone's size (390 × 844): a
whole match tapped as a table would, its record verified by the engine and shown by the
replay viewer; the page working with the network off once loaded; a reload in the
middle of a round losing nothing; pieces that contradict the round refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import web_kit
from browser import context, create_table
from companion_drive import (
    MATCH,
    NAMES,
    A,
    B,
    C,
    D,
    E,
    F,
    close_picker,
    deal,
    pick_for,
    play,
    record,
    set_up,
    show,
    tap,
)
from gnav.record import dumps
from gnav.rules import Rules
from gnav.verify import OK, verify_text

server, pw, browser = web_kit.fixtures()


@pytest.fixture
def phone(browser: Browser) -> Iterator[tuple[BrowserContext, Page, list[str]]]:
    ctx = context(browser, phone=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield ctx, page, errors
    ctx.close()


def _text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text()


def test_a_match_end_to_end_on_a_phone_verifies_and_replays(server: Any, phone: Any) -> None:
    _, page, errors = phone
    set_up(page, server.url)
    seen: dict[str, str] = {}

    def between(k: int, moment: str) -> None:
        if k == 0 and moment == "tap:3":  # the Dragoon answered Cecilie
            seen["dragoon"] = _text(page, "#c-log")
            seen["lives"] = page.locator(f'.seat[data-seat="{C}"] .lives').get_attribute(
                "aria-label") or ""
        if k == 0 and moment == "tap:5":  # the Cat answered Eirik
            seen["cat"] = _text(page, "#c-log")
        if moment == "showdown":
            seen[f"showdown{k}"] = _text(page, "#c-prompt")

    play(page, between=between)
    assert "Dag to Cecilie: Cut off!" in seen["dragoon"]
    assert "Cecilie pays a life: asked the Dragoon" in seen["dragoon"]
    assert seen["lives"] == "0"  # paid mid-round; plays the round out
    assert "Frida to Eirik: Shoo, change back!" in seen["cat"]
    assert "Everyone takes back the piece they were dealt." in seen["cat"]
    assert "Frida put aside" in seen["showdown2"]
    page.wait_for_selector("#c-winners")
    assert _text(page, "#c-winners") == "Dag wins!"
    # Every round's settlement said who paid and why, the drag included.
    rec = record(page)
    assert [r["dealer"] for r in rec["rounds"]] == ["Astrid", "Bjørn", "Frida", "Astrid", "Dag"]
    assert rec["result"] == {"winners": ["Dag"], "out": ["Cecilie", "Eirik", "Frida", "Bjørn",
                                                         "Astrid"]}
    first = rec["rounds"][0]
    assert first["deal"] == {"Bjørn": "8", "Cecilie": "2", "Dag": "dragoon", "Eirik": "6",
                             "Frida": "cat", "Astrid": "9"}
    assert rec["rounds"][1]["result"]["sit_out"] == ["Astrid", "Dag"]
    assert rec["rounds"][2]["stock"] == ["horse", "3"]
    assert rec["rounds"][2]["deal"] == {"Bjørn": "7", "Frida": "11"}
    code, lines = verify_text(dumps(rec), "companion")
    assert code == OK, lines
    assert lines == ["companion: ok (5 round(s))"]
    # The replay viewer shows it, every piece face up.
    page.click("#c-replay-end")
    page.wait_for_url("**/replay?record=local")
    page.wait_for_selector("#replay-where")
    assert all(name in page.locator("main").inner_text() for name in NAMES)
    assert not errors, errors


def test_the_drag_and_the_two_fools_are_said_at_the_showdown(server: Any, phone: Any) -> None:
    _, page, errors = phone
    set_up(page, server.url)
    play(page, MATCH[:2])
    summary = _text(page, "#c-summary")
    assert "Dag gains a life: two fools" in summary and "Astrid sits out the next round" in summary
    play(page, MATCH[2:4])
    summary = _text(page, "#c-summary")
    assert "Astrid pays a life: holds the fool" in summary
    assert "Bjørn pays a life: the fool drags down the lowest other piece" in summary
    assert "Bjørn is out" in summary
    assert not errors, errors


def test_offline_once_loaded_and_a_reload_mid_round_loses_nothing(server: Any,
                                                                  phone: Any) -> None:
    ctx, page, errors = phone
    page.goto(server.url + "/companion")
    page.wait_for_selector("#c-start")
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()  # now under the service worker's control
    page.wait_for_selector("#c-start")
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    ctx.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("#c-start")
        _set_up_offline(page)
        first = MATCH[0]
        deal(page, first["knocked"])
        for what in first["taps"][:4]:  # up to the Dragoon's answer
            tap(page, what)
        before = (_text(page, "#c-log"), _text(page, "#c-prompt"), _text(page, "#c-table"))
        saved = record(page)  # mid-round: the round under way kept aside, and it verifies
        assert saved["x"]["unfinished_round"]["actions"] == [["Bjørn", "swap"],
                                                             ["Cecilie", "swap"]]
        assert verify_text(dumps(saved), "mid") == (OK, ["mid: ok (0 round(s))"])
        page.reload()
        page.wait_for_selector("#c-prompt")
        after = (_text(page, "#c-log"), _text(page, "#c-prompt"), _text(page, "#c-table"))
        assert after == before
        for what in first["taps"][4:]:
            tap(page, what)
        # Half a showdown entered, then a reload: the pieces tapped are still there.
        page.click(f'.seat[data-seat="{B}"]')
        page.click('#c-picker .pick-piece[data-piece="8"]')
        assert page.locator("#c-picker").get_attribute("aria-label") == "Cecilie"
        page.click('#c-picker .pick-piece[data-piece="2"]')
        page.reload()
        page.wait_for_selector("#c-settle")
        assert page.locator(f'.seat[data-seat="{B}"] .piece-chip').inner_text() == "VIII"
        assert page.locator(f'.seat[data-seat="{C}"] .piece-chip').inner_text() == "II"
        page.keyboard.press("Escape")
        show(page, {D: "dragoon", E: "6", F: "cat", A: "9"}, [])
        page.wait_for_selector("#c-summary")
        assert "Cecilie is out" in _text(page, "#c-summary")
        assert verify_text(dumps(record(page)), "offline")[0] == OK
    finally:
        ctx.set_offline(False)
    assert not [e for e in errors if "net::" not in e], errors


def _set_up_offline(page: Page) -> None:
    """The setup of ``set_up`` on a page already open (no navigation while offline)."""
    while page.locator(".seat-name").count() < len(NAMES):
        page.click("#c-add")
    for i, name in enumerate(NAMES):
        page.locator(".seat-name").nth(i).fill(name)
    page.fill("#c-lives", "1")
    page.locator("#c-lives").dispatch_event("change")
    page.click("#c-start")
    page.wait_for_selector("#c-play")


def test_pieces_that_contradict_the_round_are_refused(server: Any, phone: Any) -> None:
    _, page, _ = phone
    set_up(page, server.url)
    first = MATCH[0]
    deal(page, first["knocked"])
    for what in first["taps"]:
        tap(page, what)
    # Dag answered with the Dragoon, but the table taps a VII for Dag.
    show(page, {**first["hands"], D: "7"}, [])
    page.wait_for_selector("#c-problems")
    assert "Dag answered Dragoon, but by these pieces held VII" in _text(page, "#c-problems")
    pick_for(page, D)
    page.click('#c-picker .pick-piece[data-piece="dragoon"]')
    close_picker(page)
    page.click("#c-settle")
    page.wait_for_selector("#c-summary")


def test_the_undo_button_takes_back_the_last_tap(server: Any, phone: Any) -> None:
    _, page, _ = phone
    set_up(page, server.url)
    deal(page, [])
    tap(page, "swap")
    assert "Bjørn asks Cecilie" in _text(page, "#c-prompt")
    page.click("#c-undo")
    assert "Bjørn's turn" in _text(page, "#c-prompt")
    page.click("#c-undo")
    page.wait_for_selector("#c-play")


def test_with_an_ordinary_pack_the_pieces_are_their_cards(server: Any, phone: Any) -> None:
    _, page, _ = phone
    set_up(page, server.url, NAMES[:4], pack="cards52", lives=2)
    deal(page, [])
    tap(page, "swap")
    assert "K♠ K♣" in page.locator("#c-answer-dragoon").inner_text()
    for what in ("answer:swap", "stand", "stand", "stand"):
        tap(page, what)
    page.click(f'.seat[data-seat="{B}"]')
    # Every card that is a piece is in the picker (issue 26: whoever holds K♦ or 10♦ finds
    # it without knowing the mapping), each piece once.
    picker = page.locator("#c-picker")
    labels = {pid: [svg.get_attribute("aria-label") for svg in picker.locator(
        f'.pick-piece[data-piece="{pid}"] svg').all()] for pid in ("cuckoo", "12", "fool")}
    assert labels == {"cuckoo": ["K♥", "K♦"], "12": ["10♥", "10♦"],
                      "fool": ["Joker ♥", "Joker"]}
    assert picker.locator('.pick-piece[data-piece="fool"]').get_attribute(
        "aria-label") == "red joker, black joker: Fool"
    assert picker.locator(".pick-piece").count() == len(Rules.of("gnav").pieces)
    # The fanned cards fit the phone's width, no button wider than its column.
    assert not page.evaluate("""() => [...document.querySelectorAll('#c-picker .pick-piece')]
        .some((b) => b.scrollWidth > b.clientWidth + 1)""")
    rec = record(page)
    assert rec["rules"] == {"preset": "gnav", "lives": 2, "pack": "cards52"}
    show(page, {B: "8", C: "2", D: "dragoon", A: "9"}, [])
    page.wait_for_selector("#c-summary")
    assert verify_text(dumps(record(page)), "cards52") == (OK, ["cards52: ok (1 round(s))"])
    # The replay viewer shows a match played with an ordinary pack as its cards.
    page.click("#c-menu")
    page.click("#c-replay")
    page.wait_for_selector("#replay-where")
    page.wait_for_selector(".board svg.c52")
    assert page.locator(".board svg.c52").count() >= 4


@pytest.mark.parametrize("preset", ["gnav", "gnav-1917", "slabberjan", "chase-the-ace", "hypp"])
def test_the_card_of_the_mapping_prints_on_one_a4_page(server: Any, browser: Browser,
                                                       preset: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{server.url}/card/{preset}?lang=nb")
    assert page.locator(".pieces li").count() == len(Rules.of(preset).pieces)
    # Nothing sticks out of its column.
    overflow = page.evaluate("""() => [...document.querySelectorAll('.pieces li')]
        .some((li) => li.scrollWidth > li.clientWidth + 1)""")
    assert not overflow
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    ctx.close()
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1


def test_the_card_page_loads_clean_and_says_only_what_plays(server: Any,
                                                          phone: Any) -> None:
    """/card/gnav: its icon is the server's (no 404 in the console, issue 26), and it
    names the jokers in words and no aces, which it tells you to take out."""
    _, page, errors = phone
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{server.url}/card/gnav?lang=en")
    page.wait_for_load_state("load")
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    assert icon is not None and httpx.get(server.url + icon).status_code == 200
    assert not failed and not errors
    text = page.inner_text("body")
    assert "aces" not in page.inner_text(".order") and "A♥" in page.inner_text(".out")
    assert "red joker, black joker" in text and "Joker ♥" not in text
    assert "pack = " not in text and "42 cards in play" in page.inner_text(".foot")


def test_a_preset_that_does_not_fit_has_no_card(server: Any) -> None:
    with httpx.Client(base_url=server.url) as client:
        r = client.get("/card/gnav?lang=en")
        assert r.status_code == 200 and "K♥" in r.text
        r = client.get("/card/nope")
        assert r.status_code == 400 and "unknown preset 'nope'" in r.json()["error"]["reason"]


SPEECH_STUB = """
window.__said = [];
Object.defineProperty(window, 'speechSynthesis', {configurable: true, value: {
  speak(u) { window.__said.push([u.text, u.lang]); }, cancel() {}, getVoices() { return []; },
}});
"""


def test_it_speaks_only_when_asked_in_the_tables_language(server: Any, phone: Any) -> None:
    ctx, page, errors = phone
    ctx.add_init_script(SPEECH_STUB)
    page.goto(server.url + "/companion")
    page.wait_for_selector("#c-lang")
    page.select_option("#c-lang", "nb")
    page.wait_for_selector("#c-speech")
    assert not page.is_checked("#c-speech")  # off by default
    set_up(page, server.url)
    deal(page, [])
    tap(page, "swap")
    assert page.evaluate("() => window.__said") == []
    page.click("#c-speak")
    tap(page, "answer:swap")
    tap(page, "swap")
    tap(page, "answer:dragoon")
    said = page.evaluate("() => window.__said")
    assert ["Dag til Cecilie: Hugg av!", "nb-NO"] in said
    assert said[-1] == ["Eirik sin tur", "nb-NO"]  # Dag showed a matador: no turn
    assert not errors, errors


def test_the_browser_client_offers_the_cards52_look(server: Any, browser: Browser) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#look-cards52")
    # The Dragoon of gnav, shown as its first card: the king of spades.
    texts = page.locator('label[for="look-cards52"] svg.c52').first.locator(
        "text").all_text_contents()
    assert texts[:3] == ["K", "♠", "♠"]
    assert page.locator('label[for="look-cards52"] svg.c52-back').count() == 1
    ctx.close()


def test_a_table_created_with_the_cards52_look_deals_cards(server: Any,
                                                           browser: Browser) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    create_table(page, server.url, "Astrid", seats=3, bots=2, look="cards52")
    page.click("#start-match")
    # My own piece face up as its card, the others' as the backs of an ordinary pack.
    page.wait_for_selector(".board svg.c52:not(.c52-back)")
    assert page.locator(".board svg.c52-back").count() >= 2
    ctx.close()


def test_a_full_storage_drops_the_oldest_undo_steps_never_the_match(server: Any,
                                                                    phone: Any) -> None:
    ctx, page, errors = phone
    # A browser whose storage takes only so much: the store's writes fail above it.
    ctx.add_init_script("""
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function (k, v) {
        if (k === 'gnav.companion' && v.length > 12000) {
          throw new DOMException('full', 'QuotaExceededError');
        }
        return set.call(this, k, v);
      };""")
    set_up(page, server.url)
    play(page, MATCH[:2])
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('gnav.companion'))")
    assert stored["match"]["rounds"] == 2
    # 16 taps changed the match (a start, two deals, 11 moves, two showdowns): the
    # oldest undo steps went, the newest stay.
    assert 0 < len(stored["undo"]) < 16
    assert stored["undo"][-1]["round"]["phase"] == "showdown"
    page.reload()
    page.wait_for_selector("#c-play")
    assert "Dag sits out the next round" in _text(page, "#c-summary")
    assert not errors, errors


def test_house_rules_are_the_games_options_and_go_into_the_record(server: Any,
                                                                  phone: Any) -> None:
    _, page, errors = phone
    set_up(page, server.url, NAMES[:4], lives=3,
           options={"max_rounds": 1, "penalty_to": "holder", "knock": "silent"})
    assert page.locator(".seat.pickable").count() == 0  # silent: no knocks to tap
    deal(page, [])
    for what in ("swap", "answer:dragoon", "stand", "stand"):
        tap(page, what)
    # The Dragoon's penalty went to its holder: Cecilie has a life more.
    assert page.locator(f'.seat[data-seat="{C}"] .lives').get_attribute("aria-label") == "4"
    show(page, {B: "5", C: "dragoon", D: "3", A: "9"}, [])
    page.wait_for_selector("#c-winners")
    assert _text(page, "#c-winners") == "Cecilie wins!"  # one round, the most lives
    rec = record(page)
    assert rec["rules"] == {"preset": "gnav", "lives": 3, "knock": "silent",
                            "penalty_to": "holder", "max_rounds": 1}
    assert verify_text(dumps(rec), "house") == (OK, ["house: ok (1 round(s))"])
    assert not errors, errors
