"""The guided match's script is checked by the engine: under every preset the lesson
offers, each round plays through the rules as written, each note's events happen where
it is said, the player's expected choices are legal, and nothing hidden reaches a frame."""

from __future__ import annotations

import json

import pytest

from gnav.errors import InconsistentError, MalformedError
from gnav.events import Answer, Draw, Gain, Knock, Pay, Swap, Undo
from gnav.learn.claims import CLAIMS, PIECE_FIELDS
from gnav.learn.lesson import frames, frames_json, lesson_rules, note_text, play
from gnav.learn.script import NAMES, PLAYER, PRESETS, ROUNDS, LessonRound, said
from gnav.texts.catalogue import CATALOGUE, PLACEHOLDER
from gnav.vocab import TEXT_LANGS


@pytest.mark.parametrize("preset", PRESETS)
def test_the_lesson_plays_through_the_rules_to_the_players_win(preset: str) -> None:
    lesson = frames(preset)
    assert {f.round for f in lesson} == set(range(1, len(ROUNDS) + 1))
    last = lesson[-1].view
    assert last.winners == (PLAYER,)
    asks = [f.ask for f in lesson if f.ask is not None]
    assert len(asks) == sum(1 for r in ROUNDS for d in r.decisions if d.seat == PLAYER)
    for ask in asks:
        assert ask.expected in ask.legal and len(ask.legal) == 2


@pytest.mark.parametrize("preset", PRESETS)
def test_every_note_is_said_in_its_round_in_the_scripts_order(preset: str) -> None:
    for number, rnd in enumerate(ROUNDS, 1):
        said_here = [n.key for f in frames(preset) if f.round == number for n in f.notes]
        assert said_here == [rnd.intro, *(said(t, preset) for t in rnd.notes)]


def test_the_lesson_teaches_every_power_and_rule_the_issue_names() -> None:
    events = [e for f in frames("gnav") for e in f.events]
    powers = {e.power for e in events if isinstance(e, Answer)}
    assert {"stop", "charge", "charge_undo", "pass"} <= powers
    assert any(isinstance(e, Knock) for e in events)
    assert any(isinstance(e, Undo) for e in events)
    assert any(isinstance(e, Draw) and e.seat == PLAYER for e in events)  # the player deals
    assert sum(1 for e in events if isinstance(e, Gain) and e.reason == "two_fools") == 2
    reasons = [e.reason for e in events if isinstance(e, Pay)]
    assert "fool" in reasons and reasons[reasons.index("fool") + 1] == "lowest"  # the drag
    # The 1917 rules differ where they should: the Cuckoo refuses, the Cat only charges.
    old = [e for f in frames("gnav-1917") for e in f.events if isinstance(e, Answer)]
    assert {e.power for e in old if e.piece == "cuckoo"} == {"refuse"}
    assert {e.power for e in old if e.piece == "cat"} == {"charge"}
    assert not any(isinstance(e, Undo) for f in frames("gnav-1917") for e in f.events)


def test_a_note_that_does_not_happen_is_refused() -> None:
    # The first round said with the Cuckoo's note: nobody asks a Cuckoo in it.
    wrong = ROUNDS[0]._replace(notes=("learn.cuckoo_stops",))
    with pytest.raises(InconsistentError, match="cuckoo_stops"):
        play("gnav", (wrong, *ROUNDS[1:]))
    # A preset's own sentence is checked under that preset: the 1917 Cuckoo does not stop.
    stops = ROUNDS[2]._replace(notes=("learn.cuckoo_stops",))
    play("gnav", (*ROUNDS[:2], stops, *ROUNDS[3:]))
    with pytest.raises(InconsistentError, match="gnav-1917"):
        play("gnav-1917", (*ROUNDS[:2], stops, *ROUNDS[3:]))


def test_a_decision_out_of_turn_or_a_round_left_unfinished_is_refused() -> None:
    first = ROUNDS[0]
    out_of_turn = first._replace(decisions=first.decisions[1:])
    with pytest.raises(InconsistentError, match="seat 1 decide"):
        play("gnav", (out_of_turn,))
    unfinished = first._replace(decisions=first.decisions[:-1])
    with pytest.raises(InconsistentError, match="goes on"):
        play("gnav", (unfinished,))
    with pytest.raises(MalformedError):
        lesson_rules("hypp")


def test_every_sentence_is_written_in_every_language_and_fills_from_its_claim() -> None:
    keys = {k for r in ROUNDS for k in (r.intro, *(said(t, p) for t in r.notes for p in PRESETS))}
    keys |= {d.why for r in ROUNDS for d in r.decisions if d.why}
    for key in keys:
        assert set(CATALOGUE[key]) >= set(TEXT_LANGS), key
        bound = {f[1:] for pattern in CLAIMS.get(key, ()) for f in pattern.values()
                 if isinstance(f, str) and f.startswith("$")}
        for lang in TEXT_LANGS:
            assert set(PLACEHOLDER.findall(CATALOGUE[key][lang])) <= bound, (key, lang)


@pytest.mark.parametrize("lang", TEXT_LANGS)
def test_notes_are_said_with_names_and_pieces_in_the_readers_language(lang: str) -> None:
    rules = lesson_rules("gnav")
    for f in frames("gnav"):
        for note in f.notes:
            text = note_text(note, rules, lang)
            assert "{" not in text, (note.key, text)
    fool = next(n for f in frames("gnav") for n in f.notes if n.key == "learn.intro.two_fools")
    assert {"en": "Fool", "nb": "Narr", "da": "Nar"}[lang] in note_text(fool, rules, lang)


def test_a_frame_holds_no_piece_the_player_could_not_see() -> None:
    # Every piece in a frame's events is the player's own, or shown to everyone (an
    # answer, the showdown): the frames are cut from the player's own log.
    deal = frames_json("gnav")["frames"][0]["events"]
    assert [(e["type"], e["piece"]) for e in deal] == [("round_start", "2")]
    for f in frames("gnav"):
        for e in f.events:
            if isinstance(e, Swap) and PLAYER not in (e.seat, e.target):
                assert e.seat_got is None and e.target_got is None
            if isinstance(e, Draw) and e.seat != PLAYER:
                assert e.piece is None and e.set_aside is None
    # Round 3's Cuckoo sits on the player's left: nothing before its answer names it.
    third = [f for f in frames("gnav") if f.round == 3]
    shown = frames_json("gnav")["frames"]
    before = json.dumps([{k: shown[frames("gnav").index(f)][k] for k in ("events", "view")}
                         for f in third[:-1]])
    assert "cuckoo" not in before
    assert "cuckoo" in json.dumps(frames_json("gnav")["frames"][frames("gnav").index(third[-1])])


def test_the_lesson_is_short_to_read() -> None:
    # Under five minutes: the notes take under two and a half minutes at 200 words a
    # minute, beside about two of the board's animations (docs/learn.md, measured).
    rules = lesson_rules("gnav")
    words = sum(len(note_text(n, rules, "en").split()) for f in frames("gnav") for n in f.notes)
    assert words < 200 * 2.5
    assert sum(len(r.decisions) for r in ROUNDS) <= 40


def test_the_scripts_bound_placeholders_name_only_seats_and_pieces() -> None:
    for key, claim in CLAIMS.items():
        for pattern in claim:
            for field, value in pattern.items():
                if isinstance(value, str) and value.startswith("$"):
                    assert field in PIECE_FIELDS or field in ("seat", "target", "asker"), key
    assert isinstance(ROUNDS[0], LessonRound) and NAMES[PLAYER] == "You"
