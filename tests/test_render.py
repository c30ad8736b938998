"""The renderer (gnav.table.render): each seat's messages from the table's notices."""

from __future__ import annotations

import random
from typing import Any

from gnav.events import event_to_json
from gnav.names import parse_name
from gnav.round import merge
from gnav.table import Played, Table, TableConfig, messages, render
from gnav.table.render import public_events
from gnav.table.table import Result
from gnav.views import seat_view, spectator_view
from gnav.vocab import TablePhase

T0 = 50.0


def people(seats: int = 4, **options: Any) -> tuple[Table, list[str], Result]:
    """A table of ``seats`` people, started; the start's result."""
    config = TableConfig.from_json({"seats": seats, "turn_timer": None, "bot": "random",
                                    "options": {"lives": 2, **options}})
    table, host, _ = Table.create("rendered", config, now=T0, seed=5)
    tokens = [table.join(parse_name(f"P{i}"), T0)[1] for i in range(seats)]
    return table, tokens, table.start(host, T0)


def played_out(seed: int = 1) -> tuple[Table, list[Played]]:
    """Every decision's notices until the match ends, people choosing at random."""
    table, tokens, _ = people()
    rng = random.Random(seed)
    notices: list[Played] = []
    while table.phase == TablePhase.PLAYING and table.match is not None:
        seat = table.match.to_act
        assert seat is not None
        result = table.act(seat, tokens[seat], table.version,
                           rng.choice(table.match.legal_actions()), T0)
        notices += [n for n in result.notices if isinstance(n, Played)]
    return table, notices


def test_a_seat_gets_its_own_overlays_and_never_another_seats() -> None:
    _table, notices = played_out()
    overlays = dealt = 0
    for notice in notices:
        out = render([notice])
        for step in notice.steps:
            match, start = step.match, step.start
            names = match.names
            public = public_events(step)
            updates = {seat: o.message for o in out for seat in o.to
                       if o.message["version"] == step.version}
            assert set(updates) == {0, 1, 2, 3, None}
            # The spectators' list is the public one, nothing laid over it.
            assert updates[None]["events"] == public
            for seat in range(4):
                view = seat_view(match, seat)
                events = updates[seat]["events"]
                mine = {i - start: event_to_json(e, names) for i, e in view.private
                        if i >= start}
                if start == 0 and view.dealt is not None:
                    mine[0] = event_to_json(merge(view.public[:1], (), view.dealt)[0], names)
                    dealt += 1
                overlays += len(mine)
                for i, event in enumerate(events):
                    assert event == mine.get(i, public[i])
                for other in set(range(4)) - {seat}:
                    theirs = seat_view(match, other)
                    for i, e in theirs.private:
                        if i >= start and event_to_json(e, names) != public[i - start] \
                                and i - start not in mine:
                            assert events[i - start] == public[i - start]
    # The match had private events to check: dealt pieces, and swaps and draws.
    assert dealt > 10 and overlays - dealt > 5


def test_each_update_is_what_the_seats_view_alone_gives() -> None:
    _table, notices = played_out(seed=4)
    for notice in notices:
        for o in render([notice]):
            for seat in o.to:
                step = next(s for s in notice.steps if s.version == o.message["version"])
                view = spectator_view(step.match) if seat is None else \
                    seat_view(step.match, seat)
                plain = [event_to_json(e, step.match.names)
                         for e in [*view.events[step.start:], *step.extra]]
                assert o.message["events"] == plain


def test_shared_parts_are_shared_on_purpose() -> None:
    table, tokens, _ = people()
    assert table.match is not None
    seat = table.match.to_act
    assert seat is not None
    result = table.act(seat, tokens[seat], table.version,
                       table.match.legal_actions()[0], T0)
    out = render(result.notices)
    # One table description for every seat's update of a notice.
    tables = {id(o.message["table"]) for o in out}
    assert len(out) == 5 * sum(len(n.steps) for n in result.notices
                               if isinstance(n, Played))
    assert len(tables) == 1
    # News is one message for everyone (encoded once).
    left = render(table.disconnect(0, T0 + 1).notices)
    assert len(left) == 1 and set(left[0].to) == {0, 1, 2, 3, None}
    assert left[0].message["type"] == "table"


def test_nothing_is_built_for_those_not_listening() -> None:
    table, tokens, start = people()
    assert {o.to for o in render(start.notices, {2})} == {(2,)}
    assert render(start.notices, set()) == []
    assert table.match is not None
    seat = table.match.to_act
    assert seat is not None
    result = table.act(seat, tokens[seat], table.version,
                       table.match.legal_actions()[0], T0)
    alone = render(result.notices, {None})
    assert alone and all(o.to == (None,) for o in alone)
    assert all(o.message["view"]["piece"] is None for o in alone)


def test_a_snapshot_shows_each_seat_only_its_own_piece() -> None:
    table, _tokens, start = people()
    assert table.match is not None
    snaps = {seat: o.message for o in render(start.notices) for seat in o.to}
    for seat in range(4):
        assert snaps[seat]["you"] == seat
        assert snaps[seat]["view"]["piece"] == seat_view(table.match, seat).piece
    assert snaps[None]["you"] is None and snaps[None]["view"]["piece"] is None
    # A hello gets the same snapshot, alone.
    again, _ = table.connect(None, None, None, T0)
    assert messages(again, None)[0]["view"] == snaps[None]["view"]
