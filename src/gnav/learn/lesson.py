"""The guided match played by the engine: the script's rounds (``gnav.learn.script``)
dealt and decided through ``MatchState``, cut into the frames a player steps through.

A frame is what happens between two of the player's moments: the events the player saw
(their own log: their own piece, their own swaps and draws, nothing hidden), the notes
said there, and, where the player decides next, the expected choice and the sentence
that explains it. Every note is placed where its claim (``gnav.learn.claims``) matches
the player's log, and a note whose events do not happen raises: the script cannot say
what the engine did not do. The terminal (``gnav learn``) and the browser (``/learn``,
from ``frames_json``) show the same frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from gnav.errors import InconsistentError, MalformedError
from gnav.events import Eliminated, Event, MatchEnd, event_to_json
from gnav.learn.claims import CLAIMS, Bound, find, match_at
from gnav.learn.script import (
    FIRST_DEALER,
    LIVES,
    NAMES,
    PLAYER,
    PRESETS,
    ROUNDS,
    LessonRound,
    said,
)
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.texts.catalogue import say, text_lang
from gnav.texts.narrate import Narrator
from gnav.texts.rules import native_name
from gnav.views import SeatView, seat_view, view_to_json
from gnav.vocab import TEXT_LANGS, Action


class Note(NamedTuple):
    """A sentence said at a frame, and what fills its placeholders."""

    key: str
    params: Bound


class Ask(NamedTuple):
    """The player decides here: the lesson's choice, and why (said on the other)."""

    expected: Action
    why: str
    legal: tuple[Action, ...]


class Frame(NamedTuple):
    round: int  # the lesson's round, from 1
    events: tuple[Event, ...]  # the player's own log since the last frame
    notes: tuple[Note, ...]
    ask: Ask | None
    view: SeatView  # the player's view at the frame's end


def lesson_rules(preset: str) -> Rules:
    """The rules the lesson is played under: ``preset``, the lesson's lives, and as
    many rounds as it has (the match ends with its last round, the most lives winning).

    :raises: :exc:`MalformedError` for a preset the lesson is not offered in.
    """
    if preset not in PRESETS:
        raise MalformedError(f"the lesson is offered in {', '.join(PRESETS)}, not {preset!r}")
    return Rules.of(preset, lives=LIVES, max_rounds=len(ROUNDS))


def note_text(note: Note, rules: Rules, lang: str) -> str:
    """``note`` said in ``lang``: seats by name, pieces by their name in ``lang``."""
    params = {name: value["seat"] if "seat" in value else
              native_name(rules, rules.pieces[rules.index(value["piece"])], text_lang(lang))
              for name, value in note.params.items()}
    return say(note.key, lang, **params)


