"""The coach and the analysis: figures from one seat's view, never from hidden pieces."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnav
from gnav.cli import main
from gnav.match import MatchState
from gnav.odds.analyse import analyse, mark
from gnav.odds.coach import advise, table_for
from gnav.record import dumps, from_match, loads, parse
from gnav.rules import Rules
from gnav.views import seat_view
from gnav.vocab import Action

LIVES = 1000


def _hidden_shuffled(rules: Rules, deck: list[int], n: int, focal: int,
                     rng: Random) -> list[int]:
    """``deck`` (hands then stock) with every piece the focal position cannot see moved
    around: other hands and the stock, fools kept where they are (a knock is public)."""
    fools = {i for i, p in enumerate(rules.pieces) if p.fool}
    movable = [i for i in range(len(deck)) if i != focal and deck[i] not in fools]
    pieces = [deck[i] for i in movable]
    rng.shuffle(pieces)
    out = list(deck)
    for i, p in zip(movable, pieces, strict=True):
        out[i] = p
    return out


def _view_after_stands(rules: Rules, deck: list[int], n: int, focal: int) -> object:
    match = MatchState.new(rules, [f"s{i}" for i in range(n)], dealer=n - 1,
                           lives=dict.fromkeys(range(n), LIVES))
    match = match.deal(deck[:n], deck[n:])
    for _ in range(focal):
        if match.to_act is None or Action.STAND not in match.legal_actions():
            return None
        match, _ = match.apply(Action.STAND)
    if match.to_act != focal:
        return None
    return seat_view(match, focal)


@settings(max_examples=24, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(3, 6), focal=st.integers(0, 5),
       preset=st.sampled_from(["gnav", "kille", "cuccu", "gnav-1917", "hypp"]))
def test_hidden_pieces_never_move_a_coach_figure(seed: int, seats: int, focal: int,
                                                 preset: str) -> None:
    """Exact (3 and 4 seats) or sampled (5 and 6): the coach's figures for a seat are
    the same whatever the pieces it cannot see."""
    rules = Rules.of(preset)
    if not rules.min_seats <= seats <= rules.max_seats:
        seats = rules.min_seats
    focal %= seats
    rng = Random(seed)
    deck = rules.shuffle(rng)
    other = _hidden_shuffled(rules, deck, seats, focal, rng)
    assert other != deck or len(set(deck)) == 1
    a = _view_after_stands(rules, deck, seats, focal)
    b = _view_after_stands(rules, other, seats, focal)
    if a is None or b is None:
        return
    assert a == b  # the seat sees the same; the pieces it cannot see differ
    first, second = advise(a, samples=24), advise(b, samples=24)  # type: ignore[arg-type]
    assert (first is None) == (second is None)
    if first is not None and second is not None:
        assert first.as_json() == second.as_json()


def test_the_exact_coach_is_the_atlas() -> None:
    """At the dealer's left with nothing before it, the coach's lookup and the atlas's
    own figures for that seat and piece are one computation's."""
    pytest.importorskip("numpy")
    from gnav.odds.exact import from_tree
    from gnav.strategies import shipped

    rules = Rules.of("gnav")
    strategy = shipped(rules, 3)
    assert strategy is not None and table_for(rules, 3) is not None
    got, _ = from_tree(rules, 3, strategy)
    rng = Random(4)
    seen = 0
    while seen < 8:
        deck = rules.shuffle(rng)
        view = _view_after_stands(rules, deck, 3, 0)
        assert view is not None
        if view.knocked:  # type: ignore[attr-defined]
            continue
        advice = advise(view)  # type: ignore[arg-type]
        assert advice is not None and advice.source == "exact"
        choice = got.choices[0, "plain", view.piece]  # type: ignore[attr-defined]
        assert advice.pay_stand.value == pytest.approx(choice.pay_stand.value, abs=1e-6)
        assert advice.pay_swap.value == pytest.approx(choice.pay_swap.value, abs=1e-6)
        assert advice.expert == (Action.SWAP if choice.swap > 0.5 else Action.STAND)
        seen += 1


