"""gnav.rules: a preset plus options; its repr is the call that makes it, and the tables
it derives for the round are no fields of the dataclass."""

from __future__ import annotations

import dataclasses

from hypothesis import assume, given
from hypothesis import strategies as st

from gnav.errors import OptionError
from gnav.options import BOOLS, CHOICES, RANGES
from gnav.presets import PRESETS, Preset
from gnav.rules import Rules

OPTION_VALUES = st.fixed_dictionaries({}, optional={
    **{name: st.sampled_from([str(v) for v in values]) for name, values in CHOICES.items()},
    **{name: st.booleans() for name in BOOLS},
    **{name: st.integers(lo, hi) for name, (lo, hi) in RANGES.items()},
    "max_rounds": st.none() | st.integers(1, 50),
})


def test_repr_is_the_short_call_that_makes_the_rules() -> None:
    assert repr(Rules.of("gnav", lives=3)) == "Rules.of('gnav', lives=3)"
    assert repr(Rules.of("gnav")) == "Rules.of('gnav')"
    assert repr(Rules.of("slabberjan", knock="public", two_fools="pay")) == \
        "Rules.of('slabberjan', knock='public', two_fools='pay')"
    # An alias names the preset itself; an option set to the preset's own value is none.
    assert repr(Rules.of("pagat", two_fools="pay")) == "Rules.of('gnav-pagat')"


@given(preset=st.sampled_from(sorted(PRESETS)), options=OPTION_VALUES)
def test_repr_evaluates_to_equal_rules_for_every_preset_and_options(
        preset: str, options: dict[str, object]) -> None:
    try:
        rules = Rules.of(preset, **options)
    except OptionError:  # a deck that does not fit an ordinary pack (pack = cards52)
        assume(False)
    text = repr(rules)
    assert eval(text, {"Rules": Rules}) == rules  # our own repr, read back
    assert len(text) < 250


def test_the_derived_tables_are_no_fields() -> None:
    rules = Rules.of("gnav", copies=3)
    assert [f.name for f in dataclasses.fields(rules)] == ["preset", "options"]
    assert len(rules.deck) == 3 * len(rules.pieces)
    fewer = dataclasses.replace(rules, options=rules.options.updated({"copies": 1}))
    assert fewer.deck == tuple(range(len(rules.pieces)))  # derived again, from the new


def test_an_unregistered_preset_is_named_as_such() -> None:
    gnav = PRESETS["gnav"]
    mine = Preset("my-house", "My house", "Ours.", gnav.source, gnav.pieces, gnav.options)
    assert repr(Rules(mine, mine.options.updated({"lives": 2}))) == \
        "Rules.of(<preset 'my-house'>, lives=2)"
