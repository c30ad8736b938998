"""``gnav.strategies.match``: match strategy files, read without numpy; the state a
round started from, read back from a seat's view alone."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gnav.cli.solve import match_shipped_tables
from gnav.errors import MalformedError
from gnav.events import Gain, Pay
from gnav.infoset import infoset_key
from gnav.presets import PRESETS_LIST
from gnav.rules import Rules
from gnav.strategies import game_name
from gnav.strategies.match import (
    FIRST_SET,
    MATCH_FORMAT,
    MATCH_SETS,
    NEWEST_STRATEGIES,
    STRATEGY_SETS,
    load_match,
    match_stem,
    parse_match,
    round_start_lives,
    shipped_match,
    shipped_match_files,
    shipped_match_name,
    state_key,
)
from gnav.strategies.match_policy import shipped_match_policies
from recordkit import played


def test_state_keys_turn_with_the_dealer_and_read_lives_above_the_cap_as_it() -> None:
    assert state_key((1, 2, 3), (), (), 0, 9) == ((1, 2, 3), (), ())
    assert state_key((3, 1, 2), (), (), 1, 9) == ((1, 2, 3), (), ())
    assert state_key((0, 2, 5), (0,), (2,), 2, 4) == ((4, 0, 2), (1,), (0,))


def test_a_view_gives_back_the_lives_its_round_started_with() -> None:
    """The view shows lives after this round's payments so far; the state the round
    started from is the match's (hidden from the bot, read here to check it), and is
    found from the view alone, including after a charge paid mid-round."""
    rules = Rules.of("gnav")
    mid_round = 0
    for match, view in played(rules, 3, 1, 30):
        assert round_start_lives(view) == match.lives
        assert state_key(round_start_lives(view), view.out, view.sitting_out, view.dealer,
                         5) == state_key(match.lives, match.out, match.sitting_out,
                                         match.dealer, 5)
        mid_round += any(type(e) in (Pay, Gain) for e in view.public)
    assert mid_round > 0  # a payment before a decision was met, and read back


def write(path: Path, data: object) -> str:
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return str(path)


def tiny(**change: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": MATCH_FORMAT, "preset": "le-her", "seats": 2, "lives": 1, "cap": 2,
        "options": {}, "nash_conv": 0.0, "round_exploitability": 0.0, "scale": 10,
        "keys": {"2": ["a", "b"]},
        "states": [{"lives": [1, 1], "out": [], "sitting_out": [], "values": [0.5, 0.5],
                    "swap": [3, 10]}]}
    data.update(change)
    return data


def test_a_bad_match_file_is_one_clear_error(tmp_path: Path) -> None:
    good = parse_match(tiny(), "x")
    assert good.swap_probability(((1, 1), (), ()), "a", 2) == pytest.approx(0.3)
    assert good.swap_probability(((1, 1), (), ()), "c", 2) is None
    assert good.swap_probability(((2, 1), (), ()), "a", 2) is None
    assert good.values(((1, 1), (), ())) == (0.5, 0.5)
    bad: list[tuple[object, str]] = [
        ({"format": "gnav-strategy/1"}, "not a gnav match strategy"),
        (tiny(cap="many"), "many"),
        (tiny(keys={"2": "ab"}), "keys"),
        (tiny(states=[{"lives": [1], "out": [], "sitting_out": [], "values": [1.0],
                       "swap": [1, 2]}]), "state"),
        (tiny(states=[{"lives": [1, 1], "out": [], "sitting_out": [], "values": [1, 0],
                       "swap": [11, 2]}]), "0..10"),
        ({k: v for k, v in tiny().items() if k != "states"}, "missing field 'states'"),
    ]
    for data, said in bad:
        with pytest.raises(MalformedError, match=said) as caught:
            load_match(write(tmp_path / f"{len(said)}-{said[:4]}.json.gz", data))
        assert "\n" not in str(caught.value)
    (tmp_path / "junk.json").write_bytes(b"\x00junk")
    with pytest.raises(MalformedError, match="not JSON"):
        load_match(str(tmp_path / "junk.json"))


def test_match_strategies_ship_for_the_promised_tables() -> None:
    """2 seats of every game that plays at 2, at its preset's lives, and 3 seats of the
    games whose match solves cheaply; one file a game, found by every preset of it."""
    names = {p.name for p in shipped_match_files()}
    promised = {shipped_match_name(p, n, lives) for p, n, lives in match_shipped_tables()}
    assert names == promised
    assert {f"{game_name(Rules.of(p.name))}-2.json.gz" for p in PRESETS_LIST
            if p.min_seats <= 2} <= names
    assert "chase-the-ace-3.json.gz" in names
    assert shipped_match(Rules.of("gnav-rulebook"), 2) is shipped_match(Rules.of("gnav"), 2)
    # Another count of lives, a round limit: another match, nothing shipped.
    assert shipped_match(Rules.of("gnav", lives=3), 2) is None
    assert shipped_match(Rules.of("gnav", max_rounds=9), 2) is None
    assert shipped_match(Rules.of("gnav"), 4) is None
    total = sum(p.stat().st_size for p in shipped_match_files())
    assert total < 256 * 1024  # modest: a few kB a file


def test_shipped_match_strategies_cover_the_matches_they_are_for() -> None:
    """Every decision of random play at a shipped table finds its state and its set."""
    for path in shipped_match_files():
        strategy = load_match(str(path))
        rules = Rules.of(strategy.preset, lives=strategy.lives)  # a file of other lives too
        assert shipped_match(rules, strategy.seats) is strategy
        assert strategy.nash_conv < 1e-4, path.name
        assert strategy.round_exploitability >= 0.0
        for values, _ in strategy.states.values():
            assert sum(values) == pytest.approx(1.0, abs=1e-6)
        for _, view in played(rules, strategy.seats, 7, 6):
            if len(view.legal) < 2:
                continue
            key = strategy.key_of(view)
            assert strategy.values(key) is not None, (path.name, key)
            p = strategy.swap_probability(key, infoset_key(view), len(view.order))
            assert p is not None and 0.0 <= p <= 1.0, (path.name, key)


def test_match_strategies_are_read_without_numpy() -> None:
    code = """
