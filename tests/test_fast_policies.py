"""A policy written as a function of the abstraction's features (``gnav.abstraction.Key``)
is tabulated once (``table_of``, ``FeaturePolicy``) and plays as that function: its table
holds the function's answer at every key, and at every decision of rounds replayed
through the reference engine the seat took the function's action at the key its view
gives."""

from __future__ import annotations

import numpy as np
import pytest

from fastkit import Reference, replay
from gnav.abstraction import RIGHT, Key, Layout, abstract_key
from gnav.fast.jit import ABSTRACT, JitRounds, decks
from gnav.fast.matches import play_matches
from gnav.fast.policies import FeaturePolicy, table_of
from gnav.fast.tables import Tables
from gnav.rules import Rules
from gnav.views import SeatView
from gnav.vocab import Action

_SWAPPED = RIGHT.index("W")


def careful(key: Key) -> bool:
    """A hand-written pure policy reading every feature: swap a low piece, keep a piece
    the right neighbour gave (it took a better one), swap anything with a knocked fool
    at the left, stand at the table's ends with a middling piece."""
    if key.left:
        return key.piece > 2
    if key.right == _SWAPPED and key.gave < key.piece:
        return False
    low = key.piece > 9 - 2 * key.k
    return low and not (key.b == 0 and key.a > 3 and key.piece < 13)


def mixed(key: Key) -> float:
    return ((key.piece * 7 + key.gave * 3 + key.right + key.left * 5 + key.k
             + key.b * 11 + key.a * 13) % 10) / 9


@pytest.mark.parametrize("fn", [careful, mixed])
def test_the_table_holds_the_function_at_every_key(fn: object) -> None:
    rules = Rules.of("gnav")
    layout = Layout.of(rules)
    table = table_of(rules, fn)  # type: ignore[arg-type]
    assert table.shape == (layout.size,)
    for i in np.random.default_rng(3).integers(0, layout.size, 3000).tolist():
        assert table[i] == float(fn(layout.unpack(i)))  # type: ignore[operator]
    assert 0 < table.mean() < 1


@pytest.mark.parametrize(("preset", "seats", "options"), [
    ("gnav", 8, {}), ("cuccu", 11, {"knock": "public"}),
    ("gnav-summary", 5, {"stand_needs_matador": True}),
])
def test_a_feature_policy_plays_as_its_function(preset: str, seats: int,
                                                options: dict[str, object]) -> None:
    rules = Rules.of(preset, **options)
    layout = Layout.of(rules)
    policy = FeaturePolicy(rules, careful)
    rows = 200
    d = decks(Tables.of(rules), 5, rows)
    played = JitRounds(rules, seats, rows, seed=5, decks=d).play(policy.table, ABSTRACT)
    met = {True: 0, False: 0}

    def check(rnd: JitRounds, row: int, column: int, view: SeatView) -> None:
        key = abstract_key(view)
        assert rnd.keys[row, column] == key
        want = careful(layout.unpack(key)) or Action.STAND not in view.legal
        assert bool(rnd.actions[row, column]) == want
        met[want] += 1

    replay(rules, played, d, check)
    assert met[True] and met[False]


def test_a_match_plays_a_feature_policy() -> None:
    rules = Rules.of("gnav", lives=2)
    layout = Layout.of(rules)
    policy = FeaturePolicy(rules, careful, "careful")
    assert repr(policy) == "FeaturePolicy(careful)"
    checked = []

    def check(rnd: JitRounds, row: int, column: int, view: SeatView) -> None:
        key = abstract_key(view)
        assert rnd.keys[row, column] == key
        want = careful(layout.unpack(key)) or Action.STAND not in view.legal
        assert bool(rnd.actions[row, column]) == want
        checked.append(want)

    ref = Reference(rules, 6, 10, [0] * 10, 7, check)
    out = play_matches(rules, 6, 10, [policy], rng=np.random.default_rng(7),
                       decks=ref.decks_for, stochastic=False, watch=ref.watch)
    assert out.over.all() and True in checked and False in checked
    assert [m.lives for m in ref.states] == [tuple(x) for x in out.lives.tolist()]


def test_a_function_that_gives_no_probability_is_refused() -> None:
    rules = Rules.of("chase-the-ace")
    with pytest.raises(ValueError, match=r"gives 2\.0 at .*not a probability"):
        table_of(rules, lambda key: 2.0 if key.piece == 3 else 0.5)
