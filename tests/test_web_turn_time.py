"""The whole turn is the player's (issue 26 §1): at 16 and 41 seats, at every animation
speed, on a phone (390x844) and a desktop (1280x860), on a slow phone and on a slow
network, the buttons come alive with the table's whole turn time left, on the server's
clock and on the page's; and the page's hurry (settings.js) ends every wait at once.

The bots play at once (a person is connected), so every move before the reader's turn
reaches the page in a burst while it is still animating the first of them: the page must
skip to the turn, not play the burst out. The times are taken in the page: when the
message that gives the reader the turn arrives, when the buttons come alive (a
MutationObserver, no polling), the countdown shown then, and the server's own time left
when it heard the page show the turn (the "table" message it sends everyone then).
"""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser import click_action, context
from devserver import Running
from gnav.table import Pace

# A server for each test: the 41-seat tables of the tests before, played on by bots once
# their player had gone, took the server's time from the tests after.
server_fixture, pw_fixture, browser_fixture = web_kit.fixtures(server="function")

TURN = 15  # seconds: the shortest timer the start page offers
SPEEDS = ("slow", "normal", "fast", "instant")
TURNS = 2  # the reader's first turn, and the next, after a whole round of bots
# The server restarts the turn's clock when it hears the page show the turn, within
# ``Pace.shown_within`` (3 s) of the turn's start: the page must catch up within that,
# and then the server's time left is the whole turn, unless the messages both ways took
# the rest of those 3 s too (a loaded machine: at most ``SLACK`` less).
CATCH_UP = Pace().shown_within
SLACK = 1.0

# In the page, before its scripts: every message giving seat 0 (the reader) the turn is
# timed on arrival, and every moment its buttons come alive, with the countdown then.
# ``window.__lag`` (ms): a slow network, every message that late each way (the page sees
# it that late; the watch here too).
WATCH = """
window.__turns = {};
window.__alive = [];
window.__closes = [];  // for the message of a failure: each socket's close, and when
const lag = window.__lag || 0;
const watch = (ev) => {
  let m;
  try { m = JSON.parse(ev.data); } catch { return; }
  if (!m.table || m.table.phase !== "playing" || m.table.to_act !== 0) return;
  const seen = window.__turns[m.version] || (window.__turns[m.version] = {});
  const at = performance.now(), left = m.table.timer_left;
  if (m.type === "table") {
    if (seen.heard === undefined) Object.assign(seen, { news: at, heard: left });
  } else if (seen.at === undefined) {
    Object.assign(seen, { at, left });
  }
};
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.app = null;
    const got = (ev) => { watch(ev); if (this.app) this.app.call(this, ev); };
    super.onmessage = lag ? (ev) => setTimeout(() => got(ev), lag) : got;
    this.addEventListener("close", (ev) => window.__closes.push(
      { at: performance.now(), code: ev.code, reason: ev.reason }));
  }
  set onmessage(f) { this.app = f; }
  get onmessage() { return this.app; }
  send(data) {
    if (!lag) return super.send(data);
    setTimeout(() => { if (this.readyState === 1) super.send(data); }, lag);
  }
};
let was = false;
new MutationObserver(() => {
  const b = document.querySelector(".btn.act.stand"), w = document.querySelector(".btn.act.swap");
  const live = Boolean(b && w && (!b.disabled || !w.disabled));
  if (live && !was) {
    const clock = document.querySelector(".action-bar .clock");
    window.__alive.push({ at: performance.now(), clock: clock ? clock.textContent : "" });
  }
  was = live;
}).observe(document, { subtree: true, childList: true, attributes: true,
                       attributeFilter: ["disabled"] });
"""

# The reader's n-th turn, as the page saw it. The server's time left when it heard the
# page show the turn (the "table" message it then sent everyone) is a lower bound of its
# time left when the buttons came alive, which was before: its deadline is that moment
# plus that time left, whatever the load did to the messages on the way.
SEEN = """(n) => {
  const alive = window.__alive[n - 1];
  const versions = Object.keys(window.__turns).map(Number)
    .filter((v) => window.__turns[v].at <= alive.at);
  const version = Math.max(...versions);
  const turn = window.__turns[version];
  return { version, catch_up: (alive.at - turn.at) / 1000, sent_left: turn.left,
           was_left: turn.left - (alive.at - turn.at) / 1000, clock: alive.clock,
           heard: turn.heard };
}"""

FIGURES: list[str] = []


