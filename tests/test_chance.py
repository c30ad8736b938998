"""Stock draws as chance steps (round.py, match.py): a round dealt with its stock undrawn
stops where a request reaches the stock, offers chance's outcomes and goes on with the
piece applied, exactly as the same stock fixed at the deal would have played."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings

from gnav.bots.random_bot import RandomBot
from gnav.errors import IllegalActionError, MalformedError
from gnav.events import Answer, Ask, Draw, Event, RoundEnd, RoundStart, StockEmpty
from gnav.match import MatchState
from gnav.record import from_match
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.runner import play_round
from gnav.views import seat_view, spectator_view
from gnav.vocab import Phase
from roundkit import assert_conserved
from strategies import Setup, play_match, setups


def _same_but_the_stock(undrawn: MatchState, known: MatchState) -> None:
    """Everything equal but what the undrawn round cannot know: the stock's pieces that
    chance has not drawn (the known round holds them all)."""
    assert undrawn._replace(round=None, history=()) == known._replace(round=None, history=())
    pairs = [(undrawn.round, known.round),
             *zip(undrawn.history, known.history, strict=True)]
    for a, b in pairs:
        assert a is not None and b is not None
        if a is b:  # a round before this one, taken from the known match
            continue
        assert a.stock == b.stock[: len(a.stock)] and len(a.stock) == a.drawn
        assert len(a.stock) + a.undrawn == len(b.stock) and b.undrawn == 0
        assert a.stock_left() == b.stock_left()
        assert a._replace(stock=(), undrawn=0) == b._replace(stock=())
        # Events compare as plain tuples (Stand(3) == Knock(3)): compare by repr too.
        assert repr(a.public) == repr(b.public) and repr(a.private) == repr(b.private)
    for seat in range(known.seat_count):
        assert seat_view(undrawn, seat) == seat_view(known, seat)
    assert spectator_view(undrawn) == spectator_view(known)


def _draw_as_chance_decides(match: MatchState, stock: tuple[int, ...]) -> tuple[
        MatchState, tuple[Event, ...]]:
    """Chance's steps of ``match`` until a seat decides or the round ends, each drawing
    the piece the known ``stock`` holds there, every chance node checked on the way."""
    events: tuple[Event, ...] = ()
    while match.phase == Phase.DRAW:
        rnd = match.round
        assert rnd is not None and rnd.to_act is None and match.to_act is None
        assert rnd.legal_actions() == () and match.legal_actions() == ()
        for seat in range(match.seat_count):
            view = seat_view(match, seat)
            assert view.phase == Phase.DRAW and view.legal == () and view.to_act is None
        # The pool, by a second method: what the known stock holds below its draws.
        pool = Counter(stock[rnd.drawn:])
        total = sum(pool.values())
        assert rnd.undrawn == total == rnd.stock_left()
        assert match.chance_outcomes() == tuple(
            (piece, Fraction(pool[piece], total)) for piece in sorted(pool))
        with pytest.raises(IllegalActionError):
            match.apply("swap")
        match, more = match.apply(stock[rnd.drawn])
        events += more
    return match, events


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_drawing_as_chance_decides_plays_as_the_stock_fixed_at_the_deal(setup: Setup) -> None:
    # Every preset, random options: each round of a random match dealt again with the
    # same hands and its stock undrawn, its decisions applied and every draw made by
    # chance as the known stock had it, gives the same events, payments and views.
    played = play_match(setup, rounds=12)
    before = setup.new_match()
    for states, events, actions in zip(played.rounds, played.events, played.actions,
                                       strict=True):
        known = states[0].round
        assert known is not None
        match = before.deal(known.deal)
        assert match.round is not None and match.round.stock == ()
        _same_but_the_stock(match, states[0])
        for (seat, action), after, said in zip(actions, states[1:], events, strict=True):
            match, got = match.apply_for(seat, action)
            match, more = _draw_as_chance_decides(match, known.stock)
            assert repr(got + more) == repr(said)
            _same_but_the_stock(match, after)
            assert match.round is not None
            assert_conserved(match.round)
        before = states[-1]


def test_the_property_meets_chance_often() -> None:
    # The property above compares something: random play draws from the stock in most
    # matches, and through pass pieces (Horse, House) some of the time.
    nodes = passes = 0
    rules = Rules.of("gnav")
    for seed in range(60):
        match = MatchState.new(rules, ["a", "b", "c", "d"], dealer=seed % 4)
        deck = rules.shuffle(Random(seed))
        stock = tuple(deck[4:])
        match = match.deal(deck[:4])
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while match.phase != Phase.DEAL:
            if match.phase == Phase.DRAW:
                nodes += 1
                rnd = match.round
                assert rnd is not None
                match, events = match.apply(stock[rnd.drawn])
                passes += any(isinstance(e, Answer) and e.power == "pass" for e in events)
                continue
            seat = match.to_act
            assert seat is not None
            match, _ = match.apply(bots[seat].act(seat_view(match, seat)))
    assert nodes >= 20 and passes >= 1


# -- by hand ---------------------------------------------------------------------------


def _gnav(*pieces: str, preset: str = "gnav", **options: object) -> tuple[Rules, MatchState]:
    rules = Rules.of(preset, **options)
    match = MatchState.new(rules, [f"s{i}" for i in range(len(pieces))],
                           dealer=len(pieces) - 1)
    return rules, match.deal([rules.index(p) for p in pieces])


def test_the_dealers_swap_waits_for_chance_with_the_probabilities_by_hand() -> None:
    # gnav: 21 pieces twice. Dealt 5 and 9, the stock holds 40: one 5, one 9, two of
    # every other piece.
    rules, match = _gnav("5", "9")
    assert match.phase == Phase.PLAY and match.round is not None
    start = match.round.public[0]
    assert isinstance(start, RoundStart) and start.stock == match.round.stock_left() == 40
    assert match.chance_outcomes() == ()
    match, _ = match.apply("stand")
    match, events = match.apply("swap")  # the dealer asks the stock
    assert [type(e) for e in events] == [Ask] and events[0] == Ask(1, None)
    rnd = match.round
    assert rnd is not None
    assert match.phase == rnd.phase == Phase.DRAW and match.to_act is None
    assert "chance draws" in repr(rnd)
    outcomes = dict(match.chance_outcomes())
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1
    assert outcomes[rules.index("5")] == outcomes[rules.index("9")] == Fraction(1, 40)
    assert outcomes[rules.index("cuckoo")] == Fraction(2, 40)
    match, events = match.apply(rules.index("3"))
    assert isinstance(events[0], Draw) and isinstance(events[-1], RoundEnd)
    assert match.phase == Phase.DEAL
    assert match.history[-1].stock == (rules.index("3"),)
    assert match.history[-1].hands == (rules.index("5"), rules.index("3"))


def test_pass_pieces_drawn_set_aside_and_chance_draws_again() -> None:
    rules, match = _gnav("5", "9")
    match, _ = match.apply("stand")
    match, _ = match.apply("swap")
    horse = rules.index("horse")
    match, events = match.apply(horse)  # Horse passes the request on: draw again
    (answer,) = events
    assert isinstance(answer, Answer) and answer.power == "pass"
    assert match.phase == Phase.DRAW and match.round is not None
    assert match.round.aside == (horse,) and match.round.stock_left() == 39
    assert dict(match.chance_outcomes())[horse] == Fraction(1, 39)
    match, _ = match.apply(horse)  # the other Horse: chance has no third
    assert horse not in dict(match.chance_outcomes())
    with pytest.raises(IllegalActionError, match="left in the stock"):
        match.apply(horse)


def test_an_undrawn_stock_of_pass_pieces_runs_out() -> None:
    # One copy of each piece, 20 seats: the stock's one piece is whatever was not dealt.
    rules = Rules.of("gnav", copies=1)
    dealt = [p for p in range(len(rules.pieces)) if rules.ids[p] != "horse"]
    rnd = RoundState.start(rules, range(20), dealt, None, [4] * 20)
    for _ in range(19):
        rnd, _ = rnd.apply("stand")
    rnd, _ = rnd.apply("swap")
    assert rnd.phase == Phase.DRAW
    assert rnd.chance_outcomes() == ((rules.index("horse"), Fraction(1)),)
    rnd, events = rnd.apply(rules.index("horse"))
    assert [type(e) for e in events][:2] == [Answer, StockEmpty] and rnd.over


def test_wrong_steps_at_a_chance_node_and_before_it() -> None:
    rules, match = _gnav("5", "9")
    rnd = match.round
    assert rnd is not None
    with pytest.raises(MalformedError):
        rnd.apply(rules.index("3"))  # a piece where a seat decides
    rnd, _ = rnd.apply("stand")
    rnd, _ = rnd.apply("swap")
    for wrong in ("stand", "swap", -1, 99, True, "3"):
        with pytest.raises(IllegalActionError):
            rnd.apply(wrong)
    with pytest.raises(IllegalActionError, match="chance"):
        rnd.apply_for(1, "swap")
    with pytest.raises(MalformedError):
        match.apply_for(0, rules.index("3"))  # a piece where a seat decides
    match, _ = match.apply("stand")
    match, _ = match.apply("swap")
    with pytest.raises(IllegalActionError, match="no decision is due"):
        match.apply_for(1, "swap")


def test_the_game_loop_stops_where_chance_draws_and_records_refuse_undrawn_rounds() -> None:
    _, match = _gnav("5", "9", "cuckoo", "2")
    played, _ = play_round(match, [RandomBot(i) for i in range(4)])
    assert played.phase in (Phase.DRAW, Phase.DEAL)
    # The dealer's swap always reaches the stock: a random bot swaps at some seed.
    for seed in range(20):
        played, _ = play_round(match, [RandomBot(seed * 4 + i) for i in range(4)])
        if played.phase == Phase.DRAW:
            break
    assert played.phase == Phase.DRAW
    with pytest.raises(MalformedError, match="undrawn"):
        from_match(played)


def test_a_known_stock_never_meets_chance() -> None:
    rules = Rules.of("gnav")
    rnd = RoundState.start(rules, (0, 1), [rules.index("5"), rules.index("9")],
                           [rules.index("3")], [4, 4])
    assert rnd.chance_pool() == (0,) * len(rules.pieces) and rnd.undrawn == 0
    rnd, _ = rnd.apply("stand")
    rnd, events = rnd.apply("swap")
    assert rnd.over and not rnd.drawing and rnd.chance_outcomes() == ()
    assert isinstance(events[0], Ask) and isinstance(events[1], Draw)


def test_the_docs_example_runs_and_says_the_odds_by_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "chance.md").read_text("utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(code, "docs/chance.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    # 40 pieces left: one 5 and one 9 (each dealt once), two of each of the other 19.
    assert len(lines) == 21
    assert "cuckoo 1/20" in lines and "5 1/40" in lines and "9 1/40" in lines


def _chance_steps(rules: Rules, seed: int) -> list[RoundState]:
    """Every chance step met in random rounds of ``rules`` (stock undrawn), seeded."""
    rng = Random(seed)
    found: list[RoundState] = []
    for _ in range(60):
        n = rng.randint(2, 6)
        deck = rules.shuffle(rng)
        rnd = RoundState.start(rules, range(n), deck[:n], None, (3,) * n)
        while not rnd.over:
            if rnd.drawing:
                found.append(rnd)
                pieces = [p for p, _ in rnd.chance_outcomes()]
                rnd, _ = rnd.apply(rng.choice(pieces))
            else:
                rnd, _ = rnd.apply(rng.choice(rnd.legal_actions()))
    return found


@pytest.mark.parametrize("preset", ["gnav", "hypp", "cuccu", "kille"])
def test_a_redraw_is_the_draw_of_the_other_plain_piece(preset: str) -> None:
    rules = Rules.of(preset)
    steps = _chance_steps(rules, 7)
    assert steps
    checked = over = 0
    for step in steps:
        plain = [p for p, _ in step.chance_outcomes() if rules.effects[p] is None]
        if len(plain) < 2:
            continue
        first, _ = step.apply(plain[0])
        for piece in plain[1:]:
            want, _ = step.apply(piece)
            got = step.redraw(first, piece)
            assert got == want
            assert repr(got.public) == repr(want.public)
            assert repr(got.private) == repr(want.private)
            checked += 1
            over += want.over
    assert checked > 20 and over > 0  # both kinds met: a draw that ends the round, and not


def test_a_redraw_refuses_what_is_no_plain_draw() -> None:
    rules = Rules.of("gnav")
    step = next(s for s in _chance_steps(rules, 3)
                if any(rules.effects[p] is not None for p, _ in s.chance_outcomes()))
    pieces = [p for p, _ in step.chance_outcomes()]
    plain = next(p for p in pieces if rules.effects[p] is None)
    matador = next(p for p in pieces if rules.effects[p] is not None)
    first, _ = step.apply(plain)
    with pytest.raises(IllegalActionError):
        step.redraw(first, matador)
    with pytest.raises(IllegalActionError):
        first.redraw(first, plain)  # no chance step
