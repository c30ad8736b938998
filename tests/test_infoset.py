"""Information set keys: exactly the deciding seat's view of its round, nothing hidden."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnav.errors import IllegalActionError
from gnav.events import Event
from gnav.infoset import infoset_key, key_of
from gnav.match import MatchState
from gnav.round import RoundState, merge
from gnav.rules import Rules
from gnav.views import seat_view, spectator_view


def play_to_decisions(rules: Rules, seats: int, seed: int) -> list[tuple[MatchState, int]]:
    """Every decision of a few rounds of random play: (match, seat to act)."""
    rng = Random(seed)
    match = MatchState.new(rules, tuple(f"s{i}" for i in range(seats)), seed=seed)
    out = []
    for _ in range(60):
        if match.over:
            break
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        out.append((match, seat))
        match, _ = match.apply(rng.choice(match.legal_actions()))
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 5),
       preset=st.sampled_from(["gnav", "gnav-1917", "hypp", "slabberjan", "cuccu"]))
def test_the_view_key_is_the_solvers_key(seed: int, seats: int, preset: str) -> None:
    """The solver builds keys from the round with seats numbered by position; the bot
    from a view at a real table (dealer anywhere, seats out): the same key."""
    rules = Rules.of(preset)
    for match, seat in play_to_decisions(rules, seats, seed):
        rnd = match.round
        assert rnd is not None
        pos = rnd.position(seat)
        # The round renumbered: position i is seat i.
        order = tuple(range(len(rnd.seats)))
        dealt = rules.ids[rnd.deal[pos]]
        renumbered = key_of(order, pos, dealt, rules.ids[rnd.hands[pos]],
                            _renumber(merge(rnd.public, rnd.private[pos], dealt), rnd))
        assert infoset_key(seat_view(match, seat)) == renumbered


def _renumber(events: list[Event], rnd: RoundState) -> list[Event]:
    pos = {s: i for i, s in enumerate(rnd.seats)}
    out: list[Event] = []
    for e in events:
        fields: dict[str, Any] = {}
        for name in ("seat", "target", "to", "asker", "by"):
            value = getattr(e, name, None)
            if name in getattr(e, "_fields", ()) and value is not None:
                fields[name] = pos[value]
        out.append(e._replace(**fields) if fields else e)
    return out


def _round(rules: Rules, deal: list[str], seats: tuple[int, ...] = (0, 1, 2),
           lives: tuple[int, ...] = (4, 4, 4)) -> RoundState:
    idx = [rules.index(p) for p in deal]
    stock = list(rules.deck)
    for i in idx:
        stock.remove(i)
    return RoundState.start(rules, seats, idx, stock, lives)


def _key(rnd: RoundState, pos: int) -> str:
    ids = rnd.rules.ids
    dealt = ids[rnd.deal[pos]]
    return key_of(rnd.seats, rnd.seats[pos], dealt, ids[rnd.hands[pos]],
                  merge(rnd.public, rnd.private[pos], dealt))


def test_hidden_pieces_do_not_change_the_key() -> None:
    """Position 2 (the dealer) after position 0 swapped with position 1 and position 1
    stood: what 0 and 1 hold is hidden from the dealer, so two deals that differ only
    there give the dealer one key; the dealer's own piece changes it."""
    rules = Rules.of("gnav")
    keys = set()
    for deal in (["3", "7", "10"], ["5", "9", "10"], ["owl", "1", "10"]):
        rnd = _round(rules, deal)
        rnd, _ = rnd.apply("swap")
        rnd, _ = rnd.apply("stand")
        keys.add(_key(rnd, 2))
    assert keys == {"2/3|10|10|A01,W0,S1"}
    rnd = _round(rules, ["3", "7", "11"])
    rnd, _ = rnd.apply("swap")
    rnd, _ = rnd.apply("stand")
    assert _key(rnd, 2) != "2/3|10|10|A01,W0,S1"


def test_own_swap_and_revealed_matadors_are_in_the_key() -> None:
    rules = Rules.of("gnav")
    rnd, _ = _round(rules, ["3", "7", "10"]).apply("swap")
    # Position 1 gave its 7 and got the 3: it sees both pieces of its own swap.
    assert _key(rnd, 1) == "1/3|7|3|A01,W0:7:3"
    rnd, _ = _round(rules, ["3", "dragoon", "10"]).apply("swap")
    assert _key(rnd, 2) == "2/3|10|10|A01,R1:dragoon,P0s:dragoon"


def test_lives_and_seat_numbers_are_not_in_the_key() -> None:
    rules = Rules.of("gnav")
    a = _round(rules, ["3", "dragoon", "10"]).apply("swap")[0]
    b = _round(rules, ["3", "dragoon", "10"], seats=(4, 0, 2),
               lives=(1, 4, 2, 3, 9)).apply("swap")[0]
    assert _key(a, 2) == _key(b, 2)


def test_a_spectator_has_no_key() -> None:
    match = MatchState.new(Rules.of("gnav"), ("a", "b", "c"), seed=1).deal(rng=Random(1))
    with pytest.raises(IllegalActionError):
        infoset_key(spectator_view(match))
