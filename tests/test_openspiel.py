"""The OpenSpiel game ``python_gnav``: OpenSpiel's own checks, exact chance, the engine's
returns, information states that hide what they must, CFR, and policies from bots."""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

import numpy as np

# The [rl] extra is part of `make test`: without it these fail, they do not skip.
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.observation import make_observation

import gnav.openspiel as gos
from gnav.bots import make_bot
from gnav.errors import MalformedError
from gnav.events import Swap
from gnav.features import information
from gnav.infoset import infoset_key
from gnav.openspiel import ACTIONS
from gnav.round import RoundState
from gnav.rules import Rules

CHECKED = [("gnav", 2), ("gnav", 3), ("gnav-1917", 2), ("gnav-1917", 3), ("slabberjan", 2),
           ("slabberjan", 3), ("chase-the-ace", 2), ("chase-the-ace", 3), ("le-her", 2)]


def _play(game: gos.GnavGame, rng: Random) -> tuple[gos.GnavState, list[tuple[int, int]]]:
    """A round at random, every chance node checked: probabilities sum to 1."""
    state = game.new_initial_state()
    history: list[tuple[int, int]] = []
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            assert all(p > 0 for _, p in outcomes)
            actions, probs = zip(*outcomes, strict=True)
            assert list(actions) == state.legal_actions()
            action = rng.choices(actions, probs)[0]
        else:
            view = state.view(player)
            assert view is not None and view.my_turn
            assert state.legal_actions() == [ACTIONS.index(a) for a in view.legal]
            action = rng.choice(state.legal_actions())
        history.append((player, action))
        state.apply_action(action)
    return state, history


