"""Hostile records: whatever the bytes, verify answers with a code and lines, never raises."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gnav.verify import verify_text
from recordkit import record_paths

SAMPLES = [json.loads(p.read_text(encoding="utf-8")) for p in record_paths()]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.text(max_size=8),
                      st.sampled_from(["gnav", "fool", "cat", "A", "B", "swap", "stand"]))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_records_get_an_answer_not_an_exception(data: st.DataObject) -> None:
    record = data.draw(st.sampled_from(SAMPLES))
    path = data.draw(st.sampled_from(_paths(record)))
    mutated = _replace(record, path, data.draw(json_value))
    code, lines = verify_text(json.dumps(mutated), "fuzz.json")
    assert code in (0, 1, 2)
    assert lines and all(line.startswith("fuzz.json: ") for line in lines)
    assert all("\n" not in line for line in lines)


@settings(max_examples=200, deadline=None)
@given(json_value)
def test_arbitrary_json_is_malformed_with_one_line(value: Any) -> None:
    code, lines = verify_text(json.dumps(value), "any.json")
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith("any.json: ")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_text_is_malformed(text: str) -> None:
    code, lines = verify_text(text, "t.json")
    assert code == 2
    assert len(lines) == 1


def test_a_line_break_the_record_holds_stays_inside_its_one_line() -> None:
    # Found by the mutation test above: a seat's name with a line break, quoted by the
    # message about its piece, split the one line; so did a stated ending.
    record = next(r for r in SAMPLES if r["rounds"] and "result" in r["rounds"][0])
    deal = _replace(record, ("rounds", 0, "deal"), {"a\nb": "x\ny"})
    ended = _replace(record, ("rounds", 0, "result", "ended_by"), "\n")
    for mutated in (deal, ended):
        code, lines = verify_text(json.dumps(mutated), "f.json")
        assert code in (1, 2)
        assert len(lines) == 1 and "\n" not in lines[0], lines
        assert "\\n" in lines[0], lines[0]
