"""``python tools/screenshots.py [DIR]``: pictures of the table for the README.

It runs a server with the client (a temporary database), plays tables as one person
against bots in Debian's Chromium, and saves PNGs to DIR (default docs/screenshots): the
deal, a matador's answer, the showdown, a 20-seat showdown, a phone in portrait at a
matador's answer and at its player's turn, a phone at 16 seats (at the showdown and at
its player's turn), 41 seats on a desk at its player's turn, the winner's panel with
the standings, the start page and the replay viewer. The animation is paused at each
moment (``window.gnavDebug``) so the picture shows it. ``--only NAME,...`` makes some of
them (names: the functions' below, without ``_shot(s)``: table, phone, big_showdown,
phone_turn, phone16, big_turn, phone16_turn, winner, other).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx
from playwright.sync_api import Browser

import oneline
import shots
from browser import (
    can_act,
    click_action,
    context,
    create_table,
    pause_on,
    paused,
    play_until_paused,
    resume,
    until,
)


def table_shots(browser: Browser, base: str, out: Path) -> None:
    page = context(browser, speed="normal", hints=False).new_page()
    create_table(page, base, "Astrid", seats=7, lives=3, timer="60")
    pause_on(page, ["round_start", "answer", "showdown"])
    page.click("#start-match")
    rng = random.Random(4)
    until(lambda: paused(page) == "round_start", 30, "the deal")
    time.sleep(0.2)
    shots.save(page, out / "deal.png")
    resume(page)
    pause_on(page, ["answer"])
    play_until_paused(page, "answer", rng)
    shots.save(page, out / "answer.png")
    resume(page)
    pause_on(page, ["round_end"])
    play_until_paused(page, "round_end", rng)
    time.sleep(0.3)
    shots.save(page, out / "showdown.png")
    resume(page)
    page.context.close()


def moment_shot(browser: Browser, base: str, path: Path, kind: str, *, name: str, seats: int,
                seed: int, phone: bool = False, lang: str = "en", hints: bool = False,
                speed: str = "normal", seconds: float = 90) -> None:
    """One person and bots at a new table, held at the first event of ``kind``."""
    page = context(browser, speed=speed, phone=phone, lang=lang, hints=hints).new_page()
    create_table(page, base, name, seats=seats, lives=3)
    pause_on(page, [kind])
    (page.tap if phone else page.click)("#start-match")
    play_until_paused(page, kind, random.Random(seed), seconds=seconds)
    time.sleep(0.3)
    shots.save(page, path)
    resume(page)
    page.context.close()


def phone_shot(browser: Browser, base: str, out: Path) -> None:
    """A phone in portrait, in Norwegian, at a matador's answer (a first game's hint)."""
    moment_shot(browser, base, out / "phone.png", "answer", name="Bjørn", seats=6, seed=9,
                phone=True, lang="nb", hints=True)


def big_showdown_shot(browser: Browser, base: str, out: Path) -> None:
    """Twenty seats at the showdown: every piece face up, the log's summary beside."""
    moment_shot(browser, base, out / "showdown20.png", "round_end", name="Astrid", seats=20,
                seed=6, speed="fast", seconds=180)


def phone_turn_shot(browser: Browser, base: str, out: Path) -> None:
    """A phone in portrait at its player's turn: the board, the piece, Stand and Swap."""
    page = context(browser, speed="fast", phone=True, lang="da", hints=False).new_page()
    create_table(page, base, "Dagny", seats=8, lives=3)
    page.tap("#start-match")
    until(lambda: can_act(page), 60, "Dagny's turn")
    time.sleep(0.4)
    shots.save(page, out / "phone-turn.png")
    page.context.close()


def phone16_shot(browser: Browser, base: str, out: Path) -> None:
    """A phone in portrait at a 16-seat table's showdown: every name whole, the piles
    between the seats' plates."""
    moment_shot(browser, base, out / "phone16.png", "round_end", name="Bjørn", seats=16,
                seed=3, phone=True, speed="fast", seconds=180)


def turn_shot(browser: Browser, base: str, path: Path, *, name: str, seats: int,
              phone: bool) -> None:
    """One person and bots at a new table, at that person's first turn."""
    page = context(browser, speed="fast", phone=phone, hints=False).new_page()
    create_table(page, base, name, seats=seats, lives=3)
    (page.tap if phone else page.click)("#start-match")
    until(lambda: can_act(page), 120, f"{name}'s turn")
    time.sleep(0.4)
    shots.save(page, path)
    page.context.close()


def big_turn_shot(browser: Browser, base: str, out: Path) -> None:
    """Forty-one seats on a desk at its player's turn: compact pieces, the bots' numbers,
    the player's name whole."""
    turn_shot(browser, base, out / "table41.png", name="Petronella", seats=41, phone=False)


def phone16_turn_shot(browser: Browser, base: str, out: Path) -> None:
    """A phone at a 16-seat table at its player's turn."""
    turn_shot(browser, base, out / "phone16-turn.png", name="Petronella", seats=16, phone=True)


def winner_shot(browser: Browser, base: str, out: Path) -> None:
    """The end of a match: the winner's panel with the standings and the record."""
    page = context(browser, speed="instant", hints=False).new_page()
    create_table(page, base, "Astrid", seats=6, lives=2, bots=5)
    page.click("#start-match")
    rng = random.Random(8)
    end = time.monotonic() + 180
    while not page.locator("#standings").count():
        if time.monotonic() > end:
            raise TimeoutError("the match did not end")
        if can_act(page):
            click_action(page, "swap" if rng.random() < 0.6 else "stand")
        time.sleep(0.05)
    time.sleep(0.6)  # the panel's pop
    shots.save(page, out / "winner.png")
    page.context.close()


def other_shots(browser: Browser, base: str, out: Path) -> None:
    page = context(browser, speed="instant").new_page()
    page.goto(f"{base}/")
    page.wait_for_selector("#create-form")
    page.fill("#name", "Astrid")
    shots.save(page, out / "start.png")
    # A finished match of bots, in the replay viewer.
    made = httpx.post(f"{base}/api/tables", json={"seats": 5, "turn_timer": None,
                                                   "options": {"lives": 2}}).json()
    httpx.post(f"{base}/api/tables/{made['id']}/start", json={},
               headers={"Authorization": f"Bearer {made['host_token']}"})
    page.goto(f"{base}/replay?table={made['id']}")
    page.wait_for_selector("#replay-next")
    for _ in range(4):
        page.click("#replay-next")
    time.sleep(0.3)
    shots.save(page, out / "replay.png")
    page.context.close()


SHOTS: dict[str, Callable[[Browser, str, Path], None]] = {
    "table": table_shots, "phone": phone_shot, "big_showdown": big_showdown_shot,
    "phone_turn": phone_turn_shot, "phone16": phone16_shot, "big_turn": big_turn_shot,
    "phone16_turn": phone16_turn_shot, "winner": winner_shot, "other": other_shots,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/screenshots.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots",
                        help="the directory for the PNGs (default docs/screenshots)")
    parser.add_argument("--only", default=None, metavar="NAME,...",
                        help=f"only these pictures ({', '.join(SHOTS)})")
    args = parser.parse_args(argv)
    only = list(SHOTS) if args.only is None else args.only.split(",")
    unknown = sorted(set(only) - set(SHOTS))
    if unknown:
        parser.error(f"--only: no picture {unknown[0]!r} (pictures: {', '.join(SHOTS)})")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with shots.served(creates_per_minute=1000) as (url, browser, _):
        for name in only:
            SHOTS[name](browser, url, out)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/screenshots.py"))
