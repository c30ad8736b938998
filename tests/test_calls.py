"""What is said at the table: a game's own calls and words, with their meaning beside."""

from __future__ import annotations

import pytest

from gnav.calls import GLOSS, call_pair, quoted, word_pair
from gnav.events import Answer
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.texts.narrate import Narrator
from gnav.texts.rules import piece_call
from gnav.tui.labels import piece_of


def test_slabberjan_in_norwegian_keeps_its_dutch_calls() -> None:
    rules = Rules.of("slabberjan")
    ruiter = piece_of(rules, "ruiter")
    assert call_pair(rules, ruiter, "nb") == ("Kap af!", "Hugg av!")
    assert call_pair(rules, ruiter, "da") == ("Kap af!", "Hug af!")
    assert call_pair(rules, ruiter, "nl") == ("Kap af!", "Cut off!")
    assert word_pair(rules, "stand", "nb") == ("Ik sta", "Jeg står")
    assert piece_call(rules, ruiter, "nb") == "«Kap af!» (Hugg av!)"


def test_gnav_speaks_the_chosen_language_where_it_has_it() -> None:
    rules = Rules.of("gnav")
    dragoon = piece_of(rules, "dragoon")
    assert call_pair(rules, dragoon, "da") == ("Hug af!", "Cut off!")
    assert call_pair(rules, dragoon, "en") == ("Cut off!", "Cut off!")
    assert quoted(call_pair(rules, dragoon, "en") or ("", "")) == '"Cut off!"'
    assert word_pair(rules, "swap", "nb") == ("Jeg bytter", "I want to trade")


def test_the_narrator_says_the_call_as_the_game_does() -> None:
    rules = Rules.of("slabberjan")
    narrator = Narrator(rules, ("A", "B", "C"), lang="nb")
    line = narrator.line(Answer(1, "ruiter", "charge_stop", 0))
    assert line == 'B shows the Rider: "Kap af!" (Hugg av!)'
    assert narrator.word("stand") == '"Ik sta" (Jeg står)'


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_call_and_word_can_be_glossed_in_norwegian_and_danish(name: str) -> None:
    preset = PRESETS[name]
    english = {p.call("en") for p in preset.pieces} | \
        {v for k, v in preset.words.items() if k.endswith(".en")}
    for lang in ("nb", "da"):
        if f"stand.{lang}" in preset.words:
            continue  # the game speaks it: no gloss needed
        missing = sorted(t for t in english if t and lang not in GLOSS.get(t, {}))
        assert not missing, (name, lang, missing)
