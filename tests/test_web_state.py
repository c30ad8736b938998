"""The table page's one store (static/js/state.js), run in the browser: the server's view
is the last word over the events, the log keeps its last entries and starts again with a
snapshot, a hint goes when its moment has passed, stand-ins are noted until the person
plays again, and a new match forgets what the last one showed. And names.js knows a bot
by its name for every bot kind the server has."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from browser import context
from devserver import Running
from gnav.bots.registry import BOT_KINDS
from gnav.web.routes import STATIC

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()

# A table of three in its first round, as the server describes it; Ann reads it (seat 0).
SETUP = """
  const S = await import('/static/js/state.js');
  const sel = await import('/static/js/select.js');
  const info = (phase = 'playing', games = 1) => ({ phase, games, timer_left: null,
    seats: [{kind: 'human', name: 'Ann', connected: true},
            {kind: 'human', name: 'Bo', connected: true},
            {kind: 'bot', name: 'Threshold bot 3', connected: true}],
    config: {preset: 'gnav', options: {}, look: 'pawns', lang: null, score: null,
             turn_timer: null}});
  const deal = {type: 'round_start', round: 1, dealer: 'Threshold bot 3',
                order: ['Ann', 'Bo', 'Threshold bot 3'], stock: 10, piece: 'cat'};
  const view = (over = {}) => ({events: [], lives: {Ann: 4, Bo: 4, 'Threshold bot 3': 4},
    piece: 'cat', stock_left: 10, out: [], sitting_out: [], to_act: 'Ann', winners: null,
    dealer: 'Threshold bot 3', order: ['Ann', 'Bo', 'Threshold bot 3'], round: 1,
    knocked: [], legal: ['stand', 'swap'], ...over});
  const store = S.tableStore();
  const start = (fresh = true, v = view()) => {
    store.dispatch({type: 'snapshot', table: info(), at: 0, you: 0, version: 1, view: v, fresh});
    for (const e of v.events) store.dispatch({type: 'event', event: e});
    store.dispatch({type: 'view', view: v});
  };
