"""The bot protocol, defined in the core (``gnav.bot``); kept here for old imports."""

from gnav.bot import Bot

__all__ = ["Bot"]
