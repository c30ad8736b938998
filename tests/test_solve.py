"""The solver: the tree it builds through the engine, CFR+, the exact best response."""

from __future__ import annotations

import json
from array import array
from fractions import Fraction

import numpy as np
import pytest

from gnav.cli import main
from gnav.errors import OptionError
from gnav.rules import Rules
from gnav.solve.cfr import Game, solve
from gnav.solve.tree import Tree, build, check_size, deal_count


def hand_tree(children: list[tuple[int, int, float, int]],
              term: dict[tuple[int, int], tuple[float, float]],
              infosets: list[tuple[int, int]]) -> Game:
    """A two-seat tree from a list of nodes (parent, action, prob, infoset), terminal
    payoffs by (node, action), and (player, legal bits) per information set."""
    n = 2
    depth: list[int] = []
    for parent, _, _, _ in children:
        depth.append(0 if parent < 0 else depth[parent] + 1)
    flat = [0.0] * (len(children) * 2 * n)
    for (h, a), us in term.items():
        for i, u in enumerate(us):
            flat[h * 2 * n + a * n + i] = u
    tree = Tree(Rules.of("gnav"), n, array("i", [c[0] for c in children]),
                array("b", [c[1] for c in children]), array("d", [c[2] for c in children]),
                array("i", [c[3] for c in children]), array("b", depth), array("d", flat),
                [f"I{k}" for k in range(len(infosets))], [p for p, _ in infosets],
                [legal for _, legal in infosets], {})
    return Game(tree)


def matching_pennies() -> Game:
    """Seat 0 picks stand/swap without seeing anything; seat 1 then picks without seeing
    seat 0's choice (both of seat 1's nodes are one information set). Seat 1 wins 1
    from seat 0 on a match, loses 1 on a mismatch."""
    nodes = [(-1, 0, 1.0, 0), (0, 0, 1.0, 1), (0, 1, 1.0, 1)]
    term = {(1, 0): (-1.0, 1.0), (1, 1): (1.0, -1.0),
            (2, 0): (1.0, -1.0), (2, 1): (-1.0, 1.0)}
    return hand_tree(nodes, term, [(0, 3), (1, 3)])


def test_best_response_matching_pennies_by_hand() -> None:
    game = matching_pennies()
    # Seat 0 swaps with 0.8, seat 1 swaps with 0.3.
    sigma = np.array([[0.2, 0.8], [0.7, 0.3]])
    # By hand: P(match) = 0.2*0.7 + 0.8*0.3 = 0.38; seat 0's value = 0.62 - 0.38 = 0.24.
    best, value = game.best_responses(sigma)
    assert value == pytest.approx([0.24, -0.24])
    # Seat 0 against 0.3 swap: standing matches w.p. 0.7 (value -0.4), swapping matches
    # w.p. 0.3 (value 0.4); best 0.4. Seat 1 against 0.8: swap matches w.p. 0.8: 0.6.
    assert best == pytest.approx([0.4, 0.6])
    assert game.nash_conv(sigma) == pytest.approx((0.4 - 0.24) + (0.6 + 0.24))


def test_best_response_with_chance_by_hand() -> None:
    """Chance deals seat 0 a high (1/4) or a low piece (3/4), which seat 0 sees. After a
    stand, seat 1 (who saw only the stand) stands or swaps; after a swap the round ends."""
    nodes = [
        (-1, 0, 0.25, 0),  # 0: high deal, seat 0 decides at set 0
        (-1, 0, 0.75, 1),  # 1: low deal, seat 0 at set 1
        (0, 0, 1.0, 2),  # 2: high, seat 0 stood: seat 1 at set 2
        (1, 0, 1.0, 2),  # 3: low, seat 0 stood: seat 1 at set 2
    ]
    term = {
        (0, 1): (0.0, -1.0),  # high, swap: seat 1 pays
        (1, 1): (-0.5, -0.5),  # low, swap: half a life each
        (2, 0): (0.0, -1.0), (2, 1): (-1.0, 0.0),  # high, stood
        (3, 0): (-1.0, 0.0), (3, 1): (0.0, -2.0),  # low, stood
    }
    game = hand_tree(nodes, term, [(0, 3), (0, 3), (1, 3)])
    sigma = np.array([[1.0, 0.0], [0.5, 0.5], [0.5, 0.5]])
    # Values by hand: high: stand -> seat 1 mixes: (-0.5, -0.5). Low: stand -> (-0.5,
    # -1.0); swap -> (-0.5, -0.5); mix: (-0.5, -0.75).
    # Seat 0: 0.25*-0.5 + 0.75*-0.5 = -0.5; seat 1: 0.25*-0.5 + 0.75*-0.75 = -0.6875.
    best, value = game.best_responses(sigma)
    assert value == pytest.approx([-0.5, -0.6875])
    # Seat 0's best: high: stand -0.5 vs swap 0 -> swap (0). Low: stand -0.5, swap -0.5.
    # So 0.25*0 + 0.75*-0.5 = -0.375.
    # Seat 1's set 2 holds the high stand (w 0.25) and the low stand (w 0.75*0.5):
    # stand: 0.25*-1 + 0.375*0 = -0.25; swap: 0.25*0 + 0.375*-2 = -0.75 -> stand.
    # Seat 1's best value: 0.25*-1 + 0.375*0 + 0.375*-0.5 = -0.4375.
    assert best == pytest.approx([-0.375, -0.4375])


def test_cfr_solves_matching_pennies() -> None:
    sol = solve(matching_pennies(), target=1e-6, max_iterations=20000, check_every=50)
    assert sol.nash_conv < 1e-6
    assert sol.strategy[:, 1] == pytest.approx([0.5, 0.5], abs=1e-3)


