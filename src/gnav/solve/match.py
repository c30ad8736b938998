"""The match solved at small tables: each seat's chance to win, exactly.

A match state is what the next round starts from: each seat's lives, who is out, who
sits out, the dealer. Every state is reached from ``MatchState.new`` by the real match
engine: a round's ending (``tree.Ending``) is replayed along its engine path with the
state's real lives (``replay``), so payments a seat cannot make, eliminations, two fools
gaining, the next dealer and who sits out are the engine's, never the solver's.

Seats are symmetric under rotation, so a state is keyed in the frame where the dealer is
seat 0 (``Key``), and its values (one per seat, in that frame) serve every rotation.
Two fools gaining let lives grow without bound: a key reads lives above ``cap`` as
``cap`` (by default the start's lives + 1), the one approximation here; the state so
reached recurs, which the value iteration's fixed point handles.

Each state's round is the one-round tree of its active seats (``tree.build(endings=
True)``) with the payoff of ending ``e`` the next state's values; CFR+ solves it. States
are swept by number of seats alive (seats only leave), then by lives, until no value
moves (value iteration). A state's value to a seat is its chance to win, a shared win
(everyone left going out in one round) counted as 1 / the number sharing it.

Measured through the match: the NashConv in win probability (each seat's best response,
state by state, to the others' strategy, with its own best-response values as the
continuation; summed over seats at the start), and the same for the round strategy (the
equilibrium in lives, played at every state): the difference is what playing for the
match is worth.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gnav.errors import OptionError
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.solve.cfr import Game, solve
from gnav.solve.tree import MEMORY_LIMIT, Path, build, check_size
from gnav.strategies.match import StateKey, state_key
from gnav.vocab import Phase

F = npt.NDArray[np.float64]
# Lives, out seats and sitting-out seats, in the frame where the dealer is seat 0: one
# key for the solver and the bot that plays its files (``gnav.strategies.match``).
Key = StateKey
TOLERANCE = 1e-9  # a sweep that moves no value by more than this ends the iteration
MAX_SWEEPS = 200
RESOLVE = 3  # a state is solved again when its payoffs moved by this many targets


def key_of(state: MatchState, cap: int) -> Key:
    """``state``'s key: lives (above ``cap`` read as ``cap``), out and sitting-out seats,
    rotated so that the dealer is seat 0."""
    return state_key(state.lives, state.out, state.sitting_out, state.dealer, cap)


def replay(state: MatchState, path: Path) -> MatchState:
    """The match after ``state``'s next round is played along ``path`` (the deal by
    piece type in turn order, then each decision and draw) by the engine; where the path
    stops at a request to the stock, chance draws on (only pass pieces are left then)."""
    hand, steps = path
    now = state.deal(hands=list(hand))
    for step in steps:
        now, _ = now.apply(step)
    while now.phase is Phase.DRAW:
        now, _ = now.apply(now.chance_outcomes()[0][0])
    if now.phase not in (Phase.DEAL, Phase.OVER):
        raise AssertionError(f"the path left the round unfinished: {path}")
    return now


@dataclass
class RoundTable:
    """One round's tree at ``seats`` active seats, with its endings' weights."""

    game: Game
    weights: F  # (nodes in the game's order, 2, endings): the chance of each ending
    paths: list[Path]
    lives: F  # the game's own payoff: the change of lives (the round in lives)

    @classmethod
    def of(cls, rules: Rules, seats: int) -> RoundTable:
        tree = build(rules, seats, endings=True)
        # The endings' weights are held dense: at 4 seats of the gnav family that is
        # 2.9M nodes x 2 x the endings, far past the limit; chase-the-ace's fits.
        need = tree.nodes * 2 * len(tree.endings) * 8
        if need > MEMORY_LIMIT:
            raise OptionError(
                f"the match of {rules.name} at {seats} seats needs about "
                f"{need / 1024**3:.1f} GB for one round's endings ({tree.nodes:,} nodes x 2 "
                f"x {len(tree.endings)} endings x 8 bytes); the limit is "
                f"{MEMORY_LIMIT / 1024**3:.0f} GB")
        game = Game(tree)
        w = np.zeros((tree.nodes * 2, len(tree.endings)))
        np.add.at(w, (np.asarray(tree.ending_row), np.asarray(tree.ending_id)),
                  np.asarray(tree.ending_weight))
        return cls(game, w.reshape(tree.nodes, 2, -1)[game.order], tree.paths,
                   game.term.copy())

    def use(self, payoff: F) -> Game:
        """The game with ending ``e`` worth ``payoff[e, i]`` to position ``i``."""
        self.game.term = self.weights @ payoff
        return self.game

    def ending_chances(self, sigma: F) -> F:
        """Each ending's chance when every position plays ``sigma``."""
        rho = self.game.reach(sigma)
        row = rho[:, None] * sigma[self.game.infoset]
        out: F = np.einsum("na,nae->e", row, self.weights)
        return out


