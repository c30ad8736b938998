"""The replay viewer: a finished match from a table on the server, and a record file the
reader opens, stepped through with every piece face up; a bad file is one line."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from browser import context, until
from devserver import Running
from recordkit import bots_match
from web_kit import record_path

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def where(page: Page) -> str:
    return page.text_content("#replay-where") or ""


def faces(page: Page) -> int:
    return page.locator(".seat [data-piece]").count()


def test_the_replay_viewer_steps_through_a_finished_table(server: Running,
                                                          browser: Browser) -> None:
    made = httpx.post(f"{server.url}/api/tables",
                      json={"seats": 4, "turn_timer": None, "options": {"lives": 1}}).json()
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/start", json={},
                   headers={"Authorization": f"Bearer {made['host_token']}"})
    assert r.status_code == 200
    # Bots play in bounded bursts (issue 9): the server's timer plays the match out.
    until(lambda: httpx.get(f"{server.url}/api/tables/{made['id']}").json()["phase"]
          == "finished", 10, "the end of the match")
    page = context(browser).new_page()
    page.goto(f"{server.url}/replay?table={made['id']}")
    page.wait_for_selector("#replay-next")
    assert where(page).startswith("Round 1 of ")
    assert "step 1 of" in where(page)
    assert faces(page) == 4  # the deal, every piece face up
    first = where(page)
    page.keyboard.press("ArrowRight")
    until(lambda: where(page) != first, 5, "the next step")
    assert "step 2 of" in where(page)
    log = page.locator(".log li").all_text_contents()
    assert log[0].startswith("Round 1:") and len(log) >= 2
    page.click("#replay-last")
    until(lambda: page.locator(".seat.winner").count() >= 1, 5, "the winner")
    last = (page.locator(".log li").last.text_content() or "").lower()
    assert "wins the match" in last or "shared win" in last
    page.keyboard.press("Home")
    until(lambda: where(page) == first, 5, "the first step")
    page.context.close()


def test_the_replay_viewer_opens_a_record_file(server: Running, browser: Browser,
                                               tmp_path: Path) -> None:
    text = bots_match(5)
    rounds = text.count('"dealer"')
    page = context(browser, lang="nb").new_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file", str(record_path(tmp_path, text)))
    page.wait_for_selector("#replay-next")
    assert where(page).startswith(f"Runde 1 av {rounds}")
    for _ in range(3):
        page.click("#replay-next")
    until(lambda: "steg 4 av" in where(page) or "Runde 2" in where(page), 5, "three steps on")
    # A swap in a replay names both pieces: a record is history, nothing is hidden.
    page.click("#replay-next-round")
    until(lambda: where(page).startswith("Runde 2"), 5, "round 2")
    # A file that is not a record: one line saying why.
    page.click("text=Åpne et annet parti")
    page.wait_for_selector("#record-file")
    bad = tmp_path / "bad.json"
    bad.write_text('{"gnav": 1, "rules": "gnav", "seats": ["A"], "rounds": []}', encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#replay-error:not(:empty)")
    # A sentence in the page's language, not the server's reason ("record: seats: ...").
    message = page.text_content("#replay-error") or ""
    assert message.startswith("Denne filen er ikke et parti"), message
    assert "seats" not in message and "record:" not in message
    assert page.get_attribute("#replay-error", "data-code") == "bad_record"
    page.context.close()
