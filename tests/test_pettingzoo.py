"""The PettingZoo environment ``gnav_v0``: PettingZoo's own API and seed tests for every
preset, truncation after ``max_cycles`` rounds, rewards that are the engine's lives, masks
that are the views' legal actions, and rendering from the spectator's view."""

from __future__ import annotations

import warnings
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import gnav.pettingzoo as gpz
from gnav.errors import MalformedError
from gnav.features import information, information_size, observation
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.views import seat_view


def _tables() -> list[tuple[str, int]]:
    out = []
    for name in PRESETS:
        rules = Rules.of(name)
        out += [(name, n) for n in (2, 3, 10) if rules.min_seats <= n <= rules.max_seats]
    return out


TABLES = _tables()


def _play(env: Any, rng: Random) -> dict[str, int]:
    """A random masked agent plays to the end; how often each agent was asked."""
    counts: dict[str, int] = {}
    for agent in env.agent_iter():
        counts[agent] = counts.get(agent, 0) + 1
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return counts


def test_every_preset_has_a_table_at_two_three_and_ten_seats() -> None:
    assert {n for _, n in TABLES} == {2, 3, 10}
    assert ("le-her", 2) in TABLES and ("le-her", 3) not in TABLES
    assert len({name for name, _ in TABLES}) == len(PRESETS)


@pytest.mark.parametrize("mode", gpz.MODES)
@pytest.mark.parametrize(("preset", "seats"), TABLES)
def test_pettingzoo_api_and_seed_tests(preset: str, seats: int, mode: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation with an action mask (its own
        # classic games draw the same two warnings); nothing else may be raised.
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(gpz.env(preset=preset, seats=seats, mode=mode), num_cycles=100)
        seed_test(lambda: gpz.env(preset=preset, seats=seats, mode=mode), num_cycles=30)


@pytest.mark.parametrize("seats", [2, 3, 10])
def test_max_cycles_truncates_the_match_after_that_many_rounds(seats: int) -> None:
    """PettingZoo's max_cycles test needs a parallel environment, which a turn-based game
    is not; its AEC half is checked here: with ten lives nobody can go out in four
    rounds, every seat acts at most once a round, and all are truncated after four."""
    max_cycles = 4
    env = gpz.env(preset="gnav", seats=seats, max_cycles=max_cycles, options={"lives": 10})
    env.reset(seed=1)
    counts = _play(env, Random(1))
    match = env.unwrapped.match
    assert match.rounds == max_cycles and not match.over
    assert max(counts.values()) == max_cycles + 1  # the last call is the truncated step
    assert set(counts) == set(env.possible_agents)
    env.reset(seed=2)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
        else:
            env.step(0)
    assert env.agents == []


@pytest.mark.parametrize(("preset", "seats"), [("gnav", 3), ("gnav-summary", 4), ("hypp", 2),
                                                ("cuccu", 5)])
def test_a_match_rewards_are_the_lives_each_seat_won_or_lost(preset: str, seats: int) -> None:
    """What ``last()`` hands each agent at its turns (everything earned since its last
    action), summed over the match, is its change of lives; the winners are named."""
    env = gpz.env(preset=preset, seats=seats)
    for seed in range(4):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = Random(seed)
        info: dict[str, Any] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        match = env.unwrapped.match
        assert match.over
        assert info["winners"] == [f"seat_{s}" for s in match.winners]
        for seat, name in enumerate(env.possible_agents):
            assert totals[name] == match.lives[seat] - match.start_lives[seat]


def test_cumulative_rewards_add_up_to_the_lives() -> None:
    env = gpz.raw_env(preset="gnav", seats=4)
    env.reset(seed=11)
    rng = Random(11)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(rng.choice(list(legal))))
        for name, reward in env.rewards.items():
            earned[name] += reward
    match = env.match
    assert match is not None and match.over
    for seat, name in enumerate(env.possible_agents):
        assert earned[name] == match.lives[seat] - match.start_lives[seat]


def test_one_round_mode_ends_after_the_round() -> None:
    env = gpz.raw_env(preset="gnav", seats=3, mode="round")
    env.reset(seed=4)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
        else:
            env.step(1)
            steps += 1
        for name, reward in env.rewards.items():
            earned[name] += reward
    match = env.match
    assert match is not None and match.rounds == 1 and match.round is not None
    assert match.round.over and steps <= 3
    assert [earned[a] for a in env.possible_agents] == \
        [match.lives[s] - 4 for s in range(3)]


def test_masks_and_observations_are_the_views() -> None:
    env = gpz.raw_env(preset="gnav", seats=3, options={"stand_needs_matador": True})
    env.reset(seed=3)
    rng = Random(3)
    seen_forced = False
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        match = env.match
        assert match is not None
        for seat, name in enumerate(env.possible_agents):
            if name not in env.agents:
                continue
            obs = env.observe(name)
            view = seat_view(match, seat)
            assert obs["observation"].tolist() == observation(view)
            assert obs["action_mask"].tolist() == [int("stand" in view.legal),
                                                    int("swap" in view.legal)]
            assert obs["action_mask"].any() == (name == agent)
        mask = env.observe(agent)["action_mask"]
        seen_forced |= mask.tolist() == [0, 1]
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert seen_forced  # a seat without a matador may only swap


def test_perfect_recall_observations_are_the_rounds_events() -> None:
    env = gpz.env(preset="hypp", seats=3, perfect_recall=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env, num_cycles=50)
    raw = env.unwrapped
    raw.reset(seed=5)
    agent = raw.agent_selection
    seat = raw.possible_agents.index(agent)
    assert raw.observe(agent)["observation"].tolist() == information(seat_view(raw.match, seat))
    assert raw.observation_space(agent)["observation"].shape == (
        information_size(raw.rules, 3),)


def test_the_same_seed_deals_the_same_game_and_seeds_differ() -> None:
    def deals(seed: int) -> tuple[object, ...]:
        env = gpz.raw_env(preset="gnav", seats=3)
        env.reset(seed=seed)
        assert env.match is not None and env.match.round is not None
        return (env.match.dealer, env.match.round.deal, env.match.round.stock)

    assert deals(7) == deals(7)
    assert len({deals(s) for s in range(6)}) == 6


def test_an_illegal_action_is_one_clear_line() -> None:
    env = gpz.raw_env(preset="gnav", seats=3, options={"stand_needs_matador": True})
    for seed in range(50):
        env.reset(seed=seed)
        if env.observe(env.agent_selection)["action_mask"].tolist() == [0, 1]:
            break
    with pytest.raises(MalformedError, match=r"seat_\d may not stand now \(legal: swap\)"):
        env.step(0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": "forever"}, "mode must be round or match"),
    ({"render_mode": "rgb_array"}, "render_mode must be human, ansi or None"),
    ({"max_cycles": 0}, "max_cycles must be a whole number of at least 1"),
    ({"preset": "le-her", "seats": 3}, "le-her takes (exactly 2|2 to 2) seats, not 3"),
    ({"options": {"lives": 0}}, "lives must be a whole number from 1 to 10"),
])
def test_bad_arguments_are_one_clear_line(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedError, match=message):
        gpz.raw_env(**kwargs)


