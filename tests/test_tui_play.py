"""``gnav play`` driven as a person drives it: keys into a real terminal (tmux), the
screen read back, the saved record verified. A plain-pipe run covers the same loop
where tmux is missing."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from gnav.texts.catalogue import say
from gnav.verify import verify_file
from textkit import english_frame_words, words

GNAV = str(Path(sys.executable).parent / "gnav")
TMUX = shutil.which("tmux")  # make test installs it first (tools/sysdeps.txt)

DECIDE = "[w] swap with"
NEXT_ROUND = "[Enter] next round"
WATCH = "[Enter] watch the bots"
PASS = "Pass the screen to"
HIDE = "[Enter] hide my piece"
PROMPTS = (DECIDE, NEXT_ROUND, WATCH, PASS, HIDE, "EXIT=")


class Prompts(NamedTuple):
    """What a screen waiting for a key shows, in one language."""

    decide: str
    next_round: str
    watch: str
    pass_screen: str
    hide: str

    @staticmethod
    def of(lang: str) -> Prompts:
        """The prompts in ``lang``, as the catalogue words them."""
        return Prompts(words("tui.key_swap", lang), say("tui.key_next_round", lang),
                       say("tui.key_watch", lang), words("tui.pass_screen", lang),
                       say("tui.key_hide", lang))


EN = Prompts(DECIDE, NEXT_ROUND, WATCH, PASS, HIDE)


class Terminal:
    """One tmux server on a private socket: a terminal the test types into."""

    def __init__(self, socket: Path) -> None:
        self.socket = str(socket)
        self.prompts: tuple[str, ...] = PROMPTS

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        proc = subprocess.run([TMUX, "-u", "-S", self.socket, *args], capture_output=True,
                              text=True, encoding="utf-8", check=True, timeout=10)
        return proc.stdout

    def start(self, argv: list[str], cwd: Path, prompts: Prompts = EN) -> None:
        # The shell stays after gnav exits, so its last screen and exit code can be read.
        self.prompts = (*prompts, "EXIT=")
        cmd = (f"cd {shlex.quote(str(cwd))} && LANG=C.UTF-8 PYTHONIOENCODING=utf-8 "
               f"{shlex.join(argv)}; echo EXIT=$?; sleep 60")
        self.tmux("new-session", "-d", "-s", "t", "-x", "110", "-y", "45", cmd)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def send(self, key: str) -> None:
        self.tmux("send-keys", "-t", "t", key)

    def settle(self, before: str = "", timeout: float = 8.0) -> str:
        """The screen once it differs from ``before``, shows a prompt and holds still."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            now = self.screen()
            if now != before and now == last and any(p in now for p in self.prompts):
                return now
            last = now
            time.sleep(0.03)
        raise AssertionError(f"the screen did not settle:\n{self.screen()}")

    def press(self, key: str, screen: str) -> str:
        self.send(key)
        return self.settle(screen)

    def wait_for(self, *texts: str, timeout: float = 3.0) -> str:
        """The screen once it shows every one of ``texts`` (or the last one seen)."""
        deadline = time.monotonic() + timeout
        screen = self.screen()
        while not all(t in screen for t in texts) and time.monotonic() < deadline:
            time.sleep(0.03)
            screen = self.screen()
        return screen

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-S", self.socket, "kill-server"],
                       capture_output=True, check=False, timeout=10)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Terminal]:
    t = Terminal(tmp_path / "tmux.sock")
    try:
        yield t
    finally:
        t.close()


def play_to_end(term: Terminal, screen: str, choose: Callable[[int], str],
                prompts: Prompts = EN) -> list[str]:
    """Answer every prompt until gnav exits; every screen seen along the way."""
    seen = [screen]
    turns = 0
    deadline = time.monotonic() + 25
    while "EXIT=" not in screen:
        assert time.monotonic() < deadline, screen
        if prompts.decide in screen:
            screen = term.press(choose(turns), screen)
            turns += 1
        elif any(p in screen for p in prompts[1:]):
            screen = term.press("Enter", screen)
        else:  # pragma: no cover - settle() only returns on a prompt
            raise AssertionError(screen)
        seen.append(screen)
    return seen


