"""Every command in tools/ run as a developer runs it (issue 28 §3: 15 of 18 were run by
no test): ``python tools/NAME.py`` in a fresh interpreter, from a scratch folder, with
only this tree's ``src`` on PYTHONPATH (what ``make test``'s editable install gives; the
tool finds its siblings in its own folder). Each says its usage with ``--help``, says
bad input in one line, and the cheap ones make a tiny real run whose output is checked.

Not run for real, with the reason: the picture scripts but two (``odds_shots.py`` and
``screenshots.py --only other`` run, about 10 s and 5 s; ``coach_shots.py`` takes 27 s of
CPU, ``learn_shots.py`` 80 s of wall time at the lesson's pace, and
``companion_screenshots.py`` needs ``pdftoppm``, which ``make test`` does not install);
``loadtest.py`` (its real run against a server is tests/test_loadtest.py's); and
``load_cpu.py``, ``relay_load.py`` and ``kill_under_load.py``, the lead's while the server
changes, get their ``--help`` alone (servers, Redis and a load test: minutes at their
smallest).
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gnav.learn.puzzles import RECORDS, SHIPPED
from strength_report import Strength

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
# Modules the commands import, run by no one.
LIBRARIES = {"shots.py", "oneline.py"}
COMMANDS = sorted(p.name for p in TOOLS.glob("*.py") if p.name not in LIBRARIES)
NUMBER = r"[\d,]+(?:\.\d+)?"


def tool(name: str, *args: str, cwd: Path, timeout: float = 120) -> \
        subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, str(TOOLS / name), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def ran(name: str, *args: str, cwd: Path, timeout: float = 120) -> str:
    """The stdout of a run that must succeed."""
    done = tool(name, *args, cwd=cwd, timeout=timeout)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return done.stdout


def _options(path: Path) -> set[str]:
    """The ``--options`` the script's own ``add_argument`` calls declare."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "add_argument":
            found |= {a.value for a in node.args if isinstance(a, ast.Constant)
                      and isinstance(a.value, str) and a.value.startswith("--")}
    return found


def test_every_tool_is_a_command_or_a_library() -> None:
    # A new script is a command (run below) unless it is named a library here.
    for path in TOOLS.glob("*.py"):
        is_command = 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
        assert is_command == (path.name not in LIBRARIES), path.name
    assert len(COMMANDS) >= 18


@pytest.mark.parametrize("name", COMMANDS)
def test_help_names_the_script_and_its_options(name: str, tmp_path: Path) -> None:
    out = ran(name, "--help", cwd=tmp_path, timeout=60)
    usage = out.split("\n\n")[0]
    assert usage.startswith("usage: ") and name in usage.splitlines()[0], usage
    options = _options(TOOLS / name)
    missing = {o for o in options if o not in usage}
    assert missing == set(), f"{name}'s usage line lacks {missing}"
    assert list(tmp_path.iterdir()) == []  # --help writes nothing


