"""A record that replays but states results the engine disagrees with: gnav replay and
the browser's replay both open it, with the same warning, worded once in gnav.verify."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devserver import with_client
from gnav.cli import main
from gnav.record import Replay, loads, replay
from gnav.verify import WARNING, results_warning, results_warnings
from recordkit import RECORDS, disagreeing_record
from server_kit import TestClient, make_app


def replayed(text: str) -> Replay:
    return replay(loads(text))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_warning_names_each_disagreement() -> None:
    warning = results_warning(replayed(disagreeing_record()))
    assert warning == (
        "The results this record states disagree with the rules; the replay shows what the "
        "rules compute. round 1: lives of B: record says 3, engine computes 1; result: "
        "winners: record says [B], engine computes [C].")
    both = results_warnings(replayed(disagreeing_record()))
    assert both is not None and set(both) == set(WARNING) == {"en", "nb", "da"}
    assert both["nb"].startswith("Resultatene dette partiet oppgir")
    assert results_warning(replayed(
        (RECORDS / "hc-06-two-fools.json").read_text(encoding="utf-8"))) is None


def test_many_disagreements_are_counted_not_listed() -> None:
    data: dict[str, Any] = json.loads(
        (RECORDS / "hc-21-sit-out-and-rotation.json").read_text(encoding="utf-8"))
    for rd in data["rounds"]:
        for seat in rd["result"]["lives"]:
            rd["result"]["lives"][seat] += 7
    warning = results_warning(replayed(json.dumps(data)))
    assert warning is not None
    # Five seats' lives in each of three rounds (sitting-out seats count): 15, 3 named.
    assert warning.count("record says") == 3 and warning.endswith(" (12 more.)")


def test_gnav_replay_opens_it_with_the_warning(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wrong.json"
    path.write_text(disagreeing_record(), encoding="utf-8")
    code = main(["replay", str(path), "--all"])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    warning = results_warning(replayed(disagreeing_record()))
    assert warning is not None and _flat(warning) in _flat(out.out)
    assert "C won the match." in out.out  # what the rules compute, not what it says


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(with_client(make_app(tmp_path))) as c:
        yield c


def test_the_browser_replay_gets_the_same_words(client: TestClient) -> None:
    text = disagreeing_record()
    r = client.post("/api/replay", content=text.encode())
    assert r.status_code == 200
    body = r.json()
    assert body["warning"] == results_warning(replayed(text))
    assert body["warnings"] == results_warnings(replayed(text))
    assert body["winners"] == ["C"]


def test_a_record_that_does_not_replay_is_refused_by_both(
        tmp_path: Path, client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = json.loads(disagreeing_record())
    data["rounds"][1]["dealer"] = "C"  # the rotation gives B
    text = json.dumps(data)
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path), "--all"]) == 2
    err = capsys.readouterr().err
    said = "round 2: dealer: record says C, engine computes B"
    assert err == f"gnav replay: broken.json: {said}\n"
    r = client.post("/api/replay", content=text.encode())
    assert r.status_code == 400
    assert r.json()["error"] == {"code": "inconsistent", "reason": f"record: {said}"}


def test_each_replay_replays_the_record_once(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """The web and terminal replays and gnav verify replay a record once, and the
    warning reads that replay: it parses nothing and replays nothing of its own."""
    import gnav.tui.viewer
    import gnav.verify
    import gnav.web.steps

    calls: list[str] = []

    def counting(where: str) -> Any:
        def replay_once(record: Any) -> Replay:
            calls.append(where)
            return replay(record)
        return replay_once

    for module in (gnav.tui.viewer, gnav.verify, gnav.web.steps):
        monkeypatch.setattr(module, "replay", counting(module.__name__))
    text = disagreeing_record()
    body = gnav.web.steps.replay_steps(text)
    assert body["warning"] is not None and calls == ["gnav.web.steps"]
    calls.clear()
    path = tmp_path / "wrong.json"
    path.write_text(text, encoding="utf-8")
    _, warning = gnav.tui.viewer.load(str(path))
    assert warning is not None and calls == ["gnav.tui.viewer"]
    calls.clear()
    assert gnav.verify.verify_text(text, "wrong.json")[0] == gnav.verify.INCONSISTENT
    assert calls == ["gnav.verify"]
