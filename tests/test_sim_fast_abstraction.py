"""The vectorised abstraction is ``gnav.abstraction``: at every decision of random
rounds, ``index(d)`` equals ``abstract_key(view)`` of the deciding seat."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.abstraction import abstract_key
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.sim.fast.abstraction import GnavAbstraction
from gnav.sim.fast.decision import Decision
from gnav.sim.fast.deck import Deck
from gnav.sim.fast.engine import Rounds
from gnav.sim.fast.policies import FunctionPolicy, TablePolicy
from gnav.sim.fast.tables import Tables
from gnav.views import seat_view
from gnav.vocab import Action


@pytest.mark.parametrize(("preset", "seats", "options"), [
    ("gnav", 4, {}), ("gnav", 10, {}), ("gnav", 33, {}), ("gnav-1917", 6, {"revealed": "act"}),
    ("slabberjan", 7, {}), ("cuccu", 12, {"knock": "silent"}), ("hypp", 20, {}),
    ("gnav-summary", 5, {"stand_needs_matador": True}), ("chase-the-ace", 9, {}),
])
def test_the_index_is_the_abstract_key(preset: str, seats: int,
                                       options: dict[str, object]) -> None:
    rules = Rules.of(preset, **options)
    tables = Tables.of(rules)
    abstraction = GnavAbstraction(rules)
    rows = 150
    deck = Deck.shuffled(tables, rows, seats, np.random.default_rng(seats), full=True)
    keys: dict[tuple[int, int], int] = {}

    def spy(d: Decision) -> np.ndarray:
        index = abstraction.index(d)
        assert ((index >= 0) & (index < abstraction.size)).all()
        for r in np.flatnonzero(d.deciding).tolist():
            keys[r, d.column] = int(index[r])
        return (d.piece * 5 + d.swaps + d.column * 3) % 7 < 4

    rnd = Rounds(tables, deck, seats, seats).play([FunctionPolicy(spy)])
    for r in range(rows):
        d = [int(x) for x in deck.deck[r]]
        match = MatchState.new(rules, [f"S{i}" for i in range(seats)],
                               dealer=seats - 1).deal(d[:seats], d[seats:])
        while match.to_act is not None:
            assert match.round is not None
            pos = match.round.turn
            assert keys.pop((r, pos)) == abstract_key(seat_view(match, match.to_act))
            match, _ = match.apply(Action.SWAP if rnd.actions[r, pos] else Action.STAND)
    assert not keys


def test_a_table_from_keys_plays_them() -> None:
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    table = abstraction.table({12345: 1.0}, default=0.0)
    assert table[12345] == 1.0 and table.sum() == 1.0
    TablePolicy(abstraction, table)
    with pytest.raises(ValueError, match="not a gnav-abstraction/1 key"):
        abstraction.layout.read_text("0|1|nonesuch|-|-|-|0")
