"""The expert bot: plays a solved equilibrium of the round, or a trained policy.

At a table with a strategy (a shipped one, or ``strategy=FILE`` from ``gnav solve
--out``) for its rules and number of active seats, it looks its information set up
(``gnav.infoset.infoset_key`` of its view) and samples the mixed choice. Where no
strategy fits and a policy of ``gnav train`` does (shipped for 5 to 41 seats of every
preset: ``gnav.strategies.policy``), it looks up the abstract information set
(``gnav.abstraction.abstract_key``) instead. Anywhere else, and at an information set
the strategy does not hold, it plays as ``counter``; ``plays`` says in words which of
these a table gets, so that a command can say it once. Strategies and policies ship one
a game (``gnav.strategies.game_name``) and ``plays`` names the game: at gnav-rulebook,
"the exact strategy of gnav at 3 seats", as at gnav, and the same decisions.

**The match at large tables.** Where its round table is a trained policy and a trained
match policy fits (``gnav.strategies.match_policy``: shipped for 5 seats and up), the
bot plays that instead: the table of its decision's lives class (its own lives and its
neighbours' at the round's start, ``gnav.lives_class.view_class``), trained in win
chance; a match policy ships in a version of the match set as a match strategy does.

**The match.** Where a match strategy is shipped for the table (``gnav.strategies.match``:
its game, its number of seats, its lives and match options; or one given as
``strategy=FILE`` of ``gnav solve --match --out``), the bot plays for the match: the
round strategy solved at the state the round started from (each seat's lives then, read
back from the view's lives and the round's public payments, who is out, who sits out,
the dealer), which maximises its chance to win the match rather than the lives it keeps.
A round strategy given that fits is played before a shipped match strategy. A state or
set the file does not hold falls back to the round as above. ``match=False`` (the bot
kind ``expert-round``) always plays the round. Only the match files of its table's
version of the shipped set are read (``strategies``: ``gnav.strategies.match.MATCH_SETS``,
which a table's journal records), so a stored table goes on playing what it played when
a file ships since.

Only the view is read, and only the standard library is needed: no numpy at the table.
A decision's random number comes from the seed and the view (as ``counter``'s do), so
one view always gets one answer, in any process.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from gnav.abstraction import Layout, abstract_key
from gnav.bots.counter import CounterBot
from gnav.errors import IllegalActionError, MalformedError
from gnav.infoset import infoset_key
from gnav.lives_class import view_class
from gnav.rules import Rules
from gnav.seeds import VIEWS, expert_uniform
from gnav.strategies import Strategy, load, read_json, shipped
from gnav.strategies.match import (
    MATCH_FORMAT,
    MATCH_SETS,
    NEWEST_STRATEGIES,
    MatchStrategy,
    check_strategies,
    load_match,
    shipped_match,
)
from gnav.strategies.match_policy import MatchPolicy, shipped_match_policy
from gnav.strategies.policy import Policy, shipped_policy
from gnav.views import SeatView
from gnav.vocab import Action, BotKind

STAND = Action.STAND
SWAP = Action.SWAP


class ExpertBot:
    """Plays the equilibrium strategy of its table where one is solved, else as
    ``counter`` (the ``fallback``): for the match where a match strategy fits (unless
    ``match`` is False), else the round's. ``strategy``: a file of ``gnav solve --out``
    (a round's) or ``gnav solve --match --out`` (a match's), or a loaded ``Strategy``,
    tried before the shipped ones. ``strategies``: the version of the shipped match set
    it may read (its table's; ``gnav.strategies.match.MATCH_SETS``).

    :raises: :exc:`OSError` or :exc:`MalformedError` if ``strategy`` names a file that
        cannot be read as a strategy; :exc:`ValueError` for an unknown ``strategies``.
    """

    def __init__(self, seed: int | None = None,
                 strategy: str | Strategy | MatchStrategy | None = None,
                 *, fallback: CounterBot | None = None, seeding: int = VIEWS,
                 match: bool = True, strategies: int = NEWEST_STRATEGIES) -> None:
        self.seed = 0 if seed is None else seed
        # The table's version of the shipped match set: an old table's match files.
        self.strategies = check_strategies(strategies)
        self.seeding = seeding  # the table's way (gnav.seeds): an old table's answers
        self.match = match
        self.name = BotKind.EXPERT if match else BotKind.EXPERT_ROUND
        if isinstance(strategy, str):
            strategy = _load_any(strategy)
        self.given: Strategy | None = strategy if isinstance(strategy, Strategy) else None
        self.given_match = strategy if isinstance(strategy, MatchStrategy) else None
        self.fallback = fallback if fallback is not None else \
            CounterBot(seed, seeding=seeding)
        # Keyed by the rules object itself (hashed by identity), which the key keeps alive.
        self._tables: dict[tuple[Rules, int], Strategy | Policy | None] = {}
        self._matches: dict[tuple[Rules, int], MatchStrategy | None] = {}
        self._match_policies: dict[tuple[Rules, int], MatchPolicy | None] = {}

    def match_table(self, rules: Rules, seats: int) -> MatchStrategy | None:
        """The match strategy this bot plays at a table of ``seats`` seats of ``rules``
        (every seat, in or out), if any: None for ``expert-round``."""
        if not self.match:
            return None
        slot = (rules, seats)
        if slot not in self._matches:
            given = self.given_match
            self._matches[slot] = given if given is not None and given.fits(rules, seats) \
                else shipped_match(rules, seats, self.strategies)
        return self._matches[slot]

    def match_policy(self, rules: Rules, seats: int) -> MatchPolicy | None:
        """The trained match policy this bot plays at ``seats`` active seats of
        ``rules``, if any: where its round table is a trained policy (no exact strategy)
        and a match policy of its version of the shipped set fits; None for
        ``expert-round``."""
        if not self.match:
            return None
        slot = (rules, seats)
        if slot not in self._match_policies:
            self._match_policies[slot] = shipped_match_policy(
                rules, seats, MATCH_SETS[self.strategies]) \
                if isinstance(self.table(rules, seats), Policy) else None
        return self._match_policies[slot]

    def table(self, rules: Rules, seats: int) -> Strategy | Policy | None:
        """The strategy (or, where none is solved, the policy) this bot plays at
        ``seats`` active seats of ``rules``, if any."""
        slot = (rules, seats)
        if slot not in self._tables:
            given = self.given
            found: Strategy | Policy | None = given \
                if given is not None and given.fits(rules, seats) else shipped(rules, seats)
            self._tables[slot] = found if found is not None else shipped_policy(rules, seats)
        return self._tables[slot]

    def _given_round(self, rules: Rules, seats: int) -> bool:
        """Whether a round strategy given fits ``seats`` active seats: given, it is
        played before any shipped match strategy."""
        given = self.given
        return given is not None and given.fits(rules, seats)

    def plays(self, rules: Rules, seats: int, at: int | None = None) -> str:
        """What this bot plays at ``seats`` active seats of ``rules``, in words, at a
        table of ``at`` seats (by default ``seats``): a match strategy is the table's,
        so at a table of 3 with 2 left it is the 3-seat match's or none."""
        table = self.table(rules, seats)
        given = self.given
        misfit = "" if given is None or given.fits(rules, seats) else \
            f" (the strategy given is for {given.preset} at {given.seats} seats)"
        match = self.match_table(rules, seats if at is None else at)
        if match is not None and not self._given_round(rules, seats):
            return (f"the match strategy of {match.preset} at {match.seats} seats and "
                    f"{match.lives} lives")
        if isinstance(table, Strategy):
            return f"the exact strategy of {table.preset} at {table.seats} seats{misfit}"
        by_lives = self.match_policy(rules, seats)
        if by_lives is not None:
            lo, hi = by_lives.seats
            return f"the trained match policy of {by_lives.preset} at {lo}-{hi} seats"
        if isinstance(table, Policy):
            lo, hi = table.seats
            return f"the trained policy of {table.preset} at {lo}-{hi} seats{misfit}"
        return f"counter: nothing solved or trained for {rules.name} with these options{misfit}"

    def probabilities(self, view: SeatView) -> dict[Action, float]:
        """The mixed strategy at ``view``: each legal action's probability. Where no
        strategy holds the view, the fallback's choice has probability 1.

        :raises: :exc:`IllegalActionError` if nothing is legal.
        """
        legal = view.legal
        if not legal:
            raise IllegalActionError("no decision is due for this view")
        if len(legal) == 1:
            return {legal[0]: 1.0}
        p, _, _ = self._swap(view)
        if p is None:
            return {a: float(a == self.fallback.act(view)) for a in legal}
        return {STAND: 1.0 - p, SWAP: p}

    def _swap(self, view: SeatView) -> tuple[float | None, str | int, Layout | None]:
        """P(swap) at ``view`` (None where the table holds nothing), the key it was
        looked up by, and the layout of an abstract (int) key."""
        match = self.match_table(view.rules, len(view.names))
        if match is not None and not self._given_round(view.rules, len(view.order)):
            text = infoset_key(view)
            p = match.swap_probability(match.key_of(view), text, len(view.order))
            if p is not None:
                return p, text, None
        table = self.table(view.rules, len(view.order))
        if table is None:
            return None, "", None
        if isinstance(table, Policy):
            key = abstract_key(view)
            by_lives = self.match_policy(view.rules, len(view.order))
            if by_lives is not None:  # the table of the lives the round began with
                return by_lives.lookup(view_class(view), key), key, table.layout
            return table.lookup(key), key, table.layout
        text = infoset_key(view)
        return table.swap_probability(text), text, None

    def act(self, view: SeatView) -> Action:
        """The action for ``view``, sampled from ``probabilities(view)`` by a number
        drawn from the seed and the view.

        :raises: :exc:`IllegalActionError` if nothing is legal.
        """
        legal = view.legal
        if not legal:
            raise IllegalActionError("no decision is due for this view")
        if len(legal) == 1:
            return legal[0]
        p, key, layout = self._swap(view)
        if p is None:
            return self.fallback.act(view)
        if p <= 0.0:
            return STAND
        if p >= 1.0:
            return SWAP
        # The draw reads an abstract key as text (Layout.text), as it read it before keys
        # were ints: every table's bots answer as they did.
        text = layout.text(key) if layout is not None and isinstance(key, int) else str(key)
        return SWAP if self._uniform(view, text) < p else STAND

    def _uniform(self, view: SeatView, key: str) -> float:
        return expert_uniform(self.seed, (view.round, view.seat, view.lives, key),
                              self.seeding)


@lru_cache(maxsize=64)
def _load_any(path: str) -> Strategy | MatchStrategy:
    """A round's or a match's strategy file, by its format.

    :raises: :exc:`MalformedError` if it cannot be read or is neither."""
    data = read_json(path)
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        return load_match(path)
    try:
        return load(path)
    except MalformedError as e:
        raise MalformedError(f"{e} (nor a match strategy, format {MATCH_FORMAT!r})") \
            from None


def what_plays(bot: ExpertBot, rules: Rules, sizes: Sequence[int]) -> list[tuple[str, str]]:
    """(table sizes, what ``bot`` plays there) for ``sizes`` (the sizes a match at a
    table of the largest passes through), consecutive sizes with the same answer in one
    entry, e.g. ``[("10", "the trained policy of gnav at 10-14 seats")]`` or
    ``("3-4", ...)``."""
    out: list[tuple[str, str]] = []
    run: list[int] = []
    said = ""
    top = max(sizes, default=0)
    for n in sorted(set(sizes)):
        text = bot.plays(rules, n, top)
        if run and text == said and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append((_span(run), said))
        run, said = [n], text
    if run:
        out.append((_span(run), said))
    return out


def _span(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def notice(bot: ExpertBot, rules: Rules, sizes: Sequence[int]) -> str | None:
    """One line for a command to print when ``bot`` plays something other than an exact
    strategy or a shipped policy at any of ``sizes`` (counter, or a strategy given that
    does not fit); None when it plays those everywhere."""
    odd = [(span, text) for span, text in what_plays(bot, rules, sizes)
           if text.startswith("counter") or "(the strategy given" in text]
    if not odd:
        return None
    return "expert plays " + "; ".join(f"at {span} seats {text}" for span, text in odd)
