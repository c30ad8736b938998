"""Driving the client in Debian's Chromium through Playwright: for the browser tests, and
the pictures of ``tools/*shots.py`` (which reach it through ``tools/shots.py``). Needs
``pip install playwright`` and a ``chromium`` on the PATH; ``playwright install`` is never
needed. Test code, not part of the installed package.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Playwright

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str | None:
    """The system Chromium: $GNAV_CHROMIUM, /usr/bin/chromium, or one on the PATH."""
    for candidate in (os.environ.get("GNAV_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def launch(pw: Playwright) -> Browser:
    path = chromium_path()
    if path is None:
        raise RuntimeError("no chromium found: apt-get install chromium (or set GNAV_CHROMIUM)")
    return pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)


def context(browser: Browser, *, speed: str = "instant", lang: str = "en", hints: bool = True,
            phone: bool = False, reduced_motion: bool = False,
            coach: bool = False) -> BrowserContext:
    """A browser profile of its own (its own storage: one person), with the page's settings
    chosen up front."""
    options: dict[str, Any] = {"locale": {"en": "en-GB", "nb": "nb-NO", "da": "da-DK"}[lang],
                               "reduced_motion": "reduce" if reduced_motion else "no-preference"}
    if phone:
        options.update(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                       is_mobile=True, has_touch=True)
    else:
        options.update(viewport={"width": 1280, "height": 860})
    ctx = browser.new_context(**options)
    ctx.add_init_script(
        f"localStorage.setItem('gnav.speed', {speed!r});"
        f"localStorage.setItem('gnav.lang', {lang!r});"
        f"localStorage.setItem('gnav.hints', {'on' if hints else 'off'!r});"
        f"localStorage.setItem('gnav.coach', {'on' if coach else 'off'!r});")
    return ctx


def create_table(page: Page, base: str, name: str, *, seats: int = 6, lives: int = 1,
                 bots: int = 0, preset: str = "gnav", timer: str = "off",
                 look: str = "pawns", coaching: bool = True, bot: str | None = None,
                 options: dict[str, str] | None = None) -> str:
    """Fill in the start page's form as a person would; returns the new table's id.
    ``options`` are chosen under "More options" by the option's name and the value its
    field shows (``{"drag": "false"}``); ``bot`` is the kind of bot that fills the seats."""
    page.goto(f"{base}/")
    page.wait_for_selector("#create-form")
    if preset != "gnav":
        page.check(f"#preset-{preset}")
        page.wait_for_selector(f"#preset-{preset}:checked")
    page.fill("#name", name)
    page.fill("#seats", str(seats))
    page.fill("#lives", str(lives))
    page.fill("#bots", str(bots))
    page.select_option("#timer", timer)
    page.check(f"#look-{look}")
    if bot is not None:
        page.select_option("#bot", bot)
    if not coaching:
        page.check("#no-coaching")
    if options:
        page.click("details.more summary")
        for opt, value in options.items():
            page.select_option(f"#opt-{opt}", value)
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start-match")
    return page.url.rstrip("/").rsplit("/", 1)[1].split("#")[0]


def join_table(page: Page, invite_link: str, name: str) -> None:
    page.goto(invite_link)
    page.wait_for_selector("#join-name")
    page.fill("#join-name", name)
    page.click(".join-form button[type=submit]")
    page.wait_for_function("(name) => document.title.includes(name)", arg=name)


def can_act(page: Page) -> bool:
    return bool(page.evaluate(
        "() => { const b = document.querySelector('.btn.act.stand');"
        " const w = document.querySelector('.btn.act.swap');"
        " return Boolean(b && w && (!b.disabled || !w.disabled)); }"))


def click_action(page: Page, prefer: str) -> bool:
    """Click ``prefer`` (stand or swap) if it may be clicked, else the other; False if
    neither may be."""
    for action in (prefer, "swap" if prefer == "stand" else "stand"):
        button = page.locator(f".btn.act.{action}")
        if button.is_enabled():
            button.click()
            return True
    return False


def frames(page: Page, n: int = 2) -> None:
    """Wait for ``n`` frames of the page: what was laid out is drawn (an event, where a
    sleep of "a frame or two" was a guess at a loaded machine's pace)."""
    page.evaluate("(n) => new Promise((done) => { const next = (k) => k ? "
                  "requestAnimationFrame(() => next(k - 1)) : done(); next(n); })", n)


# The least a wait is given, whatever its caller names: a browser and a server on a
# machine at a load of 6 took over 5 s to show what takes 0.1 s when idle (issue 27:
# a red run for a test's timing costs a whole submission).
PATIENCE = 60.0


def until(check: Callable[[], bool], seconds: float, what: str, step: float = 0.05) -> None:
    """Wait for ``check`` (at least ``PATIENCE`` seconds, or ``seconds`` if longer)."""
    end = time.monotonic() + max(seconds, PATIENCE)
    while not check():
        if time.monotonic() > end:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(step)


# The animation held at an event (``window.gnavDebug``): the tests' moments and the
# pictures'.


def pause_on(page: Page, kinds: list[str]) -> None:
    page.evaluate("(kinds) => { window.gnavDebug.pauseOn = new Set(kinds); }", kinds)


def paused(page: Page) -> str | None:
    value = page.evaluate("() => window.gnavDebug.paused")
    return value if isinstance(value, str) else None


def resume(page: Page) -> None:
    page.evaluate("() => window.gnavDebug.resume()")


def play_until_paused(page: Page, kind: str, rng: random.Random, seconds: float = 90,
                      swap: float = 0.75) -> None:
    """Play (swapping mostly, which wakes the matadors) until the animation holds at an
    event of ``kind``; pauses at other kinds are let go."""
    end = time.monotonic() + seconds
    while True:
        if time.monotonic() > end:
            raise TimeoutError(f"no {kind} came")
        now = paused(page)
        if now == kind:
            time.sleep(0.35)  # let the bubble finish popping up
            return
        if now is not None:
            resume(page)
        elif can_act(page):
            click_action(page, "swap" if rng.random() < swap else "stand")
        time.sleep(0.05)
