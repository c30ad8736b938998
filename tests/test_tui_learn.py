"""``gnav learn``: the lesson in the terminal, driven by a list of answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gnav.cli import main
from gnav.learn.lesson import frames
from gnav.learn.script import ROUNDS
from gnav.texts.catalogue import say
from gnav.tui.learn import run_lesson


def _run(answers: list[str], lang: str = "en", preset: str = "gnav",
         start: int = 1) -> tuple[int, list[str], list[str]]:
    given: Iterator[str] = iter(answers)
    prompts: list[str] = []
    out: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    code = run_lesson(preset, lang, read, out.append, start=start)
    return code, prompts, out


def _right_answers(preset: str) -> list[str]:
    """Enter at every note, the lesson's choice at every ask."""
    answers = []
    for f in frames(preset):
        if f.ask is not None:
            answers.append("s" if f.ask.expected == "stand" else "w")
        elif f.notes:
            answers.append("")
    return answers


@pytest.mark.parametrize("lang", ["en", "nb", "da"])
@pytest.mark.parametrize("preset", ["gnav", "gnav-1917"])
def test_the_lesson_is_played_to_its_end_in_every_language(lang: str, preset: str) -> None:
    code, _, out = _run(_right_answers(preset), lang, preset)
    assert code == 0
    assert out[-1] == say("learn.ui.done", lang)
    assert say("learn.ui.round", lang, n=len(ROUNDS), total=len(ROUNDS)) in out


def test_a_wrong_choice_is_explained_and_asked_again_with_nothing_played() -> None:
    answers = _right_answers("gnav")
    answers.insert(0, "s")  # round 1: stand with II, where the lesson swaps
    code, prompts, out = _run(answers)
    assert code == 0 and out[-1] == say("learn.ui.done", "en")
    why = next(i for i, line in enumerate(out) if line.startswith(say("learn.ui.not_that", "en")))
    assert "Standing keeps a low piece" in " ".join(out[why:why + 3])
    # The first swap is told after the explanation, once: the stand was never played.
    assert sum(1 for line in out if "You stand" in line) == 0 or \
        next(i for i, line in enumerate(out) if "You stand" in line) > why + 5
    assert prompts[0] == prompts[1] == say("learn.ui.prompt", "en") + " "


def test_q_stops_and_says_how_to_go_on_and_round_starts_there() -> None:
    code, _, out = _run(["w", "", "", "q"])
    assert code == 0
    assert out[-1] == say("learn.ui.quit", "en", n=2)
    code, _, out = _run(_right_answers("gnav")[-3:], start=8)
    assert code == 0 and out[-1] == say("learn.ui.done", "en")
    assert out[1] == say("learn.ui.round", "en", n=8, total=len(ROUNDS))
    code, _, out = _run([])  # the end of input quits, as q does
    assert out[-1] == say("learn.ui.quit", "en", n=1)


def test_the_command_refuses_a_round_outside_the_lesson(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--round", "9"]) == 2
    assert "--round must be 1 to 8" in capsys.readouterr().err