BAD = [
    ("bench_baseline.py", ["--rounds", "0"], "--rounds and --repeat must be at least 1"),
    ("bench_before_after.py", ["--before", "no-such-commit", "--repeat", "1"],
     "not a valid object name"),
    ("bench_engines.py", ["--seats", "1", "--repeat", "1"], "gnav takes 2 to 41 seats, not 1"),
    ("bot_table_cpu.py", ["--seats", "1", "--bots", "random"], "HTTP 400: seats: gnav takes"),
    ("coach_figures.py", ["analyse", "--seats", "1"], "gnav takes 2 to 41 seats, not 1"),
    ("coach_figures.py", ["coach", "--decisions", "0"], "--decisions must be at least 1"),
    ("coach_shots.py", ["{file}/pictures"], "Not a directory"),
    ("companion_screenshots.py", ["{file}/pictures"], "Not a directory"),
    ("field_regret.py", ["--field", "nobody", "--jobs", "1"], "unknown bot 'nobody'"),
    ("learn_shots.py", ["{file}/pictures"], "Not a directory"),
    ("loadtest.py", ["--tables", "0"], "--tables must be 1 to 2000, not 0"),
    ("master_cpu.py", ["--seats", "1"], "gnav takes 2 to 41 seats, not 1"),
    ("match_figures.py", ["--only", "nothing"], "no figure 'nothing'"),
    ("match_features.py", ["--features", "elbows"], "no feature set 'elbows'"),
    ("match_table.py", ["--tables", "gnav"], "a table is PRESET-SEATS"),
    ("match_value_check.py", ["mc", "--seats", "1"], "--seats must be 2 to 41, not 1"),
    ("match_winrates.py", ["--cells", "gnav-2:expert/zombie"], "a cell is TABLE"),
    ("odds_shots.py", ["{file}/pictures"], "Not a directory"),
    ("policy_report.py", ["nope-6"], "unknown preset 'nope'"),
    ("screenshots.py", ["--only", "nothing"], "no picture 'nothing'"),
    ("ship_puzzles.py", ["--tables", "gnav"], "a table is PRESET-SEATS"),
    ("strategy_tables.py", ["le-her-3"], "no shipped strategy for le-her-3"),
    ("strength_report.py", ["--dir", "{file}"], "File exists"),
    ("train_check.py", ["--seats", "5"], "--seats must be 2 to 4"),
]


# The load measurements are the lead's while the server changes (issue 28): --help only.
HELP_ONLY = {"kill_under_load.py", "load_cpu.py", "relay_load.py"}


def test_bad_input_is_tried_on_every_command() -> None:
    assert {name for name, _, _ in BAD} == set(COMMANDS) - HELP_ONLY


@pytest.mark.parametrize(("name", "args", "said"), BAD,
                         ids=[f"{name} {' '.join(args)}" for name, args, _ in BAD])
def test_bad_input_is_one_line(name: str, args: list[str], said: str, tmp_path: Path) -> None:
    file = tmp_path / "a-file"
    file.write_text("not a folder\n")
    done = tool(name, *(a.replace("{file}", str(file)) for a in args), cwd=tmp_path,
                timeout=60)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    # One line naming the script, as gnav's commands say it (argparse: "PROG: error: ...").
    assert said in last and name in last, done.stderr


# -- tiny real runs ---------------------------------------------------------------------


def test_bench_baseline_prints_both_rates_and_their_ratio(tmp_path: Path) -> None:
    out = ran("bench_baseline.py", "--seats", "3", "--rounds", "200", "--repeat", "1",
              "--json", cwd=tmp_path)
    report = json.loads(out)
    assert report["seats"] == 3 and report["rounds"] == 200
    base, ours = report["baseline_rounds_per_s"], report["gnav_rounds_per_s"]
    assert base > 0 and ours > 0
    assert report["ratio"] == pytest.approx(ours / base, abs=0.002)


def test_bench_before_after_compares_a_commit_with_this_tree(tmp_path: Path) -> None:
    out = ran("bench_before_after.py", "--before", "HEAD", "--seats", "3", "--rounds", "200",
              "--repeat", "1", cwd=tmp_path)
    best = {m[0]: float(m[1].replace(",", "")) for m in re.findall(
        rf"^(before|after) .*: best ({NUMBER}) rounds/s per core", out, re.MULTILINE)}
    assert set(best) == {"before", "after"} and min(best.values()) > 0, out
    ratio = re.search(rf"after / before: ({NUMBER})$", out, re.MULTILINE)
    assert ratio and float(ratio[1]) == pytest.approx(best["after"] / best["before"], abs=0.01)


