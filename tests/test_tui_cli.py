"""``gnav rules``, ``gnav replay`` and the command-line errors of ``gnav play``; plus the
small pieces of the terminal game that need no terminal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from gnav.cli import main
from gnav.errors import GnavError
from gnav.match import MatchState
from gnav.presets import PRESETS
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.texts.catalogue import say
from gnav.tui.game import PlayConfig, save_record
from gnav.tui.keys import ENTER, EOF, Keys
from gnav.tui.labels import lives_text
from gnav.tui.rules_page import rules_lines
from gnav.tui.style import Style, clip, plain, width
from gnav.verify import verify_file
from gnav.vocab import Lang
from recordkit import RECORDS
from textkit import english_frame_words
from textkit import words as fixed

GNAV = str(Path(sys.executable).parent / "gnav")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code: int | str | None = main(argv)
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    assert isinstance(code, int)
    return code, out.out, out.err


def write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def a_record(tmp: Path) -> str:
    """A finished match between bots, saved as ``gnav play`` saves it."""
    rules = Rules.of("gnav", lives=1)
    from gnav.bots.random_bot import RandomBot
    from gnav.runner import play_match

    names = ("Ann", "Bo", "Cy")
    match = play_match(rules, names, [RandomBot(i) for i in range(3)], seed=3)
    assert match.over
    return write(tmp, "bots.json", dumps(from_match(match)))


Case = Callable[[Path], list[str]]
BAD: list[tuple[str, Case, str]] = [
    ("unknown preset", lambda t: ["play", "--preset", "nope"], "nope"),
    ("bad option value", lambda t: ["play", "-o", "lives=99"], "lives"),
    ("bad option word", lambda t: ["play", "-o", "knock=loud"], "knock"),
    ("bad --lives", lambda t: ["play", "--lives", "0"], "lives"),
    ("too many seats", lambda t: ["play", "--seats", "50"], "50"),
    ("too many seats for hypp", lambda t: ["play", "--preset", "hypp", "--seats", "21"], "21"),
    ("too few seats", lambda t: ["play", "--seats", "1"], "1"),
    ("more people than seats", lambda t: ["play", "--humans", "4", "--seats", "3"], "seats"),
    ("names and humans disagree", lambda t: ["play", "--names", "A,B", "--humans", "3"],
     "--names"),
    ("same name twice", lambda t: ["play", "--names", "A,A"], "names"),
    ("unknown bot", lambda t: ["play", "--bots", "genius"], "genius"),
    ("bad threshold piece", lambda t: ["play", "--bots", "threshold:zz"], "zz"),
    ("record folder missing", lambda t: ["play", "--record", str(t / "no" / "x.json")],
     "no"),
    ("record is a folder", lambda t: ["play", "--record", str(t)], "folder"),
    ("negative delay", lambda t: ["play", "--delay", "-1"], "delay"),
    ("unknown language", lambda t: ["play", "--lang", "fr"], "fr"),
    ("seats not a number", lambda t: ["play", "--seats", "many"], "many"),
    ("replay missing file", lambda t: ["replay", str(t / "absent.json")], "absent.json"),
    ("replay not json", lambda t: ["replay", write(t, "a.json", "{nope")], "not JSON"),
    ("replay wrong seat", lambda t: ["replay", write(t, "b.json", json.dumps(
        {"gnav": 1, "rules": "gnav", "seats": ["A", "B"], "rounds": [
            {"dealer": "B", "deal": {"A": "5", "B": "7"}, "stock": [],
             "actions": [["B", "stand"]]}]}))], "b.json"),
    ("replay no file", lambda t: ["replay"], "FILE"),
    ("rules unknown preset", lambda t: ["rules", "nope"], "nope"),
    ("rules unknown language", lambda t: ["rules", "--lang", "sv"], "sv"),
    ("rules bad option", lambda t: ["rules", "-o", "drag=maybe"], "drag"),
]


@pytest.mark.parametrize(("case", "word"), [(c, w) for _, c, w in BAD],
                         ids=[i for i, _, _ in BAD])
def test_command_line_errors_are_one_line(case: Case, word: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(case(tmp_path), capsys)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert word in lines[0]


EXACT: list[tuple[list[str], str]] = [
    (["--seats", "0"], "--seats 0: gnav takes 2 to 41 seats"),
    (["--names", "Ann", "--seats", "0"], "--seats 0: gnav takes 2 to 41 seats"),
    (["--preset", "hypp", "--seats", "21"], "--seats 21: hypp takes 2 to 20 seats"),
    (["--preset", "gnav-summary", "--seats", "2"], "--seats 2: gnav-summary takes 3 to 39 seats"),
    (["--preset", "le-her", "--seats", "3"], "--seats 3: le-her takes exactly 2 seats"),
    (["--preset", "le-her", "--humans", "3"],
     "3 people need 3 seats, but le-her takes exactly 2 seats"),
    (["--humans", "4", "--seats", "3"], "4 people need 4 seats, but --seats is 3"),
    (["--names", "Ann", "--humans", "2"], "--humans 2 does not match the 1 name in --names"),
    (["--names", "A,B", "--humans", "3"], "--humans 3 does not match the 2 names in --names"),
    (["--names", "Ann,,Bo"], "--names: name 2: a name may not be empty"),
    (["--names", "Ann,  "], "--names: name 2: a name needs a letter or a digit, not only spaces"),
    (["--names", "x" * 25], f"--names: name 1 {'x' * 24!r}…: a name has at most 24 "
                            "characters, not 25"),
    (["--lives", "0"], "--lives: lives must be a whole number from 1 to 10, not 0"),
    (["-o", "lives=99"], "-o lives=99: lives must be a whole number from 1 to 10, not 99"),
    (["-o", "drag=maybe"], "-o drag=maybe: drag must be true or false, not 'maybe'"),
    (["--names", "A\u202eB"], "--names: name 1 'A\\u202eB': a name may not hold the control "
                              "or formatting character U+202E"),
]


@pytest.mark.parametrize(("argv", "message"), EXACT, ids=[m for _, m in EXACT])
def test_play_errors_are_sentences_with_the_real_limits(
        argv: list[str], message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", *argv, "--record", str(tmp_path / "r.json")], capsys)
    assert (code, out) == (2, "")
    assert err == f"gnav play: {message}\n"


def test_names_are_capped_as_at_a_table_online(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.names import NAME_MAX, BadName, parse_name
    from gnav.table import Table, TableConfig

    # The server's join reads a name with parse_name, and the table takes what it gives.
    table, _, _ = Table.create("t1", TableConfig.from_json({"seats": 3, "bot": "random"}),
                               now=0.0, seed=1)
    table.join(parse_name("x" * NAME_MAX), 0.0)
    with pytest.raises(BadName, match=f"at most {NAME_MAX} characters"):
        table.join(parse_name("y" * (NAME_MAX + 1)), 0.0)
    argv = ["play", "--names", "y" * (NAME_MAX + 1), "--record", str(tmp_path / "r.json")]
    code, _, err = run(argv, capsys)
    assert code == 2 and f"at most {NAME_MAX} characters" in err


def test_le_her_plays_two_seats_by_default(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    from gnav.cli import build_parser
    from gnav.cli.play import _seats

    args = build_parser().parse_args(["play", "--preset", "le-her"])
    assert _seats(args, Rules.of("le-her"), 1) == 2
    args = build_parser().parse_args(["play"])
    assert _seats(args, Rules.of("gnav"), 1) == 6


def test_bots_keep_the_case_of_a_strategy_file_name(tmp_path: Path) -> None:
    from gnav.cli.play import bot_specs

    assert bot_specs(" Random ,THRESHOLD:Owl", None) == ["random", "threshold:Owl"]
    assert bot_specs("Expert:Tables/Mine.json.gz", None) == ["expert:Tables/Mine.json.gz"]
    assert bot_specs("EXPERT,random", "My.json.gz") == ["expert:My.json.gz", "random"]
    with pytest.raises(GnavError, match="empty kind"):
        bot_specs("random,,random", None)


def test_an_error_in_a_real_process_is_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([GNAV, "play", "--seats", "99"], capture_output=True, text=True,
                          encoding="utf-8", timeout=30, check=False, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "99" in proc.stderr


def test_rules_in_norwegian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--lang", "nb"], capsys)
    assert code == 0
    for text in ("Regler: Gnav", "Spillet", "Brikkene, høyeste først", "Gjøk", "Dragon",
                 "«Hugg av!»", "«Hest forbi!»", "«Jeg står»", "narren", "giveren",
                 "Innstillinger som gjelder", "lives = 4", "Ingenting"):
        assert text in out, text
    assert "\x1b[" not in out


def test_rules_in_danish_show_the_1917_changes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "1917", "--lang", "da"], capsys)
    assert code == 0
    for text in ("Regler: Gnav (Copenhagen 1917)", "Brikkerne, højeste først", "Gøgen",
                 "«Hug af!»", "Rækkefølge: Gøgen > Katten > Dragonen",
                 "two_fools_sit_out = false (i gnav: true)", "streger"):
        assert text in out, text


def test_rules_in_english_name_what_a_preset_changes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "slabberjan", "-o", "lives=2"], capsys)
    assert code == 0
    for text in ("Rules: Slabberjan", "Ruiter", "«Kap af!» (Cut off!)", "There is no fool.",
                 "knock = silent (in gnav: public)", "lives = 2", "set on the command line",
                 "Dutch"):
        assert text in out, text
    assert "knocks it on the table" not in out  # no fool, so no knock to explain


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_every_preset_has_rules_in_every_language(preset: str, lang: str) -> None:
    lines = rules_lines(Rules.of(preset), lang, Style(False))
    text = "\n".join(lines)
    rules = Rules.of(preset)
    ranks = [x for x in lines if re.match(r"\d+ {2,}\S", x)]
    assert len(ranks) == len(rules.pieces)
    assert "{" not in text  # every template filled in
    source = next(x for x in lines if x.startswith(("Source: ", "Kilde: ")))
    assert ".txt" not in source  # a source a player can name, never a file
    if lang != "en":  # the description and the source in the reader's language too
        assert source != f"Kilde: {rules.preset.source}"
        assert rules.preset.description not in text
    assert not re.search(r"\b(\d+) (to|til) \1\b", text)  # never "2 to 2"


def test_a_table_for_exactly_two_says_so() -> None:
    for lang, words in (("en", "Exactly 2 can play."), ("nb", "Nøyaktig 2 kan spille."),
                        ("da", "Præcis 2 kan spille.")):
        assert words in "\n".join(rules_lines(Rules.of("le-her"), lang, Style(False)))


def test_replay_all_shows_the_showdown_with_everything_face_up(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "hc-01-cat-after-horse-redirect.json"
    code, out, _ = run(["replay", str(path), "--all"], capsys)
    assert code == 0
    assert "Showdown:" in out
    assert "Kiss!" in out  # the Cat's call
    assert "swap:" in out and "now holds" in out  # swaps shown with their pieces
    assert "pays a life" in out


def test_replay_of_a_played_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_record(tmp_path)
    code, out, _ = run(["replay", path, "--all"], capsys)
    assert code == 0
    assert "Showdown:" in out and "won the match" in out
    assert "Dealt:" in out and "holds" in out


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_replay_speaks_the_language_asked_for(lang: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # --lang says the replay's frame and its narration in that language: the same
    # showdown, winner, deal and hands as in English, in the catalogue's words.
    path = a_record(tmp_path)
    code, out, _ = run(["replay", path, "--all", "--lang", lang], capsys)
    assert code == 0
    for id in ("ev.showdown", "tui.won", "tui.dealt", "tui.col_holds", "tui.col_seat",
               "tui.replay_of", "tui.stock_next", "tui.replay_swap", "tui.lives_line"):
        assert fixed(id, lang) in out, (id, fixed(id, lang))
    assert say("tui.col_round", lang) in out
    assert english_frame_words(out, lang) == []
    # The step by step frames too: where in the record, and the keys.
    proc = subprocess.run([GNAV, "replay", path, "--lang", lang], input="n\nq\n",
                          capture_output=True, text=True, encoding="utf-8", timeout=30,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    for id in ("tui.the_deal", "tui.decision", "tui.round_of", "tui.key_next",
               "tui.key_previous", "tui.key_round", "tui.key_quit"):
        assert fixed(id, lang) in proc.stdout, (id, fixed(id, lang))
    assert english_frame_words(proc.stdout, lang) == []


def test_replay_steps_by_key(tmp_path: Path) -> None:
    path = a_record(tmp_path)
    proc = subprocess.run([GNAV, "replay", path], input="n\nn\np\nr\nq\n",
                          capture_output=True, text=True, encoding="utf-8", timeout=30,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "the deal" in proc.stdout
    assert "decision 1 of" in proc.stdout and "decision 2 of" in proc.stdout
    assert "round 2 of" in proc.stdout or "round 1 of 1" in proc.stdout


def test_a_quit_mid_round_keeps_the_round_aside(tmp_path: Path) -> None:
    rules = Rules.of("gnav")
    match = MatchState.new(rules, ["Ann", "Bo", "Cy"], seed=1)
    from random import Random

    match = match.deal(rng=Random(1))
    match, _ = match.apply("stand")
    cfg = PlayConfig(rules=rules, names=match.names, humans=(0,), bots={}, kinds={1: "random"},
                     seed=1, delay=0, lang=Lang.NB, rules_lang=Lang.EN,
                     record=tmp_path / "cut.json")
    path = save_record(match, cfg)
    assert verify_file(str(path))[0] == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rounds"] == []
    first = match.round.seats[0] if match.round is not None else -1
    assert data["x"]["unfinished_round"]["actions"] == [[match.names[first], "stand"]]


def test_lives_in_each_score_style() -> None:
    s = Style(False)
    assert plain(lives_text(s, "tokens", 2, 4)) == "●●○○ 2"
    assert plain(lives_text(s, "strokes", 3, 4)) == "|||· 3"
    assert plain(lives_text(s, "gnav", 2, 4)) == "GN·· 2"
    assert plain(lives_text(s, "gnav", 0, 4)) == "GNAV 0"
    assert plain(lives_text(s, "tokens", 5, 4)) == "●●●●●+1 5"


def test_clip_keeps_escapes_out_of_the_count() -> None:
    s = Style(True)
    text = s("hello", "bold") + " world"
    assert width(text) == 11
    assert plain(clip(text, 7)) == "hello w"


def test_keys_from_a_pipe(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_text("s\n\nwat\n", encoding="utf-8")
    with path.open(encoding="utf-8") as f, Keys(f) as keys:
        assert [keys.read() for _ in range(4)] == ["s", ENTER, "w", EOF]


def test_rules_help_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.presets import PRESETS_LIST

    code, out, err = run(["rules", "--help"], capsys)
    assert (code, err) == (0, "")
    listed = out.split("presets:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == [p.name for p in PRESETS_LIST]
    assert "  le-her         Le Her: exactly 2 seats; also leher, le_her, her" in listed
    assert any(line.startswith("  gnav-summary ") and "3 to 39 seats" in line for line in listed)


@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_columns_line_up_in_every_language(lang: str) -> None:
    # A long name, one written with a combining ring (two characters, one column) and
    # one in wide characters (two columns each): the lives, what each seat did and what
    # it holds start in the header's columns, whatever the words and the names.
    from random import Random

    from gnav.tui.board import table_lines
    from gnav.tui.labels import piece_label
    from gnav.tui.viewer import Step, table
    from gnav.views import seat_view

    names = ("Bartholomew-Alexander", "A\u030ase", "李小龍", "Bo")
    rules = Rules.of("gnav")
    match = MatchState.new(rules, names, seed=3).deal(rng=Random(3))
    rnd = match.round
    assert rnd is not None
    asker = rnd.to_act
    assert asker is not None
    match, _ = match.apply("swap")

    def at(line: str, part: str, start: int = 0) -> int:
        """The column a terminal shows ``part`` of ``line`` in, counted here and not by
        the code under test: a combining mark takes none, a wide character two."""
        return sum(0 if unicodedata.combining(c) else
                   2 if unicodedata.east_asian_width(c) in "WF" else 1
                   for c in line[: line.index(part, start)])

    def row_of(rows: list[str], seat: int) -> str:
        return next(r for r in rows if r[3:].startswith(names[seat]))

    lines = [plain(x) for x in table_lines(seat_view(match, 1), match.start_lives,
                                           Style(False), lang, 1, text=lang)]
    header, rows = lines[0], lines[1:]
    assert len(rows) == len(names)
    assert f"{names[1]} ({say('word.reader', lang)})" in row_of(rows, 1)
    assert {at(row, "●") for row in rows} == {at(header, say("tui.col_lives", lang))}
    this_round = at(header, say("tui.col_round", lang))
    assert at(row_of(rows, asker), say("tui.asks", lang, whom="").strip()) == this_round
    assert at(row_of(rows, (asker + 1) % len(names)), "←") == this_round

    rows = [plain(x) for x in table(Step(0, 1, match, ()), Style(False), lang, lang)]
    header = rows.pop(0)
    assert {at(row_of(rows, s), "●") for s in range(len(names))} == \
        {at(header, say("tui.col_lives", lang))}
    holds = at(header, say("tui.col_holds", lang))
    after = match.round
    assert after is not None
    for seat, pid in zip(after.seats, after.hands, strict=True):
        row = row_of(rows, seat)
        assert at(row, piece_label(rules, rules.ids[pid], lang), row.index("●")) == holds
