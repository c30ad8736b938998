"""docs/spec/rules.md §8: every preset has exactly the deck, order, copies, powers, fool and option
overrides its row of the table says."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from gnav.errors import MalformedError, UnknownPresetError
from gnav.options import Options
from gnav.presets import PRESETS, get_preset
from gnav.rules import Rules

GNAV_NUMBERS = [str(n) for n in range(12, -1, -1)]  # 12 ... 0
GNAV_ORDER = ["cuckoo", "dragoon", "cat", "horse", "house", *GNAV_NUMBERS, "pot", "owl", "fool"]
GNAV_POWERS = {
    "cuckoo": "stop", "dragoon": "charge", "cat": "charge_undo", "horse": "pass",
    "house": "pass",
}

# preset -> (order, copies, powers, fools, options that differ from the defaults)
TABLE: dict[str, tuple[list[str], int, dict[str, str], list[str], dict[str, object]]] = {
    "gnav": (GNAV_ORDER, 2, GNAV_POWERS, ["fool"], {}),
    "gnav-pagat": (GNAV_ORDER, 2, GNAV_POWERS, ["fool"], {"two_fools": "pay"}),
    "gnav-rulebook": (GNAV_ORDER, 2, GNAV_POWERS, ["fool"], {}),
    "gnav-1917": (
        ["cuckoo", "cat", "dragoon", "horse", "house", *GNAV_NUMBERS, "owl", "pot", "fool"],
        2,
        {"cuckoo": "refuse", "cat": "charge", "dragoon": "charge", "horse": "pass",
         "house": "pass"},
        ["fool"],
        {"two_fools_sit_out": False},
    ),
    "gnav-summary": (
        [p for p in GNAV_ORDER if p != "0"],
        2,
        GNAV_POWERS,
        ["fool"],
        {"drag": False, "two_fools": "plain", "penalty_to": "holder"},
    ),
    "hypp": (GNAV_ORDER, 1, GNAV_POWERS, ["fool"], {"copies": 1}),
    "slabberjan": (
        ["ruiter", "vogel", "poesje", "herberg", *GNAV_NUMBERS, "wittebrood", "pispot",
         "smoel", "janrit"],
        2,
        {"ruiter": "charge_stop", "vogel": "refuse", "poesje": "undo", "herberg": "pass"},
        [],
        {"knock": "silent"},
    ),
    "cuccu": (
        ["cucco", "bragon", "salta", "gnao", "osteria", *[str(n) for n in range(10, 0, -1)],
         "nulla", "secchia", "mascherone", "leone", "matto"],
        2,
        {"cucco": "stop", "bragon": "charge", "salta": "pass", "gnao": "charge_undo",
         "osteria": "refuse"},
        ["matto"],
        {"lives": 3},
    ),
    "kille": (
        ["kuku", "husar", "husu", "kavall", "vardshus", *[str(n) for n in range(12, 0, -1)],
         "kransen", "blompottan", "blaren"],
        2,
        {"kuku": "stop", "husar": "charge", "husu": "charge_undo", "kavall": "pass",
         "vardshus": "pass"},
        [],
        {},
    ),
    "chase-the-ace": (
        ["king", "queen", "jack", *[str(n) for n in range(10, 1, -1)], "ace"],
        4,
        {"king": "refuse"},
        [],
        {"copies": 4, "lives": 3},
    ),
    "le-her": (
        ["king", "queen", "jack", *[str(n) for n in range(10, 1, -1)], "ace"],
        4,
        {"king": "refuse"},
        [],
        {"copies": 4, "lives": 3, "dealer_wins_ties": True},
    ),
}


def test_presets_are_exactly_the_table() -> None:
    assert set(PRESETS) == set(TABLE)
    for name, preset in PRESETS.items():
        assert preset.name == name


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_deck_order(name: str) -> None:
    order, _, _, _, _ = TABLE[name]
    rules = Rules.of(name)
    assert list(rules.ids) == order
    assert [p.id for p in get_preset(name).pieces] == order
    # The index is the rank: 0 is the highest.
    assert [rules.index(p) for p in order] == list(range(len(order)))


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_copies_and_deck_size(name: str) -> None:
    order, copies, _, _, _ = TABLE[name]
    rules = Rules.of(name)
    assert rules.options.copies == copies
    assert len(rules.deck) == len(order) * copies
    assert all(rules.deck.count(i) == copies for i in range(len(order)))


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_powers(name: str) -> None:
    _, _, powers, _, _ = TABLE[name]
    rules = Rules.of(name)
    got = {p.id: p.power.value for p in rules.pieces if p.power is not None}
    assert got == powers
    matadors = {p.id for p in rules.pieces if p.matador}
    assert matadors == set(powers)
    for i, p in enumerate(rules.pieces):
        effect = rules.effects[i]
        if p.power is None:
            assert effect is None
        else:
            assert effect == p.power.effect


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_fool(name: str) -> None:
    _, _, _, fools, _ = TABLE[name]
    rules = Rules.of(name)
    assert [p.id for p in rules.pieces if p.fool] == fools
    assert [rules.ids[i] for i, f in enumerate(rules.fools) if f] == fools
    assert rules.has_fool == bool(fools)
    if fools:
        assert rules.ids[-1] == fools[0]  # the fool is the lowest piece


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_option_overrides(name: str) -> None:
    _, _, _, _, overrides = TABLE[name]
    preset = get_preset(name)
    defaults = asdict(Options())
    got = {k: v for k, v in asdict(preset.options).items() if defaults[k] != v}
    assert got == overrides
    assert Rules.of(name).options == preset.options


def test_default_options_are_rules_7() -> None:
    assert asdict(Options()) == {
        "lives": 4, "copies": 2, "knock": "public", "revealed": "skip", "drag": True,
        "two_fools": "gain", "two_fools_sit_out": True, "penalty_to": "pool",
        "stand_needs_matador": False, "max_rounds": None, "dealer_wins_ties": False,
        "pack": "pieces",
    }


def test_gnav_1917_specifics() -> None:
    rules = Rules.of("gnav-1917")
    assert rules.index("cat") < rules.index("dragoon")
    assert rules.index("owl") < rules.index("pot")
    assert rules.pieces[rules.index("cuckoo")].power == "refuse"
    assert rules.pieces[rules.index("cat")].power == "charge"
    assert rules.options.two_fools_sit_out is False
    assert get_preset("gnav-1917").score == "strokes"


def test_gnav_summary_specifics() -> None:
    rules = Rules.of("gnav-summary")
    assert "0" not in rules.ids
    assert len(rules.pieces) == 20
    assert len(rules.deck) == 40
    assert rules.min_seats == 3
    assert get_preset("gnav-summary").score == "gnav"


def test_hypp_has_21_pieces() -> None:
    rules = Rules.of("hypp")
    assert len(rules.deck) == 21
    assert sorted(rules.deck) == list(range(21))


def test_slabberjan_is_silent_without_fool() -> None:
    rules = Rules.of("slabberjan")
    assert rules.options.knock == "silent"
    assert not rules.has_fool
    assert rules.ids[-1] == "janrit"


def test_cuccu_kille_chase_specifics() -> None:
    cuccu = Rules.of("cuccu")
    assert cuccu.options.lives == 3
    assert len(cuccu.deck) == 40
    kille = Rules.of("kille")
    assert not kille.has_fool
    assert len(kille.deck) == 40
    chase = Rules.of("chase-the-ace")
    assert len(chase.deck) == 52
    assert chase.options.lives == 3
    assert chase.ids[0] == "king"
    assert chase.ids[-1] == "ace"
    assert not chase.has_fool


def test_gnav_presets_min_seats_two_except_summary() -> None:
    for name in TABLE:
        expected = 3 if name == "gnav-summary" else 2
        assert Rules.of(name).min_seats == expected


def test_score_display_per_preset() -> None:
    assert get_preset("gnav").score == "tokens"
    assert get_preset("gnav-1917").score == "strokes"
    assert get_preset("gnav-summary").score == "gnav"


# -- aliases ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("gnav", "gnav"),
        ("GNAV", "gnav"),
        ("norsk", "gnav"),
        ("norwegian", "gnav"),
        ("pagat", "gnav-pagat"),
        ("PAGAT", "gnav-pagat"),
        (" Pagat ", "gnav-pagat"),
        ("rulebook", "gnav-rulebook"),
        ("1917", "gnav-1917"),
        ("danish", "gnav-1917"),
        ("dansk", "gnav-1917"),
        ("summary", "gnav-summary"),
        ("Gnav-Summary", "gnav-summary"),
        ("hypp", "hypp"),
        ("zeeland", "slabberjan"),
        ("cucco", "cuccu"),
        ("cuccù", "cuccu"),
        ("byteskille", "kille"),
        ("ranter-go-round", "chase-the-ace"),
        ("cuckoo", "chase-the-ace"),
        ("chase_the_ace", "chase-the-ace"),
        ("Chase The Ace", "chase-the-ace"),
    ],
)
def test_preset_aliases_resolve(alias: str, name: str) -> None:
    assert get_preset(alias).name == name
    assert Rules.of(alias).name == name
    assert Rules.from_spec(alias).name == name
    assert Rules.from_spec({"preset": alias}).name == name


@pytest.mark.parametrize("bad", ["poker", "gnav2", "", "gnav-pagatt"])
def test_unknown_preset_raises_naming_the_input(bad: str) -> None:
    with pytest.raises(UnknownPresetError) as info:
        get_preset(bad)
    assert repr(bad) in str(info.value)
    with pytest.raises(UnknownPresetError):
        Rules.of(bad)
    with pytest.raises(UnknownPresetError):
        Rules.from_spec({"preset": bad})


def test_unknown_preset_error_is_malformed_and_value_error() -> None:
    assert issubclass(UnknownPresetError, MalformedError)
    assert issubclass(UnknownPresetError, ValueError)
    with pytest.raises(ValueError, match="bridge"):
        Rules.of("bridge")
    with pytest.raises(UnknownPresetError):
        get_preset(None)
    with pytest.raises(UnknownPresetError):
        get_preset(42)


def test_rules_spec_roundtrip_per_preset() -> None:
    for name in TABLE:
        rules = Rules.of(name)
        assert rules.to_spec() == name
        assert Rules.from_spec(rules.to_spec()) == rules