def seated(server: Running, browser: Browser, seats: int, speed: str, phone: bool,
           cpu: float = 1, lag: float = 0) -> Page:
    """The reader at seat 0 of a table of ``seats`` with a turn timer; the match started,
    bots in every other seat. ``cpu``: the page's processor that many times slower
    (Chromium's own throttling, as its developer tools do it); ``lag``: seconds each
    message takes, each way, beside the real ones."""
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json={
        "seats": seats, "turn_timer": TURN, "options": {"lives": 3}}).json()
    ctx = context(browser, speed=speed, phone=phone)
    ctx.add_init_script(f"window.__lag = {round(lag * 1000)};")
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    if cpu > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    page.goto(f"{made['links']['host']}&invite={made['invite']}")
    page.wait_for_selector("#join-name")
    page.fill("#join-name", "Siri")
    page.click(".join-form button[type=submit]")
    page.wait_for_function("() => document.title.includes('Siri')")
    page.click("#start-match")
    return page


def whole_turns(page: Page, label: str) -> None:
    """The reader's first turns: each with the whole turn left when the buttons come
    alive, on the server's clock and on the page's; the reader stands each time."""
    for n in range(1, TURNS + 1):
        try:  # a round of 40 bots on a CPU throttled fourfold, beside a loaded CI machine
            page.wait_for_function("(n) => window.__alive.length >= n", arg=n,
                                   timeout=150_000)
        except PlaywrightTimeout:
            seen = page.evaluate("""() => [window.__turns, window.__alive,
                window.__closes, document.title, [...document.querySelectorAll('.log li')]
                .map((li) => li.textContent).filter((t, i, all) =>
                  t.includes('Siri') || i >= all.length - 5)]""")
            raise AssertionError(f"turn {n}'s buttons never came alive: {seen}") from None
        try:
            page.wait_for_function(f"(n) => ({SEEN})(n).heard !== undefined",  # the server
                                   arg=n, timeout=20_000)  # heard the page show the turn
        except PlaywrightTimeout:
            seen = page.evaluate("() => [window.__turns, window.__alive]")
            raise AssertionError(f"the server never heard the page show turn {n}: "
                                 f"{seen}") from None
        got = page.evaluate(SEEN, n)
        FIGURES.append(f"{label}, turn {n}: "
                       f"caught up in {got['catch_up']:.3f} s; clock shown {got['clock']!r}; "
                       f"server's time left {got['heard']:.2f} s (of {TURN}) or more; "
                       f"on the turn's first clock {got['was_left']:.2f} s")
        print(FIGURES[-1])
        assert got["catch_up"] < CATCH_UP, got
        assert got["heard"] >= TURN - SLACK, got
        assert got["clock"] == f"{TURN} s left", got  # the whole turn, from now
        assert click_action(page, "stand")
    # No turn of the reader's ran out.
    log = " ".join(page.locator(".log li").all_text_contents())
    assert "Time ran out for Siri" not in log, log


@pytest.mark.parametrize("seats", [16, 41])
@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
@pytest.mark.parametrize("speed", SPEEDS)
def test_the_buttons_come_alive_with_the_whole_turn_left(
        server: Running, browser: Browser, seats: int, phone: bool, speed: str) -> None:
    page = seated(server, browser, seats, speed, phone)
    whole_turns(page, f"{seats} seats, {'390x844' if phone else '1280x860'}, {speed}")
    page.context.close()


def test_a_slow_phone_has_the_whole_turn_too(server: Running, browser: Browser) -> None:
    # A phone a quarter as fast as this machine, at 41 seats and the slowest animations.
    page = seated(server, browser, 41, "slow", True, cpu=4)
    whole_turns(page, "41 seats, 390x844, slow, CPU a quarter as fast")
    page.context.close()


def test_a_slow_network_costs_no_turn_time(server: Running, browser: Browser) -> None:
    # Every message 0.6 s late each way (a slow mobile network's round trip of 1.2 s):
    # the server's clock for the turn starts again when the page's "shown" reaches it.
    page = seated(server, browser, 41, "normal", True, lag=0.6)
    whole_turns(page, "41 seats, 390x844, normal, 0.6 s each way")
    page.context.close()


def test_a_hurry_ends_every_wait_at_once_and_lets_go_after(server: Running,
                                                          browser: Browser) -> None:
    page = context(browser, speed="slow").new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-form")
    got = page.evaluate("""async () => {
      const S = await import('/static/js/settings.js');
      const t0 = performance.now();
      const waits = [S.sleep(60000), S.sleep(30000)];
      S.hurry(true);
      await Promise.all(waits);
      const later = new Promise((r) => setTimeout(() => r('slept'), 50));
      const again = await Promise.race([S.sleep(60000).then(() => 'done'), later]);
      const hurried = { waited: performance.now() - t0, dur: S.dur(1000), again };
      S.hurry(false);
      const t1 = performance.now();
      await S.sleep(30);
      return { ...hurried, after: S.dur(1000), slept: performance.now() - t1 };
    }""")
    assert got["waited"] < 1000 and got["dur"] == 0 and got["again"] == "done", got
    assert got["after"] == 1600 and got["slept"] >= 29, got  # "slow": 1.6 times as long
    page.context.close()
