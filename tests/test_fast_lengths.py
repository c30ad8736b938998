"""How long matches last (``gnav.fast.lengths``, ``gnav.fast.expert``), and that every
preset at every size ends with the options a table sets (docs/spec/rules.md §6.1).

The batch engine plays; the bound a match is held to is the contract's own arithmetic:
without a gain of lives every round costs at least one life, so a match of ``n`` seats
at ``L`` lives ends within ``n * L`` rounds.
"""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

from gnav.bots.expert import ExpertBot
from gnav.fast.abstraction import policy_table
from gnav.fast.deck import Deck
from gnav.fast.expert import ExpertPolicy, coarsened
from gnav.fast.lengths import measure_preset, sizes_of
from gnav.fast.matches import play_matches
from gnav.fast.policies import PiecePolicy
from gnav.fast.tables import Tables
from gnav.lengths import at_table, shipped
from gnav.presets import PRESETS, PRESETS_LIST
from gnav.rules import Rules
from gnav.runner import play_match
from gnav.strategies import Strategy
from gnav.strategies import shipped as shipped_strategy
from gnav.strategies.policy import Policy
from gnav.vocab import TwoFools

Ints = np.ndarray


def gains_possible(rules: Rules) -> bool:
    """Whether a round of ``rules`` can give a seat a life: two fools gaining (two fools
    in the deck), or a matador's penalty paid to its holder."""
    fools = sum(rules.fools) * rules.options.copies
    return (rules.options.two_fools == TwoFools.GAIN and fools >= 2) or \
        rules.options.penalty_to == "holder"


def test_seated_matches_are_matches_of_their_own_size() -> None:
    # Five seats of eight seated: the same matches as at a table of five, deck for deck.
    rules = Rules.of("gnav", lives=2)
    tables = Tables.of(rules)
    rng = Random(3)
    decks: dict[tuple[int, int], list[int]] = {}

    def deal(number: int, rows: Ints, n: Ints) -> Deck:
        return Deck.given([decks.setdefault((number, int(m)), rules.shuffle(rng))
                           for m in rows])

    policy = [PiecePolicy([i % 3 == 0 for i in range(len(rules.pieces))])]
    alone = play_matches(rules, 5, 30, policy, rng=np.random.default_rng(1), decks=deal,
                         dealer=2, stochastic=False)
    among = play_matches(rules, 8, 30, policy, rng=np.random.default_rng(1), decks=deal,
                         dealer=2, stochastic=False, seated=5)
    assert alone.over.all() and among.over.all()
    assert (alone.rounds == among.rounds).all()
    assert (alone.lives == among.lives[:, :5]).all()
    assert (alone.winners == among.winners[:, :5]).all()
    assert not among.winners[:, 5:].any() and among.out[:, 5:].all()
    assert tables.max_rounds == 0


def test_the_batch_expert_plays_what_the_bot_plays_at_each_size() -> None:
    rules = Rules.of("gnav")
    policy = ExpertPolicy(rules, 12)
    bot = ExpertBot(0, match=False)  # the batch engine plays the round's expert
    size = policy.abstraction.size
    for n in (2, 4, 5, 9, 12):
        assert policy.plays[n] == bot.plays(rules, n)
        found = bot.table(rules, n)
        table = policy.stack[policy.which[n] * size:(policy.which[n] + 1) * size]
        if isinstance(found, Policy):
            assert np.array_equal(table, policy_table(rules, found)[0].astype(np.float32))
        else:
            assert isinstance(found, Strategy)
            mean = coarsened(found)
            key, q = next(iter(mean.swap.items()))
            assert table[key] == pytest.approx(q / mean.scale)


def test_a_strategy_coarsens_to_the_mean_of_its_information_sets() -> None:
    strategy = shipped_strategy(Rules.of("gnav"), 2)
    assert strategy is not None
    mean = coarsened(strategy)
    # Two seats: every exact key of the dealer's left holding a given piece and nothing
    # seen coarsens onto one abstract key; its mean is the plain mean of theirs.
    from gnav.abstraction import coarsen

    key = next(iter(mean.swap))
    members = [q / strategy.scale for k, q in strategy.swap.items()
               if coarsen(k, mean.layout) == key]
    assert mean.swap[key] / mean.scale == pytest.approx(sum(members) / len(members), abs=1e-6)


