"""gnav: the Scandinavian swap-and-bluff game Gnav, and its relatives.

The public API, in the spirit of python-chess: ``import gnav`` gives the rules, the
states, the views, the events, the bots, the game loop and record reading and writing.

    >>> import gnav
    >>> rules = gnav.Rules.of("gnav", lives=3)
    >>> bots = [gnav.make_bot("threshold", seed=i) for i in range(4)]
    >>> final = gnav.play_match(rules, ["A", "B", "C", "D"], bots, seed=7)
    >>> rules.piece_named("gjøk").id
    'cuckoo'

The core (this package's top-level modules) uses only the standard library.
"""

from gnav.bots import (
    BOT_KINDS,
    CounterBot,
    ExpertBot,
    RandomBot,
    ThresholdBot,
    bot_from_spec,
    make_bot,
    parse_bot_spec,
)
from gnav.errors import (
    Code,
    CodedError,
    GnavError,
    IllegalActionError,
    InconsistentError,
    MalformedError,
    OptionError,
    RefusedError,
    UnknownPieceError,
    UnknownPresetError,
)
from gnav.events import (
    Answer,
    Ask,
    Draw,
    Eliminated,
    Event,
    EventKind,
    Gain,
    Knock,
    MatchEnd,
    Pay,
    RoundEnd,
    RoundStart,
    Showdown,
    Stand,
    StockEmpty,
    Swap,
    Undo,
    event_to_json,
)
from gnav.match import MatchState
from gnav.options import Options
from gnav.pieces import Piece
from gnav.powers import Power
from gnav.presets import PRESETS, Preset, get_preset, register
from gnav.protocol import Bot
from gnav.record import Record, dumps, from_match, loads, parse, replay
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.runner import StopMatch, play_match, play_round
from gnav.views import SeatView, seat_view, spectator_view
from gnav.vocab import (
    Action,
    BotKind,
    EndedBy,
    Ending,
    KnockMode,
    Lang,
    Pack,
    PenaltyTo,
    Phase,
    Revealed,
    SeatKind,
    TablePhase,
    TwoFools,
)

STAND = Action.STAND
SWAP = Action.SWAP

__version__ = "0.1.0"

__all__ = [
    "BOT_KINDS", "PRESETS", "STAND", "SWAP", "Action", "Answer", "Ask", "Bot", "BotKind",
    "Code", "CodedError", "CounterBot", "Draw", "Eliminated", "EndedBy", "Ending", "Event",
    "EventKind", "ExpertBot", "Gain", "GnavError", "IllegalActionError", "InconsistentError",
    "Knock", "KnockMode", "Lang", "MalformedError", "MatchEnd", "MatchState", "OptionError",
    "Options", "Pack", "Pay", "PenaltyTo", "Phase", "Piece", "Power", "Preset", "RandomBot",
    "Record", "RefusedError", "Revealed", "RoundEnd", "RoundStart", "RoundState", "Rules",
    "SeatKind", "SeatView", "Showdown", "Stand", "StockEmpty", "StopMatch", "Swap",
    "TablePhase", "ThresholdBot", "TwoFools", "Undo", "UnknownPieceError", "UnknownPresetError",
    "bot_from_spec", "dumps", "event_to_json", "from_match", "get_preset", "loads", "make_bot",
    "parse", "parse_bot_spec", "play_match", "play_round", "register", "replay", "seat_view",
    "spectator_view",
]