@pytest.mark.parametrize(("preset", "options"), [
    ("hypp", {}), ("hypp", {"penalty_to": "holder"}),
    ("hypp", {"stand_needs_matador": True, "revealed": "act"}),
    ("hypp", {"two_fools": "pay", "drag": False, "knock": "silent"}),
    ("slabberjan", {}),  # charge_stop, refuse, undo, one pass piece
])
def test_fast_tree_is_the_engine_tree(preset: str, options: dict[str, object]) -> None:
    """The builder's shortcuts (the dealer's move and a draw that ends the round paid
    from showdowns, plain draws copied from one engine draw) against every move and
    every draw made through ``apply``."""
    rules = Rules.of(preset, **options)
    fast = build(rules, 2)
    slow = build(rules, 2, fast=False)
    assert fast.keys == slow.keys
    assert list(fast.parent) == list(slow.parent)
    assert list(fast.prob) == list(slow.prob)
    assert np.allclose(fast.term, slow.term, atol=1e-12)
    # The second measure, the chance of paying, takes the same shortcuts.
    assert np.allclose(fast.pay, slow.pay, atol=1e-12)
    assert fast.deals == slow.deals and len(fast.deals) == list(fast.parent).count(-1)


def test_deal_probabilities_sum_to_one() -> None:
    tree = build(Rules.of("le-her"), 2)
    roots = [p for p, parent in zip(tree.prob, tree.parent, strict=True) if parent < 0]
    assert len(roots) == deal_count(Rules.of("le-her"), 2) == 13 * 13
    assert sum(roots) == pytest.approx(1.0)
    # Two kings: 4/52 * 3/51.
    assert max(roots) == pytest.approx(4 / 52 * 4 / 51)


def test_le_her_is_waldegraves_solution() -> None:
    """Waldegrave (1713, in Montmort's letter to Nicolas Bernoulli; Bellhouse & Fillion,
    Statistical Science 2015): the receiver (Paul, the dealer's left) wins with
    (2828ac + 2834bc + 2838ad + 2828bd) / (13 * 17 * 25), a = his chance of switching a
    seven (b = 1 - a), c = the dealer's chance of switching an eight after Paul holds
    (d = 1 - c). By hand: the dealer's c makes Paul indifferent, 2828c + 2838(1-c) =
    2834c + 2828(1-c), so c = 5/8; Paul's a makes the dealer indifferent, 2828a +
    2834(1-a) = 2838a + 2828(1-a), so a = 3/8; the value is 2828*5/8 + 2838*3/8 over
    5525. The loser pays one life."""
    a, c = Fraction(3, 8), Fraction(5, 8)
    paul_wins = (2828 * a * c + 2834 * (1 - a) * c + 2838 * a * (1 - c)
                 + 2828 * (1 - a) * (1 - c)) / (13 * 17 * 25)
    assert paul_wins == Fraction(22654, 8 * 5525)
    rules = Rules.of("le-her")
    sol = solve(Game(build(rules, 2)), target=1e-7, max_iterations=40000)
    assert sol.nash_conv < 1e-6
    assert sol.values[0] == pytest.approx(-float(1 - paul_wins), abs=1e-6)
    assert sol.values[1] == pytest.approx(-float(paul_wins), abs=1e-6)
    opening = sol.opening()
    assert opening["7"] == pytest.approx(3 / 8, abs=2e-3)
    assert all(opening[p] > 1 - 1e-3 for p in ("6", "5", "4", "3", "2", "ace"))
    assert all(opening[p] < 1e-3 for p in ("8", "9", "10", "jack", "queen", "king"))
    # The dealer with an eight after Paul stood: key "position 1 of 2, dealt 8, holds 8,
    # position 0 stood".
    swap = sol.swap_probability()
    assert swap["1/2|8|8|S0"] == pytest.approx(5 / 8, abs=2e-3)
    assert swap["1/2|9|9|S0"] < 1e-3 and swap["1/2|7|7|S0"] > 1 - 1e-3


def test_solve_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--preset", "hypp", "--seats", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"preset", "seats", "options", "nash_conv", "iterations", "seconds", "values",
            "opening"} <= set(out)
    assert out["preset"] == "hypp" and out["seats"] == 2
    assert out["nash_conv"] < 1e-4
    assert len(out["values"]) == 2
    assert set(out["opening"]) == set(Rules.of("hypp").ids)


def test_too_big_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OptionError, match="limit is 4 GB"):
        check_size(Rules.of("gnav"), 6)
    assert main(["solve", "--preset", "chase-the-ace", "--seats", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "GB" in err


def test_off_path_sets_get_the_better_action() -> None:
    """Seat 0 never swaps, so seat 1's set behind the swap is never reached; there, by
    hand, standing (-1) beats swapping (-2) for seat 1."""
    nodes = [(-1, 0, 1.0, 0), (0, 1, 1.0, 1)]
    term = {(0, 0): (0.0, 0.0), (1, 0): (-1.0, -1.0), (1, 1): (1.0, -2.0)}
    game = hand_tree(nodes, term, [(0, 3), (1, 3)])
    sigma = np.array([[1.0, 0.0], [0.5, 0.5]])
    refined = game.off_path(sigma)
    assert refined.tolist() == [[1.0, 0.0], [1.0, 0.0]]
    assert game.nash_conv(refined) <= game.nash_conv(sigma)


def test_progress_bar_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--preset", "hypp", "--seats", "2", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "tree: deals" in err and "CFR+: iterations" in err and "NashConv" in err
