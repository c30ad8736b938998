"""The replay's Analysis button in Chromium: every decision against the expert, with its
cost and mark, and each seat's totals over the rounds shown; a round's decisions (which
tell of the pieces held) appear only once the replay reaches that round's end, where its
pieces are shown. The route's own limits: a record too costly to analyse is refused in
one line."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import gnav
from browser import context, until
from devserver import Running
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.web.analysis import analysis_json
from gnav.web.steps import ReplayError
from web_kit import record_path

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()


def _record() -> str:
    rules = Rules.of("gnav", lives=2)
    bots = [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2),
            gnav.make_bot("threshold", seed=3)]
    final = gnav.play_match(rules, ["Expert", "Random", "Tips"], bots, seed=8)
    return dumps(from_match(final))


def _listed(page: Page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(
        "#analysis-list li", "els => els.map(e => e.dataset.round)")]


def _shown(page: Page) -> int:
    return int(page.get_attribute("#analysis", "data-shown") or 0)


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("da", True)])
def test_the_analysis_follows_the_replay_round_by_round(server: Running, browser: Browser,
                                                        tmp_path: Path, lang: str,
                                                        phone: bool) -> None:
    text = _record()
    expected = analysis_json(text)
    rounds = len(json.loads(text)["rounds"])
    assert rounds >= 2 and expected["decisions"]
    page = context(browser, lang=lang, phone=phone).new_page()
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(record_path(tmp_path, text)))
    page.wait_for_selector("#replay-analyse")
    page.click("#replay-analyse")
    page.wait_for_selector("#analysis-none")  # at the first deal nothing is shown yet
    assert _listed(page) == []
    # Step through: at every step, only rounds already over are listed.
    steps = int(page.get_attribute("#replay-slider", "max") or 0)
    seen_rounds = set()
    for _ in range(steps):
        page.click("#replay-next")
        shown = _shown(page)
        listed = _listed(page)
        assert all(r <= shown for r in listed)
        where = page.text_content("#replay-where") or ""
        seen_rounds.add(shown)
        assert shown <= rounds, where
        if lang == "en" and shown:  # issue 26: it said "Rounds 1 of 14 shown"
            so_far = page.text_content("#analysis-so-far")
            assert so_far == (f"Shown so far: round 1 of {rounds}" if shown == 1
                              else f"Shown so far: rounds 1 to {shown} of {rounds}")
    assert _shown(page) == rounds
    assert len(_listed(page)) == len(expected["decisions"])
    # The totals at the end are the server's match totals.
    for name, total in expected["totals"].items():
        row = page.locator(f"#analysis-totals tr[data-seat='{name}'] td")
        assert row.nth(1).text_content() == str(total["decisions"])
        shown_cost = float((row.nth(2).text_content() or "").replace(",", ".").replace("−", "-"))
        assert shown_cost == pytest.approx(total["cost"], abs=0.006)
    assert expected["totals"]["Random"]["cost"] > expected["totals"]["Expert"]["cost"]
    assert len(seen_rounds) > 2  # it grew round by round, not all at once
    # Back to the start: nothing again.
    page.click("#replay-first")
    until(lambda: _shown(page) == 0 and _listed(page) == [], 5, "the analysis to empty")
    page.context.close()


def test_a_record_too_costly_to_analyse_here_is_refused_in_one_line() -> None:
    rules = Rules.of("gnav", lives=2)
    names = [f"P{i}" for i in range(6)]
    bots = [gnav.make_bot("threshold", seed=i) for i in range(6)]
    text = dumps(from_match(gnav.play_match(rules, names, bots, seed=3)))
    with pytest.raises(ReplayError) as e:
        analysis_json(text, most=3)
    assert e.value.code == "too_big"
    assert "gnav analyse" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ReplayError) as bad:
        analysis_json('{"gnav": 1}')
    assert bad.value.code == "bad_record"


def test_a_long_match_is_analysed_on_a_stated_sample_of_rounds_with_progress() -> None:
    """Issue 26: a match with more sampled decisions than one request may cost is not
    refused: a stated sample of its rounds is analysed (every k-th), in the server's
    worker process, with progress; every decision listed is in a round of the sample
    and the totals are over those rounds only."""
    rules = Rules.of("gnav", lives=2)
    names = [f"P{i}" for i in range(6)]
    bots = [gnav.make_bot("threshold", seed=i) for i in range(6)]
    text = dumps(from_match(gnav.play_match(rules, names, bots, seed=3)))
    seen: list[tuple[int, int]] = []
    got = analysis_json(text, budget=10, progress=lambda done, total: seen.append((done, total)))
    sample = got["analysed"]
    rounds = len(json.loads(text)["rounds"])
    assert sample is not None and sample["of"] == rounds and len(sample["rounds"]) < rounds
    every = sample["every"]
    assert sample["rounds"] == list(range(1, rounds + 1, every))
    assert {d["round"] for d in got["decisions"]} <= set(sample["rounds"])
    assert [r["round"] for r in got["rounds"]] == sample["rounds"]
    sampled = sum(1 for d in got["decisions"] if d["source"] == "sampled")
    assert 0 < sampled <= 10
    # Progress: from 0 up to every sampled decision, never backwards.
    assert seen[0] == (0, sampled) and seen[-1] == (sampled, sampled)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    for name, total in got["totals"].items():
        assert total["decisions"] == sum(1 for d in got["decisions"] if d["seat"] == name)
        luck = sum(r["luck"][name] for r in got["rounds"])
        assert total["luck"] == pytest.approx(luck, abs=1e-5)
    assert got["deals"]["most"] >= 1024


def test_a_long_match_shows_its_progress_then_a_stated_sample(
        server: Running, browser: Browser, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, in the browser: a match with more sampled decisions than one request
    may cost (the budget made small here) is analysed, not refused: the page shows the
    progress the server streams, then says which rounds the sample holds, and lists only
    their decisions."""
    import gnav.web.analysis as web_analysis

    monkeypatch.setattr(web_analysis, "BUDGET", 12)
    rules = Rules.of("gnav", lives=2)
    names = [f"P{i}" for i in range(6)]
    bots = [gnav.make_bot("threshold", seed=i) for i in range(6)]
    text = dumps(from_match(gnav.play_match(rules, names, bots, seed=3)))
    page = context(browser, lang="nb").new_page()
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(record_path(tmp_path, text)))
    page.wait_for_selector("#replay-analyse")
    # Whether the progress bar was ever on the page (it may come and go between polls).
    page.evaluate("""() => { window.sawProgress = false;
      new MutationObserver(() => { if (document.getElementById('analysis-progress'))
        window.sawProgress = true; }).observe(document.body,
                                             {subtree: true, childList: true}); }""")
    page.click("#replay-analyse")
    page.wait_for_selector("#analysis-none", timeout=120_000)
    assert page.evaluate("() => window.sawProgress")
    note = page.text_content("#analysis-sample") or ""
    assert "Et langt parti" in note
    page.click("#replay-last")
    page.wait_for_selector("#analysis-list li")
    got = analysis_json(text, budget=12)
    sample = got["analysed"]["rounds"]
    assert set(_listed(page)) <= set(sample)
    assert len(_listed(page)) == len(got["decisions"])
    page.context.close()


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("nb", True)])
def test_a_two_seat_match_is_analysed_in_chances_to_win_it(server: Running,
                                                            browser: Browser,
                                                            tmp_path: Path, lang: str,
                                                            phone: bool) -> None:
    """Issue 29: where a match strategy ships (2 seats of gnav at its lives), each
    decision also shows its chances to win the match and its Lichess mark, and each
    seat its accuracy, the server's figures; elsewhere (the test above) nothing."""
    rules = Rules.of("gnav")
    bots = [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2)]
    text = dumps(from_match(gnav.play_match(rules, ["Expert", "Random"], bots, seed=3)))
    expected = analysis_json(text)
    assert expected["decisions"] and all("win_mark" in d for d in expected["decisions"])
    page = context(browser, lang=lang, phone=phone).new_page()
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(record_path(tmp_path, text)))
    page.wait_for_selector("#replay-analyse")
    page.click("#replay-analyse")
    page.wait_for_selector("#analysis-win-help")
    page.click("#replay-last")
    until(lambda: len(_listed(page)) == len(expected["decisions"]), 10, "every decision")
    marks = page.eval_on_selector_all(
        "#analysis-list li", "els => els.map(e => e.querySelector('.analysis-win-mark')"
        ".dataset.mark)")
    assert marks == [d["win_mark"] for d in expected["decisions"]]
    words = {"en": "To win the match", "nb": "Å vinne partiet"}[lang]
    assert words in (page.text_content("#analysis-list") or "")
    for name, total in expected["totals"].items():
        cell = page.locator(f"#analysis-totals tr[data-seat='{name}'] td.analysis-accuracy")
        shown = float((cell.text_content() or "").rstrip("%").replace(",", "."))
        assert shown == pytest.approx(total["accuracy"], abs=0.06)
    page.context.close()
