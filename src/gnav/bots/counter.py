"""The counter bot: weighs stand against swap by sampling what it cannot see.

Determinized Monte Carlo, from the seat's view alone:

1. Every physical piece of the round is a *slot*: one per dealt piece (slot ``p`` for
   the piece dealt to position ``p``) and one per stock piece (slot ``n + k`` for the
   ``k``-th piece from the top). Public events move slots between seats (a swap
   exchanges the two seats' slots, a draw hands the asker the next stock slot, an undo
   gives every seat its dealt slot back), so which slot each seat holds now is public
   knowledge even when the pieces are not.
2. What the view tells about the pieces becomes a constraint on slots: the own dealt
   piece and the own private swaps and draws; a knock (that slot is a fool) and, under
   a public knock, no knock (that slot is no fool); an answer (that slot is that
   matador); a plain swap or draw (the target's slot was no matador then).
3. Each sample deals the unknown pieces (the deck less the constrained ones) to the
   slots, sequentially and with importance weights so that the samples stay faithful to
   a uniform deal under the constraints. A sample is weighted further by how well it
   explains every other seat's decisions so far under a threshold model (a seat that
   stood probably held a good piece, a seat that swapped a poor one).
4. For each sample and each legal action the rest of the round is played out by the
   engine (``RoundState``), every other seat following the threshold policy. The cost
   is the lives this seat loses this round (penalties, the showdown, gains counted
   against them). The action with the lower weighted mean cost wins; ties stand.

Only the view is read: the bot never sees a state or another seat's view.
"""

from __future__ import annotations

import math
from random import Random

from gnav.bots.threshold import check_threshold, resolve_threshold
from gnav.errors import IllegalActionError, MalformedError
from gnav.events import Answer, Ask, Draw, RoundStart, Stand, Swap, Undo
from gnav.powers import Outcome
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.seeds import VIEWS, counter_base, counter_random
from gnav.views import SeatView
from gnav.vocab import Action, BotKind

DEFAULT_SAMPLES = 48
# How far the model trusts a seat to follow the threshold policy. Sharper values read
# more into each decision; 0.9 still lets a seat "bluff" one time in ten.
DEFAULT_LIKELIHOOD = 0.9
# A seat asking while holding a matador gives it away for nothing: rarer than a bluff.
MATADOR_SWAP = 0.02
_TIE = 1e-9
# Samples are drawn in batches; after two, sampling stops once the better action is
# clear: its lead over the other is this many standard errors.
BATCH = 16
CLEAR = 3.0


def _clear(weight: float, square: float, diff_sum: float, diff_square: float) -> bool:
    """Whether the weighted mean difference of costs is far enough from 0 to stop."""
    if weight <= 0.0 or square <= 0.0:
        return False
    mean = diff_sum / weight
    variance = max(diff_square / weight - mean * mean, 0.0)
    effective = weight * weight / square  # the effective number of samples
    if variance == 0.0:
        # Every sample agrees: on a cost gap, or that the choice makes no difference.
        return True
    return abs(mean) > CLEAR * math.sqrt(variance / effective)


class _Model:
    """Per-rules tables: piece classes, the opponents' policy and its likelihoods."""

    __slots__ = ("everything", "fools", "no_fool", "passes", "plain", "policy", "rules",
                 "stand_like", "swap_like")

    def __init__(self, rules: Rules, threshold: int, likelihood: float) -> None:
        self.rules = rules
        count = len(rules.pieces)
        effects = rules.effects
        forced = rules.options.stand_needs_matador
        self.everything = frozenset(range(count))
        self.plain = frozenset(i for i in range(count) if effects[i] is None)
        self.fools = frozenset(rules.fool_set)
        self.no_fool = self.everything - self.fools
        self.passes = tuple(e is not None and e.outcome is Outcome.PASS for e in effects)
        policy: list[Action] = []
        swap_like: list[float] = []
        for piece in range(count):
            if effects[piece] is not None:
                policy.append(Action.STAND)
                swap_like.append(MATADOR_SWAP)
            elif forced:  # only a swap is legal: the decision tells nothing
                policy.append(Action.SWAP)
                swap_like.append(1.0)
            elif rules.fools[piece] or piece >= threshold:
                policy.append(Action.SWAP)
                swap_like.append(likelihood)
            else:
                policy.append(Action.STAND)
                swap_like.append(1.0 - likelihood)
        self.policy = tuple(policy)
        self.swap_like = tuple(swap_like)
        self.stand_like = tuple(1.0 - p for p in swap_like)


