"""tools/match_winrates.py: its cells, its interval, where the expert and the round's
expert are one bot, and that every row's printed command gives the row again."""

from __future__ import annotations

import contextlib
import io
import json
import math
from typing import Any

import pytest

import match_winrates as mw
from gnav.cli import main as gnav
from gnav.errors import GnavError
from gnav.rules import Rules
from gnav.sim.stats import t_quantile
from gnav.strategies.match import shipped_match
from gnav.strategies.match_policy import shipped_match_policy


def test_a_table_alone_is_its_four_cells_and_a_pair_one() -> None:
    cells = mw.parse_cells("gnav-2, cuccu-3-lives2:expert-round/threshold,gnav-2")
    two = mw.Table("gnav", 2, None)
    assert cells[:4] == [mw.Cell(two, c, f) for c, f in mw.PAIRS]
    assert {(c.challenger, c.field) for c in cells[:4]} == {
        ("expert", "expert-round"), ("expert", "counter"), ("expert", "threshold"),
        ("expert-round", "expert")}
    assert cells[4] == mw.Cell(mw.Table("cuccu", 3, 2), "expert-round", "threshold")
    assert len(cells) == 5  # gnav-2 named twice is measured once
    assert cells[4].table.name == "cuccu-3-lives2"
    assert cells[4].table.options() == ["-o", "lives=2"]


@pytest.mark.parametrize(("text", "said"), [
    ("gnav", "a table is PRESET-SEATS"),
    ("gnav-2:expert", "a cell is TABLE[:CHALLENGER/FIELD]"),
    ("gnav-2:expert/zombie", "a cell is TABLE[:CHALLENGER/FIELD]"),
    ("gnav-2:expert/expert", "a cell is TABLE[:CHALLENGER/FIELD]"),
    ("gnav-1", "gnav takes 2 to 41 seats"),
    ("nope-3", "unknown preset 'nope'"),
])
def test_a_bad_cell_is_refused_before_any_run(text: str, said: str) -> None:
    with pytest.raises((GnavError, ValueError)) as caught:
        mw.parse_cells(text)
    assert said in str(caught.value)


def test_a_large_table_plays_the_options_gnav_simulate_sets() -> None:
    # gnav simulate --matches plays a table as gnav.lengths.at_table sets it; so does
    # every cell, on either engine.
    from gnav.lengths import at_table

    t = mw.Table.parse("gnav-20")
    assert t.rules() == at_table(Rules.of("gnav"), 20)
    assert mw.Table.parse("gnav-3-lives2").rules().options.lives == 2


@pytest.mark.parametrize("name", ["gnav-2", "gnav-3", "gnav-3-lives2", "cuccu-3", "kille-3",
                                  "gnav-4", "gnav-10", "gnav-20", "cuccu-10"])
def test_the_expert_plays_the_match_where_a_file_ships_for_the_table(name: str) -> None:
    t = mw.Table.parse(name)
    # Second method: the shipped set's files themselves, by the table's rules and size: a
    # match strategy of the table's size, or (issue 29 §2, changed on purpose: expert
    # plays gnav's trained match policies from 5 seats) a match policy at a number of
    # active seats the table passes through.
    rules = t.rules()
    policies = any(shipped_match_policy(rules, n) is not None
                   for n in range(5, t.seats + 1))
    assert mw.plays_match(t) == (shipped_match(rules, t.seats) is not None or policies)


def test_where_the_two_experts_are_one_the_cell_says_so_and_plays_nothing() -> None:
    gnav3 = mw.Table.parse("gnav-3")  # 4 lives: no 3-seat match ships
    assert not mw.plays_match(gnav3)
    for challenger, field in (("expert", "expert-round"), ("expert-round", "expert")):
        cell = mw.Cell(gnav3, challenger, field)
        assert mw.engine_of(cell, "auto") == mw.SAME
        row = mw.measure(cell, 50, 10, 1, "auto")
        assert row.win_rate is None and row.command == "" and row.cpu_seconds == 0
        assert row.note == "same strategy: no match policy at 3 seats"
    # Where a file ships, the two differ and are played.
    lives2 = mw.Cell(mw.Table.parse("gnav-3-lives2"), "expert", "expert-round")
    assert mw.engine_of(lives2, "auto") == mw.REFERENCE