def told(preset: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """Each frame's events told in ``lang`` to the player (the terminal's narrator: "you
    stand", the calls with their meaning), the player named by the word for "you" where
    a line lists seats by name (the showdown)."""
    rules = lesson_rules(preset)
    names = tuple(say("word.reader", lang).capitalize() if s == PLAYER else n
                  for s, n in enumerate(NAMES))
    narrator = Narrator(rules, names, me=PLAYER, text=lang)
    return tuple(tuple(line for e in f.events if (line := narrator.line(e)) is not None)
                 for f in frames(preset))


def why_text(ask: Ask, lang: str) -> str:
    """Why the lesson chooses as it does at ``ask``, said when the player chooses the
    other way."""
    return say(ask.why, lang)


@cache
def frames(preset: str = "gnav") -> tuple[Frame, ...]:
    """Every frame of the lesson under ``preset``, in order (``play`` of the script's
    rounds, made once)."""
    return play(preset, ROUNDS)


def play(preset: str, rounds: Sequence[LessonRound]) -> tuple[Frame, ...]:
    """Every frame of ``rounds`` played under ``preset``, in order.

    :raises:
        - :exc:`MalformedError` for a preset the lesson is not offered in.
        - :exc:`InconsistentError` where the script and the rules disagree: a decision
          out of turn or forbidden, a round not over when its decisions are, a note
          whose events do not happen.
    """
    rules = lesson_rules(preset)
    match = MatchState.new(rules, NAMES, dealer=FIRST_DEALER)
    out: list[Frame] = []
    for number, script in enumerate(rounds, 1):
        match, played = _play_round(match, number, script)
        out += _place_notes(played, number, script, preset)
    if not match.over:
        raise InconsistentError("the lesson's match is not over after its last round")
    return tuple(out)


class _Chunk(NamedTuple):
    events: list[Event]
    ask: Ask | None
    view: SeatView


def _play_round(match: MatchState, number: int,
                script: LessonRound) -> tuple[MatchState, list[_Chunk]]:
    rules = match.rules
    order = match.turn_order()
    if set(order) != set(script.deal):
        raise InconsistentError(f"lesson round {number}: the deal names seats "
                                f"{sorted(script.deal)}, the match deals {sorted(order)}")
    match = match.deal([rules.index(script.deal[s]) for s in order],
                       [rules.index(p) for p in script.stock])
    chunks: list[_Chunk] = []
    seen = 0

    def chunk(extra: tuple[Any, ...] = ()) -> None:
        nonlocal seen
        view = seat_view(match, PLAYER)
        log = view.events
        events = [*log[seen:], *extra]
        seen = len(log)
        chunks.append(_Chunk(events, None, view))

    chunk()
    for d in script.decisions:
        if match.to_act != d.seat:
            raise InconsistentError(f"lesson round {number}: the script has seat {d.seat} "
                                    f"decide, the match has seat {match.to_act} to act")
        if d.action not in match.legal_actions():
            raise InconsistentError(f"lesson round {number}: seat {d.seat} may not "
                                    f"{d.action}")
        if d.seat == PLAYER:
            if d.why is None:
                raise InconsistentError(f"lesson round {number}: the player's decision "
                                        "says no why")
            last = chunks[-1]
            chunks[-1] = last._replace(ask=Ask(d.action, d.why, match.legal_actions()))
        match, events = match.apply(d.action)
        chunk(tuple(e for e in events if isinstance(e, Eliminated | MatchEnd)))
    if match.round is None or not match.round.over:
        raise InconsistentError(f"lesson round {number}: the round goes on after the "
                                "script's last decision")
    return match, chunks


def _place_notes(chunks: list[_Chunk], number: int, script: LessonRound,
                 preset: str) -> list[Frame]:
    me = NAMES[PLAYER]
    log = [event_to_json(e, NAMES) for c in chunks for e in c.events]
    ends = []  # the index in ``log`` after each chunk's last event
    total = 0
    for c in chunks:
        total += len(c.events)
        ends.append(total)
    notes: list[list[Note]] = [[] for _ in chunks]
    intro = match_at(CLAIMS[script.intro], log, 0, me)
    if intro is None:
        raise InconsistentError(f"lesson round {number}: {script.intro} does not match the deal")
    notes[0].append(Note(script.intro, intro))
    start = 0
    for text in script.notes:
        key = said(text, preset)
        found = find(CLAIMS[key], log, start, me)
        if found is None:
            raise InconsistentError(f"lesson round {number} under {preset}: {key} says what "
                                    "does not happen")
        last, bound = found
        start = last + 1
        at = next(i for i, end in enumerate(ends) if last < end)
        notes[at].append(Note(key, bound))
    return [Frame(number, tuple(c.events), tuple(n), c.ask, c.view)
            for c, n in zip(chunks, notes, strict=True)]


def frames_json(preset: str = "gnav") -> dict[str, Any]:
    """The lesson for the browser: the frames with their views (no events twice), the
    seat names and the player's name. Language-free: the page says the sentence ids."""
    lesson = frames(preset)
    told_in = {str(lang): told(preset, lang) for lang in TEXT_LANGS}
    return {
        "preset": preset,
        "names": list(NAMES),
        "me": NAMES[PLAYER],
        "lives": LIVES,
        "rounds": len(ROUNDS),
        "frames": [{
            "round": f.round,
            "events": [event_to_json(e, NAMES) for e in f.events],
            "told": {lang: lines[i] for lang, lines in told_in.items()},
            "notes": [{"key": n.key, "params": dict(n.params)} for n in f.notes],
            "ask": None if f.ask is None else {"expected": f.ask.expected, "why": f.ask.why,
                                                "legal": list(f.ask.legal)},
            "view": {k: v for k, v in view_to_json(f.view).items() if k != "events"},
        } for i, f in enumerate(lesson)],
    }
