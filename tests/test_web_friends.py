"""Playing with friends, as the lobby shows it: the invite link says when it works on this
computer alone (a server listening on loopback), and says nothing of it behind a public
address; the lobby names each bot's kind."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import socket
from pathlib import Path

from playwright.sync_api import Browser

from browser import context, create_table
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
