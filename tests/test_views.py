"""Unit tests of per-seat views (gnav.views): what each seat, and a spectator, sees."""

from __future__ import annotations

from typing import Any

import pytest

from gnav.errors import IllegalActionError
from gnav.events import Answer, Ask, Draw, Knock, Showdown, Stand, Swap, Undo
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import SeatView, seat_view, spectator_view

NAMES = ("A", "B", "C", "D")
A, B, C, D = range(4)  # D deals: the turn order is A, B, C, D


def dealt(hands: tuple[str, ...], stock: tuple[str, ...] = ("4", "10", "6"),
          preset: str = "gnav", names: tuple[str, ...] = NAMES,
          **options: Any) -> MatchState:
    """A match with the last seat dealing ``hands`` (in seat order) and ``stock``."""
    rules = Rules.of(preset, **options)
    match = MatchState.new(rules, names, dealer=len(names) - 1)
    return match.deal([rules.index(p) for p in hands], [rules.index(p) for p in stock])


def act(match: MatchState, *actions: tuple[int, str]) -> MatchState:
    for seat, action in actions:
        match, _ = match.apply_for(seat, action)
    return match


def views(match: MatchState) -> dict[int, SeatView]:
    return {s: seat_view(match, s) for s in range(len(match.names))}


def hidden_pieces(view: SeatView) -> list[str]:
    """Every piece id shown in ``view``'s events of the kinds that can hide one."""
    out: list[str] = []
    for e in view.events:
        if type(e) is Swap:
            out += [p for p in (e.seat_got, e.target_got) if p is not None]
        elif type(e) is Draw:
            out += [p for p in (e.piece, e.set_aside) if p is not None]
        elif type(e) is Undo and e.piece is not None:
            out.append(e.piece)
    return out


def test_each_seat_sees_only_its_own_piece() -> None:
    match = dealt(("5", "7", "2", "9"))
    for seat, piece in zip(range(4), ("5", "7", "2", "9"), strict=True):
        view = seat_view(match, seat)
        assert view.seat == seat
        assert view.piece == piece and view.dealt == piece
        assert view.events[0].kind == "round_start"
        assert getattr(view.events[0], "piece", None) == piece
        assert view.private == ()
        assert hidden_pieces(view) == []
        # Nothing in the public part of the view names the seat's piece, or another's.
        assert getattr(view.public[0], "piece", "?") is None
    assert seat_view(match, A).legal == ("stand", "swap")
    assert seat_view(match, B).legal == ()
    assert seat_view(match, A).my_turn and not seat_view(match, B).my_turn


def test_spectator_sees_no_piece_and_no_overlay() -> None:
    match = act(dealt(("5", "7", "2", "9")), (A, "swap"), (B, "stand"))
    spectator = spectator_view(match)
    with pytest.raises(IllegalActionError, match="spectator_view"):
        seat_view(match, None)  # type: ignore[arg-type]
    assert spectator.seat is None
    assert spectator.piece is None and spectator.dealt is None
    assert spectator.private == () and spectator.legal == ()
    assert not spectator.my_turn
    assert spectator.events == list(spectator.public)
    assert getattr(spectator.events[0], "piece", "?") is None
    assert hidden_pieces(spectator) == []
    assert spectator.to_act == C and spectator.stock_left == 3
    # Each seat's view shares the spectator's public log and adds only its overlay.
    for view in views(match).values():
        assert view.public == spectator.public


def test_swappers_see_the_pieces_and_a_third_seat_does_not() -> None:
    match = act(dealt(("5", "7", "2", "9")), (A, "swap"))
    seen = views(match)
    full = Swap(A, B, "7", "5")
    assert seen[A].events[-1] == full
    assert seen[B].events[-1] == full
    assert seen[A].piece == "7" and seen[B].piece == "5"
    assert seen[A].dealt == "5" and seen[B].dealt == "7"
    for watcher in (seen[C], seen[D], spectator_view(match)):
        assert watcher.events[-1] == Swap(A, B, None, None)
        assert watcher.events[-2] == Ask(A, B)
        assert "5" not in hidden_pieces(watcher) and "7" not in hidden_pieces(watcher)
    assert seen[C].piece == "2" and seen[C].private == ()


def test_dealer_stock_draw_is_private_to_the_dealer() -> None:
    match = act(dealt(("5", "7", "2", "9")), (A, "stand"), (B, "stand"), (C, "stand"),
                (D, "swap"))
    seen = views(match)
    draws = {s: [e for e in v.events if type(e) is Draw] for s, v in seen.items()}
    assert draws[D] == [Draw(D, "4", "9")]
    for seat in (A, B, C):
        assert draws[seat] == [Draw(D, None, None)]
    spectator = spectator_view(match)
    assert [e for e in spectator.events if type(e) is Draw] == [Draw(D, None, None)]
    assert seen[D].piece == "4" and seen[D].dealt == "9"
    # The set-aside 9 is never shown to anyone else, not even at the showdown.
    for view in (seen[A], seen[B], seen[C], spectator):
        shown = [e for e in view.events if type(e) is Showdown]
        assert len(shown) == 1 and shown[0].hands[D] == "4"
        assert "9" not in hidden_pieces(view)
    assert spectator.stock_left == 2