def test_bench_engines_prints_each_engine_and_the_ratios(tmp_path: Path) -> None:
    out = ran("bench_engines.py", "--seats", "3", "--rounds", "200", "--batch-rounds", "2000",
              "--repeat", "1", "--json", cwd=tmp_path)
    [row] = json.loads(out)
    assert row["seats"] == 3
    assert "batch_rounds_per_s" not in row  # the numpy engine is retired (issue 28)
    assert row["jit_rounds_per_s"] > 0
    assert row["jit_ratio"] == pytest.approx(
        row["jit_rounds_per_s"] / row["reference_rounds_per_s"], abs=0.06)


def test_bot_table_cpu_plays_a_table_of_each_kind_to_its_end(tmp_path: Path) -> None:
    out = ran("bot_table_cpu.py", "--seats", "3", "--lives", "1", "--bots", "random,threshold",
              "--budget", "60", cwd=tmp_path)
    reports = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [r["bot"] for r in reports] == ["random", "threshold"], out
    for r in reports:
        assert r["finished"] and r["seats"] == 3 and r["actions"] > 0
        winners, gone = r["result"]["winners"], r["result"]["out"]
        # Every seat wins or goes out; seats that go out together at the end share the
        # win, and are out as well (a CI run drew two winners among three out).
        assert r["rules"]["lives"] == 1 and winners and len(set(gone)) == len(gone)
        assert len(set(winners) | set(gone)) == 3, r["result"]
        # server_cpu_s is rounded to 10 ms, the figure a decision to a microsecond.
        assert r["cpu_ms_per_action"] * r["actions"] / 1000 == pytest.approx(
            r["server_cpu_s"], abs=0.006)


def test_coach_figures_analyses_a_match(tmp_path: Path) -> None:
    out = ran("coach_figures.py", "analyse", "--seats", "3", "--matches", "1", "--lives", "1",
              cwd=tmp_path)
    assert out.startswith("gnav, 3 seats, 1 matches of 1 lives"), out
    lost = dict(re.findall(rf"^  (Expert|Random): \d+ decisions, ({NUMBER}) lives lost",
                           out, re.MULTILINE))
    assert set(lost) == {"Expert", "Random"} and all(float(v) >= 0 for v in lost.values())


def test_coach_figures_times_the_coach_at_one_size(tmp_path: Path) -> None:
    out = ran("coach_figures.py", "coach", "--seats", "4", "--decisions", "3", cwd=tmp_path)
    [line] = [x for x in out.splitlines() if x.startswith("  ")]
    m = re.fullmatch(rf"  4 seats \((\w+)\): median ({NUMBER}) ms, first {NUMBER} ms, "
                     rf"most ({NUMBER}) ms CPU over 3 decisions", line)
    assert m and m[1] == "exact" and 0 <= float(m[2]) <= float(m[3]) and float(m[3]) > 0, line


def test_field_regret_prints_its_table_of_keys(tmp_path: Path) -> None:
    out = ran("field_regret.py", "--seats", "3", "--rounds", "300", "--jobs", "1", "--top",
              "2", cwd=tmp_path)
    assert re.match(r"gnav, 3 seats, expert at one seat of a field of counter, 300 rounds: "
                    rf"expert's choice gains [+-]{NUMBER} lives a round", out), out
    rows = [x for x in out.splitlines() if x.startswith("| `")]
    assert 1 <= len(rows) <= 4  # --top 2 each way


def test_master_cpu_splits_an_action_into_its_parts(tmp_path: Path) -> None:
    out = ran("master_cpu.py", "--matches", "1", "--seats", "3", cwd=tmp_path)
    m = re.fullmatch(r"(\d+) actions: act (\d+) us, render (\d+) us, encode (\d+) us, "
                     r"total (\d+) us an action\n", out)
    assert m and int(m[1]) > 0, out
    act, render, encode, total = (int(m[i]) for i in range(2, 6))
    assert abs(act + render + encode - total) <= 2  # each rounded to a microsecond


