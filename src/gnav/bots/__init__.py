"""Bots: each takes a seat's view (never the state) and returns an action."""

from gnav.bots.base import Bot
from gnav.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
