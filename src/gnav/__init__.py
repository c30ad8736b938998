"""gnav: the Scandinavian swap-and-bluff game Gnav, and its relatives.

The core (this package's top-level modules) uses only the standard library.
"""

from gnav.errors import (
    GnavError,
    IllegalActionError,
    InconsistentError,
    MalformedError,
    OptionError,
    UnknownPieceError,
    UnknownPresetError,
)
from gnav.match import MatchState
from gnav.options import Options
from gnav.pieces import Piece
from gnav.powers import Power
from gnav.presets import PRESETS, Preset, get_preset
from gnav.round import STAND, SWAP, RoundState
from gnav.rules import Rules
from gnav.views import SeatView, seat_view, spectator_view

__version__ = "0.1.0"

__all__ = [
    "PRESETS", "STAND", "SWAP", "GnavError", "IllegalActionError", "InconsistentError",
    "MalformedError", "MatchState", "OptionError", "Options", "Piece", "Power", "Preset",
    "RoundState", "Rules", "SeatView", "UnknownPieceError", "UnknownPresetError",
    "get_preset", "seat_view", "spectator_view",
]
