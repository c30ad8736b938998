"""Property tests of the engine over every preset and random options (docs/spec/rules.md §7)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gnav.events import (
    Answer,
    Ask,
    Draw,
    Event,
    Gain,
    Knock,
    Pay,
    RoundEnd,
    RoundStart,
    Showdown,
    StockEmpty,
    Swap,
    Undo,
)
from gnav.match import MatchState
from gnav.record import dumps, from_match, loads, replay
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.verify import verify_text
from gnav.views import seat_view, spectator_view
from strategies import ROUND_BOUND, Setup, play_match, replay_round, setups

FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


# -- helpers -------------------------------------------------------------------------


def all_states(setup: Setup, rounds: int = ROUND_BOUND) -> list[MatchState]:
    played = play_match(setup, rounds=rounds)
    return [state for states in played.rounds for state in states]


def check_conservation(rnd: RoundState) -> None:
    rules = rnd.rules
    before = Counter(rnd.deal) + Counter(rnd.stock)
    after = Counter(rnd.hands) + Counter(rnd.stock[rnd.drawn:]) + Counter(rnd.aside)
    assert before == after, (before, after, rnd.public)
    assert all(count <= rules.options.copies for count in after.values()), after
    assert all(0 <= piece < len(rules.pieces) for piece in after), after
    assert 0 <= rnd.drawn <= len(rnd.stock)
    assert len(rnd.hands) == len(rnd.seats) == len(rnd.deal)


# -- 1. conservation -----------------------------------------------------------------


@FAST
@given(setups())
def test_pieces_are_conserved(setup: Setup) -> None:
    for state in all_states(setup, rounds=60):
        rnd = state.round
        assert rnd is not None
        check_conservation(rnd)
        # A shuffled deal uses the whole deck, each piece exactly ``copies`` times.
        assert Counter(rnd.deal) + Counter(rnd.stock) == Counter(setup.rules.deck)
        kinds = {type(e) for e in rnd.public}
        for kind in (Undo, Draw, StockEmpty):
            if kind in kinds:
                event(f"round with {kind.__name__}")


def test_conservation_covers_undo_draws_and_an_empty_stock() -> None:
    """The random matches above do reach undos and stock draws; an empty stock is
    reached here with an explicit short stock."""
    rules = Rules.of("gnav")
    seen: set[type] = set()
    for seed in range(30):
        for state in all_states(Setup(rules, 6, seed)):
            assert state.round is not None
            check_conservation(state.round)
            seen |= {type(e) for e in state.round.public}
    assert {Undo, Draw, Answer, Swap} <= seen
    rules = Rules.of("gnav", revealed="act")
    idx = rules.index
    match = MatchState.new(rules, ["A", "B", "C"], dealer=2)
    # C (dealer) holds the horse: B's request passes to the stock, which holds one 4.
    match = match.deal([idx("3"), idx("7"), idx("horse")], [idx("4")])
    match, _ = match.apply("stand")
    match, events = match.apply("swap")
    assert match.round is not None
    assert [type(e) for e in events][:3] == [Ask, Answer, Draw]
    check_conservation(match.round)
    match, events = match.apply("swap")  # the dealer asks the now empty stock
    assert any(type(e) is StockEmpty for e in events)
    assert match.round is not None
    check_conservation(match.round)
    assert match.round.aside == (idx("7"),)

    # A draw after a pass at the dealer, then an undo from the stock's Cat: the drawn 4
    # goes out of play and C's 2 comes home.
    match = MatchState.new(rules, ["A", "B", "C", "D"], dealer=3)
    match = match.deal([idx("3"), idx("7"), idx("2"), idx("horse")],
                       [idx("4"), idx("cat"), idx("5")])
    for action in ("stand", "stand", "swap", "swap"):
        match, _ = match.apply(action)
        assert match.round is not None
        check_conservation(match.round)
    rnd = match.round
    assert rnd is not None
    assert rnd.over and any(type(e) is Undo for e in rnd.public)
    assert rnd.hands == rnd.deal
    assert Counter(rnd.aside) == Counter([idx("4"), idx("cat")])


# -- 2. deterministic replays --------------------------------------------------------


@FAST
@given(setups(special_lives=True))
def test_replays_are_deterministic(setup: Setup) -> None:
    first = play_match(setup, rounds=80)
    second = play_match(setup, rounds=80)
    assert first.rounds == second.rounds
    assert first.final == second.final

    data = from_match(first.final)
    rep = replay(loads(dumps(data)))
    assert len(rep.states) == len(first.rounds)
    for k, (mine, theirs) in enumerate(zip(first.rounds, rep.states, strict=True), 1):
        assert len(mine) == len(theirs), f"round {k}"
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            ra, rb = a.round, b.round
            assert ra is not None and rb is not None
            where = f"round {k} step {i}"
            assert ra.hands == rb.hands, where
            assert ra.lives == rb.lives, where
            assert ra.turn == rb.turn, where
            assert ra.public == rb.public, where
            assert ra.private == rb.private, where
            assert a.lives == b.lives and a.out == b.out and a.dealer == b.dealer, where
            assert a.winners == b.winners, where
            assert a == b, where
    assert rep.final == first.final


# -- 3. records round-trip -----------------------------------------------------------


@FAST
@given(setups(special_lives=True))
def test_records_round_trip(setup: Setup) -> None:
    played = play_match(setup, rounds=80)
    data = from_match(played.final)
    text = dumps(data)
    assert json.loads(text) == data
    rep = replay(loads(text))
    assert from_match(rep.final) == data
    code, lines = verify_text(text, "x")
    assert code == 0, lines
    if played.final.over:
        assert data["result"]["winners"] == [setup.names[s] for s in played.final.winners or ()]


# -- 4. views hold nothing a seat may not know ---------------------------------------


def slot_piece(rnd: RoundState, slot: int) -> int:
    n = len(rnd.seats)
    return rnd.deal[slot] if slot < n else rnd.stock[slot - n]


def held_slots(rnd: RoundState, seat: int) -> tuple[set[int], list[int]]:
    """The deal/stock slots ``seat`` has held this round, tracked from the public log
    alone; and the slot each position holds at the end."""
    n = len(rnd.seats)
    pos = {s: p for p, s in enumerate(rnd.seats)}
    tokens = list(range(n))
    held = {tokens[pos[seat]]}
    next_stock = n
    for e in rnd.public:
        if type(e) is Swap:
            a, b = pos[e.seat], pos[e.target]
            tokens[a], tokens[b] = tokens[b], tokens[a]
        elif type(e) is Draw:
            tokens[pos[e.seat]] = next_stock
            next_stock += 1
        elif type(e) is Answer and e.seat is None:
            next_stock += 1
        elif type(e) is Undo:
            tokens = list(range(n))
        held.add(tokens[pos[seat]])
    assert next_stock - n == rnd.drawn
    return held, tokens


def swapped(rnd: RoundState, u: int, v: int) -> tuple[list[int], list[int]]:
    """The round's deal and stock with the pieces of slots ``u`` and ``v`` exchanged."""
    slots = [*rnd.deal, *rnd.stock]
    slots[u], slots[v] = slots[v], slots[u]
    n = len(rnd.seats)
    return slots[:n], slots[n:]


