"""Match policies keyed by lives, measured exactly where the match is solved (issue 29 §2).

A match policy answers a decision by the round's abstract key (``gnav.abstraction``) and
the lives around the deciding seat at the round's start (``gnav.lives_class``). At the
small tables whose match ``gnav.solve.match`` solves, such a policy is a strategy of every
state's round tree, and the solver's exact best responses measure it through the match:
its NashConv in win probability, as ``match_export.match_nash_conv`` measures a solved
file. That is the yardstick for trained match policies (``gnav solve --match
--check-policy``: ``read_policy`` reads their files), and for which lives features earn
their place (``gnav.train.lives_features``).

Each state's lives are read in the solver's frame (the dealer seat 0) along the state's
positions (turn order, the dealer last), so a position's neighbours are the active seats
beside it, a seat sitting out skipped as the batch engine's columns skip it. A lives
count at the solver's cap stands for that or more: at 2 lives (cap 3) the classes' own
"3 and more" folds it exactly; at 1 life (cap 2) a capped 2 reads as own 2 though it may
be more (the solver merges those states too).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gnav.abstraction import coarsen
from gnav.lives_class import column_classes
from gnav.solve.cfr import F, Game
from gnav.solve.match import MatchSolver, State
from gnav.solve.match_export import rules_of, sigma_of
from gnav.strategies import read_json
from gnav.strategies.match import MatchStrategy, StateKey
from gnav.strategies.match_policy import MATCH_POLICY_FORMAT, parse_match_policy
from gnav.strategies.match_policy import MatchPolicy as MatchPolicyFile
from gnav.strategies.policy import Policy, parse
from gnav.train.exact import KeyOf, abstract_map

# (lives class, or None for the policy's lives-blind answer; abstract key) -> P(swap), or
# None where the policy has no answer.
MatchPolicy = Callable[[int | None, int], float | None]
# (state, position in its round's turn order, abstract key) -> P(swap) or None (even odds).
Answer = Callable[[State, int, Hashable], float | None]
# A state (by index) -> the round strategy it plays instead of the policy, or None.
Fixed = Callable[[int], F | None]

@dataclass(frozen=True)
class MatchConv:
    """A strategy measured through the match, at the start, in win probability."""

    nash_conv: float  # summed over the seats
    gains: tuple[float, ...]  # what each seat's best response gains (dealer's frame)
    values: tuple[float, ...]  # each seat's chance to win when every seat plays it
    sets: int  # decisions (a state's information set with both actions legal)
    blind: int  # of those, answered lives-blind (the class had no answer)
    even: int  # answered at even odds (no answer at all)
    fixed: int = 0  # states played by another strategy (rounds the policy does not fit)


def turn_lives(state: State) -> list[int]:
    """The lives of ``state``'s active seats at its round's start, in turn order (the
    dealer's left first, the dealer last), as ``column_classes`` reads them."""
    lives = state.key[0]
    return [lives[c] for c in state.positions]


def position_classes(state: State) -> list[int]:
    """Each position's lives class at ``state`` (``gnav.lives_class``)."""
    return column_classes(turn_lives(state))


def strategies_of(solver: MatchSolver, answer: Answer, key: KeyOf = coarsen,
                  fixed: Fixed | None = None) -> tuple[list[F], int, int]:
    """(each state's round strategy playing ``answer`` at every set where both actions
    are legal, the other sets what is legal; the sets counted; those answered at even
    odds). ``key`` makes the abstract key from the exact one (``coarsen`` by default);
    a state where ``fixed`` gives a strategy plays that, its sets not counted."""
    maps: dict[int, tuple[Game, list[Hashable], np.ndarray, np.ndarray]] = {}
    out: list[F] = []
    sets = even = 0
    for k, state in enumerate(solver.states):
        given = None if fixed is None else fixed(k)
        if given is not None:
            out.append(given)
            continue
        m = len(state.positions)
        got = maps.get(m)
        if got is None:
            game = solver.table(m).game
            amap, keys = abstract_map(game, key=key)
            both = np.flatnonzero(game.legal[:, 0] & game.legal[:, 1])
            got = maps[m] = (game, keys, amap, both)
        game, keys, amap, both = got
        swap = game.legal[:, 1].astype(np.float64)  # one legal action: that one
        for i in both.tolist():
            q = answer(state, int(game.player[i]), keys[int(amap[i])])
            if q is None:
                even += 1
                q = 0.5
            swap[i] = q
        sets += len(both)
        out.append(np.stack([1.0 - swap, swap], axis=1))
    return out, sets, even


def measure(solver: MatchSolver, strategies: Sequence[F]) -> tuple[float, F, F]:
    """(the match NashConv of every state playing its strategy, each seat's gain, each
    seat's value), at the start: ``match_export.match_nash_conv`` with its parts."""
    values = solver.evaluate(lambda k: strategies[k])
    best, _ = solver.best_responses(lambda k: strategies[k])
    gains: F = best[0] - values[0]
    return float(np.sum(gains)), gains, values[0]


def policy_conv(solver: MatchSolver, policy: MatchPolicy, fixed: Fixed | None = None
                ) -> MatchConv:
    """The exact match NashConv of ``policy``: each position's answer at its lives class,
    else the policy's lives-blind answer, else even odds; where ``fixed`` gives a state
    a strategy (a round of a size the policy was not trained for), that."""
    blind = 0
    classes: dict[StateKey, list[int]] = {}

    def answer(state: State, position: int, akey: Hashable) -> float | None:
        nonlocal blind
        assert isinstance(akey, int)
        at = classes.get(state.key)
        if at is None:
            at = classes[state.key] = position_classes(state)
        q = policy(at[position], akey)
        if q is None:
            q = policy(None, akey)
            blind += q is not None
        return q

    strategies, sets, even = strategies_of(solver, answer, fixed=fixed)
    conv, gains, values = measure(solver, strategies)
    held = 0 if fixed is None else sum(fixed(k) is not None
                                       for k in range(len(solver.states)))
    return MatchConv(conv, tuple(map(float, gains)), tuple(map(float, values)), sets,
                     blind, even, held)


def lookup_policy(blind: Policy, match: MatchPolicyFile | None = None) -> MatchPolicy:
    """A policy file's answers as a match policy, as the expert plays them
    (``MatchPolicyFile.lookup``: the class's own key, else the lives-blind table with
    its back-offs), in two steps so that the fall-backs are counted: a class without
    its own answer says None, and ``policy_conv`` asks again lives-blind (``cls``
    None). With no ``match``, the lives-blind ``blind``'s answers."""
    def policy(cls: int | None, akey: int) -> float | None:
        if cls is None or match is None:
            return blind.lookup(akey)
        q = match.classes[cls].get(akey)
        return None if q is None else q / blind.scale
    return policy


def read_policy(path: str) -> tuple[Policy, MatchPolicyFile | None]:
    """(the lives-blind policy, the match policy or None) of a round policy file
    (``gnav-policy/1`` or ``2``: lives-blind) or a match policy file
    (``gnav-match-policy/1``), each read by the parser the bots read it with.

    :raises: :exc:`MalformedError` with one line."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != MATCH_POLICY_FORMAT:
        return parse(data, path), None
    match = parse_match_policy(data, path)
    return match.blind, match


def blind_policy(table: Mapping[int, float]) -> MatchPolicy:
    """A lives-blind round policy (abstract key -> P(swap)) as a match policy."""
    def policy(cls: int | None, akey: int) -> float | None:
        return table.get(akey)
    return policy


def solved(strategy: MatchStrategy) -> tuple[MatchSolver, list[F]]:
    """A match file's states explored afresh and each state's strategy as it holds it
    (``match_export.measure_afresh``'s reading): the exact play to project and the
    trees to measure on."""
    solver = MatchSolver(rules_of(strategy), strategy.seats, strategy.lives,
                         cap=strategy.cap)
    solver.explore()
    out: list[F] = []
    for state in solver.states:
        m = len(state.positions)
        def swap(infoset: str, key: StateKey = state.key, m: int = m) -> float | None:
            return strategy.swap_probability(key, infoset, m)

        sigma, _ = sigma_of(solver.table(m).game, swap)
        out.append(sigma)
    return solver, out
