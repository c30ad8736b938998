"""``gnav.lengths``: the shipped match lengths, the options a table sets at a size, and
what the lobby is told (docs/spec/rules.md §6.1)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from gnav.errors import MalformedError
from gnav.lengths import (
    FORMAT,
    at_table,
    expected,
    game_of,
    parse,
    remedy_rows,
    shipped,
    table_options,
)
from gnav.presets import PRESETS_LIST, get_preset
from gnav.rules import Rules
from gnav.texts.rules import large_table

ROOT = Path(__file__).resolve().parents[1]


def test_every_preset_and_size_is_measured() -> None:
    found = shipped()
    for p in PRESETS_LIST:
        rules = Rules.of(p)
        sizes = range(rules.min_seats, min(rules.max_seats, 41) + 1)
        game = found.of(p)  # its game's figures (gnav-rulebook reads gnav's)
        assert game is not None, p.name
        assert sorted(game.default) == list(sizes), p.name
        assert game.lives == rules.options.lives
        if game.remedy is not None:
            assert sorted(game.remedied) == list(sizes), p.name


def test_the_file_holds_each_game_once_and_a_preset_reads_its_game() -> None:
    # Issue 28: gnav-rulebook kept an entry of its own, a copy of gnav's, after its
    # strategies had become gnav's (gnav.strategies.game_name).
    found = shipped()
    assert all(game_of(get_preset(name)) == name for name in found.presets)
    assert {game_of(p) for p in PRESETS_LIST} == set(found.presets)
    rulebook, gnav = get_preset("gnav-rulebook"), get_preset("gnav")
    assert game_of(rulebook) == "gnav" and "gnav-rulebook" not in found.presets
    assert found.of(rulebook) is found.presets["gnav"]
    assert table_options("gnav-rulebook", 41) == table_options("gnav", 41) != {}
    x = expected(at_table(Rules.of(rulebook), 41), 41)
    assert x is not None and x.measured and x.remedied
    assert x.length == found.presets["gnav"].remedied[41]
    # Another game: the same pieces with other lives are other matches.
    assert game_of(replace(gnav, name="gnav-x", options=gnav.options.updated({"lives": 2}))) \
        == "gnav-x"
    assert game_of(get_preset("gnav-pagat")) == "gnav-pagat"


def test_a_table_sets_the_remedy_from_its_size_up_unless_named() -> None:
    for name, found in shipped().presets.items():
        own = Rules.of(name)
        for n in found.default:
            options = table_options(name, n)
            if found.remedy is None or n < found.remedy.start:
                assert options == {} and at_table(own, n) is own
                continue
            assert options
            played = at_table(own, n)
            assert played.options != own.options and played.preset is own.preset
            assert at_table(own, n, named=set(options)) is own
            if "max_rounds" in found.remedy.options:
                assert options == {"max_rounds": n * own.options.lives}
                assert table_options(name, n, lives=2) == {"max_rounds": n * 2}


def test_the_lobby_figure_says_how_it_was_found() -> None:
    gnav = shipped().presets["gnav"]
    own = Rules.of("gnav")
    x = expected(own, 10)
    assert x is not None and x.measured and not x.scaled and not x.remedied
    assert x.length == gnav.default[10]
    cured = at_table(own, 41)
    x = expected(cured, 41)
    assert x is not None and x.measured and x.remedied and x.length == gnav.remedied[41]
    # Other lives: the figure scaled by the lives, and said to be.
    x = expected(Rules.of("gnav", lives=2), 10)
    assert x is not None and x.scaled and not x.measured
    assert x.length.median == pytest.approx(gnav.default[10].median / 2, abs=0.05)
    # Other lives where the match did not end: no scaling, said not to be measured.
    x = expected(Rules.of("gnav", lives=2), 41)
    assert x is not None and not x.scaled and not x.measured
    assert x.length == gnav.default[41]
    # Options the file does not hold: the table's own figure, said not to be measured.
    x = expected(Rules.of("gnav", drag=False), 41)
    assert x is not None and not x.measured and x.length == gnav.remedied[41]
    assert expected(own, 42) is None
    assert x.as_json()["remedy"] == {"from": gnav.remedy.start if gnav.remedy else None,
                                     "options": {"two_fools": "pay"}}


def test_a_bad_file_is_one_clear_error() -> None:
    with pytest.raises(MalformedError, match="not a lengths file"):
        parse({"format": "other"})
    with pytest.raises(MalformedError, match="seats, median, p95, ends"):
        parse({"format": FORMAT, "presets": [
            {"preset": "gnav", "lives": 4, "remedy": None, "default": [[2, 5]]}]})
    with pytest.raises(MalformedError):
        parse({"format": FORMAT, "presets": [{"preset": "gnav"}]})


def test_the_shipped_file_parses_as_written() -> None:
    data = json.loads((ROOT / "src" / "gnav" / "lengths.json").read_text(encoding="utf-8"))
    assert data["made_by"].startswith("gnav simulate --lengths")
    assert parse(data).presets.keys() == shipped().presets.keys()


@pytest.mark.parametrize("doc", ["docs/spec/rules.md", "docs/rules.md"])
def test_the_rules_name_the_sizes_the_file_gives(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    start = text.index("<!-- lengths-table")
    block = text[text.index("\n", start) + 1:text.index("<!-- /lengths-table -->")]
    rows = [line for line in block.splitlines() if line.startswith("| `")]
    assert rows == remedy_rows(shipped())


def test_the_rules_text_says_what_a_large_table_plays() -> None:
    for name, found in shipped().presets.items():
        said = large_table(Rules.of(name))
        if found.remedy is None:
            assert said == []
            continue
        assert [s.params["n"] for s in said] == [found.remedy.start]
        own = Rules.of(name)
        assert large_table(at_table(own, min(own.max_seats, 41))) == []


def test_the_page_of_lengths_is_the_shipped_file_printed() -> None:
    from gnav.lengths import render

    text = (ROOT / "docs" / "lengths.md").read_text(encoding="utf-8")
    block = text[text.index("```text\n") + len("```text\n"):text.rindex("\n```")]
    assert block == render(shipped())
