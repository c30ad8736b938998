"""gnav.train.exact_match: lives-keyed match policies measured exactly through the match."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gnav.abstraction import VERSION
from gnav.cli import main
from gnav.lives_class import CLASSES, lives_class
from gnav.rules import Rules
from gnav.solve.cfr import F
from gnav.solve.match import MatchSolution, MatchSolver
from gnav.solve.match_export import match_nash_conv, measure_afresh, sigma_of
from gnav.strategies import round_options
from gnav.strategies.match import MATCH_HERE, load_match
from gnav.strategies.match_policy import MATCH_POLICY_FORMAT
from gnav.strategies.policy import POLICIES
from gnav.train.exact import lift
from gnav.train.exact_match import blind_policy, measure, policy_conv
from gnav.train.lives_features import FEATURE_SETS, project

# sol, solver: the solved match of gnav at 2 seats and 2 lives (tests/conftest.py).


def test_measure_is_the_match_nash_conv_in_parts(sol: MatchSolution,
                                                 solver: MatchSolver) -> None:
    uniform = [solver.table(len(s.positions)).game.uniform() for s in sol.states]
    conv, gains, values = measure(solver, uniform)
    assert conv == pytest.approx(match_nash_conv(solver, uniform), abs=1e-12)
    assert conv == pytest.approx(float(gains.sum()), abs=1e-12)
    assert float(values.sum()) == pytest.approx(1.0, abs=1e-9)
    assert (gains > -1e-12).all() and conv > 1e-3  # even odds is far from equilibrium


def test_a_constant_policy_is_the_constant_strategy(sol: MatchSolution,
                                                    solver: MatchSolver) -> None:
    got = policy_conv(solver, lambda cls, key: 0.3)
    direct = [sigma_of(solver.table(len(s.positions)).game, lambda k: 0.3)[0]
              for s in sol.states]
    assert got.nash_conv == pytest.approx(match_nash_conv(solver, direct), abs=1e-12)
    assert got.blind == got.even == 0 and got.sets > 0
    silent = policy_conv(solver, lambda cls, key: None)
    assert silent.even == silent.sets
    even = [sigma_of(solver.table(len(s.positions)).game, lambda k: None)[0]
            for s in sol.states]
    assert silent.nash_conv == pytest.approx(match_nash_conv(solver, even), abs=1e-12)


def test_a_lives_blind_policy_is_its_round_policy_lifted_at_every_state(
        sol: MatchSolution, solver: MatchSolver) -> None:
    table = {int(str(key)): q for (_, key), q in
             project(solver, sol.strategies, FEATURE_SETS["none"]).items()}
    got = policy_conv(solver, blind_policy(table))
    lifted = [lift(solver.table(len(s.positions)).game, table)[0] for s in sol.states]
    assert got.nash_conv == pytest.approx(match_nash_conv(solver, lifted), abs=1e-12)
    assert got.blind == got.even == 0  # it answers at every class alike
    # A policy with no class answers: each set falls back to the lives-blind answer.
    fallback = policy_conv(solver, lambda cls, key: table.get(key) if cls is None else None)
    assert fallback.nash_conv == pytest.approx(got.nash_conv, abs=1e-12)
    assert fallback.blind == fallback.sets and fallback.even == 0


def test_each_position_is_answered_at_its_lives_class(sol: MatchSolution,
                                                      solver: MatchSolver) -> None:
    """The classes read in the solver's frame agree with the engine's own seats: each
    state's representative match, its seats in turn order and their real lives."""
    got = policy_conv(solver, lambda cls, key: None if cls is None
                      else cls / (CLASSES - 1))
    direct: list[F] = []
    seen: set[int] = set()
    for state in sol.states:
        game = solver.table(len(state.positions)).game
        order = state.match.turn_order()
        lives = [state.match.lives[s] for s in order]
        n = len(order)
        classes = [lives_class(lives[c], lives[c + 1] if c < n - 1 else None,
                               lives[c - 1]) for c in range(n)]
        seen.update(classes)
        player = dict(zip(game.keys, game.player.tolist(), strict=True))

        def swap(k: str, cl: list[int] = classes, pl: dict[str, int] = player) -> float:
            return cl[pl[k]] / (CLASSES - 1)

        direct.append(sigma_of(game, swap)[0])
    assert len(seen) >= 4  # more than one class: the test can tell them apart
    assert got.nash_conv == pytest.approx(match_nash_conv(solver, direct), abs=1e-12)
    assert got.blind == got.even == 0


# -- gnav solve --match --check-policy ----------------------------------------------------

SCALE = 1_000_000


def _table(answers: dict[int, float]) -> dict[str, list[int]]:
    keys = sorted(answers)
    return {"keys": keys, "swap": [round(answers[k] * SCALE) for k in keys]}


def _file(rules: Rules, blind: dict[int, float],
          classes: list[dict[int, float]] | None) -> dict[str, Any]:
    head: dict[str, Any] = {
        "preset": rules.name, "seats": [2, 2], "options": round_options(rules),
        "abstraction": VERSION, "pieces": list(rules.ids), "scale": SCALE,
        "dealer_stood": True, "meta": {}}
    if classes is None:
        return {"format": "gnav-policy/2", **head, **_table(blind)}
    return {"format": MATCH_POLICY_FORMAT, **head,
            "lives": {"features": ["own", "left", "right"], "classes": CLASSES},
            "blind": _table(blind), "classes": [_table(c) for c in classes]}