@dataclass
class State:
    """A match state: its representative (the first engine state with its key), its
    active seats by position (in the key's frame), and where each ending leads."""

    key: Key
    match: MatchState
    positions: tuple[int, ...]
    alive: int
    following: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    turn: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros((0, 0), np.int64))
    final: F = field(default_factory=lambda: np.zeros((0, 0)))  # a match's end: its result


def continuation(state: State, values: F) -> F:
    """(endings, seats): what each ending of ``state``'s round is worth to each seat of
    its frame, given every state's ``values``."""
    nxt = np.maximum(state.following, 0)
    out: F = values[nxt[:, None], state.turn]
    return np.where(state.following[:, None] >= 0, out, state.final)


@dataclass
class MatchSolution:
    rules: Rules
    seats: int
    lives: int
    cap: int
    states: list[State]
    values: F  # (states, seats): each seat's chance to win, key frame
    strategies: list[F]  # the solved round strategy of each state
    round_strategies: dict[int, F]  # the equilibrium in lives, by active seats
    nash_conv: float  # in win probability, at the start
    round_exploitability: float  # the round strategy's, through the match
    state_nash_conv: F  # each state's round, in win probability
    seconds: float
    tables: dict[int, RoundTable]


class MatchSolver:
    def __init__(self, rules: Rules, seats: int, lives: int | None = None, *,
                 cap: int | None = None, target: float = 1e-6,
                 max_iterations: int = 20000,
                 progress: Callable[[str], None] | None = None) -> None:
        if rules.options.max_rounds is not None:
            raise OptionError("the match solver needs a match without max_rounds "
                              "(a round count would be part of every state)")
        check_size(rules, seats)
        self.rules = rules
        self.n = seats
        self.lives = rules.options.lives if lives is None else lives
        self.cap = self.lives + 1 if cap is None else cap
        if self.cap < self.lives:
            raise OptionError(f"--cap {self.cap} is below the start's {self.lives} lives")
        self.target = target
        self.max_iterations = max_iterations
        self.progress = progress
        self.tables: dict[int, RoundTable] = {}
        self.states: list[State] = []
        self.index: dict[Key, int] = {}

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def table(self, seats: int) -> RoundTable:
        got = self.tables.get(seats)
        if got is None:
            self.say(f"building the round at {seats} seats")
            got = self.tables[seats] = RoundTable.of(self.rules, seats)
        return got

    # -- the states ----------------------------------------------------------------

    def add(self, match: MatchState) -> int:
        key = key_of(match, self.cap)
        got = self.index.get(key)
        if got is not None:
            return got
        d = match.dealer
        positions = tuple((s - d) % self.n for s in match.turn_order())
        self.index[key] = len(self.states)
        self.states.append(State(key, match, positions, len(match.alive())))
        return self.index[key]

    def explore(self) -> None:
        """Every state reached from the start, each ending replayed by the engine."""
        names = tuple(f"s{i}" for i in range(self.n))
        start = MatchState.new(self.rules, names, dealer=0,
                               lives=dict.fromkeys(range(self.n), self.lives))
        self.add(start)
        k = 0
        while k < len(self.states):
            state = self.states[k]
            k += 1
            table = self.table(len(state.positions))
            d = state.match.dealer
            count = len(table.paths)
            following = np.full(count, -1, np.int64)
            turn = np.zeros((count, self.n), np.int64)
            final = np.zeros((count, self.n))
            for e, path in enumerate(table.paths):
                nxt = replay(state.match, path)
                if nxt.winners is not None:
                    for s in nxt.winners:
                        final[e, (s - d) % self.n] = 1.0 / len(nxt.winners)
                    continue
                following[e] = self.add(nxt)
                # Seat c of this state's frame is seat (c + d) of the match, which is
                # seat (c + d - d') of the next state's frame.
                turn[e] = [(c + d - nxt.dealer) % self.n for c in range(self.n)]
            state.following, state.turn, state.final = following, turn, final
        self.say(f"{len(self.states)} states")

    def continuation(self, state: State, values: F) -> F:
        return continuation(state, values)

    def order(self) -> list[list[int]]:
        """The states by seats alive (fewest first), each group by lives."""
        groups: dict[int, list[int]] = {}
        for k, s in enumerate(self.states):
            groups.setdefault(s.alive, []).append(k)
        return [sorted(g, key=lambda k: (sum(self.states[k].key[0]), self.states[k].key))
                for _, g in sorted(groups.items())]

    # -- the passes over the states --------------------------------------------------

    def solve_states(self) -> tuple[F, list[F]]:
        """Each state's round solved by CFR+ with the next states' values, the values
        then settled under the strategies so far (policy evaluation, cheap), and again
        until no state's payoffs moved by more than the target since its last solve."""
        values = self.start_values()
        strategies: list[F] = [np.zeros((0, 2))] * len(self.states)
        chances: list[F] = [np.zeros(0)] * len(self.states)
        last: list[F | None] = [None] * len(self.states)
        regrets: list[F | None] = [None] * len(self.states)
        # A state met for the first time starts from the regrets of the last state
        # solved at its number of active seats: nearby lives, nearby play.
        latest: dict[int, F | None] = {}
        for group in self.order():
            for sweep in range(MAX_SWEEPS):
                solved = 0
                for k in group:
                    state = self.states[k]
                    table = self.table(len(state.positions))
                    cont = self.continuation(state, values)
                    seen = last[k]
                    # Payoffs moved by less than a few targets leave the strategy an
                    # equilibrium to within about that much (the closing best response
                    # measures it): not solved again. At one target, each solve's own
                    # noise (its values move by about the target) solved the next
                    # sweep again: 3 seats of gnav at 4 lives kept re-solving all 64.
                    if seen is None or float(np.abs(cont - seen).max()) > RESOLVE * self.target:
                        last[k] = cont
                        game = table.use(cont[:, list(state.positions)])
                        sol = solve(game, target=self.target,
                                    max_iterations=self.max_iterations,
                                    regret=regrets[k] if regrets[k] is not None
                                    else latest.get(len(state.positions)))
                        strategies[k], regrets[k] = sol.strategy, sol.regret
                        latest[len(state.positions)] = sol.regret
                        chances[k] = table.ending_chances(sol.strategy)
                        solved += 1
                    values[k] = chances[k] @ cont
                self.settle(group, chances, values)
                self.say(f"{len(group)} states with {self.states[group[0]].alive} alive: "
                         f"sweep {sweep + 1} solved {solved}")
                if solved == 0:
                    break
        return values, strategies

    def start_values(self) -> F:
        """A first guess: an even share for every seat still in."""
        return np.array([[1.0 / s.alive if c not in s.key[1] else 0.0
                          for c in range(self.n)] for s in self.states])

    def settle(self, group: list[int], chances: list[F], values: F) -> None:
        """``values`` of ``group`` at their fixed point, each state's endings coming
        with ``chances`` (policy evaluation, in place)."""
        for _ in range(MAX_SWEEPS * 10):
            moved = 0.0
            for k in group:
                new = chances[k] @ self.continuation(self.states[k], values)
                moved = max(moved, float(np.abs(new - values[k]).max()))
                values[k] = new
            if moved <= TOLERANCE:
                return

    def evaluate(self, strategy: Callable[[int], F]) -> F:
        """Each state's values when every seat plays ``strategy(state)``: policy
        evaluation to its fixed point."""
        values = self.start_values()
        chances = [self.table(len(s.positions)).ending_chances(strategy(k))
                   for k, s in enumerate(self.states)]
        for group in self.order():
            self.settle(group, chances, values)
        return values

    def best_responses(self, strategy: Callable[[int], F]) -> tuple[F, F]:
        """(each seat's best-response chance to win against ``strategy`` at every state,
        with its own best response in the states after; each state's round NashConv with
        the best-response continuation)."""
        values = self.start_values()
        conv = np.zeros(len(self.states))
        for group in self.order():
            for _ in range(MAX_SWEEPS):
                moved = 0.0
                for k in group:
                    state = self.states[k]
                    table = self.table(len(state.positions))
                    sigma = strategy(k)
                    cont = self.continuation(state, values)
                    game = table.use(cont[:, list(state.positions)])
                    best, mean = game.best_responses(sigma)
                    # Seats that do not play this round (out, or sitting out) only wait.
                    new = table.ending_chances(sigma) @ cont
                    for i, c in enumerate(state.positions):
                        new[c] = best[i]
                    conv[k] = float(np.sum(best - mean))
                    moved = max(moved, float(np.abs(new - values[k]).max()))
                    values[k] = new
                if moved <= TOLERANCE:
                    break
        return values, conv

    def run(self) -> MatchSolution:
        begin = time.perf_counter()
        self.explore()
        values, strategies = self.solve_states()
        # The values the strategies give (a state solved early saw its successors'
        # values before they settled): the strategy's own fixed point.
        values = self.evaluate(lambda k: strategies[k])
        best, state_conv = self.best_responses(lambda k: strategies[k])
        nash_conv = float(np.sum(best[0] - values[0]))
        rounds: dict[int, F] = {}
        for m, table in sorted(self.tables.items()):
            self.say(f"solving the round in lives at {m} seats")
            table.game.term = table.lives
            sol = solve(table.game, target=self.target, max_iterations=self.max_iterations)
            rounds[m] = sol.strategy
        def round_play(k: int) -> F:
            return rounds[len(self.states[k].positions)]
        plain = self.evaluate(round_play)
        plain_best, _ = self.best_responses(round_play)
        exploit = float(np.sum(plain_best[0] - plain[0]))
        return MatchSolution(self.rules, self.n, self.lives, self.cap, self.states, values,
                             strategies, rounds, nash_conv, exploit, state_conv,
                             time.perf_counter() - begin, self.tables)


