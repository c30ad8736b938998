"""Playing with friends, as the lobby shows it: the invite link says when it works on this
computer alone (a server listening on loopback), and says nothing of it behind a public
address; the lobby names each bot's kind."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import socket
from pathlib import Path

import httpx
from playwright.sync_api import Browser

from browser import context, create_table, until
from devserver import Running, start

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def test_a_loopback_invite_link_says_it_works_here_alone(server: Running,
                                                         browser: Browser) -> None:
    page = context(browser).new_page()
    create_table(page, server.url, "Astrid", seats=3)
    assert page.input_value("#invite-link").startswith("http://127.0.0.1:")
    note = page.locator("#local-only")
    assert note.is_visible()
    said = note.text_content() or ""
    assert "works on this computer alone" in said and "HOST=0.0.0.0" in said


def test_a_public_invite_link_says_nothing_of_it(tmp_path: Path, browser: Browser) -> None:
    # Behind a reverse proxy (--public-url) the link is the public one: no notice.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    public = start(tmp_path / "g.sqlite3", port=port, public_url="https://gnav.example")
    try:
        page = context(browser, lang="nb").new_page()
        create_table(page, f"http://127.0.0.1:{port}", "Astrid", seats=3)
        assert page.input_value("#invite-link").startswith("https://gnav.example/t/")
        assert page.locator("#local-only").count() == 0
    finally:
        public.stop()


def test_the_lobby_names_each_bots_kind(server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    table = create_table(page, server.url, "Astrid", seats=5)
    host = page.evaluate(f"() => JSON.parse(localStorage.getItem('gnav.table.{table}')).host")
    for kind in ("expert", "counter", "threshold"):
        r = httpx.post(f"{server.url}/api/tables/{table}/bots", json={"kind": kind},
                       headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200, r.text
    until(lambda: page.locator(".seat-line.bot").count() == 3, 10, "three bots in the lobby")
    lines = page.locator(".seat-line.bot").all_text_contents()
    # As the record says them (x.players: "expert", ...), in the bot's name itself
    # ("Expert bot 2", as on the board and in the standings: issue 26).
    assert [kind for kind in ("expert", "counter", "threshold")
            if any(f"{kind.capitalize()} bot " in line for line in lines)] == [
                "expert", "counter", "threshold"], lines
    page.context.close()


def test_the_start_page_puts_name_and_create_above_the_fold(server: Running,
                                                            browser: Browser) -> None:
    page = context(browser).new_page()  # 1280 x 860
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    for sel in ("#name", "#create-submit"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 860, (sel, box)
    # The eleven games follow below; the form ends with its own "Create the table".
    assert page.locator(".preset-choice").count() == 11
    assert page.locator("#create-submit-end").is_visible()
    # Nothing typed: a sentence a person understands, under the name, without asking
    # the server. The second button says so too.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/tables") else None)
    page.fill("#name", "")
    page.click("#create-submit")
    page.wait_for_selector("#name-error:not(:empty)")
    assert page.text_content("#name-error") == "Type a name first."
    page.evaluate("() => { document.getElementById('name-error').textContent = ''; }")
    page.click("#create-submit-end")
    page.wait_for_selector("#name-error:not(:empty)")
    assert page.text_content("#name-error") == "Type a name first."
    assert not asked
    # A seat count out of range, from the end of the form: said beside that button.
    page.fill("#name", "Astrid")
    page.fill("#seats", "99")
    page.click("#create-submit-end")
    page.wait_for_selector("#create-error:not(:empty)")
    error, end = (page.locator(s).bounding_box() for s in ("#create-error", "#create-submit-end"))
    assert error is not None and end is not None and 0 <= end["y"] - error["y"] < 120
    page.context.close()


def test_the_lobby_says_once_where_an_expert_plays_counter(server: Running,
                                                           browser: Browser) -> None:
    """A table whose rules nothing was solved or trained for at some size: once an expert
    bot sits, the page says once where it plays as counter, naming the sizes the table's
    info gives (the table's own test holds those against the bot)."""
    from gnav.bots.expert import ExpertBot, what_plays
    from gnav.rules import Rules

    # Every preset ships strategies and policies for its own options at every size, so
    # the odd table is gnav with its drag turned the other way: nothing trained for that.
    drag = not Rules.of("gnav").options.drag
    rules = Rules.of("gnav", drag=drag)
    assert any(text.startswith("counter") for _, text in
               what_plays(ExpertBot(0), rules, range(rules.min_seats, 7)))
    page = context(browser).new_page()
    table = create_table(page, server.url, "Astrid", seats=6,
                         options={"drag": str(drag).lower()})
    assert page.locator(".expert-note").count() == 0
    host = page.evaluate(f"() => JSON.parse(localStorage.getItem('gnav.table.{table}')).host")
    r = httpx.post(f"{server.url}/api/tables/{table}/bots", json={"kind": "expert"},
                   headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text
    until(lambda: page.locator(".expert-note").count() == 1, 10, "the expert's note")
    spans = httpx.get(f"{server.url}/api/tables/{table}").json()["expert_plays"]
    said = page.locator(".expert-note").text_content() or ""
    assert spans and all(s["seats"] in said for s in spans) and "counter" in said
