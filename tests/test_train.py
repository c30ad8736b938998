"""gnav train: sampled rounds, Monte Carlo CFR over the abstraction, the policy files."""

from __future__ import annotations

from pathlib import Path
from random import Random

import numpy as np
import pytest

from gnav.abstraction import RIGHT, SHIFT, Layout
from gnav.cli import main
from gnav.fast import jit
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.tables import Tables
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.tree import build
from gnav.strategies.policy import load_policy, parse
from gnav.train import batch
from gnav.train.batch import Config, State, train
from gnav.train.exact import abstract_solve, lift
from gnav.train.export import policy_data
from gnav.train.mccfr import learn
from gnav.train.play import LIVES, Policy, Tracker, deal, play_out, sample


def test_each_tried_decision_is_the_round_played_the_other_way() -> None:
    rules = Rules.of("gnav")
    rng = Random(4)
    policy: dict[int, float] = {}

    def p(key: int) -> float:
        return policy.setdefault(key, rng.random())

    def always(swap: int) -> Policy:
        return lambda key: 1.5 if swap else -0.5  # u is in [0, 1): always, never

    for _ in range(30):
        state, u = deal(rules, 7, rng)
        final, decisions = sample(state, u, [p] * 7, lambda pos: True)
        for d in decisions:
            # Second method: the whole round again from the deal, this position forced.
            forced: list[Policy] = [p] * 7
            forced[d.pos] = always(1 - d.took)
            again = play_out(state, Tracker(7, state.public), u, forced)
            assert d.values[1 - d.took] == again[d.pos] - LIVES
            assert d.values[d.took] == final[d.pos] - LIVES


@pytest.mark.parametrize(("preset", "tremble"), [("gnav", 0.0), ("gnav-summary", 0.0),
                                                 ("slabberjan", 0.0), ("chase-the-ace", 0.0),
                                                 ("gnav", 0.3), ("slabberjan", 0.3)])
def test_the_batch_trainers_regrets_are_the_reference_engines(preset: str,
                                                              tremble: float) -> None:
    """Second method: the same decks and uniform numbers dealt to the reference engine,
    each decision played the other way there (``gnav.train.mccfr``), give the same sums
    at the same keys as the compiled engine's flipped replays; with a tremble too."""
    rules = Rules.of(preset)
    ab = GnavAbstraction(rules)
    n, rows, seed = 6, 80, 9
    current = np.random.default_rng(1).random(ab.size)
    decks = jit.decks(Tables.of(rules), seed, rows)
    u = jit.uniforms(seed, rows, n)
    visited, sums = batch.sums(rules, n, rows, current, seed=seed, decks=decks,
                               played=batch.trembling(current, tremble))
    dealt = [(RoundState.start(rules, tuple(range(n)), tuple(int(p) for p in d[:n]),
                               tuple(int(p) for p in d[n:]), (LIVES,) * n, checked=True),
              [float(x) for x in u[r]]) for r, d in enumerate(decks)]
    ref = learn(dealt, lambda key: float(current[key]), tremble)
    mine = {int(i): list(s) for i, s in zip(visited, sums, strict=True)}
    assert set(mine) == set(ref)
    for key, s in ref.items():
        assert mine[key] == pytest.approx(s, abs=1e-9), key
    # Some decisions gained by the other action, some lost: the sums say something.
    assert any(s[0] > 0 for s in ref.values()) and any(s[1] > 0 for s in ref.values())


def test_a_tremble_reaches_what_a_pure_strategy_never_does() -> None:
    # A table that always stands never shows a seat a right neighbour who swapped with
    # it; trembling lines do, so what to do there is learnt too.
    rules = Rules.of("gnav")
    ab = GnavAbstraction(rules)
    stand = np.zeros(ab.size)

    def rights(tremble: float) -> set[int]:
        visited, sums = batch.sums(rules, 8, 400, stand, seed=5,
                                   played=batch.trembling(stand, tremble))
        assert sums[:, 3].sum() > 0
        return {ab.layout.unpack(int(i)).right for i in visited}

    assert RIGHT.index("W") not in rights(0.0)
    assert RIGHT.index("W") in rights(0.1)


def test_training_is_seeded_and_the_same_for_any_number_of_jobs() -> None:
    config = Config("hypp", (5, 6), seed=3, batches=2, shards=2, rounds=120)
    one = train(config, jobs=1)
    two = train(config, jobs=2)
    assert np.array_equal(one.average(), two.average()) and one.rounds == 240
    assert np.array_equal(one.regret, two.regret)
    other = train(Config("hypp", (5, 6), seed=4, batches=2, shards=2, rounds=120))
    assert not np.array_equal(other.average(), one.average())