class _Knowledge:
    """What the view says about the round's slots (see the module docstring)."""

    __slots__ = ("allowed", "decisions", "drawn", "holding", "me", "seats", "stock")

    def __init__(self, view: SeatView, model: _Model) -> None:
        rules = view.rules
        order = view.order
        n = len(order)
        position = {seat: p for p, seat in enumerate(order)}
        events = view.events
        first = events[0] if events else None
        stock = first.stock if isinstance(first, RoundStart) else view.stock_left
        index = rules.ids.index
        allowed: list[frozenset[int]] = [model.everything] * (n + stock)
        holding = list(range(n))
        decisions: list[tuple[int, bool]] = []  # (slot held, swapped) per decision
        drawn = 0
        me = view.seat

        def restrict(slot: int, pieces: frozenset[int]) -> None:
            if slot < len(allowed):
                allowed[slot] = allowed[slot] & pieces

        def known(slot: int, piece: str) -> None:
            restrict(slot, frozenset((index(piece),)))

        if isinstance(first, RoundStart) and first.piece is not None and me in position:
            known(position[me], first.piece)
        if model.fools:
            knocked = {position[s] for s in view.knocked if s in position}
            for p in knocked:
                restrict(p, model.fools)
            if rules.knock_public:  # every fool dealt was announced
                for p in range(n):
                    if p not in knocked:
                        restrict(p, model.no_fool)
        for event in events:
            if isinstance(event, Stand | Ask):
                if event.seat != me and event.seat in position:
                    decisions.append((holding[position[event.seat]], isinstance(event, Ask)))
            elif isinstance(event, Swap):
                a, b = position[event.seat], position[event.target]
                restrict(holding[b], model.plain)  # it swapped, so it was no matador
                holding[a], holding[b] = holding[b], holding[a]
                if event.seat_got is not None:
                    known(holding[a], event.seat_got)
                if event.target_got is not None:
                    known(holding[b], event.target_got)
            elif isinstance(event, Answer):
                if event.seat is None:
                    known(n + drawn, event.piece)
                    drawn += 1
                elif event.seat in position:
                    known(holding[position[event.seat]], event.piece)
            elif isinstance(event, Draw):
                p = position[event.seat]
                slot = n + drawn
                drawn += 1
                restrict(slot, model.plain)
                if event.set_aside is not None:
                    known(holding[p], event.set_aside)
                if event.piece is not None:
                    known(slot, event.piece)
                holding[p] = slot
            elif isinstance(event, Undo):
                holding = list(range(n))
                if event.piece is not None and me in position:
                    known(position[me], event.piece)
            # Knock was read above; pays, gains and an empty stock move no piece.
        self.seats = n
        self.stock = stock
        self.allowed = allowed
        self.holding = holding
        self.decisions = decisions
        self.drawn = drawn
        self.me = -1 if me is None else position.get(me, -1)


