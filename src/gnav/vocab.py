"""The game's vocabulary: one definition of each word the packages share.

Every enum here is a ``StrEnum``: a member *is* its string (``Action.STAND == "stand"``,
``json.dumps(Action.STAND) == '"stand"'``), so records and the wire keep plain strings
while the code names the words once. Reading untrusted text into them goes through
``Enum(value)``, which raises ``ValueError``; the parsers below turn that into one
``MalformedError`` line.

How a round ended is the one word that is not a closed set: records write ``"turns"`` or
the id of the piece whose power stopped the round, and piece ids belong to a preset's
deck (custom presets bring their own). A ``StrEnum`` cannot hold those, so ``ended_by``
stays a ``str`` (``EndedBy``, the record's value, unchanged), and ``Ending`` names the
closed part: *how* it ended, ``TURNS`` or ``STOP``, read from it by ``ending_of``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

from gnav.errors import MalformedError


class Action(StrEnum):
    """A decision: keep the piece, or ask the left neighbour (the dealer: the stock)."""

    STAND = "stand"
    SWAP = "swap"


class Phase(StrEnum):
    """Where a match or a round is: waiting for a deal (chance), a seat to decide, chance
    to draw the stock's next piece (a round dealt with its stock undrawn), or over."""

    DEAL = "deal"
    PLAY = "play"
    OVER = "over"
    DRAW = "draw"


class Ending(StrEnum):
    """How a round ended: every turn was taken, or a matador's power stopped it."""

    TURNS = "turns"
    STOP = "stop"


# ``"turns"`` or the id of the piece that stopped the round, as records write it.
EndedBy: TypeAlias = str


class KnockMode(StrEnum):
    """Option ``knock``: a dealt fool is announced at once (``public``) or not (``silent``).
    (Not ``Knock``: that is the event of the announcement, ``gnav.events.Knock``.)"""

    PUBLIC = "public"
    SILENT = "silent"


class Revealed(StrEnum):
    """Option ``revealed``: a seat whose piece was shown is skipped, or still acts."""

    SKIP = "skip"
    ACT = "act"


class TwoFools(StrEnum):
    """Option ``two_fools``: with both fools at the showdown, their holders gain a life,
    pay one, or the round ends as any other (``plain``)."""

    GAIN = "gain"
    PAY = "pay"
    PLAIN = "plain"


class PenaltyTo(StrEnum):
    """Option ``penalty_to``: where a charge's life goes, to the pool or to the holder."""

    POOL = "pool"
    HOLDER = "holder"


class Pack(StrEnum):
    """Option ``pack``: what the table plays with, the wooden pieces, the game's own
    cards, or an ordinary pack of 52 cards and two jokers (``gnav.cards``). It changes
    how the pieces are shown and named, never the play."""

    PIECES = "pieces"
    CARDS = "cards"
    CARDS52 = "cards52"


class SeatKind(StrEnum):
    """Who sits in a seat of an online table."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class TablePhase(StrEnum):
    """Where an online table is: seating people (the lobby), playing a match, its match
    over (the host may start another), or closed unstarted after its time."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    EXPIRED = "expired"


class BotKind(StrEnum):
    """The bots the registry (``gnav.bots.registry``) can make; its one source."""

    RANDOM = "random"
    THRESHOLD = "threshold"
    COUNTER = "counter"
    EXPERT = "expert"  # plays for the match where it is solved (issue 29), else the round
    EXPERT_ROUND = "expert-round"  # always the round's equilibrium, in lives


class Lang(StrEnum):
    """Languages: the three the texts are written in, and the languages the presets'
    calls are made in (Dutch, Italian, Swedish; names and calls only)."""

    EN = "en"
    NB = "nb"
    DA = "da"
    NL = "nl"
    IT = "it"
    SV = "sv"


# The languages with full texts: the rules, the terminal's words, the browser client.
TEXT_LANGS: tuple[Lang, ...] = (Lang.EN, Lang.NB, Lang.DA)


def ending_of(ended_by: EndedBy) -> Ending:
    """``Ending.TURNS`` for ``"turns"``, else ``Ending.STOP`` (a piece id)."""
    return Ending.TURNS if ended_by == Ending.TURNS else Ending.STOP


# Exact spellings first: ``Action(text)`` goes through the enum machinery, many times
# slower than a dict, and an action is read on every decision that comes as text.
_ACTION_OF: dict[object, Action] = {a.value: a for a in Action}


def parse_action(text: object) -> Action:
    """``text`` as an Action (any case, spaces around).

    :raises: :exc:`MalformedError` if it is none.
    """
    if isinstance(text, str):
        found = _ACTION_OF.get(text) or _ACTION_OF.get(text.strip().lower())
        if found is not None:
            return found
    raise MalformedError(f"unknown action {text!r} (actions: {', '.join(Action)})")


def parse_bot_kind(text: object) -> BotKind:
    """``text`` as a BotKind (any case).

    :raises: :exc:`MalformedError` if it is none.
    """
    if isinstance(text, str):
        try:
            return BotKind(text.strip().lower())
        except ValueError:
            pass
    raise MalformedError(f"unknown bot {text!r} (bots: {', '.join(BotKind)})")


def parse_lang(text: object, allowed: tuple[Lang, ...] = tuple(Lang)) -> Lang:
    """``text`` as one of the ``allowed`` languages.

    :raises: :exc:`MalformedError` if it is none of them.
    """
    if isinstance(text, str):
        try:
            lang = Lang(text.strip().lower())
        except ValueError:
            pass
        else:
            if lang in allowed:
                return lang
    raise MalformedError(f"unknown language {text!r} (languages: {', '.join(allowed)})")