def test_non_dealer_draw_after_a_pass_at_the_dealer_is_private() -> None:
    # C asks D, whose Horse passes the request on to the stock: C draws the 4.
    match = act(dealt(("5", "7", "2", "horse")), (A, "stand"), (B, "stand"), (C, "swap"))
    seen = views(match)
    assert Draw(C, "4", "2") in seen[C].events
    assert seen[C].piece == "4"
    for watcher in (seen[A], seen[B], seen[D], spectator_view(match)):
        assert Draw(C, None, None) in watcher.events
        assert "2" not in hidden_pieces(watcher) and "4" not in hidden_pieces(watcher)
    assert seen[A].revealed == {D: "horse"}


def test_undo_overlay_shows_each_seat_its_own_piece() -> None:
    # A swaps with B; B (now on 5) asks C's Cat: B pays and everything goes back.
    match = act(dealt(("5", "7", "cat", "9")), (A, "swap"), (B, "swap"))
    seen = views(match)
    for seat, piece in zip(range(4), ("5", "7", "cat", "9"), strict=True):
        undos = [e for e in seen[seat].events if type(e) is Undo]
        assert undos == [Undo(C, piece)]
        assert seen[seat].piece == piece
    spectator = spectator_view(match)
    assert [e for e in spectator.events if type(e) is Undo] == [Undo(C, None)]
    assert match.current_lives()[B] == 3
    # D took no part in the swap and learns only its own piece back.
    assert hidden_pieces(seen[D]) == ["9"]


def test_knocked_fools_are_public_with_knock_public() -> None:
    match = dealt(("5", "fool", "2", "fool"))
    for view in (*views(match).values(), spectator_view(match)):
        assert view.knocked == (B, D)
        assert Knock(B) in view.public and Knock(D) in view.public


def test_knocked_fools_are_absent_with_knock_silent() -> None:
    match = dealt(("5", "fool", "2", "fool"), knock="silent")
    for view in (*views(match).values(), spectator_view(match)):
        assert view.knocked == ()
        assert not any(type(e) is Knock for e in view.public)
    assert seat_view(match, B).piece == "fool"
    assert seat_view(match, A).piece == "5"


def test_revealed_map_lists_answering_matadors_by_seat() -> None:
    # A asks the Dragoon (A pays), C asks the Horse of D: passed on to the stock.
    match = dealt(("5", "dragoon", "2", "horse"), stock=("cuckoo", "3"), revealed="act")
    assert spectator_view(match).revealed == {}
    match = act(match, (A, "swap"))
    for view in (*views(match).values(), spectator_view(match)):
        assert view.revealed == {B: "dragoon"}
    assert match.current_lives()[A] == 3
    match = act(match, (B, "stand"), (C, "swap"))
    # The stock's Cuckoo answers C: public, but it belongs to no seat.
    spectator = spectator_view(match)
    assert spectator.revealed == {B: "dragoon", D: "horse"}
    assert Answer(None, "cuckoo", "stop", C) in spectator.events
    assert match.phase == "deal"


def test_after_showdown_all_hands_are_public() -> None:
    match = act(dealt(("5", "7", "2", "9")), (A, "swap"), (B, "swap"), (C, "stand"),
                (D, "stand"))
    spectator = spectator_view(match)
    shows = [e for e in spectator.public if type(e) is Showdown]
    assert len(shows) == 1
    assert dict(shows[0].hands) == {A: "7", B: "2", C: "5", D: "9"}
    assert spectator.phase == "deal" and spectator.to_act is None
    for view in views(match).values():
        assert [e for e in view.events if type(e) is Showdown] == shows
        assert view.legal == ()
    assert spectator.lives == (4, 3, 4, 4)  # B ends on the 2, the lowest, and pays


def test_legal_in_views_under_stand_needs_matador() -> None:
    match = dealt(("cuckoo", "7", "2", "9"), stand_needs_matador=True)
    assert seat_view(match, A).legal == ("stand", "swap")
    assert seat_view(match, B).legal == ()
    match = act(match, (A, "stand"))
    assert spectator_view(match).events[-1] == Stand(A)
    assert seat_view(match, B).legal == ("swap",)
    assert seat_view(match, A).legal == ()


def test_a_seat_sitting_out_sees_no_piece() -> None:
    names = ("A", "B", "C", "D", "E")
    match = dealt(("fool", "5", "7", "2", "fool"), names=names)
    match = act(match, *((s, "stand") for s in range(5)))
    assert match.sitting_out == (0, 4)
    rules = match.rules
    match = match.deal([rules.index(p) for p in ("3", "8", "6")], [rules.index("9")])
    assert match.turn_order() == (2, 3, 1)
    for seat in (0, 4):
        view = seat_view(match, seat)
        assert view.piece is None and view.dealt is None
        assert view.private == () and view.legal == ()
        assert view.sitting_out == (0, 4)
        assert view.events == list(spectator_view(match).public)
    assert seat_view(match, 1).piece == "6"


def test_seat_view_of_none_or_of_no_seat_is_an_error() -> None:
    # A lost seat number must not turn into a spectator's view silently.
    match = dealt(("5", "7", "2", "9"))
    with pytest.raises(IllegalActionError, match="spectator_view"):
        seat_view(match, None)  # type: ignore[arg-type]
    for seat in (-1, 4):
        with pytest.raises(IllegalActionError, match="no seat"):
            seat_view(match, seat)