class _Sampler:
    """Deals the unknown pieces to the slots, with importance weights."""

    def __init__(self, know: _Knowledge, model: _Model) -> None:
        everything = model.everything
        n, stock, drawn = know.seats, know.stock, know.drawn
        pool = list(model.rules.deck)
        fixed: dict[int, int] = {}
        groups: dict[frozenset[int], list[int]] = {}
        for slot, pieces in enumerate(know.allowed):
            if len(pieces) == 1:
                (piece,) = pieces
                if piece in pool:
                    pool.remove(piece)
                    fixed[slot] = piece
                # A piece known in more slots than the deck holds contradicts the view;
                # the slot is then treated as unknown rather than failing every sample.
            elif pieces and pieces != everything:  # none fits: contradicted, so unknown
                groups.setdefault(pieces, []).append(slot)
        # The tightest constraints first: they are the likeliest to find no piece left.
        self.groups = sorted(groups.items(), key=lambda item: len(item[0]))
        busy = set(fixed).union(*groups.values())
        # Only the top of the stock can be drawn before the round ends: one request per
        # turn still to come, plus one more draw for each pass piece drawn on the way.
        passes = sum(1 for piece in pool if model.passes[piece])
        reach = min(stock, drawn + (n - know.me) + passes)
        needed = {*range(n), *know.holding, *range(n + drawn, n + reach)}
        needed.update(slot for slot, _ in know.decisions)
        self.fixed = fixed
        self.free = sorted(needed - busy)
        self.pool = pool
        self.size = n + stock
        self.reach = n + reach

    def sample(self, rng: Random) -> tuple[list[int], float]:
        """Pieces per slot (-1: not needed) and the sample's weight (0: impossible)."""
        values = [-1] * self.size
        for slot, piece in self.fixed.items():
            values[slot] = piece
        pool = self.pool
        weight = 1.0
        if self.groups:
            pool = pool.copy()
            for pieces, slots in self.groups:
                fits = [i for i, piece in enumerate(pool) if piece in pieces]
                g = len(slots)
                if len(fits) < g:
                    return values, 0.0
                # Drawn among the fitting pieces only, so the sample is weighted by the
                # odds that a uniform deal would have fitted (as a ratio, which keeps
                # the weights of a 41-seat table inside a float).
                size = len(pool)
                for k in range(g):
                    weight *= (len(fits) - k) / (size - k)
                taken = rng.sample(fits, g)
                for slot, i in zip(slots, taken, strict=True):
                    values[slot] = pool[i]
                for i in sorted(taken, reverse=True):
                    pool[i] = pool[-1]
                    pool.pop()
        free = self.free
        if len(free) > len(pool):
            return values, 0.0
        if pool is self.pool:
            pool = pool.copy()
        # A partial Fisher-Yates shuffle: only as many draws as there are slots to fill.
        rand = rng.random
        size = len(pool)
        for i, slot in enumerate(free):
            j = i + int(rand() * (size - i))
            piece = pool[j]
            pool[j] = pool[i]
            values[slot] = piece
        return values, weight


class Deals:
    """The deals of the pieces ``view`` hides that are consistent with it: the one
    sampler of what a seat cannot see, used by the counter bot and the coach
    (``gnav.odds.coach``).

    Each ``sample`` is the round as one such deal has it, met at the seat's turn, with
    its importance weight: how likely a uniform deal would have fitted the view's
    constraints, times how well the deal explains every other seat's decisions under
    ``model`` (see the module docstring). Only the view is read.
    """

    __slots__ = ("know", "model", "number", "order", "revealed", "sampler", "seat",
                 "seats", "view")

    def __init__(self, view: SeatView, model: _Model, know: _Knowledge, seat: int) -> None:
        self.view = view
        self.model = model
        self.know = know
        self.seat = seat  # the deciding seat (a seat number, not a position)
        self.seats = know.seats
        self.sampler = _Sampler(know, model)
        position = {s: p for p, s in enumerate(view.order)}
        revealed = 0
        for shown in view.revealed:
            if shown in position:
                revealed |= 1 << position[shown]
        self.revealed = revealed
        self.order = view.order
        self.number = view.round

    @classmethod
    def of(cls, view: SeatView, model: _Model) -> Deals | None:
        """The deals for ``view``'s seat at its turn, or None for a view with no seat
        in the round."""
        know = _Knowledge(view, model)
        if know.me < 0 or view.seat is None:
            return None
        return cls(view, model, know, view.seat)

    def pieces(self, rng: Random) -> tuple[list[int], float]:
        """One deal as pieces per slot (slot ``p``: dealt to position ``p``; slot
        ``n + k``: the stock's ``k``-th from the top; -1: a slot the rest of the round
        cannot reach) and its weight (0.0: ruled out)."""
        values, weight = self.sampler.sample(rng)
        if weight > 0.0:
            model = self.model
            swap_like, stand_like = model.swap_like, model.stand_like
            for slot, swapped in self.know.decisions:
                weight *= swap_like[values[slot]] if swapped else stand_like[values[slot]]
        return values, max(weight, 0.0)

    def sample(self, rng: Random) -> tuple[RoundState | None, float]:
        """One deal: the round at the seat's turn and its weight, or (None, 0.0) for a
        deal the view rules out."""
        values, weight = self.pieces(rng)
        if weight <= 0.0:
            return None, 0.0
        know = self.know
        n = know.seats
        hands = tuple([values[slot] for slot in know.holding])
        # The round as this deal has it, at this seat's turn; RoundState.start would
        # deal it from the top, so it is met at the current position.
        return RoundState.imagined(self.model.rules, self.order, values[:n], hands,
                                   values[n + know.drawn:self.sampler.reach],
                                   self.view.lives, number=self.number, turn=know.me,
                                   revealed=self.revealed), weight


