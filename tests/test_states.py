"""How states are built: one positional builder per state class, every value named for
its field (what-if copies by name are NamedTuple's own ``_replace``), and short reprs."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random
from typing import Any

import pytest

from gnav.bots.random_bot import RandomBot
from gnav.match import MatchState
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.runner import play_round
from gnav.views import SeatView, seat_view, spectator_view

SRC = Path(__file__).resolve().parents[1] / "src" / "gnav"


def _states() -> tuple[MatchState, RoundState, SeatView]:
    rules = Rules.of("gnav")
    match = MatchState.new(rules, [f"S{i}" for i in range(41)], dealer=0)
    match, _ = play_round(match.deal(rng=Random(1)), [RandomBot(i) for i in range(41)])
    match = match.deal(rng=Random(2))
    assert match.round is not None
    return match, match.round, seat_view(match, 3)


def test_reprs_are_short_at_the_largest_table() -> None:
    match, rnd, view = _states()
    # What a default repr would print: every field of the round, 41 seats of it. (It was
    # 5,000 characters and more for the match, before Rules got a short repr of its own.)
    assert len(repr(tuple(rnd))) > 1_000
    assert repr(match.rules) == "Rules.of('gnav')"
    for state in (match, rnd, view, spectator_view(match), MatchState.new(Rules.of("hypp"),
                                                                          ["A", "B"])):
        text = repr(state)
        assert len(text) < 200, text
        assert text.startswith(f"<{type(state).__name__} ")
    assert "round 2" in repr(rnd) and "41 seats" in repr(match) and "seat 3" in repr(view)
    # No piece in any repr: they end up in logs.
    assert not any(f" {piece}," in repr(view) or f" {piece} " in repr(view)
                   for piece in view.rules.ids if piece == view.piece)


def test_tuple_new_is_called_in_one_helper_per_state_class() -> None:
    hits = [(path.name, line) for path in sorted(SRC.rglob("*.py"))
            for line in path.read_text(encoding="utf-8").splitlines()
            if "tuple.__new__" in line]
    assert sorted(name for name, _ in hits) == ["match.py", "round.py", "views.py"]
    for name, line in hits:
        cls = {"match.py": "MatchState", "round.py": "RoundState", "views.py": "SeatView"}[name]
        assert line.strip().startswith(f"return tuple.__new__({cls}, ("), line


def test_the_one_seat_view_builder_names_every_value_for_its_field() -> None:
    # Views are built on every decision, directly rather than by keyword: each value
    # must then be a variable named for its field, in field order, or this fails.
    tree = ast.parse((SRC / "views.py").read_text(encoding="utf-8"))
    builds = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
              and ast.unparse(node.func) == "tuple.__new__"]
    assert len(builds) == 1
    cls, values = builds[0].args
    assert ast.unparse(cls) == "SeatView" and isinstance(values, ast.Tuple)
    assert [ast.unparse(v) for v in values.elts] == list(SeatView._fields)


@pytest.mark.parametrize("module,builder,cls", [("round.py", "_round", RoundState),
                                                ("match.py", "_match", MatchState)])
def test_every_positional_build_names_each_value_for_its_field(
        module: str, builder: str, cls: type[Any]) -> None:
    # States are built positionally, for speed; by rule each argument is a variable
    # named for its field, in order, so two fields cannot trade places unseen.
    fields = list(cls._fields)
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    (define,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                 and n.name == builder]
    assert [a.arg for a in define.args.args] == fields
    (built,) = [n for n in ast.walk(define) if isinstance(n, ast.Call)]
    assert [ast.unparse(v) for v in built.args[1].elts] == fields  # type: ignore[attr-defined]
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == builder]
    assert len(calls) >= 2
    for call in calls:
        assert not call.keywords
        assert [ast.unparse(n) for n in call.args] == fields, ast.unparse(call)
    others = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == builder
              and not any(n is c.func for c in calls)]
    assert others == []  # not passed around, not aliased


def test_the_counter_bots_imagined_round_plays_on_from_the_middle() -> None:
    rules = Rules.of("gnav")
    five, seven, nine = rules.index("5"), rules.index("7"), rules.index("9")
    rnd = RoundState.imagined(rules, (0, 1, 2), (five, seven, nine), (seven, five, nine),
                              (rules.index("2"),), (4, 4, 4), number=3, turn=1)
    assert rnd.to_act == 1 and rnd.number == 3 and rnd.stock_left() == 1
    after, _ = rnd.apply("swap")
    assert after.hands == (seven, nine, five) and after.to_act == 2
    with pytest.raises(ValueError):
        RoundState.imagined(rules, (0, 1), (five, seven), (five, seven), (), (4, 4),
                            number=1, turn=2)
