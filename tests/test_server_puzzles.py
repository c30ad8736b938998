"""``gnav serve --grow-puzzles FILE``: a finished listed match's puzzles are added to the
host's file and served by /api/puzzles after the shipped ones; an unlisted match's are
not, and without the setting nothing is written."""

from __future__ import annotations

from pathlib import Path

from gnav.learn.puzzles import cut, load, read_grown
from gnav.record import parse
from gnav.table.table import Pace
from server_kit import create, eventually, host, hub_of, serving

QUICK = Pace(burst=10_000, seconds=5.0, watched=0.0, idle=0.0, duty=1.0)


def _play_out(client: object, listed: bool) -> str:
    created = create(client, seats=3, listed=listed, bot="threshold",  # type: ignore[arg-type]
                     options={"lives": 2})
    r = client.post(f"/api/tables/{created['id']}/start",  # type: ignore[attr-defined]
                    headers=host(created))
    assert r.status_code == 200, r.text
    tid: str = created["id"]
    eventually(lambda: client.get(f"/api/tables/{tid}").json()["phase"]  # type: ignore[attr-defined]
               == "finished", seconds=60)
    return tid


def test_a_finished_listed_match_grows_the_puzzles_served(tmp_path: Path) -> None:
    grown = tmp_path / "grown.jsonl"
    shipped = load()["count"]
    with serving(tmp_path, grow_puzzles=str(grown), pace=QUICK) as client:
        _play_out(client, listed=False)
        tid = _play_out(client, listed=True)
        # The file holds the listed match's puzzles, as gnav puzzles cuts its record, and
        # nothing of the unlisted one, which finished first.
        record = client.get(f"/api/tables/{tid}/record").json()
        expected = [p["id"] for p in cut([(f"{tid}-1", parse(record))]).puzzles]
        eventually(lambda: [p["id"] for p in read_grown(grown)] == expected
                   and not hub_of(client)._growing, seconds=60)
        puzzles = read_grown(grown)
        assert {p["from"]["record"] for p in puzzles} <= {f"{tid}-1"}
        index = client.get("/api/puzzles").json()
        new = [p for p in puzzles if p["id"] not in {q["id"] for q in load()["puzzles"]}]
        assert index["count"] == shipped + len(new) and index["grown"] == len(new)
        if new:
            assert client.get(f"/api/puzzles?n={shipped}").json()["id"] == new[0]["id"]


def test_without_the_setting_nothing_is_grown(tmp_path: Path) -> None:
    with serving(tmp_path, pace=QUICK) as client:
        _play_out(client, listed=True)
        assert client.get("/api/puzzles").json()["grown"] == 0
    assert list(tmp_path.glob("*.jsonl")) == []
