"""The printable card of ``pack = cards52`` (gnav.web.card): it says only what plays."""

from __future__ import annotations

import pytest

from gnav.cards import JOKERS, mapping
from gnav.rules import Rules
from gnav.texts.catalogue import say
from gnav.web.card import card_html, card_name, card_text_lines, order_text


@pytest.mark.parametrize("preset", ["gnav", "gnav-1917", "chase-the-ace", "hypp", "kille"])
@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_the_order_names_aces_and_jokers_only_where_they_play(preset: str, lang: str) -> None:
    rules = Rules.of(preset, pack="cards52")
    m = mapping(rules.pieces, rules.options.copies)
    playing = {c for cs in m.cards.values() for c in cs}
    text = order_text(rules, lang)
    assert (say("companion.card_aces", lang) in text) == any(c[0] == "A" for c in playing)
    assert (say("companion.card_jokers", lang) in text) == bool(playing & set(JOKERS))
    # An ace taken out is never said to be low.
    if any(c[0] == "A" for c in m.left_out):
        assert say("companion.card_aces", lang) not in text


def test_the_jokers_are_named_in_words_and_kept_apart() -> None:
    rules = Rules.of("gnav", pack="cards52")
    assert [card_name(c, "nb") for c in JOKERS] == ["rød joker", "svart joker"]
    assert card_name("10D", "nb") == "10♦"
    fool = next(line for line in card_text_lines(rules, "en") if "Fool" in line)
    assert "red joker, black joker" in fool
    page = card_html(rules, "da")
    assert "rød joker, sort joker" in page and "Joker ♥" not in page


def test_the_footer_is_a_sentence_and_the_page_has_an_icon() -> None:
    rules = Rules.of("gnav", pack="cards52")
    served, alone = card_html(rules, "en"), card_html(rules, "en", inline_css=True)
    assert 'rel="icon" href="/static/favicon.svg"' in served
    assert 'rel="icon" href="data:image/svg+xml;base64,' in alone
    pieces = len(rules.pieces)
    assert f"{2 * pieces} cards in play: 2 of each of the {pieces} pieces." in served
    assert "pack = cards52" not in served
