"""A finished record as the steps of the replay viewer, everything face up.

The browser never plays the rules itself: the record is replayed through the engine
(``gnav.record``), and each decision becomes a step holding what happened, in full
(the pieces of every swap and draw), and every hand after it. A record is history, so
nothing in it is hidden any more. Standard library only.
"""

from __future__ import annotations

from typing import Any

from gnav.errors import Code, GnavError, MalformedError, RefusedError
from gnav.events import Eliminated, Event, MatchEnd, event_to_json
from gnav.match import MatchState
from gnav.record import loads, replay
from gnav.round import full_event
from gnav.table.config import LOOKS
from gnav.verify import results_warnings

# The biggest records this server writes (41 seats, 10 lives, threshold bots: table seeds
# 1 to 8) measure 1.4 to 4.0 MB and 7,000 to 20,000 steps: the viewer takes three times
# that.
MAX_BYTES = 12_000_000  # a record's text
MAX_STEPS = 60_000  # decisions and deals in one record


class ReplayError(RefusedError):
    """A record the viewer cannot show; ``code`` is machine-readable, the text one line."""


def _step(state: MatchState, k: int, i: int, events: list[Event]) -> dict[str, Any]:
    rnd = state.round
    assert rnd is not None
    names = state.names
    ids = rnd.rules.ids
    return {
        "round": k, "index": i,
        "events": [event_to_json(e, names) for e in events],
        "hands": [ids[h] for h in rnd.hands],
        "lives": {names[s]: v for s, v in enumerate(rnd.lives)},
        "to_act": None if state.to_act is None else names[state.to_act],
        "stock_left": rnd.stock_left(),
        "aside": [ids[a] for a in rnd.aside],
        "out": [names[s] for s in state.out],
        "winners": None if state.winners is None else [names[s] for s in state.winners],
    }


def replay_steps(text: str) -> dict[str, Any]:
    """The viewer's steps for the record ``text``.

    :raises: :exc:`ReplayError` saying in one line what is wrong with it.
    """
    if len(text) > MAX_BYTES:
        raise ReplayError(Code.TOO_BIG, f"record: over {MAX_BYTES} characters")
    try:
        record = loads(text)
        rep = replay(record)
    except MalformedError as e:
        raise ReplayError(Code.BAD_RECORD, f"record: {e}") from None
    except GnavError as e:  # InconsistentError: the rules contradict the record
        raise ReplayError(Code.INCONSISTENT, f"record: {e}") from None
    total = sum(len(seen) for seen in rep.states)
    if total > MAX_STEPS:
        raise ReplayError(Code.TOO_BIG, f"record: {total} steps is over the viewer's limit "
                          f"of {MAX_STEPS}")
    warnings = results_warnings(rep)
    names = record.seats
    rounds: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    out_before: tuple[int, ...] = ()
    for k, seen in enumerate(rep.states, 1):
        first = seen[0]
        rnd = first.round
        assert rnd is not None
        ids = rnd.rules.ids
        rounds.append({"round": k, "dealer": names[rnd.dealer],
                       "order": [names[s] for s in rnd.seats],
                       "deal": [ids[p] for p in rnd.deal],
                       "stock": [ids[p] for p in rnd.stock],
                       "first_step": len(steps)})
        steps.append(_step(first, k, 0, list(rnd.public)))
        for i in range(1, len(seen)):
            before, after = seen[i - 1].round, seen[i].round
            assert before is not None and after is not None
            events: list[Event] = [full_event(seen[i].round, j, after.public[j])
                                   for j in range(len(before.public), len(after.public))]
            state = seen[i]
            gone = tuple(s for s in state.out if s not in out_before)
            if gone:
                events.append(Eliminated(gone))
                out_before = state.out
            if state.winners is not None:
                events.append(MatchEnd(state.winners))
            steps.append(_step(state, k, i, events))
    final = rep.final
    return {
        "preset": record.rules.preset.name, "rules": record.rules.to_spec(),
        "options": record.rules.options.as_dict(),
        "seats": list(names),
        "start_lives": {names[s]: v for s, v in enumerate(final.start_lives)},
        "rounds": rounds, "steps": steps,
        "winners": None if final.winners is None else [names[s] for s in final.winners],
        # The same words as gnav replay's (gnav.verify.WARNING), in each language.
        "warning": None if warnings is None else warnings["en"],
        "warnings": warnings,
        "look": _look(record.x),
    }


def _look(x: object) -> str | None:
    """The pieces the table showed (``x.look``, written by ``gnav serve``), if the record
    names one the viewer draws; the viewer otherwise goes by the ``pack`` option."""
    look = x.get("look") if isinstance(x, dict) else None
    return look if isinstance(look, str) and look in LOOKS else None
