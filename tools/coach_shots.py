"""``python tools/coach_shots.py [DIR]``: the browser's coach and the replay's analysis in
Debian's Chromium, on the decisions of issue 26, saved as PNGs to DIR (default
docs/screenshots):

- coach-desktop-en.png: a desktop (1280×860) in English, the reader at seat 1 of 6 (the
  dealer's left) holding II;
- coach-phone-nb.png: a phone (390×844) in Norwegian, the reader the dealer holding V
  after five stands;
- analysis-desktop-en.png and analysis-phone-nb.png: each of those matches played out
  (the reader stands, then swaps at every later turn, beside five bots), replayed to the
  end of its first round with the analysis open: the decision the coach was asked about
  is in its list, with the same figures.

The tables are dealt by their seed: the tool finds one that deals the reader the piece
and the seat wanted (the table's own engine, offline), and the server it runs draws that
seed for the next table it creates.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from unittest import mock

from playwright.sync_api import Browser, Page

import oneline
import shots
from browser import can_act, click_action, context, create_table, until
from gnav.events import Ask
from gnav.names import parse_name
from gnav.table import Table, TableConfig
from gnav.views import seat_view
from gnav.vocab import TablePhase

SEATS = 6
LIVES = 1
T0 = 1000.0
# (language, phone, the reader's position from the dealer's left, the piece held then)
SHOTS = (("en", False, 0, "2"), ("nb", True, SEATS - 1, "5"))


def coached(page: Page) -> bool:
    return page.get_attribute("#coach", "data-state") in ("advice", "none")


def _first_turn(seed: int) -> tuple[int, str] | None:
    """(position, piece) of the reader (seat 0, "Astrid") at their first decision at a
    table of seed ``seed`` set up as the start page does (create, join, bots, start)."""
    cfg = TableConfig.from_json({"seats": SEATS, "options": {"lives": LIVES}})
    table, host, _ = Table.create("shots", cfg, now=T0, seed=seed)
    seat, _, _ = table.join(parse_name("Astrid"), T0)
    for _ in range(SEATS - 1):
        table.add_bot(host, None, T0)
    table.start(host, T0)
    now = T0
    for _ in range(200):
        match = table.match
        if table.phase != TablePhase.PLAYING or match is None or match.round is None \
                or match.rounds > 1:  # the first round only: all six seats in it
            return None
        if match.to_act == seat:
            view = seat_view(match, seat)
            # A plain turn: no fool knocked, every seat before stood.
            if view.knocked or view.piece is None or \
                    any(isinstance(e, Ask) for e in view.events):
                return None
            return view.order.index(seat), view.piece
        if match.to_act is None:
            return None
        now += 0.5
        table.tick(now)
    return None


def find_seed(position: int, piece: str) -> int:
    for seed in range(1, 100_000):
        if _first_turn(seed) == (position, piece):
            return seed
    raise SystemExit(f"no seed deals the reader {piece} at position {position}")


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """The next tables the server creates draw ``seed``."""
    with mock.patch("gnav.table.table.secrets.randbits", return_value=seed):
        yield


def play_out(page: Page, url: str, tid: str) -> None:
    """The reader stands at the first decision (the expert's choice in both shots) and
    swaps at every later one, until the match ends."""
    turns = 0
    for _ in range(2000):
        phase = json.loads(urllib.request.urlopen(f"{url}/api/tables/{tid}").read())["phase"]
        if phase == "finished":
            return
        if not can_act(page):
            page.wait_for_timeout(30)
            continue
        click_action(page, "stand" if turns == 0 else "swap")
        turns += 1
        page.wait_for_timeout(30)
    raise SystemExit("the match did not end")


def shoot_coach(browser: Browser, url: str, out: Path, lang: str, phone: bool,
                position: int, piece: str) -> str:
    """The coach at the reader's first decision; returns the table's id, played out."""
    seed = find_seed(position, piece)
    page = context(browser, lang=lang, phone=phone, coach=True, hints=False).new_page()
    with seeded(seed):
        tid = create_table(page, url, "Astrid", seats=SEATS, lives=LIVES, bots=SEATS - 1)
    page.click("#start-match")
    until(partial(can_act, page), 30, "the reader's turn")
    until(partial(coached, page), 120, "the coach")
    shots.save(page, out / f"coach-{'phone' if phone else 'desktop'}-{lang}.png")
    play_out(page, url, tid)
    page.context.close()
    return tid


def shoot_analysis(browser: Browser, url: str, tmp: Path, out: Path, lang: str,
                   phone: bool, tid: str) -> None:
    record = tmp / f"{tid}.json"
    record.write_bytes(urllib.request.urlopen(f"{url}/api/tables/{tid}/record").read())
    page = context(browser, lang=lang, phone=phone).new_page()
    page.goto(f"{url}/replay")
    page.set_input_files("#record-file", str(record))
    page.click("#replay-analyse")
    page.wait_for_selector("#analysis-none", timeout=300_000)
    for _ in range(400):  # to the end of the first round, where its decisions show
        if int(page.get_attribute("#analysis", "data-shown") or 0) >= 1:
            break
        page.click("#replay-next")
    page.wait_for_selector("#analysis-list li")
    if phone:  # the analysis, under the board and the log
        page.locator("#analysis").scroll_into_view_if_needed()
    # The reader's decision, the one the coach was asked about, in view in its list.
    page.locator("#analysis-list li[data-seat='Astrid']").first.scroll_into_view_if_needed()
    if not phone:  # a whole page is shot from its top
        page.evaluate("window.scrollTo(0, 0)")
    shots.save(page, out / f"analysis-{'phone' if phone else 'desktop'}-{lang}.png",
         full_page=not phone)
    page.context.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/coach_shots.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with shots.served() as (url, browser, tmp):
        for lang, phone, position, piece in SHOTS:
            tid = shoot_coach(browser, url, out, lang, phone, position, piece)
            shoot_analysis(browser, url, tmp, out, lang, phone, tid)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/coach_shots.py"))
