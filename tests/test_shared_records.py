"""Every shared worked record verifies, and a corrupted result is caught (RECORD.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gnav.verify import verify_file, verify_text

RECORDS = Path(__file__).resolve().parents[1].parent / "shared" / "records"


def _files() -> list[str]:
    if not RECORDS.is_dir():
        return []
    return sorted(p.name for p in RECORDS.iterdir() if p.is_file())


FILES = _files()


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def _rounds_with_lives() -> list[tuple[str, int]]:
    cases: list[tuple[str, int]] = []
    for name in FILES:
        for k, rd in enumerate(_load(name)["rounds"], 1):
            if isinstance(rd, dict) and rd.get("result", {}).get("lives"):
                cases.append((name, k))
    return cases


ROUND_CASES = _rounds_with_lives()


def test_the_shared_records_are_there() -> None:
    assert RECORDS.is_dir(), f"no shared records at {RECORDS}"
    assert len(FILES) >= 10
    assert all(name.endswith(".json") for name in FILES)


def test_every_shared_record_states_results() -> None:
    # Otherwise verifying them would prove nothing.
    for name in FILES:
        for rd in _load(name)["rounds"]:
            assert "result" in rd, name
            assert set(rd["result"]) == {"hands", "lives", "sit_out", "ended_by"}, name


@pytest.mark.parametrize("name", FILES)
def test_shared_record_verifies(name: str) -> None:
    code, lines = verify_file(str(RECORDS / name))
    assert code == 0, lines
    assert len(lines) == 1
    assert lines[0].startswith(f"{name}: ok")


@pytest.mark.parametrize("name", FILES)
def test_shared_record_verifies_from_text(name: str) -> None:
    code, lines = verify_text((RECORDS / name).read_text(encoding="utf-8"), name)
    assert (code, len(lines)) == (0, 1), lines
    assert name in lines[0]


@pytest.mark.parametrize(("name", "k"), ROUND_CASES)
def test_corrupted_lives_are_caught(name: str, k: int, tmp_path: Path) -> None:
    data = _load(name)
    lives: dict[str, int] = data["rounds"][k - 1]["result"]["lives"]
    seat = next(iter(lives))
    right = lives[seat]
    lives[seat] = right + 1
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines = verify_file(str(path))
    assert code == 1
    assert lines == [
        f"{name}: round {k}: lives of {seat}: record says {right + 1}, engine computes {right}"
    ]


@pytest.mark.parametrize("name", FILES)
def test_corrupting_the_last_seat_of_the_first_round(name: str) -> None:
    data = _load(name)
    lives: dict[str, int] = data["rounds"][0]["result"]["lives"]
    seat = list(lives)[-1]
    right = lives[seat]
    lives[seat] = right + 1
    code, lines = verify_text(json.dumps(data), name)
    assert code == 1
    assert lines == [
        f"{name}: round 1: lives of {seat}: record says {right + 1}, engine computes {right}"
    ]


def test_every_round_of_every_record_is_corrupted_somewhere() -> None:
    total = sum(len(_load(name)["rounds"]) for name in FILES)
    assert len(ROUND_CASES) == total