def test_the_engine_is_the_batch_only_where_it_plays_the_bots_themselves() -> None:
    six, two, four = (mw.Table.parse(t) for t in ("gnav-6", "gnav-2", "gnav-4"))
    assert mw.engine_of(mw.Cell(six, "expert", "threshold"), "auto") == mw.BATCH
    assert mw.engine_of(mw.Cell(six, "expert", "threshold"), "reference") == mw.REFERENCE
    assert mw.engine_of(mw.Cell(six, "expert", "counter"), "auto") == mw.REFERENCE
    # Exact strategies below 5 seats, and a match file at 2: not tables of the engine.
    assert mw.engine_of(mw.Cell(four, "expert", "threshold"), "auto") == mw.REFERENCE
    assert mw.engine_of(mw.Cell(two, "expert", "threshold"), "auto") == mw.REFERENCE


def test_the_rotated_rate_is_a_mean_over_sequences_with_a_t_interval() -> None:
    # By hand: sequence means 0.5, 0 and 1; mean 0.5, sample sd 0.5, 2 degrees of freedom.
    got = mw.rotated_rate([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    half = t_quantile(2) * 0.5 / math.sqrt(3)
    assert got.value == pytest.approx(0.5) and got.n == 3
    assert (got.low, got.high) == pytest.approx((0.5 - half, 0.5 + half))
    d = mw.fair_difference(got, 4)
    assert (d.value, d.low, d.high) == pytest.approx((0.25, 0.25 - half, 0.25 + half))


def _gnav_json(args: list[str]) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert gnav(args) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_a_reference_row_is_what_its_printed_command_says() -> None:
    cell = mw.parse_cells("chase-the-ace-3:expert/threshold")[0]
    row = mw.measure(cell, 6, 600, 5, "auto")
    assert row.engine == mw.REFERENCE and row.matches == 6
    assert row.command.startswith("gnav simulate --preset chase-the-ace --seats 3 ")
    again = _gnav_json(row.command.split()[1:])["challenger"]
    assert again["win_rate"] == row.win_rate
    # The pooled rate is the mean of the seats' rates: each seat played every sequence.
    seats = [r["challenger_win_rate"]["value"] for r in again["by_seat"]]
    assert row.win_rate is not None
    assert row.win_rate["value"] == pytest.approx(sum(seats) / 3, abs=1e-5)
    assert row.fair == pytest.approx(1 / 3)


def test_counter_cells_are_bounded() -> None:
    cell = mw.parse_cells("gnav-2:expert/counter")[0]
    row = mw.measure(cell, 500, 2, 3, "auto")
    assert row.matches == 2 and "--matches 2 " in row.command


def test_counter_above_its_seats_is_not_played_and_says_so() -> None:
    cell = mw.parse_cells("gnav-10:expert/counter")[0]
    row = mw.measure(cell, 500, 600, 3, "auto", counter_seats=4)
    assert row.engine == mw.SKIPPED and row.win_rate is None and row.command == ""
    assert "above 4 seats" in row.note and "| not played | — |" in mw.markdown([row])


def test_a_batch_row_is_what_its_printed_command_says() -> None:
    cell = mw.parse_cells("gnav-5:expert-round/threshold")[0]
    row = mw.measure(cell, 8, 600, 7, "auto")
    assert row.engine == mw.BATCH and row.win_rate is not None
    assert row.win_rate["n"] == 8  # sequences of 5 matches, the challenger at each seat
    args = row.command.split()[2:]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert mw.main([*args, "--json"]) == 0
    (again,) = json.loads(out.getvalue())
    assert again["win_rate"] == row.win_rate and again["engine"] == mw.BATCH
    # Shares of a win: the rate stays a chance.
    assert 0 <= row.win_rate["value"] <= 1


def test_the_markdown_names_every_cell_and_the_commands() -> None:
    rows = [mw.measure(c, 4, 600, 2, "auto")
            for c in mw.parse_cells("gnav-3:expert/expert-round,gnav-2:expert/threshold")]
    text = mw.markdown(rows)
    assert "| gnav-3 | expert among expert-round | same | — |" in text
    assert "same strategy: no match policy at 3 seats" in text
    assert "| gnav-2 | expert among threshold | reference | 4 x 2 | 2 |" in text
    assert text.count("    gnav simulate ") == 1


def test_the_cost_of_a_decision_is_measured_for_both_experts() -> None:
    row = mw.decision_cost(mw.Table.parse("gnav-2"), 40, 1, repeat=1)
    assert row["decisions"] == 40
    assert 0 < row["expert"] < 1 and 0 < row["expert-round"] < 1
    assert row["expert plays"].startswith("the match strategy of gnav at 2 seats")
    assert "slowest:" in mw.cost_markdown([row])
