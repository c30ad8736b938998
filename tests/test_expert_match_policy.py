"""``expert`` at a table with a trained match policy: the table of its decision's lives
class, on the reference engine (``ExpertBot``) and in whole matches on the batch engine
(``ExpertPolicy(match=True)``), the two held to the same answers; ``expert-round`` and
older versions of the shipped set go on playing the round policy."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from time import perf_counter

import numpy as np
import pytest

from gnav.abstraction import abstract_key
from gnav.bots.expert import ExpertBot
from gnav.fast.expert import ExpertPolicy
from gnav.fast.matches import play_matches
from gnav.fast.policies import ThresholdPolicy
from gnav.lives_class import CLASSES, column_classes, view_class
from gnav.rules import Rules
from gnav.strategies import match_policy as mp
from gnav.strategies.match import CUCCU_3, MATCH_SETS, NEWEST_STRATEGIES
from gnav.strategies.match_policy import MATCH_POLICY_FORMAT, load_match_policy
from gnav.strategies.policy import shipped_policy
from gnav.vocab import Action
from recordkit import played

SET = 999  # a version of the shipped set holding the test's match policy


def _pure(key: int, salt: int) -> int:
    """A pure answer (0 or the scale, 1000) that differs between classes."""
    return 1000 * ((key * 31 + salt * 7) // 5 % 2)


@pytest.fixture
def shelf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A shipped gnav 5-6 match policy of pure answers, in a set of its own: each class
    answers two keys in three of the round policy's (its own answer), the rest fall to
    the lives-blind table (pure too)."""
    rules = Rules.of("gnav")
    round_policy = shipped_policy(rules, 6)
    assert round_policy is not None
    keys = sorted(round_policy.swap)
    classes = []
    for c in range(CLASSES):
        mine = [k for k in keys if (k + c) % 3]
        classes.append({"keys": mine, "swap": [_pure(k, c + 1) for k in mine]})
    data = {"format": MATCH_POLICY_FORMAT, "preset": "gnav", "seats": [5, 6],
            "options": round_policy.options, "abstraction": "gnav-abstraction/1",
            "pieces": list(rules.ids), "scale": 1000, "dealer_stood": True, "meta": {},
            "lives": {"features": ["own", "left", "right"], "classes": CLASSES},
            "blind": {"keys": keys, "swap": [_pure(k, 0) for k in keys]},
            "classes": classes}
    (tmp_path / "gnav-5-6.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
    monkeypatch.setattr(mp, "MATCH_POLICIES", tmp_path)
    monkeypatch.setitem(MATCH_SETS, SET, MATCH_SETS[NEWEST_STRATEGIES] | {"policy/gnav-5-6"})
    mp._index.cache_clear()
    yield tmp_path
    mp._index.cache_clear()


def test_expert_plays_its_lives_class_and_expert_round_the_round(shelf: Path) -> None:
    rules = Rules.of("gnav")
    policy = load_match_policy(str(shelf / "gnav-5-6.json.gz"))
    expert = ExpertBot(3, strategies=SET)
    before = ExpertBot(3, strategies=CUCCU_3)  # a table of a set before match policies
    rnd = ExpertBot(3, match=False, strategies=SET)
    assert expert.plays(rules, 6) == "the trained match policy of gnav at 5-6 seats"
    assert before.plays(rules, 6) == rnd.plays(rules, 6) == \
        "the trained policy of gnav at 5-6 seats"
    assert expert.match_policy(rules, 4) is None  # solved exactly there: not trained
    classes: set[int] = set()
    differ = 0
    for _, view in played(rules, 6, 4, 6):
        if len(view.legal) != 2 or len(view.order) < 5:
            continue
        cls = view_class(view)
        key = abstract_key(view)
        p = expert.probabilities(view)[Action.SWAP]
        assert p == policy.lookup(cls, key)
        assert before.probabilities(view) == rnd.probabilities(view)
        classes.add(cls)
        differ += p != rnd.probabilities(view)[Action.SWAP]
    assert len(classes) >= 4 and differ > 0


def test_the_batch_expert_plays_the_bots_table_of_each_class(shelf: Path) -> None:
    """Second method: at views of random matches, the batch expert's table at the size's
    row plus the view's class, at the view's abstract key, is the bot's P(swap)."""
    rules = Rules.of("gnav")
    bot = ExpertBot(0, strategies=SET)
    batch = ExpertPolicy(rules, 7, match=True, strategies=SET)
    size = batch.abstraction.size
    assert batch.classed[5] and batch.classed[6] and not batch.classed[7]
    assert not batch.classed[4] and batch.plays[6] == bot.plays(rules, 6)
    seen = 0
    for _, view in played(rules, 6, 5, 4):
        n = len(view.order)
        if len(view.legal) != 2 or n < 5:
            continue
        row = batch.which[n] + view_class(view)
        p = bot.probabilities(view)[Action.SWAP]
        assert batch.stack[row * size + abstract_key(view)] == pytest.approx(p)
        seen += 1
    assert seen > 50


def test_whole_matches_on_the_batch_engine_choose_by_each_columns_class(
        shelf: Path) -> None:
    """Pure answers: every decision of whole matches at 6 seats, beside a threshold
    seat (a second policy in the stack), is the match policy's answer at the column's
    class of the lives its round began with, tracked here round by round."""
    rules = Rules.of("gnav")
    policy = load_match_policy(str(shelf / "gnav-5-6.json.gz"))
    expert = ExpertPolicy(rules, 6, match=True, strategies=SET)
    threshold = ThresholdPolicy(rules)
    matches = 40
    lives = np.full((matches, 6), rules.options.lives, np.int64)
    checked = 0
    classes: set[int] = set()
    weight = expert.abstraction.layout.weight[2]
    pieces = expert.abstraction.pieces
    by_threshold = 0

    def watch(number: int, rows: np.ndarray, cols: np.ndarray, rnd: object) -> None:
        nonlocal checked, by_threshold
        for i, r in enumerate(rows.tolist()):
            seats = [s for s in cols[i].tolist() if s >= 0]
            off = 6 - len(seats)
            start = [int(lives[r, s]) for s in seats]
            for j, s in enumerate(seats):
                c = off + j
                key = int(rnd.keys[i, c])  # type: ignore[attr-defined]
                if key >= 0 and s == 0:  # the second policy's table, after the expert's
                    piece = key // weight % pieces
                    act = rnd.actions[i, c]  # type: ignore[attr-defined]
                    assert act == threshold.table[piece]
                    by_threshold += 1
                if key < 0 or s == 0 or len(seats) < 5:
                    continue  # below 5 seats the round's tables
                cls = column_classes(start)[j]
                want = policy.lookup(cls, key)
                if want in (0.0, 1.0):  # a decision with both actions legal
                    assert rnd.actions[i, c] == want  # type: ignore[attr-defined]
                    checked += 1
                    classes.add(cls)
            for j, s in enumerate(seats):
                lives[r, s] = rnd.lives[i, off + j]  # type: ignore[attr-defined]

    play_matches(rules, 6, matches, [expert, threshold], rng=np.random.default_rng(2),
                 seat_policy=[1, 0, 0, 0, 0, 0], watch=watch)
    assert checked > 200 and len(classes) >= 6 and by_threshold > 50


def test_a_decision_costs_little(shelf: Path) -> None:
    """The expert's decision at a match policy: well under a millisecond (0.2 ms
    measured, docs/strategy.md); the bound here is loose for a loaded machine."""
    rules = Rules.of("gnav")
    expert = ExpertBot(1, strategies=SET)
    views = [v for _, v in played(rules, 6, 6, 3) if len(v.legal) == 2 and len(v.order) >= 5]
    expert.act(views[0])  # the file read once
    start = perf_counter()
    for view in views:
        expert.act(view)
    assert (perf_counter() - start) / len(views) < 0.005


def test_a_field_of_one_table_a_class_brackets_as_that_table() -> None:
    """Second method: a match policy's field whose classes all hold one table plays
    every row as that table does, so its brackets (lives and match terms, each row at
    the state its valuation draws) are the table's own."""
    from gnav.fast.match_response import MatchTerms
    from gnav.fast.response import Valuation, brackets, lives_terms

    rules = Rules.of("gnav")
    round_policy = shipped_policy(rules, 6)
    assert round_policy is not None
    from gnav.fast.abstraction import abstract_table

    table = abstract_table(rules, round_policy)[0]
    states = [((1, 2, 4, 4, 3, 1), 0.5), ((4, 4, 4, 4, 4, 4), 0.3), ((2, 1, 1, 2, 3, 4), 0.2)]
    terms: dict[str, Valuation] = {"lives": lives_terms,
                                   "match": MatchTerms(states, seed=4)}
    one = brackets(rules, 6, table, 3000, terms, key="abstraction", seed=4)
    many = brackets(rules, 6, np.tile(table, (CLASSES, 1)), 3000, terms,
                    key="abstraction", seed=4, states=states)
    for name in terms:
        assert many[name].per_position == one[name].per_position
        assert many[name].keys == one[name].keys
    with pytest.raises(ValueError, match="lives class"):
        brackets(rules, 6, np.tile(table, (CLASSES, 1)), 10, terms)


def test_gnav_exploit_measures_a_match_policys_field(shelf: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    from gnav.cli import main

    monkeypatch.setitem(MATCH_SETS, NEWEST_STRATEGIES, MATCH_SETS[SET])
    assert main(["exploit", "--preset", "gnav", "--seats", "6", "--field", "expert",
                 "--terms", "lives,match", "--rows", "2000", "--matches", "30",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plays"] == "the trained match policy of gnav at 5-6 seats"
    assert out["lives_states"] > 1 and len(out["match"]["positions"]) == 6
    assert out["match"]["in_sample"]["value"] >= out["match"]["held_out"]["value"] - 0.05
