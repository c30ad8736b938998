"""One game loop for any mix of bots and people.

Every player, bot or person, is asked through the same protocol (``gnav.protocol.Bot``): it
gets the seat's view and returns an action. Chance (the deal) is drawn from a generator
seeded once per match, so a match replays from its seed and its players' seeds.

``play_until`` is the loop itself: it plays the round under way one decision at a time,
each asked of the acting seat's player and applied before the next is asked, for as
long as there is a player for the seat to act. ``play_round`` plays a round to its end
with it, ``play_match`` deals and plays rounds until the match is over, and the online
table (``gnav.table``) plays its bots' bursts with it, its players answering None where
a person is due or the burst's share is played. The simulator, the benchmark and the
terminal game go through ``play_round`` and ``play_match``. A round dealt with its stock
undrawn stops where chance is to draw (``Phase.DRAW``): chance is nobody's player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import TypeAlias

from gnav.errors import IllegalActionError
from gnav.events import Event
from gnav.match import MatchState
from gnav.protocol import Bot
from gnav.rules import Rules
from gnav.views import seat_view, seat_view_during
from gnav.vocab import Phase

Listener = Callable[[MatchState, tuple[Event, ...]], None]
# Hears each decision as it is applied: (seat, action, the match after it, its events).
Moved = Callable[[int, str, MatchState, tuple[Event, ...]], None]
# Who decides for a seat: a player per seat, or a function of the seat that may answer
# None ("nobody here decides now": a person is due, or the caller's budget is spent).
Players: TypeAlias = Sequence[Bot] | Callable[[int], Bot | None]


class StopMatch(Exception):
    """Raised by a player (a person pressing q) to stop the match where it is.

    The game loop notes on it the match as it stood (``match``: every decision applied,
    a round that has just ended settled), and ``play_match`` returns that: a person
    quitting at "Round over" keeps the round they have just played."""

    match: MatchState | None = None


def play_until(match: MatchState, players: Players,
               moved: Moved | None = None) -> tuple[MatchState, int]:
    """Play the round under way, every decision by the acting seat's player from that
    seat's view, until the round ends or ``players`` has nobody for the seat to act (a
    callable answering None; it is asked just before each decision, so it sees every
    decision before applied), or chance is to draw from an undrawn stock. ``moved`` hears
    each decision once it is applied, before the next player is asked. Returns the match
    and the number of decisions.

    :raises: :exc:`IllegalActionError` if a player chooses an action that is not legal.
    """
    rnd = match.round
    if moved is None and not callable(players) and (rnd is None or not rnd.undrawn):
        return _play_out(match, players)
    # A list is indexed, not called through a bound method, and the names the loop looks
    # up are local: this loop is the engine's hot path (gnav bench).
    ask = players if callable(players) else None
    listed = None if callable(players) else players
    view_of = seat_view
    decisions = 0
    try:
        while rnd is not None and rnd.turn < len(rnd.seats) and not rnd.drawing \
                and match.winners is None:
            seat = rnd.seats[rnd.turn]  # match.to_act, without its checks
            player = listed[seat] if listed is not None else ask(seat) if ask is not None \
                else None
            if player is None:
                break
            view = view_of(match, seat)
            action = player.act(view)
            if action not in view.legal:
                raise _illegal(player, action, match.names[seat], view.legal)
            match, events = match.apply(action)
            decisions += 1
            if moved is not None:
                moved(seat, action, match, events)  # may stop: the match is applied
            rnd = match.round
    except StopMatch as stop:
        if stop.match is None:
            stop.match = match
        raise
    return match, decisions


def _illegal(player: Bot, action: object, name: str,
             legal: Sequence[str]) -> IllegalActionError:
    return IllegalActionError(f"{player.name} chose {action!r} for {name}; "
                              f"legal: {', '.join(legal) or 'nothing'}")


def _play_out(match: MatchState, players: Sequence[Bot]) -> tuple[MatchState, int]:
    """``play_until`` with a player for every seat and nobody hearing the decisions, the
    stock known: the round is played on its own state and the match rebuilt once, when
    the round ends
    (rebuilding it at every decision was a tenth of gnav bench). tests/test_runner.py
    holds it equal to the loop that rebuilds the match at each decision."""
    rnd = match.round
    if rnd is None or match.winners is not None:
        return match, 0
    seats = rnd.seats
    n = len(seats)
    view_of = seat_view_during
    decisions = 0
    events: tuple[Event, ...] = ()
    try:
        while rnd.turn < n:
            seat = seats[rnd.turn]
            player = players[seat]
            view = view_of(match, rnd, seat)
            action = player.act(view)
            if action not in view.legal:
                raise _illegal(player, action, match.names[seat], view.legal)
            rnd, events = rnd.apply(action)
            decisions += 1
    except StopMatch as stop:  # stopped mid-round (the round cannot have ended here)
        if stop.match is None:
            stop.match = match._replace(round=rnd)
        raise
    if decisions:
        match, _ = match.settle(rnd, events)
    return match, decisions


def play_round(match: MatchState, players: Sequence[Bot], *,
               listener: Listener | None = None) -> tuple[MatchState, int]:
    """Play the round being played to its end (``play_until`` with a player for every
    seat). ``listener`` hears the match and the events of every decision. Returns the
    match and the number of decisions.

    :raises: :exc:`IllegalActionError` if a player chooses an action that is not legal.
    """
    if listener is None:
        return play_until(match, players)
    hear = listener
    return play_until(match, players, lambda _s, _a, after, events: hear(after, events))


def play_match(
    rules: Rules,
    names: Sequence[str],
    players: Sequence[Bot],
    *,
    seed: int | None = None,
    dealer: int | None = None,
    lives: Mapping[int, int] | None = None,
    listener: Listener | None = None,
    max_rounds: int | None = None,
    match: MatchState | None = None,
) -> MatchState:
    """Play until the match is over (or ``max_rounds`` more rounds, or a StopMatch),
    and return the final state. ``listener`` hears the public events of every step.

    ``seed`` seeds everything chance decides: the first dealer's cut (when ``dealer`` is
    not given) and every deal, from one generator.

    :raises: :exc:`IllegalActionError` if the players do not match the seats or a player
        chooses an illegal action.
    """
    if len(players) != len(names):
        raise IllegalActionError(f"{len(names)} seats need {len(names)} players, "
                                 f"not {len(players)}")
    rng = Random(seed)
    if match is None:
        match = MatchState.new(rules, names, dealer=dealer, seed=seed, lives=lives)
    dealt = 0
    try:
        match, _ = play_round(match, players, listener=listener)  # one under way
        while match.phase == Phase.DEAL:
            if max_rounds is not None and dealt >= max_rounds:
                break
            match = match.deal(rng=rng)
            dealt += 1
            if listener is not None and match.round is not None:
                listener(match, match.round.public)
            match, _ = play_round(match, players, listener=listener)
    except StopMatch as stop:  # the match as the loop left it, not as this round began
        match = match if stop.match is None else stop.match
    return match