def test_ansi_render_is_the_spectators_table() -> None:
    """Slabberjan knocks silently, so two deals with the same dealer look the same from
    outside before anyone acts: the frames must be equal, whatever the pieces."""
    frames: dict[int, list[tuple[str | None, object]]] = {}
    for seed in range(40):
        env = gpz.raw_env(preset="slabberjan", seats=3, render_mode="ansi")
        env.reset(seed=seed)
        assert env.match is not None and env.match.round is not None
        frames.setdefault(env.match.dealer, []).append((env.render(), env.match.round.deal))
    same_dealer = max(frames.values(), key=len)
    assert len({deal for _, deal in same_dealer}) > 1
    texts = {text for text, _ in same_dealer}
    assert len(texts) == 1
    text = texts.pop()
    assert isinstance(text, str) and "Slabberjan" in text and "to act" in text


def test_human_render_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = gpz.raw_env(preset="gnav", seats=3, render_mode="human")
    env.reset(seed=0)
    printed = capsys.readouterr().out
    assert "Gnav" in printed and "seat_" in printed
    env.step(0)
    assert "Gnav" in capsys.readouterr().out
    assert gpz.raw_env(preset="gnav", seats=3).render() is None


def test_the_random_agent_example_of_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "gnav.pettingzoo" in b]
    exec(example, {})
    out = capsys.readouterr().out
    assert out.startswith("lives won or lost: {'seat_0': ") and "winners: ['seat_" in out


def test_the_command_line_example(capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.pettingzoo.__main__ import main

    assert main(["--seats", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Gnav · round 1" in out
    # The last table rendered says who won; the totals follow it.
    assert out.rstrip().splitlines()[-1].startswith("lives won or lost: seat_0 ")
    assert out.count("won by seat_") == 1
    assert main(["--preset", "nope"]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err


def test_the_versioned_module_is_the_environment() -> None:
    from gnav.pettingzoo import gnav_v0

    assert gnav_v0.raw_env is gpz.raw_env
    made = gnav_v0.env(preset="hypp", seats=2)
    assert str(made.unwrapped) == "gnav_v0"


@pytest.mark.parametrize("quiet", [False, True], ids=["rendered", "quiet"])
def test_the_demo_says_the_winner_once(quiet: bool, capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.pettingzoo.__main__ import main

    assert main(["--seats", "3", "--seed", "1", *(["--quiet"] if quiet else [])]) == 0
    assert capsys.readouterr().out.count("won by ") == 1