"""


@pytest.fixture(scope="module")
def page(server: Running, browser: Browser) -> Page:
    p = context(browser).new_page()
    p.goto(f"{server.url}/")
    p.wait_for_selector("#create-form")
    return p


def run(page: Page, body: str) -> Any:
    """``body`` run after SETUP, in the page (its modules are the page's own)."""
    return page.evaluate(f"async () => {{ {SETUP}\n{body} }}")


def test_the_view_is_the_last_word_over_the_events(page: Page) -> None:
    got = run(page, """
      start(true, view({events: [deal, {type: 'stand', seat: 'Ann'}], piece: 'fool',
                        to_act: 'Bo', lives: {Ann: 3, Bo: 4, 'Threshold bot 3': 2},
                        knocked: ['Bo'], stock_left: 9}));
      const st = store.state.round;
      return {piece: st.myPiece, toAct: st.toAct, lives: st.lives, knocked: [...st.knocked],
              acted: [...st.acted], stock: st.stockLeft, log: store.state.log.map((x) => x.e.type),
              me: store.state.log[0].me, ann: sel.canAct(store.state, 'stand')};""")
    # The events said the cat was dealt and Ann stood; the view says more, and wins.
    assert got["piece"] == "fool" and got["toAct"] == "Bo" and got["stock"] == 9
    assert got["lives"] == {"Ann": 3, "Bo": 4, "Threshold bot 3": 2}
    assert got["knocked"] == ["Bo"] and got["acted"] == ["Ann"]
    assert got["log"] == ["round_start", "stand"] and got["me"] == "Ann"
    assert got["ann"] is False  # not her turn


def test_the_reader_may_act_only_when_nothing_else_is_going_on(page: Page) -> None:
    got = run(page, """
      start();
      const s = store.state, out = {free: sel.canAct(s, 'swap')};
      store.dispatch({type: 'busy', moving: true});
      out.moving = sel.canAct(s, 'swap');
      store.dispatch({type: 'busy', moving: false, pumping: true});
      out.pumping = sel.canAct(s, 'swap');
      store.dispatch({type: 'busy', pumping: false});
      store.dispatch({type: 'pending', action: 'swap'});
      out.pending = sel.canAct(s, 'swap');
      store.dispatch({type: 'pending', action: null});
      store.dispatch({type: 'view', view: view({legal: ['swap']})});
      out.illegal = sel.canAct(s, 'stand');
      out.legal = sel.canAct(s, 'swap');
      return out;""")
    assert got == {"free": True, "moving": False, "pumping": False, "pending": False,
                   "illegal": False, "legal": True}


def test_the_log_keeps_its_last_entries_and_a_snapshot_starts_it_again(page: Page) -> None:
    got = run(page, """
      start();
      for (let i = 0; i < S.LOG_MAX + 25; i++) store.dispatch({type: 'event',
        event: {type: 'stand', seat: 'Bo'}});
      const s = store.state, ns = s.log.map((x) => x.n);
      const out = {max: S.LOG_MAX, length: s.log.length, first: ns[0], last: ns[ns.length - 1],
                   rising: ns.every((n, i) => i === 0 || n === ns[i - 1] + 1), epoch: s.logEpoch};
      start(false);
      out.after = s.log.length;
      out.epochAfter = s.logEpoch;
      return out;""")
    assert got["length"] == got["max"] and got["rising"]
    assert got["last"] - got["first"] == got["max"] - 1
    assert got["after"] == 0 and got["epochAfter"] == got["epoch"] + 1


def test_a_hint_goes_when_its_moment_has_passed(page: Page) -> None:
    got = run(page, """
      const text = () => 'x';
      const out = {};
      start();
      store.dispatch({type: 'hint', hint: {id: 'first_turn', text}});
      store.dispatch({type: 'expire'});
      out.atTurn = store.state.hint && store.state.hint.id;
      store.dispatch({type: 'pending', action: 'stand'});
      out.sent = store.state.hint;
      // A turn's hint goes once the turn is someone else's; another hint stays for the round.
      start(false);
      store.dispatch({type: 'hint', hint: {id: 'first_turn', text}});
      store.dispatch({type: 'view', view: view({to_act: 'Bo'})});
      out.turnHeld = store.state.hint && store.state.hint.id;  // not until the page is drawn
      store.dispatch({type: 'expire'});
      out.turnPassed = store.state.hint;
      store.dispatch({type: 'hint', hint: {id: 'answered:cat', text}});
      store.dispatch({type: 'expire'});
      out.answered = store.state.hint && store.state.hint.id;
      store.dispatch({type: 'event', event: {type: 'round_end', ended_by: 'turns',
        lives: {Ann: 4, Bo: 3, 'Threshold bot 3': 4}, sit_out: []}});
      store.dispatch({type: 'expire'});
      out.roundOver = store.state.hint;
      // Her own decision, played by whoever, ends her turn's hint at once.
      start(false);
      store.dispatch({type: 'hint', hint: {id: 'dealer', text}});
      store.dispatch({type: 'decision', seat: 'Ann', by: null});
      out.decided = store.state.hint;
      return out;""")
    assert got == {"atTurn": "first_turn", "sent": None, "turnHeld": "first_turn",
                   "turnPassed": None, "answered": "answered:cat", "roundOver": None,
                   "decided": None}


def test_stand_ins_are_noted_until_the_person_plays_again(page: Page) -> None:
    got = run(page, """
      start();
      store.dispatch({type: 'decision', seat: 'Bo', by: {seat: 'Bo', how: 'timer'}});
      store.dispatch({type: 'decision', seat: 'Ann', by: {seat: 'Ann', how: 'standin'}});
      store.dispatch({type: 'decision', seat: 'Bo', by: {seat: 'Bo', how: 'standin'}});
      const out = {notes: [...store.state.notes],
                   log: store.state.log.map((x) => [x.e.type, x.e.seat, x.e.how])};
      store.dispatch({type: 'decision', seat: 'Ann', by: null});
      out.after = [...store.state.notes];
      return out;""")
    assert got["notes"] == [["Ann", "standin"], ["Bo", "standin"]]  # the latest last
    assert got["log"] == [["standin", "Bo", "timer"], ["standin", "Ann", "standin"],
                          ["standin", "Bo", "standin"]]
    assert got["after"] == [["Bo", "standin"]]


def test_a_new_match_forgets_what_the_last_showed_and_a_reconnection_does_not(page: Page) -> None:
    got = run(page, """
      const text = () => 'x';
      const load = () => {
        store.dispatch({type: 'hint', hint: {id: 'answered:cat', text}});
        store.dispatch({type: 'decision', seat: 'Bo', by: {seat: 'Bo', how: 'timer'}});
        store.dispatch({type: 'win_closed'});
      };
      const seen = () => [Boolean(store.state.hint), store.state.notes.size, store.state.winClosed];
      start();
      load();
      start(false);
      const again = seen();
      start(true);
      return {again, fresh: seen()};""")
    assert got == {"again": [True, 1, True], "fresh": [False, 0, False]}


def test_an_unknown_action_is_an_error_not_ignored(page: Page) -> None:
    got = run(page, """
      try { store.dispatch({type: 'nonsense'}); return null; } catch (e) { return e.message; }""")
    assert got == "state: no action nonsense"


def test_every_bot_kind_of_the_server_is_a_bot_by_its_name(page: Page) -> None:
    names = [f"{kind.capitalize()} bot 5" for kind in BOT_KINDS]
    got = page.evaluate("""async (names) => {
      const { botNumber } = await import('/static/js/names.js');
      return [names.map(botNumber), ['Bot 7', 'Astrid', 'Robot 5', 'Bot 5 x'].map(botNumber)];
    }""", names)
    assert got == [["5"] * len(BOT_KINDS), ["7", None, None, None]]



def test_every_bot_kind_has_its_names_in_every_language(page: Page) -> None:
    """A kind's bot name reads back as that kind ("Expert-round bot 5" is expert-round's),
    and the page has its names (the start page's choice, the kind, the bot's name) in
    English, Norwegian and Danish (issue 29's expert-round among them)."""
    kinds = [str(kind) for kind in BOT_KINDS]
    got = page.evaluate("""async (kinds) => {
      const { botKind } = await import('/static/js/names.js');
      const { has } = await import('/static/js/i18n.js');
      return kinds.map((k) => [botKind(k.charAt(0).toUpperCase() + k.slice(1) + ' bot 5'),
        ['bot.', 'kind.', 'seat.bot_'].every((p) => has(p + k))]);
    }""", kinds)
    assert got == [[k, True] for k in kinds]
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    for kind in kinds:
        for prefix in ("bot.", "kind.", "seat.bot_"):
            body = re.search(rf'^  "{re.escape(prefix + kind)}": \{{(.*?)\}},?$', source,
                             re.S | re.M)
            assert body is not None, prefix + kind
            assert all(f"{lang}: " in body.group(1) for lang in ("en", "nb", "da"))