def solve_match(rules: Rules, seats: int, lives: int | None = None, *,
                cap: int | None = None, target: float = 1e-6,
                max_iterations: int = 20000,
                progress: Callable[[str], None] | None = None) -> MatchSolution:
    """The match of ``rules`` at ``seats`` seats and ``lives`` lives, solved."""
    return MatchSolver(rules, seats, lives, cap=cap, target=target,
                       max_iterations=max_iterations, progress=progress).run()


def differences(sol: MatchSolution, top: int = 10, least: float = 1e-5
                ) -> list[dict[str, Any]]:
    """Where playing for the match changes the choice: the information sets where the
    round strategy's choice costs its player the most chance to win against the match
    strategy (``loss``: counterfactual, so weighted by the chance of reaching the set in
    that state's round; at least ``least``)."""
    out: list[dict[str, Any]] = []
    for k, state in enumerate(sol.states):
        m = len(state.positions)
        table = sol.tables[m]
        sigma = sol.strategies[k]
        plain = sol.round_strategies[m]
        game = table.use(continuation(state, sol.values)[:, list(state.positions)])
        _, q = game.values(sigma)
        cf = game.action_values(game.reach(sigma), q)
        loss = (cf * (sigma - plain)).sum(axis=1)
        for info in np.flatnonzero(loss >= least):
            out.append({"state": describe(state.key), "position": int(game.player[info]),
                        "seat": state.positions[int(game.player[info])],
                        "infoset": game.keys[info],
                        "swap_match": round(float(sigma[info, 1]), 4),
                        "swap_round": round(float(plain[info, 1]), 4),
                        "loss": float(loss[info])})
    out.sort(key=lambda r: -float(r["loss"]))
    return out[:top]


