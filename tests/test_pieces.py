"""docs/spec/rules.md §1: pieces, their display names, and the reader's aliases."""

from __future__ import annotations

import pytest

from gnav.errors import MalformedError, UnknownPieceError
from gnav.pieces import Piece
from gnav.powers import Power
from gnav.rules import Rules

GNAV_NAMES = {
    "cuckoo": ("Cuckoo", "Gjøk", "Gøgen"),
    "dragoon": ("Dragoon", "Dragon", "Dragonen"),
    "cat": ("Cat", "Katt", "Katten"),
    "horse": ("Horse", "Hest", "Hesten"),
    "house": ("House", "Hus", "Huset"),
    "pot": ("Pot", "Potte", "Potten"),
    "owl": ("Owl", "Ugle", "Uglen"),
    "fool": ("Fool", "Narr", "Narren"),
}
ROMAN = ["XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"]


def test_gnav_piece_ids_are_lower_case_ascii() -> None:
    for name in ("gnav", "gnav-1917", "gnav-summary", "hypp", "slabberjan", "cuccu", "kille",
                 "chase-the-ace"):
        for p in Rules.of(name).pieces:
            assert p.id == p.id.lower()
            assert p.id.isascii()
            assert " " not in p.id


@pytest.mark.parametrize("piece_id", list(GNAV_NAMES))
def test_gnav_display_names_en_nb_da(piece_id: str) -> None:
    rules = Rules.of("gnav")
    p = rules.piece(rules.index(piece_id))
    en, nb, da = GNAV_NAMES[piece_id]
    assert p.names["en"] == en
    assert p.names["nb"] == nb
    assert p.names["da"] == da
    assert p.name("en") == en
    assert p.name("nb") == nb
    assert p.name("da") == da


def test_gnav_display_names_exist_for_every_piece_in_en_nb_da() -> None:
    for p in Rules.of("gnav").pieces:
        for lang in ("en", "nb", "da"):
            assert p.name(lang)
    rules = Rules.of("gnav")
    numbers = [rules.piece(rules.index(str(n))).name("en") for n in range(12, 0, -1)]
    assert numbers == ROMAN
    assert rules.piece(rules.index("0")).name("en") in ("O", "0")
    # A language without its own name falls back to English.
    assert rules.piece(rules.index("cuckoo")).name("xx") == "Cuckoo"


def test_slabberjan_display_names_nl() -> None:
    rules = Rules.of("slabberjan")
    expected = {"ruiter": "Ruiter", "vogel": "Vogel", "poesje": "Poesje",
                "herberg": "Herberg", "wittebrood": "Wittebrood", "pispot": "Pispot",
                "smoel": "Smoel", "janrit": "Jan Rit"}
    for piece_id, name in expected.items():
        assert rules.piece(rules.index(piece_id)).names["nl"] == name
    for p in rules.pieces:
        assert p.name("nl")


def test_cuccu_display_names_it() -> None:
    rules = Rules.of("cuccu")
    expected = {"cucco": "Cucco", "bragon": "Bragon", "salta": "Salta", "gnao": "Gnao",
                "osteria": "Osteria", "nulla": "Nulla", "secchia": "Secchia",
                "mascherone": "Mascherone", "leone": "Leone", "matto": "Matto"}
    for piece_id, name in expected.items():
        assert rules.piece(rules.index(piece_id)).names["it"] == name
    for p in rules.pieces:
        assert p.name("it")


def test_kille_display_names_sv() -> None:
    rules = Rules.of("kille")
    expected = {"kuku": "Kuku", "husar": "Husar", "husu": "Husu", "kavall": "Kavall",
                "vardshus": "Värdshus", "kransen": "Kransen", "blompottan": "Blompottan",
                "blaren": "Blaren"}
    for piece_id, name in expected.items():
        assert rules.piece(rules.index(piece_id)).names["sv"] == name
    for p in rules.pieces:
        assert p.name("sv")


