"""The odds atlas: its figures, where they come from, and ``gnav odds``."""

from __future__ import annotations

import json
import math

import pytest

from gnav.bots.registry import bot_from_spec
from gnav.cli import main
from gnav.odds.figures import Atlas, Figure, situation, wilson
from gnav.odds.simulated import from_bots
from gnav.odds.source import atlas, is_exact
from gnav.presets import registered
from gnav.rules import Rules
from gnav.sim.batch import ROUNDS, Plan, Tally, run
from gnav.strategies import HERE, game_name, shipped_name


def test_wilson_is_the_textbook_interval() -> None:
    # 40 of 100: Wilson's 95% interval is about [0.309, 0.498] (by hand from the formula).
    f = wilson(40, 100)
    assert f.value == pytest.approx(0.4)
    assert f.low == pytest.approx(0.3094, abs=1e-3)
    assert f.high == pytest.approx(0.4980, abs=1e-3)
    assert wilson(0, 10).low == pytest.approx(0.0) and wilson(10, 10).high == pytest.approx(1.0)
    assert math.isnan(wilson(0, 0).value)


@pytest.mark.parametrize(("key", "expected"), [
    ("0/3|3|3|", "plain"),
    ("2/3|5|5|S0,S1", "plain"),
    ("2/3|5|5|A01,W0,S1", "swaps"),
    ("1/3|8|2|A01,W0:2:8", "asked"),
    ("2/3|5|5|A01,R1:cat,P0s:charge", "matador"),
    ("1/3|fool|fool|K1", "knock"),
    ("2/4|4|4|A01,W0,K3", "knock"),
])
def test_situation_reads_the_key(key: str, expected: str) -> None:
    assert situation(key) == expected


def test_the_source_is_exact_only_where_a_strategy_ships() -> None:
    gnav = Rules.of("gnav")
    assert is_exact(gnav, 3, "expert")
    assert not is_exact(gnav, 3, "threshold")
    assert not is_exact(gnav, 10, "expert")
    # Which tables ship a solution grows as more are solved: read it off the package's
    # files, not a list typed here.
    for preset in registered():
        for seats in range(2, 6):
            # A file is named by its game (issue 28): gnav-rulebook's is gnav's.
            game = game_name(Rules.of(preset.name))
            ships = (HERE / shipped_name(game, seats)).exists()
            assert is_exact(Rules.of(preset.name), seats, "expert") == ships, (preset, seats)


def test_an_atlas_survives_json() -> None:
    a = atlas(Rules.of("gnav"), 4, "threshold", rounds=60, seed=3)
    again = Atlas.from_json(json.loads(json.dumps(a.as_json())))
    text = json.dumps(a.as_json(), allow_nan=False)  # nothing observed is null, not NaN
    assert json.dumps(again.as_json()) == text
    assert Atlas.from_json(json.loads(text)).as_json() == a.as_json()
    nothing = Figure(math.nan, math.nan, math.nan, 0)
    assert nothing.as_json() == {"value": None, "low": None, "high": None, "n": 0}
    assert math.isnan(Figure.from_json(nothing.as_json()).value)
    assert again.cells == {k: v for k, v in again.cells.items()}
    assert isinstance(next(iter(a.cells.values())).pay, Figure)


def test_the_expert_at_a_large_table_says_what_played() -> None:
    from gnav.bots.expert import ExpertBot

    rules = Rules.of("gnav")
    a = atlas(rules, 5, "expert", rounds=4, seed=1)
    assert a.source == "simulated"
    # An atlas is of rounds: the round's expert (expert plays gnav's match policy here).
    assert a.note == f"the expert bot plays {ExpertBot(match=False).plays(rules, 5)}"
    assert "policy" in a.note or "counter" in a.note


