"""The atlas estimated by playing rounds through the reference engine.

Each round is dealt fresh to a full table (every seat with lives to spare, as in the
solved game), the dealer in the last position, every seat played by the policy's bot
from its own view. Besides the round as played, up to ``branches`` seats a round are
also played the other way at their decision (the round goes on from the same state,
with the same stock, the later seats deciding again from their views): that gives, for
those seats, the chance of paying if they stand and if they swap, paired on one deal.

Intervals: Wilson's 95% interval for each chance (each seat of each round one
observation), Student's t for the values. Seats of one round are not independent;
the cells mix positions and pieces, so each cell's observations come from different
rounds except for the rare cell a round fills twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from random import Random

from gnav.infoset import infoset_key
from gnav.match import MatchState
from gnav.odds.figures import Atlas, Cell, Choice, Figure, situation, wilson
from gnav.protocol import Bot
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.sim.stats import Moments
from gnav.views import seat_view
from gnav.vocab import Action

LIVES = 1000  # every seat can pay every payment of a round
def _mean(acc: Moments) -> Figure:
    e = acc.estimate()
    return Figure(e.value, e.low, e.high, e.n)


def _finish(match: MatchState, bots: Sequence[Bot]) -> MatchState:
    """Play the round under way to its end, each seat from its own view."""
    while match.round is not None and match.to_act is not None and match.winners is None:
        seat = match.to_act
        match, _ = match.apply(bots[seat].act(seat_view(match, seat)))
        if match.round is None or match.round.over:
            break
    return match


def from_bots(rules: Rules, seats: int, bots: Sequence[Bot], policy: str, rounds: int,
          seed: int = 1, branches: int = 3, note: str = "",
          progress: Callable[[int, int], None] | None = None) -> Atlas:
    """The atlas of ``bots`` (one per seat, all playing ``policy``) from ``rounds``
    rounds; ``branches`` seats a round are also played the other way."""
    n = seats
    names = [f"s{i}" for i in range(n)]
    lives = dict.fromkeys(range(n), LIVES)
    rng = Random(seed)
    pick = Random(derive(seed, "branches"))
    ids = rules.ids
    pieces = [ids[t] for t in sorted(set(rules.deck), reverse=True)]
    count: dict[tuple[str, int], int] = defaultdict(int)
    paid: dict[tuple[str, int], int] = defaultdict(int)
    swapped: dict[tuple[str, int], int] = defaultdict(int)
    forced_n: dict[tuple[str, int], int] = defaultdict(int)
    forced_pay: dict[tuple[str, int, int], int] = defaultdict(int)
    values = [Moments() for _ in range(n)]
    pays = [0] * n
    # (position, situation, held) -> [decisions, swaps, both-ways decisions, pay if
    # stand, pay if swap]
    table: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0] * 5)
    decisions = [0] * n
    for r in range(rounds):
        match = MatchState.new(rules, names, dealer=n - 1, lives=lives).deal(rng=rng)
        rnd = match.round
        assert rnd is not None
        deal = [ids[rnd.deal[p]] for p in range(n)]
        branch = set(pick.sample(range(n), min(branches, n)))
        seen: dict[int, tuple[str, str, str]] = {}  # position -> (situation, held, action)
        other: dict[int, tuple[int, int]] = {}  # position -> (paid if stand, if swap)
        while match.to_act is not None and match.round is not None \
                and not match.round.over:
            seat = match.to_act
            view = seat_view(match, seat)
            action = bots[seat].act(view)
            if len(view.legal) == 2:
                key = infoset_key(view)
                held = key.split("|")[2]
                seen[seat] = (situation(key), held, action)
                if seat in branch:
                    alt = Action.SWAP if action == Action.STAND else Action.STAND
                    moved, _ = match.apply(alt)
                    end = _finish(moved, bots)
                    lost = int(end.lives[seat] < LIVES)
                    other[seat] = (lost, -1) if alt == Action.STAND else (-1, lost)
            match, _ = match.apply(action)
        for p in range(n):
            change = match.lives[p] - LIVES
            lost = int(change < 0)
            cell = (deal[p], p)
            count[cell] += 1
            paid[cell] += lost
            values[p].add(change)
            pays[p] += lost
            if p in seen:
                sit, held, action = seen[p]
                swapped[cell] += action == Action.SWAP
                decisions[p] += 1
                row = table[p, sit, held]
                row[0] += 1
                row[1] += action == Action.SWAP
            if p in branch:
                # Both ways where the seat decided; otherwise the round as played is
                # what standing and swapping both give.
                stand = swap = lost
                if p in other:
                    s_alt, w_alt = other[p]
                    stand = s_alt if s_alt >= 0 else lost
                    swap = w_alt if w_alt >= 0 else lost
                    sit, held, _ = seen[p]
                    row = table[p, sit, held]
                    row[2] += 1
                    row[3] += stand
                    row[4] += swap
                forced_n[cell] += 1
                forced_pay[deal[p], p, 0] += stand
                forced_pay[deal[p], p, 1] += swap
        if progress is not None and ((r + 1) % 50 == 0 or r + 1 == rounds):
            progress(r + 1, rounds)
    cells: dict[tuple[str, int], Cell] = {}
    for p in range(n):
        for pid in pieces:
            k = count[pid, p]
            if not k:
                continue
            m = forced_n[pid, p]
            cells[pid, p] = Cell(k / rounds, wilson(paid[pid, p], k),
                                 wilson(forced_pay[pid, p, 0], m),
                                 wilson(forced_pay[pid, p, 1], m),
                                 wilson(swapped[pid, p], k))
    choices = {}
    for (p, sit, held), (k, sw, m, ps, pw) in sorted(table.items(), key=lambda kv: (
            kv[0][0], kv[0][1], pieces.index(kv[0][2]))):
        choices[p, sit, held] = Choice(k / decisions[p], sw / k, wilson(ps, m),
                                       wilson(pw, m))
    return Atlas(rules.name, n, policy, "simulated", pieces, cells,
                 [_mean(v) for v in values], [wilson(pays[p], rounds) for p in range(n)],
                 choices, rounds=rounds, note=note,
                 meta={"seed": seed, "branches": branches,
                       "options": rules.options.as_dict()})
