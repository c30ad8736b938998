"""Journals written by earlier versions of the table replay, and go on, unchanged.

The files of tests/journals/ were written by the table before its seeds were derived
one way (their README says by which commit). A server keeps such journals for ever, so
a table restored from one must deal the same rounds, and its bots must answer the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gnav.table import Table
from gnav.table.journal import Entry, dump
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
