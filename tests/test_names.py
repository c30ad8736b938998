"""Seat names: one cap and one set of refused characters for every place a name is typed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gnav.names import NAME_MAX, BadName, clean_name, name_problem, parse_name


def test_a_plain_name_is_fine_and_spaces_fold() -> None:
    assert name_problem("Astrid") is None
    assert clean_name("  Anne   Marie ") == "Anne Marie"
    assert name_problem("x" * NAME_MAX) is None
    # Folded spaces do not count against the cap.
    assert name_problem(" " + "x" * (NAME_MAX - 2) + "   y") is None


def test_what_is_refused_and_why() -> None:
    assert name_problem("") == "a name may not be empty"
    assert name_problem("   ") == "a name needs a letter or a digit, not only spaces"
    assert name_problem("x" * (NAME_MAX + 1)) == \
        f"a name has at most {NAME_MAX} characters, not {NAME_MAX + 1}"
    assert name_problem("A\u202eB") == \
        "a name may not hold the control or formatting character U+202E"
    assert name_problem("A\x1b[2JB") == \
        "a name may not hold the control or formatting character U+001B"


@given(st.text(max_size=40))
def test_a_name_without_a_problem_is_short_visible_and_clean(name: str) -> None:
    if name_problem(name) is None:
        cleaned = clean_name(name)
        assert 1 <= len(cleaned) <= NAME_MAX
        assert cleaned == cleaned.strip()
        assert clean_name(cleaned) == cleaned


def test_parse_name_gives_the_folded_name_or_a_code() -> None:
    assert parse_name("  Anne   Marie ") == "Anne Marie"
    for value, code in (("", "name_blank"), ("  ", "name_blank"), (None, "bad_name"),
                        (7, "bad_name"), ("A\ud800", "bad_name"), ("\u200bA", "bad_name"),
                        ("x" * (NAME_MAX + 1), "name_too_long")):
        with pytest.raises(BadName) as info:
            parse_name(value)
        assert info.value.code == code and "\n" not in str(info.value)
    with pytest.raises(BadName, match=r"surrogate U\+D800"):
        parse_name("A\ud800")


@given(st.text(max_size=40))
def test_parse_name_and_name_problem_agree(name: str) -> None:
    problem = name_problem(name)
    try:
        parsed = parse_name(name)
    except BadName as e:
        assert problem == str(e)
    else:
        assert problem is None and parsed == clean_name(name)
