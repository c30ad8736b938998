"""``gnav learn``: the guided first match in the terminal, line by line.

The frames are the lesson's (``gnav.learn.lesson``), the same the browser shows: the
events told by the narrator, the notes said where they happen, and at the player's
turn a prompt that takes ``s`` or ``w``. A choice other than the lesson's is explained
and asked again (nothing is played); ``q`` stops and says how to go on from that round.
Input and output are functions, so a test drives it with a list of answers.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from gnav.learn.lesson import frames, lesson_rules, note_text, told, why_text
from gnav.learn.script import ROUNDS
from gnav.texts.catalogue import say
from gnav.vocab import Action

KEYS = {"s": Action.STAND, "w": Action.SWAP}
WIDTH = 78


def run_lesson(preset: str, lang: str, read: Callable[[str], str],
               write: Callable[[str], None], *, start: int = 1) -> int:
    """Play the lesson under ``preset`` from lesson round ``start``; 0 at its end or on
    ``q`` (or the end of input)."""
    rules = lesson_rules(preset)
    shown = 0
    for frame, lines in zip(frames(preset), told(preset, lang), strict=True):
        if frame.round < start:
            continue
        if frame.round != shown:
            shown = frame.round
            write("")
            write(say("learn.ui.round", lang, n=shown, total=len(ROUNDS)))
        for line in lines:
            write(f"  {line}")
        for note in frame.notes:
            write(textwrap.fill(note_text(note, rules, lang), WIDTH, initial_indent="» ",
                                subsequent_indent="  "))
        if frame.ask is not None:
            while True:
                answer = _read(read, say("learn.ui.prompt", lang) + " ")
                if answer == "q":
                    write(say("learn.ui.quit", lang, n=frame.round))
                    return 0
                action = KEYS.get(answer)
                if action is None:
                    continue
                if action == frame.ask.expected:
                    break
                write(textwrap.fill(f"{say('learn.ui.not_that', lang)} "
                                    f"{why_text(frame.ask, lang)}", WIDTH))
        elif frame.notes and _read(read, say("learn.ui.press", lang) + " ") == "q":
            write(say("learn.ui.quit", lang, n=frame.round))
            return 0
    write("")
    write(say("learn.ui.done", lang))
    return 0


def _read(read: Callable[[str], str], prompt: str) -> str:
    try:
        return read(prompt).strip().lower()
    except EOFError:
        return "q"
