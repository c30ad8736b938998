"""The bot protocol: a seat's view in, an action out.

It lives in the core, beside the views it reads, so the game loop (``gnav.runner``), the
table and the RL adapters depend on the protocol and never on the bots package.
"""

from __future__ import annotations

from typing import Protocol

from gnav.views import SeatView


class Bot(Protocol):
    """Anything that can decide for a seat from that seat's view alone."""

    @property
    def name(self) -> str:
        """What the bot is called (a bot kind, or "human")."""
        ...

    def act(self, view: SeatView) -> str:
        """One of ``view.legal``.

        :raises: :exc:`IllegalActionError` for a view with nothing legal (not its turn).
        """
        ...
