"""Shipping a solution: rounding never leaves a dominated choice (gnav.solve.export)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pytest import CaptureFixture, MonkeyPatch

from gnav.rules import Rules
from gnav.solve.cfr import Game, solve
from gnav.solve.export import DOMINATED, dominated, gaps, quantised, undominated
from gnav.solve.tree import build
from test_solve import hand_tree


def test_a_dominated_trace_is_removed_by_hand() -> None:
    """Seat 0 stands (0 to it) or swaps (-0.03 to it): a swap with 0.004 is dominated."""
    nodes = [(-1, 0, 1.0, 0)]
    term = {(0, 0): (0.0, 0.0), (0, 1): (-0.03, 0.03)}
    game = hand_tree(nodes, term, [(0, 3)])
    sigma = np.array([[0.996, 0.004]])
    assert dominated(game, sigma).tolist() == [True]
    assert undominated(game, sigma).tolist() == [[1.0, 0.0]]
    # A gap under the tolerance is an indifference, kept as it is.
    small = hand_tree(nodes, {(0, 0): (0.0, 0.0), (0, 1): (-DOMINATED / 2, 0.0)}, [(0, 3)])
    assert dominated(small, sigma).tolist() == [False]


def test_gaps_are_the_value_of_flipping_one_set() -> None:
    # Second method: the deciding seat's value with the set played purely each way.
    game = Game(build(Rules.of("hypp"), 2))
    rng = np.random.default_rng(1)
    swap = rng.random(game.infosets)
    sigma = np.stack([1 - swap, swap], axis=1)
    sigma = np.where(game.legal, sigma, 0.0)
    sigma /= sigma.sum(axis=1, keepdims=True)
    reach, gap = gaps(game, sigma)
    both = np.flatnonzero(game.legal.all(axis=1) & (reach > 1e-3))
    for i in both[:: max(1, len(both) // 12)]:
        values = []
        for a in (0, 1):
            pure = sigma.copy()
            pure[i] = [1 - a, a]
            values.append(game.evaluate(pure)[game.player[i]])
        assert abs(values[1] - values[0] - reach[i] * gap[i]) < 1e-9


def test_what_ships_has_no_dominated_choice_and_is_measured() -> None:
    game = Game(build(Rules.of("hypp"), 3))
    sol = solve(game, target=1e-3)  # a rough average: traces of early iterates left
    shipped, conv = quantised(game, sol.strategy)
    assert not dominated(game, shipped).any()
    assert conv == game.nash_conv(shipped)
    assert conv <= sol.nash_conv


def test_check_measures_shipped_files_afresh(tmp_path: Path, monkeypatch: MonkeyPatch,
                                             capsys: CaptureFixture[str]) -> None:
    """gnav solve --check rebuilds the tree and measures what a file holds: a shipped
    2-seat file gives back the NashConv it records; the same file with one choice turned
    to its worse action is caught (NashConv up, a dominated choice), and the command
    fails."""
    import gnav.strategies as strategies
    from gnav.cli import main
    from gnav.solve.export import write
    from gnav.strategies import HERE, read_json

    assert main(["solve", "--check", "hypp-2", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["ok"] and row["missing"] == 0 and row["dominated"] == 0
    assert abs(row["nash_conv"] - row["recorded"]) < 1e-12
    data = read_json(str(Path(HERE) / "hypp-2.json.gz"))
    game = Game(build(Rules.of("hypp"), 2))
    sigma = np.array([[1.0 - (p := data["swap"].get(k, 0) / data["scale"]), p]
                      for k in game.keys])
    _, gap = gaps(game, sigma)
    both = game.legal[:, 0] & game.legal[:, 1]
    worst = max((i for i in range(game.infosets) if both[i]), key=lambda i: abs(gap[i]))
    # Play the worse action there for sure.
    data["swap"][game.keys[worst]] = data["scale"] if gap[worst] < 0 else 0
    write(tmp_path / "hypp-2.json.gz", data)
    monkeypatch.setattr(strategies, "HERE", tmp_path)
    strategies.load.cache_clear()
    try:
        assert main(["solve", "--check", "hypp-2", "--json"]) == 1
    finally:
        strategies.load.cache_clear()
    row = json.loads(capsys.readouterr().out)
    assert not row["ok"] and row["dominated"] >= 1 and row["nash_conv"] > 1e-3
    assert main(["solve", "--check", "hypp-9"]) == 2
    capsys.readouterr()
    # One file a game (issue 28): gnav-rulebook has none, and the line says whose to check.
    assert main(["solve", "--check", "gnav-rulebook-3"]) == 2
    assert "gnav-rulebook plays gnav's: gnav-3" in capsys.readouterr().err
