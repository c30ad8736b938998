"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from random import Random

from gnav.errors import IllegalActionError
from gnav.views import SeatView
from gnav.vocab import Action, BotKind


class RandomBot:
    """A legal action at random, stand and swap alike; deterministic given ``seed``."""

    name = BotKind.RANDOM

    def __init__(self, seed: int | None = None) -> None:
        # The bound method: one lookup fewer on every decision (the same draws).
        self._random = Random(seed).random

    def act(self, view: SeatView) -> Action:
        """A random one of ``view.legal``.

        :raises: :exc:`IllegalActionError` if nothing is legal.
        """
        legal = view.legal
        if not legal:
            raise IllegalActionError("no decision is due for this view")
        return legal[0] if len(legal) == 1 else legal[self._random() < 0.5]
