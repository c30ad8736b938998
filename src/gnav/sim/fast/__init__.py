"""The batch simulator: many rounds (or matches) at once, compiled by numba, under the
full rules, row for row equal to the reference engine (``gnav.round``, ``gnav.match``).
Part of the ``[analysis]`` extra. The API is documented in docs/batch.md."""

from gnav.sim.fast.deck import Deck
from gnav.sim.fast.matches import Matches, play_matches
from gnav.sim.fast.policies import (
    FeaturePolicy,
    PiecePolicy,
    TablePolicy,
    ThresholdPolicy,
    table_of,
)
from gnav.sim.fast.tables import Tables

__all__ = ["Deck", "FeaturePolicy", "Matches", "PiecePolicy", "TablePolicy", "Tables",
           "ThresholdPolicy", "play_matches", "table_of"]
