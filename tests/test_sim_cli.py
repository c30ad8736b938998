"""``gnav simulate``: reproducible from its seed, its JSON and CSV shapes, its errors."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gnav.cli import main
from gnav.sim.report import CSV_COLUMNS


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code: int | str | None = main(["simulate", *argv])
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    assert isinstance(code, int)
    return code, captured.out, captured.err


def summary(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def est_ok(e: dict[str, Any]) -> None:
    assert set(e) == {"value", "low", "high", "n"}
    assert e["low"] <= e["value"] <= e["high"]


# -- reproducibility ---------------------------------------------------------------

def test_rounds_reproduce_from_the_seed_whatever_the_jobs(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--rounds", "450", "--bots", "threshold,random,threshold", "--seed", "7"]
    one = run([*argv, "--jobs", "1", "--json"], capsys)
    again = run([*argv, "--jobs", "1", "--json"], capsys)
    two = run([*argv, "--jobs", "2", "--json"], capsys)
    assert one[0] == 0
    assert one[1] == again[1] == two[1]
    other = run(["--rounds", "450", "--bots", "threshold,random,threshold", "--seed", "8",
                 "--json"], capsys)
    assert other[1] != one[1]


def test_matches_reproduce_from_the_seed_whatever_the_jobs(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--matches", "25", "--bots", "random,threshold,threshold", "--seed", "3"]
    one = summary([*argv, "--jobs", "1"], capsys)
    two = summary([*argv, "--jobs", "2"], capsys)
    assert one == two
    assert one["matches"] == 25


def test_challenger_reproduces_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--field", "threshold", "--challenger", "random", "--rounds", "120", "--seats",
            "3", "--seed", "4"]
    assert summary([*argv, "--jobs", "1"], capsys) == summary([*argv, "--jobs", "2"], capsys)


def test_the_deals_do_not_depend_on_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    # Rounds mode: the same seed deals the same pieces, so the piece counts agree.
    a = summary(["--rounds", "300", "--bots", "random", "--seed", "1", "--jobs", "1"], capsys)
    b = summary(["--rounds", "300", "--bots", "threshold", "--seed", "1", "--jobs", "1"],
                capsys)
    assert [(p["piece"], p["rounds"]) for p in a["by_piece"]] == \
        [(p["piece"], p["rounds"]) for p in b["by_piece"]]
    assert a["by_position"] != b["by_position"]


# -- shapes ------------------------------------------------------------------------

def test_json_shape_in_matches_mode(capsys: pytest.CaptureFixture[str]) -> None:
    s = summary(["--matches", "12", "--bots", "random,threshold,random", "--seed", "2",
                 "--jobs", "1"], capsys)
    assert s["preset"] == "gnav" and s["rules"] == "gnav"
    assert s["mode"] == "matches" and s["seats"] == 3 and s["seed"] == 2
    assert s["bots"] == ["random", "threshold", "random"]
    assert s["challenger"] is None
    assert [r["seat"] for r in s["by_seat"]] == [1, 2, 3]
    for r in s["by_seat"]:
        est_ok(r["lives_lost_per_round"])
        est_ok(r["win_rate"])
        assert r["win_rate"]["n"] == 12
    # Shared wins count a part: the win rates of all seats add up to one.
    assert sum(r["win_rate"]["value"] for r in s["by_seat"]) == pytest.approx(1, abs=1e-5)
    assert [(r["bot"], r["seats"]) for r in s["by_bot"]] == [("random", 2), ("threshold", 1)]
    est_ok(s["rounds_per_match"])
    assert s["rounds_per_match"]["value"] * 12 == pytest.approx(s["rounds"])
    assert [r["position"] for r in s["by_position"]] == [1, 2, 3]
    assert [r["label"] for r in s["by_position"]] == ["dealer's left", "", "dealer"]
    for r in s["by_position"] + s["by_piece"]:
        est_ok(r["loss_rate"])
        assert r["loss_rate"]["value"] == pytest.approx(r["losses"] / r["rounds"], abs=1e-6)
    assert {r["piece"] for r in s["by_piece"]} <= {
        "cuckoo", "dragoon", "cat", "horse", "house", *map(str, range(13)), "pot", "owl",
        "fool"}
    names = {r["piece"]: r["name"] for r in s["by_piece"]}
    assert names.get("12", "XII") == "XII" and names.get("0", "O") == "O"
    assert names.get("fool", "Fool") == "Fool"


def test_json_shape_in_rounds_mode(capsys: pytest.CaptureFixture[str]) -> None:
    s = summary(["--rounds", "240", "--seats", "4", "--seed", "2", "--jobs", "1"], capsys)
    assert s["mode"] == "rounds" and s["rounds"] == 240
    assert s["matches"] is None and s["rounds_per_match"] is None
    assert s["bots"] == ["threshold"] * 4
    assert all("win_rate" not in r for r in s["by_seat"] + s["by_bot"])
    assert all(r["lives_lost_per_round"]["n"] == 240 for r in s["by_seat"])
    assert all(r["rounds"] == 240 for r in s["by_position"])
    assert sum(r["rounds"] for r in s["by_piece"]) == 240 * 4


def test_json_shape_in_challenger_mode(capsys: pytest.CaptureFixture[str]) -> None:
    s = summary(["--field", "threshold", "--challenger", "random", "--matches", "4",
                 "--seats", "3", "--seed", "5", "--jobs", "1"], capsys)
    duel = s["challenger"]
    assert duel["challenger"] == "random" and duel["field"] == "threshold"
    assert duel["deal_sequences"] == 4
    est_ok(duel["difference"])
    assert [r["seat"] for r in duel["by_seat"]] == [1, 2, 3]
    for r in duel["by_seat"]:
        for key in ("field_lives_lost_per_round", "challenger_lives_lost_per_round",
                    "difference", "field_win_rate", "challenger_win_rate"):
            est_ok(r[key])
    # The pooled difference is the mean of the per-seat ones.
    mean = sum(r["difference"]["value"] for r in duel["by_seat"]) / 3
    assert duel["difference"]["value"] == pytest.approx(mean, abs=1e-5)
    # Seats rotated: the pooled win rate is the seats' mean (each plays every sequence),
    # its interval taken over the 4 sequences, and wider than no interval at all.
    rate = duel["win_rate"]
    wins = sum(r["challenger_win_rate"]["value"] for r in duel["by_seat"]) / 3
    assert rate["value"] == pytest.approx(wins, abs=1e-5) and rate["n"] == 4
    assert rate["low"] <= rate["value"] <= rate["high"]


def test_csv_has_one_estimate_a_row(capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    path = tmp_path / "sim.csv"
    s = summary(["--matches", "12", "--seats", "3", "--seed", "1", "--jobs", "1",
                 "--csv", str(path)], capsys)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    body = rows[1:]
    assert all(len(r) == len(CSV_COLUMNS) for r in body)
    tables = [r[0] for r in body]
    assert tables.count("seat") == 2 * 3  # lives lost and win rate per seat
    assert tables.count("position") == 3
    assert tables.count("piece") == len(s["by_piece"])
    assert tables.count("match") == 1
    first = body[0]
    assert first[:4] == ["seat", "1", "threshold", "lives_lost_per_round"]
    value = s["by_seat"][0]["lives_lost_per_round"]["value"]
    assert float(first[5]) == pytest.approx(value)


def test_csv_in_challenger_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "duel.csv"
    summary(["--field", "threshold", "--challenger", "random", "--rounds", "50", "--seats",
             "3", "--seed", "1", "--jobs", "1", "--csv", str(path)], capsys)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    duel = [r for r in rows if r["table"] == "challenger"]
    assert [r["metric"] for r in duel if r["key"] == "all"] == ["difference"]
    assert len([r for r in duel if r["metric"] == "difference"]) == 3 + 1


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--matches", "10", "--seats", "3", "--seed", "1", "--jobs", "1"],
                         capsys)
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    for text in ("gnav, 3 seats, threshold × 3: 10 matches", "Lives lost/round", "Win rate",
                 "Rounds per match", "Loss rate by position (1 = dealer's left, 3 = dealer",
                 "Loss rate by piece held at the deal", "Cuckoo", "Fool"):
        assert text in out
    # Pieces as the game shows them (XII … O), never their ids.
    table = out.split("Loss rate by piece held at the deal\n", 1)[1].splitlines()[1:]
    shown = [line.split()[0] for line in table if line.strip()]
    assert "XII" in shown and "O" in shown and "Fool" in shown
    assert not {"12", "0", "cuckoo", "fool"} & set(shown)
    code, out, _ = run(["--field", "threshold", "--challenger", "random", "--rounds", "20",
                        "--seats", "3", "--seed", "1", "--jobs", "1"], capsys)
    assert code == 0
    assert "challenger random against a field of threshold" in out
    assert "positive = challenger better" in out


def test_progress_bar_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["--rounds", "250", "--seed", "1", "--jobs", "1", "--progress",
                        "--json"], capsys)
    assert code == 0
    assert "250/250 (100%" in err and err.endswith("\n")


# -- errors ------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (["--bots", "nope"], "unknown bot 'nope'"),
    (["--bots", "random,cheater"], "unknown bot 'cheater'"),
    (["--bots", "random,threshold", "--seats", "3"], "2 bots for 3 seats"),
    (["--bots", "random,,random"], "empty bot"),
    (["--matches", "0"], "--matches must be at least 1"),
    (["--rounds", "-5"], "--rounds must be at least 1"),
    (["--rounds", "5", "--matches", "5"], "not allowed with"),
    (["--matches", "many"], "invalid int value"),
    (["--seats", "1"], "2 to 41 seats"),
    (["--seats", "42"], "2 to 41 seats"),
    (["--jobs", "-1"], "--jobs must be at least 1"),
    (["--field", "threshold"], "needs both --field and --challenger"),
    (["--challenger", "counter"], "needs both --field and --challenger"),
    (["--field", "threshold", "--challenger", "zombie"], "unknown bot 'zombie'"),
    (["--field", "random", "--challenger", "threshold", "--bots", "random"], "--bots"),
    (["--preset", "chess"], "chess"),
    (["-o", "lives=99"], "lives"),
    (["--bots", "counter:lots"], "whole number"),
    (["--bots", "threshold:zzz"], "unknown piece 'zzz'"),
])
def test_errors_are_one_line_exit_2(argv: list[str], words: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--seed", "1", "--jobs", "1", *argv], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("gnav simulate")
    assert words in err


def test_unwritable_csv_is_one_line(capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    code, _, err = run(["--rounds", "10", "--seed", "1", "--jobs", "1", "--csv",
                        str(tmp_path / "missing" / "x.csv")], capsys)
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err




def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "sim.png"
    code, _, err = run(["--rounds", "200", "--seed", "1", "--jobs", "1", "--plot", str(path)],
                       capsys)
    assert code == 0, err
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


def test_plot_without_matplotlib_is_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    # A None entry in sys.modules makes the import fail, as if it were not installed.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = tmp_path / "sim.png"
    code, out, err = run(["--rounds", "10", "--seed", "1", "--plot", str(path)], capsys)
    assert code == 2 and out == "" and not path.exists()
    assert err == "gnav simulate: --plot needs matplotlib: pip install 'gnav[plot]'\n"


# -- match lengths and a large table's options (issue 26 §2) -------------------------

def test_a_41_seat_match_of_experts_plays_as_a_table_and_ends(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--matches", "1", "--seats", "41", "--bots", "expert", "--seed",
                          "4", "--jobs", "1", "--json"], capsys)
    assert code == 0, err
    s = json.loads(out)
    assert s["rules"] == {"preset": "gnav", "two_fools": "pay"}
    assert "at 41 seats a table of gnav plays two_fools = pay" in err
    # Every round costs a life without gains: the match ends within 41 x 4 rounds.
    assert 0 < s["rounds"] <= 41 * 4
    # Named with -o, the preset's own rule is played, and nothing is said.
    code, out, err = run(["--matches", "1", "--seats", "41", "-o", "two_fools=gain",
                          "--bots", "threshold", "--seed", "4", "--jobs", "1", "--json"],
                         capsys)
    assert code == 0 and "two_fools" not in err
    assert json.loads(out)["rules"] == "gnav"


def test_lengths_writes_a_file_that_gnav_reads(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    from gnav.lengths import parse

    out_file = tmp_path / "lengths.json"
    code, out, err = run(["--lengths", "le-her", "--matches", "30", "--seed", "2",
                          "--out", str(out_file)], capsys)
    assert code == 0, err
    data = parse(json.loads(out_file.read_text(encoding="utf-8")))
    found = data.presets["le-her"]
    assert list(found.default) == [2] and found.remedy is None
    assert 0 < found.default[2].median <= found.default[2].p95
    assert data.meta["matches"] == 30 and data.meta["seed"] == 2
    assert out.splitlines()[1].split()[:2] == ["le-her", "2"]
    code, _, err = run(["--lengths", "le-her", "-o", "lives=2"], capsys)
    assert code != 0 and "--lengths plays expert bots" in err
