"""A phone at a crowded table (16 seats, 390x844): every name whole, the piles clear of
the seats' plates; the replay's seven buttons in one row; and a tap on a knocked seat
says what its "!" means (a phone shows no tooltips)."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from browser import context, create_table, frames, pause_on, play_until_paused, until
from devserver import Running
from recordkit import bots_match
from web_kit import record_path

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()

BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height, text: e.textContent}; })"""
# Text cut by its box: an ellipsis drawn where the name did not fit.
CUT = """() => [...document.querySelectorAll('.board .seat-name, .board .seat-name .nm-word')]
  .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 0.5)
  .map((e) => e.textContent)"""


def boxes(page: Page, sel: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(BOXES, sel)
    return found


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
                and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def test_sixteen_seats_on_a_phone_keep_names_whole(server: Running, browser: Browser) -> None:
    page = context(browser, speed="fast", phone=True).new_page()
    create_table(page, server.url, "Bjørn", seats=16, lives=3, bots=15)
    pause_on(page, ["round_end"])
    page.tap("#start-match")
    play_until_paused(page, "round_end", random.Random(3), seconds=120)
    page.wait_for_selector(".board.crowded")  # the layout for many seats
    frames(page, 2)  # laid out and drawn
    assert page.locator(".board.crowded").count() == 1
    assert page.evaluate(CUT) == []
    names = [b["text"] for b in boxes(page, ".board .seat-name")]
    # A bot is named with its kind (issue 26); a plate too narrow for that shows its number.
    assert "Threshold bot 10" in names and "Threshold bot 16" in names
    plates = boxes(page, ".board .seat-plate")
    # The piles and the caption above them stay clear of every seat's plate.
    for pile in boxes(page, ".board .pile") + boxes(page, ".board .caption"):
        assert not [p for p in plates if overlap(pile, p)], pile["text"]
    page.context.close()


def test_the_replays_buttons_are_one_row_on_a_phone(server: Running, browser: Browser,
                                                    tmp_path: Path) -> None:
    page = context(browser, phone=True).new_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file", str(record_path(tmp_path, bots_match(5))))
    page.wait_for_selector("#replay-next")
    buttons = boxes(page, ".replay-controls .buttons .btn")
    assert len(buttons) == 7
    assert len({round(b["y"]) for b in buttons}) == 1, buttons
    assert all(b["w"] >= 40 and b["h"] >= 40 for b in buttons), buttons  # a finger
    page.context.close()


def test_a_tap_on_a_knocked_seat_says_what_the_mark_means(server: Running, browser: Browser,
                                                          tmp_path: Path) -> None:
    # A dealt the fool: under the knock rule (the default) everyone is told at the deal.
    record = {"gnav": 1, "rules": "gnav", "seats": ["A", "B", "C", "D"], "rounds": [
        {"dealer": "D", "deal": {"A": "fool", "B": "7", "C": "5", "D": "9"}, "stock": ["4"],
         "actions": [["A", "stand"], ["B", "swap"], ["C", "swap"], ["D", "swap"]]}]}
    page = context(browser, phone=True).new_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file",
                         str(record_path(tmp_path, json.dumps(record))))
    page.wait_for_selector("#replay-next")
    until(lambda: page.locator('.seat.knocked[data-name="A"]').count() == 1, 5, "A knocked")
    page.locator('.seat[data-name="A"] .knock-chip').tap()
    page.wait_for_selector("#toasts .toast")
    said = page.text_content("#toasts") or ""
    assert said.startswith("A: knocked: was dealt a fool"), said
    page.context.close()
