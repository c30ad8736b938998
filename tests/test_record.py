"""The record format (docs/spec/records.md): reading, writing and replaying records."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from gnav.bots import RandomBot
from gnav.errors import InconsistentError, MalformedError
from gnav.match import MatchState
from gnav.record import (
    Record,
    dumps,
    from_match,
    loads,
    match_result,
    parse,
    replay,
    round_results,
)
from gnav.rules import Rules
from gnav.verify import verify_text
from gnav.views import SeatView
from gnav.vocab import Action
from recordkit import DRAGOON_DRAW, play_out

# hc-19: A starts with one life, pays the Dragoon mid-round and is out after round 1.
OUT_AFTER_ROUND_1: dict[str, Any] = {
    "gnav": 1,
    "rules": "gnav",
    "seats": ["A", "B", "C", "D"],
    "lives": {"A": 1},
    "rounds": [
        {"dealer": "D", "deal": {"A": "5", "B": "dragoon", "C": "2", "D": "9"},
         "stock": ["4"], "actions": [["A", "swap"], ["C", "stand"], ["D", "stand"]]},
        {"dealer": "B", "deal": {"B": "7", "C": "8", "D": "3"},
         "stock": ["9"], "actions": [["C", "stand"], ["D", "stand"], ["B", "stand"]]},
    ],
}

# hc-21: two fools; A and E sit out round 2, which B deals.
SIT_OUT: dict[str, Any] = {
    "gnav": 1,
    "rules": "gnav",
    "seats": ["A", "B", "C", "D", "E"],
    "rounds": [
        {"dealer": "D", "deal": {"A": "fool", "B": "9", "C": "8", "D": "7", "E": "fool"},
         "stock": ["6"],
         "actions": [["E", "stand"], ["A", "stand"], ["B", "stand"], ["C", "stand"],
                     ["D", "stand"]]},
        {"dealer": "B", "deal": {"B": "9", "C": "8", "D": "2"}, "stock": ["6"],
         "actions": [["C", "stand"], ["D", "stand"], ["B", "stand"]]},
    ],
}

# Two seats with one life each: A holds the lowest piece, is out, and B wins.
SHORT_MATCH: dict[str, Any] = {
    "gnav": 1,
    "rules": {"preset": "gnav", "lives": 1},
    "seats": ["A", "B"],
    "rounds": [{"dealer": "B", "deal": {"A": "5", "B": "9"}, "stock": ["8"],
                "actions": [["A", "stand"], ["B", "stand"]]}],
}


def fresh(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


def inconsistency(data: dict[str, Any]) -> str:
    record = parse(data)
    with pytest.raises(InconsistentError) as info:
        replay(record)
    return str(info.value)


def malformed(data: Any) -> str:
    with pytest.raises(MalformedError) as info:
        parse(data)
    return str(info.value)


def play_match(seed: int, names: list[str], rules: Rules,
               lives: dict[int, int] | None = None) -> MatchState:
    match = MatchState.new(rules, names, seed=seed, lives=lives)
    bots = [RandomBot(seed + i) for i in range(len(names))]

    def act(_: MatchState, view: SeatView) -> Action:
        assert view.seat is not None
        return bots[view.seat].act(view)

    return play_out(match, Random(seed), act)


# -- reading valid records -----------------------------------------------------------


def test_parse_a_plain_record() -> None:
    record = parse(fresh(DRAGOON_DRAW))
    assert isinstance(record, Record)
    assert record.seats == ("A", "B", "C", "D")
    assert record.rules == Rules.of("gnav")
    assert record.lives == {}
    assert record.result is None
    (rnd,) = record.rounds
    ix = record.rules.index
    assert rnd.dealer == 3
    assert rnd.deal == {0: ix("5"), 1: ix("8"), 2: ix("11"), 3: ix("1")}
    assert rnd.stock == (ix("dragoon"), ix("9"))
    assert rnd.seed is None
    assert rnd.actions == ((0, "stand"), (1, "stand"), (2, "stand"), (3, "swap"))
    assert rnd.result is not None
    assert rnd.result["lives"]["D"] == 2


def test_loads_reads_text_like_parse_reads_data() -> None:
    text = json.dumps(DRAGOON_DRAW)
    assert loads(text) == parse(json.loads(text))


def test_loads_rejects_text_that_is_not_json() -> None:
    with pytest.raises(MalformedError, match="not JSON"):
        loads('{"gnav": 1,')


def test_replay_of_a_plain_record_matches_its_result() -> None:
    rep = replay(parse(fresh(DRAGOON_DRAW)))
    (res,) = round_results(rep)
    assert res == DRAGOON_DRAW["rounds"][0]["result"]
    assert len(rep.states) == 1
    assert len(rep.states[0]) == 1 + 4  # the deal, then every decision


def test_piece_aliases_are_read() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["deal"] = {"A": "V", "B": "viii", "C": "XI", "D": "I"}
    data["rounds"][0]["stock"] = ["Knight", "9"]
    record = parse(data)
    assert record.rounds == parse(fresh(DRAGOON_DRAW)).rounds
    code, lines = verify_text(json.dumps(data), "aliases.json")
    assert code == 0, lines


def test_rules_as_an_object_with_options() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rules"] = {"preset": "gnav", "lives": 3, "two_fools": "pay", "knock": "silent",
                     "drag": False, "max_rounds": 5}
    record = parse(data)
    opts = record.rules.options
    assert (opts.lives, opts.two_fools, opts.knock, opts.drag, opts.max_rounds) == (
        3, "pay", "silent", False, 5)
    assert record.rules.name == "gnav"
    assert record.spec == data["rules"]


def test_rules_object_options_change_the_replay() -> None:
    # hc-06's deal: two fools. Under two_fools = pay both holders pay instead of gaining.
    data: dict[str, Any] = {
        "gnav": 1,
        "rules": {"preset": "gnav", "lives": 3, "two_fools": "pay"},
        "seats": ["A", "B", "C", "D"],
        "rounds": [{"dealer": "D", "deal": {"A": "fool", "B": "fool", "C": "3", "D": "5"},
                    "stock": ["6"],
                    "actions": [["A", "stand"], ["B", "stand"], ["C", "stand"],
                                ["D", "stand"]]}],
    }
    (res,) = round_results(replay(parse(data)))
    assert res["lives"] == {"A": 2, "B": 2, "C": 3, "D": 3}
    data["rules"] = {"preset": "gnav", "lives": 3}
    (res,) = round_results(replay(parse(data)))
    assert res["lives"] == {"A": 4, "B": 4, "C": 3, "D": 3}


def test_rules_preset_alias_is_read() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rules"] = "GNAV-Pagat"
    assert parse(data).rules.options.two_fools == "pay"


def test_per_seat_starting_lives() -> None:
    record = parse(fresh(OUT_AFTER_ROUND_1))
    assert record.lives == {0: 1}
    rep = replay(record)
    assert rep.final.start_lives == (1, 4, 4, 4)
    first, second = round_results(rep)
    assert first["lives"] == {"A": 0, "B": 4, "C": 3, "D": 4}
    # A is out, so round 2 names only the seats still in the match.
    assert second["lives"] == {"B": 4, "C": 3, "D": 3}
    assert rep.final.out == (0,)


@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True, None])
def test_per_seat_starting_lives_must_be_whole_and_positive(value: object) -> None:
    data = fresh(OUT_AFTER_ROUND_1)
    data["lives"] = {"A": value}
    assert "lives" in malformed(data)


def test_starting_lives_of_an_unknown_seat_are_malformed() -> None:
    data = fresh(OUT_AFTER_ROUND_1)
    data["lives"] = {"Z": 2}
    assert "'Z'" in malformed(data)


def _seeded_round(seed: int, names: list[str], dealer: int) -> list[list[str]]:
    """The decisions of a round dealt from ``seed``: stand when allowed."""
    match = MatchState.new(Rules.of("gnav"), names, dealer=dealer)
    match = match.deal(rng=Random(seed))
    actions: list[list[str]] = []
    while match.to_act is not None:
        seat = match.to_act
        action = "stand" if "stand" in match.legal_actions() else "swap"
        actions.append([names[seat], action])
        match, _ = match.apply(action)
    return actions


@pytest.mark.parametrize("seed", [1, 42, 12345])
def test_seeded_rounds(seed: int) -> None:
    names = ["A", "B", "C"]
    actions = _seeded_round(seed, names, dealer=2)
    data: dict[str, Any] = {"gnav": 1, "rules": "gnav", "seats": names,
                            "rounds": [{"dealer": "C", "seed": seed, "actions": actions}]}
    record = parse(data)
    (rnd,) = record.rounds
    assert (rnd.seed, rnd.deal, rnd.stock) == (seed, None, None)
    rep = replay(record)
    (res,) = round_results(rep)
    assert set(res["hands"]) == set(names)
    # The seeded round replays exactly as the engine dealt it.
    expected = MatchState.new(Rules.of("gnav"), names, dealer=2).deal(rng=Random(seed))
    assert rep.states[0][0].round == expected.round
    data["rounds"][0]["result"] = res
    code, lines = verify_text(json.dumps(data), "seeded.json")
    assert code == 0, lines
    # A different seed deals differently, so the same result is unlikely to hold.
    data["rounds"][0]["seed"] = seed + 1
    other = parse(data)
    assert other.rounds[0].seed == seed + 1


def test_seeded_round_needs_a_whole_number_seed() -> None:
    data: dict[str, Any] = {"gnav": 1, "rules": "gnav", "seats": ["A", "B", "C"],
                            "rounds": [{"dealer": "C", "seed": "7", "actions": []}]}
    assert "seed" in malformed(data)


def test_seeded_round_with_missing_actions_is_malformed() -> None:
    data: dict[str, Any] = {"gnav": 1, "rules": "gnav", "seats": ["A", "B", "C"],
                            "rounds": [{"dealer": "C", "seed": 7}]}
    assert "actions" in malformed(data)


def test_x_is_ignored_at_top_level_and_in_rounds() -> None:
    data = fresh(DRAGOON_DRAW)
    data["x"] = {"note": "anything", "deep": [1, {"a": None}]}
    data["rounds"][0]["x"] = ["whatever", 3]
    record = parse(data)
    assert record.x == data["x"]
    assert record.rounds[0].x == ["whatever", 3]
    # Apart from carrying x along, the record reads exactly as without it.
    plain = parse(fresh(DRAGOON_DRAW))
    assert tuple(replace(r, x=None) for r in record.rounds) == plain.rounds
    assert replace(record, x=None, rounds=plain.rounds) == plain
    assert round_results(replay(record)) == round_results(replay(plain))
    code, lines = verify_text(json.dumps(data), "x.json")
    assert code == 0, lines


@pytest.mark.parametrize("where", ["top", "round", "round result", "match result"])
def test_unknown_fields_outside_x_are_rejected(where: str) -> None:
    data = fresh(SHORT_MATCH)
    data["result"] = {"winners": ["B"], "out": ["A"]}
    data["rounds"][0]["result"] = {"lives": {"A": 0, "B": 1}}
    target: dict[str, Any] = {
        "top": data,
        "round": data["rounds"][0],
        "round result": data["rounds"][0]["result"],
        "match result": data["result"],
    }[where]
    parse(fresh(data))  # fine before the extra field
    target["note"] = "mine"
    message = malformed(data)
    assert "'note'" in message
    assert "unknown field" in message


def test_unknown_option_in_rules_object_is_rejected() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rules"] = {"preset": "gnav", "x_speed": 2}
    message = malformed(data)
    assert "rules" in message
    assert "x_speed" in message


# -- writing -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 11, 2024])
def test_from_match_and_dumps_parse_back(seed: int) -> None:
    rules = Rules.of("gnav", lives=2)
    match = play_match(seed, ["P", "Q", "R", "S"], rules, lives={1: 1})
    data = from_match(match, x={"seed": seed})
    text = dumps(data)
    assert json.loads(text) == data
    assert data["rules"] == {"preset": "gnav", "lives": 2}
    assert data["lives"] == {"Q": 1}
    assert data["x"] == {"seed": seed}
    assert data["result"] == match_result(match)
    record = loads(text)
    assert record.seats == ("P", "Q", "R", "S")
    assert record.rules == rules
    assert len(record.rounds) == len(match.history)
    assert all(rd.result is not None for rd in record.rounds)
    rep = replay(record)
    assert rep.final.winners == match.winners
    assert rep.final.out == match.out
    assert rep.final.lives == match.lives
    code, lines = verify_text(text, "written.json")
    assert code == 0, lines


def test_dumps_lays_out_one_line_per_round_field() -> None:
    text = dumps(fresh(DRAGOON_DRAW))
    assert text.endswith("}\n")
    assert '   "deal": {"A": "5", "B": "8", "C": "11", "D": "1"},' in text.splitlines()
    assert json.loads(text) == DRAGOON_DRAW


def test_from_match_of_a_fresh_match_has_no_rounds() -> None:
    match = MatchState.new(Rules.of("gnav"), ["A", "B", "C"], dealer=0)
    data = from_match(match)
    assert data == {"gnav": 1, "rules": "gnav", "seats": ["A", "B", "C"], "rounds": []}
    assert "result" not in data


# -- stock ---------------------------------------------------------------------------


def test_stock_shorter_than_the_rest_of_the_deck_is_fine() -> None:
    record = parse(fresh(DRAGOON_DRAW))
    assert record.rounds[0].stock is not None
    assert len(record.rounds[0].stock) == 2 < len(record.rules.deck) - 4
    assert round_results(replay(record))[0]["lives"]["D"] == 2


def test_empty_stock_makes_the_dealers_swap_fail() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["stock"] = []
    (res,) = round_results(replay(parse(data)))
    # No swap, no penalty: D keeps the 1 and pays for the lowest piece.
    assert res["hands"] == {"A": "5", "B": "8", "C": "11", "D": "1"}
    assert res["lives"] == {"A": 4, "B": 4, "C": 4, "D": 3}


def test_every_copy_of_a_piece_may_be_used() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["stock"] = ["dragoon", "dragoon"]
    parse(data)
    data["rounds"][0]["stock"] = ["dragoon", "dragoon", "dragoon"]
    assert "dragoon" in malformed(data)


# -- inconsistent records ------------------------------------------------------------


def test_dealing_to_a_seat_that_is_out_is_inconsistent() -> None:
    data = fresh(OUT_AFTER_ROUND_1)
    data["rounds"][1]["deal"]["A"] = "1"
    message = inconsistency(data)
    assert message.startswith("round 2: deal")
    assert "A, B, C, D" in message
    assert "B, C, D" in message


def test_dealing_to_a_seat_that_sits_out_is_inconsistent() -> None:
    data = fresh(SIT_OUT)
    replay(parse(fresh(SIT_OUT)))  # fine as written
    data["rounds"][1]["deal"]["E"] = "1"
    message = inconsistency(data)
    assert message.startswith("round 2: deal")
    assert "B, C, D, E" in message


def test_not_dealing_to_an_active_seat_is_inconsistent() -> None:
    data = fresh(SIT_OUT)
    del data["rounds"][1]["deal"]["D"]
    assert inconsistency(data).startswith("round 2: deal")


@pytest.mark.parametrize(("data", "said", "engine"), [
    (OUT_AFTER_ROUND_1, "C", "B"),
    (OUT_AFTER_ROUND_1, "A", "B"),  # A is out
    (SIT_OUT, "E", "B"),  # E sits out
    (SIT_OUT, "D", "B"),  # the same dealer again
])
def test_wrong_dealer_is_inconsistent(data: dict[str, Any], said: str, engine: str) -> None:
    broken = fresh(data)
    broken["rounds"][1]["dealer"] = said
    assert inconsistency(broken) == f"round 2: dealer: record says {said}, engine computes {engine}"


def test_action_out_of_turn_is_inconsistent() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["actions"][0] = ["B", "stand"]
    assert inconsistency(data) == "round 1: action 1: record says B, engine says it is A's turn"


def test_action_by_a_skipped_seat_is_inconsistent() -> None:
    # In hc-19 B's Dragoon is revealed by A's request, so B takes no turn.
    data = fresh(OUT_AFTER_ROUND_1)
    data["rounds"][0]["actions"] = [["A", "swap"], ["B", "stand"], ["C", "stand"],
                                    ["D", "stand"]]
    message = inconsistency(data)
    assert message.startswith("round 1: action 2: record says B")
    assert "C's turn" in message


def test_too_many_actions_are_inconsistent() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["actions"] += [["A", "stand"], ["B", "swap"]]
    message = inconsistency(data)
    assert message.startswith("round 1: action 5")
    assert "already ended" in message
    assert "2 action(s) too many" in message


def test_actions_after_a_stop_are_inconsistent() -> None:
    # hc-05: the Cuckoo stops the round at the first request.
    data: dict[str, Any] = {
        "gnav": 1, "rules": "gnav", "seats": ["A", "B", "C", "D", "E"],
        "rounds": [{"dealer": "E",
                    "deal": {"A": "2", "B": "house", "C": "cuckoo", "D": "0", "E": "8"},
                    "stock": ["1"], "actions": [["A", "swap"]]}],
    }
    assert round_results(replay(parse(data)))[0]["ended_by"] == "cuckoo"
    data["rounds"][0]["actions"].append(["B", "stand"])
    assert inconsistency(data).startswith("round 1: action 2")


def test_too_few_actions_are_inconsistent() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["actions"].pop()
    message = inconsistency(data)
    assert message.startswith("round 1: actions: too few")
    assert "D" in message


def test_no_actions_at_all_are_too_few() -> None:
    data = fresh(DRAGOON_DRAW)
    data["rounds"][0]["actions"] = []
    assert inconsistency(data) == "round 1: actions: too few; the engine waits for A"


def test_a_round_after_the_match_is_over_is_inconsistent() -> None:
    data = fresh(SHORT_MATCH)
    data["rounds"].append({"dealer": "B", "deal": {"B": "9"}, "stock": [], "actions": []})
    message = inconsistency(data)
    assert message.startswith("round 2")
    assert "over" in message


# -- the match result ----------------------------------------------------------------


def test_match_result_is_computed() -> None:
    rep = replay(parse(fresh(SHORT_MATCH)))
    assert match_result(rep.final) == {"winners": ["B"], "out": ["A"]}
    assert match_result(replay(parse(fresh(DRAGOON_DRAW))).final) is None


def test_a_correct_match_result_verifies() -> None:
    data = fresh(SHORT_MATCH)
    data["result"] = {"winners": ["B"], "out": ["A"]}
    assert parse(data).result == {"winners": ["B"], "out": ["A"]}
    code, lines = verify_text(json.dumps(data), "m.json")
    assert code == 0, lines


def test_shared_win_lists_seats_in_seat_order() -> None:
    data = fresh(SHORT_MATCH)
    data["rounds"][0]["deal"] = {"A": "5", "B": "5"}
    rep = replay(parse(data))
    assert match_result(rep.final) == {"winners": ["A", "B"], "out": ["A", "B"]}
    data["result"] = {"winners": ["A", "B"], "out": ["A", "B"]}
    code, lines = verify_text(json.dumps(data), "draw.json")
    assert code == 0, lines


def test_wrong_winners_are_reported() -> None:
    data = fresh(SHORT_MATCH)
    data["result"] = {"winners": ["A"], "out": ["A"]}
    code, lines = verify_text(json.dumps(data), "m.json")
    assert code == 1
    assert lines == ["m.json: result: winners: record says [A], engine computes [B]"]


def test_wrong_out_is_reported() -> None:
    data = fresh(SHORT_MATCH)
    data["result"] = {"winners": ["B"], "out": []}
    code, lines = verify_text(json.dumps(data), "m.json")
    assert code == 1
    assert lines == ["m.json: result: out: record says [], engine computes [A]"]


def test_a_result_for_a_match_that_goes_on_is_reported() -> None:
    data = fresh(DRAGOON_DRAW)
    data["result"] = {"winners": ["C"], "out": []}
    code, lines = verify_text(json.dumps(data), "m.json")
    assert code == 1
    assert len(lines) == 1
    assert lines[0].startswith("m.json: result:")
    assert "goes on" in lines[0]


def test_match_result_with_unknown_seat_is_malformed() -> None:
    data = fresh(SHORT_MATCH)
    data["result"] = {"winners": ["Z"], "out": ["A"]}
    message = malformed(data)
    assert "winners" in message
    assert "'Z'" in message


@pytest.mark.parametrize("preset,seed", [("gnav", 4), ("gnav-pagat", 9), ("hypp", 2),
                                         ("gnav-summary", 5)])
def test_from_match_takes_results_from_the_history_and_they_agree_with_a_replay(
        preset: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import gnav.record

    match = play_match(seed, ["A", "B", "C", "D", "E"], Rules.of(preset, lives=2))
    calls: list[object] = []
    real = gnav.record.replay

    def spy(record: Record) -> gnav.record.Replay:
        calls.append(record)
        return real(record)

    monkeypatch.setattr(gnav.record, "replay", spy)
    data = from_match(match)
    assert calls == []  # nothing replayed to write the record
    written = [rd["result"] for rd in data["rounds"]]
    assert written == round_results(real(parse(json.loads(json.dumps(data)))))
