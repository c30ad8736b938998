"""A claim's patterns read as the module says: ``@me`` is the player, ``$x`` binds a
placeholder (a seat by name, a piece as a piece), the same ``$x`` twice must agree, a
literal None must be None, and the events must come in a row."""

from __future__ import annotations

from gnav.learn.claims import CLAIMS, find, match_at

ASK = {"type": "ask", "seat": "Astrid", "target": "You"}
SWAP = {"type": "swap", "seat": "Astrid", "target": "You", "seat_got": "11", "target_got": "1"}
STAND = {"type": "stand", "seat": "Bjørn"}


def test_bindings_are_seats_by_name_and_pieces_as_pieces() -> None:
    bound = match_at(CLAIMS["learn.asked_number"], [ASK, SWAP], 0, "You")
    assert bound == {"asker": {"seat": "Astrid"}, "gave": {"piece": "11"},
                     "got": {"piece": "1"}}
    # The player is someone else: the claim is not about them.
    assert match_at(CLAIMS["learn.asked_number"], [ASK, SWAP], 0, "Bjørn") is None


def test_the_same_placeholder_twice_must_agree_and_events_come_in_a_row() -> None:
    other = {**SWAP, "seat": "Cecilie"}  # the swap is not with the asker
    assert match_at(CLAIMS["learn.asked_number"], [ASK, other], 0, "You") is None
    assert find(CLAIMS["learn.asked_number"], [ASK, STAND, SWAP], 0, "You") is None
    assert find(CLAIMS["learn.asked_number"], [STAND, ASK, SWAP], 0, "You") == (
        2, {"asker": {"seat": "Astrid"}, "gave": {"piece": "11"}, "got": {"piece": "1"}})
    assert find(CLAIMS["learn.asked_number"], [STAND, ASK, SWAP], 2, "You") is None


def test_a_literal_none_and_a_list_hold_exactly() -> None:
    draw = [{"type": "ask", "seat": "Cecilie", "target": None},
            {"type": "draw", "seat": "Cecilie", "piece": None, "set_aside": None}]
    assert match_at(CLAIMS["learn.dealer_draws"], draw, 0, "You") == {
        "dealer": {"seat": "Cecilie"}}
    asked = [{**draw[0], "target": "You"}, draw[1]]
    assert match_at(CLAIMS["learn.dealer_draws"], asked, 0, "You") is None
    win = CLAIMS["learn.you_win"]
    assert match_at(win, [{"type": "match_end", "winners": ["You"]}], 0, "You") == {}
    assert match_at(win, [{"type": "match_end", "winners": ["You", "Bjørn"]}], 0, "You") is None
    # A bound field that is None (the stock's draw hides its piece) binds nothing.
    mine = [{**draw[0], "seat": "You"}, {**draw[1], "seat": "You", "piece": "12",
                                           "set_aside": "1"}]
    assert match_at(CLAIMS["learn.you_draw"], mine, 0, "You") == {
        "got": {"piece": "12"}, "old": {"piece": "1"}}
    hidden = [mine[0], {**mine[1], "piece": None}]
    assert match_at(CLAIMS["learn.you_draw"], hidden, 0, "You") is None
