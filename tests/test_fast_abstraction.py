"""The compiled engine keys each decision as ``gnav.abstraction`` does: at every decision
of random rounds, the key it writes (``keys``, the index its table is read at) equals
``abstract_key(view)`` of the deciding seat (the leak guard: the batch's key holds
nothing the view does not)."""

from __future__ import annotations

import numpy as np
import pytest

from fastkit import replay
from gnav.abstraction import abstract_key
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.jit import ABSTRACT, JitRounds, decks
from gnav.fast.policies import TablePolicy
from gnav.fast.tables import Tables
from gnav.rules import Rules
from gnav.views import SeatView


@pytest.mark.parametrize(("preset", "seats", "options"), [
    ("gnav", 4, {}), ("gnav", 10, {}), ("gnav", 33, {}), ("gnav-1917", 6, {"revealed": "act"}),
    ("slabberjan", 7, {}), ("cuccu", 12, {"knock": "silent"}), ("hypp", 20, {}),
    ("gnav-summary", 5, {"stand_needs_matador": True}), ("chase-the-ace", 9, {}),
])
def test_the_index_is_the_abstract_key(preset: str, seats: int,
                                       options: dict[str, object]) -> None:
    rules = Rules.of(preset, **options)
    abstraction = GnavAbstraction(rules)
    rows = 150
    d = decks(Tables.of(rules), seats, rows)
    table = np.random.default_rng(seats).random((1, abstraction.size))
    played = JitRounds(rules, seats, rows, seed=seats, decks=d).play(table, ABSTRACT)
    met = 0

    def check(rnd: JitRounds, r: int, pos: int, view: SeatView) -> None:
        nonlocal met
        key = int(rnd.keys[r, pos])
        assert 0 <= key < abstraction.size
        assert key == abstract_key(view)
        met += 1

    replay(rules, played, d, check)
    assert met == int((played.actions >= 0).sum()) > rows
    assert ((played.keys >= 0) == (played.actions >= 0)).all()


def test_a_table_from_keys_plays_them() -> None:
    rules = Rules.of("gnav")
    abstraction = GnavAbstraction(rules)
    table = abstraction.table({12345: 1.0}, default=0.0)
    assert table[12345] == 1.0 and table.sum() == 1.0
    TablePolicy(abstraction, table)
    with pytest.raises(ValueError, match="not a gnav-abstraction/1 key"):
        abstraction.layout.read_text("0|1|nonesuch|-|-|-|0")
