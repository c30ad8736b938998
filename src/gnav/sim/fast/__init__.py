"""The batch simulator: many rounds (or matches) at once over numpy arrays, under the
full rules, row for row equal to the reference engine (``gnav.round``, ``gnav.match``).
Part of the ``[analysis]`` extra. The API is documented in docs/batch.md."""

from gnav.sim.fast.decision import Decision
from gnav.sim.fast.deck import Deck
from gnav.sim.fast.engine import Rounds
from gnav.sim.fast.matches import Matches, play_matches
from gnav.sim.fast.policies import (
    Abstraction,
    FunctionPolicy,
    PieceAbstraction,
    PiecePolicy,
    Policy,
    TablePolicy,
    ThresholdPolicy,
)
from gnav.sim.fast.tables import Tables

__all__ = ["Abstraction", "Decision", "Deck", "FunctionPolicy", "Matches", "PieceAbstraction",
           "PiecePolicy", "Policy", "Rounds", "TablePolicy", "Tables", "ThresholdPolicy",
           "play_matches"]
