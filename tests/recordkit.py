"""Records shared by tests (no tests here): the worked records of ``tests/records/``, a
worked round, a finished match of bots, and every decision of random play."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gnav.bots import RandomBot
from gnav.match import MatchState
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.views import SeatView, seat_view
from gnav.vocab import Action

# The worked records (docs/spec/records.md): the repository's own, never a folder beside it.
RECORDS = Path(__file__).resolve().parent / "records"


def record_paths() -> list[Path]:
    """Every worked record, by name."""
    return sorted(RECORDS.glob("*.json"))


def disagreeing_record() -> str:
    """A worked record that replays, with two stated results the engine disagrees with:
    round 1's lives of B (the engine computes 1) and the winners (the engine: C)."""
    data: dict[str, Any] = json.loads(
        (RECORDS / "rule-rotation-passes-over-the-out.json").read_text(encoding="utf-8"))
    data["rounds"][0]["result"]["lives"]["B"] = 3
    data["result"]["winners"] = ["B"]
    return json.dumps(data)


# hc-02 of the worked records: the dealer draws the Dragoon from the stock. Tests copy it
# before changing it.
DRAGOON_DRAW: dict[str, Any] = {
    "gnav": 1,
    "rules": "gnav",
    "seats": ["A", "B", "C", "D"],
    "rounds": [{
        "dealer": "D",
        "deal": {"A": "5", "B": "8", "C": "11", "D": "1"},
        "stock": ["dragoon", "9"],
        "actions": [["A", "stand"], ["B", "stand"], ["C", "stand"], ["D", "swap"]],
        "result": {"hands": {"A": "5", "B": "8", "C": "11", "D": "1"},
                   "lives": {"A": 4, "B": 4, "C": 4, "D": 2},
                   "sit_out": [], "ended_by": "turns"},
    }],
}


def play_out(match: MatchState, rng: random.Random,
             choose: Callable[[MatchState, SeatView], Action]) -> MatchState:
    """``match`` played to its end: dealt with ``rng``, each decision ``choose``'s from
    the match as it stands and the view of the seat to act."""
    while not match.over:
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        match, _ = match.apply(choose(match, seat_view(match, seat)))
    return match


def bots_match(seed: int, names: tuple[str, ...] = ("Ada", "Bo", "Cy", "Di"),
               lives: int = 2) -> str:
    """A finished match of random bots, as a record's text."""
    match = MatchState.new(Rules.of("gnav", lives=lives), list(names), seed=seed)
    bot = RandomBot(seed)
    return dumps(from_match(play_out(match, random.Random(seed), lambda _, v: bot.act(v))))


def played(rules: Rules, seats: int, seed: int, matches: int) -> list[tuple[MatchState,
                                                                          SeatView]]:
    """(the match, the view of the seat to act) at every decision of random play."""
    rng = random.Random(seed)
    out: list[tuple[MatchState, SeatView]] = []

    def choose(match: MatchState, view: SeatView) -> Action:
        out.append((match, view))
        return rng.choice(match.legal_actions())

    for _ in range(matches):
        play_out(MatchState.new(rules, tuple(f"s{i}" for i in range(seats)),
                                seed=rng.randrange(10**9)), rng, choose)
    return out
