"""The bot protocol."""

from __future__ import annotations

from typing import Protocol

from gnav.views import SeatView


class Bot(Protocol):
    """Anything that can decide for a seat from that seat's view alone."""

    name: str

    def act(self, view: SeatView) -> str:
        """One of ``view.legal``."""
        ...