def _rounded(q: float | None) -> float | None:
    return None if q is None else round(q * SCALE) / SCALE


def test_check_policy_measures_a_match_policy_file_and_its_blind_twin(
        sol: MatchSolution, solver: MatchSolver, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    by_class = project(solver, sol.strategies, FEATURE_SETS["own+left+right"])
    classes: list[dict[int, float]] = [{} for _ in range(CLASSES)]
    for (cls, key), q in by_class.items():
        classes[int(str(cls))][int(str(key))] = q
    blind = {int(str(key)): q for (_, key), q in
             project(solver, sol.strategies, FEATURE_SETS["none"]).items()}
    # One class left empty: its decisions answered by the lives-blind table.
    emptied = next(c for c in range(CLASSES) if classes[c])
    classes[emptied] = {}
    for name, data in (("match.json", _file(sol.rules, blind, classes)),
                       ("blind.json", _file(sol.rules, blind, None))):
        (tmp_path / name).write_text(json.dumps(data))
    args = ["solve", "--match", "--seats", "2", "-o", "lives=2", "--json", "--check-policy"]
    assert main([*args, str(tmp_path / "match.json")]) == 0
    got = json.loads(capsys.readouterr().out)
    # The same tables, rounded as the file holds them, asked directly.
    direct = policy_conv(solver, lambda cls, key: _rounded(
        blind.get(key) if cls is None else classes[cls].get(key)))
    assert got["kind"] == "match" and got["states"] == len(sol.states)
    assert got["nash_conv"] == pytest.approx(direct.nash_conv, abs=1e-12)
    assert got["blind"] == direct.blind > 0 and got["even"] == 0
    assert main([*args, str(tmp_path / "blind.json")]) == 0
    twin = json.loads(capsys.readouterr().out)
    lifted = policy_conv(solver, lambda cls, key: _rounded(blind.get(key)))
    assert twin["kind"] == "lives-blind"
    assert twin["nash_conv"] == pytest.approx(lifted.nash_conv, abs=1e-12)
    # Keyed by the lives class the solved play loses less than lives-blind.
    assert got["nash_conv"] < twin["nash_conv"]


def test_check_policy_plays_other_sizes_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """A policy of 5 and 6 seats on the match of 2: every round is outside its band, so
    the figure is that of whatever plays there, measured afresh another way."""
    path = str(POLICIES / "gnav-5-6.json.gz")
    base = ["solve", "--match", "--seats", "2", "-o", "lives=2", "--check-policy", path]
    assert main([*base, "--other-sizes", "even"]) == 0
    out = capsys.readouterr().out
    assert "outside the band it was trained for" in out
    sets = int(re.search(r"([\d,]+) decisions", out)[1].replace(",", ""))  # type: ignore[index]
    assert sets > 0 and f"{sets:,} at even odds" in out  # a 5-seat key is no 2-seat one
    afresh = measure_afresh(load_match(str(MATCH_HERE / "gnav-2-lives2.json.gz")))
    for how, figure in (("round", afresh.round_exploitability), ("match", afresh.nash_conv),
                        (str(MATCH_HERE / "gnav-2-lives2.json.gz"), afresh.nash_conv)):
        assert main([*base, "--other-sizes", how, "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["outside"] == [2] and got["states_outside"] == got["states"]
        assert got["sets"] == 0
        assert got["nash_conv"] == pytest.approx(figure, abs=1e-12)


@pytest.mark.parametrize(("args", "said"), [
    (["--seats", "2", "--check-policy", "{gnav}"], "add --match"),
    (["--match", "--seats", "5", "--check-policy", "{gnav}"], "2 to 4 seats, not 5"),
    (["--match", "--seats", "2", "--preset", "hypp", "--check-policy", "{gnav}"],
     "not of hypp's"),
    (["--match", "--seats", "2", "--check-policy", "{bad}"], "not JSON"),
    (["--match", "--seats", "2", "--check-policy", "{match}"], "other lives classes"),
    (["--match", "--seats", "2", "-o", "lives=3", "--other-sizes", "match",
      "--check-policy", "{gnav}"], "no shipped match strategy for gnav at 2 seats and 3"),
    (["--match", "--seats", "2", "--other-sizes", "sometimes", "--check-policy", "{gnav}"],
     "round, match, even or a match strategy file"),
    (["--match", "--seats", "2", "-o", "lives=1", "--other-sizes", "{match2}",
      "--check-policy", "{gnav}"], "the match of gnav at 2 seats and 2 lives, not this one"),
])
def test_check_policy_refuses_in_one_line(args: list[str], said: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad").write_text("no policy\n")
    rules = Rules.of("gnav")
    data = _file(rules, {}, [{}] * CLASSES)
    data["lives"] = {"features": ["own"], "classes": 3}
    (tmp_path / "match").write_text(json.dumps(data))
    where = {"{gnav}": str(POLICIES / "gnav-5-6.json.gz"), "{bad}": str(tmp_path / "bad"),
             "{match}": str(tmp_path / "match"),
             "{match2}": str(MATCH_HERE / "gnav-2-lives2.json.gz")}
    assert main(["solve", *(where.get(a, a) for a in args)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and said in err

