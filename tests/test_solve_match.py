"""The match solved: its states reached by the engine, each round solved with the next
states' values, checked against Waldegrave and a hand recursion for Le Her."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from gnav.cli import main
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.solve.match import (
    MatchSolution,
    continuation,
    key_of,
    replay,
    solve_match,
)
from gnav.solve.tree import Ending, Tree, build

# Waldegrave's solution of Le Her (tests/test_solve.py derives it by hand): the receiver,
# the dealer's left, wins the round (the dealer pays) with this chance.
PAUL_WINS = Fraction(22654, 8 * 5525)


@pytest.fixture(scope="module")
def gnav_one_life() -> MatchSolution:
    return solve_match(Rules.of("gnav"), 2, 1)


def test_endings_add_up_to_the_payoff_fast_and_slow() -> None:
    """Each edge's endings, weighted, give its expected change of lives, and the
    shortcuts of the fast tree give the same endings as the engine step by step."""
    rules = Rules.of("hypp")
    fast = build(rules, 2, endings=True)
    slow = build(rules, 2, endings=True, fast=False)
    for tree in (fast, slow):
        term = np.zeros((tree.nodes * 2, 2))
        change = np.array([e.change for e in tree.endings], dtype=float)
        np.add.at(term, np.asarray(tree.ending_row),
                  np.asarray(tree.ending_weight)[:, None] * change[np.asarray(tree.ending_id)])
        assert np.allclose(term.ravel(), np.asarray(tree.term), atol=1e-12)

    def by_row(tree: Tree) -> dict[tuple[int, Ending], float]:
        out: dict[tuple[int, Ending], float] = defaultdict(float)
        for row, e, w in zip(tree.ending_row, tree.ending_id, tree.ending_weight,
                             strict=True):
            out[row, tree.endings[e]] += w
        return out

    a, b = by_row(fast), by_row(slow)
    assert a.keys() == b.keys()
    assert all(a[k] == pytest.approx(b[k], abs=1e-12) for k in a)


def test_every_path_of_an_ending_leads_to_the_same_state() -> None:
    """An ending (change of lives at LIVES, who sits out) decides the next match state at
    any lives: every engine path of the slow tree with the same ending, replayed by the
    match engine from real lives, gives one next state."""
    rules = Rules.of("gnav")
    tree = build(rules, 2, endings=True, fast=False)
    names = ("a", "b")
    first: dict[object, tuple[object, ...]] = {}
    # Every path the slow tree records is the first of its ending; the fast tree's
    # shortcuts record others: together, two paths per ending where both exist.
    other = build(rules, 2, endings=True)
    paths = {e: [p] for e, p in zip(tree.endings, tree.paths, strict=True)}
    for e, p in zip(other.endings, other.paths, strict=True):
        paths[e].append(p)
    for lives in ({0: 1, 1: 1}, {0: 1, 1: 2}, {0: 2, 1: 1}):
        start = MatchState.new(rules, names, dealer=1, lives=lives)
        for ending, ways in paths.items():
            for path in ways:
                nxt = replay(start, path)
                got = (nxt.lives, nxt.winners, nxt.dealer, nxt.sitting_out)
                assert first.setdefault((ending, tuple(lives.values())), got) == got


def test_le_her_one_life_is_waldegraves_round() -> None:
    """At one life each the match is one round: the receiver wins it with Waldegrave's
    chance."""
    sol = solve_match(Rules.of("le-her"), 2, 1, target=1e-6)
    assert len(sol.states) == 1
    assert sol.nash_conv < 1e-6
    # Two seats, a constant sum: the value is within the NashConv of the game's.
    dealer, receiver = sol.values[0]
    assert receiver == pytest.approx(float(PAUL_WINS), abs=1e-6)
    assert dealer + receiver == pytest.approx(1.0, abs=1e-12)


def test_le_her_three_lives_by_hand_recursion() -> None:
    """Le Her: every round exactly one seat pays one life (no fool, no charge, ties to the
    dealer), and both seats deal in turn. A round's payoffs in the match are then an
    affine function of its payoffs in lives, so each round is Waldegrave's game: the
    receiver with r lives against a dealer with d wins the match with
    f(r, d) = p (1 - f(d - 1, r)) + (1 - p) (1 - f(d, r - 1)), f(0, .) = 0, f(., 0) = 1
    (the dealer of the next round is this round's receiver)."""
    p = PAUL_WINS

    @cache
    def f(r: int, d: int) -> Fraction:
        if r == 0:
            return Fraction(0)
        if d == 0:
            return Fraction(1)
        return p * (1 - f(d - 1, r)) + (1 - p) * (1 - f(d, r - 1))

    sol = solve_match(Rules.of("le-her"), 2, 3, target=1e-6)
    assert len(sol.states) == 9  # lives 1 to 3 each, the dealer seat 0 of every key
    assert sol.nash_conv < 1e-5
    for state, values in zip(sol.states, sol.values, strict=True):
        dealer_lives, receiver_lives = state.key[0]
        assert values[1] == pytest.approx(float(f(receiver_lives, dealer_lives)), abs=1e-5)
    # The round strategy is the match strategy here (affine payoffs): no worth in playing
    # for the match.
    assert sol.round_exploitability < 1e-4


def test_gnav_two_seats_values_and_fixed_point(gnav_one_life: MatchSolution) -> None:
    sol = gnav_one_life
    assert np.allclose(sol.values.sum(axis=1), 1.0, atol=1e-9)
    assert sol.nash_conv < 1e-4
    # Each state's value is its round's value under its strategy with the final values
    # of the states after it (the fixed point of the value iteration).
    for k, state in enumerate(sol.states):
        table = sol.tables[len(state.positions)]
        chances = table.ending_chances(sol.strategies[k])
        assert chances.sum() == pytest.approx(1.0, abs=1e-9)
        assert np.allclose(chances @ continuation(state, sol.values), sol.values[k],
                           atol=1e-8)
    # Two fools gaining leads back to a state already met (lives above the cap read as
    # the cap): the states recur.
    recurring = [k for k, s in enumerate(sol.states)
                 if any(sum(sol.states[j].key[0]) >= sum(s.key[0])
                        for j in s.following if j >= 0)]
    assert recurring


def test_a_seat_left_alone_wins(gnav_one_life: MatchSolution) -> None:
    """Every ending that ends the match is worth 1 to a lone survivor, 0 to the others,
    and a shared end is shared: each ending's results sum to 1."""
    for state in gnav_one_life.states:
        ends = state.following < 0
        assert ends.any()
        assert np.allclose(state.final[ends].sum(axis=1), 1.0)
        alone = ends & (state.final.max(axis=1) == 1.0)
        assert alone.any()
        assert set(np.unique(state.final[alone])) == {0.0, 1.0}


def test_the_match_changes_the_choice(gnav_one_life: MatchSolution) -> None:
    """At one life each the round strategy (the fewest lives lost) is not the match's:
    a best response gains more against it, through the match, than against the match
    strategy."""
    assert gnav_one_life.round_exploitability > 10 * gnav_one_life.nash_conv


def test_keys_turn_with_the_dealer() -> None:
    rules = Rules.of("gnav")
    a = MatchState.new(rules, ("a", "b", "c"), dealer=0, lives={0: 1, 1: 2, 2: 3})
    b = MatchState.new(rules, ("a", "b", "c"), dealer=1, lives={0: 3, 1: 1, 2: 2})
    assert key_of(a, 9) == key_of(b, 9) == ((1, 2, 3), (), ())
    assert key_of(a, 2) == ((1, 2, 2), (), ())


def test_cli_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--match", "--preset", "le-her", "--seats", "2", "-o", "lives=2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"nash_conv", "round_exploitability", "values", "states", "start"} <= set(out)
    assert out["lives"] == 2 and out["states"] == len(out["values"]) == 4
    assert out["nash_conv"] < 1e-4
    assert sum(out["start"]) == pytest.approx(1.0)


