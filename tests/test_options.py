"""docs/spec/rules.md §7: every option, its values and its default, on top of any preset."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from gnav.errors import MalformedError, OptionError
from gnav.options import BOOLS, CHOICE_TYPES, CHOICES, Options
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.vocab import KnockMode, Pack, PenaltyTo, Revealed, TwoFools

VALID: dict[str, list[object]] = {
    "lives": list(range(1, 11)),
    "copies": [1, 2, 3, 4],
    "knock": ["public", "silent"],
    "revealed": ["skip", "act"],
    "drag": [True, False],
    "two_fools": ["gain", "pay", "plain"],
    "two_fools_sit_out": [True, False],
    "penalty_to": ["pool", "holder"],
    "stand_needs_matador": [True, False],
    "max_rounds": [None, 1, 2, 10, 1000],
    "dealer_wins_ties": [True, False],
    "pack": ["pieces", "cards", "cards52"],
}
INVALID: dict[str, list[object]] = {
    "lives": [0, 11, -1, True, False, "4", 4.0, None],
    "copies": [0, 5, True, "2", 2.0, None],
    "knock": ["loud", "PUBLIC ", "", None, True, 1],
    "revealed": ["hide", "", None, False],
    "drag": ["true", "yes", 1, 0, None],
    "two_fools": ["double", "", None, True],
    "two_fools_sit_out": ["false", 0, None],
    "penalty_to": ["holders", "bank", None],
    "stand_needs_matador": ["true", 1, None],
    "max_rounds": [0, -1, True, False, "3", 2.5, "none"],
    "dealer_wins_ties": ["true", 1, 0, None],
    "pack": ["cards54", "Cards52", "", None, True],
}
DEFAULTS: dict[str, object] = {
    "lives": 4, "copies": 2, "knock": "public", "revealed": "skip", "drag": True,
    "two_fools": "gain", "two_fools_sit_out": True, "penalty_to": "pool",
    "stand_needs_matador": False, "max_rounds": None, "dealer_wins_ties": False,
    "pack": "pieces",
}
CASES_VALID = [(k, v) for k, vs in VALID.items() for v in vs]
CASES_INVALID = [(k, v) for k, vs in INVALID.items() for v in vs]


def test_option_names_and_defaults_are_the_contract() -> None:
    assert asdict(Options()) == DEFAULTS
    assert set(VALID) == set(DEFAULTS) == set(INVALID)


def test_choices_are_read_off_the_enums() -> None:
    assert {"knock": KnockMode, "revealed": Revealed, "two_fools": TwoFools,
                            "penalty_to": PenaltyTo, "pack": Pack} == CHOICE_TYPES
    assert {k: list(v) for k, v in CHOICES.items()} == {k: VALID[k] for k in CHOICES}
    assert set(BOOLS) == {k for k, v in VALID.items() if v == [True, False]}


def test_options_built_from_words_hold_enum_members_and_write_words() -> None:
    built = Options(knock="silent", two_fools="plain")  # type: ignore[arg-type]
    assert built.knock is KnockMode.SILENT and built.two_fools is TwoFools.PLAIN
    assert built == Options(knock=KnockMode.SILENT, two_fools=TwoFools.PLAIN)
    assert json.dumps(built.as_dict()["knock"]) == '"silent"'
    assert json.dumps(Rules.of("gnav", knock="silent").to_spec()) == \
        '{"preset": "gnav", "knock": "silent"}'
    with pytest.raises(OptionError, match="knock must be one of public, silent"):
        Options(knock="loud")  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "value"), CASES_VALID)
def test_option_valid_value_is_accepted(name: str, value: object) -> None:
    rules = Rules.of("gnav", **{name: value})
    assert getattr(rules.options, name) == value
    # An option of named values holds its enum member (a string too); others their value.
    assert type(getattr(rules.options, name)) is CHOICE_TYPES.get(name, type(value))
    spec = Rules.from_spec({"preset": "gnav", name: value})
    assert spec == rules
    assert Options().updated({name: value}).as_dict()[name] == value


@pytest.mark.parametrize(("name", "value"), CASES_INVALID)
def test_option_invalid_value_raises_option_error(name: str, value: object) -> None:
    with pytest.raises(OptionError, match=name):
        Rules.of("gnav", **{name: value})
    with pytest.raises(OptionError):
        Rules.from_spec({"preset": "gnav", name: value})
    with pytest.raises(OptionError):
        Options().updated({name: value})


@pytest.mark.parametrize("name", ["colour", "Lives", "max-rounds", "silent", "preset_x", ""])
def test_unknown_option_raises_option_error(name: str) -> None:
    with pytest.raises(OptionError) as info:
        Rules.of("gnav", **{name: True})
    assert repr(name) in str(info.value)
    with pytest.raises(OptionError):
        Rules.from_spec({"preset": "gnav", name: True})


def test_option_error_is_malformed_and_value_error() -> None:
    assert issubclass(OptionError, MalformedError)
    assert issubclass(OptionError, ValueError)
    with pytest.raises(ValueError):
        Rules.of("gnav", lives=0)


def test_from_spec_needs_a_preset() -> None:
    with pytest.raises(MalformedError):
        Rules.from_spec({"lives": 3})
    with pytest.raises(MalformedError):
        Rules.from_spec(3)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_options_set_on_top_of_any_preset(preset: str) -> None:
    base = Rules.of(preset)
    changes: dict[str, object] = {
        "lives": 7, "knock": "silent", "revealed": "act", "drag": False,
        "two_fools": "pay", "two_fools_sit_out": False, "penalty_to": "holder",
        "stand_needs_matador": True, "max_rounds": 5, "copies": 3,
        "dealer_wins_ties": not base.options.dealer_wins_ties,
    }
    rules = Rules.of(preset, **changes)
    assert rules.name == base.name
    for name, value in changes.items():
        assert getattr(rules.options, name) == value
    assert rules.pieces == base.pieces
    assert len(rules.deck) == 3 * len(rules.pieces)
    cap = base.preset.max_seats
    assert rules.max_seats == min(3 * len(rules.pieces) - 1, cap or 3 * len(rules.pieces))
    spec = rules.to_spec()
    assert isinstance(spec, dict)
    assert spec["preset"] == base.name
    assert Rules.from_spec(spec) == rules


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_option_on_a_preset_keeps_its_other_overrides(preset: str) -> None:
    base = Rules.of(preset)
    rules = Rules.of(preset, max_rounds=3)
    expected = {**base.options.as_dict(), "max_rounds": 3}
    assert rules.options.as_dict() == expected
    assert rules.to_spec() == {"preset": base.name, "max_rounds": 3}


def test_preset_overrides_can_be_set_back() -> None:
    assert Rules.of("slabberjan", knock="public").options.knock == "public"
    assert Rules.of("gnav-summary", drag=True).options.drag is True
    assert Rules.of("hypp", copies=2).options.copies == 2
    assert len(Rules.of("hypp", copies=2).deck) == 42
    assert Rules.of("cuccu", lives=4).options.lives == 4
    assert Rules.of("gnav-1917", two_fools_sit_out=True).to_spec() == {
        "preset": "gnav-1917", "two_fools_sit_out": True,
    }
    # Setting an option to the preset's own value is no change at all.
    assert Rules.of("gnav-pagat", two_fools="pay").to_spec() == "gnav-pagat"


def test_copies_changes_the_deck() -> None:
    for copies in (1, 2, 3, 4):
        rules = Rules.of("gnav", copies=copies)
        assert len(rules.deck) == 21 * copies
        assert rules.max_seats == 21 * copies - 1
