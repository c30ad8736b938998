"""A spectator (the watch link) sees only what is public: no frame it receives holds a
hidden piece, and no piece is ever drawn face up in its page unless everyone has seen it
at that seat (a matador's answer, the showdown)."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import time
from typing import Any

from playwright.sync_api import Browser, Page

from browser import can_act, click_action, context, create_table, until
from devserver import Running
from web_kit import Json, frames_of, rng

HIDDEN = {"round_start": ("piece",), "swap": ("seat_got", "target_got"),
          "draw": ("piece", "set_aside"), "undo": ("piece",)}

DOM_PIECES = """() => [...document.querySelectorAll('[data-piece]')].map(el => {
  const seat = el.closest('.seat');
  return {piece: el.dataset.piece,
          seat: seat ? seat.dataset.name : null,
          where: el.closest('.fly') ? 'fly' : el.closest('.pile') ? 'pile'
               : el.closest('.hand-piece') ? 'hand' : seat ? 'seat' : 'other'};
})"""

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def public_knowledge(frames: list[Json]) -> tuple[set[tuple[str, str]], set[str]]:
    """(seat, piece) pairs everyone has seen, and matadors shown from the stock."""
    seen: set[tuple[str, str]] = set()
    stock: set[str] = set()
    for f in frames:
        events = list(f.get("events", []))
        if f.get("view"):
            events += f["view"]["events"]
            seen |= {(s, p) for s, p in f["view"]["revealed"].items()}
        for e in events:
            if e["type"] == "answer":
                if e["seat"] is None:
                    stock.add(e["piece"])
                else:
                    seen.add((e["seat"], e["piece"]))
            elif e["type"] == "showdown":
                seen |= set(zip(e["seats"], e["pieces"], strict=True))
    return seen, stock


def check_frames(frames: list[Json]) -> int:
    checked = 0
    for f in frames:
        assert f["type"] in ("snapshot", "update", "table", "pong", "error"), f
        if f["type"] == "snapshot":
            assert f["you"] is None
        view = f.get("view")
        if view:
            assert view["seat"] is None and view["piece"] is None, view
            assert view["legal"] == []
        events = list(f.get("events", [])) + (list(view["events"]) if view else [])
        for e in events:
            for key in HIDDEN.get(e["type"], ()):
                assert e[key] is None, e
            checked += 1
    return checked


def check_dom(page: Page, frames: list[Json]) -> int:
    seen, stock = public_knowledge(frames)
    shown: list[dict[str, Any]] = page.evaluate(DOM_PIECES)
    for item in shown:
        assert item["where"] in ("seat", "pile", "fly"), item
        if item["where"] == "seat":
            assert (item["seat"], item["piece"]) in seen, (item, sorted(seen))
        else:  # set aside, or on its way there: only a matador drawn from the stock
            assert item["piece"] in stock, (item, stock)
    return len(shown)


def test_a_spectator_never_sees_a_hidden_piece(server: Running, browser: Browser) -> None:
    host = context(browser).new_page()
    create_table(host, server.url, "Gunnar", seats=5, lives=2)
    watch = host.input_value("#watch-link")
    # Fast animation, with reduced motion asked for: pieces fade rather than fly.
    spectator = context(browser, speed="fast", reduced_motion=True).new_page()
    frames = frames_of(spectator)
    spectator.goto(watch)
    spectator.wait_for_selector(".seat")
    assert spectator.locator(".join-form").count() == 0  # no invite: it may only watch
    host.click("#start-match")
    r = rng(21)
    faces = 0
    end = time.monotonic() + 7
    while time.monotonic() < end:
        if can_act(host):
            click_action(host, r.choice(["stand", "swap", "swap"]))
        faces += check_dom(spectator, frames)
        if spectator.locator(".win-panel").count():
            break
        time.sleep(0.02)
    until(lambda: sum(f.get("type") == "update" for f in frames) > 5, 5, "updates")
    assert check_frames(frames) > 20
    assert faces > 0  # it did see the pieces everyone saw
    # Its page has no hand, no buttons, and says it is watching.
    assert spectator.locator(".action-bar").is_hidden()
    assert "Watching" in spectator.title()
    assert spectator.locator(".hand-piece [data-piece]").count() == 0
    for page in (host, spectator):
        page.context.close()