@pytest.mark.parametrize("plus", [False, True])
def test_training_approaches_the_exact_solution_at_two_seats(plus: bool) -> None:
    # The exact best response of the solver measures what the sampled training learnt.
    rules = Rules.of("hypp")
    game = Game(build(rules, 2))
    uniform, _ = lift(game, {})
    state = train(Config("hypp", (2,), seed=1, batches=12, rounds=2000, plus=plus))
    average = state.by_key()
    sigma, _ = lift(game, {k: s / w for k, (w, s) in average.items()})
    assert game.nash_conv(sigma) < game.nash_conv(uniform) / 5


def test_the_abstraction_solved_on_the_tree_is_measured_on_the_full_tree() -> None:
    game = Game(build(Rules.of("hypp"), 2))
    policy, conv, sets = abstract_solve(game, iterations=100)
    sigma, missing = lift(game, policy)
    assert missing == 0 and sets <= game.infosets
    assert conv == pytest.approx(game.nash_conv(sigma))
    # Leaving the piece out of the key leaves the seat blind: far worse.
    _, blind, _ = abstract_solve(game, frozenset({"piece"}), iterations=100)
    assert blind > conv + 0.05


def test_train_writes_a_policy_that_loads(tmp_path: Path) -> None:
    out = tmp_path / "p.json.gz"
    assert main(["train", "--preset", "hypp", "--seats", "6", "--batches", "1",
                 "--rounds", "5", "--jobs", "1", "--min-visits", "1", "--out", str(out)]) == 0
    policy = load_policy(str(out))
    assert policy.seats == (5, 6) and policy.fits(Rules.of("hypp"), 6)
    assert not policy.fits(Rules.of("hypp"), 7)
    key = next(k for k in policy.swap if k >> SHIFT == 0)  # nothing left out
    for coarse in policy.layout.backoffs(key):
        assert coarse in policy.swap  # every trained key backs off to stored ones
    assert policy.lookup(key) == policy.swap_probability(key)


