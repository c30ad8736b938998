"""gnav.cards: the ordinary pack and the mapping of every preset's pieces onto it
(docs/spec/rules.md §7.1, ``pack = cards52``)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gnav.cards import JOKERS, PACK, card_text, fit_problem, mapping
from gnav.errors import OptionError
from gnav.pieces import piece
from gnav.powers import Power
from gnav.presets import PRESETS
from gnav.rules import Rules

FITTING = [(name, copies) for name, p in PRESETS.items() for copies in (1, 2, 3, 4)
           if fit_problem(p.pieces, copies) is None]


def test_the_pack_is_52_cards_and_2_jokers_each_once() -> None:
    assert len(PACK) == len(set(PACK)) == 54
    assert sum(1 for c in PACK if c not in JOKERS) == 52
    assert PACK[-2:] == JOKERS  # the jokers are the lowest cards


def test_every_preset_fits_with_its_own_copies() -> None:
    for name, p in PRESETS.items():
        assert fit_problem(p.pieces, p.options.copies) is None, name


@pytest.mark.parametrize(("name", "copies"), FITTING)
def test_each_piece_gets_its_copies_no_card_twice_in_rank_order(name: str, copies: int) -> None:
    pieces = PRESETS[name].pieces
    m = mapping(pieces, copies)
    assert list(m.cards) == [p.id for p in pieces]
    assert all(len(cs) == copies for cs in m.cards.values())
    used = [c for cs in m.cards.values() for c in cs]
    assert len(used) == len(set(used)) == len(pieces) * copies
    assert set(used) | set(m.left_out) == set(PACK) and not set(used) & set(m.left_out)
    # A higher piece's every card is above a lower piece's every card in the pack.
    where = {c: i for i, c in enumerate(PACK)}
    spans = [(min(where[c] for c in cs), max(where[c] for c in cs)) for cs in m.cards.values()]
    for (_, low_of_higher), (high_of_lower, _) in pairwise(spans):
        assert low_of_higher < high_of_lower


@pytest.mark.parametrize(("name", "copies"), FITTING)
def test_a_picture_card_is_a_matador_where_the_deck_has_matadors_to_fill_them(
        name: str, copies: int) -> None:
    pieces = PRESETS[name].pieces
    m = mapping(pieces, copies)
    courts = {p.id for p in pieces if any(c[0] in "KQJ" and c not in JOKERS
                                          for c in m.cards[p.id])}
    matadors = {p.id for p in pieces if p.matador}
    if len(pieces) > 13:  # split into colours: the picture cards are the matadors'
        assert courts <= matadors
    else:  # whole ranks: a game of the pack's own cards keeps its cards
        assert courts == {"king", "queen", "jack"}


def test_the_fool_is_the_jokers_and_a_card_game_keeps_its_own_cards() -> None:
    gnav = mapping(PRESETS["gnav"].pieces, 2)
    assert gnav.cards["fool"] == JOKERS
    assert gnav.cards["cuckoo"] == ("KH", "KD") and gnav.cards["dragoon"] == ("KS", "KC")
    chase = mapping(PRESETS["chase-the-ace"].pieces, 4)
    assert chase.cards["king"] == ("KH", "KD", "KS", "KC")
    assert chase.cards["ace"] == ("AH", "AD", "AS", "AC")
    assert chase.cards["7"] == ("7H", "7D", "7S", "7C")
    assert chase.left_out == JOKERS


def test_a_preset_that_does_not_fit_says_why() -> None:
    gnav = PRESETS["gnav"].pieces
    assert fit_problem(gnav, 3) == ("21 pieces in 3 copies need 63 cards; an ordinary pack "
                                    "has 52 and 2 jokers")
    many = tuple(piece(str(i)) for i in range(16))
    assert fit_problem(many, 3) == ("16 pieces in 3 copies: a rank of 4 cards holds one "
                                    "piece of 3 copies, and the pack has only 13 ranks")
    with pytest.raises(OptionError, match="pack cards52: gnav does not fit"):
        Rules.of("gnav", copies=4, pack="cards52")
    with pytest.raises(ValueError, match="84 cards"):
        mapping(gnav, 4)


def test_the_cards_read_as_their_pieces_and_the_option_round_trips() -> None:
    rules = Rules.from_spec({"preset": "gnav", "pack": "cards52"})
    assert rules.to_spec() == {"preset": "gnav", "pack": "cards52"}
    assert Rules.from_spec(rules.to_spec()) == rules
    assert rules.piece_named("KH").id == "cuckoo"
    assert rules.piece_named("k♣").id == "dragoon"
    assert rules.piece_named("10♦").id == "12"
    assert rules.piece_named("Joker").id == "fool"
    assert rules.piece_named("owl").id == "owl"  # the pieces' own names still read
    assert card_text("10S") == "10♠" and card_text("BJ") == "Joker"


@given(st.lists(st.sampled_from([None, Power.PASS, Power.CHARGE]), min_size=1, max_size=30),
       st.booleans(), st.integers(1, 4))
def test_any_deck_that_fits_keeps_its_order_and_copies(powers: list[Power | None], fool: bool,
                                                       copies: int) -> None:
    pieces = [piece(f"p{i}", power=pw) for i, pw in enumerate(powers)]
    if fool:
        pieces.append(piece("fool", fool=True))
    problem = fit_problem(pieces, copies)
    if problem is not None:
        assert len(pieces) * copies > 54 or len(pieces) > 13 or "places" in problem
        return
    m = mapping(pieces, copies)
    where = {c: i for i, c in enumerate(PACK)}
    flat = [where[c] for p in pieces for c in m.cards[p.id]]
    assert flat == sorted(flat) and len(set(flat)) == len(flat)
    assert Counter(len(cs) for cs in m.cards.values()) == Counter({copies: len(pieces)})


def test_the_contracts_table_of_the_gnav_deck_is_the_mapping() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs/spec/rules.md").read_text("utf-8")
    table = text.split("The Gnav deck (")[1].split("Left out:")[0]
    rules = Rules.of("gnav")
    written: dict[str, tuple[str, ...]] = {}
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith("| piece"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for name, cards in zip(cells[::2], cells[1::2], strict=True):
            if name:
                written[rules.piece_named(name).id] = (
                    JOKERS if cards == "both jokers" else tuple(cards.split()))
    m = mapping(PRESETS["gnav"].pieces, 2)
    assert written == {pid: tuple(card_text(c) if c not in JOKERS else c for c in cs)
                       for pid, cs in m.cards.items()}
    left = "J♠ J♣, 3♠ 3♣, the four 2s and the four aces"
    assert left in text
    assert [card_text(c) for c in m.left_out] == ["J♠", "J♣", "3♠", "3♣", "2♥", "2♦", "2♠",
                                                  "2♣", "A♥", "A♦", "A♠", "A♣"]


def test_the_terminal_names_a_piece_by_its_cards_under_cards52() -> None:
    from gnav.tui.labels import piece_label

    cards = Rules.of("gnav", pack="cards52")
    assert piece_label(cards, "cat", "nb") == "Q♥/Q♦ Katt (Cat)"
    assert piece_label(cards, "fool", "en") == "Joker ♥/Joker Fool"
    assert piece_label(Rules.of("gnav"), "cat", "nb") == "Katt (Cat)"
    chase = Rules.of("chase-the-ace", pack="cards52")
    assert piece_label(chase, "king", "en") == "K King"


def test_gnav_rules_pack_cards52_prints_the_card(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    from gnav.cli import main

    assert main(["rules", "gnav", "--pack", "cards52", "--lang", "nb"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Gnav med vanlig kortstokk"
    assert any(line.split()[:3] == ["Gjøk", "K♥", "K♦"] for line in out)
    assert out[-1] == "Ta ut: J♠ J♣ 3♠ 3♣ 2♥ 2♦ 2♠ 2♣ A♥ A♦ A♠ A♣"
    page = tmp_path / "card.html"
    assert main(["rules", "kille", "--pack", "cards52", "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('<li class="k-') == 20 and "<style>" in html  # one file, to print
    assert main(["rules", "gnav", "-o", "copies=4", "--pack", "cards52"]) == 2
    assert "84 cards" in capsys.readouterr().err
    assert main(["rules", "gnav", "--html", str(page)]) == 2