def test_a_whole_match_in_a_terminal(term: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    term.start([GNAV, "play", "--seed", "11", "--delay", "0", "--lives", "2", "--seats", "4",
                "--record", str(record)], tmp_path)
    first = term.settle()
    seen = play_to_end(term, first, lambda n: "s" if n % 3 == 0 else "w")
    last = seen[-1]
    assert "EXIT=0" in last
    assert "Saved the match to" in last
    every = "\n".join(seen)
    # The table: seats round the circle, the dealer marked, lives as tokens, your piece.
    assert "your piece" in first and "lives" in first and "●" in first
    assert " D " in first
    assert "← to play" in first
    # The calls, in Norwegian with the English beside.
    assert '"Jeg står" (I stand)' in every
    assert '"Jeg bytter" (I want to trade)' in every
    assert "Showdown:" in every
    assert "pays a life" in every
    code, lines = verify_file(str(record))
    assert code == 0, lines
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["result"]["winners"]
    assert data["rules"] == {"preset": "gnav", "lives": 2}
    assert "unfinished_round" not in data["x"]


def test_rules_key_and_quit_mid_match(term: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    term.start([GNAV, "play", "--seed", "4", "--delay", "0", "--record", str(record)],
               tmp_path)
    screen = term.settle()
    while DECIDE not in screen:
        screen = term.press("Enter", screen)
    term.send("?")
    rules = term.wait_for("Rules: Gnav", "[q] back to the game")
    assert "The game" in rules and "stock" in rules
    screen = term.press("q", rules)
    assert DECIDE in screen
    screen = term.press("w", screen)  # one decision, so the quit cuts a round short
    while DECIDE not in screen and "EXIT=" not in screen:
        screen = term.press("Enter", screen)
    screen = term.press("q", screen)
    assert "EXIT=0" in screen
    assert "Stopped" in screen and "Saved the match to" in screen
    code, lines = verify_file(str(record))
    assert code == 0, lines
    data = json.loads(record.read_text(encoding="utf-8"))
    assert "result" not in data
    assert data["x"]["seed"] == 4
    # The round cut short keeps the decisions made in it before the person's turn.
    assert data["x"]["unfinished_round"]["actions"]


def _quit_after_rounds(term: Terminal, screen: str, rounds: int) -> str:
    """Stand where the rules let you (swap where they do not), press Enter at the end of
    each round but the last, and q at its "Round over": the screen after the quit."""
    ended = 0
    deadline = time.monotonic() + 25
    while True:
        assert time.monotonic() < deadline and "EXIT=" not in screen, screen
        if "Round over" in screen:
            ended += 1
            if ended == rounds:
                return term.press("q", screen)
            screen = term.press("Enter", screen)
        elif DECIDE in screen:
            after = term.press("s", screen)
            if "may not stand" in after:
                after = term.press("w", after)
            screen = after
        else:  # hot-seat: hand the screen over, hide a piece
            screen = term.press("Enter", screen)


@pytest.mark.parametrize("rounds", [1, 2])
def test_quitting_at_round_over_keeps_the_round(term: Terminal, tmp_path: Path,
                                                rounds: int) -> None:
    # The round just played is in the record's rounds, not kept aside as unfinished: q
    # at "Round over" stops before the next deal, not in the middle of a round.
    record = tmp_path / "r1.json"
    term.start([GNAV, "play", "--seats", "4", "--bots", "expert", "--seed", "5", "--lives",
                "2", "--delay", "0", "--record", str(record)], tmp_path)
    screen = _quit_after_rounds(term, term.settle(), rounds)
    assert "EXIT=0" in screen and "Saved the match to" in screen
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["rounds"]) == rounds
    assert all(len(r["actions"]) >= 3 for r in data["rounds"])
    assert "unfinished_round" not in data["x"]
    assert verify_file(str(record))[0] == 0
    replay = subprocess.run([GNAV, "replay", str(record), "--all"], capture_output=True,
                            text=True, encoding="utf-8", timeout=30, check=False,
                            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert replay.returncode == 0, replay.stderr
    assert say("tui.cut", "en") not in replay.stdout
    assert say("tui.not_over", "en") in replay.stdout


def test_hot_seat_quitting_at_round_over_keeps_the_round(term: Terminal,
                                                         tmp_path: Path) -> None:
    record = tmp_path / "hotseat.json"
    term.start([GNAV, "play", "--names", "Ann,Bo", "--seats", "4", "--seed", "3", "--delay",
                "0", "--lives", "3", "--record", str(record)], tmp_path)
    screen = _quit_after_rounds(term, term.settle(), 1)
    assert "EXIT=0" in screen
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["rounds"]) == 1 and "unfinished_round" not in data["x"]
    assert verify_file(str(record))[0] == 0


def test_hot_seat_hides_each_piece(term: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "hotseat.json"
    term.start([GNAV, "play", "--names", "Ann,Bo", "--seats", "3", "--seed", "2", "--delay",
                "0", "--lives", "1", "--record", str(record)], tmp_path)
    screen = term.settle()
    passes = 0
    deadline = time.monotonic() + 20
    while "EXIT=" not in screen:
        assert time.monotonic() < deadline, screen
        if PASS in screen:
            # Nobody's piece is on the screen while it is handed over.
            assert "your piece" not in screen
            passes += 1
            screen = term.press("Enter", screen)
            assert "your piece" in screen
        elif DECIDE in screen:
            screen = term.press("w", screen)
        elif HIDE in screen:
            assert "your piece" in screen
            screen = term.press("Enter", screen)
            assert "your piece" not in screen or DECIDE in screen
        else:
            assert "your piece" not in screen  # the showdown, as the table sees it
            screen = term.press("Enter", screen)
    assert passes >= 2
    assert verify_file(str(record))[0] == 0


def test_plain_pipe_plays_to_the_end(tmp_path: Path) -> None:
    """Without a terminal every line is a key, and nothing is drawn with escapes."""
    record = tmp_path / "piped.json"
    keys = "w\n\n" * 60
    proc = subprocess.run([GNAV, "play", "--seed", "5", "--delay", "0", "--lives", "1",
                           "--seats", "3", "--bots", "random", "--record", str(record)],
                          input=keys, capture_output=True, text=True, encoding="utf-8",
                          timeout=30, check=False,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout
    assert "Showdown:" in proc.stdout
    assert f"Saved the match to {record}" in proc.stdout
    assert verify_file(str(record))[0] == 0


def test_the_coach_key_shows_the_figures_and_marks_the_record(tmp_path: Path) -> None:
    """c turns the coach on: its line under the turn, and every decision taken with it
    on is listed in the record's x.coached; the record still verifies."""
    record = tmp_path / "coached.json"
    keys = "c\nw\n\n" + "w\n\n" * 60
    proc = subprocess.run([GNAV, "play", "--seed", "5", "--delay", "0", "--lives", "1",
                           "--seats", "3", "--bots", "random", "--record", str(record)],
                          input=keys, capture_output=True, text=True, encoding="utf-8",
                          timeout=60, check=False,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert "Coach: if you stand you pay with" in proc.stdout
    assert "the expert would" in proc.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    coached = data["x"]["coached"]
    assert coached and all(name == data["seats"][0] for _, name in coached)
    assert coached[0][0] == 1
    assert verify_file(str(record))[0] == 0


@pytest.mark.parametrize(("lang", "people"), [("nb", ["--seats", "3"]),
                                              ("da", ["--names", "Ann,Bo", "--seats", "3"])])
def test_plain_pipe_speaks_the_language_asked_for(lang: str, people: list[str],
                                                  tmp_path: Path) -> None:
    # A round played in Norwegian (you against bots) and in Danish (two people at one
    # screen): every prompt, the table and the end in the catalogue's words, none of
    # them left in English.
    record = tmp_path / f"{lang}.json"
    keys = "x\ns\nw\n\n" * 60  # a wrong key first: the keys' help is said too
    proc = subprocess.run([GNAV, "play", "--lang", lang, "--seed", "5", "--delay", "0",
                           "--lives", "1", "--bots", "random", *people, "--record",
                           str(record)], input=keys, capture_output=True, text=True,
                          encoding="utf-8", timeout=30, check=False,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    said = ["tui.col_seat", "tui.col_lives", "tui.col_round", "tui.your_piece",
            "tui.your_turn", "tui.you_hold", "tui.key_swap", "tui.key_quit", "tui.keys_help",
            "tui.lives_line", "tui.saved", "tui.replay_hint", "ev.showdown", "ev.round_start"]
    if "--names" in people:
        said += ["tui.pass_screen", "tui.ready", "tui.key_rules"]
    for id in said:
        assert words(id, lang) in out, (id, words(id, lang))
    assert english_frame_words(out, lang) == []
    assert verify_file(str(record))[0] == 0


def test_end_of_input_quits_and_saves(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    proc = subprocess.run([GNAV, "play", "--seed", "1", "--delay", "0", "--record",
                           str(record)], input="", capture_output=True, text=True,
                          encoding="utf-8", timeout=30, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Stopped" in proc.stdout
    assert verify_file(str(record))[0] == 0


def test_a_preset_in_its_own_words_with_norwegian_beside(term: Terminal, tmp_path: Path) -> None:
    # Slabberjan is Dutch: with --lang nb its words stay Dutch, with Norwegian beside
    # them, and the screen and the rules pager speak Norwegian, their keys included.
    record = tmp_path / "slabberjan.json"
    nb = Prompts.of("nb")
    term.start([GNAV, "play", "--preset", "slabberjan", "--lang", "nb", "--seed", "3",
                "--delay", "0", "--seats", "3", "--lives", "1", "--record", str(record)],
               tmp_path, nb)
    screen = term.settle()
    while nb.decide not in screen:
        screen = term.press("Enter", screen)
    assert "«Ik sta» (Jeg står)" in screen and "«Ik ruil» (Jeg vil bytte)" in screen
    # The frame: the table's columns, the piece, the header, the prompt and its keys.
    for id in ("tui.col_seat", "tui.col_lives", "tui.col_round", "tui.your_piece",
               "tui.to_play", "tui.key_stand", "tui.key_rules", "tui.key_quit",
               "tui.your_turn", "tui.you_hold", "tui.deals", "tui.stock", "tui.round"):
        assert words(id, "nb") in screen, (id, screen)
    assert english_frame_words(screen, "nb") == [], screen
    term.send("?")
    rules = term.wait_for("Regler: Slabberjan", "[q] tilbake til spillet")
    assert "[q] tilbake til spillet" in rules, rules
    assert "linje 1–" in rules and "[Mellomrom/Enter] mer" in rules
    assert "Kilde: beskrivelsen på pagat.com" in rules
    assert "«Ik sta» (Jeg står)" in rules
    assert "back to the game" not in rules and "lines 1-" not in rules
    screen = term.press("q", rules)
    seen = play_to_end(term, screen, lambda n: "w", nb)
    every = "\n".join(seen)
    assert '"Ik ruil" (Jeg vil bytte)' in every
    assert words("tui.saved", "nb") in seen[-1] and words("tui.lives_line", "nb") in every
    assert english_frame_words(every, "nb") == []
    assert "EXIT=0" in seen[-1]
    assert verify_file(str(record))[0] == 0


@pytest.mark.parametrize(("lang", "humans", "names"), [
    ("nb", 1, ["Spiller"]), ("da", 1, ["Spiller"]), ("da", 2, ["Spiller 1", "Spiller 2"]),
    ("en", 1, ["Player"])])
def test_the_people_are_named_in_the_screens_language(lang: str, humans: int,
                                                      names: list[str],
                                                      tmp_path: Path) -> None:
    record = tmp_path / f"{lang}.json"
    proc = subprocess.run([GNAV, "play", "--lang", lang, "--seed", "5", "--delay", "0",
                           "--lives", "1", "--bots", "random", "--seats", "3", "--humans",
                           str(humans), "--record", str(record)], input="w\n\n" * 60,
                          capture_output=True, text=True, encoding="utf-8", timeout=30,
                          check=False, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(record.read_text(encoding="utf-8"))["seats"][:humans] == names
    if lang != "en":
        assert "Player" not in proc.stdout


def test_play_says_once_where_expert_plays_counter(tmp_path: Path) -> None:
    """Expert bots at rules nothing was solved or trained for (gnav without the drag):
    gnav play says so once, before the game, and not at all where expert plays solved
    strategies and policies throughout (gnav at 4 seats)."""
    said = []
    for option in ("drag=false", "drag=true"):
        proc = subprocess.run([GNAV, "play", "--seed", "1", "--delay", "0", "--seats", "4",
                               "--bots", "expert", "-o", option, "--record",
                               str(tmp_path / f"{option}.json")],
                              input="", capture_output=True, text=True, encoding="utf-8",
                              timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        said.append(proc.stderr.count("expert plays"))
    assert said == [1, 0]


def test_the_coach_line_says_what_the_figures_say_and_why_the_expert_differs() -> None:
    """Issue 26: the terminal's coach line carries the figures' verdict after the
    chances, and, where the expert does otherwise, why."""
    from random import Random

    from gnav.match import MatchState
    from gnav.odds.coach import advise
    from gnav.rules import Rules
    from gnav.texts.catalogue import say
    from gnav.tui.game import coach_line
    from gnav.views import seat_view

    rules = Rules.of("gnav")
    rng = Random(3)
    for _ in range(3):
        match = MatchState.new(rules, [f"s{i}" for i in range(6)], dealer=5).deal(rng=rng)
        view = seat_view(match, 0)
        advice = advise(view)
        if advice is None:
            continue
        line = coach_line(view, "en", rules, "en")
        assert line.startswith("Coach: if you stand you pay with")
        said = {"swap": "Swapping is better", "stand": "Standing is better",
                "close": "Too close to call"}[advice.verdict]
        assert said in line
        if advice.why is None:
            assert "The expert" not in line.split("; ", 1)[1]
        else:
            assert say(f"tui.coach_why_{advice.why}", "en", p="")[:12] in line
