"""What each sentence of the lesson claims happened: a run of events, in a row, that
must be in the round's log where the sentence is said.

A claim is a sequence of event patterns, matched against consecutive events of the
player's own log (``event_to_json`` with seat names). In a pattern a field's value is
the value the event must hold, with two kinds of words: ``@me`` is the player's name,
and ``$x`` binds the sentence's placeholder ``{x}`` to that field (the same ``$x``
twice must be the same value). A bound seat is said by name; a bound piece (a piece
field) by its name in the reader's language. So a sentence can only name what its
events hold, and only what the player's own log shows: nothing it could not see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Pattern = Mapping[str, Any]
Claim = tuple[Pattern, ...]

PIECE_FIELDS = frozenset({"piece", "seat_got", "target_got", "set_aside"})


def _round_start() -> Claim:
    return ({"type": "round_start", "piece": "$piece"},)


CLAIMS: dict[str, Claim] = {
    # Said at each deal: the player's own piece (from their own log).
    "learn.intro.stand_or_swap": _round_start(),
    "learn.intro.asked": _round_start(),
    "learn.intro.low_again": _round_start(),
    "learn.intro.nearly_lowest": _round_start(),
    "learn.intro.you_first": _round_start(),
    "learn.intro.your_matador": _round_start(),
    "learn.intro.middle": _round_start(),
    "learn.intro.two_fools": _round_start(),
    "learn.you_swapped": ({"type": "ask", "seat": "@me", "target": "$whom"},
                          {"type": "swap", "seat": "@me", "target": "$whom", "seat_got": "$got"}),
    "learn.dealer_draws": ({"type": "ask", "seat": "$dealer", "target": None},
                           {"type": "draw", "seat": "$dealer"}),
    "learn.you_draw": ({"type": "ask", "seat": "@me", "target": None},
                       {"type": "draw", "seat": "@me", "piece": "$got", "set_aside": "$old"}),
    "learn.lowest_pays": ({"type": "pay", "seat": "$payer", "reason": "lowest"},),
    "learn.you_pay_lowest": ({"type": "pay", "seat": "@me", "reason": "lowest"},),
    "learn.asked_number": ({"type": "ask", "seat": "$asker", "target": "@me"},
                           {"type": "swap", "seat": "$asker", "target": "@me",
                            "seat_got": "$gave", "target_got": "$got"}),
    "learn.cuckoo_stops": ({"type": "answer", "seat": "$holder", "piece": "cuckoo",
                            "power": "stop", "asker": "@me"},
                           {"type": "showdown"}),
    "learn.cuckoo_refuses": ({"type": "answer", "seat": "$holder", "piece": "cuckoo",
                              "power": "refuse", "asker": "@me"},),
    "learn.dragoon_charges": ({"type": "answer", "seat": "$holder", "piece": "dragoon",
                               "power": "charge", "asker": "@me"},
                              {"type": "pay", "seat": "@me", "reason": "dragoon"}),
    "learn.cat_undoes": ({"type": "answer", "seat": "$holder", "piece": "cat",
                          "power": "charge_undo", "asker": "$asker"},
                         {"type": "pay", "seat": "$asker", "reason": "cat"},
                         {"type": "undo", "piece": "$back"}),
    "learn.cat_charges": ({"type": "answer", "seat": "$holder", "piece": "cat",
                           "power": "charge", "asker": "$asker"},
                          {"type": "pay", "seat": "$asker", "reason": "cat"}),
    "learn.house_passes": ({"type": "ask", "seat": "$asker", "target": "$holder"},
                           {"type": "answer", "seat": "$holder", "piece": "house",
                            "power": "pass", "asker": "$asker"}),
    "learn.your_horse_passes": ({"type": "answer", "seat": "@me", "piece": "horse",
                                 "power": "pass", "asker": "$asker"},
                                {"type": "draw", "seat": "$asker"},
                                {"type": "showdown"}),
    "learn.knock": ({"type": "knock", "seat": "$holder"},),
    "learn.stock_cuckoo_stops": ({"type": "ask", "seat": "$dealer", "target": None},
                                 {"type": "answer", "seat": None, "piece": "cuckoo",
                                  "power": "stop", "asker": "$dealer"},
                                 {"type": "showdown"}),
    "learn.stock_cuckoo_refuses": ({"type": "ask", "seat": "$dealer", "target": None},
                                   {"type": "answer", "seat": None, "piece": "cuckoo",
                                    "power": "refuse", "asker": "$dealer"}),
    "learn.drag": ({"type": "pay", "seat": "$fool", "reason": "fool"},
                   {"type": "pay", "seat": "$dragged", "reason": "lowest"}),
    "learn.two_knocks": ({"type": "knock", "seat": "@me"}, {"type": "knock", "seat": "$other"}),
    "learn.two_fools_gain": ({"type": "gain", "seat": "@me", "reason": "two_fools"},
                             {"type": "gain", "seat": "$other", "reason": "two_fools"}),
    "learn.you_win": ({"type": "match_end", "winners": ["@me"]},),
}


class Bound(dict[str, dict[str, str]]):
    """A match's placeholders: name -> ``{"seat": name}`` or ``{"piece": id}``."""


def match_at(claim: Claim, events: Sequence[Mapping[str, Any]], start: int,
             me: str) -> Bound | None:
    """The placeholders ``claim`` binds if it matches ``events`` from ``start`` on, one
    pattern an event; None if it does not."""
    if start + len(claim) > len(events):
        return None
    bound = Bound()
    for pattern, event in zip(claim, events[start:start + len(claim)], strict=False):
        for field, want in pattern.items():
            if field not in event or not _holds(want, event[field], field, me, bound):
                return None
    return bound


def _holds(want: Any, got: Any, field: str, me: str, bound: Bound) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(
            _holds(w, g, field, me, bound) for w, g in zip(want, got, strict=True))
    if want == "@me":
        return bool(got == me)
    if isinstance(want, str) and want.startswith("$"):
        if got is None:
            return False
        value = {"piece" if field in PIECE_FIELDS else "seat": str(got)}
        name = want[1:]
        if name in bound:
            return bound[name] == value
        bound[name] = value
        return True
    return bool(want == got)


def find(claim: Claim, events: Sequence[Mapping[str, Any]], start: int,
         me: str) -> tuple[int, Bound] | None:
    """The first place at or after ``start`` where ``claim`` matches: the index of its
    last event and the placeholders; None if nowhere."""
    for i in range(start, len(events) - len(claim) + 1):
        bound = match_at(claim, events, i, me)
        if bound is not None:
            return i + len(claim) - 1, bound
    return None
