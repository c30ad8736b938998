"""The end of a match in the browser: the winner panel gives the standings (place, lives,
rounds survived: checked against the record, worked out here a second way) and the
record to download; the turn's buttons and the piece's caption go; the replay page says
where its files come from. And the Settings dialog shows no stray "null"."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import json
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from browser import can_act, click_action, context, create_table
from devserver import Running
from gnav.pieces import Piece
from gnav.presets import get_preset
from gnav.web.data import piece_json
from web_kit import rng

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def expected_standings(record: dict[str, Any]) -> list[tuple[int, str, int, int]]:
    """(place, seat, lives, rounds survived), by hand from the record's round results."""
    rounds = record["rounds"]
    winners = record["result"]["winners"]
    out_after: dict[str, int] = {}
    lives: dict[str, int] = {}
    for number, r in enumerate(rounds, 1):
        for seat, n in r["result"]["lives"].items():
            lives[seat] = n
            if n == 0:
                out_after.setdefault(seat, number)
    # Winners last every round, even a shared win's, whose seats all reach 0 together.
    rows = [(seat, seat in winners, lives.get(seat, 0),
             out_after[seat] - 1 if seat in out_after and seat not in winners else len(rounds))
            for seat in record["seats"]]

    def rank(row: tuple[str, bool, int, int]) -> tuple[bool, int, int]:
        return row[1], row[3], row[2]

    placed = [(1 + sum(rank(o) > rank(row) for o in rows), row) for row in rows]
    placed.sort(key=lambda x: x[0])  # stable: seat order within a place
    return [(place, seat, n, survived) for place, (seat, _, n, survived) in placed]


def play_to_the_end(page: Page, seconds: float = 90) -> None:
    r = rng(11)
    end = time.monotonic() + seconds
    while not page.locator("#win-title").count():
        assert time.monotonic() < end, "the match did not end"
        if can_act(page):
            click_action(page, r.choice(["stand", "swap"]))
        time.sleep(0.05)


def test_the_winner_panel_gives_standings_and_the_record(server: Running, browser: Browser,
                                                         tmp_path: Path) -> None:
    page = context(browser, speed="instant").new_page()
    table = create_table(page, server.url, "Astrid", seats=5, lives=2, bots=4)
    page.click("#start-match")
    play_to_the_end(page)
    page.wait_for_selector("#standings tbody tr")
    record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
    rows = page.locator("#standings tbody tr")
    shown = []
    for i in range(rows.count()):
        place, name, lives, survived = rows.nth(i).locator("td").all_text_contents()
        seat = rows.nth(i).get_attribute("data-seat") or ""
        # Each name as the board shows it ("Bot 5" for the record's "Threshold bot 5").
        assert name == page.get_attribute(f'.seat[data-name="{seat}"] .seat-name', "title")
        shown.append((place, seat, lives, survived))
    want = [(f"{place}.", seat, str(n), str(survived))
            for place, seat, n, survived in expected_standings(record)]
    assert shown == want
    assert int(shown[0][3]) == len(record["rounds"]) > 1
    # The record, downloaded as a person would: the table's JSON, under a name of its own.
    with page.expect_download() as info:
        page.click("#download-record")
    download = info.value
    assert download.suggested_filename == f"gnav-{table}-1.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert json.loads(saved.read_text(encoding="utf-8")) == record
    # No more turns: no greyed Stand and Swap, no "must swap" caption under the piece.
    assert not page.locator(".action-bar .btn.act.stand").is_visible()
    assert not page.locator(".action-bar .btn.act.swap").is_visible()
    assert (page.text_content(".hand-does") or "") == ""
    page.context.close()


def test_the_replay_page_says_where_its_files_come_from(server: Running,
                                                       browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    text = page.text_content("main") or ""
    assert "Download record" in text and "RECORD" + ".md" not in text  # a name players lack


def test_a_plain_piece_must_swap_when_asked() -> None:
    # Under a player's own piece, beside Stand and Swap: not an order to swap now.
    plain: Piece = next(p for p in get_preset("gnav").pieces if p.power is None and not p.fool)
    does = piece_json(plain)["does"]
    assert does == {"en": "must swap when asked", "nb": "må bytte når noen ber om det",
                    "da": "skal byttes, når nogen beder om det"}


def test_settings_say_no_null(server: Running, browser: Browser) -> None:
    for reduced in (False, True):
        page = context(browser, reduced_motion=reduced).new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#create-form")
        page.click("#settings-btn")
        page.wait_for_selector("dialog[open] #hints-on")
        said = page.text_content("dialog[open]") or ""
        assert "null" not in said
        assert ("reduced motion" in said.lower()) is reduced, said
        page.context.close()


def _round(lives: dict[str, int]) -> dict[str, Any]:
    return {"result": {"lives": lives}}


SHARED = {"seats": ["A", "B", "C"], "rounds": [_round({"A": 0, "B": 1, "C": 1}),
                                               _round({"B": 0, "C": 0})],
          "result": {"winners": ["B", "C"], "out": ["A"]}}
# max_rounds: the match stops with three seats in; the most lives win, the rest by lives.
STOPPED = {"seats": ["A", "B", "C", "D"], "rounds": [_round({"A": 2, "B": 2, "C": 1, "D": 0}),
                                                     _round({"A": 2, "B": 2, "C": 1})],
           "result": {"winners": ["A", "B"], "out": ["D"]}}


def test_standings_of_a_shared_win_and_a_stopped_match(server: Running,
                                                       browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    for record in (SHARED, STOPPED):
        rows = page.evaluate("""async (record) => {
            const { standings } = await import('/static/js/standings.js');
            return standings(record).map((r) => [r.place, r.name, r.lives, r.survived]); }""",
                             record)
        assert [tuple(r) for r in rows] == expected_standings(record)
    assert expected_standings(SHARED) == [(1, "B", 0, 2), (1, "C", 0, 2), (3, "A", 0, 0)]
    assert expected_standings(STOPPED) == [(1, "A", 2, 2), (1, "B", 2, 2), (3, "C", 1, 2),
                                           (4, "D", 0, 0)]
    page.context.close()
