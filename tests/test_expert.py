"""The expert bot: a solved strategy at the table, from views alone, without numpy."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from gnav.bots import make_bot, parse_bot_spec
from gnav.bots.counter import CounterBot
from gnav.bots.expert import ExpertBot, notice, what_plays
from gnav.bots.registry import table_bot
from gnav.errors import MalformedError
from gnav.infoset import infoset_key
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.strategies import (
    FORMAT,
    game_name,
    load,
    read_json,
    round_options,
    shipped,
    shipped_files,
)
from gnav.strategies.match import FIRST_SET, MATCH_HERE, shipped_match, state_key
from gnav.views import SeatView, seat_view
from gnav.vocab import Action
from recordkit import played


def decisions(rules: Rules, seats: int, seed: int, count: int) -> list[SeatView]:
    """Views of the seat to act, from random play."""
    rng = Random(seed)
    match = MatchState.new(rules, tuple(f"s{i}" for i in range(seats)), seed=seed)
    out: list[SeatView] = []
    while len(out) < count:
        if match.over:
            match = MatchState.new(rules, match.names, seed=rng.randrange(10**9))
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        out.append(seat_view(match, seat))
        match, _ = match.apply(rng.choice(match.legal_actions()))
    return out


def write_strategy(path: Path, rules: Rules, seats: int, swap: dict[str, int]) -> Path:
    data = {"format": FORMAT, "preset": rules.name, "seats": seats,
            "options": round_options(rules), "nash_conv": 0.0, "values": [0.0] * seats,
            "iterations": 0, "scale": 1000, "swap": swap}
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


def test_registry_makes_the_expert(tmp_path: Path) -> None:
    assert make_bot("expert", seed=3).name == "expert"
    path = write_strategy(tmp_path / "s.json.gz", Rules.of("hypp"), 2, {})
    kind, params = parse_bot_spec(f"expert:{path}")
    assert (kind, params) == ("expert", {"strategy": str(path)})
    assert isinstance(make_bot(kind, 1, **params), ExpertBot)
    with pytest.raises(MalformedError, match="cannot read"):
        make_bot("expert", 1, strategy=str(tmp_path / "missing.json.gz"))
    with pytest.raises(MalformedError, match="not a gnav strategy"):
        (tmp_path / "bad.json").write_text('{"format": "other"}')
        make_bot("expert", 1, strategy=str(tmp_path / "bad.json"))


def test_expert_samples_a_mixed_choice_from_its_seed(tmp_path: Path) -> None:
    rules = Rules.of("hypp")
    views = [v for v in decisions(rules, 2, 5, 400)
             if v.order.index(v.seat) == 0 and len(v.legal) == 2]
    view = views[0]
    key = infoset_key(view)
    path = write_strategy(tmp_path / "s.json.gz", rules, 2, {key: 300})
    bot = ExpertBot(1, str(path))
    assert bot.probabilities(view) == pytest.approx({"stand": 0.7, "swap": 0.3})
    picks = [ExpertBot(seed, str(path)).act(view) for seed in range(2000)]
    assert picks.count(Action.SWAP) / len(picks) == pytest.approx(0.3, abs=0.04)
    # One seed and one view: one answer.
    assert len({ExpertBot(7, str(path)).act(view) for _ in range(5)}) == 1
    # A view the table does not hold: the counter bot's choice, with probability 1.
    other = next(v for v in views if infoset_key(v) != key)
    counter = CounterBot(4).act(other)
    assert ExpertBot(4, str(path)).act(other) == counter
    assert ExpertBot(4, str(path)).probabilities(other) == {
        a: float(a == counter) for a in other.legal}


def test_expert_without_a_table_plays_counter_and_says_so() -> None:
    # No strategy or policy was made for gnav without the drag.
    rules = Rules.of("gnav", drag=False)
    for i, view in enumerate(decisions(rules, 7, 2, 12)):
        assert ExpertBot(i).act(view) == CounterBot(i).act(view)
    assert ExpertBot(0).plays(rules, 7).startswith("counter: nothing solved or trained")
    assert ExpertBot(0).plays(Rules.of("gnav"), 3) == "the exact strategy of gnav at 3 seats"
    said = notice(ExpertBot(0), rules, range(2, 8))
    assert said == ("expert plays at 2-7 seats counter: nothing solved or trained for gnav "
                    "with these options")
    assert notice(ExpertBot(0), Rules.of("gnav"), range(2, 5)) is None
    assert what_plays(ExpertBot(0), Rules.of("gnav"), [4, 3]) == [
        ("3", "the exact strategy of gnav at 3 seats"),
        ("4", "the exact strategy of gnav at 4 seats")]


def test_the_simulation_report_names_what_expert_played() -> None:
    from gnav.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", "--bots", "expert,threshold,threshold", "--matches", "2",
                     "--seed", "1", "--jobs", "1", "-o", "drag=false"]) == 0
    assert ("expert plays: at 2-3 seats counter: nothing solved or trained for gnav with "
            "these options") in out.getvalue()


def test_expert_says_when_the_strategy_given_does_not_fit(tmp_path: Path) -> None:
    path = write_strategy(tmp_path / "s.json.gz", Rules.of("hypp"), 2, {})
    said = ExpertBot(0, str(path)).plays(Rules.of("gnav"), 3)
    assert said == ("the exact strategy of gnav at 3 seats (the strategy given is for "
                    "hypp at 2 seats)")


def test_shipped_strategies_load_fit_and_cover_their_tables() -> None:
    files = shipped_files()
    assert len(files) >= 20
    total = sum(f.stat().st_size for f in files)
    assert total < 8 * 1024**2
    for path in files:
        strategy = load(str(path))
        rules = Rules.of(strategy.preset)
        assert shipped(rules, strategy.seats) is strategy
        limit = 1e-6 if strategy.preset == "le-her" else 1e-3
        assert strategy.nash_conv < limit, path.name
        bot = ExpertBot(0)
        for view in decisions(rules, strategy.seats, 3, 40):
            if len(view.legal) < 2 or len(view.order) != strategy.seats:
                continue  # a seat out leaves a smaller table: another strategy
            # Every decision at the table is in the table: no fallback.
            assert strategy.swap_probability(infoset_key(view)) is not None, path.name
            probs = bot.probabilities(view)
            assert set(probs) == set(view.legal)
            assert sum(probs.values()) == pytest.approx(1.0)


def test_shipped_tables_are_the_promised_ones() -> None:
    """An exact strategy ships for every preset's game at every size from 2 to 4 seats it
    allows (gnav-summary starts at 3, le-her is played by 2), named by the game (issue
    28: gnav-rulebook is gnav, and plays gnav's), and every preset finds it."""
    from gnav.presets import PRESETS_LIST

    names = {p.name for p in shipped_files()}
    promised = {f"{game_name(Rules.of(p.name))}-{n}.json.gz" for p in PRESETS_LIST
                for n in range(p.min_seats, 5) if p.max_seats is None or n <= p.max_seats}
    assert "gnav-summary-3.json.gz" in promised and "le-her-2.json.gz" in promised
    assert "gnav-rulebook-3.json.gz" not in promised
    assert promised - names == set()
    for p in PRESETS_LIST:
        for n in range(p.min_seats, 5 if p.max_seats is None else min(5, p.max_seats + 1)):
            assert shipped(Rules.of(p.name), n) is not None, (p.name, n)


def test_expert_decides_in_well_under_a_millisecond() -> None:
    rules = Rules.of("gnav")
    views = [v for v in decisions(rules, 3, 9, 300) if len(v.legal) == 2]
    bot = ExpertBot(1)
    bot.act(views[0])  # the table loads once
    start = time.process_time()  # CPU time: the machine may be busy with others
    for view in views:
        bot.act(view)
    per = (time.process_time() - start) / len(views)
    assert per < 3e-4


def test_expert_needs_no_numpy() -> None:
    code = """
import sys
sys.modules["numpy"] = None  # any import of numpy now fails
from random import Random
from gnav.bots import make_bot
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import seat_view
rules = Rules.of("gnav")
match = MatchState.new(rules, ("a", "b", "c"), seed=1)
bots = [make_bot("expert", i) for i in range(3)]
rng = Random(1)
while not match.over:
    if match.phase == "deal":
        match = match.deal(rng=rng)
        continue
    seat = match.to_act
    match, _ = match.apply(bots[seat].act(seat_view(match, seat)))
print("ok", bots[0].table(rules, 3) is not None)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["ok", "True"]


def test_expert_at_a_solved_table_is_given_only_views() -> None:
    from gnav.runner import play_match

    given: list[type] = []

    class Recorder:
        name = "expert"

        def __init__(self, seed: int) -> None:
            self.bot = ExpertBot(seed)

        def act(self, *args: object) -> str:
            given.extend(type(a) for a in args)
            view = args[0]
            assert isinstance(view, SeatView)
            assert not any(isinstance(v, MatchState) for v in view)
            return self.bot.act(view)

    play_match(Rules.of("gnav"), ["a", "b", "c"], [Recorder(i) for i in range(3)], seed=4,
               max_rounds=12)
    assert given and set(given) == {SeatView}


def test_strategy_option_of_the_commands(tmp_path: Path) -> None:
    from gnav.bots.registry import with_strategy
    from gnav.cli import main

    assert with_strategy("Expert", "s.json.gz") == "expert:s.json.gz"
    assert with_strategy("counter", "s.json.gz") == "counter"
    assert with_strategy("expert", None) == "expert"
    out = tmp_path / "hypp2.json.gz"
    assert main(["solve", "--preset", "hypp", "--seats", "2", "--out", str(out)]) == 0
    assert load(str(out)).fits(Rules.of("hypp"), 2)
    assert main(["simulate", "--preset", "hypp", "--seats", "2", "--rounds", "20",
                 "--field", "threshold", "--challenger", "expert", "--strategy", str(out),
                 "--seed", "1", "--jobs", "1", "--json"]) == 0


def test_every_preset_of_one_game_gets_the_same_decisions_from_the_expert() -> None:
    """One game, one file (issue 28): at gnav-rulebook the expert plays exactly what it
    plays at gnav, and gnav with two_fools = pay (a large table's) what it plays at
    gnav-pagat, on the exact strategies (2 to 4 seats) and the trained policies (5 up).
    One seed deals the same matches to both, so each view differs by its rules alone."""
    from gnav.presets import PRESETS_LIST

    groups: dict[str, list[Rules]] = {}
    for preset in PRESETS_LIST:
        rules = Rules.of(preset.name)
        groups.setdefault(game_name(rules), []).append(rules)
    groups["gnav-pagat"].append(Rules.of("gnav", two_fools="pay"))
    pairs = [(group[0], other) for group in groups.values() for other in group[1:]]
    assert {(a.name, b.name) for a, b in pairs} == {("gnav", "gnav-rulebook"),
                                                    ("gnav-pagat", "gnav")}
    for first, other in pairs:
        for seats in (2, 3, 4, 5, 8, 12, 20, 41):
            bot, again = ExpertBot(7), ExpertBot(7)
            assert bot.plays(first, seats) == again.plays(other, seats)
            assert bot.table(first, seats) is again.table(other, seats) is not None
            mine, theirs = decisions(first, seats, seats, 60), decisions(other, seats, seats, 60)
            assert [v._replace(rules=other) for v in mine] == theirs
            both = [(a, b) for a, b in zip(mine, theirs, strict=True) if len(a.legal) == 2]
            assert both, (first.name, seats)
            for a, b in both:
                assert bot.probabilities(a) == again.probabilities(b)
                assert bot.act(a) == again.act(b)


# -- playing for the match (issue 29) ---------------------------------------------------


def hidden_key(match: MatchState, cap: int) -> tuple[tuple[int, ...], tuple[int, ...],
                                                     tuple[int, ...]]:
    """The state the round under way started from, read off the match itself (which
    the bot never sees): the second route to the key the bot finds from its view."""
    return state_key(match.lives, match.out, match.sitting_out, match.dealer, cap)


def two_seat_choices(rules: Rules, games: int, seed: int) -> Iterator[
        tuple[MatchState, SeatView]]:
    """Every choice (stand or swap) of ``games`` 2-seat matches played at random, with
    the match as it stood (for the key the bot does not see) and the chooser's view."""
    return ((m, v) for m, v in played(rules, 2, seed, games) if len(v.legal) == 2)

def test_expert_plays_the_match_strategy_where_one_fits_and_expert_round_the_round() -> None:
    rules = Rules.of("gnav")
    match_strategy = shipped_match(rules, 2)
    round_strategy = shipped(rules, 2)
    assert match_strategy is not None and round_strategy is not None
    expert, plain = make_bot("expert", 3), make_bot("expert-round", 3)
    assert isinstance(expert, ExpertBot) and isinstance(plain, ExpertBot)
    assert (expert.name, plain.name) == ("expert", "expert-round")
    assert expert.plays(rules, 2) == "the match strategy of gnav at 2 seats and 4 lives"
    assert plain.plays(rules, 2) == "the exact strategy of gnav at 2 seats"
    differ = 0
    seen = 0
    for match, view in two_seat_choices(rules, 40, 11):
        seen += 1
        key = infoset_key(view)
        want = match_strategy.swap_probability(hidden_key(match, match_strategy.cap), key, 2)
        assert want is not None
        assert expert.probabilities(view)[Action.SWAP] == pytest.approx(want)
        got = plain.probabilities(view)[Action.SWAP]
        assert got == pytest.approx(round_strategy.swap_probability(key))
        differ += abs(want - got) > 0.01
    assert seen > 100 and differ > 0  # the match changes some choices, as solved


def test_expert_plays_the_round_where_no_match_strategy_fits() -> None:
    """Another count of lives, or a table size no match ships for: the round's play."""
    for rules, seats in ((Rules.of("gnav", lives=3), 2), (Rules.of("gnav"), 3)):
        assert shipped_match(rules, seats) is None
        expert, plain = ExpertBot(5), ExpertBot(5, match=False)
        assert expert.plays(rules, seats) == plain.plays(rules, seats)
        for view in decisions(rules, seats, 4, 60):
            assert expert.probabilities(view) == plain.probabilities(view)
            assert expert.act(view) == plain.act(view)


def test_expert_plays_the_match_file_of_the_tables_lives() -> None:
    """A table of 2 lives plays the 2-lives match file (read off the match itself: the
    key the bot does not see), a table of the preset's lives the plain one."""
    default = Rules.of("gnav").options.lives
    files = {n: shipped_match(Rules.of("gnav", lives=n), 2) for n in (2, default)}
    assert files[2] is not None and files[default] is not None
    assert files[2] is not files[default] and files[2].lives == 2
    for lives, strategy in files.items():
        assert strategy is not None
        rules = Rules.of("gnav", lives=lives)
        expert = ExpertBot(7)
        assert expert.plays(rules, 2) == \
            f"the match strategy of gnav at 2 seats and {lives} lives"
        seen = 0
        for match, view in two_seat_choices(rules, 15, lives):
            want = strategy.swap_probability(hidden_key(match, strategy.cap),
                                             infoset_key(view), 2)
            assert want is not None
            assert expert.probabilities(view)[Action.SWAP] == pytest.approx(want)
            seen += 1
        assert seen > 20


def test_expert_plays_a_match_strategy_given(tmp_path: Path) -> None:
    """A match file of ``gnav solve --match --out`` given as the strategy is played (here
    a shipped one turned to swap everywhere); expert-round given it plays the round."""
    rules = Rules.of("hypp")
    source = shipped_match(rules, 2)
    assert source is not None
    data = read_json(str(MATCH_HERE / "hypp-2.json.gz"))
    for state in data["states"]:
        state["swap"] = [data["scale"]] * len(state["swap"])
    path = tmp_path / "always.json.gz"
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    bot = make_bot("expert", 2, strategy=str(path))
    assert isinstance(bot, ExpertBot) and bot.match_table(rules, 2) is not source
    plain = make_bot("expert-round", 2, strategy=str(path))
    assert isinstance(plain, ExpertBot) and plain.match_table(rules, 2) is None
    both = [v for v in decisions(rules, 2, 6, 80) if len(v.legal) == 2]
    assert both
    for view in both:
        assert bot.probabilities(view) == {Action.STAND: 0.0, Action.SWAP: 1.0}
        assert bot.act(view) == Action.SWAP
        assert plain.probabilities(view) == ExpertBot(2, match=False).probabilities(view)
    assert parse_bot_spec(f"expert-round:{path}") == ("expert-round", {"strategy": str(path)})


def test_expert_for_the_match_decides_in_well_under_a_millisecond() -> None:
    rules = Rules.of("gnav")
    views = [v for v in decisions(rules, 2, 9, 300) if len(v.legal) == 2]
    bot = ExpertBot(1)
    bot.act(views[0])
    start = time.process_time()
    for view in views:
        bot.act(view)
    assert (time.process_time() - start) / len(views) < 2e-4


def test_what_the_expert_plays_is_the_tables_match_or_the_round() -> None:
    """A match strategy is a table's: at a 3-seat gnav table (no 3-seat match ships) the
    expert plays the round at 2 seats too, at chase-the-ace's the 3-seat match
    throughout, and at a 2-seat table the 2-seat match."""
    bot = ExpertBot(0)
    assert what_plays(bot, Rules.of("gnav"), [2, 3]) == [
        ("2", "the exact strategy of gnav at 2 seats"),
        ("3", "the exact strategy of gnav at 3 seats")]
    assert what_plays(bot, Rules.of("chase-the-ace"), [2, 3]) == [
        ("2-3", "the match strategy of chase-the-ace at 3 seats and 3 lives")]
    assert what_plays(bot, Rules.of("gnav"), [2]) == [
        ("2", "the match strategy of gnav at 2 seats and 4 lives")]


def test_expert_plays_only_its_versions_match_files_looked_up_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.of("kille")
    asked: list[int] = []

    def counted(r: Rules, seats: int, strategies: int) -> object:
        asked.append(strategies)
        return shipped_match(r, seats, strategies)

    monkeypatch.setattr("gnav.bots.expert.shipped_match", counted)
    bot = ExpertBot(1, strategies=FIRST_SET)
    for view in decisions(rules, 3, 4, 200):
        bot.act(view)
    assert asked == [FIRST_SET]  # once per bot and table size, not per decision
    assert bot.match_table(rules, 3) is shipped_match(rules, 3, FIRST_SET) is not None
    with pytest.raises(ValueError, match="unknown strategies version 0 "):
        ExpertBot(1, strategies=0)
    with pytest.raises(ValueError, match="unknown strategies version 0 "):
        table_bot("expert-round", 1, {}, strategies=0)