def test_match_figures_draws_the_coach_tables_figures(tmp_path: Path) -> None:
    from xml.etree import ElementTree

    from gnav.odds.match_coach import win_table
    from gnav.rules import Rules
    from gnav.strategies.match import shipped_match

    out = ran("match_figures.py", "--out", "figs", "--only", "match-fool-2.svg",
              cwd=tmp_path)
    assert "figs/match-fool-2.svg: 10 rows x 5 columns" in out, out
    root = ElementTree.parse(tmp_path / "figs" / "match-fool-2.svg").getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    cells = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
             if r.get("class") == "cell"]
    assert len(cells) == 50
    # The dealer holding the knocked fool at 4 lives each: the coach table's two chances.
    match = shipped_match(Rules.of("gnav"), 2)
    assert match is not None
    table = win_table(match)
    assert table is not None
    got = table.chances(((4, 4), (), ()), "1/2|fool|fool|K1,S0", 2)
    assert got is not None
    row = texts.index("dealer holds, 4")
    assert texts[row + 4] == f"{100 * (got[0] - got[1]):+.1f}"


def test_match_table_prints_each_cell_with_its_command(tmp_path: Path) -> None:
    out = ran("match_table.py", "--tables", "gnav-2,chase-the-ace-3", "--matches", "9",
              "--pairs", "expert/expert-round:4,expert-round/expert:4", cwd=tmp_path)
    rows = [x.split(" | ") for x in out.splitlines() if x.startswith("| gnav-2 ")
            or x.startswith("| chase-the-ace-3 ")]
    assert len(rows) == 4, out
    for row in rows:
        seats = 2 if row[0] == "| gnav-2" else 3
        rates = [float(r.split(" [")[0]) for r in row[2].split("; ")]
        assert len(rates) == seats
        # The pooled rate is the seats' mean (each seat plays the same 4 sequences).
        assert float(row[3].split(" [")[0]) == pytest.approx(sum(rates) / seats, abs=1e-3)
        assert row[5] == f"4 x {seats}"
    assert out.count("gnav simulate --preset ") == 4
    assert "chase-the-ace-3: 2-3: the match strategy of chase-the-ace at 3 seats" in out


def test_policy_report_prints_a_table_and_draws_it(tmp_path: Path) -> None:
    out = ran("policy_report.py", "gnav-6", "--plots", "plots/new", cwd=tmp_path)
    assert "gnav-6" in out and out.count("\n|") >= 3, out
    png = tmp_path / "plots" / "new" / "policy-gnav-6.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ship_puzzles_makes_again_what_ships_for_one_table(tmp_path: Path) -> None:
    out = ran("ship_puzzles.py", "--tables", "gnav-3", "--out", "made", cwd=tmp_path)
    assert re.match(r"\d+ puzzles from \d+ decisions of 3 matches", out), out
    made = tmp_path / "made"

    def unzip(path: Path) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
        return data

    records, shipped_records = unzip(made / RECORDS.name), unzip(RECORDS)
    assert sorted(records) == ["gnav-3-0.json", "gnav-3-1.json", "gnav-3-2.json"]
    assert all(records[k] == shipped_records[k] for k in records)
    puzzles = unzip(made / SHIPPED.name)["puzzles"]
    shipped = {p["id"]: p for p in unzip(SHIPPED)["puzzles"]}
    assert puzzles
    assert all(shipped.get(p["id"]) == p for p in puzzles)


def test_strength_report_shows_a_figure_and_plots_it(tmp_path: Path) -> None:
    # One of its figures made at a tiny size, by the command the tool would run.
    figure = Strength("gnav", 6, "threshold", 20)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    made = subprocess.run(figure.command(1), capture_output=True, text=True, check=True,
                          env=env, timeout=120)
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / f"{figure.name}.json").write_text(made.stdout)
    duel = json.loads(made.stdout)["challenger"]
    out = ran("strength_report.py", "--dir", "figures", "--plots", "plots", cwd=tmp_path)
    [row] = [x for x in out.splitlines() if x.startswith("| gnav, 6 seats")]
    assert row.startswith(f"| gnav, 6 seats | threshold | {duel['deal_sequences']:,} | "
                          f"{duel['difference']['value']:+.4f} ["), row
    assert (tmp_path / "plots" / "strength.png").read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "plots" / "exploit.png").exists()  # no exploit figure kept