def test_the_sampled_coach_is_bounded_and_agrees_with_counter() -> None:
    """At 6 seats the coach samples (a fixed number of deals) with the counter bot's
    model; its stand-minus-swap gap has the sign of counter's own estimate wherever the
    gap is clear."""
    from gnav.bots.counter import CounterBot

    rules = Rules.of("gnav")
    rng = Random(9)
    counter = CounterBot(seed=1, samples=256, adaptive=False)
    checked = 0
    for _ in range(12):
        match = MatchState.new(rules, [f"s{i}" for i in range(6)], dealer=5).deal(rng=rng)
        view = seat_view(match, 0)
        advice = advise(view, samples=64)
        costs = counter.costs(view)
        assert advice is not None and advice.source == "sampled" and costs is not None
        assert advice.samples == 64
        gain = advice.swap_gain
        assert gain.low is not None and gain.high is not None
        if gain.low > 0.05 or gain.high < -0.05:
            # counter's costs are lives lost: swapping gains when it costs less.
            assert (costs[Action.STAND] - costs[Action.SWAP] > 0) == (gain.value > 0)
            checked += 1
    assert checked >= 3


def _match_record(seats: int, seed: int, lives: int = 6) -> dict[str, object]:
    rules = Rules.of("gnav", lives=lives)
    names = ["Expert", "Random"] + [f"T{i}" for i in range(seats - 2)]
    bots = [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2)] + \
        [gnav.make_bot("threshold", seed=3 + i) for i in range(seats - 2)]
    final = gnav.play_match(rules, names, bots, seed=seed)
    return from_match(final)


def test_marks_follow_the_documented_thresholds() -> None:
    assert [mark(c) for c in (0.0, 0.019, 0.02, 0.049, 0.05, 0.149, 0.15, 2.0)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder",
        "blunder"]


def test_the_expert_loses_nothing_to_its_own_decisions_at_a_solved_table() -> None:
    data = _match_record(3, 5)
    result = analyse(parse(data))
    assert result.exact
    expert, rand = result.totals[0], result.totals[1]
    assert expert.cost == pytest.approx(0.0, abs=1e-9)
    assert rand.cost > expert.cost
    assert all(d.cost >= 0 for d in result.decisions)
    for d in result.decisions:
        best = max(d.advice.lives_stand.value, d.advice.lives_swap.value)
        taken = d.advice.lives_swap if d.action == Action.SWAP else d.advice.lives_stand
        assert d.cost == pytest.approx(best - taken.value)


def test_unseen_stock_pieces_never_move_the_analysis() -> None:
    """Two records alike but for the order of stock pieces nobody drew: the same
    analysis, figure for figure."""
    data = _match_record(3, 11, lives=3)
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    changed = json.loads(json.dumps(data))
    moved = 0
    for rr, original in zip(changed["rounds"], rounds, strict=True):
        # Pieces drawn are the stock's top; the bottom half of the stock is never reached
        # in a 3-seat round (at most a few draws).
        stock = rr["stock"]
        half = len(stock) // 2
        tail = stock[half:]
        tail.reverse()
        rr["stock"] = stock[:half] + tail
        moved += rr["stock"] != original["stock"]
        rr.pop("result", None)
    assert moved
    changed.pop("result", None)
    changed = json.loads(dumps(changed))
    first = analyse(parse(data)).as_json()
    second = analyse(parse(changed)).as_json()
    assert first["decisions"] == second["decisions"]