def test_train_ships_a_policy_under_its_games_name(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """One file a game (issue 28): gnav-rulebook's policy ships as gnav's, and rules no
    preset plays as they come are refused before any training."""
    import gnav.strategies.policy as shelf

    monkeypatch.setattr(shelf, "POLICIES", tmp_path)
    assert main(["train", "--preset", "gnav-rulebook", "--seats", "6", "--batches", "1",
                 "--rounds", "5", "--jobs", "1", "--ship"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["gnav-5-6.json.gz"]
    policy = load_policy(str(tmp_path / "gnav-5-6.json.gz"))
    assert policy.preset == "gnav" and policy.fits(Rules.of("gnav-rulebook"), 6)
    capsys.readouterr()
    assert main(["train", "--preset", "gnav", "--seats", "6", "-o", "drag=false",
                 "--ship"]) == 2
    assert "no preset plays gnav with these options" in capsys.readouterr().err
    assert len(list(tmp_path.iterdir())) == 1


def test_a_thin_backed_off_key_is_left_to_a_coarser_one() -> None:
    # Two keys of one position and piece: one met often (it stands), one met twice (it
    # still plays 1/2). The rare key's own backed-off keys pool 2 decisions: too few to
    # trust, so they are left out and it is answered by the coarsest, which pools both.
    rules = Rules.of("gnav")
    text = Layout.of(rules).read_text
    often, rare = text("3|2|5|-|S|-|0"), text("3|2|5|7|W|K|1")
    average = {often: [90.0, 0.0], rare: [2.0, 1.0]}
    visits = {often: 90, rare: 2}
    data = policy_data(rules, (5, 6), average, 100, {often}, visits=visits, min_visits=50)
    policy = parse(data, "test")
    assert rare not in policy.swap and text("3|2|5|*|W|K|1") not in policy.swap
    assert text("3|2|5|*|S|-|0") in policy.swap  # met 90 times: it stays
    assert policy.lookup(rare) == pytest.approx(1.0 / 92.0, abs=1e-6)
    assert data["meta"]["min_visits"] == 50
    # Without the visits, every backed-off key is written, as before.
    loose = parse(policy_data(rules, (5, 6), average, 100, {often}), "test")
    assert loose.lookup(rare) == pytest.approx(0.5)


@pytest.mark.parametrize("seats", ["3", "42"])
def test_train_outside_five_to_forty_one_is_one_line(
        seats: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--preset", "gnav", "--seats", seats]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("gnav train:")


def test_state_strategy_is_regret_matching() -> None:
    st = State(3)
    st.regret[:] = [[3.0, 1.0], [-1.0, 2.0], [0.0, -5.0]]
    assert st.strategy().tolist() == [0.25, 1.0, 0.5]


def test_exploit_finds_what_a_random_field_concedes() -> None:
    """A field that swaps at random is beaten by a deviator that stands on a good piece
    and swaps a bad one: the bound's interval lies above 0."""
    from gnav.train.exploit import exploit

    rules = Rules.of("hypp")
    bound = exploit(rules, 5, "random", search=2000, measure=1000, seed=2, shards=2)
    assert bound.gain.low > 0 and bound.chosen > 0
    assert bound.plays == "random" and bound.gain.n == 1000


@pytest.mark.parametrize("preset", ["gnav", "gnav-summary", "hypp", "chase-the-ace"])
def test_every_size_has_one_band_and_the_full_table_its_own(preset: str) -> None:
    from gnav.train.bands import band_of, bands

    rules = Rules.of(preset)
    top = min(rules.max_seats, 41)
    covered = [n for lo, hi in bands(rules) for n in range(lo, hi + 1)]
    assert covered == list(range(5, top + 1))  # each size once, in order
    for n in covered:
        lo, hi = band_of(rules, n)
        assert lo <= n <= hi
    # Where the rules' largest table is trainable, it is its own band: one piece in
    # the stock. Chase the Ace seats up to 51: its 41 seats leave ten in the stock.
    full = rules.max_seats <= 41
    assert (band_of(rules, top) == (top, top)) == full
    assert band_of(rules, top - 1)[1] == (top - 1 if full else top)


def test_ship_trains_every_band_once_per_game(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from gnav.strategies import game_name
    from gnav.train.ship import main as ship
    from gnav.train.ship import rounds_for

    assert game_name(Rules.of("gnav")) == game_name(Rules.of("gnav-rulebook")) == "gnav"
    assert game_name(Rules.of("gnav")) != game_name(Rules.of("gnav-pagat"))
    assert ship(["gnav", "gnav-rulebook", "--batches", "1", "--decisions", "300",
                 "--jobs", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("rounds") == 7 and out.count("gnav's policy") == 7
    for lo, hi in ((5, 6), (7, 9), (10, 14), (15, 20), (21, 28), (29, 40), (41, 41)):
        mine = load_policy(str(tmp_path / f"gnav-{lo}-{hi}.json.gz"))
        # One file a game (issue 28): gnav-rulebook plays gnav's, it has none of its own.
        assert not (tmp_path / f"gnav-rulebook-{lo}-{hi}.json.gz").exists()
        assert mine.fits(Rules.of("gnav-rulebook"), lo) and mine.seats == (lo, hi)
    assert ship(["nothing"]) == 2
    # gnav train makes the same file from the same seed, batches and rounds.
    again = tmp_path / "again.json.gz"
    assert main(["train", "--preset", "gnav", "--seats", "5", "--seed", "1", "--batches", "1",
                 "--rounds", str(rounds_for(5, 6, 300)), "--jobs", "2",
                 "--out", str(again)]) == 0
    assert load_policy(str(again)).swap == load_policy(str(tmp_path / "gnav-5-6.json.gz")).swap


def test_earlier_moves_read_every_earlier_seats_turn_off_the_exact_key() -> None:
    from gnav.train.exact import earlier_moves, with_moves

    assert earlier_moves("0/3|5|5|") == ""
    assert earlier_moves("2/4|3|3|S0,A12,W1") == "SW"
    assert earlier_moves("3/4|3|3|A01,R1:9,S2") == "A?S"  # the answer is no move of 1
    assert with_moves("2/4|3|3|S0,A12,W1", Layout.of(Rules.of("gnav")))[1] == "SW"
    # The feature carries what the abstraction lacks: the merged tree solves closer.
    game = Game(build(Rules.of("hypp"), 3))
    _, plain, n = abstract_solve(game, iterations=60)
    _, rich, m = abstract_solve(game, iterations=60, key=with_moves)
    assert m > n and rich < plain


def test_convert_makes_a_shipped_file_again_from_its_format_1_form(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The one-off that made the shipped files gnav-policy/2: a shipped file written back
    as format 1 (string keys, no pieces) converts to the very bytes shipped."""
    import gzip
    import json

    from gnav.strategies.policy import shipped_policies
    from gnav.train import export

    for shipped in [p for p in shipped_policies() if p.name in (
            "gnav-10-14.json.gz", "chase-the-ace-5-6.json.gz")]:
        data = json.loads(gzip.decompress(shipped.read_bytes()))
        assert data["format"] == "gnav-policy/2"
        layout = Layout(tuple(data.pop("pieces")))
        pairs = zip(data.pop("keys"), data["swap"], strict=True)
        old = {**data, "format": "gnav-policy/1",
               "swap": {layout.text(k): q for k, q in pairs}}
        path = tmp_path / shipped.name
        path.write_bytes(gzip.compress(json.dumps(old).encode()))
        assert export.main(["--convert", str(path)]) == 0
        assert path.read_bytes() == shipped.read_bytes()
    assert "gnav-10-14.json.gz" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    assert export.main(["--convert", str(tmp_path / "bad.json")]) == 2
    assert "not a gnav policy" in capsys.readouterr().err
