"""The coach and the analysis in the match (issue 29): where a match strategy ships for
the table, the chance to win the match standing and swapping, read from the deciding
seat's view alone, the same in the coach and in the analysis; elsewhere nothing new."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gnav
from gnav.cli import main
from gnav.match import MatchState
from gnav.odds.analyse import analyse
from gnav.odds.coach import advise
from gnav.odds.match_coach import match_chances
from gnav.odds.verdict import accuracy, win_mark
from gnav.record import Record, dumps, from_match, parse, replay
from gnav.rules import Rules
from gnav.tui.game import coach_line
from gnav.views import SeatView, seat_view
from gnav.vocab import Action


def _record(rules: Rules, seats: int, seed: int) -> Record:
    names = ["Expert", "Random"] + [f"T{i}" for i in range(seats - 2)]
    bots = [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2)] + \
        [gnav.make_bot("threshold", seed=3 + i) for i in range(seats - 2)]
    return parse(from_match(gnav.play_match(rules, names, bots, seed=seed)))


def _views(record: Record) -> list[tuple[int, int, SeatView]]:
    """(round, seat, view) of every decision with a choice, as ``analyse`` reads them."""
    out = []
    for k, seen in enumerate(replay(record).states, 1):
        for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False):
            view = seat_view(before, seat)
            if len(view.legal) >= 2:
                out.append((k, seat, view))
    return out


def _opening(rules: Rules, mine: str, theirs: str) -> SeatView:
    """The dealer's left's view at the first decision of a 2-seat match, holding
    ``mine``, the dealer holding ``theirs`` (hidden from it)."""
    rest = list(rules.deck)
    hands = [rules.ids.index(mine), rules.ids.index(theirs)]
    for piece in hands:
        rest.remove(piece)
    start = MatchState.new(rules, ("a", "b"), dealer=0,
                           lives=dict.fromkeys(range(2), rules.options.lives))
    return seat_view(start.deal(hands=hands, stock=rest), 1)


def test_the_coach_gives_the_chance_to_win_where_a_match_strategy_ships() -> None:
    rules = Rules.of("gnav")
    advice = advise(_opening(rules, "12", "3"))
    assert advice is not None and advice.wins
    assert advice.win_stand is not None and advice.win_swap is not None
    assert 0.0 < advice.win_stand < 1.0 and 0.0 < advice.win_swap < 1.0
    shown = advice.as_json()
    assert shown["win_stand"] == pytest.approx(advice.win_stand, abs=1e-6)
    assert shown["win_swap"] == pytest.approx(advice.win_swap, abs=1e-6)
    # The better action gives nothing away; the other its gap, in points.
    best = Action.SWAP if advice.win_swap > advice.win_stand else Action.STAND
    worse = Action.STAND if best == Action.SWAP else Action.SWAP
    assert advice.win_loss(best) == 0.0
    assert advice.win_loss(worse) == pytest.approx(
        100 * abs(advice.win_swap - advice.win_stand))


def test_the_figures_do_not_move_with_what_the_view_hides() -> None:
    """Two deals the deciding seat cannot tell apart (the dealer's piece and the stock
    differ) give it the same chances to win."""
    rules = Rules.of("gnav")
    first = advise(_opening(rules, "12", "3"))
    second = advise(_opening(rules, "12", "cuckoo"))
    assert first is not None and second is not None
    assert (first.win_stand, first.win_swap) == (second.win_stand, second.win_swap)


@pytest.mark.parametrize(("preset", "seats", "lives"),
                         [("gnav", 3, None), ("gnav", 2, 3), ("gnav", 4, None)])
def test_where_no_match_strategy_fits_an_exact_lookup_speaks_by_the_lives_model(
        preset: str, seats: int, lives: int | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No match file for 3 seats of gnav at its default lives, for 2 at other lives
    than the default, nor for 4 seats, and the figures are an exact lookup: the chance
    to win is the lookup's own round valued by the lives model ("model"; checked
    against an enumeration in tests/test_odds_coach.py). An exact table made without
    the chances of each ending (an older file) says what the coach said before: no
    chance to win, and no field it lacked."""
    from gnav.odds import coach

    rules = Rules.of(preset) if lives is None else Rules.of(preset, lives=lives)
    match = MatchState.new(rules, [f"s{i}" for i in range(seats)], dealer=seats - 1)
    from random import Random

    rng = Random(5)
    for _ in range(20):
        view = seat_view(match.deal(rng=rng), 0)
        if len(view.legal) < 2:
            continue
        assert match_chances(view) is None
        advice = advise(view, samples=64)
        assert advice is not None and advice.source == "exact" and advice.wins
        assert advice.win_source == "model"
        assert advice.as_json()["win_source"] == "model"
        assert advice.win_stand is not None and 0.0 < advice.win_stand < 1.0
        monkeypatch.setattr(coach, "_ends", lambda *_: None)
        before = advise(view, samples=64)
        assert before is not None and not before.wins
        assert not {"win_stand", "win_swap", "win_source"} & set(before.as_json())
        return
    raise AssertionError("no decision dealt")


