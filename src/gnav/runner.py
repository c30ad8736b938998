"""One game loop for any mix of bots and people.

Every player, bot or person, is asked through the same protocol (``gnav.bot.Bot``): it
gets the seat's view and returns an action. Chance (the deal) is drawn from a generator
seeded once per match, so a match replays from its seed and its players' seeds.

``moves`` is the loop itself: it plays the round under way one decision at a time, for
as long as the caller takes its moves and there is a player for the seat to act.
``play_round`` plays a round to its end with it, ``play_match`` deals and plays rounds
until the match is over, and the online table (``gnav.table``) plays its bots' bursts
with it, stopping where a person is due. The simulator, the benchmark and the terminal
game go through ``play_round`` and ``play_match``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from random import Random
from typing import TypeAlias

from gnav.bot import Bot
from gnav.errors import IllegalActionError
from gnav.events import Event
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import seat_view
from gnav.vocab import Phase

Listener = Callable[[MatchState, tuple[Event, ...]], None]
# Who decides for a seat: a player per seat, or a function of the seat that may answer
# None ("nobody here decides now": a person is due, or the caller's budget is spent).
Players: TypeAlias = Sequence[Bot] | Callable[[int], Bot | None]
# One decision: (seat, action, the match after it, its events). A plain tuple, not a
# class: the loop makes one per decision, and a NamedTuple's constructor would cost
# the benchmark several per cent.
Move: TypeAlias = tuple[int, str, MatchState, tuple[Event, ...]]


class StopMatch(Exception):
    """Raised by a player (a person pressing q) to stop the match where it is."""


def moves(match: MatchState, players: Players) -> Iterator[Move]:
    """The decisions of the round under way, each asked of the acting seat's player
    from that seat's view, one as the caller takes it: nothing is decided ahead of the
    caller, so a caller that stops taking moves leaves the match where its last move
    left it. Stops at the round's end, or when ``players`` has nobody for the seat to
    act (a callable answering None).

    Raises IllegalActionError when a player chooses an action that is not legal."""
    # A list is indexed, not called through a bound method: this loop is the engine's
    # hot path (gnav bench), and so are the names it looks up (kept local).
    ask = players if callable(players) else None
    listed = None if callable(players) else players
    view_of = seat_view
    rnd = match.round
    while rnd is not None and rnd.turn < len(rnd.seats) and match.winners is None:
        seat = rnd.seats[rnd.turn]  # match.to_act, without its checks
        player = listed[seat] if listed is not None else ask(seat) if ask is not None \
            else None
        if player is None:
            return
        view = view_of(match, seat)
        action = player.act(view)
        if action not in view.legal:
            raise IllegalActionError(
                f"{player.name} chose {action!r} for {match.names[seat]}; "
                f"legal: {', '.join(view.legal) or 'nothing'}"
            )
        match, events = match.apply(action)
        yield seat, action, match, events
        rnd = match.round


def play_round(match: MatchState, players: Sequence[Bot], *,
               listener: Listener | None = None) -> tuple[MatchState, int]:
    """Play the round being played to its end: every decision by the acting seat's
    player, from that seat's view. Returns the match and the number of decisions.

    Raises IllegalActionError when a player chooses an action that is not legal."""
    decisions = 0
    move = None
    for move in moves(match, players):
        decisions += 1
        if listener is not None:
            listener(move[2], move[3])
    return (match if move is None else move[2]), decisions


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
    not given) and every deal, from one generator. Raises IllegalActionError when the
    players do not match the seats or a player chooses an illegal action."""
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
    except StopMatch:
        pass
    return match
