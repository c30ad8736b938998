"""Bots: each takes a seat's view (never the state) and returns an action."""

from gnav.bots.counter import CounterBot
from gnav.bots.expert import ExpertBot
from gnav.bots.random_bot import RandomBot
from gnav.bots.registry import BOT_KINDS, bot_from_spec, make_bot, parse_bot_spec
from gnav.bots.threshold import ThresholdBot
from gnav.protocol import Bot

__all__ = [
    "BOT_KINDS", "Bot", "CounterBot", "ExpertBot", "RandomBot", "ThresholdBot", "bot_from_spec",
    "make_bot", "parse_bot_spec",
]