def test_the_coach_and_the_analysis_give_one_view_the_same_chances() -> None:
    record = _record(Rules.of("gnav"), 2, 3)
    result = analyse(record)
    shown = result.as_json()["decisions"]
    views = _views(record)
    assert len(views) == len(result.decisions) == len(shown) > 3
    for (k, seat, view), d, row in zip(views, result.decisions, shown, strict=True):
        assert (d.round, d.seat) == (k, seat)
        advice = advise(view)
        assert advice is not None and advice.win_stand is not None
        assert advice.win_swap is not None
        assert (d.advice.win_stand, d.advice.win_swap) == (advice.win_stand,
                                                           advice.win_swap)
        assert row["win_stand"] == round(advice.win_stand, 6)
        assert row["win_swap"] == round(advice.win_swap, 6)
        taken = advice.win_swap if d.action == Action.SWAP else advice.win_stand
        loss = 100 * (max(advice.win_stand, advice.win_swap) - taken)
        assert row["win_loss"] == pytest.approx(loss, abs=1e-4)
        assert row["accuracy"] == pytest.approx(accuracy(loss), abs=0.01)
        assert row["win_mark"] == win_mark(loss)


def test_each_seats_accuracy_is_the_mean_of_its_decisions() -> None:
    record = _record(Rules.of("gnav"), 2, 4)
    result = analyse(record)
    totals = result.as_json()["totals"]
    for s, name in enumerate(result.names):
        mine = [d.accuracy for d in result.decisions if d.seat == s]
        assert all(a is not None for a in mine)
        if mine:
            assert totals[name]["accuracy"] == pytest.approx(
                sum(a for a in mine if a is not None) / len(mine), abs=0.01)
    # The match expert plays the match strategy: nothing given away where it is pure.
    expert = [d for d in result.decisions if d.seat == 0 and d.advice.wins]
    assert expert and all(d.win_loss == pytest.approx(0.0, abs=0.5) for d in expert)


def test_accuracy_and_marks_read_as_lichess_reads_a_move() -> None:
    assert accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert accuracy(5.0) < accuracy(1.0) < accuracy(0.0)
    assert accuracy(1000.0) == 0.0
    assert [win_mark(x) for x in (0.0, 4.99, 5.0, 9.99, 10.0, 14.99, 15.0, 60.0)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder",
        "blunder"]


def test_the_terminal_speaks_of_the_match_and_says_by_what() -> None:
    rules = Rules.of("gnav")
    view = _opening(rules, "12", "3")
    assert "To win the match:" in coach_line(view, "en", rules, "en")
    assert "vinne partiet" in coach_line(view, "nb", rules, "nb")
    three = MatchState.new(Rules.of("chase-the-ace"), ("a", "b", "c"), dealer=2)
    from random import Random

    rng = Random(1)
    seen = 0
    for _ in range(10):
        v = seat_view(three.deal(rng=rng), 0)
        if len(v.legal) == 2:
            assert "To win the match:" in coach_line(v, "en", v.rules, "en")
            seen += 1
    assert seen
    # 3 seats of gnav at its default lives: no match file, the exact table's round
    # valued by the lives model, and the line says so.
    gnav3 = MatchState.new(rules, [f"s{i}" for i in range(3)], dealer=2)
    seen = 0
    for _ in range(10):
        v = seat_view(gnav3.deal(rng=rng), 0)
        if len(v.legal) == 2:
            assert "To win the match, by lives:" in coach_line(v, "en", rules, "en")
            seen += 1
    assert seen


