"""The browser's replay opens a record whose results disagree with the warning that
gnav replay prints, in the page's language (the words live in gnav.verify)."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

from pathlib import Path

from playwright.sync_api import Browser

from browser import context
from devserver import Running
from gnav.record import loads, replay
from gnav.verify import results_warning
from recordkit import disagreeing_record
from web_kit import record_path

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def test_the_replay_page_shows_the_same_warning(server: Running, browser: Browser,
                                                tmp_path: Path) -> None:
    text = disagreeing_record()
    rep = replay(loads(text))
    for lang in ("en", "nb"):
        page = context(browser, lang=lang).new_page()
        page.goto(f"{server.url}/replay")
        page.wait_for_selector("#record-file")
        page.set_input_files("#record-file", str(record_path(tmp_path, text)))
        page.wait_for_selector(".replay-page .warning")
        assert page.text_content(".replay-page .warning") == results_warning(rep, lang)
        page.wait_for_selector("#replay-next")  # and the replay itself is there
        page.context.close()
