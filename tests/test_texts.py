"""The catalogue of texts: every sentence in every language with the same placeholders,
the narration table naming only sentences, fields and facts that exist, the terminal
narrating in Norwegian and Danish from it, and every word the terminal says written in
every language and filled as written."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from random import Random
from typing import get_args

import pytest
from hypothesis import given, settings

from gnav.bots.registry import make_bot
from gnav.events import (
    Answer,
    Ask,
    Event,
    EventKind,
    Gain,
    MatchEnd,
    Pay,
    RoundEnd,
    Showdown,
)
from gnav.match import MatchState
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.runner import play_match
from gnav.texts.catalogue import CATALOGUE, PLACEHOLDER, Say, fill, say
from gnav.texts.companion import COMPANION
from gnav.texts.learn import LEARN
from gnav.texts.narrate import Narrator
from gnav.texts.narration import (
    FACTS,
    NARRATION,
    OBJECTS,
    PARTS,
    PIECES,
    SEAT_LISTS,
    SEATS,
    holds,
    present,
)
from gnav.texts.rules import changes, explanation, paragraphs
from gnav.texts.sentences import EVENTS, EXPLANATION
from gnav.texts.terminal import TERMINAL
from gnav.texts.words import WORDS
from gnav.tui.board import LOG_COLOURS
from gnav.vocab import TEXT_LANGS
from strategies import rules_strategy

NAMES = ("Astrid", "Bjørn", "Cecilie")


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_sentence_is_in_every_language_with_the_same_placeholders() -> None:
    # The terminal's words are checked with the rest: merged in, none of them a new
    # spelling of an id another module holds (the merge would drop one silently).
    assert set(TERMINAL) <= set(CATALOGUE)
    modules = (WORDS, EXPLANATION, EVENTS, TERMINAL, COMPANION, LEARN)
    assert sum(map(len, modules)) == len(CATALOGUE)
    for id, entry in CATALOGUE.items():
        if id.endswith(".you"):
            # Only where a language needs other words for "you" (English verbs).
            base = CATALOGUE[id.removesuffix(".you")]
            assert set(entry) <= set(base), id
            assert all(_placeholders(entry[k]) == _placeholders(base[k]) for k in entry), id
            continue
        if id.startswith("preset."):
            # The English is the preset's own (Preset.description, .source, .title).
            assert set(entry) == {"nb", "da"}, id
        else:
            assert set(entry) == set(TEXT_LANGS), id
        assert all(text.strip() == text or id.startswith("why.") for text in entry.values()), id
        shapes = {lang: _placeholders(text) for lang, text in entry.items()}
        assert len({frozenset(s) for s in shapes.values()}) == 1, (id, shapes)


def test_a_sentence_is_said_filled_with_english_for_a_language_without_texts() -> None:
    assert say("ev.pay", "nb", seat="Astrid", why="", lives=2) == \
        "Astrid betaler et liv til potten (2 igjen)."
    assert say("ev.sit_out", "nl", seats="A") == say("ev.sit_out", "en", seats="A")
    inner = Say("explain.players_range", {"lo": 2, "hi": 9})
    assert say(Say("explain.deal", {"players": inner}), "da").endswith("Fra 2 til 9 kan spille.")
    # A placeholder left without a value stays as written (as the browser's fill does).
    assert fill("{a} and {b}", {"a": 1}) == "1 and {b}"


def _fields_and_facts() -> set[str]:
    from gnav import events

    fields = {f for cls in vars(events).values() if isinstance(cls, type)
              and hasattr(cls, "_fields") for f in cls._fields}
    return fields | set(FACTS) | {"type", "how"}


def _alternatives() -> list[dict[str, object]]:
    return [alt for groups in NARRATION.values() for g in groups for alt in g] + \
        [alt for g in PARTS.values() for alt in g]


def test_the_narration_table_names_only_sentences_fields_and_facts_that_exist() -> None:
    known = _fields_and_facts()
    # Every kind of the engine's events is told (and the page's own stand-in note).
    kinds = {cls._make([None] * len(cls._fields)).kind for cls in get_args(Event)}
    assert len(kinds) >= 15 and set(NARRATION) == kinds | {"standin"}
    assert set(SEATS) | set(SEAT_LISTS) | set(PIECES) | set(OBJECTS) <= known
    for alt in _alternatives():
        said = str(alt["say"])
        assert said in CATALOGUE, said
        renames = alt.get("as", {})
        inner = alt.get("with", {})
        assert isinstance(renames, dict) and isinstance(inner, dict)
        assert set(inner.values()) <= set(PARTS)
        for ph in _placeholders(CATALOGUE[said]["en"]):
            assert ph in inner or renames.get(ph, ph) in known, (said, ph)
        for cond in alt.get("if", ()):  # type: ignore[attr-defined]
            name = str(cond).lstrip("!").split("=")[0]
            assert name in known, (said, cond)
        if "you" in alt:
            assert alt["you"] in SEATS, said


def test_conditions_read_as_the_table_says() -> None:
    values = {"seat": 0, "target": None, "reason": "fool", "sit_out": (), "paid": False}
    get = values.get
    assert holds("seat", get, None)  # seat 0 is there
    assert not holds("target", get, None) and holds("!target", get, None)
    assert holds("reason=fool", get, None) and not holds("reason=lowest", get, None)
    assert not holds("sit_out", get, None) and holds("!paid", get, None)
    assert holds("seat==me", get, 0) and not holds("seat==me", get, None)
    assert not holds("target==me", get, None)
    assert present(0) and not present([]) and not present("")
    with pytest.raises(ValueError, match="bad condition"):
        holds("seat>1", get, None)


@settings(max_examples=60, deadline=None)
@given(rules_strategy())
def test_the_rules_text_is_said_whole_in_every_language(rules: Rules) -> None:
    said = explanation(rules, "en")
    for lang in TEXT_LANGS:
        # One choice of sentences for every language: the same ids, filled.
        assert [[s.id for s in p] for p in explanation(rules, lang)] == \
            [[s.id for s in p] for p in said]
        text = "\n".join(paragraphs(explanation(rules, lang), lang))
        assert "{" not in text and "}" not in text, text
        assert str(rules.options.lives) in text
        for line in changes(rules, lang):
            assert "{" not in say(line, lang)


def test_an_option_changes_its_sentence_in_every_language() -> None:
    on, off = Rules.of("gnav"), Rules.of("gnav", drag=False)
    for lang in TEXT_LANGS:
        a, b = paragraphs(explanation(on, lang), lang), paragraphs(explanation(off, lang), lang)
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        assert len(differ) == 1, (lang, differ)
        assert say("explain.drag_on", lang) in a[differ[0]]
        assert say("explain.drag_off", lang) in b[differ[0]]


def test_the_terminal_narrates_in_norwegian_and_danish() -> None:
    rules = Rules.of("gnav")
    nb = Narrator(rules, NAMES, text="nb")
    nb.line(Showdown((0, 1, 2), ("fool", "cuckoo", "1")))
    assert nb.line(Pay(0, None, "fool", 3, True)) == \
        "Astrid betaler et liv til potten for narren (3 igjen)."
    assert nb.line(Pay(2, None, "lowest", 3, True)) == \
        "Cecilie betaler et liv til potten, dratt med ned av narren (3 igjen)."
    # The reader is "du" / "deg" where the sentence names them.
    da = Narrator(rules, NAMES, me=1, text="da")
    assert da.line(Ask(0, 1)) == 'Astrid vil bytte med dig: "Jeg bytter" (I want to trade)'
    assert da.line(MatchEnd((1,))) == "Du vinder spillet!"
    assert da.line(RoundEnd("turns", (1, 2, 3), (0, 1))) == \
        "Runden er slut. Står over i næste runde: Astrid og du."
    en = Narrator(rules, NAMES, me=1)
    assert en.line(Ask(1, 2)) == 'You ask Cecilie to swap: "Jeg bytter" (I want to trade)'
    assert en.line(Pay(1, 0, "dragoon", 2, True)) == \
        "You pay a life to Astrid for asking the Dragoon (2 left)."
    assert en.line(Gain(0, "two_fools", 5)) == "Astrid gains a life for the two fools (5)."
    assert en.line(Answer(None, "cuckoo", "stop", 2)) == \
        'From the stock comes the Cuckoo: "Gjøk!" (Cuckoo, stop!)'


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_event_of_a_match_is_told_in_every_language(name: str) -> None:
    rules = Rules.of(name)
    seats = max(rules.min_seats, min(rules.max_seats or 5, 5))
    names = tuple(f"P{i}" for i in range(seats))
    bots = [make_bot("random", seed=i) for i in range(seats)]
    heard: list[Event] = []

    def listen(match: MatchState, events: tuple[Event, ...]) -> None:
        heard.extend(events)

    play_match(rules, names, bots, seed=Random(name).randrange(1000), listener=listen)
    assert heard
    for lang in TEXT_LANGS:
        narrators = [Narrator(rules, names, text=lang, me=me) for me in (None, 0)]
        for e in heard:
            for n in narrators:
                line = n.line(e)
                assert line, (lang, e)
                assert "{" not in line and "None" not in line and "?" not in line, line


# -- the terminal's words ---------------------------------------------------------------

TUI = Path(__file__).resolve().parents[1] / "src" / "gnav" / "tui"


def _said_in_tui() -> list[tuple[str, ast.Call]]:
    """``(where, call)`` of every ``say(...)`` and ``template(...)`` (a sentence taken
    unfilled, to be filled later) in the terminal's modules, read from the code itself."""
    calls = []
    for path in sorted(TUI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("say", "template"):
                calls.append((f"{path.name}:{node.lineno}", node))
    return calls


def _ids(call: ast.Call) -> list[str]:
    """The catalogue ids a call may say: its literal id, or every id its f-string
    (``f"pager.{key}"``) can spell."""
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return [first.value]
    assert isinstance(first, ast.JoinedStr), ast.dump(first)
    pattern = "".join(re.escape(str(v.value)) if isinstance(v, ast.Constant) else r"\w+"
                      for v in first.values)
    return [id for id in CATALOGUE if re.fullmatch(pattern, id)]


def test_every_word_the_terminal_says_is_written_in_every_language() -> None:
    calls = _said_in_tui()
    assert len(calls) > 60
    said: set[str] = set()
    for where, call in calls:
        ids = _ids(call)
        assert ids, (where, "says no id the catalogue holds")
        for id in ids:
            assert id in CATALOGUE, (where, id)
            assert set(TEXT_LANGS) <= set(CATALOGUE[id]), (where, id, set(CATALOGUE[id]))
        said |= set(ids)
        # What the call fills is what the sentence has room for, in every language.
        unfilled = isinstance(call.func, ast.Name) and call.func.id == "template"
        if unfilled or len(ids) > 1 or any(k.arg is None for k in call.keywords):
            continue  # unfilled on purpose, an id spelled at run time, or ``**params``
        given = {k.arg for k in call.keywords}
        for id in ids:
            for lang in TEXT_LANGS:
                assert _placeholders(CATALOGUE[id][lang]) == given, (where, id, lang, given)
    # And every word written for the terminal is said by it.
    assert set(TERMINAL) <= said, sorted(set(TERMINAL) - said)



def test_every_event_kind_is_one_of_event_kind_and_every_member_is_told() -> None:
    events = [cls._make([None] * len(cls._fields)) for cls in get_args(Event)]
    assert all(type(e.kind) is EventKind for e in events)
    assert {e.kind for e in events} == set(EventKind)
    assert set(NARRATION) == set(EventKind) | {"standin"}
    # The terminal's log colours: events by their kind, and its own two kinds of line.
    assert set(LOG_COLOURS) - set(EventKind) == {"note", "mine"}
