"""The ``gnav`` command: bad input gives one plain line on stderr and exit 2, never a
traceback; ``bench --json`` and ``demo`` print what they promise."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import gnav
from gnav.cli import main
from recordkit import DRAGOON_DRAW, RECORDS

ROOT = Path(__file__).resolve().parents[1]

GNAV_SCRIPT = Path(sys.executable).parent / "gnav"

GOOD = DRAGOON_DRAW


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main`` in-process: (exit code, stdout, stderr). argparse exits by SystemExit."""
    try:
        code: int | str | None = main(list(argv))
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    assert isinstance(code, int)
    return code, captured.out, captured.err


def run_process(argv: Sequence[str], *, script: bool = False) -> tuple[int, str, str]:
    """The command in a fresh interpreter: (exit code, stdout, stderr)."""
    launcher = [str(GNAV_SCRIPT)] if script else [sys.executable, "-m", "gnav.cli"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([*launcher, *argv], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def record(**changes: object) -> str:
    return json.dumps({**GOOD, **changes})


# Each case builds the command line (writing any files it needs under tmp_path), and
# names a word the one line on stderr must contain.
Case = Callable[[Path], list[str]]
BAD_CASES: list[tuple[str, Case, str]] = [
    ("not json", lambda t: ["verify", write(t, "a.json", "{nope")], "a.json: not JSON"),
    ("not an object", lambda t: ["verify", write(t, "b.json", "[1, 2, 3]")], "b.json"),
    ("missing field", lambda t: ["verify", write(t, "c.json", json.dumps(
        {k: v for k, v in GOOD.items() if k != "seats"}))], "'seats'"),
    ("wrong version", lambda t: ["verify", write(t, "d.json", record(gnav=2))], "gnav"),
    ("unknown preset in record", lambda t: ["verify", write(t, "e.json", record(rules="x"))],
     "e.json"),
    ("unknown option in record", lambda t: ["verify", write(t, "f.json", record(
        rules={"preset": "gnav", "speed": 1}))], "speed"),
    ("unknown seat", lambda t: ["verify", write(t, "g.json", record(seats=["A", "B", "C", "Q"]))],
     "'D'"),
    ("duplicate seats", lambda t: ["verify", write(t, "h.json", record(
        seats=["A", "B", "C", "C"]))], "seats"),
    ("empty file", lambda t: ["verify", write(t, "i.json", "")], "i.json"),
    ("deeply nested", lambda t: ["verify", write(t, "j.json", "[" * 100_000 + "]" * 100_000)],
     "j.json"),
    ("overlong number", lambda t: ["verify", write(t, "k.json", '{"gnav": ' + "7" * 5000 + "}")],
     "k.json"),
    ("missing file", lambda t: ["verify", str(t / "absent.json")], "absent.json"),
    ("no files", lambda t: ["verify"], "FILE"),
    ("unknown preset", lambda t: ["bench", "--preset", "nope"], "nope"),
    ("unknown preset in demo", lambda t: ["demo", "--preset", "nope", "--seed", "1"], "nope"),
    ("bad option value", lambda t: ["bench", "-o", "lives=99"], "lives"),
    ("bad option word", lambda t: ["demo", "-o", "knock=loud", "--seed", "1"], "knock"),
    ("unknown option", lambda t: ["bench", "-o", "speed=3"], "speed"),
    ("option without value", lambda t: ["bench", "-o", "lives"], "lives"),
    ("too many seats", lambda t: ["bench", "--seats", "50"], "50"),
    ("too few seats", lambda t: ["demo", "--seats", "1", "--seed", "1"], "1"),
    ("no rounds", lambda t: ["bench", "--seats", "3", "--rounds", "0"], "rounds"),
    ("seats not a number", lambda t: ["bench", "--seats", "many"], "many"),
    ("unknown subcommand", lambda t: ["nope"], "nope"),
    ("no subcommand", lambda t: [], "command"),
]
IDS = [i for i, _, _ in BAD_CASES]


def _check_one_line(code: int, out: str, err: str, word: str) -> None:
    assert "Traceback" not in out + err
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert word in lines[0]
    assert out == ""


@pytest.mark.parametrize(("case", "word"), [(c, w) for _, c, w in BAD_CASES], ids=IDS)
def test_bad_input_in_process(case: Case, word: str, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(case(tmp_path), capsys)
    _check_one_line(code, out, err, word)


@pytest.mark.parametrize(("case", "word"), [(c, w) for _, c, w in BAD_CASES], ids=IDS)
def test_bad_input_in_a_fresh_process(case: Case, word: str, tmp_path: Path) -> None:
    code, out, err = run_process(case(tmp_path))
    _check_one_line(code, out, err, word)


def test_console_script_gives_one_line(tmp_path: Path) -> None:
    assert GNAV_SCRIPT.exists()
    bad = write(tmp_path, "bad.json", record(rules={"preset": "gnav", "lives": 0}))
    code, out, err = run_process(["verify", bad], script=True)
    _check_one_line(code, out, err, "bad.json: rules: lives")


def test_verify_worked_records(capsys: pytest.CaptureFixture[str]) -> None:
    paths = sorted(str(p) for p in RECORDS.glob("*.json"))
    assert paths
    code, out, err = run(["verify", *paths], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == len(paths)
    assert all(": ok (" in line for line in lines)


def test_verify_disagreement_goes_to_stderr_with_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record())
    data["rounds"][0]["result"]["lives"]["D"] = 2 + 1
    path = write(tmp_path, "hc-99.json", json.dumps(data))
    code, out, err = run(["verify", path], capsys)
    assert (code, out) == (1, "")
    assert err == "hc-99.json: round 1: lives of D: record says 3, engine computes 2\n"


def test_verify_in_a_fresh_process_exit_codes(tmp_path: Path) -> None:
    good = write(tmp_path, "good.json", record())
    bad = write(tmp_path, "bad.json", record(gnav=0))
    assert run_process(["verify", good])[0] == 0
    code, out, err = run_process(["verify", good, bad])
    assert code == 2
    assert out == "good.json: ok (1 round(s))\n"
    assert err.startswith("bad.json: gnav")
    assert "Traceback" not in err


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--seats", "3", "--rounds", "200", "--json"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    assert {"rounds_per_s", "seats"} <= set(result)
    assert result["seats"] == 3
    assert result["rounds"] == 200
    assert isinstance(result["rounds_per_s"], int | float)
    assert result["rounds_per_s"] > 0


def test_bench_batch_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    # "batch" named the numpy engine, retired (issue 28): it plays the compiled engine,
    # the same rounds as --engine jit.
    code, out, err = run(["bench", "--engine", "batch", "--seats", "10", "--rounds", "3000",
                          "--jobs", "1", "--json"], capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert (result["engine"], result["seats"], result["rounds"]) == ("jit", 10, 3000)
    assert result["rounds_per_s"] > 0
    # Every round at 10 seats asks for between 1 and 10 decisions.
    assert 3000 <= result["decisions"] <= 30000
    code, out, err = run(["bench", "--engine", "jit", "--seats", "10", "--rounds", "3000",
                          "--jobs", "1", "--json"], capsys)
    assert json.loads(out)["decisions"] == result["decisions"]


def test_bench_jit_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--engine", "jit", "--seats", "41", "--rounds", "3000",
                          "--jobs", "1", "--json"], capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert (result["engine"], result["seats"], result["rounds"]) == ("jit", 41, 3000)
    assert 3000 <= result["decisions"] <= 41 * 3000


def test_bench_json_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "--preset", "hypp", "--seats", "4", "--rounds", "50",
                        "-o", "lives=2", "-o", "knock=silent", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert (result["preset"], result["seats"], result["rounds"]) == ("hypp", 4, 50)


def test_bench_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "--seats", "3", "--rounds", "100"], capsys)
    assert code == 0
    assert out.startswith("gnav, 3 seats")
    assert "100 rounds" in out
    assert "rounds/s" in out


def test_demo_narrates_a_match_to_the_win(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo", "--seats", "3", "--seed", "1"], capsys)
    assert (code, err) == (0, "")
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) > 5
    assert "3 seats" in lines[0]
    assert "seed 1" in lines[0]
    assert any("Round 1" in line for line in lines)
    assert any("Showdown" in line for line in lines)
    last = lines[-1]
    assert last.endswith("wins the match!") or last.startswith("A shared win:"), last
    players = ("Astrid", "Bjørn", "Cecilie")
    assert any(name in last for name in players)
    # The same seed narrates the same match.
    assert run(["demo", "--seats", "3", "--seed", "1"], capsys)[1] == out


def test_demo_in_a_fresh_process() -> None:
    code, out, err = run_process(["demo", "--seats", "3", "--seed", "1"])
    assert (code, err) == (0, "")
    assert out.rstrip().splitlines()[-1].endswith(("wins the match!", "."))
    assert "win" in out.rstrip().splitlines()[-1]


def test_help_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    for command in ("verify", "bench", "demo"):
        assert command in out


def test_version_is_the_packages() -> None:
    # One version, said three ways: the command, the module and the installed metadata
    # (pyproject.toml's), so a release cannot bump one and forget another.
    code, out, err = run_process(["--version"])
    assert (code, err) == (0, "")
    assert out.strip() == f"gnav {gnav.__version__}"
    assert gnav.__version__ == importlib.metadata.version("gnav")
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert tomllib.load(f)["project"]["version"] == gnav.__version__


@pytest.mark.parametrize(("lives", "said"), [
    (2, "Everyone starts with 2 lives, shown as tokens ●●."),
    (1, "Everyone starts with 1 life, shown as tokens ●."),
    (5, "Everyone starts with 5 lives, shown as tokens ●●●●●."),
])
def test_rules_show_as_many_tokens_as_lives(lives: int, said: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["rules", "--lives", str(lives)], ["rules", "-o", f"lives={lives}"]):
        code, out, _ = run(argv, capsys)
        assert code == 0
        assert said in " ".join(out.split())


def test_rules_and_demo_refuse_bad_lives_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("rules", "demo", "play"):
        code, out, err = run([command, "--lives", "0"], capsys)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "--lives" in err, err


@pytest.mark.parametrize(("lives", "head"), [(1, "3 seats, 1 life each"),
                                             (2, "3 seats, 2 lives each")])
def test_demo_takes_lives_as_play_does(lives: int, head: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "--seats", "3", "--seed", "4", "--lives", str(lives)], capsys)
    assert code == 0
    first = out.splitlines()[0]
    assert head in first, first
    # Every seat started with that many: the first round's lives line counts down from it.
    assert "wins the match" in out or "shared win" in out.lower()


def test_simulate_help_lists_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.vocab import BotKind

    code, out, _ = run(["simulate", "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    for kind in BotKind:
        assert f"{kind}," in text or f"{kind} " in text, kind
    assert "expert" in text


def test_a_command_plays_as_a_table_of_its_size_unless_told() -> None:
    import argparse

    from gnav.cli.common import at_table
    from gnav.rules import Rules

    own = Rules.of("gnav")
    played, said = at_table(argparse.Namespace(option=[]), own, 41)
    assert played.options.two_fools == "pay" and said is not None and "two_fools = pay" in said
    played, said = at_table(argparse.Namespace(option=["two-fools=gain"]), own, 41)
    assert played is own and said is None
    played, said = at_table(argparse.Namespace(option=[]), own, 6)
    assert played is own and said is None
