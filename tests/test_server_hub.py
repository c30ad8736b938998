"""The hub's records of finished matches: built where the table is for a match of
ordinary size however long the table has been playing, in another process, from the
stored journal, for a big one; either way the record of the match just played."""

from __future__ import annotations

import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from gnav.record import loads
from gnav.verify import verify_text
from server_kit import (
    Player,
    SessionLink,
    TestClient,
    create,
    host,
    hub_of,
    join,
    play_out,
    serving,
)


def _journal_reads(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables whose journal the hub reads back from its store from now on."""
    store = hub_of(client).store
    journal = store.journal
    reads: list[str] = []

    async def counted(table_id: str) -> Any:
        reads.append(table_id)
        return await journal(table_id)

    monkeypatch.setattr(store, "journal", counted)
    return reads


def _players(client: TestClient, stack: ExitStack, seats: int = 2
             ) -> tuple[dict[str, Any], list[Player]]:
    """A table of ``seats`` people at 1 life (short matches), each connected."""
    created = create(client, seats=seats, options={"lives": 1})
    tid = created["id"]
    joined = [join(client, created, f"P{n}") for n in range(seats)]
    players = [Player(SessionLink(stack.enter_context(client.websocket_connect(f"/ws/{tid}"))),
                      f"P{n}", n).hello(j["token"]) for n, j in enumerate(joined)]
    return created, players


def _play(client: TestClient, created: dict[str, Any], players: list[Player],
          rng: random.Random) -> tuple[int, int]:
    """One match started and played out: the table's versions before and after it."""
    before = players[0].sync().version
    assert before is not None
    r = client.post(f"/api/tables/{created['id']}/start", headers=host(created))
    assert r.status_code == 200, r.text
    play_out(players, rng)
    after = players[0].version
    assert after is not None
    return before, after


def _verified(client: TestClient, tid: str, game: int) -> str:
    """The record of match ``game``, which verifies."""
    r = client.get(f"/api/tables/{tid}/record", params={"game": game})
    assert r.status_code == 200, r.text
    code, lines = verify_text(r.text, f"game{game}.json")
    assert code == 0, lines
    text: str = r.text
    return text


def test_a_long_lived_tables_matches_are_recorded_where_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each match here is a few versions long; the table's versions pass the limit after
    # some matches. Measured by the table's count, every match from then on was built
    # from the whole journal read back from the store (every earlier match's entries).
    limit = 40
    rng = random.Random(3)
    with serving(tmp_path, record_elsewhere=limit) as client, ExitStack() as stack:
        reads = _journal_reads(client, monkeypatch)
        created, players = _players(client, stack)
        sizes: list[int] = []
        while players[0].version is None or players[0].version < 2 * limit:
            assert len(sizes) < 200, "the table's versions never passed the limit"
            before, after = _play(client, created, players, rng)
            sizes.append(after - before)
        assert max(sizes) < limit, sizes  # every match an ordinary one
        assert reads == []
        last = _verified(client, created["id"], len(sizes))
        assert loads(last).seats == ("P0", "P1")


def test_a_big_match_is_recorded_from_the_stored_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    with serving(tmp_path, record_elsewhere=3) as client, ExitStack() as stack:
        reads = _journal_reads(client, monkeypatch)
        created, players = _players(client, stack)
        for game in (1, 2):
            before, after = _play(client, created, players, rng)
            assert after - before >= 3
            assert reads == [created["id"]] * game
        first, second = (_verified(client, created["id"], g) for g in (1, 2))
        assert first != second