def test_gnav_analyse_marks_a_random_seat(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(dumps(_match_record(3, 5)), encoding="utf-8")
    assert main(["analyse", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["Random"]["cost"] > data["totals"]["Expert"]["cost"]
    assert main(["analyse", str(path)]) == 0
    assert "Random" in capsys.readouterr().out
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert loads(path.read_text(encoding="utf-8")).seats[0] == "Expert"


def test_every_coach_table_was_made_from_the_strategy_that_ships() -> None:
    """The exact coach (2 to 4 seats) looks its figures up in tables made from the solved
    strategies: each table's expert P(swap) is the shipped strategy's at every key, so a
    strategy solved again without its table made again fails here (``gnav odds
    --coach-tables`` makes the missing ones)."""
    import gzip

    from gnav.odds.coach import HERE
    from gnav.strategies import shipped

    checked = set()
    for path in sorted(HERE.glob("*.json.gz")):
        data = json.loads(gzip.decompress(path.read_bytes()))
        rules = Rules.of(data["preset"])
        strategy = shipped(rules, int(data["seats"]))
        assert strategy is not None, path.name
        # One table a game (issue 28): named by the game its strategy was solved for.
        assert strategy.preset == data["preset"], path.name
        assert path.name == f"{strategy.preset}-{strategy.seats}.json.gz"
        assert data["options"] == strategy.options, path.name
        rows = sorted(data["keys"].items())
        for key, row in Random(path.name).sample(rows, min(400, len(rows))):
            p = strategy.swap_probability(key)
            assert p is not None and row[1] == pytest.approx(p, abs=2e-6), (path.name, key)
        checked.add(int(data["seats"]))
    assert 4 in checked


def test_the_coach_is_exact_at_four_seats() -> None:
    rules = Rules.of("gnav")
    assert table_for(rules, 4) is not None
    # Every preset of one game reads the game's table; a large table's gnav
    # (two_fools = pay) reads gnav-pagat's, whose strategy it plays.
    assert table_for(Rules.of("gnav-rulebook"), 4) is table_for(rules, 4)
    pay = table_for(Rules.of("gnav", two_fools="pay"), 3)
    assert pay is not None and pay is table_for(Rules.of("gnav-pagat"), 3)
    assert pay is not table_for(rules, 3)
    rng = Random(2)
    for _ in range(6):
        deck = rules.shuffle(rng)
        view = _view_after_stands(rules, deck, 4, rng.randrange(4))
        if view is None:
            continue
        advice = advise(view)  # type: ignore[arg-type]
        if advice is not None:
            assert advice.source == "exact"
            for f in (advice.pay_stand, advice.pay_swap):
                assert f.exact and 0.0 <= f.value <= 1.0


@settings(max_examples=10, deadline=None)
@given(preset=st.sampled_from(["gnav", "kille", "cuccu", "gnav-1917", "hypp"]),
       seats=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_the_analysis_reads_views_only(preset: str, seats: int, seed: int) -> None:
    """Two records alike in everything any seat could see, different in pieces nobody
    saw (each round's stock below the last piece drawn, reordered): the analysis is the
    same, every figure of every decision and every seat's totals, exact or sampled."""
    rules = Rules.of(preset, lives=1)
    if not rules.min_seats <= seats <= rules.max_seats:
        seats = rules.min_seats
    names = [f"P{i}" for i in range(seats)]
    bots = [gnav.RandomBot(seed=seed + i) if i % 2 else
            gnav.make_bot("threshold", seed=seed + i) for i in range(seats)]
    final = gnav.play_match(rules, names, bots, seed=seed)
    data = json.loads(dumps(from_match(final)))
    from gnav.record import replay

    ends = [seen[-1].round for seen in replay(parse(data)).states]
    drawn = [0 if end is None else end.drawn for end in ends]
    changed = json.loads(json.dumps(data))
    moved = 0
    for rr, k in zip(changed["rounds"], drawn, strict=True):
        stock = rr["stock"]
        tail = stock[k:]
        Random(seed).shuffle(tail)
        rr["stock"] = stock[:k] + tail
        moved += rr["stock"] != stock
        rr.pop("result", None)
    changed.pop("result", None)
    first = analyse(parse(data), samples=8).as_json()
    second = analyse(parse(json.loads(dumps(changed))), samples=8).as_json()
    assert first == second
    if moved:  # the stocks differ in pieces nobody saw, and nothing else moved
        assert changed["rounds"] != data["rounds"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.sampled_from([6, 10, 20]))
def test_the_batch_coach_replays_each_deal_as_the_reference_engine_does(
        seed: int, seats: int) -> None:
    """Where a trained policy ships, the sampled coach plays its deals on the compiled
    engine, from the deal with the earlier seats forced to what they did. At the
    dealer's turn nobody plays after, so the two engines must give the same figures,
    deal for deal: the deals rebuilt from the sampler and the history replayed are the
    reference engine's round."""
    pytest.importorskip("numba")
    import gnav.odds.coach as coach

    rules = Rules.of("gnav")
    rng = Random(seed)
    # Lives of every count, so that the chance to win (issue 29 §4: each playout's
    # lives valued by the model) differs from seat to seat and one life can put a seat out.
    lives = {i: rng.randint(1, 4) for i in range(seats)}
    match = MatchState.new(rules, [f"s{i}" for i in range(seats)],
                           dealer=seats - 1, lives=lives).deal(rng=rng)
    walk = gnav.RandomBot(seed)
    while match.to_act is not None and match.to_act != seats - 1:
        match, _ = match.apply(walk.act(seat_view(match, match.to_act)))
        if match.round is None or match.round.over:
            return
    view = seat_view(match, seats - 1)
    if len(view.legal) < 2:
        return
    batch = coach.sampled(view, 48, Action.STAND, 0.0)
    from gnav.bots.counter import Deals

    deals = Deals.of(view, coach._model(rules))
    assert deals is not None and coach._batch_policy(view, deals) is not None
    saved = coach._batch_policy
    try:
        coach._batch_policy = lambda v, d: None  # type: ignore[assignment]
        reference = coach.sampled(view, 48, Action.STAND, 0.0)
    finally:
        coach._batch_policy = saved
    assert batch is not None and reference is not None
    for a, b in ((batch.pay_stand, reference.pay_stand), (batch.pay_swap, reference.pay_swap),
                 (batch.lives_stand, reference.lives_stand),
                 (batch.lives_swap, reference.lives_swap)):
        assert a.value == pytest.approx(b.value, abs=1e-9)
    # The chance to win: the batch engine's columns' changes and the reference engine's
    # lives by seat, each valued by the model, give one figure deal for deal.
    assert batch.win_source == reference.win_source == "model"
    assert batch.win_stand == pytest.approx(reference.win_stand, abs=1e-9)
    assert batch.win_swap == pytest.approx(reference.win_swap, abs=1e-9)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.sampled_from([3, 6]))
def test_the_coach_and_the_analysis_say_the_same_of_a_shared_view(seed: int,
                                                                  seats: int) -> None:
    """Issue 26: the analysis of a decision is the coach's answer at that decision (the
    same figures by the same method, the coach's own number of deals), its verdict and
    its mark never contradict each other, and no decision is marked good above the
    good threshold."""
    from gnav.odds.verdict import CLOSE, GOOD
    from gnav.record import replay

    rules = Rules.of("gnav", lives=1)
    names = [f"P{i}" for i in range(seats)]
    bots = [gnav.RandomBot(seed=seed + i) if i % 2 else gnav.make_bot("threshold", seed=i)
            for i in range(seats)]
    record = parse(from_match(gnav.play_match(rules, names, bots, seed=seed)))
    # A stated sample of the rounds keeps the test short (the budget's own path).
    result = analyse(record, budget=6)
    assert result.analysed and set(d.round for d in result.decisions) <= set(result.analysed)
    rep = replay(record)
    views = {}
    for k, seen in enumerate(rep.states, 1):
        for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False):
            views[k, seat] = seat_view(before, seat)
    for d in result.decisions[:4]:
        coach = advise(views[d.round, d.seat])
        assert coach is not None and coach.as_json() == d.advice.as_json()
    for d in result.decisions:
        said = d.advice.verdict
        if d.mark == "good":
            assert d.cost < GOOD
        if said == str(d.action):
            assert d.cost == 0.0 and d.mark == "good"
        elif said == CLOSE:
            assert d.mark in ("good", CLOSE)
        else:  # the figures clearly favour the other action
            assert d.shortfall.low is None or d.shortfall.low > 0.0
            assert d.mark != CLOSE


def test_the_sampled_coach_draws_until_the_gap_is_known_or_the_cap() -> None:
    """Deals are drawn a batch at a time until the standard error of the gap between
    the actions (paired on the same deals) is below what the pages print, or the cap:
    the answer says how many, and its interval shows which stopped it."""
    from gnav.odds import coach
    from gnav.odds.figures import Z
    from gnav.odds.verdict import PRINTED

    rules = Rules.of("gnav")
    rng = Random(5)
    capped = stopped = 0
    for _ in range(6):
        match = MatchState.new(rules, [f"s{i}" for i in range(6)], dealer=5).deal(rng=rng)
        advice = advise(seat_view(match, 0))
        assert advice is not None and advice.source == "sampled"
        assert advice.samples % coach.BATCH == 0
        gain = advice.swap_gain
        assert gain.low is not None and gain.high is not None
        error = (gain.high - gain.low) / 2 / Z
        if error >= PRINTED * (1 - 1e-9):
            assert advice.samples >= min(coach.MOST, coach.MOST_REFERENCE)
            capped += 1
        else:
            stopped += 1
    assert stopped >= 1


def test_every_exact_table_holds_the_chances_of_each_ending() -> None:
    """Every shipped exact table holds, per information set and action, the chance of
    each way the round ends for the lives; each is a distribution whose changes at the
    deciding position give the table's lives (two measures of the tree, one check)."""
    import gzip

    from gnav.odds.coach import HERE, ending_pairs

    seats = set()
    for path in sorted(HERE.glob("*.json.gz")):
        data = json.loads(gzip.decompress(path.read_bytes()))
        changes = data["changes"]
        assert set(data["ends"]) == set(data["keys"]), path.name
        assert all(len(c) == data["seats"] for c in changes), path.name
        for key, row in data["keys"].items():
            pos = int(key.split("/")[0])
            for a in (0, 1):
                pairs = ending_pairs(data["ends"][key][a])
                assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-4), \
                    (path.name, key)
                lives = sum(p * changes[k][pos] for k, p in pairs)
                assert lives == pytest.approx(row[4 + a], abs=1e-4), (path.name, key, a)
        seats.add(data["seats"])
    assert seats == {2, 3, 4}


def test_an_exact_lookup_without_a_match_file_values_its_round_by_the_lives_model() -> None:
    """chase-the-ace at 3 seats and 5 lives: no match file, so the coach's chance to win
    is its exact table's round valued by the lives model. Checked against the round
    enumerated through the engine (tests/endkit.py), each ending valued by the model,
    at lives where seats are near the end."""
    from endkit import Endings
    from gnav.infoset import infoset_key
    from gnav.odds.match_coach import match_chances
    from gnav.odds.match_model import ModelWins

    rules = Rules.of("chase-the-ace", lives=5)
    walked = Endings(rules, 3)
    rng = Random(5)
    seen = 0
    for i in range(60):
        lives = [(5, 2, 1), (1, 1, 3), (2, 1, 1)][i % 3]
        match = MatchState.new(rules, ["a", "b", "c"], dealer=2,
                               lives=dict(enumerate(lives)))
        deck = rules.shuffle(rng)
        match = match.deal(deck[:3], deck[3:])
        focal = i % 3
        while match.to_act is not None and match.to_act != focal:
            legal = match.legal_actions()
            match, _ = match.apply(Action.STAND if Action.STAND in legal else legal[0])
        if match.to_act != focal:
            continue
        view = seat_view(match, focal)
        key = infoset_key(view)
        if len(view.legal) < 2 or walked.weight[key] < 1e-9:
            continue
        advice = advise(view)
        assert advice is not None and advice.source == "exact"
        assert match_chances(view) is None
        assert advice.win_source == "model"
        model = ModelWins(view)
        for got, want in zip((advice.win_stand, advice.win_swap), walked.chances(key),
                             strict=True):
            expected = sum(p * model.after(c) for c, p in want.items())
            assert got == pytest.approx(expected, abs=1e-5), (lives, key)
        seen += 1
    assert seen >= 15