def test_gnav_analyse_prints_the_match_and_says_by_what(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.json"
    two.write_text(dumps(from_match(gnav.play_match(
        Rules.of("gnav"), ["Expert", "Random"],
        [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2)], seed=3))))
    assert main(["analyse", str(two), "--all"]) == 0
    out = capsys.readouterr().out
    assert "Lichess" in out and " points" in out and "% / " in out
    assert main(["analyse", str(two), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("win_loss" in d for d in data["decisions"])
    three = tmp_path / "three.json"
    # 3 seats of gnav at 3 lives: no match file (2 lives ship one since issue 29's lives),
    # so the chances are the lives model's of the exact table's round, said "by lives".
    three.write_text(dumps(from_match(gnav.play_match(
        Rules.of("gnav", lives=3), ["Expert", "Random", "T"],
        [gnav.make_bot("expert", seed=1), gnav.RandomBot(seed=2),
         gnav.make_bot("threshold", seed=3)], seed=3))))
    assert main(["analyse", str(three), "--all"]) == 0
    out = capsys.readouterr().out
    assert "by lives" in out and " points" in out
    assert main(["analyse", str(three), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"]
    assert all("win_loss" in d and d["win_source"] == "model" for d in data["decisions"])


def test_every_shipped_match_file_has_its_coach_table() -> None:
    """One table a match file, made for it: its states and information sets are the
    file's (``gnav odds --coach-tables`` makes a missing one; the solver's tests remake
    some and compare them whole)."""
    import gzip

    from gnav.odds.match_coach import table_path, win_table
    from gnav.strategies.match import load_match, shipped_match_files

    files = shipped_match_files()
    assert len(files) >= 10
    for path in files:
        strategy = load_match(str(path))
        table = win_table(strategy)
        assert table is not None, path.name
        assert set(table.states) == set(strategy.states), path.name
        assert {m: list(ix) for m, ix in table.index.items()} == \
            {m: list(ks) for m, ks in strategy.keys.items()}, path.name
        # Named by the file's lives too (gnav-3-lives2), as the match files are.
        data = json.loads(gzip.decompress(table_path(strategy.preset, strategy.seats,
                                                     strategy.lives).read_bytes()))
        assert data["preset"] == strategy.preset and data["seats"] == strategy.seats
        assert data["lives"] == strategy.lives


def test_a_large_table_down_to_four_seats_speaks_by_the_lives_model() -> None:
    """Gnav at 6 seats and 1 life, played until four seats are left: the coach's figures
    are the 4-seat exact table's, and its chance to win is that round valued by the
    lives model at the match's lives (the seats out count for nothing)."""
    from random import Random

    rules = Rules.of("gnav", lives=1)
    rng = Random(11)
    seen = 0
    for _ in range(40):
        match = MatchState.new(rules, [f"s{i}" for i in range(6)], dealer=5)
        while not match.over and seen < 6:
            if match.to_act is None:
                match = match.deal(rng=rng)
                continue
            legal = match.legal_actions()
            view = seat_view(match, match.to_act)
            if len(view.order) == 4 and len(view.legal) == 2:
                advice = advise(view)
                assert advice is not None and advice.source == "exact"
                assert advice.win_source == "model"
                assert advice.win_stand is not None and advice.win_swap is not None
                assert min(advice.win_stand, advice.win_swap) >= 0.0
                assert max(advice.win_stand, advice.win_swap) <= 1.0
                seen += 1
            match, _ = match.apply(rng.choice(legal))
        if seen >= 6:
            return
    raise AssertionError(f"only {seen} decisions at four seats left")
