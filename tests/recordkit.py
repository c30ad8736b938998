"""Records for the web tests (no tests here): a finished match of random bots."""

from __future__ import annotations

import random

from gnav.bots import RandomBot
from gnav.match import MatchState
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.views import seat_view


def bots_match(seed: int, names: tuple[str, ...] = ("Ada", "Bo", "Cy", "Di"),
               lives: int = 2) -> str:
    """A finished match of random bots, as a record's text."""
    rules = Rules.of("gnav", lives=lives)
    match = MatchState.new(rules, list(names), seed=seed)
    rng = random.Random(seed)
    bot = RandomBot(seed)
    while not match.over:
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        match, _ = match.apply(bot.act(seat_view(match, seat)))
    return dumps(from_match(match))