@pytest.mark.parametrize("name", [p.name for p in PRESETS_LIST])
def test_every_size_ends_with_the_tables_options(name: str) -> None:
    """Two matches at every size of every preset, with the options a table of that
    size sets, on the batch engine with expert bots (or, where no round can give a life,
    any play at all: a random one)."""
    own = Rules.of(name)
    lives = own.options.lives
    sizes = sizes_of(own)
    groups: dict[Rules, list[int]] = {}
    cuts: dict[int, int] = {}
    for n in sizes:
        table = at_table(own, n)
        cut = table.options.max_rounds
        if cut is not None:
            # A fixed number of rounds, at most what a match without gains lasts: the
            # preset's own round (its expert tables), each size cut at its own number.
            assert cut <= n * lives
            cuts[n] = cut
            table = own
        groups.setdefault(table, []).append(n)
    for rules, seats in groups.items():
        width = max(seats)
        seated = np.repeat(np.asarray(seats), 2)
        policy = [ExpertPolicy(rules, width) if gains_possible(rules) else
                  PiecePolicy(np.full(len(rules.pieces), 0.5, np.float32))]
        state = play_matches(rules, width, len(seated), policy,
                             rng=np.random.default_rng(26), seated=seated,
                             max_rounds=4 * width * lives,
                             fixed_rounds=[cuts.get(n, 0) for n in seated.tolist()])
        assert state.over.all(), f"{name}: a match did not end"
        for n, rounds in zip(seated.tolist(), state.rounds.tolist(), strict=True):
            if not gains_possible(rules) or n in cuts:
                # Without gains, or cut at seats x lives: within seats x lives rounds.
                assert rounds <= n * lives, (name, n, rounds)
            else:
                # Gains below the sizes a table remedies: held up, but not for ever.
                assert rounds <= 4 * n * lives, (name, n, rounds)


def test_the_shipped_figures_are_what_the_command_makes() -> None:
    # Le Her (two seats, one table) measured again as the file says it was.
    meta = shipped().meta
    again = measure_preset(PRESETS["le-her"], matches=int(meta["matches"]),
                           cap=int(meta["cap"]), seed=int(meta["seed"]))
    found = shipped().presets["le-her"]
    assert again.default == dict(found.default)
    assert again.remedy is None and found.remedy is None


def test_the_shipped_figures_agree_with_the_reference_engine() -> None:
    # A second method: expert bots on the reference engine (exact strategies at 2 to 4
    # seats, where the batch plays them coarsened), 60 matches of 5 seats.
    rules = Rules.of("gnav")
    rounds = []
    for m in range(60):
        final = play_match(rules, [f"S{i}" for i in range(5)],
                           [ExpertBot(seed=100 * m + i) for i in range(5)], seed=m)
        rounds.append(final.rounds)
    median = float(np.median(rounds))
    assert abs(median - shipped().presets["gnav"].default[5].median) <= 2.0


def test_the_remedy_is_needed_where_it_is_set_and_works_there() -> None:
    # The file's own rule, checked on its figures: from the first size a table sets a
    # remedy, the preset's own matches are held up (95th percentile beyond seats x
    # lives), and with the remedy none is.
    for name, found in shipped().presets.items():
        lives = found.lives
        held = [n for n, x in found.default.items() if x.p95 > n * lives or x.ends < 1]
        if found.remedy is None:
            assert held == [], name
            continue
        assert min(held) == found.remedy.start, name
        for n, x in found.remedied.items():
            if n >= found.remedy.start:
                assert x.p95 <= n * lives and x.ends == 1.0, (name, n)


def test_a_41_seat_table_of_gnav_ends_where_its_own_options_do_not() -> None:
    own = Rules.of("gnav")
    table = at_table(own, 41)
    assert table.options.two_fools == TwoFools.PAY
    assert at_table(own, 41, named={"two_fools"}) is own
    assert shipped().presets["gnav"].default[41].ends < 0.5
    assert ExpertBot(0).plays(table, 41).startswith("the trained policy of gnav-pagat")