def _decisions(game: gos.GnavGame, rng: Random) -> Iterator[gos.GnavState]:
    """One round's decision states, its chance nodes sampled from ``rng``: the caller
    applies an action to each before asking for the next."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            yield state


def _engine_returns(rules: Rules, seats: int, history: list[tuple[int, int]]) -> list[int]:
    """The same round played by the engine alone from the same deal and draws: the deal
    and the drawn stock pieces come from the chance outcomes, in order; the undrawn rest
    of the stock is filled with what is left (never read)."""
    chance = [a for p, a in history if p == pyspiel.PlayerId.CHANCE]
    moves = [a for p, a in history if p != pyspiel.PlayerId.CHANCE]
    deal, drawn = chance[:seats], chance[seats:]
    rest = list(rules.deck)
    for piece in deal + drawn:
        rest.remove(piece)
    lives = rules.options.lives
    rnd = RoundState.start(rules, range(seats), deal, drawn + rest, [lives] * seats)
    for move in moves:
        rnd, _ = rnd.apply(ACTIONS[move])
    assert rnd.over
    assert rnd.drawn == len(drawn)  # every draw the adapter asked chance for was made
    return [rnd.lives[s] - lives for s in range(seats)]


@pytest.mark.parametrize(("preset", "seats"), CHECKED)
def test_openspiel_random_sim_with_serialisation(preset: str, seats: int) -> None:
    game = gos.load(preset, seats)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("preset", "seats"), CHECKED)
def test_chance_legal_actions_and_returns_match_the_engine(preset: str, seats: int) -> None:
    game = gos.load(preset, seats)
    rules = game.config.rules
    rng = Random(f"{preset}{seats}")
    for _ in range(25):
        state, history = _play(game, rng)
        returns = state.returns()
        assert returns == _engine_returns(rules, seats, history)
        info = game.get_type()
        assert info.short_name == "python_gnav"
        assert game.min_utility() <= min(returns) and max(returns) <= game.max_utility()
        assert len(history) <= game.max_game_length()


def test_deal_probabilities_by_hand() -> None:
    """Le Her's 52 cards, 4 of each of 13: the first card is any rank with 4/52; after a
    king is dealt, a second king has 3/51 and a queen 4/51."""
    game = gos.load("le-her", 2)
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 13
    assert all(p == pytest.approx(4 / 52) for p in outcomes.values())
    state.apply_action(0)  # a king
    outcomes = dict(state.chance_outcomes())
    assert outcomes[0] == pytest.approx(3 / 51)
    assert outcomes[1] == pytest.approx(4 / 51)
    state.apply_action(12)  # an ace to the dealer: the stock holds 50, 4 queens among them
    state.apply_action(gos.STAND)
    state.apply_action(gos.SWAP)  # the dealer draws: chance picks the top of the stock
    assert state.is_chance_node()
    draws = dict(state.chance_outcomes())
    assert draws[0] == pytest.approx(3 / 50)
    assert draws[12] == pytest.approx(3 / 50)
    assert draws[1] == pytest.approx(4 / 50)


def test_every_chance_node_of_a_whole_tree_sums_to_one() -> None:
    """Le Her with one copy of each card: the whole tree, walked by OpenSpiel."""
    game = gos.load("le-her", 2, copies=1)
    states = get_all_states(game, include_terminals=True, include_chance_states=True)
    assert len(states) > 1000
    chance = [s for s in states.values() if s.is_chance_node()]
    for s in chance:
        probs = [p for _, p in s.chance_outcomes()]
        assert sum(probs) == pytest.approx(1.0, abs=1e-12)
    # The probability of reaching each terminal, summed over the tree, is 1: the exact
    # fractions multiply along every path.
    total = Fraction(0)
    stack: list[tuple[Any, Fraction]] = [(game.new_initial_state(), Fraction(1))]
    while stack:
        s, p = stack.pop()
        if s.is_terminal():
            total += p
        elif s.is_chance_node():
            left = s._left()
            whole = sum(left)
            for a, _ in s.chance_outcomes():
                stack.append((s.child(a), p * Fraction(left[a], whole)))
        else:
            stack.extend((s.child(a), p) for a in s.legal_actions()[:1])
    assert total == 1


def test_a_seat_cannot_tell_hidden_pieces_apart() -> None:
    """Three seats of gnav: the player at the dealer's left stands. Changing the pieces of
    the other two (dealt, and what the dealer draws) changes nothing it sees; the seat
    whose piece changed sees the change."""
    game = gos.load("gnav", 3)
    ids = game.config.rules.ids
    ten, two, five, six, seven = (ids.index(x) for x in ("10", "2", "5", "6", "7"))

    def at_turn(second: int, third: int) -> gos.GnavState:
        state = game.new_initial_state()
        for action in (ten, second, third, gos.STAND):
            state.apply_action(action)
        return state

    a, b = at_turn(two, five), at_turn(six, seven)
    for state in (a, b):
        assert state.current_player() == 1
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    for player in (1, 2):
        assert a.information_state_string(player) != b.information_state_string(player)
        assert a.information_state_tensor(player) != b.information_state_tensor(player)
    # The dealer's draw is its own: a different piece drawn is the same to the others
    # until the showdown shows it.
    c = at_turn(two, five)
    d = at_turn(two, five)
    for state, drawn in ((c, six), (d, seven)):
        state.apply_action(gos.STAND)
        state.apply_action(gos.SWAP)
        assert state.is_chance_node()
        state.apply_action(drawn)
    assert c.is_terminal() and d.is_terminal()
    assert c.information_state_string(2) != d.information_state_string(2)
    # The showdown is public, so the round's end differs for everyone.
    assert c.information_state_string(0) != d.information_state_string(0)


def test_a_swap_shows_both_sides_what_they_traded() -> None:
    game = gos.load("gnav", 3)
    ids = game.config.rules.ids
    ten, two, five, six = (ids.index(x) for x in ("10", "2", "5", "6"))
    states = []
    for third in (five, six):
        state = game.new_initial_state()
        for action in (two, ten, third, gos.SWAP):
            state.apply_action(action)
        states.append(state)
    a, b = states
    # The seats that traded know both pieces; neither knows the dealer's.
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert "10" in a.observation_string(0)  # player 0 took the X
    assert a.information_state_string(2) != b.information_state_string(2)


@pytest.mark.parametrize(("preset", "seats"), [("gnav", 3), ("slabberjan", 2)])
def test_openspiels_observers_agree_with_the_states_methods(preset: str, seats: int) -> None:
    """OpenSpiel's C++ side reads the observers; Python reads the state's methods: the
    same strings and tensors, at every kind of node, for every player."""
    game = gos.load(preset, seats)
    rng = Random(2)
    for _ in range(5):
        state = game.new_initial_state()
        while True:
            for p in range(seats):
                assert pyspiel.State.information_state_string(state, p) == \
                    state.information_state_string(p)
                assert pyspiel.State.observation_string(state, p) == state.observation_string(p)
                assert pyspiel.State.information_state_tensor(state, p) == \
                    pytest.approx(state.information_state_tensor(p))
                assert pyspiel.State.observation_tensor(state, p) == \
                    pytest.approx(state.observation_tensor(p))
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    spectator = state.view(None)
    assert spectator is not None
    assert public.tensor.tolist() == information(spectator)


def test_the_tensors_have_the_declared_sizes() -> None:
    game = gos.load("gnav", 3)
    state, _ = _play(game, Random(3))
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()
    fresh = game.new_initial_state()
    assert not any(fresh.information_state_tensor(0))


def test_serialisation_and_pickle_give_the_same_state() -> None:
    game = gos.load("gnav", 3)
    rng = Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state)
        for player in range(3):
            assert state2.information_state_string(player) == \
                state.information_state_string(player)
        again = pickle.loads(pickle.dumps(state))
        assert str(again) == str(state)


def test_parameters_keep_the_presets_own_options() -> None:
    summary = gos.load("gnav-summary", 3)
    options = summary.config.rules.options
    assert options.drag is False and options.penalty_to == "holder"
    assert gos.load("le-her", 2).config.rules.options.dealer_wins_ties is True
    changed = gos.load("gnav", 2, lives=2, copies=1, knock="silent", two_fools_sit_out=False)
    o = changed.config.rules.options
    assert (o.lives, o.copies, o.knock, o.two_fools_sit_out) == (2, 1, "silent", False)
    assert set(gos.PARAMETERS) >= {"preset", "seats", "lives", "copies", "knock", "revealed",
                                   "drag", "two_fools", "two_fools_sit_out", "penalty_to",
                                   "stand_needs_matador", "max_rounds", "dealer_wins_ties"}
    by_string = pyspiel.load_game("python_gnav(preset=hypp,seats=3,drag=false)")
    assert by_string.num_players() == 3
    assert by_string.config.rules.options.drag is False


@pytest.mark.parametrize(("params", "message"), [
    ({"preset": "nope"}, "unknown preset 'nope'"),
    ({"preset": "le-her", "seats": 3}, "le-her takes (exactly 2|2 to 2) seats, not 3"),
    ({"lives": 11}, "lives must be a whole number from 1 to 10"),
    ({"knock": "loud"}, "knock must be one of public, silent"),
])
def test_bad_parameters_give_one_clear_line(params: dict[str, object], message: str) -> None:
    with pytest.raises(Exception) as info:  # pyspiel wraps it in its own error type
        pyspiel.load_game("python_gnav", params)
    text = str(info.value)
    assert re.search(message, text), text
    assert "Traceback" not in text and "\n" not in text.strip()


def test_load_names_unknown_options() -> None:
    with pytest.raises(MalformedError, match="unknown option 'colour'"):
        gos.load("gnav", 2, colour="red")


def docs_examples(word: str) -> list[str]:
    """The Python examples of docs/rl.md that use ``word``."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    return [b for b in blocks if word in b]


