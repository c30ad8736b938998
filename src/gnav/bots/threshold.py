"""The threshold bot: keep a good piece, swap a low one.

The sources' advice is a threshold rule. S0's tips: "Stand with any matador", "Swap with
any 0 through III", "Stand with IX-XII"; S1 and S3 add that the fool's holder should try
to pass it on ("you should try to swap the fool with the player to your left"). Between
III and IX the tips are silent, so the default threshold sits in the middle of that gap:
in ``gnav`` the bot swaps at or below ``6``, the twelfth of 21 ranks. Other presets get
the piece at the same position down their deck order (``default_threshold``), e.g. ``4``
in ``cuccu`` and ``6`` in ``chase-the-ace``.
"""

from __future__ import annotations

from gnav.errors import IllegalActionError, MalformedError
from gnav.rules import Rules
from gnav.views import SeatView
from gnav.vocab import Action, BotKind

STAND = Action.STAND
SWAP = Action.SWAP

# The default threshold's place down the deck order: 11/20 of the way puts it on `6` in
# the 21 ranks of gnav, the middle of the ranks S0's tips leave open (IV to VIII).
DEFAULT_NUM = 11
DEFAULT_DEN = 20


def default_threshold(rules: Rules) -> int:
    """The rank (0 = highest) of the default threshold piece of ``rules``' deck."""
    return len(rules.pieces) * DEFAULT_NUM // DEFAULT_DEN


def resolve_threshold(rules: Rules, threshold: str | int | None) -> int:
    """The threshold as a rank of ``rules``' deck: a piece id or alias (any name the deck
    reads), a rank (0 = the highest piece), or None for the default."""
    if threshold is None:
        return default_threshold(rules)
    if isinstance(threshold, str):
        return rules.index(threshold)
    return threshold


def check_threshold(threshold: object) -> str | int | None:
    """``threshold`` if it can name a threshold (a piece name or a rank); else an error."""
    if threshold is None or isinstance(threshold, str):
        return threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise MalformedError(
            f"a threshold is a piece name or a rank (0 = the highest piece), not {threshold!r}"
        )
    return threshold


def threshold_action(rules: Rules, piece: int, threshold: int) -> Action:
    """The threshold policy for a holder of ``piece`` (a rank), before legality.

    A matador is kept, since nothing ranks above it and asking would hand it to the left
    neighbour; a fool is always passed on, whatever the threshold.
    """
    if rules.effects[piece] is not None:
        return STAND
    if rules.fools[piece] or piece >= threshold:
        return SWAP
    return STAND


class ThresholdBot:
    """Swaps when its piece ranks at or below the threshold piece, else stands.

    ``threshold`` is a piece name of the deck in play (``"6"``, ``"VI"``, ``"owl"``) or a
    rank (0 = the highest piece); None takes ``default_threshold``. The bot holds no
    randomness: ``seed`` is accepted so every bot is made the same way, and the bot is
    deterministic whatever it is.
    """

    name = BotKind.THRESHOLD

    def __init__(self, seed: int | None = None, threshold: str | int | None = None) -> None:
        self.seed = seed
        self.threshold = check_threshold(threshold)
        # Rules are only known from the first view; a name is read once per rule set.
        self._resolved: tuple[Rules, int] | None = None

    def rank(self, rules: Rules) -> int:
        """The threshold as a rank of ``rules``' deck."""
        cached = self._resolved
        if cached is not None and cached[0] is rules:
            return cached[1]
        rank = resolve_threshold(rules, self.threshold)
        self._resolved = (rules, rank)
        return rank

    def act(self, view: SeatView) -> Action:
        """The threshold policy's action.

        :raises: :exc:`IllegalActionError` if nothing is legal.
        """
        legal = view.legal
        if not legal:
            raise IllegalActionError("no decision is due for this view")
        if len(legal) == 1 or view.piece is None:
            return legal[0]
        rules = view.rules
        action = threshold_action(rules, rules.ids.index(view.piece), self.rank(rules))
        return action if action in legal else legal[0]
