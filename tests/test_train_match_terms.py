"""Training in match terms: each row at a lives state, each seat at its class's table,
a decision valued in the change of its seat's chance to win the match."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.fast import jit
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.tables import Tables
from gnav.lives_class import CLASSES, column_classes
from gnav.match_value import round_in_match
from gnav.round import STAND, SWAP, RoundState
from gnav.rules import Rules
from gnav.train.batch import Config, State, train
from gnav.train.match_terms import field_states, match_sums
from gnav.train.play import Policy, Tracker, play_out


def _reference(rules: Rules, before: tuple[int, ...], deck: list[int], u: list[float],
               policies: list[Policy]) -> list[tuple[int, int, int, float]]:
    """Each decision of a round dealt ``deck`` at lives ``before`` on the reference
    engine: (position, abstract key, action taken, the decider's win chance after the
    other action less after its own), every line played to its end."""
    n = len(before)
    state = RoundState.start(rules, tuple(range(n)), tuple(deck[:n]), tuple(deck[n:]),
                             before, checked=True)
    tracker = Tracker(n, state.public)
    branches = []
    while state.turn < n:
        pos = state.turn
        legal = state.legal_actions()
        if len(legal) == 2:
            key = tracker.key(state, pos)
            took = 1 if u[pos] < policies[pos](key) else 0
            branches.append((state, tracker.copy(), pos, key, took))
            act = SWAP if took else STAND
        else:
            act = legal[0]
        state, events = state.apply(act)
        tracker.see(events)
    main = [a - b for a, b in zip(state.lives, before, strict=True)]
    out = []
    for st, tr, pos, key, took in branches:
        nxt, events = st.apply(STAND if took else SWAP)
        tr.see(events)
        final = play_out(nxt, tr, u, policies)
        other = [a - b for a, b in zip(final, before, strict=True)]
        gap = round_in_match(before, other)[pos] - round_in_match(before, main)[pos]
        out.append((pos, key, took, gap))
    return out


def _class_table(current: np.ndarray, cls: int, size: int) -> Policy:
    return lambda key: float(current[cls * size + key])


def test_match_sums_are_the_reference_engines_rounds_valued_in_win_chance() -> None:
    """Second method: the same decks, draws and lives states dealt to the reference
    engine, each seat at its class's table, each decision played the other way there and
    valued by ``gnav.match_value.round_in_match``, give the same sums at the same
    (class, key) indices."""
    rules = Rules.of("gnav")
    ab = GnavAbstraction(rules)
    n, rows, seed = 4, 120, 5
    states = [((1, 2, 1, 3), 0.4), ((2, 1, 1, 1), 0.3), ((4, 4, 1, 2), 0.3)]
    current = np.random.default_rng(2).random(CLASSES * ab.size)
    visited, sums = match_sums(rules, n, rows, current, states, seed=seed,
                               rng=np.random.default_rng(7))
    before = np.array([s for s, _ in states])[
        np.random.default_rng(7).choice(len(states), size=rows, p=[0.4, 0.3, 0.3])]
    decks = jit.decks(Tables.of(rules), seed, rows)
    u = jit.uniforms(seed, rows, n)
    ref: dict[int, list[float]] = {}
    for r in range(rows):
        lives = tuple(int(x) for x in before[r])
        classes = column_classes(lives)
        policies = [_class_table(current, c, ab.size) for c in classes]
        for pos, key, took, gap in _reference(rules, lives, [int(p) for p in decks[r]],
                                              [float(x) for x in u[r]], policies):
            index = classes[pos] * ab.size + key
            p = float(current[index])
            v1, v0 = (0.0, gap) if took else (gap, 0.0)
            mean = (1 - p) * v0 + p * v1
            s = ref.setdefault(index, [0.0, 0.0, 0.0, 0.0])
            for i, x in enumerate((v0 - mean, v1 - mean, p, 1.0)):
                s[i] += x
    mine = {int(i): list(s) for i, s in zip(visited, sums, strict=True)}
    assert set(mine) == set(ref)
    for index, s in ref.items():
        assert mine[index] == pytest.approx(s, abs=1e-9), index
    # Decisions at several classes, some gaining by the other action and some losing.
    assert len({i // ab.size for i in ref}) >= 4
    assert any(s[0] > 0 for s in ref.values()) and any(s[1] > 0 for s in ref.values())


def test_match_training_is_seeded_and_the_same_for_any_number_of_jobs() -> None:
    config = Config("gnav", (5, 6), seed=3, batches=2, shards=2, rounds=120,
                    terms="match", matches=30, tremble=0.3)
    one = train(config, jobs=1)
    two = train(config, jobs=2)
    assert len(one.weight) == CLASSES * GnavAbstraction(config.rules()).size
    assert np.array_equal(one.regret, two.regret) and one.rounds == 240
    assert np.array_equal(one.average(), two.average())
    other = train(Config("gnav", (5, 6), seed=4, batches=2, shards=2, rounds=120,
                         terms="match", matches=30, tremble=0.3))
    assert not np.array_equal(other.regret, one.regret)
    # Several classes met, and the lives-blind sums are the classes' added up.
    size = len(one.weight) // CLASSES
    assert (one.visits.reshape(CLASSES, size).sum(1) > 0).sum() >= 3
    blind = one.blind(CLASSES)
    assert blind.visits.sum() == one.visits.sum()
    assert np.allclose(blind.weight, sum(one.part(CLASSES, i).weight for i in range(CLASSES)))


def test_field_states_are_full_tables_at_the_rules_lives() -> None:
    states = field_states("gnav", (("lives", 2),), 3, 40)
    assert states and all(len(s) == 3 and min(s) >= 1 for s, _ in states)
    assert sum(p for _, p in states) == pytest.approx(1.0)
    assert max(max(s) for s, _ in states) <= 3  # 2 lives, and a life gained at most


def test_config_refuses_unknown_terms() -> None:
    with pytest.raises(ValueError, match="terms"):
        Config("gnav", (5,), terms="chips")
    with pytest.raises(ValueError, match="matches"):
        Config("gnav", (5,), terms="match", matches=0)


def test_a_state_of_one_part_is_a_view_of_the_whole() -> None:
    st = State(6)
    st.weight[:] = np.arange(6)
    assert st.part(3, 1).weight.tolist() == [2.0, 3.0]
    assert st.blind(3).weight.tolist() == [6.0, 9.0]
