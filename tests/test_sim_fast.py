"""The batch simulator is the reference engine, row by row: on the same deals, stock
order and decisions, every round of every match gives the same swaps (the hands at the
showdown), the same events that pay (per seat), payments, lives, sit-outs, dealers and
winners as ``gnav.match.MatchState``.

The property test plays every preset with random options and random per-piece policies
(two of them, so one seat plays another policy), and also checks that the rare paths
(the Cat's undo, stock draws, pass chains, the drag, two fools) were reached. Whole
matches play on the compiled engine (``play_matches``); single rounds with features on
the numpy engine.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gnav.events import Answer, Ask, Draw, Gain, Pay, StockEmpty, Undo
from gnav.match import MatchState
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.sim.fast.deck import Deck
from gnav.sim.fast.engine import Rounds
from gnav.sim.fast.jit import JitRounds
from gnav.sim.fast.matches import play_matches
from gnav.sim.fast.policies import PiecePolicy, ThresholdPolicy
from gnav.sim.fast.tables import Tables
from gnav.vocab import Action
from strategies import rules_strategy

Ints = np.ndarray


class Reference:
    """Plays the same matches through gnav.match, one round at a time, and compares."""

    def __init__(self, rules: Rules, seats: int, matches: int, dealers: list[int],
                 seed: int) -> None:
        self.rules = rules
        self.seed = seed
        names = [f"S{i}" for i in range(seats)]
        self.states = [MatchState.new(rules, names, dealer=d) for d in dealers]
        self.decks: dict[tuple[int, int], list[int]] = {}
        self.seen: Counter[str] = Counter()

    def deck(self, number: int, match: int) -> list[int]:
        key = (number, match)
        if key not in self.decks:
            self.decks[key] = self.rules.shuffle(Random(self.seed * 7919 + match * 1009 + number))
        return self.decks[key]

    def decks_for(self, number: int, rows: Ints, n: Ints) -> Deck:
        return Deck.given([self.deck(number, int(m)) for m in rows])

    def watch(self, number: int, rows: Ints, order: Ints, rnd: JitRounds) -> None:
        ids = self.rules.ids
        for i, m in enumerate(rows.tolist()):
            match = self.states[m]
            assert match.winners is None, "the batch played a round of a finished match"
            assert match.rounds == number - 1
            seats = [s for s in order[i].tolist() if s >= 0]
            assert tuple(seats) == match.turn_order()
            col = {s: c for c, s in enumerate(order[i].tolist()) if s >= 0}
            deck = self.deck(number, m)
            n = len(seats)
            match = match.deal(deck[:n], deck[n:])
            decided = set()
            while match.to_act is not None:
                seat = match.to_act
                action = int(rnd.actions[i, col[seat]])
                assert action >= 0, f"the reference asks seat {seat}, the batch did not"
                decided.add(col[seat])
                match, _ = match.apply(Action.SWAP if action else Action.STAND)
            assert decided == set(np.flatnonzero(rnd.actions[i] >= 0).tolist())
            last = match.history[-1]
            assert [ids[p] for p in last.hands] == \
                [ids[int(rnd.hands[i, col[s]])] for s in seats]
            assert last.drawn == rnd.drawn[i]
            assert str(last.ended_by) == ("turns" if rnd.ended_by[i] < 0
                                          else ids[rnd.ended_by[i]])
            pays = Counter(e.seat for e in last.public if type(e) is Pay)
            gains = Counter(e.seat for e in last.public if type(e) is Gain)
            for s in seats:
                assert pays[s] == rnd.pays[i, col[s]], f"seat {s}'s payments"
                assert gains[s] == rnd.gains[i, col[s]], f"seat {s}'s gains"
                assert last.lives[s] == rnd.lives[i, col[s]], f"seat {s}'s lives"
            assert set(last.sit_out) == {s for s in seats if rnd.sit_out[i, col[s]]}
            self.states[m] = match
            self.count(last, rnd, i)

    def count(self, last: object, rnd: JitRounds, i: int) -> None:
        public = last.public  # type: ignore[attr-defined]
        kinds = Counter(type(e).__name__ for e in public)
        self.seen["undo"] += kinds[Undo.__name__] > 0
        self.seen["stock draw"] += kinds[Draw.__name__] > 0
        self.seen["stock empty"] += kinds[StockEmpty.__name__] > 0
        passes = [e for e in public if type(e) is Answer and e.power == "pass"]
        self.seen["pass chain"] += any(e.seat is not None for e in passes)
        self.seen["drag"] += any(type(e) is Pay and e.reason == "fool" for e in public)
        self.seen["two fools"] += any(type(e) in (Pay, Gain) and e.reason == "two_fools"
                                      for e in public)
        self.seen["sit out"] += bool(last.sit_out)  # type: ignore[attr-defined]
        self.seen["unpaid"] += any(type(e) is Pay and not e.paid for e in public)


def check_matches(rules: Rules, seats: int, matches: int, seed: int, probs: list[float],
                  other: list[float]) -> Reference:
    rng = np.random.default_rng(seed)
    dealers = [int(d) for d in rng.integers(0, seats, matches)]
    ref = Reference(rules, seats, matches, dealers, seed)
    who = np.zeros((matches, seats), np.int8)
    who[:, 0] = 1
    state = play_matches(rules, seats, matches, [PiecePolicy(probs), PiecePolicy(other)],
                         rng=rng, decks=ref.decks_for, seat_policy=who, dealer=dealers,
                         max_rounds=60, watch=ref.watch)
    for m, match in enumerate(ref.states):
        assert (match.winners is not None) == bool(state.over[m])
        if match.winners is not None:
            assert set(match.winners) == set(np.flatnonzero(state.winners[m]).tolist())
        else:
            assert match.dealer == state.dealer[m]
        assert match.lives == tuple(state.lives[m].tolist())
        assert set(match.out) == set(np.flatnonzero(state.out[m]).tolist())
    return ref


def test_the_batch_is_the_reference_engine_on_every_preset_and_option() -> None:
    seen: Counter[str] = Counter()

    def check(rules: Rules, data: st.DataObject, seed: int) -> None:
        # Now and then a full table (a stock of one piece or a few), where draws empty it.
        full = rules.max_seats <= 45 and data.draw(st.integers(0, 4)) == 0
        seats = rules.max_seats if full else \
            data.draw(st.integers(rules.min_seats, min(rules.max_seats, 14)))
        p = len(rules.pieces)
        probs = data.draw(st.lists(st.floats(0.2, 1.0), min_size=p, max_size=p))
        other = data.draw(st.lists(st.floats(0.0, 1.0), min_size=p, max_size=p))
        ref = check_matches(rules, seats, 6, seed, probs, other)
        seen.update(ref.seen)

    for preset in sorted(PRESETS):  # every preset, each with random options
        settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))(
            given(rules=rules_strategy((preset,)), data=st.data(),
                  seed=st.integers(0, 2**31))(check))()
    for path in ("undo", "stock draw", "stock empty", "pass chain", "drag", "two fools",
                 "sit out", "unpaid"):
        assert seen[path] > 0, f"no round reached: {path}"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_with_its_own_options(preset: str) -> None:
    rules = Rules.of(preset)
    seats = min(rules.max_seats, 9)
    p = len(rules.pieces)
    probs = [0.4 + 0.5 * (i % 3 == 0) for i in range(p)]
    check_matches(rules, max(seats, rules.min_seats), 8, 3, probs, probs[::-1])


def test_the_threshold_policy_is_the_threshold_bot() -> None:
    from gnav.bots.threshold import ThresholdBot
    from gnav.views import seat_view

    rules = Rules.of("gnav")
    pol = ThresholdPolicy(rules)
    tables = Tables.of(rules)
    deck = Deck.shuffled(tables, 400, 6, np.random.default_rng(5))
    rnd = Rounds(tables, deck, 6, 6).play([pol])
    ref = Reference(rules, 6, 1, [5], 0)
    bot = ThresholdBot()
    for r in range(400):
        match = ref.states[0]._replace(lives=(4,) * 6, out=())
        d = [int(x) for x in deck.deck[r]]
        match = match.deal(d[:6], d[6:])
        while match.to_act is not None:
            col = match.round.turn  # type: ignore[union-attr]
            action = bot.act(seat_view(match, match.to_act))
            assert (action is Action.SWAP) == bool(rnd.actions[r, col])
            match, _ = match.apply(action)


def test_the_features_are_what_the_view_holds() -> None:
    """At every decision of random rounds, the features the batch gives a policy equal
    the same facts read from the deciding seat's SeatView (so they hold nothing hidden)."""
    from gnav.events import Knock, Stand, Swap
    from gnav.sim.fast.decision import Decision
    from gnav.sim.fast.policies import FunctionPolicy
    from gnav.views import seat_view

    for preset, seats, opts in (("gnav", 9, {}), ("gnav-1917", 5, {"revealed": "act"}),
                                ("cuccu", 12, {"knock": "silent"}), ("hypp", 20, {})):
        rules = Rules.of(preset, **opts)
        tables = Tables.of(rules)
        rows = 300
        rng = np.random.default_rng(seats)
        deck = Deck.shuffled(tables, rows, seats, rng)
        seen: dict[tuple[int, int], dict[str, int]] = {}

        def spy(d: Decision, seen: dict[tuple[int, int], dict[str, int]] = seen) -> np.ndarray:
            for r in np.flatnonzero(d.deciding).tolist():
                seen[r, d.column] = {
                    "piece": int(d.piece[r]), "dealt": int(d.dealt[r]),
                    "position": int(d.position[r]), "seats": int(d.seats[r]),
                    "right": int(d.right[r]), "left_knocked": int(d.left_knocked[r]),
                    "knocks": int(d.knocks[r]), "swaps": int(d.swaps[r]),
                    "stands": int(d.stands[r]), "stock_left": int(d.stock_left[r]),
                    "answers": int(d.answers[r]), "payments": int(d.payments[r]),
                    "left_fool": int(d.left_fool[r]), "undos": int(d.undos[r]),
                    "gave": int(d.gave[r]), "asked": int(d.asked[r])}
            return (d.piece * 7 + d.swaps * 3 + d.column) % 5 < 3

        rnd = Rounds(tables, deck, seats, seats).play([FunctionPolicy(spy)])
        for r in range(rows):
            d = [int(x) for x in deck.deck[r]]
            match = MatchState.new(rules, [f"S{i}" for i in range(seats)],
                                   dealer=seats - 1).deal(d[:seats], d[seats:])
            fool_at: set[int] = set()
            while match.to_act is not None:
                rnd_ = match.round
                assert rnd_ is not None
                pos = rnd_.turn
                view = seat_view(match, match.to_act)
                got = seen.pop((r, pos))
                public = view.public
                knocks = [e.seat for e in public if type(e) is Knock]
                fool_at = set(knocks)
                for e in public:  # a knocked fool followed through the public log
                    if type(e) is Swap and (e.seat in fool_at) != (e.target in fool_at):
                        fool_at ^= {e.seat, e.target}
                    elif type(e) is Draw:
                        fool_at.discard(e.seat)
                    elif type(e) is Undo:
                        fool_at = set(knocks)
                mine_swaps = [e for e in view.events if type(e) is Swap and e.target == view.seat]
                if any(type(e) is Undo for e in public):
                    undo_at = max(i for i, e in enumerate(public) if type(e) is Undo)
                    mine_swaps = [e for e in view.events[undo_at:]
                                  if type(e) is Swap and e.target == view.seat]
                gave = rules.index(mine_swaps[-1].seat_got) if mine_swaps else -1
                right = 0
                if pos > 0:
                    rs = view.order[pos - 1]
                    mine = [e for e in public if getattr(e, "seat", None) == rs
                            and type(e) in (Stand, Ask, Swap)]
                    right = 4 if not mine else 1 if type(mine[0]) is Stand else \
                        2 if any(type(e) is Swap for e in mine) else 3
                left = view.order[pos + 1] if pos + 1 < seats else None
                want = {
                    "piece": rules.index(view.piece), "dealt": rules.index(view.dealt),
                    "position": pos, "seats": len(view.order), "right": right,
                    "left_knocked": int(left in knocks), "knocks": len(knocks),
                    "swaps": sum(type(e) is Swap for e in public),
                    "stands": sum(type(e) is Stand for e in public),
                    "stock_left": view.stock_left,
                    "answers": sum(type(e) is Answer for e in public),
                    "payments": sum(type(e) is Pay for e in public),
                    "left_fool": int(left in fool_at),
                    "undos": sum(type(e) is Undo for e in public),
                    "gave": gave, "asked": len(mine_swaps)}
                assert got == want, (preset, r, pos)
                match, _ = match.apply(Action.SWAP if rnd.actions[r, pos] else Action.STAND)
        assert not seen


