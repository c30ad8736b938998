"""The batch simulator is the reference engine, row by row: on the same deals, stock
order and decisions, every round of every match gives the same swaps (the hands at the
showdown), the same events that pay (per seat), payments, lives, sit-outs, dealers and
winners as ``gnav.match.MatchState``.

The property test plays every preset with random options and random per-piece policies
(two of them, so one seat plays another policy), and also checks that the rare paths
(the Cat's undo, stock draws, pass chains, the drag, two fools) were reached. Whole
matches play on the compiled engine (``play_matches``), and so do single rounds: the
threshold table against the bot, and the keys a decision is played by against the
deciding seat's view (``tests/fastkit.py`` replays them through the reference engine).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastkit import Reference, replay
from gnav.abstraction import Layout, band_index
from gnav.events import Answer, Ask, Draw, Knock, Stand, Swap, Undo
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.jit import PIECE, RICH, JitRounds, decks
from gnav.fast.matches import play_matches
from gnav.fast.policies import PiecePolicy, TablePolicy, ThresholdPolicy
from gnav.fast.tables import Tables
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.views import SeatView
from gnav.vocab import Action
from strategies import rules_strategy


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

    rules = Rules.of("gnav")
    table = ThresholdPolicy(rules).table
    d = decks(Tables.of(rules), 5, 400)
    rnd = JitRounds(rules, 6, 400, seed=5, decks=d).play(table, PIECE)
    bot = ThresholdBot()
    met = Counter[bool]()

    def check(rnd: JitRounds, r: int, col: int, view: SeatView) -> None:
        action = bot.act(view)
        assert (action is Action.SWAP) == bool(rnd.actions[r, col])
        met[action is Action.SWAP] += 1

    replay(rules, rnd, d, check)
    assert met[True] and met[False]


# The rich key (jit.RICH) below the abstraction's: (shift, bits) of each count.
RICH_FIELDS = {"position": (27, 6), "seats": (21, 6), "swaps": (17, 4), "shown": (9, 8),
               "undos": (8, 1), "draws": (6, 2), "stands": (0, 6)}


def test_the_features_are_what_the_view_holds() -> None:
    """At every decision of random rounds, the features the compiled engine keys the
    decision by (the abstraction's, and the rich key's counts) equal the same facts read
    from the deciding seat's SeatView (so they hold nothing hidden)."""
    for preset, seats, opts in (("gnav", 9, {}), ("gnav-1917", 5, {"revealed": "act"}),
                                ("cuccu", 12, {"knock": "silent"}), ("hypp", 20, {})):
        rules = Rules.of(preset, **opts)
        layout = Layout.of(rules)
        rows = 300
        table = np.random.default_rng(seats).random((1, layout.size))
        d = decks(Tables.of(rules), seats, rows)
        played = JitRounds(rules, seats, rows, seed=seats, decks=d).play(table, RICH)
        decided = 0

        def check(rnd: JitRounds, r: int, pos: int, view: SeatView,
                  rules: Rules = rules, layout: Layout = layout, preset: str = preset
                  ) -> None:
            nonlocal decided
            decided += 1
            key = int(rnd.keys[r, pos])
            got = layout.unpack(key >> 33)._asdict()
            got.update({name: key >> shift & (1 << bits) - 1
                        for name, (shift, bits) in RICH_FIELDS.items()})
            public = view.public
            knocks = [e.seat for e in public if type(e) is Knock]
            right = 0
            if pos > 0:
                rs = view.order[pos - 1]
                mine = [e for e in public if getattr(e, "seat", None) == rs
                        and type(e) in (Stand, Ask, Swap)]
                right = 4 if not mine else 1 if type(mine[0]) is Stand else \
                    2 if any(type(e) is Swap for e in mine) else 3
            left = view.order[pos + 1] if pos + 1 < len(view.order) else None
            piece, dealt = rules.index(view.piece), rules.index(view.dealt)
            shown = 0
            for e in public:
                if type(e) is Answer and rules.index(e.piece) < 8:
                    shown |= 1 << rules.index(e.piece)
            want = {
                "b": band_index(pos), "a": band_index(len(view.order) - 1 - pos),
                "piece": piece, "gave": layout.pieces if dealt == piece else dealt,
                # The dealer's left is the stock: its digit is a round of stands.
                "right": right, "left": int(left in knocks) if left is not None else
                int(0 < pos == sum(type(e) is Stand for e in public)),
                "k": min(len(knocks) - (view.seat in knocks) - (left in knocks), 2),
                "position": pos, "seats": len(view.order),
                "swaps": min(sum(type(e) is Swap for e in public), 15), "shown": shown,
                "undos": min(sum(type(e) is Undo for e in public), 1),
                "draws": min(sum(type(e) is Draw for e in public), 3),
                "stands": sum(type(e) is Stand for e in public)}
            assert got == want, (preset, r, pos)

        replay(rules, played, d, check)
        assert decided == int((played.actions >= 0).sum())


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
    rules = Rules.of("gnav")
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="table policies only"):
        # A function of the features, not tabulated (FeaturePolicy tabulates it).
        play_matches(rules, 5, 2, [lambda key: key.piece > 10], rng=rng)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="stochastic=False"):
        play_matches(rules, 5, 2, [PiecePolicy([0.5] * len(rules.pieces))], rng=rng,
                     stochastic=False)
    with pytest.raises(ValueError, match="one entry per piece"):
        play_matches(rules, 5, 2, [PiecePolicy([0.5, 0.5])], rng=rng)
    with pytest.raises(ValueError, match="another deck's abstraction"):
        other = GnavAbstraction(Rules.of("chase-the-ace"))
        play_matches(rules, 5, 2, [TablePolicy(other, np.zeros(other.size))], rng=rng)
    with pytest.raises(ValueError, match="seat_policy"):
        play_matches(rules, 5, 2, [ThresholdPolicy(rules)], rng=rng,
                     seat_policy=[0, 1, 0, 0, 0])