def test_cfr_on_le_her_converges() -> None:
    """The CFR example of docs/rl.md, run as written: OpenSpiel's CFR+ through the
    adapter on Le Her with one card of each rank, judged by OpenSpiel's own nash_conv."""
    (example,) = docs_examples("CFRPlusSolver")
    scope: dict[str, Any] = {}
    exec(example, scope)
    game, solver, nash_conv = scope["game"], scope["solver"], scope["nash_conv"]
    assert 0 <= nash_conv < 1e-3
    assert exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game)) > 0.1
    # With one card of each rank there are no ties: exactly one seat pays one life in
    # every round, so the two seats' values add up to -1 whatever the policy.
    values = expected_game_score.policy_value(game.new_initial_state(),
                                              [solver.average_policy()] * 2)
    assert sum(values) == pytest.approx(-1.0)


def test_the_match_example_of_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    (example,) = docs_examples("state_of_round")
    exec(example, {})
    assert capsys.readouterr().out.startswith("won by [")


def test_the_command_line_example(capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.openspiel.__main__ import main

    assert main(["--preset", "le-her", "-o", "copies=1", "--iterations", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("iteration     1  NashConv 0.")
    assert out[-1].startswith("player 1 (the dealer): ")
    assert main(["-o", "lives=99"]) == 2
    assert "lives must be a whole number from 1 to 10" in capsys.readouterr().err


def test_policy_from_a_deterministic_bot_is_its_choice() -> None:
    game = gos.load("gnav", 3)
    pol = gos.policy_from_bot(game, "threshold:7", seed=1)
    rng = Random(9)
    checked = 0
    for _ in range(20):
        for state in _decisions(game, rng):
            player = state.current_player()
            mixed = pol.action_probabilities(state)
            view = state.view(player)
            assert view is not None
            chosen = make_bot("threshold", 1 + player, threshold="7").act(view)
            assert mixed == {ACTIONS.index(a): float(a == chosen) for a in view.legal}
            checked += 1
            state.apply_action(max(mixed, key=mixed.__getitem__))
    assert checked >= 20
    random_policy = gos.policy_from_bot(game, "random")
    state = game.new_initial_state()
    for a in (0, 1, 2):
        state.apply_action(a)
    assert random_policy.action_probabilities(state) == {0: 0.5, 1: 0.5}


def test_policy_from_a_mixing_bot_is_its_mixed_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot with ``probabilities(view)`` (the expert's interface) gives them exactly, and
    sees only its view."""
    seen: list[object] = []

    class Mixer:
        name = "mixer"

        def act(self, view: object) -> str:
            raise AssertionError("a mixing bot is asked for probabilities, not a choice")

        def probabilities(self, view: Any) -> dict[str, float]:
            seen.append(view)
            return {"stand": 0.25, "swap": 0.75} if view.piece == "ace" else {"stand": 1.0}

    monkeypatch.setattr(gos, "make_bot", lambda kind, seed, **params: Mixer())
    monkeypatch.setattr(gos, "parse_bot_spec", lambda spec: (spec, {}))
    game = gos.load("le-her", 2, copies=1)
    pol = gos.policy_from_bot(game, "mixer")
    state = game.new_initial_state()
    state.apply_action(12)  # the ace to the dealer's left
    state.apply_action(0)
    assert pol.action_probabilities(state) == {0: 0.25, 1: 0.75}
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(0)
    assert pol.action_probabilities(state) == {0: 1.0, 1: 0.0}
    assert all(type(v).__name__ == "SeatView" for v in seen)
    # OpenSpiel's nash_conv reads the policy: a policy of the stand-unless-ace kind in Le
    # Her is exploitable, and the number is finite and positive.
    value = exploitability.nash_conv(game, pol)
    assert np.isfinite(value) and value > 0


def test_a_match_plays_its_rounds_through_the_one_round_game() -> None:
    """A whole match of gnav at 3 seats, every decision asked of a policy of the one-round
    game through ``state_of_round``: the policy's choice is the bot's on the match's own
    view, and the replayed state holds the same pieces as the match's round."""
    from gnav.match import MatchState
    from gnav.views import seat_view

    rules = Rules.of("gnav")
    games = {n: gos.load("gnav", n) for n in (2, 3)}
    policies = {n: gos.policy_from_bot(g, "threshold") for n, g in games.items()}
    rng = Random(21)
    match = MatchState.new(rules, ("a", "b", "c"), seed=21)
    decisions = 0
    while not match.over:
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        rnd = match.round
        assert rnd is not None
        n = len(rnd.seats)
        state = gos.state_of_round(games[n], rnd)
        assert state.current_player() == rnd.turn
        assert state.round is not None and state.round.hands == rnd.hands
        probs = policies[n].action_probabilities(state)
        action = ACTIONS[max(probs, key=probs.__getitem__)]
        seat = rnd.seats[rnd.turn]
        assert action == make_bot("threshold", 0).act(seat_view(match, seat))
        match, _ = match.apply(action)
        decisions += 1
    assert decisions > 10 and match.winners


def test_state_of_round_refuses_another_game() -> None:
    rnd = RoundState.start(Rules.of("hypp"), (0, 1), (0, 1), tuple(range(2, 21)), (4, 4))
    with pytest.raises(MalformedError, match="a round of 2 seats of hypp is not a state of"):
        gos.state_of_round(gos.load("gnav", 2), rnd)


class _LeHerRule(os_policy.Policy):  # type: ignore[misc]
    """Le Her's threshold play, as the 1713 letters put it: Paul (the dealer's left) swaps
    at or below ``paul``; Pierre (the dealer), when Paul held, draws at or below
    ``pierre``, and when Paul took his card, draws only if he now holds the lower card
    (ties go to the dealer). Ranks run from the ace (1) to the king (13). It reads the
    seat's view only."""

    def __init__(self, game: gos.GnavGame, paul: int, pierre: int) -> None:
        super().__init__(game, [0, 1])
        self.ids = game.config.rules.ids
        self.paul, self.pierre = paul, pierre

    def rank(self, piece: str | None) -> int:
        assert piece is not None
        return 13 - self.ids.index(piece)

    def action_probabilities(self, state: gos.GnavState,
                             player_id: int | None = None) -> dict[int, float]:
        view = state.view(state.current_player())
        assert view is not None and view.seat is not None
        mine = self.rank(view.piece)
        if view.order.index(view.seat) == 0:
            swap = mine <= self.paul
        else:
            taken = [e for e in view.events if isinstance(e, Swap)]
            swap = mine < self.rank(taken[0].seat_got) if taken else mine <= self.pierre
        return {gos.SWAP: float(swap), gos.STAND: float(not swap)}


def test_le_her_reproduces_waldegraves_table_of_1713() -> None:
    """The outside result: Waldegrave's solution of Le Her (1713, as given by Bellhouse and
    Fillion, Statistical Science 2015) is that Paul wins with probability
    (2828ac + 2834bc + 2838ad + 2828bd) / (13·17·25·(a+b)(c+d)), where a and b are Paul's
    chances of swapping and holding a seven, c and d Pierre's of swapping and holding an
    eight. The four pure corners, played exactly through the adapter on the full 52-card
    game, give the four numbers. (The equilibrium they imply, a seven swapped with 3/8 and
    an eight with 5/8, is what CFR+ finds on the full game in a few hundred iterations:
    too slow for a unit test, see docs/rl.md.)"""
    game = gos.load("le-her", 2)
    table = {(7, 8): 2828, (6, 8): 2834, (7, 7): 2838, (6, 7): 2828}
    for (paul, pierre), count in table.items():
        rule = _LeHerRule(game, paul, pierre)
        values = expected_game_score.policy_value(game.new_initial_state(), [rule, rule])
        # Exactly one seat pays: Paul wins when Pierre, the dealer, pays.
        assert values[0] + values[1] == pytest.approx(-1.0)
        assert -values[1] * 13 * 17 * 25 == pytest.approx(count, abs=1e-9)


def test_openspiels_cpp_and_python_cfr_agree_through_the_adapter() -> None:
    """OpenSpiel's C++ CFR+ and nash_conv reach the game through its observers, the
    Python ones through the state's methods: the same tree, the same numbers."""
    game = gos.load("le-her", 2, copies=1)
    cpp = pyspiel.CFRPlusSolver(game)
    python = cfr.CFRPlusSolver(game)
    cpp.evaluate_and_update_policy()
    python.evaluate_and_update_policy()
    cpp_value = pyspiel.nash_conv(game, cpp.average_policy())
    python_value = exploitability.nash_conv(game, python.average_policy())
    assert cpp_value > 0.01
    assert cpp_value == pytest.approx(python_value, abs=1e-12)


def test_sampling_algorithms_run_on_a_table_too_big_to_walk() -> None:
    """Gnav at three seats is far too big for a tree walk; OpenSpiel's outcome-sampling
    MCCFR samples it through the adapter, and its average policy is a distribution over
    the legal actions of every information set it met."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = gos.load("gnav", 3)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(3)
    for _ in range(200):
        solver.iteration()
    average = solver.average_policy()
    rng = Random(4)
    met = 0
    for _ in range(30):
        for state in _decisions(game, rng):
            dist = average.action_probabilities(state)
            assert set(dist) == set(state.legal_actions())
            assert sum(dist.values()) == pytest.approx(1.0)
            met += state.information_state_string() in solver._infostates
            state.apply_action(rng.choice(state.legal_actions()))
    assert met > 0


def test_openspiels_nash_conv_of_the_expert_agrees_with_gnav_solve(tmp_path: Path) -> None:
    """The independent judge (issue 11): ``gnav solve`` writes a Le Her strategy with the
    NashConv its own exact best response measured; the expert plays that file, and
    OpenSpiel's nash_conv walks OpenSpiel's tree of the game, asking the expert through
    its views. Three iterations leave it away from equilibrium (even once shipping has
    removed its dominated choices), so every information set counts (the shipped
    strategy, at equilibrium, is checked below)."""
    from gnav.cli.solve import run
    from gnav.solve.export import write

    iterations = 3
    rules = Rules.of("le-her")
    _, data = run(rules, 2, iterations=iterations, target=0.0, strategy=True)
    assert data is not None
    path = tmp_path / "le-her.json.gz"
    write(path, data)
    game = gos.load("le-her", 2)
    expert = gos.policy_from_bot(game, f"expert:{path}")
    # Every decision of OpenSpiel's tree has its information set in the file: the
    # expert never falls back on another bot.
    states = get_all_states(game, include_terminals=False, include_chance_states=False)
    for state in states.values():
        view = state.view(state.current_player())
        assert view is not None
        if len(view.legal) == 2:
            assert infoset_key(view) in data["swap"]
    ours = exploitability.nash_conv(game, expert)
    assert ours == pytest.approx(data["nash_conv"], abs=1e-9)
    assert ours > 1e-3


@pytest.mark.parametrize("preset", ["le-her", "chase-the-ace"])
def test_openspiels_nash_conv_of_the_shipped_expert_is_the_shipped_one(preset: str) -> None:
    """The round's expert (the round strategy shipped with gnav, as ``expert-round``
    plays it; ``expert`` plays the match at two seats) judged by OpenSpiel: the NashConv
    the strategy was shipped with, to rounding. Chase the Ace at two seats is not
    constant-sum (a tie costs both), Le Her is."""
    from gnav.strategies import shipped

    strategy = shipped(Rules.of(preset), 2)
    assert strategy is not None
    game = gos.load(preset, 2)
    ours = exploitability.nash_conv(game, gos.policy_from_bot(game, "expert-round"))
    assert ours == pytest.approx(strategy.nash_conv, abs=1e-9)
    assert ours < 1e-3


@pytest.mark.parametrize(("preset", "seats", "options"), [
    ("gnav", 3, {"revealed": "act", "knock": "silent", "lives": 1}),
    ("gnav", 4, {"penalty_to": "holder", "two_fools": "pay", "copies": 1}),
    ("gnav-summary", 3, {"stand_needs_matador": True}),
    ("hypp", 5, {"dealer_wins_ties": True, "drag": False}),
    ("cuccu", 3, {}),
    ("kille", 4, {"copies": 3}),
    ("gnav-pagat", 10, {}),
])
def test_options_and_other_tables_through_openspiels_checks(
        preset: str, seats: int, options: dict[str, object]) -> None:
    """Every option reaches the engine: OpenSpiel's random simulation, and the returns of
    random rounds against the engine's own play of the same deals and draws."""
    game = gos.load(preset, seats, **options)
    rules = game.config.rules
    for name, value in options.items():
        assert getattr(rules.options, name) == value
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = Random(f"{preset}{seats}{options}")
    for _ in range(15):
        state, history = _play(game, rng)
        assert state.returns() == _engine_returns(rules, seats, history)
        assert game.min_utility() <= min(state.returns())
        assert max(state.returns()) <= game.max_utility()