def describe(key: Key) -> str:
    """A key in words: lives per seat from the dealer (seat 0), with who is out or
    sitting out."""
    lives, out, sitting = key
    parts = []
    for c, v in enumerate(lives):
        mark = "out" if c in out else f"{v}" + ("s" if c in sitting else "")
        parts.append(("D:" if c == 0 else "") + mark)
    return " ".join(parts)


def summary(sol: MatchSolution, top: int = 10) -> dict[str, Any]:
    """The result as plain data (``gnav solve --match --json``)."""
    return {
        "preset": sol.rules.name, "seats": sol.seats, "lives": sol.lives, "cap": sol.cap,
        "states": len(sol.states),
        "start": [float(x) for x in sol.values[0]],
        "nash_conv": sol.nash_conv,
        "round_exploitability": sol.round_exploitability,
        "state_nash_conv_max": float(sol.state_nash_conv.max()),
        "seconds": sol.seconds,
        # The most seats first, then by lives, the most first.
        "values": [{"state": describe(s.key), "lives": list(s.key[0]), "out": list(s.key[1]),
                    "sitting_out": list(s.key[2]), "values": [float(x) for x in v]}
                   for s, v in sorted(zip(sol.states, sol.values, strict=True),
                                      key=lambda sv: (-sv[0].alive, [-x for x in sv[0].key[0]],
                                                      sv[0].key[1:]))],
        "differences": differences(sol, top),
    }