def test_match_features_projects_the_solved_match_at_two_seats(tmp_path: Path) -> None:
    out = ran("match_features.py", "gnav-2-lives2", "--features", "none,state", "--json",
              cwd=tmp_path)
    rows = {r["what"]: r for r in map(json.loads, out.splitlines())}
    solved = rows["the solved match strategy"]
    assert solved["states"] > 1 and solved["nash_conv"] < 1e-4
    assert rows["the round strategy (in lives) at every state"]["nash_conv"] > 1e-2
    # At 2 seats the abstraction merges no two sets of a round: keyed by the state too,
    # the projection is the solved strategy; keyed by no lives, states merge.
    state = rows["projected: lives features state"]
    assert state["nash_conv"] == pytest.approx(solved["nash_conv"], abs=1e-9)
    assert rows["projected: lives features none"]["nash_conv"] > solved["nash_conv"]
    out = ran("match_features.py", "gnav-2-lives2", "--features", "none", "--cfr", "3",
              cwd=tmp_path)
    assert re.search(rf"CFR\+ on merged keys \(3 iterations\): lives features none, "
                     rf"{NUMBER} keys: match NashConv {NUMBER}e-\d\d", out), out


def test_train_check_finds_the_floor_of_its_keys_at_two_seats(tmp_path: Path) -> None:
    out = ran("train_check.py", "--floor", "--seats", "2", "--iterations", "10", cwd=tmp_path)
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "gnav, 2 seats, the abstraction", "gnav, 2 seats, and every earlier seat's move"], out
    for line in lines:
        m = re.search(rf": ({NUMBER}) sets, NashConv ({NUMBER}) \(\d+ s CPU\)$", line)
        assert m and int(m[1].replace(",", "")) > 0 and float(m[2]) >= 0, line


def test_train_check_trains_and_measures_at_two_seats(tmp_path: Path) -> None:
    out = ran("train_check.py", "--seats", "2", "--batches", "2", "--rounds", "500",
              cwd=tmp_path)
    m = re.fullmatch(rf"gnav, 2 seats: ({NUMBER}) rounds, {NUMBER} keys, {NUMBER} exact sets "
                     rf"unmet; NashConv average ({NUMBER}), current ({NUMBER}), as shipped "
                     rf"({NUMBER}) \(\d+ sets unanswered\) \(\d+ s CPU\)\n", out)
    assert m and int(m[1].replace(",", "")) > 0, out
    assert all(float(m[i]) >= 0 for i in (2, 3, 4))  # NashConv is never negative


def _pictures(out: str, where: Path) -> list[str]:
    """The PNGs a picture script said it wrote, each checked to be one."""
    wrote = re.findall(r"^wrote (\S+\.png)$", out, re.MULTILINE)
    for path in wrote:
        data = (where / path).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, path
    return [Path(path).name for path in wrote]


def test_odds_shots_saves_its_pictures(tmp_path: Path) -> None:
    # Four pages of the atlas in Chromium (about 10 s).
    out = ran("odds_shots.py", "pictures", cwd=tmp_path, timeout=300)
    assert "skipped" not in out
    assert sorted(_pictures(out, tmp_path)) == ["odds-desktop-en-3.png", "odds-desktop-nb-10.png",
                                                "odds-phone-en-10.png", "odds-phone-nb-3.png"]


def test_screenshots_saves_the_start_page_and_the_replay(tmp_path: Path) -> None:
    # The README's pictures, the two that need no match played (about 5 s).
    out = ran("screenshots.py", "pictures", "--only", "other", cwd=tmp_path, timeout=300)
    assert sorted(_pictures(out, tmp_path)) == ["replay.png", "start.png"]
