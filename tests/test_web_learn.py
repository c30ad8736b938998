"""/learn in the browser: the guided match played to its end in every language on a
phone and a desktop, a wrong choice explained and asked again, the lesson left and
resumed, and a player who came by invite brought back to that table at its end."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)


import pytest
from playwright.sync_api import Browser

from browser import context, create_table
from devserver import Running
from gnav.learn.lesson import frames, lesson_rules, note_text, why_text
from gnav.texts.catalogue import say
from learn_drive import play_lesson

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def test_the_lesson_route_serves_the_engines_frames_and_refuses_in_one_line(
        server: Running) -> None:
    status, body = web_kit.get_json(f"{server.url}/api/learn?preset=gnav-1917")
    assert status == 200 and body["preset"] == "gnav-1917"
    assert len(body["frames"]) == len(frames("gnav-1917"))
    for query, word in (("preset=hypp", "hypp"), ("lang=en", "lang")):
        status, body = web_kit.get_json(f"{server.url}/api/learn?{query}")
        assert status == 400
        reason = body["error"]["reason"]
        assert word in reason and "\n" not in reason


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_the_lesson_is_played_to_its_end(server: Running, browser: Browser, lang: str,
                                         phone: bool) -> None:
    page = context(browser, lang=lang, phone=phone).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/learn")
    page.click("#learn-start")
    said = "\n".join(play_lesson(page))
    rules = lesson_rules("gnav")
    lesson = frames("gnav")
    # Every note the engine placed is shown, in the page's language, filled in.
    for f in lesson:
        for note in f.notes:
            assert note_text(note, rules, lang) in said.replace("\n", " ") or \
                note_text(note, rules, lang) in said
        if f.ask is not None and f.ask.expected == "swap":  # Stand was tried first
            assert why_text(f.ask, lang) in said
    assert "{" not in said
    assert page.inner_text("#learn-done") == say("learn.ui.done", lang)
    assert page.is_visible("#learn-bots") and not page.query_selector("#learn-back")
    # The lesson is learnt: the page remembers it, and keeps no place to go on from.
    assert page.evaluate("() => [localStorage.getItem('gnav.learned'), "
                         "localStorage.getItem('gnav.learn')]") == ["1", None]
    assert errors == []


def test_the_lesson_left_goes_on_where_it_was(server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/learn")
    page.click("#learn-start")
    page.wait_for_selector("#learn-swap")
    page.keyboard.press("w")  # round 1's decision, from the keyboard as at a table
    page.click("#learn-next")
    page.click("#learn-next")  # on to round 2
    page.wait_for_function("() => document.querySelector('#learn-round').textContent"
                           ".includes('2 of 8')")
    page.reload()
    page.click("#learn-resume")
    page.wait_for_selector("#learn-next")
    assert "2 of 8" in page.inner_text("#learn-round")
    assert "You hold XI" in page.inner_text("#learn-notes")
    # Start again goes back to the first deal.
    page.reload()
    page.click("#learn-restart")
    page.wait_for_selector("#learn-stand")
    assert "1 of 8" in page.inner_text("#learn-round")


def test_a_player_who_came_by_invite_is_brought_back_to_that_table(
        server: Running, browser: Browser) -> None:
    host = context(browser).new_page()
    table = create_table(host, server.url, "Astrid", seats=3)
    invite = host.input_value("#invite-link")
    guest = context(browser, lang="nb").new_page()
    guest.goto(invite)
    guest.wait_for_selector("#learn-offer")
    guest.click("#learn-offer-go")
    guest.wait_for_selector("#learn-start")
    # Straight to the last round, as a player who left the lesson there would be.
    last = next(i for i, f in enumerate(frames("gnav")) if f.round == 8)
    guest.evaluate("(i) => { const p = JSON.parse(localStorage.getItem('gnav.learn'));"
                   " p.frame = i; localStorage.setItem('gnav.learn', JSON.stringify(p)); }", last)
    guest.reload()
    guest.click("#learn-resume")
    play_lesson(guest)
    guest.click("#learn-back")
    guest.wait_for_selector("#join-name")
    assert guest.url.split("#")[0] == f"{server.url}/t/{table}"
    assert not guest.query_selector("#learn-offer")  # learnt: not offered again
    guest.fill("#join-name", "Bjørn")
    guest.click(".join-form button[type=submit]")
    guest.wait_for_function("() => document.title.includes('Bjørn')")


def test_the_start_page_links_the_lesson(server: Running, browser: Browser) -> None:
    page = context(browser, lang="da").new_page()
    page.goto(f"{server.url}/")
    page.click("#learn-link")
    page.wait_for_selector("#learn-start")
    assert page.inner_text("h1") == say("learn.ui.title", "da")


def test_the_lesson_in_the_1917_rules_says_what_they_do(server: Running,
                                                         browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/learn")
    page.check("#learn-gnav-1917")
    page.click("#learn-start")
    said = " ".join(play_lesson(page))
    rules = lesson_rules("gnav-1917")
    keys = {n.key for f in frames("gnav-1917") for n in f.notes}
    assert {"learn.cuckoo_refuses", "learn.cat_charges"} <= keys
    for f in frames("gnav-1917"):
        for note in f.notes:
            assert note_text(note, rules, "en") in said


def test_the_end_of_the_lesson_seats_the_player_at_a_table_with_three_bots(
        server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/learn")
    page.wait_for_selector("#learn-start")
    last = next(i for i, f in enumerate(frames("gnav")) if f.round == 8)
    page.evaluate("(i) => localStorage.setItem('gnav.learn', JSON.stringify("
                  "{preset: 'gnav', frame: i}))", last)
    page.reload()
    page.click("#learn-resume")
    play_lesson(page)
    page.click("#learn-bots")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#start-match")
    table = page.url.split("/t/")[1].split("#")[0]
    _, info = web_kit.get_json(f"{server.url}/api/tables/{table}")
    kinds = sorted(s["kind"] for s in info["seats"])
    assert kinds == ["bot", "bot", "bot", "human"]
    assert info["config"]["preset"] == "gnav"