def _agree(a: float, a_se: float, b: float, b_se: float) -> bool:
    """Two estimates agree: their difference within 3.3 standard errors (99.9%: many
    comparisons are made, each must pass)."""
    return abs(a - b) <= 3.3 * math.sqrt(a_se ** 2 + b_se ** 2)


def _se(p: float, k: int) -> float:
    """The standard error of a chance ``p`` seen in ``k`` rounds (floored near 0 and 1)."""
    return math.sqrt(max(p * (1 - p), 1e-4) / k)


def _agrees_with_plain(a: Atlas, plain: Tally, rules: Rules, n: int) -> None:
    """Each position's chance of paying in atlas ``a`` lies in its own interval and agrees
    with a plain simulation's ``plain`` tally, and so does each piece's (pooled over the
    positions; pieces dealt under 50 times left out), as ``_agree`` tests."""
    for pos in range(n):
        k = plain.position_rounds[pos]
        p = plain.position_losses[pos] / k
        mine = a.pay[pos]
        assert mine.low is not None and mine.high is not None
        assert mine.low <= mine.value <= mine.high
        assert _agree(mine.value, _se(mine.value, a.rounds), p, _se(p, k)), pos
    ids = rules.ids
    for t, k in enumerate(plain.piece_rounds):
        if k < 50:
            continue
        p = plain.piece_losses[t] / k
        cells = [c for (pid, _), c in a.cells.items() if pid == ids[t]]
        seen = sum(c.pay.n for c in cells)
        pooled = sum(c.pay.value * c.pay.n for c in cells) / seen
        assert _agree(pooled, _se(pooled, seen), p, _se(p, k)), ids[t]


def test_at_10_seats_the_atlas_agrees_with_a_plain_simulation() -> None:
    """The atlas's chance of paying by position and by piece dealt against
    ``gnav simulate``'s own engine loop on other deals (``gnav.sim.batch``)."""
    rules = Rules.of("gnav")
    n = 10
    rounds = 1500
    bots = [bot_from_spec("threshold", seed=i) for i in range(n)]
    a = from_bots(rules, n, bots, "threshold", rounds, seed=11, branches=1)
    plain = run(Plan(rules, ("threshold",) * n, ROUNDS, rounds, seed=12), jobs=1).tally
    _agrees_with_plain(a, plain, rules, n)


def test_standing_and_swapping_are_played_both_ways() -> None:
    """The Cuckoo stands safe and loses it by asking; the fool pays less by swapping
    (over every seat: a fool handed on is mostly gone)."""
    rules = Rules.of("gnav")
    bots = [bot_from_spec("threshold", seed=i) for i in range(6)]
    a = from_bots(rules, 6, bots, "threshold", 400, seed=5, branches=6)
    cuckoo = a.cells["cuckoo", 0]
    assert cuckoo.stand.value == 0.0 and cuckoo.swap.value > 0.0
    fools = [a.cells["fool", i] for i in range(6)]
    stand = sum(c.stand.value * c.stand.n for c in fools)
    swap = sum(c.swap.value * c.swap.n for c in fools)
    assert swap < 0.8 * stand