def hidden_ok(rules: Rules, piece: int) -> bool:
    """A piece whose place nobody learns before the showdown unless they hold it."""
    if rules.effects[piece] is not None:
        return False
    return not rules.fools[piece] or rules.options.knock == "silent"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 3), st.data())
def test_views_do_not_depend_on_unseen_slots(setup: Setup, before_rounds: int,
                                             data: st.DataObject) -> None:
    played = play_match(setup, rounds=before_rounds + 1)
    states = played.rounds[-1]
    actions = played.actions[-1]
    before = played.rounds[-2][-1] if len(played.rounds) > 1 else setup.new_match()
    rnd = states[-1].round
    assert rnd is not None
    rules = setup.rules
    seat = data.draw(st.sampled_from(rnd.seats), label="seat")
    held, tokens = held_slots(rnd, seat)
    # The tracker is right: the slots it ends on hold the hands the engine ends on.
    assert [slot_piece(rnd, t) for t in tokens] == list(rnd.hands)

    # The same deal dealt explicitly gives the same views (the baseline).
    same = replay_round(before, list(rnd.deal), list(rnd.stock), actions)
    assert same == states

    total = len(rnd.deal) + len(rnd.stock)
    pairs = [(u, v) for u in range(total) for v in range(u + 1, total)
             if u not in held and v not in held
             and hidden_ok(rules, slot_piece(rnd, u)) and hidden_ok(rules, slot_piece(rnd, v))
             and slot_piece(rnd, u) != slot_piece(rnd, v)]
    if pairs:
        u, v = data.draw(st.sampled_from(pairs), label="slots")
        deal, stock = swapped(rnd, u, v)
        other = replay_round(before, deal, stock, actions)
        assert len(other) == len(states)
        # Seats not dealt this round (out or sitting out) hold no slot either.
        watchers = [seat, *(s for s in range(setup.seats) if s not in rnd.seats)]
        for i in range(len(states) - 1):  # every step before the showdown
            for w in watchers:
                assert seat_view(other[i], w) == seat_view(states[i], w), (i, w, u, v)
            assert spectator_view(other[i]) == spectator_view(states[i]), (i, u, v)
    else:
        event("no unseen pair of plain slots")

    # Positive control: change the piece dealt to ``seat`` and its view changes.
    mine = rnd.seats.index(seat)
    others = [v for v in range(total) if slot_piece(rnd, v) != rnd.deal[mine]]
    v = data.draw(st.sampled_from(others), label="control")
    deal, stock = swapped(rnd, mine, v)
    changed = before.deal(deal, stock)
    assert seat_view(changed, seat) != seat_view(states[0], seat)
    assert seat_view(changed, seat).piece == rules.ids[slot_piece(rnd, v)]


