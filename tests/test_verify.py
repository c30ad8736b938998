"""``gnav verify``: exit codes 0 / 1 / 2 and what each message says (docs/spec/records.md)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gnav.cli import main
from gnav.verify import INCONSISTENT, MALFORMED, OK, verify_file, verify_text
from recordkit import DRAGOON_DRAW, RECORDS

GOOD = DRAGOON_DRAW

# Two rounds: two fools in round 1 make A and E sit out round 2 (hc-21, shortened).
TWO_ROUNDS: dict[str, Any] = {
    "gnav": 1,
    "rules": "gnav",
    "seats": ["A", "B", "C", "D", "E"],
    "rounds": [
        {"dealer": "D", "deal": {"A": "fool", "B": "9", "C": "8", "D": "7", "E": "fool"},
         "stock": ["6"],
         "actions": [["E", "stand"], ["A", "stand"], ["B", "stand"], ["C", "stand"],
                     ["D", "stand"]],
         "result": {"hands": {"A": "fool", "B": "9", "C": "8", "D": "7", "E": "fool"},
                    "lives": {"A": 5, "B": 4, "C": 4, "D": 4, "E": 5},
                    "sit_out": ["A", "E"], "ended_by": "turns"}},
        {"dealer": "B", "deal": {"B": "9", "C": "8", "D": "2"}, "stock": ["6"],
         "actions": [["C", "stand"], ["D", "stand"], ["B", "stand"]],
         "result": {"hands": {"B": "9", "C": "8", "D": "2"},
                    "lives": {"A": 5, "B": 4, "C": 4, "D": 3, "E": 5},
                    "sit_out": [], "ended_by": "turns"}},
    ],
}

NAME = "case-07.json"


def good() -> dict[str, Any]:
    return copy.deepcopy(GOOD)


def check(data: Any) -> tuple[int, list[str]]:
    text = data if isinstance(data, str) else json.dumps(data)
    return verify_text(text, NAME)


def one_line(data: Any, code: int) -> str:
    got, lines = check(data)
    assert got == code, lines
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{NAME}: "), lines
    assert "Traceback" not in lines[0]
    return lines[0]


# -- exit 0 --------------------------------------------------------------------------


def test_good_record_is_ok() -> None:
    assert check(good()) == (OK, [f"{NAME}: ok (1 round(s))"])
    assert (OK, INCONSISTENT, MALFORMED) == (0, 1, 2)


def test_record_without_results_is_ok() -> None:
    data = good()
    del data["rounds"][0]["result"]
    assert check(data)[0] == OK


def test_result_fields_are_checked_only_where_given() -> None:
    data = good()
    data["rounds"][0]["result"] = {"lives": {"A": 4, "B": 4, "C": 4, "D": 2}}
    assert check(data)[0] == OK
    data["rounds"][0]["result"] = {"lives": {"A": 4, "B": 4, "C": 4, "D": 3}}
    assert check(data)[0] == INCONSISTENT
    data["rounds"][0]["result"] = {"ended_by": "turns"}
    assert check(data)[0] == OK
    data["rounds"][0]["result"] = {"ended_by": "cuckoo"}
    assert check(data)[0] == INCONSISTENT


def test_result_pieces_may_use_aliases() -> None:
    data = good()
    data["rounds"][0]["result"]["hands"] = {"A": "V", "B": "VIII", "C": "xi", "D": "I"}
    assert check(data)[0] == OK


def test_two_rounds_ok() -> None:
    assert check(copy.deepcopy(TWO_ROUNDS)) == (OK, [f"{NAME}: ok (2 round(s))"])


# -- exit 1 --------------------------------------------------------------------------


def test_lives_disagreement() -> None:
    data = good()
    data["rounds"][0]["result"]["lives"]["D"] = 3
    assert one_line(data, 1) == f"{NAME}: round 1: lives of D: record says 3, engine computes 2"


def test_lives_disagreement_in_a_later_round() -> None:
    data = copy.deepcopy(TWO_ROUNDS)
    data["rounds"][1]["result"]["lives"]["E"] = 4  # E sat out: still 5
    assert one_line(data, 1) == f"{NAME}: round 2: lives of E: record says 4, engine computes 5"


def test_lives_of_a_seat_missing_from_the_result() -> None:
    data = good()
    del data["rounds"][0]["result"]["lives"]["B"]
    line = one_line(data, 1)
    assert line.startswith(f"{NAME}: round 1: lives of B: record says ")
    assert line.endswith("engine computes 4")


def test_hands_disagreement() -> None:
    data = good()
    data["rounds"][0]["result"]["hands"]["D"] = "dragoon"
    assert one_line(data, 1) == (
        f"{NAME}: round 1: hands of D: record says dragoon, engine computes 1")


def test_sit_out_disagreement() -> None:
    data = copy.deepcopy(TWO_ROUNDS)
    data["rounds"][0]["result"]["sit_out"] = ["A"]
    assert one_line(data, 1) == (
        f"{NAME}: round 1: sit_out: record says [A], engine computes [A, E]")


def test_ended_by_disagreement() -> None:
    data = good()
    data["rounds"][0]["result"]["ended_by"] = "dragoon"
    assert one_line(data, 1) == (
        f"{NAME}: round 1: ended_by: record says dragoon, engine computes turns")


def test_every_disagreement_is_reported() -> None:
    data = good()
    data["rounds"][0]["result"]["lives"]["A"] = 1
    data["rounds"][0]["result"]["lives"]["D"] = 4
    code, lines = check(data)
    assert code == INCONSISTENT
    assert lines == [
        f"{NAME}: round 1: lives of A: record says 1, engine computes 4",
        f"{NAME}: round 1: lives of D: record says 4, engine computes 2",
    ]


def test_wrong_dealer_is_inconsistent() -> None:
    data = copy.deepcopy(TWO_ROUNDS)
    data["rounds"][1]["dealer"] = "C"
    assert one_line(data, 1) == f"{NAME}: round 2: dealer: record says C, engine computes B"


def test_action_out_of_turn_is_inconsistent() -> None:
    data = good()
    data["rounds"][0]["actions"][1] = ["C", "stand"]
    line = one_line(data, 1)
    assert line.startswith(f"{NAME}: round 1: action 2: record says C")
    assert "B's turn" in line


def test_too_many_and_too_few_actions_are_inconsistent() -> None:
    data = good()
    data["rounds"][0]["actions"].append(["A", "swap"])
    assert one_line(data, 1).startswith(f"{NAME}: round 1: action 5:")
    data = good()
    del data["rounds"][0]["actions"][-1]
    assert one_line(data, 1).startswith(f"{NAME}: round 1: actions: too few")


def test_deal_to_a_sitting_out_seat_is_inconsistent() -> None:
    data = copy.deepcopy(TWO_ROUNDS)
    data["rounds"][1]["deal"]["A"] = "3"
    assert one_line(data, 1).startswith(f"{NAME}: round 2: deal: ")


# -- exit 2 --------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: tuple[str | int, ...], value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data
    return mutate


def _delete(path: tuple[str | int, ...]) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        return data
    return mutate


R0: tuple[str | int, ...] = ("rounds", 0)

# (id, how to break GOOD, words the message must contain: the field, and the culprit)
MALFORMED_CASES: list[tuple[str, Mutation, tuple[str, ...]]] = [
    ("missing gnav", _delete(("gnav",)), ("'gnav'", "missing")),
    ("missing rules", _delete(("rules",)), ("'rules'", "missing")),
    ("missing seats", _delete(("seats",)), ("'seats'", "missing")),
    ("missing rounds", _delete(("rounds",)), ("'rounds'", "missing")),
    ("missing dealer", _delete((*R0, "dealer")), ("round 1", "'dealer'", "missing")),
    ("missing deal", _delete((*R0, "deal")), ("round 1", "'deal'", "missing")),
    ("missing stock", _delete((*R0, "stock")), ("round 1", "'stock'", "missing")),
    ("missing actions", _delete((*R0, "actions")), ("round 1", "'actions'", "missing")),
    ("missing preset", _set(("rules",), {"lives": 3}), ("rules", "'preset'")),
    ("format version 2", _set(("gnav",), 2), ("gnav", "2")),
    ("format version as text", _set(("gnav",), "1"), ("gnav", "'1'")),
    ("format version true", _set(("gnav",), True), ("gnav", "True")),
    ("unknown preset", _set(("rules",), "nope"), ("rules", "nope")),
    ("unknown preset in object", _set(("rules",), {"preset": "nope", "lives": 3}),
     ("rules", "nope")),
    ("rules not a preset", _set(("rules",), 7), ("rules", "7")),
    ("unknown option", _set(("rules",), {"preset": "gnav", "speed": 3}), ("rules", "speed")),
    ("lives out of range", _set(("rules",), {"preset": "gnav", "lives": 99}),
     ("rules", "lives", "99")),
    ("lives not a number", _set(("rules",), {"preset": "gnav", "lives": "4"}),
     ("rules", "lives")),
    ("copies zero", _set(("rules",), {"preset": "gnav", "copies": 0}), ("rules", "copies")),
    ("knock word", _set(("rules",), {"preset": "gnav", "knock": "loud"}),
     ("rules", "knock", "loud")),
    ("drag not a bool", _set(("rules",), {"preset": "gnav", "drag": "yes"}),
     ("rules", "drag", "yes")),
    ("two_fools word", _set(("rules",), {"preset": "gnav", "two_fools": "cry"}),
     ("rules", "two_fools", "cry")),
    ("max_rounds zero", _set(("rules",), {"preset": "gnav", "max_rounds": 0}),
     ("rules", "max_rounds")),
    ("unknown piece in deal", _set((*R0, "deal", "A"), "unicorn"),
     ("round 1", "deal", "A", "unicorn")),
    ("unknown piece in stock", _set((*R0, "stock"), ["9", "unicorn"]),
     ("round 1", "stock", "unicorn")),
    ("piece from another deck", _set((*R0, "deal", "B"), "ruiter"),
     ("round 1", "deal", "B", "ruiter")),
    ("unknown piece in result", _set((*R0, "result", "hands", "C"), "unicorn"),
     ("round 1", "hands", "unicorn")),
    ("piece used too often", _set((*R0, "stock"), ["9", "9", "9"]),
     ("round 1", "deal and stock", "'9'")),
    ("piece used too often across deal and stock", _set((*R0, "stock"), ["5", "5"]),
     ("round 1", "deal and stock", "'5'")),
    ("unknown seat in deal", _set((*R0, "deal", "Z"), "9"), ("round 1", "deal", "'Z'")),
    ("unknown seat as dealer", _set((*R0, "dealer"), "Z"), ("round 1", "dealer", "'Z'")),
    ("unknown seat in actions", _set((*R0, "actions", 0), ["Z", "stand"]),
     ("round 1", "action 1", "'Z'")),
    ("unknown seat in result", _set((*R0, "result", "lives", "Z"), 3),
     ("round 1", "lives", "'Z'")),
    ("unknown seat in starting lives", _set(("lives",), {"Z": 2}), ("lives", "'Z'")),
    ("duplicate seat names", _set(("seats",), ["A", "B", "A", "D"]), ("seats", "unique")),
    ("seats not a list", _set(("seats",), "ABCD"), ("seats",)),
    ("too many seats", _set(("seats",), [f"P{i}" for i in range(50)]), ("seats", "50")),
    ("bad action word", _set((*R0, "actions", 1), ["B", "jump"]),
     ("round 1", "action 2", "jump")),
    ("action not a pair", _set((*R0, "actions", 1), ["B", "stand", "now"]),
     ("round 1", "action 2")),
    ("actions not a list", _set((*R0, "actions"), "stand"), ("round 1", "actions")),
    ("actions an object", _set((*R0, "actions"), {"A": "stand"}), ("round 1", "actions")),
    ("rounds not a list", _set(("rounds",), {"dealer": "D"}), ("rounds",)),
    ("round not an object", _set(("rounds", 0), "D deals"), ("round 1", "object")),
    ("stock not a list", _set((*R0, "stock"), "9"), ("round 1", "stock")),
    ("deal not an object", _set((*R0, "deal"), ["5", "8", "11", "1"]), ("round 1", "deal")),
    ("negative result lives", _set((*R0, "result", "lives", "A"), -1),
     ("round 1", "lives of A", "-1")),
    ("unknown top-level field", _set(("notes",), "hi"), ("'notes'", "x")),
    ("unknown round field", _set((*R0, "comment"), "hi"), ("round 1", "'comment'")),
    ("unknown result field", _set((*R0, "result", "winner"), "A"), ("round 1", "'winner'")),
]


@pytest.mark.parametrize(("mutate", "words"), [(m, w) for _, m, w in MALFORMED_CASES],
                         ids=[i for i, _, _ in MALFORMED_CASES])
def test_malformed(mutate: Mutation, words: tuple[str, ...]) -> None:
    line = one_line(mutate(good()), 2)
    for word in words:
        assert word in line, f"{word!r} not in {line!r}"


@pytest.mark.parametrize("text", ["{nope", "", "gnav 1", '{"gnav": 1,}', "{'gnav': 1}"])
def test_not_json(text: str) -> None:
    assert "not JSON" in one_line(text, 2)


@pytest.mark.parametrize("text", ["[1, 2]", "42", '"gnav"', "null", "true"])
def test_not_an_object(text: str) -> None:
    assert "must be an object" in one_line(text, 2)


def test_deeply_nested_json_is_malformed_not_a_crash() -> None:
    # docs/spec/records.md: a file that is not a valid record exits 2, no traceback.
    text = '{"gnav": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    one_line(text, 2)


def test_overlong_number_is_malformed_not_a_crash() -> None:
    # Python refuses to read integers of more than 4300 digits.
    text = '{"gnav": ' + "9" * 5000 + ', "rules": "gnav", "seats": ["A", "B"], "rounds": []}'
    one_line(text, 2)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    code, lines = verify_file(str(path))
    assert code == MALFORMED
    assert lines == [f"{path}: no such file"]


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00junk")
    code, lines = verify_file(str(path))
    assert code == MALFORMED
    assert len(lines) == 1
    assert lines[0].startswith(str(path))


def test_messages_name_the_file_not_its_directory(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    data = good()
    data["rounds"][0]["result"]["lives"]["D"] = 0
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines = verify_file(str(path))
    assert code == INCONSISTENT
    assert lines == ["broken.json: round 1: lives of D: record says 0, engine computes 2"]


# -- --write -------------------------------------------------------------------------


def _strip_results(data: dict[str, Any]) -> dict[str, Any]:
    stripped = copy.deepcopy(data)
    stripped.pop("result", None)
    for rd in stripped["rounds"]:
        rd.pop("result", None)
    return stripped


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json")))
def test_write_fills_results_like_the_worked_records(name: str, tmp_path: Path) -> None:
    original: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    path = tmp_path / name
    path.write_text(json.dumps(_strip_results(original)), encoding="utf-8")
    code, lines = verify_file(str(path), write=True)
    assert code == OK, lines
    assert len(lines) == 1
    assert lines[0].startswith(f"{name}: wrote")
    written: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for mine, theirs in zip(written["rounds"], original["rounds"], strict=True):
        assert mine["result"]["lives"] == theirs["result"]["lives"]
        assert mine["result"]["hands"] == theirs["result"]["hands"]
        assert sorted(mine["result"]["sit_out"]) == sorted(theirs["result"]["sit_out"])
        assert mine["result"]["ended_by"] == theirs["result"]["ended_by"]
    assert written.get("x") == original.get("x")
    assert written.get("result") == original.get("result")
    assert verify_file(str(path)) == (OK, [f"{name}: ok ({len(original['rounds'])} round(s))"])


def test_write_corrects_wrong_results(tmp_path: Path) -> None:
    data = good()
    data["rounds"][0]["result"]["lives"]["D"] = 4
    path = tmp_path / "fix.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert verify_file(str(path))[0] == INCONSISTENT
    assert verify_file(str(path), write=True)[0] == OK
    assert json.loads(path.read_text(encoding="utf-8"))["rounds"][0]["result"]["lives"]["D"] == 2
    assert verify_file(str(path))[0] == OK


def test_write_adds_the_match_result(tmp_path: Path) -> None:
    data: dict[str, Any] = {
        "gnav": 1, "rules": {"preset": "gnav", "lives": 1}, "seats": ["A", "B", "C"],
        "rounds": [{"dealer": "C", "deal": {"A": "5", "B": "5", "C": "9"}, "stock": [],
                    "actions": [["A", "stand"], ["B", "stand"], ["C", "stand"]]}],
    }
    path = tmp_path / "over.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert verify_file(str(path), write=True)[0] == OK
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["result"] == {"winners": ["C"], "out": ["A", "B"]}
    assert written["rounds"][0]["result"]["lives"] == {"A": 0, "B": 0, "C": 1}
    assert verify_file(str(path)) == (OK, ["over.json: ok (1 round(s))"])


def test_write_via_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new-case.json"
    path.write_text(json.dumps(_strip_results(TWO_ROUNDS)), encoding="utf-8")
    assert main(["verify", "--write", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("new-case.json: wrote")
    assert out[1] == "new-case.json: ok (2 round(s))"
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["rounds"][1]["result"] == TWO_ROUNDS["rounds"][1]["result"]


def test_write_leaves_a_malformed_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    data = good()
    data["rules"] = {"preset": "gnav", "speed": 3}
    text = json.dumps(data)
    path.write_text(text, encoding="utf-8")
    assert verify_file(str(path), write=True)[0] == MALFORMED
    assert path.read_text(encoding="utf-8") == text


# -- several files -------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    wrong = good()
    wrong["rounds"][0]["result"]["lives"]["A"] = 3
    broken = good()
    broken["gnav"] = 9
    paths = {"good": tmp_path / "good.json", "good2": tmp_path / "good2.json",
             "wrong": tmp_path / "wrong.json", "broken": tmp_path / "broken.json"}
    paths["good"].write_text(json.dumps(good()), encoding="utf-8")
    paths["good2"].write_text(json.dumps(TWO_ROUNDS), encoding="utf-8")
    paths["wrong"].write_text(json.dumps(wrong), encoding="utf-8")
    paths["broken"].write_text(json.dumps(broken), encoding="utf-8")
    return {k: str(v) for k, v in paths.items()}


@pytest.mark.parametrize(("which", "code"), [
    (["good", "good2"], 0),
    (["good", "wrong"], 1),
    (["wrong", "good"], 1),
    (["good", "wrong", "broken"], 2),
    (["broken", "wrong", "good"], 2),
    (["wrong", "broken"], 2),
    (["broken"], 2),
    (["wrong"], 1),
])
def test_several_files_worst_code_wins(which: list[str], code: int, files: dict[str, str],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", *[files[w] for w in which]]) == code
    captured = capsys.readouterr()
    out, err = captured.out.splitlines(), captured.err.splitlines()
    assert len(out) + len(err) == len(which)  # one line per file here
    assert len(out) == sum(w.startswith("good") for w in which)
    for w in which:
        stream = out if w.startswith("good") else err
        assert any(line.startswith(f"{w}.json: ") for line in stream)


def test_several_files_all_reported_even_after_a_malformed_one(
        files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", files["broken"], files["wrong"]]) == 2
    err = capsys.readouterr().err
    assert "broken.json: gnav:" in err
    assert "wrong.json: round 1: lives of A: record says 3, engine computes 4" in err