def test_cli_match_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--match", "--preset", "le-her", "--seats", "2", "-o", "lives=1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "match NashConv" in out and "exploitability" in out
    assert "D:1 1" in out  # the one state, its values on its line


def test_cli_match_refusals_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # 4 seats are solved where a round's endings fit (chase-the-ace's; issue 29): 5 are not.
    assert main(["solve", "--match", "--seats", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "5" in err
    assert main(["solve", "--match", "--seats", "2", "-o", "max_rounds=5"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "max_rounds" in err
    # --match --out writes a match strategy now (issue 29); a check of no such table is
    # what is refused.
    assert main(["solve", "--match", "--seats", "2", "--check", "x-9"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--match" in err


def test_three_seats_down_to_two_is_the_two_seat_match() -> None:
    """Chase the Ace at 3 seats and 1 life: the states with one seat out (either
    neighbour of the dealer) are worth what the 2-seat match is worth, solved from its own
    start; a tie of the lowest puts several out together, a shared win."""
    rules = Rules.of("chase-the-ace")
    three = solve_match(rules, 3, 1, target=1e-6)
    two = solve_match(rules, 2, 1, target=1e-6)
    assert three.nash_conv < 1e-4
    assert np.allclose(three.values.sum(axis=1), 1.0, atol=1e-9)
    pairs = [(s, v) for s, v in zip(three.states, three.values, strict=True) if s.key[1]]
    assert {s.key[1] for s, _ in pairs} == {(1,), (2,)}
    for state, values in pairs:
        alive = [c for c in range(3) if c not in state.key[1]]
        assert values[state.key[1][0]] == 0.0
        assert values[alive] == pytest.approx(two.values[0], abs=1e-5)
    # Some ending shares the match: a result strictly between 0 and 1.
    assert any(((s.final > 0) & (s.final < 1)).any() for s in three.states)
