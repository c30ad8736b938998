"""Error types.

Every error the engine raises for bad input is a ``ValueError`` subclass, so callers
that only care about "bad input" can catch ``ValueError``; callers that care can tell
malformed input (it does not parse) from illegal moves (it parses, the rules forbid it).
"""

from __future__ import annotations


class GnavError(ValueError):
    """Base of every error gnav raises for bad input."""


class MalformedError(GnavError):
    """Input that does not parse: an unknown preset, piece, option or field, bad JSON."""


class UnknownPresetError(MalformedError):
    """A preset name that is neither a preset nor an alias of one."""


class UnknownPieceError(MalformedError):
    """A piece name that the deck of the rules in force does not know."""


class OptionError(MalformedError):
    """An unknown option, or a value outside the option's range."""


class IllegalActionError(GnavError):
    """A well-formed action that the rules forbid now (wrong seat, round over, ...)."""


class InconsistentError(GnavError):
    """A well-formed record that the rules contradict: a wrong dealer, a decision out
    of turn, a result that differs from the engine's."""
