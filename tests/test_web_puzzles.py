"""/puzzles in the browser: the puzzle of the day first, the answer explained from the
figures after the reader chooses, the streak kept on the device; and /api/puzzles
refusing what it cannot serve in one line."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import datetime as dt

from playwright.sync_api import Browser

from browser import context
from devserver import Running
from gnav.learn.puzzles import load
from gnav.texts.catalogue import say
from gnav.web.puzzles import day_index

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def test_the_route_serves_one_puzzle_at_a_time_and_todays(server: Running) -> None:
    shipped = load()["puzzles"]
    status, index = web_kit.get_json(f"{server.url}/api/puzzles")
    assert status == 200 and index["count"] == len(shipped)
    today = dt.date.fromisoformat(index["date"])
    assert index["day"] == day_index(today)
    assert day_index(today + dt.timedelta(days=1)) == (index["day"] + 1) % len(shipped)
    status, one = web_kit.get_json(f"{server.url}/api/puzzles?n=3")
    # The puzzle, without the match it was cut from (whose record shows every piece).
    assert status == 200 and one == {k: v for k, v in shipped[3].items() if k != "from"}
    for query in ("n=-1", f"n={len(shipped)}", "n=x", "m=1"):
        status, body = web_kit.get_json(f"{server.url}/api/puzzles?{query}")
        assert status == 400 and "\n" not in body["error"]["reason"], query


def test_a_puzzle_is_answered_explained_and_the_streak_kept(server: Running,
                                                            browser: Browser) -> None:
    shipped = load()["puzzles"]
    _, index = web_kit.get_json(f"{server.url}/api/puzzles")
    page = context(browser, lang="nb", phone=True).new_page()
    page.goto(f"{server.url}/puzzles")
    page.wait_for_selector("#puzzle-stand")
    assert say("puzzle.ui.day", "nb") in page.inner_text("#puzzle-where")
    today = shipped[index["day"]]
    page.click(f"#puzzle-{today['answer']}")
    page.wait_for_selector("#puzzle-next")
    assert page.inner_text("#puzzle-verdict") == say("puzzle.ui.right", "nb")
    assert say("puzzle.ui.streak", "nb", n=1, best=1) == page.inner_text("#puzzle-streak")
    said = page.inner_text("#puzzle-result")
    assert "{" not in said and str(today["seats"]) in page.inner_text("#puzzle-where")
    # The next one, answered wrong: the streak starts again, the best stays.
    page.click("#puzzle-next")
    page.wait_for_selector("#puzzle-stand")
    assert say("puzzle.ui.day", "nb") not in page.inner_text("#puzzle-where")
    after = shipped[(index["day"] + 1) % index["count"]]
    page.click(f"#puzzle-{'stand' if after['answer'] == 'swap' else 'swap'}")
    page.wait_for_selector("#puzzle-next")
    assert page.inner_text("#puzzle-verdict").startswith(say("puzzle.ui.wrong", "nb"))
    assert page.inner_text("#puzzle-streak") == say("puzzle.ui.streak", "nb", n=0, best=1)
    # Back another time the same day: on from where this device was, not today's again.
    page.reload()
    page.wait_for_selector("#puzzle-stand")
    assert say("puzzle.ui.day", "nb") not in page.inner_text("#puzzle-where")