def test_gnav_odds_prints_and_writes(tmp_path: object, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    from pathlib import Path
    out = Path(str(tmp_path))
    assert main(["odds", "--seats", "6", "--policy", "threshold", "--rounds", "30",
                 "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "simulated: 30 rounds" in text and "dealer" in text
    assert (out / "gnav-6.json").exists() and (out / "gnav-6.png").exists()
    assert main(["odds", "--seats", "6", "--policy", "threshold", "--rounds", "20",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 6 and data["source"] == "simulated"


@pytest.mark.parametrize(("argv", "message"), [
    (["odds", "--seats", "1"], "takes 2 to 41 seats"),
    (["odds", "--rounds", "0", "--seats", "6"], "--rounds must be at least 1"),
    (["odds", "--preset", "nope"], "nope"),
])
def test_bad_input_is_one_line(argv: list[str], message: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_shipped_atlases_are_one_a_size_per_game() -> None:
    """Issue 28: an atlas is named by its game (gnav-rulebook's are gnav's), so no two
    are for one game, and every table the docs promise ships."""
    import gzip

    from gnav.odds.docs import DATA, tables

    names = sorted(p.name for p in DATA.glob("*.json.gz"))
    assert names == sorted(f"{p}-{n}.json.gz" for p, n in tables())
    assert ("gnav", 3) in tables() and ("gnav-rulebook", 3) not in tables()
    for name in names:
        data = json.loads(gzip.decompress((DATA / name).read_bytes()))
        assert game_name(Rules.of(data["preset"])) == data["preset"], name


def test_the_docs_are_made_table_by_table_and_resume(tmp_path: object) -> None:
    """``gnav odds --all``: each table's data, picture and the page, written as soon as
    it is made; a second run makes only what is missing."""
    from pathlib import Path

    from gnav.odds.docs import build, load

    root = Path(str(tmp_path))
    docs, data = root / "docs", root / "data"
    made = build(docs, only=[("chase-the-ace", 3), ("gnav", 6)], scale=0.02, data=data)
    assert [(a.preset, a.seats, a.source) for a in made] == [
        ("chase-the-ace", 3, "exact"), ("gnav", 6, "simulated")]
    page = (docs / "odds.md").read_text()
    assert "### chase-the-ace, 3 seats" in page and "### gnav, 6 seats" in page
    assert "Not made yet" in page and "gnav-3" in page
    assert (docs / "odds" / "gnav-6.png").stat().st_size > 1000
    again = load("gnav", 6, data)
    assert again is not None and again.rounds == made[1].rounds
    assert build(docs, only=[("chase-the-ace", 3), ("gnav", 6)], scale=0.02,
                 data=data) == []


def test_the_batch_table_is_the_policys_own_lookup() -> None:
    """The compiled engine's table of a trained policy answers at every abstract key
    what ``Policy.lookup`` answers (backed-off keys included), and the sources' tips
    where the policy has no answer at all."""
    pytest.importorskip("numba")
    import random

    from gnav.bots.threshold import resolve_threshold
    from gnav.fast.abstraction import GnavAbstraction, policy_table
    from gnav.strategies.policy import shipped_policy

    rules = Rules.of("gnav")
    policy = shipped_policy(rules, 10)
    assert policy is not None
    table, missing = policy_table(rules, policy)
    abstraction = GnavAbstraction(rules)
    threshold = resolve_threshold(rules, None)
    rng = random.Random(5)
    for i in rng.sample(range(abstraction.size), 3000):
        q = policy.lookup(i)
        assert bool(missing[i]) == (q is None)
        want = q if q is not None else float(policy.layout.unpack(i).piece > threshold)
        assert table[i] == pytest.approx(want, abs=1e-12), policy.layout.text(i)


def test_at_10_seats_the_batch_atlas_agrees_with_a_plain_reference_simulation() -> None:
    """Where the expert plays a trained policy, the atlas comes from the compiled batch
    engine; its chance of paying by position and by piece dealt agrees with the expert
    bots played through the reference engine by ``gnav simulate``'s own loop."""
    pytest.importorskip("numba")
    from gnav.odds.source import engine

    rules = Rules.of("gnav")
    n = 10
    assert engine(rules, n, "expert") == "batch"
    a = atlas(rules, n, "expert", rounds=30_000, seed=4)
    assert a.meta["engine"] == "gnav.fast.jit" and a.source == "simulated"
    assert "trained policy" in a.note
    rounds = 1500
    plain = run(Plan(rules, ("expert",) * n, ROUNDS, rounds, seed=12), jobs=1).tally
    _agrees_with_plain(a, plain, rules, n)
    # Forcing a seat both ways on the same deals: standing on the top piece never pays.
    top = a.cells[a.pieces[-1], 0]
    assert top.stand.value == 0.0
