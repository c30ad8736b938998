"""tools/strategy_tables.py, the report on the shipped equilibria: its keys are real
information sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from gnav.rules import Rules
from strategy_tables import main, plain_key, plain_swaps, self_play, table


def test_plain_keys_are_in_the_table() -> None:
    rules, seats, strategy = table("gnav-3")
    swaps = plain_swaps(rules, seats, strategy)
    # Every piece can be held in the plain situation at every position of 3 seats.
    assert all(p is not None for row in swaps.values() for p in row)
    assert plain_key(rules, 3, 1, "fool") == "1/3|fool|fool|K1,S0"
    silent = Rules.of("gnav", knock="silent")
    assert plain_key(silent, 3, 1, "fool") == "1/3|fool|fool|S0"


def test_self_play_counts_every_two_way_decision() -> None:
    rules, seats, strategy = table("gnav-3")
    play = self_play(rules, seats, strategy, 50, seed=2)
    assert play.total == sum(play.decisions.values()) > 50
    assert 0.0 <= play.rate(["fool"]) <= 1.0


def test_report_prints_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rounds", "20", "--plots", str(tmp_path), "hypp-3"]) == 0
    out = capsys.readouterr().out
    assert "### hypp, 3 seats" in out and "| fool |" in out
    assert (tmp_path / "hypp-3.png").stat().st_size > 1000
    assert main(["le-her-3"]) == 2


def test_the_plot_names_pieces_as_the_game_does_and_says_which_end_is_which() -> None:
    import matplotlib.pyplot as plt

    from strategy_tables import figure, report

    _, figures = report("gnav-3", 20, 1)
    fig = figure("gnav-3", figures)
    try:
        heat, _, bar = fig.axes
        pieces = [t.get_text() for t in heat.get_yticklabels()]
        assert pieces[:3] == ["Cuckoo", "Dragoon", "Cat"]
        assert {"XII", "IV", "III", "O", "Fool"} <= set(pieces)
        assert not {"3", "4", "12", "fool"} & set(pieces)  # ids are not what players see
        ends = [t.get_text() for t in bar.get_yticklabels()]
        assert ends[0] == "0: stands" and ends[-1] == "1: swaps"
    finally:
        plt.close(fig)