import sys
sys.modules["numpy"] = None
from gnav.rules import Rules
from gnav.strategies.match import shipped_match
print(len(shipped_match(Rules.of("gnav"), 2).states))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    got = shipped_match(Rules.of("gnav"), 2)
    assert got is not None and int(out.stdout) == len(got.states)


def test_match_files_are_named_and_found_by_their_lives() -> None:
    """The preset's own lives keep the plain name; another count names its lives, and a
    table finds the file of its own lives or none (the expert then plays the round)."""
    default = Rules.of("gnav").options.lives
    assert match_stem("gnav", 2) == match_stem("gnav", 2, default) == "gnav-2"
    assert match_stem("gnav", 3, default + 1) == f"gnav-3-lives{default + 1}"
    for path in shipped_match_files():
        strategy = load_match(str(path))
        assert path.name == shipped_match_name(strategy.preset, strategy.seats,
                                               strategy.lives)
    lives = {load_match(str(p)).lives for p in shipped_match_files()
             if load_match(str(p)).preset == "gnav" and load_match(str(p)).seats == 2}
    assert len(lives) >= 2  # the default and at least one other count
    for n in sorted(lives):
        got = shipped_match(Rules.of("gnav", lives=n), 2)
        assert got is not None and got.lives == n
    missing = next(n for n in range(1, 10) if n not in lives)
    assert shipped_match(Rules.of("gnav", lives=missing), 2) is None


# What shipped at bc5d63a, before a table said which match strategies its bots play: a
# journal without "strategies" plays these (issue 29).
BC5D63A = {f"{g}-2{lives}" for g in ("chase-the-ace", "cuccu", "gnav", "gnav-1917",
                                      "gnav-pagat", "hypp", "kille", "le-her", "slabberjan")
           for lives in ("", "-lives2")} | \
    {f"{g}-3" for g in ("chase-the-ace", "slabberjan", "kille", "hypp", "gnav-pagat")} | \
    {"gnav-3-lives2"}


def test_each_version_of_the_match_files_ships_and_the_first_is_the_old_set() -> None:
    # A version holds trained match policies too since issue 29 (policy/ and the stem).
    on_disk = {p.name.removesuffix(".json.gz") for p in shipped_match_files()} | \
        {"policy/" + p.name.removesuffix(".json.gz") for p in shipped_match_policies()}
    assert MATCH_SETS[FIRST_SET] == BC5D63A
    assert MATCH_SETS[NEWEST_STRATEGIES] == on_disk  # what new tables play: every file
    assert tuple(range(1, NEWEST_STRATEGIES + 1)) == STRATEGY_SETS
    for version, names in MATCH_SETS.items():
        assert names <= on_disk, version  # a file an old table plays never goes
    rules = Rules.of("kille")
    assert shipped_match(rules, 3, FIRST_SET) is shipped_match(rules, 3)
    with pytest.raises(ValueError, match=r"^unknown strategies version 99 \(known: 1, "):
        shipped_match(rules, 3, 99)


def test_a_version_reads_no_file_outside_its_set(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.of("kille")
    assert shipped_match(rules, 3, FIRST_SET) is not None
    monkeypatch.setitem(MATCH_SETS, FIRST_SET, MATCH_SETS[FIRST_SET] - {"kille-3"})
    assert shipped_match(rules, 3, FIRST_SET) is None
    assert shipped_match(rules, 2, FIRST_SET) is not None
