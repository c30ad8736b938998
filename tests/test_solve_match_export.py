"""A solved match as a file, and a file measured afresh (``gnav solve --match --out``,
``--check``): a fresh solve checks below 1e-4, a spoiled one worse, and at one life of
Le Her the match's measure is the round's, taken by the round's own code."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from gnav.cli import main
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.match import solve_match
from gnav.solve.match_export import match_data, measure_afresh, sigma_of
from gnav.solve.tree import build
from gnav.strategies.match import MatchStrategy, load_match, parse_match


def spoiled(data: dict[str, object]) -> dict[str, object]:
    """``data`` with every choice of its first state's round turned the other way."""
    states = json.loads(json.dumps(data["states"]))
    scale = int(str(data["scale"]))
    states[0]["swap"] = [scale - q for q in states[0]["swap"]]
    return {**data, "states": states}


def round_nash_conv(strategy: MatchStrategy) -> float:
    """The second method: the one state's strategy measured as a round, in lives, on a
    tree of its own (``Game.nash_conv``, no match machinery)."""
    (key,) = strategy.states
    game = Game(build(Rules.of(strategy.preset), strategy.seats))
    sigma, missing = sigma_of(game, lambda k: strategy.swap_probability(key, k, 2))
    assert missing == 0
    return game.nash_conv(sigma)


def test_le_her_at_one_life_measures_as_its_round() -> None:
    """One life each: the seat that pays is out, the other wins; so a seat's chance to
    win is 1 plus its change of lives, and what a best response gains in the match is
    what it gains in lives in the round. The match check and the round's NashConv agree,
    for the solved file and for one spoiled on purpose, which is far worse."""
    data = match_data(solve_match(Rules.of("le-her"), 2, 1, target=1e-7))
    for made in (data, spoiled(data)):
        strategy = parse_match(json.loads(json.dumps(made)), "le-her")
        got = measure_afresh(strategy)
        assert got.states == 1 and got.missing_sets == got.missing_states == 0
        assert got.nash_conv == pytest.approx(round_nash_conv(strategy), abs=1e-9)
    fresh = measure_afresh(parse_match(data, "fresh")).nash_conv
    worse = measure_afresh(parse_match(spoiled(data), "spoiled")).nash_conv
    assert fresh < 1e-5
    assert worse > fresh + 0.05


def test_a_fresh_file_checks_below_the_limit_and_a_spoiled_one_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gnav-2-1.json.gz"
    assert main(["solve", "--match", "--seats", "2", "-o", "lives=1", "--out", str(out),
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert f"wrote {out}" in said
    assert load_match(str(out)).fits(Rules.of("gnav", lives=1), 2)
    assert main(["solve", "--match", "--check", str(out), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["ok"] and row["nash_conv"] < 1e-4
    # Measured on states and trees built anew, it is what the solver measured on its own
    # arrays when it wrote the file.
    assert row["nash_conv"] == pytest.approx(row["recorded"], abs=1e-9)
    # The shipped round strategy, played through the match, is worth beating.
    assert row["round_exploitability"] > 10 * row["nash_conv"]
    assert row["missing_states"] == row["missing_sets"] == row["round_missing"] == 0

    data = json.loads(gzip.decompress(out.read_bytes()))
    bad = tmp_path / "spoiled.json.gz"
    bad.write_bytes(gzip.compress(json.dumps(spoiled(data)).encode()))
    assert main(["solve", "--match", "--check", str(bad)]) == 1
    text = capsys.readouterr().out
    assert "NOT OK" in text and "match NashConv" in text and "exploitability" in text
    assert measure_afresh(load_match(str(bad))).nash_conv > row["nash_conv"] + 1e-3


def test_a_file_missing_a_state_is_not_ok(tmp_path: Path) -> None:
    data = match_data(solve_match(Rules.of("le-her"), 2, 2, target=1e-6))
    states = data["states"]
    assert isinstance(states, list) and len(states) == 4
    short = parse_match({**data, "states": states[1:]}, "short")
    got = measure_afresh(short)
    assert got.states == 4 and got.missing_states == 1 and got.missing_sets > 0


def test_check_refuses_an_unknown_table_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--match", "--check", "gnav-9"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "gnav-9" in err and "gnav-2" in err


def test_ship_solves_again_until_the_file_is_below_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--ship`` writes a table of other lives under its own name; a file over the limit
    (here one CFR+ iteration a solve, from a coarse target) is solved again at half the
    target until what it holds, measured afresh, is below it."""
    import gnav.cli.solve as solve_cli
    import gnav.strategies.match as match_files

    monkeypatch.setattr(match_files, "MATCH_HERE", tmp_path)
    monkeypatch.setattr(solve_cli, "match_shipped_tables", lambda: [("gnav", 2, 1)])
    assert main(["solve", "--match", "--ship", "--ship-only", "gnav-2-lives1",
                 "--target", "1e-2", "--iterations", "1", "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "NashConv" in said.splitlines()[0] and "solving again to 0.005" in said, said
    assert "is not below" not in said
    strategy = load_match(str(tmp_path / "gnav-2-lives1.json.gz"))
    assert strategy.fits(Rules.of("gnav", lives=1), 2)
    assert measure_afresh(strategy).nash_conv < 1e-4


def test_a_file_holds_the_answer_to_unreached_sets_a_best_response_gains_less_against(
        ) -> None:
    """Unreached sets answered greedily or left at the solver's even odds: the file holds
    whichever a best response gains less against, measured afresh on trees built anew
    (a second route to the figure: the engine's states, the file's keys)."""
    from gnav.solve.match_export import match_nash_conv, shipped_strategies, solver_of

    sol = solve_match(Rules.of("gnav"), 2, 2, target=1e-6)
    data = match_data(sol)
    assert isinstance(data["off_path"], bool)
    both = [match_nash_conv(solver_of(sol), shipped_strategies(sol, answer=a))
            for a in (True, False)]
    afresh = measure_afresh(parse_match(json.loads(json.dumps(data)), "fresh")).nash_conv
    assert afresh == pytest.approx(min(both), abs=1e-9)
    assert afresh == pytest.approx(both[0 if data["off_path"] else 1], abs=1e-9)
