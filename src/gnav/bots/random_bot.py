"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from random import Random

from gnav.views import SeatView


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = Random(seed)

    def act(self, view: SeatView) -> str:
        legal = view.legal
        return legal[0] if len(legal) == 1 else legal[self._rng.random() < 0.5]