def test_a_match_plays_the_same_whatever_else_the_batch_holds() -> None:
    # Each round's decks and draws are hashes of (seed, round, match): the first ten
    # matches of a batch of forty are the ten matches of a batch of ten, mixed
    # policies included.
    rules = Rules.of("gnav", lives=3)
    policy = [PiecePolicy(np.linspace(0.9, 0.1, len(rules.pieces)).astype(np.float32))]
    few = play_matches(rules, 7, 10, policy, rng=np.random.default_rng(4))
    many = play_matches(rules, 7, 40, policy, rng=np.random.default_rng(4))
    assert few.over.all() and many.over.all()
    assert (few.rounds == many.rounds[:10]).all()
    assert (few.lives == many.lives[:10]).all()
    assert (few.winners == many.winners[:10]).all()
    assert len(set(many.rounds.tolist())) > 1  # the matches differ from one another


def test_a_match_plays_tables_only() -> None:
    from gnav.sim.fast.policies import FunctionPolicy

    rules = Rules.of("gnav")
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="table policies only"):
        features = FunctionPolicy(lambda d: d.piece > 10)
        play_matches(rules, 5, 2, [features], rng=rng)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="stochastic=False"):
        play_matches(rules, 5, 2, [PiecePolicy([0.5] * len(rules.pieces))], rng=rng,
                     stochastic=False)
    with pytest.raises(ValueError, match="seat_policy"):
        play_matches(rules, 5, 2, [ThresholdPolicy(rules)], rng=rng,
                     seat_policy=[0, 1, 0, 0, 0])
