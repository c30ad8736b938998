"""The batch simulator: many rounds (or matches) at once, compiled by numba, under the
full rules, row for row equal to the reference engine (``gnav.round``, ``gnav.match``).
Part of the ``[analysis]`` extra. The API is documented in docs/batch.md."""

from gnav.fast.deck import Deck
from gnav.fast.matches import Matches, play_matches
from gnav.fast.policies import (
    FeaturePolicy,
    PiecePolicy,
    TablePolicy,
    ThresholdPolicy,
    table_of,
)
from gnav.fast.tables import Tables

__all__ = ["Deck", "FeaturePolicy", "Matches", "PiecePolicy", "TablePolicy", "Tables",
           "ThresholdPolicy", "play_matches", "table_of"]
