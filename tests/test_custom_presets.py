"""Presets of your own (issue 10, item 7): they play, pickle by value, compare by content,
and records name them once registered."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from random import Random

import pytest

from gnav.errors import UnknownPresetError
from gnav.match import MatchState
from gnav.pieces import numbers, piece
from gnav.powers import Power
from gnav.presets import GNAV, Preset, get_preset, register, registered, unregister
from gnav.record import dumps, from_match, loads, replay
from gnav.rules import Rules
from gnav.sim.batch import ROUNDS, Plan, run

HOUSE_RULES = Preset(
    "house-rules", "House rules", "A small deck of our own.", "our kitchen table",
    (piece("king", {"en": "King", "nb": "Konge"}, Power.CHARGE, calls={"en": "Cut!"}),
     *numbers(9, 1, roman=False), piece("fool", {"en": "Fool"}, fool=True)),
    GNAV.options, aliases=("ours",))


@pytest.fixture
def registered_house() -> Iterator[Preset]:
    register(HOUSE_RULES)
    yield HOUSE_RULES
    unregister(HOUSE_RULES.name)


def _played(rules: Rules, seed: int = 3) -> MatchState:
    match = MatchState.new(rules, ["A", "B", "C", "D"], dealer=0)
    rng = Random(seed)
    while not match.over:
        if match.round is None or match.round.over:
            match = match.deal(rng=rng)
            continue
        match, _ = match.apply(match.legal_actions()[rng.random() < 0.5])
    return match


def test_an_unregistered_preset_plays_and_pickles_by_value() -> None:
    rules = Rules.of(HOUSE_RULES, lives=2)
    assert _played(rules).winners
    back = pickle.loads(pickle.dumps(rules))
    assert back == rules and back.preset == HOUSE_RULES and back.options.lives == 2
    assert back.ids == rules.ids and back.pieces[0].name("nb") == "Konge"
    with pytest.raises(UnknownPresetError):
        get_preset("house-rules")  # unpickling registered nothing


def test_a_built_in_preset_still_pickles_by_name() -> None:
    rules = Rules.of("gnav", lives=3)
    data = pickle.dumps(rules)
    assert len(data) < 300 and b"from_spec" in data
    assert pickle.loads(data) == rules


def test_rules_compare_by_content_not_by_name() -> None:
    fake = dataclasses.replace(HOUSE_RULES, name="gnav")
    assert Rules.of(fake) != Rules.of("gnav")
    assert Rules.of(dataclasses.replace(HOUSE_RULES)) == Rules.of(HOUSE_RULES)
    assert Rules.of("gnav", lives=3) != Rules.of("gnav")
    assert Rules.of("gnav") == Rules.of("norsk")


def test_records_need_a_registered_preset(registered_house: Preset) -> None:
    match = _played(Rules.of(registered_house))
    text = dumps(from_match(match))
    assert '"rules": "house-rules"' in text
    record = loads(text)
    assert record.rules == match.rules
    assert replay(record).final.winners == match.winners
    assert get_preset("OURS") is registered_house
    assert registered_house in registered()


def test_an_unregistered_preset_cannot_be_written_into_a_record() -> None:
    match = _played(Rules.of(HOUSE_RULES))
    with pytest.raises(UnknownPresetError, match="not registered"):
        from_match(match)
    with pytest.raises(UnknownPresetError, match="differs"):
        Rules.of(dataclasses.replace(HOUSE_RULES, name="gnav")).to_spec()


def test_a_taken_name_cannot_be_registered() -> None:
    with pytest.raises(UnknownPresetError, match="taken"):
        register(dataclasses.replace(HOUSE_RULES, name="gnav"))
    with pytest.raises(UnknownPresetError, match="taken"):
        register(dataclasses.replace(HOUSE_RULES, aliases=("norsk",)))
    register(HOUSE_RULES)
    try:
        register(dataclasses.replace(HOUSE_RULES))  # equal: a no-op
        with pytest.raises(UnknownPresetError, match="taken"):
            register(dataclasses.replace(HOUSE_RULES, min_seats=3))
    finally:
        unregister(HOUSE_RULES.name)


def test_simulate_over_processes_takes_an_unregistered_preset_along() -> None:
    plan = Plan(Rules.of(HOUSE_RULES), ("random",) * 3, ROUNDS, 400, seed=5)
    one, two = run(plan, jobs=1), run(plan, jobs=2)
    assert one.tally.rounds == two.tally.rounds == 400
    assert one.tally.piece_losses == two.tally.piece_losses
