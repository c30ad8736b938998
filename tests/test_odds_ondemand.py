"""Tables made on demand (gnav.odds.ondemand): which can be, the lock, the making."""

from __future__ import annotations

import gzip
import json
import os
import time
from pathlib import Path

import pytest

import gnav.odds.ondemand as ondemand
from gnav.odds.ondemand import LOCK, STALE, atlas_path, make, read_lock, take_lock, why_not
from gnav.odds.source import atlas
from gnav.rules import Rules


def test_which_tables_can_be_made() -> None:
    gnav = Rules.of("gnav")
    assert why_not(gnav, 2) is None and why_not(gnav, 41) is None
    assert why_not(gnav, 42) == "size" and why_not(gnav, 1) == "size"
    # The game allows 45 seats; the page stops at 41.
    assert why_not(Rules.of("chase-the-ace"), 45) == "size"
    assert why_not(Rules.of("gnav-summary"), 2) == "size"


def test_a_table_only_the_reference_engine_could_make_is_not_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ondemand, "engine", lambda rules, seats, policy: "reference")
    assert why_not(Rules.of("gnav"), 7) == "slow"
    monkeypatch.setattr(ondemand, "_installed", lambda *modules: False)
    assert why_not(Rules.of("gnav"), 7) == "numpy"


def test_the_lock_is_one_table_at_a_time_and_a_dead_makers_is_taken_over(
        tmp_path: Path) -> None:
    assert take_lock(tmp_path, "gnav", 7)
    assert not take_lock(tmp_path, "gnav", 8)
    held = read_lock(tmp_path)
    assert held is not None and (held["preset"], held["seats"]) == ("gnav", 7)
    old = time.time() - STALE - 5
    os.utime(tmp_path / LOCK, (old, old))
    assert read_lock(tmp_path) is None
    assert take_lock(tmp_path, "gnav", 8)
    held = read_lock(tmp_path)
    assert held is not None and held["seats"] == 8


def test_make_writes_the_atlas_reports_progress_and_lets_the_lock_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    states: list[dict[str, object]] = []
    real = ondemand._write_state

    def spy(directory: Path, state: dict[str, object]) -> None:
        states.append(state)
        real(directory, state)

    monkeypatch.setattr(ondemand, "_write_state", spy)
    assert take_lock(tmp_path, "gnav", 2)
    path = make("gnav", 2, tmp_path)
    assert path == atlas_path(tmp_path, "gnav", 2)
    made = json.loads(gzip.decompress(path.read_bytes()))
    assert made == atlas(Rules.of("gnav"), 2, "expert").as_json()
    assert not (tmp_path / LOCK).exists()
    assert states and states[-1]["done"] == states[-1]["total"]
    assert {(s["preset"], s["seats"]) for s in states} == {("gnav", 2)}


def test_the_command_line_refuses_what_it_cannot_make(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert ondemand.main(["gnav"]) == 2
    assert ondemand.main(["gnav", "42", str(tmp_path)]) == 1
    assert ondemand.main(["nope", "5", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "usage:" in err and "not made here (size)" in err and "nope" in err
    assert not (tmp_path / LOCK).exists()


def test_a_lock_is_let_go_only_by_its_holder_and_for_its_table(tmp_path: Path) -> None:
    assert take_lock(tmp_path, "gnav", 7)
    held = read_lock(tmp_path)
    assert held is not None
    ondemand.release(tmp_path, "gnav", 7, [held["pid"] + 1])  # not its holder
    ondemand.release(tmp_path, "gnav", 8, [held["pid"]])  # not its table
    assert read_lock(tmp_path) == held
    ondemand.release(tmp_path, "gnav", 7, [held["pid"]])
    assert read_lock(tmp_path) is None and not (tmp_path / LOCK).exists()
