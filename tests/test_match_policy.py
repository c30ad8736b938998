"""Match policies: the file a match training writes (a table a lives class and the
lives-blind one), its reader (standard library only) and its lookups."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gnav.abstraction import SHIFT, Layout
from gnav.cli import main
from gnav.errors import MalformedError
from gnav.lives_class import CLASSES
from gnav.rules import Rules
from gnav.strategies.match_policy import (
    MATCH_POLICY_FORMAT,
    load_match_policy,
    parse_match_policy,
)
from gnav.train.batch import State
from gnav.train.match_export import match_policy_data


def _data(tmp_path: Path) -> tuple[dict[str, Any], int, int]:
    """A state with one key met often at class 5 and class 7 (each its own answer),
    and thinly at class 2: the file's data, the key and the table size."""
    rules = Rules.of("gnav")
    layout = Layout.of(rules)
    key = layout.index(1, 2, 3, layout.pieces, 1, 0, 0)
    size = key + 1
    st = State(CLASSES * size)
    for cls, w, p, visits in ((5, 10.0, 0.9, 200), (7, 30.0, 0.1, 300), (2, 1.0, 0.5, 3)):
        st.weight[cls * size + key] = w
        st.swap[cls * size + key] = w * p
        st.visits[cls * size + key] = visits
    st.rounds = 100
    return match_policy_data(rules, (5, 6), st, min_visits=50, seed=1), key, size


def test_each_class_answers_and_a_thin_one_falls_to_the_lives_blind(tmp_path: Path) -> None:
    data, key, _ = _data(tmp_path)
    assert data["format"] == MATCH_POLICY_FORMAT and data["meta"]["terms"] == "match"
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    policy = load_match_policy(str(path))
    assert policy.seats == (5, 6) and policy.fits(Rules.of("gnav"), 6)
    assert not policy.fits(Rules.of("gnav"), 7)
    assert policy.lookup(5, key) == pytest.approx(0.9)
    assert policy.lookup(7, key) == pytest.approx(0.1)
    # Class 2 met it 3 times (below 50): the lives-blind answer, every class pooled.
    blind = (9.0 + 3.0 + 0.5) / 41.0
    assert policy.lookup(2, key) == pytest.approx(blind, abs=1e-6)
    assert policy.lookup(0, key) == pytest.approx(blind, abs=1e-6)
    # A key no class met: the lives-blind table's back-off (the key without ``gave``),
    # whatever the class; a class holds its own keys only, no back-offs.
    other = policy.blind.layout.index(1, 2, 3, 4, 1, 0, 0)
    assert policy.lookup(5, other) == policy.lookup(7, other) == \
        pytest.approx(blind, abs=1e-6)
    assert policy.classes[5] == {key: 900_000} and policy.classes[2] == {}


def test_gnav_train_in_match_terms_writes_a_match_policy(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    out = tmp_path / "m.json.gz"
    assert main(["train", "--preset", "gnav", "--seats", "6", "--batches", "1",
                 "--rounds", "40", "--jobs", "1", "--min-visits", "1", "--terms", "match",
                 "--matches", "5", "--out", str(out)]) == 0
    assert "a table a lives class" in capsys.readouterr().out
    policy = load_match_policy(str(out))
    assert policy.seats == (5, 6) and len(policy.classes) == CLASSES
    met = [k for c in policy.classes for k in c if k >> SHIFT == 0]
    assert met and all(policy.blind.swap_probability(k) is not None for k in met)


@pytest.mark.parametrize(("change", "says"), [
    ({"format": "gnav-policy/2"}, "not a gnav match policy"),
    ({"lives": {"features": ["own"], "classes": 3}}, "other lives classes"),
    ({"classes": []}, "12 objects"),
    ({"blind": {"keys": [3, 2], "swap": [0, 0]}}, "ascending"),
    ({"classes": [{"keys": [1], "swap": [2_000_000]}] * CLASSES}, "class 0: 'swap'"),
    ({"classes": [{"keys": [1]}] * CLASSES}, "missing field 'swap'"),
    ({"scale": "x"}, "invalid literal"),
])
def test_bad_match_policy_files_are_one_line(tmp_path: Path, change: dict[str, Any],
                                             says: str) -> None:
    data, _, _ = _data(tmp_path)
    path = tmp_path / "bad.json.gz"
    path.write_bytes(gzip.compress(json.dumps({**data, **change}).encode()))
    with pytest.raises(MalformedError, match=says) as e:
        load_match_policy(str(path))
    assert "\n" not in str(e.value)
    with pytest.raises(MalformedError):
        parse_match_policy([1, 2], "list")


def test_state_arrays_as_the_trainer_leaves_them(tmp_path: Path) -> None:
    data, key, size = _data(tmp_path)
    assert data["meta"]["class_keys"][5] == 1 and data["meta"]["class_keys"][0] == 0
    assert np.array(data["blind"]["keys"]).min() <= key < size


def test_shipped_match_policies_load_fit_and_are_in_the_newest_set() -> None:
    from gnav.strategies.match import CUCCU_3, MATCH_SETS, NEWEST_STRATEGIES
    from gnav.strategies.match_policy import shipped_match_policies, shipped_match_policy

    files = shipped_match_policies()
    assert {p.name for p in files} >= {"gnav-5-6.json.gz", "gnav-7-9.json.gz"}
    rules = Rules.of("gnav")
    for path in files:
        policy = load_match_policy(str(path))
        lo, hi = policy.seats
        assert f"policy/gnav-{lo}-{hi}" in MATCH_SETS[NEWEST_STRATEGIES]
        assert shipped_match_policy(rules, hi) is policy
        assert shipped_match_policy(rules, hi, MATCH_SETS[NEWEST_STRATEGIES]) is policy
        assert shipped_match_policy(rules, hi, MATCH_SETS[CUCCU_3]) is None  # not its set
        assert policy.blind.meta["terms"] == "match"
        assert all(k >> SHIFT == 0 for c in policy.classes for k in c)  # own keys only
        assert sum(map(len, policy.classes)) > 1000
    assert shipped_match_policy(rules, 4) is None
