"""The abstraction of large tables: a coarsening of the exact information set, and its
twin computed from the public log as the engine plays (``gnav.train.play.Tracker``)."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnav.abstraction import (
    ANY,
    BACKOFF,
    BANDS,
    FEATURES,
    SHIFT,
    Key,
    Layout,
    abstract_key,
    band,
    coarsen,
)
from gnav.infoset import infoset_key, key_of
from gnav.match import MatchState
from gnav.presets import PRESETS_LIST
from gnav.round import merge
from gnav.rules import Rules
from gnav.train.play import Tracker, deal
from gnav.views import seat_view

PRESETS = [p.name for p in PRESETS_LIST]


def test_bands_are_exact_below_five_and_take_the_lowest_member() -> None:
    assert [band(c) for c in range(6)] == [0, 1, 2, 3, 4, 5]
    assert band(6) == 5 and band(9) == 7 and band(12) == 10 and band(40) == 28
    assert all(band(b) == b for b in BANDS)


def test_coarsen_reads_a_hand_written_key() -> None:
    # Position 2 of 5: its right neighbour (1) swapped with it, taking its IX; its left
    # neighbour (3) knocked; seat 0 knocked too.
    # Keys are ints; Layout.text writes them for people (and this test).
    gnav = Layout.of(Rules.of("gnav"))

    def text(key: str, layout: Layout = gnav, drop: frozenset[str] = frozenset()) -> str:
        return layout.text(coarsen(key, layout, drop))

    key = "2/5|9|3|K0,K3,S0,A12,W1:9:3"
    assert text(key) == "2|2|3|9|W|K|1"
    assert text(key, drop=frozenset({"gave", "k"})) == "2|2|3|*|W|K|*"
    # The dealer's left: nobody acted before it.
    assert text("0/12|owl|owl|", Layout.of(Rules.of("hypp"))) == "0|10|owl|-|-|-|0"
    # An ask of position 10 to 11 is not one of position 1 (codes have no separator).
    assert text("2/13|5|5|A1011,W10:5:4").split("|")[4] == "?"
    assert text("11/13|5|4|A1011,W10:5:4") == "10|1|4|5|W|-|0"
    # A request passed on by a Horse: the right neighbour swapped, not with the seat.
    assert text("2/13|horse|horse|A12,R2:horse,W1").split("|")[3:5] == ["-", "W"]
    # The dealer's left is the stock: its digit says whether every seat before it stood.
    assert text("3/4|5|5|S0,S1,S2") == "3|0|5|-|S|K|0"
    assert text("3/4|5|5|S0,A12,W1,S2") == "3|0|5|-|S|-|0"
    assert text("3/4|5|5|K1,S0,S2") == "3|0|5|-|S|-|1"  # seat 1 knocked: skipped
    assert text("2/4|5|5|S0,S1") == "2|1|5|-|S|-|0"  # not the dealer


def _check_twin(preset: str, n: int, seed: int) -> int:
    rules = Rules.of(preset)
    rng = Random(seed)
    state, _ = deal(rules, n, rng)
    tracker = Tracker(n, state.public)
    seen = 0
    while state.turn < n:
        pos = state.turn
        ids = rules.ids
        dealt = ids[state.deal[pos]]
        events = merge(state.public, state.private[pos], dealt)
        exact = key_of(tuple(range(n)), pos, dealt, ids[state.hands[pos]], events)
        assert tracker.key(state, pos) == coarsen(exact, Layout.of(rules))
        seen += 1
        state, ev = state.apply(rng.choice(state.legal_actions()))
        tracker.see(ev)
    return seen


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(2, 41), st.integers(0, 2**32))
def test_the_engine_twin_equals_the_view_key(preset: str, n: int, seed: int) -> None:
    rules = Rules.of(preset)
    n = min(n, rules.max_seats)
    if n < rules.min_seats:
        return
    assert _check_twin(preset, n, seed) >= 1


def test_the_abstract_key_of_a_view_is_the_coarsened_information_set() -> None:
    rules = Rules.of("gnav")
    rng = Random(3)
    match = MatchState.new(rules, tuple(f"s{i}" for i in range(12)), seed=3).deal(rng=rng)
    keys = []
    while not match.round.over:  # type: ignore[union-attr]
        seat = match.to_act
        assert seat is not None
        view = seat_view(match, seat)
        key = abstract_key(view)
        assert key == coarsen(infoset_key(view), Layout.of(rules))
        assert len(Layout.of(rules).unpack(key)) == len(FEATURES)
        keys.append(key)
        match, _ = match.apply(rng.choice(match.legal_actions()))
    assert keys


@pytest.mark.parametrize("preset", ["gnav", "slabberjan"])
def test_knocks_count_only_what_the_seat_sees(preset: str) -> None:
    # Under silent knocks nobody else's knock is in the view, so no key counts one.
    rules = Rules.of(preset)
    rng = Random(5)
    knocks = set()
    for _ in range(200):
        state, _ = deal(rules, 10, rng)
        tracker = Tracker(10, state.public)
        for pos in range(10):
            k = Layout.of(rules).text(tracker.key(state, pos)).split("|")
            knocks.add((k[5], k[6]))
    if rules.knock_public:
        assert ("K", "0") in knocks and ("-", "1") in knocks
    else:
        assert knocks == {("-", "0")}


# -- keys are ints (issue 28 §2) ---------------------------------------------------------

def _keys(layout: Layout) -> st.SearchStrategy[Key]:
    digit = [st.one_of(st.just(ANY), st.integers(0, r - 1)) for r in layout.radix]
    return st.builds(Key, *digit)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["gnav", "chase-the-ace", "kille"]), st.data())
def test_a_key_packs_into_its_bits_and_back(preset: str, data: st.DataObject) -> None:
    layout = Layout.of(Rules.of(preset))
    key = data.draw(_keys(layout))
    packed = layout.pack(key)
    assert layout.unpack(packed) == key
    assert layout.read_text(layout.text(packed)) == packed
    # Nothing left out: below size, the batch engine's index; else the mask says what.
    mask = sum(1 << f for f, x in enumerate(key) if x == ANY)
    assert packed >> SHIFT == mask and (mask or packed < layout.size)
    # The back-off on an int and on an array of int64 is one function, with one result;
    # it leaves out BACKOFF's first features and keeps every other digit.
    coarse = layout.backoffs(packed)
    array = np.array([packed], dtype=np.int64)
    for step, k in enumerate(coarse, 1):
        assert k == layout.backoff(packed, step) == int(layout.backoff(array, step)[0])
        out = layout.unpack(k)
        for f, name in enumerate(FEATURES):
            dropped = name in BACKOFF[:step]
            assert out[f] == (ANY if dropped else key[f])


def test_keys_out_of_range_or_unknown_are_refused() -> None:
    layout = Layout.of(Rules.of("gnav"))
    with pytest.raises(ValueError, match="piece 21 is not below 21"):
        layout.pack(Key(0, 0, 21, 0, 0, 0, 0))
    for text in ("0|1|nonesuch|-|-|-|0", "6|1|3|-|-|-|0", "0|1|3|-|X|-|0", "0|1|3|-|-|-|3",
                 "0|1|3|-|-|-", "0|1|3|-|-|-|x"):
        with pytest.raises(ValueError, match="not a gnav-abstraction/1 key"):
            layout.read_text(text)
