"""Puzzles: cut from the deciding seat's view alone (moving a piece it cannot see changes
no puzzle), kept only where the expert's choice is clearly better, and every shipped
puzzle's answer is the expert's by its stated margin under the coach's figures now."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gnav.cli import main
from gnav.events import Answer, Knock, Swap
from gnav.learn.puzzles import (
    ERROR_TIMES,
    MIN_MARGIN,
    RECORDS,
    cut,
    dump,
    grow,
    load,
    puzzle_at,
    puzzle_of,
    read_grown,
)
from gnav.match import MatchState
from gnav.odds.coach import Advice, advise
from gnav.odds.figures import Figure
from gnav.record import dumps, loads, replay
from gnav.views import seat_view, view_to_json
from gnav.vocab import Action


@cache
def _records() -> dict[str, Any]:
    bundle: dict[str, Any] = json.loads(gzip.decompress(RECORDS.read_bytes()))
    return bundle


@cache
def _decisions() -> tuple[tuple[MatchState, int], ...]:
    """(state, seat) before each decision of the shipped matches that makes a puzzle."""
    out = []
    for name in sorted(_records()):
        record = loads(json.dumps(_records()[name]))
        for k, seen in enumerate(replay(record).states, 1):
            for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False):
                if puzzle_at(before, seat) is not None:
                    out.append((before, seat))
    return tuple(out)


def _hidden(match: MatchState, seat: int) -> list[int]:
    """The positions whose piece ``seat`` has not seen: not its own, not one it swapped
    with, not a shown matador, not a knock."""
    rnd = match.round
    assert rnd is not None
    seen = {rnd.position(seat)}
    for e in seat_view(match, seat).events:
        if isinstance(e, Swap) and e.seat_got is not None:
            seen |= {rnd.position(e.seat), rnd.position(e.target)}
        elif isinstance(e, Answer | Knock) and e.seat is not None:
            seen.add(rnd.position(e.seat))
    return [p for p in range(len(rnd.seats)) if p not in seen]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_moving_a_piece_the_deciding_seat_cannot_see_changes_no_puzzle(data: st.DataObject) -> None:
    decisions = _decisions()
    match, seat = decisions[data.draw(st.integers(0, len(decisions) - 1), label="decision")]
    rnd = match.round
    assert rnd is not None
    hidden = _hidden(match, seat)
    # The hidden hands and the stock's pieces still to draw, dealt again in another order.
    pool = [rnd.hands[p] for p in hidden] + list(rnd.stock[rnd.drawn:])
    moved = data.draw(st.permutations(pool), label="moved")
    hands = list(rnd.hands)
    for p, piece in zip(hidden, moved, strict=False):
        hands[p] = piece
    stock = rnd.stock[:rnd.drawn] + tuple(moved[len(hidden):])
    other = match._replace(round=rnd._replace(hands=tuple(hands), stock=stock))
    assert puzzle_at(other, seat) == puzzle_at(match, seat)


def test_the_hidden_positions_are_what_the_seat_cannot_see() -> None:
    # A check of the test's own helper: the deciding seat's piece, the pieces of its own
    # swaps and the shown matadors are never moved.
    match, seat = _decisions()[0]
    rnd = match.round
    assert rnd is not None and rnd.position(seat) not in _hidden(match, seat)


def _advice(stand: float, swap: float, *, half: float = 0.0,
            expert: Action | None = None) -> Advice:
    gain = swap - stand
    figure = Figure(gain) if half == 0.0 else Figure(gain, gain - half, gain + half, 100)
    best = Action.SWAP if swap > stand else Action.STAND
    return Advice(Figure(0.5), Figure(0.5), Figure(stand), Figure(swap), expert or best,
                  1.0 if (expert or best) == Action.SWAP else 0.0,
                  "exact" if half == 0.0 else "sampled", 0 if half == 0.0 else 100, figure)


def test_a_puzzle_needs_the_experts_choice_clearly_better() -> None:
    match, seat = next((m, s) for m, s in _decisions()
                       if seat_view(m, s).rules.piece_named(seat_view(m, s).piece or "").power
                       is None)
    view = seat_view(match, seat)
    clear = puzzle_of(view, _advice(-0.6, -0.2))
    assert clear is not None and clear["answer"] == "swap"
    assert clear["margin"] == pytest.approx(0.4) and clear["error"] == 0.0
    assert puzzle_of(view, _advice(-0.5, -0.5 + MIN_MARGIN * 0.9)) is None  # too close
    # Beyond the minimum, but within ERROR_TIMES of the figures' own error.
    assert puzzle_of(view, _advice(-0.6, -0.2, half=0.4 / ERROR_TIMES * 1.1)) is None
    assert puzzle_of(view, _advice(-0.6, -0.2, half=0.4 / ERROR_TIMES * 0.9)) is not None
    # The expert disagreeing with the figures: no puzzle.
    assert puzzle_of(view, _advice(-0.6, -0.2, expert=Action.STAND)) is None
    # The puzzle holds the seat's own view, nothing more.
    assert clear["view"] == view_to_json(view)


def test_every_shipped_puzzle_is_the_experts_by_its_stated_margin() -> None:
    shipped = load()
    assert shipped["count"] == len(shipped["puzzles"]) > 100
    states: dict[tuple[str, int, str], list[tuple[MatchState, int]]] = {}
    for name, data in _records().items():
        record = loads(json.dumps(data))
        for k, seen in enumerate(replay(record).states, 1):
            for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False):
                states.setdefault((name, k, record.seats[seat]), []).append((before, seat))
    for p in shipped["puzzles"]:
        where = p["from"]
        found = [(m, s) for m, s in states[where["record"], where["round"], where["seat"]]
                 if view_to_json(seat_view(m, s)) == p["view"]]
        assert len(found) == 1, p["id"]
        view = seat_view(*found[0])
        now = advise(view)
        assert now is not None and now.expert == now.best == Action(p["answer"])
        gain = now.swap_gain
        error = 0.0 if gain.low is None or gain.high is None else (gain.high - gain.low) / 2
        assert abs(abs(gain.value) - p["margin"]) <= p["error"] + error + 1e-6, p["id"]
        assert p["margin"] >= MIN_MARGIN and p["margin"] >= ERROR_TIMES * p["error"]
        # Only the seat's own swaps show pieces; every other piece in it is public.
        for e in p["view"]["events"]:
            if e["type"] == "swap" and e["seat_got"] is not None:
                assert p["view"]["seat"] in (e["seat"], e["target"])


def test_the_command_cuts_a_file_and_says_how_many(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    name = sorted(_records())[0]
    path = tmp_path / name
    path.write_text(dumps(_records()[name]), encoding="utf-8")
    out = tmp_path / "p.json"
    assert main(["puzzles", str(path), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    written = json.loads(out.read_text(encoding="utf-8"))
    expected = dump(cut([(name, loads(path.read_text(encoding="utf-8")))]))
    assert written["count"] == expected["count"] > 0
    assert f"{written['count']} puzzles from {written['decisions']} decisions" in said
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["puzzles", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and err.count("\n") == 1


def test_growing_adds_each_new_puzzle_once_and_reads_past_a_broken_line(tmp_path: Path) -> None:
    name = sorted(_records())[0]
    record = loads(json.dumps(_records()[name]))
    path = tmp_path / "grown.jsonl"
    added = grow(path, name, record)
    expected = cut([(name, record)]).puzzles
    assert added == len(expected) > 0
    assert [p["id"] for p in read_grown(path)] == [p["id"] for p in expected]
    assert grow(path, name, record) == 0  # the same match again: nothing new
    with path.open("a", encoding="utf-8") as f:
        f.write('{"id": "cut sh')  # a line cut short, as a crash mid-write leaves it
    assert len(read_grown(path)) == added
    # A match with more sampled decisions than allowed is left out whole.
    six = next(n for n in sorted(_records()) if n.startswith("gnav-6"))
    assert cut([(six, loads(json.dumps(_records()[six])))], most_sampled=0).puzzles == []