def check_seat_knowledge(rnd: RoundState, seat: int, events: list[Event],
                         piece_now: str | None) -> None:
    """Every piece id in ``seat``'s merged events is one it may know; and following its
    own events it always knows which piece it holds."""
    rules = rnd.rules
    ids = rules.ids
    dealt = ids[rnd.deal[rnd.seats.index(seat)]]
    hand = dealt
    for e in events:
        if type(e) is RoundStart:
            assert e.piece == dealt
        elif type(e) is Swap:
            if seat in (e.seat, e.target):
                assert e.seat_got is not None and e.target_got is not None, e
                gave, got = ((e.target_got, e.seat_got) if seat == e.seat
                             else (e.seat_got, e.target_got))
                assert gave == hand, (e, hand)
                hand = got
            else:
                assert e.seat_got is None and e.target_got is None, e
        elif type(e) is Draw:
            if e.seat == seat:
                assert e.set_aside == hand, (e, hand)
                assert e.piece is not None
                assert rules.effects[rules.index(e.piece)] is None, e
                hand = e.piece
            else:
                assert e.piece is None and e.set_aside is None, e
        elif type(e) is Undo:
            assert e.piece == dealt, e
            hand = dealt
        elif type(e) is Answer:
            assert rules.effects[rules.index(e.piece)] is not None, e  # a revealed matador
        elif type(e) is Showdown:
            assert dict(e.hands)[seat] == hand
    assert piece_now == hand


@FAST
@given(setups(max_seats=8), st.integers(0, 2))
def test_merged_views_show_only_known_pieces(setup: Setup, before_rounds: int) -> None:
    played = play_match(setup, rounds=before_rounds + 1)
    for state in played.rounds[-1]:
        rnd = state.round
        assert rnd is not None
        for e in rnd.public:
            if type(e) is RoundStart:
                assert e.piece is None
            elif type(e) is Swap:
                assert e.seat_got is None and e.target_got is None
            elif type(e) is Draw:
                assert e.piece is None and e.set_aside is None
            elif type(e) is Undo:
                assert e.piece is None
            elif type(e) is Knock:
                assert rnd.rules.options.knock == "public"
                assert rnd.rules.fools[rnd.deal[rnd.seats.index(e.seat)]]
        spectator = spectator_view(state)
        assert spectator.events == list(rnd.public)
        assert spectator.piece is None and spectator.private == ()
        for seat in rnd.seats:
            view = seat_view(state, seat)
            assert view.events == rnd.seat_events(seat)
            check_seat_knowledge(rnd, seat, view.events, view.piece)


# -- 5. random play ends ---------------------------------------------------------------


@FAST
@given(setups())
def test_random_play_ends_the_match(setup: Setup) -> None:
    played = play_match(setup)
    final = played.final
    assert final.phase == "over", f"not over after {final.rounds} rounds"
    assert final.to_act is None and final.legal_actions() == ()
    winners = final.winners
    assert winners is not None and winners
    assert set(winners) <= set(range(setup.seats))
    assert list(winners) == sorted(set(winners))
    max_rounds = setup.rules.options.max_rounds
    alive = final.alive()
    if max_rounds is not None:
        assert final.rounds <= max_rounds
    if max_rounds is None or final.rounds < max_rounds:
        assert len(alive) <= 1  # ended by elimination
        assert (len(alive) == 1 and winners == alive) or (not alive and set(winners)
                                                            <= set(final.out))
    else:
        lives = final.lives
        best = max(lives[s] for s in alive) if alive else None
        if len(alive) >= 2:
            assert set(winners) == {s for s in alive if lives[s] == best}
    assert sorted([*final.out, *alive]) == list(range(setup.seats))
    assert len(set(final.out)) == len(final.out)


# -- 6. lives --------------------------------------------------------------------------


@FAST
@given(setups(special_lives=True))
def test_lives_change_only_through_pay_and_gain(setup: Setup) -> None:
    played = play_match(setup, rounds=100)
    expected = list(setup.new_match().start_lives)
    for states, round_events in zip(played.rounds, played.events, strict=True):
        assert tuple(expected) == states[0].current_lives() == states[0].lives
        for state, events in zip(states[1:], round_events, strict=True):
            for e in events:
                if type(e) is Pay:
                    assert e.paid == (expected[e.seat] > 0), (e, expected)
                    assert e.lives == max(expected[e.seat] - 1, 0), (e, expected)
                    expected[e.seat] = e.lives
                elif type(e) is Gain:
                    assert e.lives == expected[e.seat] + 1, (e, expected)
                    expected[e.seat] = e.lives
                elif type(e) is RoundEnd:
                    assert tuple(e.lives) == tuple(expected), (e, expected)
            assert min(expected) >= 0
            assert tuple(expected) == state.current_lives()
            assert spectator_view(state).lives == tuple(expected)
            rnd = state.round
            assert rnd is not None and min(rnd.lives) >= 0