class CounterBot:
    """Estimates its expected loss of lives for stand and for swap, and takes the lower.

    ``samples`` deals of the hidden pieces are drawn per decision. The other seats are
    modelled as threshold players (``threshold``: a piece name or rank, None for the
    threshold bot's default) who follow that policy with probability ``likelihood``.
    The bot is deterministic given ``seed``: each decision's random stream is drawn
    from the seed and the view, so one view always gets one answer.
    """

    name = BotKind.COUNTER

    def __init__(
        self,
        seed: int | None = None,
        samples: int = DEFAULT_SAMPLES,
        *,
        threshold: str | int | None = None,
        likelihood: float = DEFAULT_LIKELIHOOD,
        adaptive: bool = True,
        seeding: int = VIEWS,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise MalformedError(f"samples must be a whole number of at least 1, not "
                                 f"{samples!r}")
        if isinstance(likelihood, bool) or not isinstance(likelihood, int | float) or not (
                0.5 <= likelihood < 1.0):
            raise MalformedError(f"likelihood must be at least 0.5 and below 1, not "
                                 f"{likelihood!r}")
        self.seed = seed
        self.samples = samples
        self.threshold = check_threshold(threshold)
        self.likelihood = float(likelihood)
        self.adaptive = bool(adaptive)
        # ``seeding``: the way of the table it plays at (gnav.seeds), so that a table
        # restored from an old journal gets the answers its bots gave. Unseeded, the bot
        # draws a seed of its own once: it still gives one view one answer while it lives.
        self.seeding = seeding
        self._base = counter_base(seed, seeding)
        self._model: _Model | None = None

    def model(self, rules: Rules) -> _Model:
        """The bot's precomputed tables for ``rules`` (built once, kept for the next
        decision under the same rules)."""
        model = self._model
        if model is None or model.rules is not rules:
            rank = resolve_threshold(rules, self.threshold)
            model = self._model = _Model(rules, rank, self.likelihood)
        return model

    def act(self, view: SeatView) -> Action:
        """The legal action of the lower estimated cost (stand on a tie).

        :raises: :exc:`IllegalActionError` if nothing is legal.
        """
        legal = view.legal
        if not legal:
            raise IllegalActionError("no decision is due for this view")
        if len(legal) == 1 or view.seat is None:
            return legal[0]
        costs = self.costs(view)
        if costs is None:  # the view contradicts itself: fall back on the threshold rule
            piece = view.rules.ids.index(view.piece) if view.piece is not None else 0
            action = self.model(view.rules).policy[piece]
            return action if action in legal else legal[0]
        best = Action.STAND if Action.STAND in legal else legal[0]
        for action in legal:
            if costs[action] < costs[best] - _TIE:
                best = action
        return best

    def costs(self, view: SeatView) -> dict[str, float] | None:
        """The weighted mean of the lives this seat loses this round, per legal action
        (None when no sample fits the view)."""
        deals = Deals.of(view, self.model(view.rules))
        if deals is None:
            return None
        rng = counter_random(self._base, (view.seat, view.round, view.dealt, view.piece,
                                          view.order, len(view.public)), self.seeding)
        n = deals.seats
        seat = deals.seat
        policy = deals.model.policy
        before = view.lives[seat]
        legal = view.legal
        totals: dict[str, float] = dict.fromkeys(legal, 0.0)
        total_weight = 0.0
        # Running sums of the weighted cost differences, to stop once the choice is clear.
        square_weight = 0.0
        diff_sum = 0.0
        diff_square = 0.0
        for done in range(1, self.samples + 1):
            start, weight = deals.sample(rng)
            if start is not None:
                cost = []
                for action in legal:
                    state, _ = start.apply(action)
                    while state.turn < n:
                        state, _ = state.apply(policy[state.hands[state.turn]])
                    lost = before - state.lives[seat]
                    totals[action] += weight * lost
                    cost.append(lost)
                total_weight += weight
                square_weight += weight * weight
                diff = cost[-1] - cost[0]
                diff_sum += weight * diff
                diff_square += weight * diff * diff
            if done % BATCH == 0 and done >= 2 * BATCH and done < self.samples and \
                    self.adaptive and _clear(total_weight, square_weight, diff_sum, diff_square):
                break
        if total_weight <= 0.0:
            return None
        return {action: cost / total_weight for action, cost in totals.items()}
