"""One game loop for any mix of bots and people.

Every player, bot or person, is asked through the same protocol (``gnav.bot.Bot``): it
gets the seat's view and returns an action. Chance (the deal) is drawn from a generator
seeded once per match, so a match replays from its seed and its players' seeds.

``play_round`` is the loop itself; ``play_match`` deals and plays rounds until the match
is over. The simulator, the benchmark and the terminal game all go through them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random

from gnav.bot import Bot
from gnav.errors import IllegalActionError
from gnav.events import Event
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import seat_view
from gnav.vocab import Phase

Listener = Callable[[MatchState, tuple[Event, ...]], None]


class StopMatch(Exception):
    """Raised by a player (a person pressing q) to stop the match where it is."""


def play_round(match: MatchState, players: Sequence[Bot], *,
               listener: Listener | None = None) -> tuple[MatchState, int]:
    """Play the round being played to its end: every decision by the acting seat's
    player, from that seat's view. Returns the match and the number of decisions.

    Raises IllegalActionError when a player chooses an action that is not legal."""
    decisions = 0
    rnd = match.round
    while rnd is not None and rnd.turn < len(rnd.seats) and match.winners is None:
        seat = rnd.seats[rnd.turn]  # match.to_act, without its checks
        view = seat_view(match, seat)
        player = players[seat]
        action = player.act(view)
        if action not in view.legal:
            raise IllegalActionError(
                f"{player.name} chose {action!r} for {match.names[seat]}; "
                f"legal: {', '.join(view.legal) or 'nothing'}"
            )
        match, events = match.apply(action)
        decisions += 1
        if listener is not None:
            listener(match, events)
        rnd = match.round
    return match, decisions


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
