"""The coach's match tables (``gnav.solve.match_coach``): each decision's chance to win
the match standing and swapping, checked three ways that do not share its arithmetic:
the states' values the match files store, a hand calculation at one life, and matches
played out by the match expert from the decision."""

from __future__ import annotations

import gzip
import json
import math
from random import Random

import numpy as np
import pytest

import gnav
from gnav.infoset import infoset_key
from gnav.match import MatchState
from gnav.odds.coach import advise
from gnav.odds.match_coach import table_path
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.match import solve_match
from gnav.solve.match_coach import SCALE, coach_match_table, solver_for, win_values
from gnav.solve.match_export import match_data, sigma_of
from gnav.solve.tree import build
from gnav.strategies.match import MATCH_HERE, MatchStrategy, load_match, parse_match
from gnav.views import seat_view
from gnav.vocab import Action


def _shipped(name: str) -> MatchStrategy:
    return load_match(str(MATCH_HERE / f"{name}.json.gz"))


@pytest.mark.parametrize("name", ["le-her-2", "gnav-2", "chase-the-ace-3"])
def test_the_shipped_table_is_the_one_its_match_file_makes(name: str) -> None:
    """A match file solved again without its coach table made again fails here
    (``gnav odds --coach-tables`` makes the missing ones)."""
    strategy = _shipped(name)
    made = coach_match_table(strategy)
    shipped = json.loads(gzip.decompress(table_path(strategy.preset,
                                                    strategy.seats).read_bytes()))
    assert shipped == json.loads(json.dumps(made))


@pytest.mark.parametrize("name", ["le-her-2", "chase-the-ace-3"])
def test_each_states_value_is_its_openings_chances_averaged(name: str) -> None:
    """At these games the first seat to decide knows only its own piece: the state's
    value to it, as the match file stores it, is the chance of each piece dealt times
    what the file's strategy does with it, in chances to win from the coach's table."""
    strategy = _shipped(name)
    rules = Rules.of(strategy.preset)
    solver, sigmas = solver_for(strategy)
    wins = win_values(solver, sigmas)
    copies = {rules.ids[t]: rules.deck.count(t) for t in set(rules.deck)}
    checked = 0
    for state in solver.states:
        m = len(state.positions)
        stored = strategy.values(state.key)
        assert stored is not None
        total = 0.0
        for piece, k in copies.items():
            key = f"0/{m}|{piece}|{piece}|"
            p = strategy.swap_probability(state.key, key, m)
            assert p is not None, key
            stand, swap = wins[state.key][key]
            total += k / len(rules.deck) * ((1.0 - p) * stand + p * swap)
        assert total == pytest.approx(stored[state.positions[0]], abs=2e-6), state.key
        checked += 1
    assert checked == len(strategy.states)


def test_at_one_life_the_chance_to_win_is_the_chance_of_not_paying() -> None:
    """Le Her at one life: the round's payer is out, so the chance to win with each
    action is one minus the chance of paying with it, read off the round's own tree
    (its ``pay`` measure, not the match's endings and next states)."""
    rules = Rules.of("le-her", lives=1)
    strategy = parse_match(json.loads(json.dumps(match_data(solve_match(rules, 2)))), "1")
    solver, sigmas = solver_for(strategy)
    wins = win_values(solver, sigmas)
    (start, table), = [(s.key, wins[s.key]) for s in solver.states]
    tree = build(rules, 2)
    game = Game(tree)
    sigma, missing = sigma_of(game, lambda k: strategy.swap_probability(start, k, 2))
    assert missing == 0
    game.term = np.asarray(tree.pay, dtype=np.float64).reshape(-1, 2, 2)[game.order]
    rho = game.reach(sigma)
    _, q = game.values(sigma)
    pay = game.action_values(rho, q)
    reach = np.bincount(game.infoset, weights=rho, minlength=game.infosets)
    chance = game.reach(np.ones_like(sigma))
    pay_chance = game.action_values(chance, q)
    reach_chance = np.bincount(game.infoset, weights=chance, minlength=game.infosets)
    assert len(table) > 10
    for key, (stand, swap) in table.items():
        i = game.keys.index(key)
        paid = pay[i] / reach[i] if reach[i] > 1e-12 else pay_chance[i] / reach_chance[i]
        assert stand == pytest.approx(1.0 - paid[0], abs=1e-9), key
        assert swap == pytest.approx(1.0 - paid[1], abs=1e-9), key


def _play_out(rules: Rules, piece: str, action: Action, trials: int, seed: int
              ) -> tuple[float, float | None, float | None]:
    """Matches of two match experts from the start of gnav-2, the dealer's left dealt
    ``piece`` with the dealer not knocking (its opening information set), taking
    ``action`` there: (the share it wins, the coach's chance to win standing and swapping
    at that view)."""
    rng = Random(seed)
    mine = rules.ids.index(piece)
    rest = list(rules.deck)
    rest.remove(mine)
    want = f"0/2|{piece}|{piece}|"
    won = 0.0
    coach: tuple[float | None, float | None] = (None, None)
    played = 0
    while played < trials:
        rng.shuffle(rest)
        start = MatchState.new(rules, ("a", "b"), dealer=0,
                               lives=dict.fromkeys(range(2), rules.options.lives))
        match = start.deal(hands=[mine, rest[0]], stock=rest[1:])
        view = seat_view(match, 1)
        if infoset_key(view) != want:
            continue  # the dealer knocked: another information set
        if played == 0:
            advice = advise(view)
            assert advice is not None
            coach = (advice.win_stand, advice.win_swap)
        match, _ = match.apply(action)
        bots = [gnav.make_bot("expert", seed=seed + played), gnav.make_bot("expert", seed=~played)]
        final = gnav.play_match(rules, ("a", "b"), bots, seed=rng.randrange(2**32),
                                match=match)
        assert final.winners is not None
        won += (1 in final.winners) / len(final.winners)
        played += 1
    return won / trials, coach[0], coach[1]


@pytest.mark.parametrize(("piece", "action"), [("12", Action.STAND), ("12", Action.SWAP)])
def test_the_coachs_chance_to_win_is_what_the_match_expert_wins(piece: str,
                                                                action: Action) -> None:
    """A second method: matches played out by the match expert (the engine, the bot, no
    tree) from the decision, taking each action, win as often as the coach says, within
    four standard errors."""
    rules = Rules.of("gnav")
    trials = 1200
    share, stand, swap = _play_out(rules, piece, action, trials, 7)
    said = stand if action == Action.STAND else swap
    assert said is not None
    se = math.sqrt(said * (1 - said) / trials)
    assert abs(share - said) < 4 * se, (share, said, se)


def test_the_table_holds_chances_in_millionths() -> None:
    data = coach_match_table(_shipped("le-her-2"))
    assert data["scale"] == SCALE
    for state in data["states"]:
        assert all(0 <= q <= SCALE for q in state["stand"] + state["swap"])