# -- the reader ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "piece_id"),
    [
        ("knight", "dragoon"),
        ("KNIGHT", "dragoon"),
        ("Dragoon", "dragoon"),
        ("joker", "fool"),
        ("Joker", "fool"),
        ("narr", "fool"),
        ("NARREN", "fool"),
        ("XII", "12"),
        ("xii", "12"),
        ("Xii", "12"),
        ("XI", "11"),
        ("IX", "9"),
        ("iv", "4"),
        ("I", "1"),
        ("i", "1"),
        ("O", "0"),
        ("o", "0"),
        ("12", "12"),
        ("0", "0"),
        ("Gjøk", "cuckoo"),
        ("GØGEN", "cuckoo"),
        ("katt", "cat"),
        ("Hest", "horse"),
        ("huset", "house"),
        ("potte", "pot"),
        ("Uglen", "owl"),
        ("  cuckoo  ", "cuckoo"),
    ],
)
def test_gnav_reader_aliases_any_case(text: str, piece_id: str) -> None:
    rules = Rules.of("gnav")
    assert rules.ids[rules.index(text)] == piece_id


def test_reader_accepts_int_numbers() -> None:
    rules = Rules.of("gnav")
    assert rules.ids[rules.index(12)] == "12"
    assert rules.ids[rules.index(0)] == "0"


def test_roman_numerals_in_decks_with_plain_numbers() -> None:
    rules = Rules.of("gnav-1917")
    assert rules.ids[rules.index("XII")] == "12"
    assert rules.ids[rules.index("vii")] == "7"
    slab = Rules.of("slabberjan")
    assert slab.ids[slab.index("x")] == "10"


def test_other_decks_aliases() -> None:
    slab = Rules.of("slabberjan")
    assert slab.ids[slab.index("knight")] == "ruiter"
    assert slab.ids[slab.index("Kap-af")] == "ruiter"
    assert slab.ids[slab.index("cat")] == "poesje"
    assert slab.ids[slab.index("jan rit")] == "janrit"
    chase = Rules.of("chase-the-ace")
    assert chase.ids[chase.index("K")] == "king"
    assert chase.ids[chase.index("a")] == "ace"
    assert chase.ids[chase.index("knave")] == "jack"
    cuccu = Rules.of("cuccu")
    assert cuccu.ids[cuccu.index("fool")] == "matto"
    kille = Rules.of("kille")
    assert kille.ids[kille.index("Värdshus")] == "vardshus"


@pytest.mark.parametrize(
    ("preset", "bad"),
    [
        ("gnav", "bishop"),
        ("gnav", "13"),
        ("gnav-summary", "0"),
        ("gnav", "ruiter"),
        ("slabberjan", "cuckoo"),
        ("chase-the-ace", "fool"),
        ("kille", "0"),
    ],
)
def test_unknown_piece_raises_naming_the_input(preset: str, bad: str) -> None:
    rules = Rules.of(preset)
    with pytest.raises(UnknownPieceError) as info:
        rules.index(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [None, 1.5, True, ["cat"]])
def test_non_string_piece_raises_unknown_piece(bad: object) -> None:
    with pytest.raises(UnknownPieceError):
        Rules.of("gnav").index(bad)


def test_unknown_piece_error_is_malformed_and_value_error() -> None:
    assert issubclass(UnknownPieceError, MalformedError)
    assert issubclass(UnknownPieceError, ValueError)
    with pytest.raises(ValueError, match="queen"):
        Rules.of("gnav").index("queen")


def test_piece_matador_is_having_a_power() -> None:
    rules = Rules.of("gnav")
    cat = rules.piece(rules.index("cat"))
    assert isinstance(cat, Piece)
    assert cat.matador
    assert cat.power is Power.CHARGE_UNDO
    assert not cat.fool
    five = rules.piece(rules.index("5"))
    assert not five.matador
    assert five.power is None
    fool = rules.piece(rules.index("fool"))
    assert fool.fool
    assert not fool.matador


def test_gnav_rank_order_highest_first() -> None:
    rules = Rules.of("gnav")
    order = ["cuckoo", "dragoon", "cat", "horse", "house", "12", "7", "1", "0", "pot", "owl",
             "fool"]
    ranks = [rules.index(p) for p in order]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)
