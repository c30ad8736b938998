"""Seat names: one cap and one set of refused characters for every place a name is typed."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gnav.names import (
    MARKS_MAX,
    NAME_MAX,
    BadName,
    clean_name,
    is_bot_name,
    name_key,
    name_problem,
    parse_name,
)


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
@example("\uf900")  # a compatibility ideograph: NFC makes it U+8C48
def test_parse_name_and_name_problem_agree(name: str) -> None:
    problem = name_problem(name)
    try:
        parsed = parse_name(name)
    except BadName as e:
        assert problem == str(e)
    else:
        # Composed, as a name sits down (a name typed decomposed, or a compatibility
        # ideograph such as U+F900, is not itself its composed form).
        assert problem is None and parsed == unicodedata.normalize("NFC", clean_name(name))


# -- names are people (issue 27 §4) ------------------------------------------------------

def test_one_letter_typed_three_ways_is_one_name() -> None:
    # U+00C5; A and a combining ring; the Angstrom sign: one name, stored composed.
    forms = ["\u00c5se", "A\u030ase", "\u212bse"]
    assert {parse_name(f) for f in forms} == {"\u00c5se"}
    assert len({name_key(f) for f in forms}) == 1
    # Case and compatibility forms are one name to a reader too.
    assert name_key("ASTRID") == name_key("astrid") == name_key("\uff21strid")
    assert name_key("Astrid") != name_key("Astri")
    # Letters of other scripts drawn as Latin ones: a Cyrillic А, a Greek Ο.
    assert name_key("\u0410strid") == name_key("Astrid") == name_key("\u0391strid")
    assert name_key("B\u039fB") == name_key("bob")
    # A Cyrillic name stays itself, and is not another Cyrillic name.
    assert name_key("\u0412\u0435\u0440\u0430") != name_key("\u041d\u0438\u043d\u0430")


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "A\u3164", "\u115f\u1160", "\uffa0",
                                  "x\u034fy"])
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(BadName) as info:
        parse_name(name)
    assert info.value.code == "bad_name" and "shows nothing" in str(info.value)


def test_combining_marks_are_bounded_and_follow_a_letter() -> None:
    assert parse_name("Vi\u1ec7t") == "Vi\u1ec7t"  # two marks on one vowel, composed
    assert parse_name("e\u0302\u0323\u0301") == "\u1ec7\u0301"  # marks beyond NFC's
    assert parse_name("Anne \u2764\ufe0f") == "Anne \u2764\ufe0f"  # an emoji's selector
    assert parse_name("a" + "\u0308" * MARKS_MAX).startswith("\u00e4")
    for name in ("a" + "\u0301" * 23, "x" + "\u0300\u0301\u0302\u0303\u0304"):
        with pytest.raises(BadName, match=f"at most {MARKS_MAX} combining marks"):
            parse_name(name)
    for name in ("\u0301Astrid", "Anne \u0301B"):
        with pytest.raises(BadName, match="combining mark U\\+0301"):
            parse_name(name)


@pytest.mark.parametrize("name", ["Bot 12", "bot 12", "BOT12", "Bot 6.4", "Expert bot 4",
                                  "threshold bot 1", "Random bot 3", "Counter bot 9",
                                  "Robot 5", "robot 5.2", "\uff22\uff4f\uff54 \uff11",
                                  "\u0412\u041e\u0422 5"])
def test_the_bots_names_are_reserved_in_every_language(name: str) -> None:
    # "Bot 5" in English pages, "Robot 5" in Norwegian and Danish ones (names.js), and
    # what the table itself names its bots (Table._bot_name).
    assert is_bot_name(name)
    with pytest.raises(BadName) as info:
        parse_name(name)
    assert info.value.code == "name_reserved"


def test_names_near_a_bots_are_free() -> None:
    for name in ("Bott 1", "Robotnik", "Bot", "Botilda 2", "Expert", "Bo 12", "Robot"):
        assert not is_bot_name(name) and parse_name(name) == name


def test_every_name_the_table_gives_a_bot_is_reserved() -> None:
    # Second method: the table's own bot names, for every kind and a few seats.
    from gnav.table import Table, TableConfig
    from gnav.vocab import BotKind

    for kind in BotKind:
        config = TableConfig.from_json({"seats": 4, "bot": "random"})
        table, token, _ = Table.create("tableid1", config, now=0.0, seed=1)
        table.join(parse_name("Bot"), 0.0)
        if config.bot_problem(kind) is None:
            table.add_bot(token, kind, 0.0)
        table.start(token, 0.0)
        for seat in table.seats[1:]:
            assert seat.name is not None and is_bot_name(seat.name), seat.name
