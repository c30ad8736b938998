"""Helpers shared by the round and power tests: hand-made rounds, and events as tuples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from gnav.events import Event, RoundEnd, Showdown
from gnav.round import RoundState
from gnav.rules import Rules


def start(
    preset: str,
    deal_ids: Sequence[str],
    stock_ids: Sequence[str],
    lives: int | Sequence[int] = 4,
    **opts: object,
) -> RoundState:
    """A round with seats 0..n-1 in turn order (the last is the dealer)."""
    rules = Rules.of(preset, **opts)
    seats = tuple(range(len(deal_ids)))
    per_seat = [lives] * len(deal_ids) if isinstance(lives, int) else list(lives)
    return RoundState.start(
        rules,
        seats,
        [rules.index(p) for p in deal_ids],
        [rules.index(p) for p in stock_ids],
        per_seat,
    )


def play(state: RoundState, *actions: str) -> tuple[RoundState, list[Event]]:
    """Apply ``actions`` in turn; the state after, and every public event they caused."""
    events: list[Event] = []
    for action in actions:
        state, new = state.apply(action)
        events.extend(new)
        assert_conserved(state)  # the conservation invariant holds after every step
    return state, events


def ev(events: Sequence[object]) -> list[tuple[object, ...]]:
    """Events as comparable tuples that start with their kind (NamedTuples of different
    types would compare equal). A showdown becomes its seat -> piece map and a round end
    its lives per seat; tuples made by ``sd`` and ``end`` pass through as they are."""
    out: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, Showdown):
            out.append(("showdown", dict(e.hands)))
        elif isinstance(e, RoundEnd):
            lives = tuple(e.lives)
            if lives and isinstance(lives[0], tuple):
                lives = tuple(v for _, v in lives)
            out.append(("round_end", e.ended_by, lives, tuple(e.sit_out)))
        elif isinstance(e, tuple) and hasattr(e, "kind"):
            out.append((getattr(e, "kind"), *e))  # noqa: B009
        else:
            assert isinstance(e, tuple)
            out.append(e)
    return out


def sd(*pieces: str) -> tuple[object, ...]:
    """The showdown of seats 0..n-1 holding ``pieces``."""
    return ("showdown", dict(enumerate(pieces)))


def end(ended_by: str, lives: tuple[int, ...], sit_out: tuple[int, ...] = ()) -> tuple[
        object, ...]:
    """The round end: who ended it, every seat's lives after it, who sits out next."""
    return ("round_end", ended_by, lives, sit_out)


def hands(state: RoundState) -> list[str]:
    return [state.rules.ids[h] for h in state.hands]


def ids(state: RoundState, pieces: Sequence[int]) -> list[str]:
    return [state.rules.ids[p] for p in pieces]


def assert_conserved(state: RoundState) -> None:
    before = Counter(state.deal) + Counter(state.stock)
    after = Counter(state.hands) + Counter(state.stock[state.drawn:]) + Counter(state.aside)
    assert before == after
