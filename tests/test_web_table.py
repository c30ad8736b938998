"""The table explains itself, as a player sees it at 1280x860 and 390x844: stand-ins and
timers said on the board and in the log, hints that belong to their moment, a status
line that tells the truth, the phone's centre and buttons, a seat that leaves shown as
away at once, a language switch that keeps the layout, errors in sentences, a 20-seat
showdown that reads, and a start page with every game and full tables marked."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from browser import (
    can_act,
    click_action,
    context,
    create_table,
    frames,
    join_table,
    pause_on,
    paused,
    resume,
    until,
)
from devserver import Running
from web_kit import rng

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()

DESK, PHONE = (1280, 860), (390, 844)

BOXES = """(sel) => [...document.querySelectorAll(sel)].filter(e => {
  const s = getComputedStyle(e);
  return s.display !== 'none' && s.visibility !== 'hidden' && e.getClientRects().length > 0;
}).map(e => { const r = e.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, text: e.textContent}; })"""

# Every seat's name and the marks on it (chips, stamps, away), as boxes, by seat.
SEAT_MARKS = """() => [...document.querySelectorAll('.board .seat')].map(seat => {
  const marks = [];
  for (const sel of ['.seat-name', '.stamp', '.seat-away', '.dealer-chip', '.knock-chip']) {
    const e = seat.querySelector(sel);
    if (!e || !e.textContent) continue;
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    marks.push({sel, x: r.left, y: r.top, w: r.width, h: r.height});
  }
  const p = seat.querySelector('.seat-plate').getBoundingClientRect();
  return {name: seat.dataset.name, marks, plate: {x: p.left, y: p.top, w: p.width, h: p.height}};
})"""


# The page as it is at one moment: the hint shown, whether the reader may act, the status.
NOW = """() => { const h = document.querySelector('.hint');
  const b = document.querySelector('.btn.act.stand'), w = document.querySelector('.btn.act.swap');
  return {hint: h ? h.dataset.hint : null, act: Boolean(b && w && (!b.disabled || !w.disabled)),
          status: document.getElementById('turn-status').textContent}; }"""
TURN_HINT = re.compile(r"^(first_turn|dealer|fool_mine|matador:|fool_left:)")


def overlap(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    return bool(a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
                and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])


def box(page: Page, sel: str) -> dict[str, Any]:
    found = page.evaluate(BOXES, sel)
    assert found, f"{sel} is not on the screen"
    return dict(found[0])


def inside_viewport(b: dict[str, Any], size: tuple[int, int]) -> bool:
    return bool(b["x"] >= -0.5 and b["y"] >= -0.5 and b["x"] + b["w"] <= size[0] + 0.5
                and b["y"] + b["h"] <= size[1] + 0.5)


def status(page: Page) -> str:
    return page.text_content("#turn-status") or ""


def log_lines(page: Page) -> list[str]:
    return page.locator(".log li").all_text_contents()


def api_table(server: Running, **config: Any) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json=config).json()
    return made


def play_until_paused(page: Page, kind: str, seconds: float = 30) -> None:
    r = rng(5)
    end = time.monotonic() + seconds
    while paused(page) != kind:
        assert time.monotonic() < end, f"no {kind} came"
        if paused(page) is not None:
            resume(page)
        elif can_act(page):
            click_action(page, r.choice(["stand", "swap"]))
        time.sleep(0.03)


# -- items 1 and 7: a seat that leaves is away at once; stand-ins and timers are said ------

def test_away_at_once_then_stand_ins_and_the_timer_are_said(server: Running,
                                                            browser: Browser) -> None:
    made = api_table(server, seats=3, turn_timer=3, grace=1.5)
    astrid = context(browser).new_page()
    astrid.goto(f"{made['links']['host']}&invite={made['invite']}")
    astrid.wait_for_selector("#join-name")
    astrid.fill("#join-name", "Astrid")
    astrid.click(".join-form button[type=submit]")
    astrid.wait_for_selector("#start-match")
    bjorn = context(browser).new_page()
    join_table(bjorn, made["links"]["invite"], "Bjørn")
    until(lambda: astrid.locator(".seat-line.human").count() == 2, 10, "Bjørn seated")
    assert astrid.locator(".board .seat.away").count() == 0
    # Bjørn closes his tab: Astrid sees him away at once, with a mark, not a trailing "…".
    bjorn.context.close()
    until(lambda: astrid.locator(".board .seat.away").count() == 1, 3, "Bjørn away")
    mark = astrid.locator(".board .seat.away .seat-away")
    assert mark.text_content() == "away" and mark.is_visible()
    assert astrid.locator(".board .seat.away").get_attribute("data-name") == "Bjørn"
    assert "…" not in (astrid.text_content(".board .seat.away .seat-plate") or "")
    assert "(away)" in (astrid.text_content(".seat-line.human:has-text('Bjørn')") or "")
    astrid.click("#start-match")
    # Bjørn's turns are played by a stand-in once his grace is over; Astrid lets her own
    # time run out. The log says both; the hint and "Your turn" go with her turn (never
    # a turn's hint, or "Your turn", once it has passed).
    away = "Bjørn is away: a stand-in bot plays for them."
    line = "Time ran out for Astrid: a stand-in bot plays this turn."
    hinted = False
    # The caption's note says both while they are news: read it as the loop goes (a run
    # beside a CPU hog looked a moment after the round had moved on and found it empty).
    said: list[tuple[str, dict[str, Any]]] = []
    end = time.monotonic() + 25
    while not {away, line} <= set(log_lines(astrid)) or not said:
        assert time.monotonic() < end, (log_lines(astrid), said)
        now = astrid.evaluate(NOW)
        if now["hint"] and TURN_HINT.match(now["hint"]):
            assert now["act"], now
            hinted = True
        if not now["act"]:
            assert now["status"] != "Your turn", now
        note_text = astrid.text_content(".caption-note") or ""
        if line in note_text and away in note_text:
            said.append((note_text, box(astrid, ".caption-note")))
        time.sleep(0.05)
    assert hinted  # she had a hint at her turn
    now = astrid.evaluate(NOW)
    assert now["act"] or (now["status"] != "Your turn"
                          and not (now["hint"] and TURN_HINT.match(now["hint"]))), now
    assert all(inside_viewport(note, DESK) for _, note in said), said
    astrid.context.close()


# -- item 2 and 3: hints belong to the moment; the status line tells the truth --------------

def test_hints_and_the_status_line_follow_the_match(server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    # Two lives: with one, a match could end before Cecilie's first turn (a stop ahead of
    # her while she holds the lowest piece), and the deal is the server's own.
    create_table(page, server.url, "Cecilie", seats=3, lives=2)
    # The host is told to start it (issue 26: it said "The host starts the match").
    until(lambda: status(page) == "You are the host: start the match when you are ready; "
          "empty seats get bots.", 5, "the lobby's status")
    page.click("#start-match")
    until(lambda: (page.text_content(".caption") or "").startswith("Round"), 10, "the deal")
    r = rng(8)
    seen: set[str] = set()
    end = time.monotonic() + 60
    while page.locator(".win-panel").count() == 0:
        assert time.monotonic() < end, "the match did not end"
        now = status(page)
        me_out = page.locator(".board .seat.me.out").count() > 0
        if me_out:
            # Out: the board marks the seat while the round's end still plays out, and the
            # status line follows when it has (the line read a moment before may still be
            # "Sent…"). Then it says so, or, once the last round is scored, that the match
            # is over for everyone (the winner panel follows): never a turn's.
            until(lambda: status(page) in ("You are out: watching the rest",
                                           "The match is over"), 10, "the line of the out")
            assert page.locator(".hint").count() == 0  # no hint for someone who is out
            seen.add("out")
        elif now:
            assert now in ("Your turn", "Sent…", "Showdown", "Play goes on…",
                           "The match is over") or now.endswith("'s turn"), now
            assert now != "Wait for your turn"
            seen.add(now)
        if can_act(page):
            click_action(page, r.choice(["stand", "swap"]))
        time.sleep(0.02)
    assert "Your turn" in seen
    # The winner screen: no hint, and the status says the match is over.
    until(lambda: status(page) == "The match is over", 5, "the end in the status line")
    assert page.locator(".hint").count() == 0
    # Play again: nothing of the last match's hints comes along.
    page.evaluate("() => { const h = document.querySelector('.hint');"
                  " if (h) h.dataset.old = '1'; }")
    page.click(".win-panel button.primary")
    until(lambda: page.locator(".win-panel").count() == 0, 5, "the new match")
    end = time.monotonic() + 5
    while time.monotonic() < end and not can_act(page):
        assert page.locator(".hint[data-old]").count() == 0
        time.sleep(0.05)
    assert page.locator(".hint[data-old]").count() == 0
    assert status(page) in ("Your turn", "Play goes on…", "Showdown", "The match is over") \
        or status(page).endswith("'s turn"), status(page)
    page.context.close()


def test_the_status_line_says_showdown(server: Running, browser: Browser) -> None:
    page = context(browser, lang="da").new_page()
    create_table(page, server.url, "Dorthe", seats=4, lives=3)
    pause_on(page, ["round_end"])
    page.click("#start-match")
    play_until_paused(page, "round_end")
    assert status(page) == "Alle viser"
    assert page.locator(".btn.act.stand").is_disabled()
    resume(page)
    page.context.close()


# -- item 6: the phone keeps the centre's labels, and the buttons on the screen -------------

@pytest.mark.parametrize("seats", [6, 20])
def test_a_phone_at_its_turn_has_labels_and_buttons_on_screen(server: Running,
                                                             browser: Browser,
                                                             seats: int) -> None:
    page = context(browser, phone=True, lang="nb").new_page()
    create_table(page, server.url, "Eirik", seats=seats, lives=3)
    page.tap("#start-match")
    until(lambda: can_act(page), 20, "Eirik's turn")
    assert page.evaluate("window.scrollY") == 0  # the board, not the lobby's start button
    for sel in (".btn.act.stand", ".btn.act.swap"):
        b = box(page, sel)
        assert inside_viewport(b, PHONE), (sel, b)
    assert not overlap(box(page, ".btn.act.stand"), box(page, ".btn.act.swap"))
    labels = page.evaluate(BOXES, ".board .pile-label")
    texts = [x["text"] for x in labels]
    assert "Bunken" in texts, texts
    for a in labels:
        assert a["w"] > 0 and inside_viewport(a, PHONE), a
        for other in labels:
            assert a is other or not overlap(a, other), (a, other)
    page.context.close()


# -- item 10: switching language mid-match keeps the layout ---------------------------------

@pytest.mark.parametrize("phone", [False, True])
def test_switching_language_keeps_the_own_plate_off_the_action_bar(server: Running,
                                                                  browser: Browser,
                                                                  phone: bool) -> None:
    page = context(browser, phone=phone).new_page()
    create_table(page, server.url, "Frida", seats=8, lives=3)
    page.click("#start-match")
    until(lambda: can_act(page), 15, "Frida's turn")
    hint = page.get_attribute(".hint", "data-hint") if page.locator(".hint").count() else None
    words = page.text_content(".hint span") if hint else None
    for code in ("nb", "da", "en", "da"):
        page.select_option("#lang-select", code)
        page.wait_for_function("(c) => document.documentElement.lang === c", arg=code)
        frames(page, 2)  # laid out again in the new words, and drawn
        plate, bar = box(page, ".board .seat.me .seat-plate"), box(page, ".action-bar")
        stage = box(page, ".stage")
        assert not overlap(plate, bar), (code, plate, bar)
        assert plate["y"] + plate["h"] <= stage["y"] + stage["h"] + 1, (code, plate, stage)
        assert plate["x"] >= stage["x"] - 1, (code, plate, stage)
        assert plate["x"] + plate["w"] <= stage["x"] + stage["w"] + 1, (code, plate, stage)
        if hint is not None:  # the hint stays, in the new language
            assert page.get_attribute(".hint", "data-hint") == hint
            now = page.text_content(".hint span")
            assert now and (now != words) == (code != "en"), (code, now)
    page.context.close()


# -- item 12: errors read as sentences in the page's language -------------------------------

def test_errors_are_sentences_next_to_their_field(server: Running, browser: Browser) -> None:
    page = context(browser).new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/tables" in r.url else None)
    page.fill("#name", "   ")
    page.click("#create-submit")
    page.wait_for_selector("#name-error:not(:empty)")
    assert page.text_content("#name-error") == "Write a name: one of only spaces says nothing."
    name, note = box(page, "#name"), box(page, "#name-error")
    assert 0 <= note["y"] - (name["y"] + name["h"]) < 30  # right under the field
    assert not [u for u in requests if u.endswith("/api/tables")]
    # Too long: the field keeps 24 characters and says so.
    page.fill("#name", "")
    page.focus("#name")
    page.keyboard.insert_text("Astrid Margrethe Kristoffersen")
    assert page.input_value("#name") == "Astrid Margrethe Kristof"
    assert page.text_content("#name-error") == "A name has at most 24 characters."
    # A seat count out of range is said in words, not "Something went wrong: seats: ...".
    page.fill("#name", "Astrid")
    page.fill("#seats", "99")
    page.click("#create-submit")
    page.wait_for_selector("#create-error:not(:empty)")
    said = page.text_content("#create-error") or ""
    assert said.startswith("“Seats” must be from 2 to "), said
    assert "went wrong" not in said and "seats:" not in said
    # A name already at the table, in Norwegian.
    page.fill("#seats", "4")
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
    invite = page.input_value("#invite-link")
    other = context(browser, lang="nb").new_page()
    other.goto(invite)
    other.wait_for_selector("#join-name")
    other.fill("#join-name", "Astrid")
    other.click(".join-form button[type=submit]")
    other.wait_for_selector("#join-name-error:not(:empty)")
    said = other.text_content("#join-name-error") or ""
    assert said == "Noen ved bordet har allerede det navnet: velg et annet.", said
    other.fill("#join-name", "  ")
    other.click(".join-form button[type=submit]")
    until(lambda: (other.text_content("#join-name-error") or "").startswith("Skriv et navn"),
          3, "the blank name refused")
    # Nothing typed at all: what to do, not what is wrong with spaces.
    other.fill("#join-name", "")
    other.click(".join-form button[type=submit]")
    until(lambda: other.text_content("#join-name-error") == "Skriv et navn først.", 3,
          "the empty name refused")
    # An address that is no page: a page that says so, with the way back.
    other.goto(f"{server.url}/no/such/page")
    other.wait_for_selector(".not-found")
    assert other.text_content(".not-found h1") == "Ingenting her"
    other.click("#back-home")
    other.wait_for_selector("#create-form")
    # A table that is not there: a sentence, not "table: no table 'x'".
    other.goto(f"{server.url}/t/NoSuchTable22")
    other.wait_for_selector(".narrow-panel .error")
    said = other.text_content(".narrow-panel .error") or ""
    assert said.startswith("Det finnes ikke noe bord med den id-en"), said
    for p in (page, other):
        p.context.close()


# -- item 15: a 20-seat showdown reads, on a desk and on a phone ----------------------------

@pytest.mark.parametrize("phone", [False, True])
def test_a_twenty_seat_showdown_is_readable(server: Running, browser: Browser,
                                            phone: bool) -> None:
    size = PHONE if phone else DESK
    page = context(browser, phone=phone).new_page()
    create_table(page, server.url, "Gudrun", seats=20, lives=3)
    pause_on(page, ["round_end"])
    page.click("#start-match")
    play_until_paused(page, "round_end")
    lines = log_lines(page)
    starts = [i for i, x in enumerate(lines) if x.startswith("Round ")]
    this_round = lines[starts[-1]:]
    shows = [i for i, x in enumerate(this_round) if x.startswith("Showdown")]
    assert len(shows) == 1, this_round
    in_round = page.locator(".board .seat:not(.idle)").count()  # two fools may sit out
    assert in_round >= 18
    assert this_round[shows[0]] == f"Showdown: all {in_round} pieces are face up on the board."
    pays = [x for x in this_round[shows[0] + 1:]
            if " pays a life" in x or " gains a life" in x or "would pay" in x]
    # Who paid, and why, a short line each.
    assert pays and all(len(x) < 90 for x in pays), pays
    assert all(" for " in x or "dragged down by the fool" in x or "would pay" in x
               for x in pays), pays
    # Every piece of the round is face up on the board.
    faces = page.locator(".board .seat:not(.idle) .seat-piece svg[data-piece]").evaluate_all(
        "els => els.map(e => e.dataset.piece).filter(p => p && p !== 'null')")
    assert len(faces) == in_round, (faces, in_round)
    # A fool's knock says what it means: still held, or swapped since (the fool may have
    # moved on).
    for chip in page.locator(".board .seat.knocked .knock-chip").all():
        title = chip.get_attribute("title") or ""
        said = ("knocked at the deal (dealt a fool), but has swapped since"
                if chip.text_content() == "?" else "knocked: was dealt a fool and has not swapped")
        assert title.startswith(said), title
    # Marks and names never cover each other, within a seat or between seats.
    seats = page.evaluate(SEAT_MARKS)
    assert len(seats) == 20
    for seat in seats:
        marks = seat["marks"]
        for i, a in enumerate(marks):
            assert inside_viewport(a, size), (seat["name"], a)
            for b in marks[i + 1:]:
                assert not overlap(a, b), (seat["name"], a, b)
    names = [(s["name"], m) for s in seats for m in s["marks"] if m["sel"] == ".seat-name"]
    for i, (who, a) in enumerate(names):
        for other, b in names[i + 1:]:
            assert not overlap(a, b), (who, other, a, b)
        for s in seats:
            if s["name"] != who:
                assert not overlap(a, s["plate"], slack=1), (who, s["name"])
    resume(page)
    page.context.close()


# -- items 8 and 9: every game on the create form, and a full table marked "watch" ----------

@pytest.mark.parametrize("phone", [False, True])
def test_the_start_page_shows_every_game_and_marks_full_tables(server: Running,
                                                              browser: Browser,
                                                              phone: bool) -> None:
    full = api_table(server, seats=2, listed=True)
    for name in ("Kari", "Ola"):
        httpx.post(f"{server.url}/api/tables/{full['id']}/join",
                   json={"name": name, "invite": full["invite"]})
    open_one = api_table(server, seats=4, listed=True)
    httpx.post(f"{server.url}/api/tables/{open_one['id']}/join",
               json={"name": "Per", "invite": open_one["invite"]})
    games = httpx.get(f"{server.url}/static/presets.json").json()["presets"]
    page = context(browser, phone=phone, lang="nb").new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    assert page.text_content("#preset-legend") == f"Spill: {len(games)} å velge mellom"
    titles = page.locator(".preset-choice strong").all_text_contents()
    assert len(titles) == len(games) and "Gnav (København 1917)" in titles
    shape = page.evaluate("""() => { const l = document.querySelector('.preset-list');
      const r = l.getBoundingClientRect();
      return {scroll: l.scrollHeight, client: l.clientHeight,
              overflow: getComputedStyle(l).overflowY, top: r.top, bottom: r.bottom,
              items: [...l.querySelectorAll('.preset-choice')].map(e => {
                const b = e.getBoundingClientRect(); return [b.top, b.bottom]; })}; }""")
    if phone:  # plainly scrollable: it scrolls, and says how many there are
        assert shape["overflow"] == "auto" and shape["scroll"] > shape["client"] + 100
    else:  # all in sight: none is cut off by the list
        assert all(shape["top"] - 1 <= a and b <= shape["bottom"] + 1 for a, b in shape["items"])
    lines = {}  # by table: (players, button, link)
    until(lambda: page.locator(".table-line").count() >= 2, 5, "the lobby")
    for line in page.locator(".table-line").all():
        href = line.locator(".btn").get_attribute("href") or ""
        lines[href.split("/t/")[1].split("#")[0]] = (
            line.locator("strong").text_content(), line.locator(".btn").text_content(), href)
    assert lines[full["id"]] == ("Kari, Ola", "Se på", f"/t/{full['id']}")
    assert lines[open_one["id"]] == ("Per", "Bli med", f"/t/{open_one['id']}#join")
    page.context.close()
