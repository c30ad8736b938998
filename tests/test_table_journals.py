"""Journals written by earlier versions of the table replay, and go on, unchanged.

The files of tests/journals/ were written by the table before its seeds were derived
one way (their README says by which commit). A server keeps such journals for ever, so
a table restored from one must deal the same rounds, and its bots must answer the same.
"""

from __future__ import annotations

import gzip
import json
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest

import gnav.strategies.match as match_module
from gnav.rules import Rules
from gnav.strategies import Strategy, shipped
from gnav.strategies.match import (
    FIRST_SET,
    MATCH_FORMAT,
    MATCH_SETS,
    NEWEST_STRATEGIES,
    match_options,
    shipped_match,
)
from gnav.table import Table, TableConfig
from gnav.table.journal import Entry, Raw, dump
from gnav.table.table import Pace
from gnav.verify import verify_text
from gnav.vocab import TablePhase

JOURNALS = sorted((Path(__file__).parent / "journals").glob("*.json"))
FAST = Pace(burst=100_000, seconds=1e9)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_there_are_old_journals() -> None:
    assert len(JOURNALS) >= 5


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: p.stem)
def test_an_old_journal_restores_to_its_match(path: Path) -> None:
    data = load(path)
    table = Table.restore(data["journal"])
    assert table.version == data["version"]
    assert table.games == data["games"]
    assert table.phase == TablePhase.FINISHED
    assert table.record() == data["records"][-1]
    for record in data["records"]:
        assert verify_text(json.dumps(record), path.name)[0] == 0


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: p.stem)
def test_a_table_restored_from_an_old_journal_goes_on_as_it_did(path: Path) -> None:
    data = load(path)
    journal = data["journal"][: data["cut"]]
    now = float(journal[-1]["t"]) + 5
    table = Table.restore(journal, now=now)
    table.pace, table.watched = FAST, False
    tokens = {int(s): t for s, t in data["tokens"].items()}
    for held, token in tokens.items():
        table.connect(held, token, None, now)
    after: list[Entry] = []
    while table.phase == TablePhase.PLAYING and table.match is not None:
        now += 1000
        seat = table.match.to_act
        if seat in tokens:
            legal = table.match.legal_actions()
            after += table.act(seat, tokens[seat], table.version, legal[-1], now).journal
        else:
            after += table.tick(now).journal
        assert len(after) <= len(data["after_cut"])
    assert [{k: v for k, v in e.items() if k != "t"} for e in dump(after)] == data["after_cut"]
    assert table.record() == data["record_after_cut"]


# -- the version of the match strategies a table's bots play (issue 29) ------------------

EXTRA = "cuccu-3-lives2"  # a match no version ships: the file a test ships itself


def _always_stand(path: Path, rules: Rules) -> None:
    """A match strategy file for cuccu's 3 seats at ``rules``' lives that stands at
    every state and information set (the keys those of the shipped round files of 3 and
    2 seats): an expert that plays it never swaps where it may stand."""
    seats, cap = 3, rules.options.lives + 1
    keys = {m: sorted(_round(rules, m).swap) for m in (2, 3)}
    states = []
    for lives in product(range(cap + 1), repeat=seats):
        out = [s for s in range(seats) if lives[s] == 0]
        alive = [s for s in range(seats) if lives[s] > 0]
        for k in range(len(alive) - 1):  # at least 2 dealt in
            for sitting in combinations(alive, k):
                states.append({"lives": list(lives), "out": out, "sitting_out": list(sitting),
                               "values": [1 / seats] * seats,
                               "swap": [0] * len(keys[len(alive) - k])})
    data = {"format": MATCH_FORMAT, "preset": "cuccu", "seats": seats,
            "lives": rules.options.lives, "cap": cap, "options": match_options(rules),
            "nash_conv": 0.0, "round_exploitability": 0.0, "scale": 1_000_000,
            "keys": {str(m): ks for m, ks in keys.items()}, "states": states}
    path.write_bytes(gzip.compress(json.dumps(data).encode()))


def _round(rules: Rules, seats: int) -> Strategy:
    strategy = shipped(rules, seats)
    assert strategy is not None
    return strategy


def _played(config: dict[str, Any], journal: list[Raw] | None = None) -> list[Raw]:
    """A table of bots created with ``config`` (or restored from ``journal``) played to
    the end of its match: its journal."""
    if journal is None:
        table, host, result = Table.create("versions", TableConfig.from_json(config, new=True),
                                           now=1000.0, seed=29)
        entries: list[Entry] = [*result.journal, *table.start(host, 1000.0).journal]
        journal = dump(entries)
    table = Table.restore(journal)
    table.pace, table.watched = FAST, False
    now, after = 2000.0, []
    while table.phase == TablePhase.PLAYING:
        now += 1000
        after += table.tick(now).journal
    return [*journal, *dump(after)]


def _acts(journal: list[Raw]) -> list[tuple[int, str]]:
    return [(e["seat"], e["action"]) for e in journal if e["op"] == "act"]


@pytest.mark.parametrize("version", [None, FIRST_SET], ids=["unsaid", "first"])
def test_a_stored_table_plays_its_own_strategies_when_a_match_file_ships_since(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int | None) -> None:
    config = {"preset": "cuccu", "seats": 3, "bot": "expert", "options": {"lives": 2}}
    rules = TableConfig.from_json(config, new=True).rules()
    # Before: no file for the match; the experts play the round strategy.
    before = _played(config)
    assert before[0]["strategies"] == NEWEST_STRATEGIES
    rounds = _played({**config, "bot": "expert-round"})
    assert _acts(before) == _acts(rounds) and ("swap" in {a for _, a in _acts(rounds)})
    # A file ships for it, in the newest version only.
    _always_stand(tmp_path / f"{EXTRA}.json.gz", rules)
    monkeypatch.setattr(match_module, "MATCH_HERE", tmp_path)
    monkeypatch.setitem(MATCH_SETS, NEWEST_STRATEGIES,
                        MATCH_SETS[NEWEST_STRATEGIES] | {EXTRA})
    assert shipped_match(rules, 3) is not None
    assert shipped_match(rules, 3, FIRST_SET) is None
    # A new table's experts play it ...
    new = _played(config)
    assert {a for _, a in _acts(new)} == {"stand"}
    # ... and a table stored before (of an older version, or none said) goes on as it
    # did: its experts play the round strategy, the answers they gave before.
    create = {k: v for k, v in before[0].items() if k != "strategies"}
    if version is not None:
        create["strategies"] = version
    cut = next(i for i, e in enumerate(before) if e["op"] == "start") + 4  # 3 decisions in
    old = [create, *before[1:cut]]
    assert old[-1]["op"] == "act"
    assert _acts(_played(config, old)) == _acts(rounds)
    assert Table.restore(old).strategies == FIRST_SET
