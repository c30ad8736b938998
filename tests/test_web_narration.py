"""The browser's narration reads the engine's table: /static/texts.json serves the
catalogue and the table, and narrate.js picks the same sentences for every event as the
Python reader does (gnav.texts.narration), fact by fact."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import itertools
import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser

from browser import context
from devserver import Running
from gnav.texts.catalogue import catalogue_json
from gnav.texts.narration import choose, narration_json
from gnav.web.steps import replay_steps

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()

RECORDS = Path(__file__).parent / "records"

# Each event under these facts (the reader's view of it), as either reader may hold them.
FACT_SETS = [dict(zip(("full", "dragged", "big", "tell_order"), v, strict=True))
             for v in itertools.product((False, True), repeat=4)]

CHOOSE = """async (cases) => {
  const i18n = await import("/static/js/i18n.js");
  const { choose } = await import("/static/js/narrate.js");
  await i18n.loadTexts();
  return cases.map(([e, facts, me]) => choose(e.type,
    (name) => (name in facts ? facts[name] : e[name]), me).map((alt) => alt.say + " " +
    JSON.stringify(alt.as || {})));
}"""


def _cases() -> list[tuple[dict[str, Any], dict[str, Any], str | None]]:
    cases = []
    for path in sorted(RECORDS.glob("*.json"))[::3]:
        steps = replay_steps(path.read_text(encoding="utf-8"))
        seats: list[str] = steps["seats"]
        events = [e for step in steps["steps"] for e in step["events"]]
        events.append({"type": "standin", "seat": seats[0], "how": "timer"})
        for e in events:
            for facts, me in itertools.product(FACT_SETS, (None, seats[0], seats[1])):
                extra = {"call": None if e.get("power") == "pass" else "«Hugg av!»",
                         "matador_reason": e.get("reason") not in ("lowest", "fool"),
                         "winner": (e.get("winners") or [None])[0]}
                cases.append((e, {**facts, **extra}, me))
    return cases


def _python(e: dict[str, Any], facts: dict[str, Any], me: str | None) -> list[str]:
    def get(name: str) -> object:
        return facts[name] if name in facts else e.get(name)

    return [f"{alt['say']} {json.dumps(alt.get('as', {}), separators=(',', ':'))}"
            for alt in choose(e["type"], get, me)]


def test_the_catalogue_and_the_table_are_served(server: Running) -> None:
    r = httpx.get(f"{server.url}/static/texts.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    data = r.json()
    assert data["sentences"] == catalogue_json()
    assert data["narration"] == json.loads(json.dumps(narration_json()))
    assert data["sentences"]["ev.pay"]["da"] == \
        "{seat} betaler et liv til puljen{why} ({lives} tilbage)."


def test_the_browser_picks_the_sentences_the_python_reader_picks(server: Running,
                                                                 browser: Browser) -> None:
    cases = _cases()
    assert len(cases) > 5000
    page = context(browser).new_page()
    page.goto(server.url)
    page.wait_for_selector("#create-form")
    said = page.evaluate(CHOOSE, cases)
    expected = [_python(*case) for case in cases]
    assert len(said) == len(expected)
    wrong = [(case, js, py) for case, js, py in zip(cases, said, expected, strict=True)
             if js != py]
    assert not wrong, wrong[:3]
    # Every kind of event was told, by more than one sentence somewhere.
    assert {case[0]["type"] for case in cases} >= {"round_start", "ask", "swap", "pay",
                                                   "showdown", "round_end", "match_end"}
    assert any(len(x) > 1 for x in expected)
    page.context.close()
