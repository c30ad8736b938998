"""Whole matches in lock-step on the compiled engine (``gnav.fast.jit``): each row a
match, each step one round of every unfinished match (docs/spec/rules.md §6: lives,
elimination, rotation, sitting out, winners).

A match's seats are mapped onto its round's columns afresh each round (the turn order,
right-aligned, the dealer in the last column), so one batch plays a round of every match
whatever its number of active seats. Policies are tables (``gnav.fast.policies``:
by piece, or over ``gnav-abstraction/1``, a function of the abstraction's features
tabulated there included; the expert's, one per table size): the compiled engine calls
no Python per decision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.classes import row_classes
from gnav.fast.deck import Deck
from gnav.fast.expert import ExpertPolicy
from gnav.fast.jit import ABSTRACT, PIECE, JitRounds
from gnav.fast.policies import PiecePolicy, TablePolicy
from gnav.fast.tables import Tables
from gnav.rules import Rules
from gnav.seeds import derive

Ints = npt.NDArray[np.intp]
# A policy a match can play: a table by piece, over the abstraction, or the expert's.
MatchPolicy = PiecePolicy | TablePolicy | ExpertPolicy
# (round number from 1, the matches dealt in (row indices), their active seats) -> decks,
# laid down in full (``Deck.given``)
DeckSource = Callable[[int, Ints, Ints], Deck]
# After each round: (round number, matches, seat at each column (-1: unused), the round)
Watcher = Callable[[int, Ints, Ints, JitRounds], None]


@dataclass
class Matches:
    """The state of every match between rounds (rows: matches, columns: seats)."""

    lives: npt.NDArray[np.int16]
    out: npt.NDArray[np.bool_]
    sitting: npt.NDArray[np.bool_]  # sitting out the next round
    dealer: Ints  # dealer of the next round
    rounds: Ints  # rounds played
    over: npt.NDArray[np.bool_]
    winners: npt.NDArray[np.bool_]  # set once the match is over

    @classmethod
    def new(cls, rules: Rules, matches: int, seats: int, dealer: npt.ArrayLike = 0,
            seated: npt.ArrayLike | None = None) -> Matches:
        """Fresh matches of ``seats`` seats, or of ``seated`` seats each (the first ones;
        the rest are out from the start, so one batch plays tables of several sizes)."""
        out = np.zeros((matches, seats), np.bool_) if seated is None else \
            np.arange(seats)[None, :] >= np.broadcast_to(
                np.asarray(seated, np.intp), (matches,))[:, None]
        return cls(np.where(out, 0, rules.options.lives).astype(np.int16),
                   out, np.zeros((matches, seats), np.bool_),
                   np.broadcast_to(np.asarray(dealer, np.intp), (matches,)).copy(),
                   np.zeros(matches, np.intp), np.zeros(matches, np.bool_),
                   np.zeros((matches, seats), np.bool_))


def turn_orders(active: npt.NDArray[np.bool_], dealer: Ints) -> Ints:
    """Per row the seat at each column: the active seats clockwise from the dealer's
    left, the dealer last, right-aligned; -1 in unused columns."""
    seats = active.shape[1]
    s = np.arange(seats)
    after = (s[None, :] - dealer[:, None] - 1) % seats  # 0: the dealer's left
    key = np.where(active, seats + after, after)  # inactive seats first
    order = np.argsort(key, axis=1, kind="stable")
    n = active.sum(1)
    used = s[None, :] >= (seats - n)[:, None]
    out: Ints = np.where(used, order, -1)
    return out


def play_matches(rules: Rules, seats: int, matches: int, policies: Sequence[MatchPolicy],
                 *, rng: np.random.Generator, decks: DeckSource | None = None,
                 seat_policy: npt.ArrayLike | None = None, dealer: npt.ArrayLike = 0,
                 stochastic: bool = True, max_rounds: int | None = None,
                 watch: Watcher | None = None, seated: npt.ArrayLike | None = None,
                 fixed_rounds: npt.ArrayLike | None = None) -> Matches:
    """Play ``matches`` matches of ``seats`` seats to their end (or ``max_rounds`` rounds
    each, as a cap on this call, not the rules' option).

    ``seated`` (one per match, or one for all) seats fewer players at some matches: the
    first ``seated`` seats play, the others are out from the start (``dealer`` must be
    one of them). Each match is then the match of its own size: the engine plays every
    row at its own number of active seats. ``fixed_rounds`` (one per match, or one for
    all; 0 for none) is each match's ``max_rounds`` option where they differ (tables of
    several sizes, each with its own); by default the rules' own.

    ``seat_policy`` (matches x seats, or one row for all) gives each seat's index into
    ``policies`` (default 0). ``rng`` seeds each round's chance: the decks (unless
    ``decks`` deals them) and the draws that sample mixed policies, per match (a match
    plays the same whatever else the batch holds). ``stochastic=False`` asks for pure
    policies (tables of 0 and 1) and refuses others."""
    tables = Tables.of(rules)
    rules.check_seats(seats)
    if seated is not None:
        for n in np.unique(np.asarray(seated)):
            rules.check_seats(int(n))
    kind, stack, index, classed = _tables(rules, seats, policies)
    if not stochastic and not np.isin(stack, (0.0, 1.0)).all():
        raise ValueError("a policy gives probabilities: stochastic=False needs pure ones")
    state = Matches.new(rules, matches, seats, dealer, seated)
    who = np.zeros((matches, seats), np.intp) if seat_policy is None else \
        np.broadcast_to(np.asarray(seat_policy, np.intp), (matches, seats))
    if who.min() < 0 or who.max() >= len(policies):
        raise ValueError(f"seat_policy indexes {len(policies)} policies")
    caps = np.broadcast_to(np.asarray(
        tables.max_rounds if fixed_rounds is None else fixed_rounds, np.intp), (matches,))
    seed = int(rng.integers(0, 2**63))
    number = 0
    while not state.over.all() and (max_rounds is None or number < max_rounds):
        number += 1
        rows = np.flatnonzero(~state.over)
        active = ~state.out[rows] & ~state.sitting[rows]
        order = turn_orders(active, state.dealer[rows])
        n = active.sum(1)
        given = None
        if decks is not None:
            given = decks(number, rows, n).deck
        used = order >= 0
        safe = np.where(used, order, 0)
        lives = np.where(used, np.take_along_axis(state.lives[rows], safe, 1), 0)
        last = (caps[rows] > 0) & (state.rounds[rows] + 1 >= caps[rows])
        per_row = np.stack([n, rows, last, state.sitting[rows].sum(1)], axis=1)
        rnd = JitRounds.of_matches(rules, seats, seed=derive(seed, "round", number),
                                   per_row=per_row, lives=lives, decks=given)
        # Each column's table: its seat's policy at the row's number of active seats.
        seat_of = np.take_along_axis(who[rows], safe, 1)
        policy_of = np.where(used, index[seat_of, n[:, None]], 0)
        if classed.any():  # a match policy's table: the column's lives class's
            by_lives = used & classed[seat_of, n[:, None]]
            policy_of += np.where(by_lives, row_classes(lives), 0)
        rnd.play(stack, kind, policy_of=policy_of)
        if watch is not None:
            watch(number, rows, order, rnd)
        _settle(state, rows, order, rnd, caps[rows])
    return state


def _tables(rules: Rules, seats: int, policies: Sequence[MatchPolicy]
            ) -> tuple[int, npt.NDArray[np.float64], Ints, npt.NDArray[np.bool_]]:
    """The policies as the compiled engine's tables: the kind (by piece, unless one is
    over the abstraction: then every table is), the tables stacked, the row of the
    stack of policy ``k`` at ``n`` active seats (``index[k, n]``), and whether a
    column's lives class is added to that row (``classed[k, n]``: a match policy's
    tables, one a class from there)."""
    pieces = len(rules.pieces)
    ab = GnavAbstraction(rules)
    abstract = any(not isinstance(p, PiecePolicy) for p in policies)
    # The piece each abstract key holds: a table by piece read over the abstraction.
    piece_of = (np.arange(ab.size) // ab.layout.weight[2]) % ab.pieces
    parts: list[npt.NDArray[np.float64]] = []
    index = np.zeros((len(policies), seats + 1), np.intp)
    classed = np.zeros((len(policies), seats + 1), np.bool_)
    for k, p in enumerate(policies):
        row = sum(len(part) for part in parts)  # the stack's rows before this policy's
        if isinstance(p, PiecePolicy):
            if p.table.shape != (pieces,):
                raise ValueError(f"{p!r}: a table by piece has one entry per piece "
                                 f"({pieces})")
            by_piece = p.table
            table = by_piece[piece_of] if abstract else by_piece
            index[k] = row
            parts.append(table[None, :])
        elif isinstance(p, TablePolicy):
            if p.table.shape != (ab.size,):
                raise ValueError(f"a table over another deck's abstraction ({p.table.size} "
                                 f"keys, not {ab.size})")
            index[k] = row
            parts.append(p.table[None, :])
        elif isinstance(p, ExpertPolicy):
            own = p.stack.astype(np.float64).reshape(-1, ab.size)
            top = min(len(p.which), seats + 1)
            index[k, :top] = row + p.which[:top]
            index[k, top:] = row + p.which[-1]
            classed[k, :top] = p.classed[:top]
            classed[k, top:] = p.classed[-1]
            parts.append(own)
        else:
            raise ValueError(f"{p!r}: a match plays table policies only (the compiled "
                             f"engine calls no Python per decision: FeaturePolicy "
                             f"tabulates a function of the features)")
    return (ABSTRACT if abstract else PIECE), np.concatenate(parts), index, classed


def _settle(state: Matches, rows: Ints, order: Ints, rnd: JitRounds, cap: Ints) -> None:
    """The match after its round: lives, the seats gone out, winners, the next dealer."""
    m, seats = len(rows), state.lives.shape[1]
    used = order >= 0
    r2 = np.broadcast_to(rows[:, None], order.shape)[used]
    s2 = order[used]
    state.lives[r2, s2] = rnd.lives[used]
    state.rounds[rows] += 1
    lives = state.lives[rows]
    in_round = np.zeros((m, seats), np.bool_)
    in_round[np.broadcast_to(np.arange(m)[:, None], order.shape)[used], s2] = True
    gone = in_round & (lives <= 0)
    out = state.out[rows] | gone
    state.out[rows] = out
    went = gone.any(1)
    alive = lives > 0
    left = alive.sum(1)
    over = went & (left <= 1)
    winners = np.where((left == 1)[:, None], alive, gone) & over[:, None]
    if cap.any():
        by_rounds = ~over & (cap > 0) & (state.rounds[rows] >= cap)
        best = np.where(out, -1, lives).max(1)
        winners |= by_rounds[:, None] & ~out & (lives == best[:, None])
        over |= by_rounds
    state.winners[rows] = winners
    state.over[rows] = over
    sitting = np.zeros((m, seats), np.bool_)
    sitting[np.broadcast_to(np.arange(m)[:, None], order.shape)[used], s2] = \
        rnd.sit_out[used]
    state.sitting[rows] = sitting
    # The next dealer: the next seat clockwise neither out nor sitting out.
    skip = out | sitting
    after = (np.arange(seats)[None, :] - state.dealer[rows][:, None] - 1) % seats
    nxt = np.argmin(np.where(skip, seats + after, after), axis=1)
    state.dealer[rows] = np.where(over, state.dealer[rows], nxt)
