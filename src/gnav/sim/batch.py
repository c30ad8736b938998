"""Simulations split into fixed, seeded chunks and run over processes.

The work is cut into chunks of a fixed size, whatever the number of processes, and every
seed (deals, bots) is derived from the master seed and the chunk or match number. Chunk
results are merged in chunk order, so a run gives the same figures with one job or many.

Chance and decisions draw from separate generators: the deal generator of a match or of
a chunk of rounds never sees a bot's choice, so two runs with different bots on the same
seed get the same deals. Challenger mode rests on that pairing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from random import Random

from gnav.bots.registry import bot_from_spec, canonical_spec, parse_bot_spec
from gnav.match import MatchState
from gnav.protocol import Bot
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.runner import play_match, play_round
from gnav.seeds import derive
from gnav.sim.stats import Moments, Ratio
from gnav.views import SeatView
from gnav.vocab import BotKind

MATCHES = "matches"
ROUNDS = "rounds"
# Chunk sizes are part of the seeding: changing them changes the figures of a seed.
# Challenger chunks are smaller since each plays every deal once per seat, and more.
CHUNK_MATCHES = 10
CHUNK_ROUNDS = 200
CHUNK_DUEL_MATCHES = 2
CHUNK_DUEL_ROUNDS = 50
# A seat can pay at most twice in a round (a charge on its own request, then the
# showdown), so with 3 lives nobody hits the floor of 0 and every loss is counted.
ROUND_LIVES = 3

Progress = Callable[[int, int], None]


def check_bot(spec: str, rules: Rules, seats: int) -> str:
    """The canonical form of a bot spec (``Threshold : 7`` -> ``threshold:7``), once a bot
    of it has taken one decision under ``rules``: a bad spec (``threshold:zzz``) is then
    one GnavError before the run, not a failure in a worker process."""
    canonical = canonical_spec(spec)
    bot = bot_from_spec(canonical, 0, rules)
    match = MatchState.new(rules, _names(seats), dealer=0).deal(rng=Random(0))
    seat = match.to_act
    if seat is not None:
        from gnav.views import seat_view

        bot.act(seat_view(match, seat))
    return canonical


@dataclass(frozen=True)
class Plan:
    """What to simulate. ``bots`` has one kind per seat (the field in challenger mode)."""

    rules: Rules
    bots: tuple[str, ...]
    mode: str  # MATCHES or ROUNDS
    count: int  # matches or rounds
    seed: int
    challenger: str | None = None

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Distinct kinds in seat order."""
        return tuple(dict.fromkeys(self.bots))

    @property
    def chunk_size(self) -> int:
        if self.challenger is not None:
            return CHUNK_DUEL_MATCHES if self.mode == MATCHES else CHUNK_DUEL_ROUNDS
        return CHUNK_MATCHES if self.mode == MATCHES else CHUNK_ROUNDS

    def chunks(self) -> list[Chunk]:
        size = self.chunk_size
        return [Chunk(self, i, start, min(size, self.count - start))
                for i, start in enumerate(range(0, self.count, size))]


@dataclass(frozen=True)
class Chunk:
    plan: Plan
    index: int
    start: int  # the first match or round number of the chunk
    count: int


@dataclass
class Tally:
    """Everything counted over some games; chunks merge into one."""

    seats: int
    kinds: tuple[str, ...]
    pieces: int
    matches: int = 0
    rounds: int = 0
    seat_lost: list[Ratio] = field(default_factory=list)  # cluster: a match, or a round
    seat_wins: list[float] = field(default_factory=list)  # shared wins count a part
    kind_lost: dict[str, Ratio] = field(default_factory=dict)
    kind_wins: dict[str, Moments] = field(default_factory=dict)  # per match: share/seats
    match_rounds: Moments = field(default_factory=Moments)
    # Full-table rounds only, so that position N is always the dealer.
    position_losses: list[int] = field(default_factory=list)
    position_rounds: list[int] = field(default_factory=list)
    piece_losses: list[int] = field(default_factory=list)  # by piece dealt, rank order
    piece_rounds: list[int] = field(default_factory=list)

    @classmethod
    def empty(cls, plan: Plan) -> Tally:
        n = plan.seats
        k = len(plan.rules.pieces)
        return cls(n, plan.kinds, k, seat_lost=[Ratio() for _ in range(n)],
                   seat_wins=[0.0] * n, kind_lost={x: Ratio() for x in plan.kinds},
                   kind_wins={x: Moments() for x in plan.kinds},
                   position_losses=[0] * n, position_rounds=[0] * n,
                   piece_losses=[0] * k, piece_rounds=[0] * k)

    def merge(self, other: Tally) -> None:
        self.matches += other.matches
        self.rounds += other.rounds
        for a, b in zip(self.seat_lost, other.seat_lost, strict=True):
            a.merge(b)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        for kind in self.kinds:
            self.kind_lost[kind].merge(other.kind_lost[kind])
            self.kind_wins[kind].merge(other.kind_wins[kind])
        self.match_rounds.merge(other.match_rounds)
        for name in ("position_losses", "position_rounds", "piece_losses", "piece_rounds"):
            mine: list[int] = getattr(self, name)
            theirs: list[int] = getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])

    def count_round(self, rnd: RoundState, before: Sequence[int]) -> list[int]:
        """Count one finished round's positions and pieces; return every seat's net lives
        lost in it (negative for a gain)."""
        lost = [before[s] - rnd.lives[s] for s in range(self.seats)]
        full = len(rnd.seats) == self.seats
        for pos, seat in enumerate(rnd.seats):
            loss = lost[seat] > 0
            if full:
                self.position_rounds[pos] += 1
                self.position_losses[pos] += loss
            piece = rnd.deal[pos]
            self.piece_rounds[piece] += 1
            self.piece_losses[piece] += loss
        self.rounds += 1
        return lost


@dataclass
class Duel:
    """Challenger against field, paired on the deals: differences per seat and pooled."""

    seats: int
    units: int = 0  # deal sequences: a match, or a round
    pooled: Moments = field(default_factory=Moments)  # per unit: sum over seats
    # Per match: the challenger's win share averaged over its seats. Its seats share their
    # deals, so the pooled rate's interval is taken over deal sequences, not seats.
    wins: Moments = field(default_factory=Moments)
    by_seat: list[Moments] = field(default_factory=list)
    field_lost: list[Ratio] = field(default_factory=list)
    challenger_lost: list[Ratio] = field(default_factory=list)
    field_wins: list[float] = field(default_factory=list)
    challenger_wins: list[float] = field(default_factory=list)

    @classmethod
    def empty(cls, seats: int) -> Duel:
        return cls(seats, by_seat=[Moments() for _ in range(seats)],
                   field_lost=[Ratio() for _ in range(seats)],
                   challenger_lost=[Ratio() for _ in range(seats)],
                   field_wins=[0.0] * seats, challenger_wins=[0.0] * seats)

    def merge(self, other: Duel) -> None:
        self.units += other.units
        self.pooled.merge(other.pooled)
        self.wins.merge(other.wins)
        for i in range(self.seats):
            self.by_seat[i].merge(other.by_seat[i])
            self.field_lost[i].merge(other.field_lost[i])
            self.challenger_lost[i].merge(other.challenger_lost[i])
            self.field_wins[i] += other.field_wins[i]
            self.challenger_wins[i] += other.challenger_wins[i]


@dataclass
class Result:
    plan: Plan
    tally: Tally
    duel: Duel | None


# -- playing ---------------------------------------------------------------------------

def _names(n: int) -> tuple[str, ...]:
    return tuple(f"S{i + 1}" for i in range(n))


def play_rounds(rules: Rules, bots: Sequence[Bot], first: int, count: int,
                deal_seed: int) -> Iterator[RoundState]:
    """``count`` single rounds, each dealt fresh to a full table with lives to spare, the
    dealer moving one seat left each round (round ``first`` is dealt by seat
    ``first % n``)."""
    n = len(bots)
    names = _names(n)
    lives = {s: max(rules.options.lives, ROUND_LIVES) for s in range(n)}
    rng = Random(deal_seed)
    for r in range(first, first + count):
        match = MatchState.new(rules, names, dealer=r % n, lives=lives).deal(rng=rng)
        match, _ = play_round(match, bots)
        assert match.round is not None
        yield match.round


def play_one_match(rules: Rules, bots: Sequence[Bot], seed: int) -> MatchState:
    """A full match; its first dealer and every deal come from ``seed`` alone."""
    return play_match(rules, _names(len(bots)), bots, seed=seed)


def _bots(kinds: Sequence[str], seeds: Sequence[int]) -> list[Bot]:
    return [bot_from_spec(k, s) for k, s in zip(kinds, seeds, strict=True)]


class _MatchFacts:
    """Per seat: net lives lost, rounds dealt in, and win share, of one finished match."""

    def __init__(self, tally: Tally | None, match: MatchState) -> None:
        n = match.seat_count
        before = match.start_lives
        self.rounds_dealt = [0] * n
        for rnd in match.history:
            if tally is not None:
                tally.count_round(rnd, before)
            for s in rnd.seats:
                self.rounds_dealt[s] += 1
            before = rnd.lives
        self.lost = [match.start_lives[s] - match.lives[s] for s in range(n)]
        winners = match.winners or ()
        self.wins = [1 / len(winners) if s in winners else 0.0 for s in range(n)]
        self.rounds = match.rounds


def _add_match(tally: Tally, kinds: Sequence[str], facts: _MatchFacts) -> None:
    tally.matches += 1
    tally.match_rounds.add(facts.rounds)
    for s in range(tally.seats):
        tally.seat_lost[s].add(facts.lost[s], facts.rounds_dealt[s])
        tally.seat_wins[s] += facts.wins[s]
    for kind in tally.kinds:
        mine = [s for s in range(tally.seats) if kinds[s] == kind]
        tally.kind_lost[kind].add(sum(facts.lost[s] for s in mine),
                                  sum(facts.rounds_dealt[s] for s in mine))
        tally.kind_wins[kind].add(sum(facts.wins[s] for s in mine) / len(mine))


def _add_round(tally: Tally, kinds: Sequence[str], lost: Sequence[int]) -> None:
    for s in range(tally.seats):
        tally.seat_lost[s].add(lost[s], 1)
    for kind in tally.kinds:
        mine = [s for s in range(tally.seats) if kinds[s] == kind]
        tally.kind_lost[kind].add(sum(lost[s] for s in mine), len(mine))


def run_chunk(chunk: Chunk) -> tuple[int, Tally, Duel | None]:
    """One chunk, in whatever process: (chunk index, tally, duel)."""
    tally = Tally.empty(chunk.plan)
    play = _round_chunk if chunk.plan.mode == ROUNDS else _match_chunk
    return chunk.index, tally, play(chunk, tally)


def _mixed(plan: Plan, seat: int) -> list[str]:
    """The field's bots with the challenger at ``seat``."""
    assert plan.challenger is not None
    return [plan.challenger if s == seat else k for s, k in enumerate(plan.bots)]


class Remembered:
    """A bot whose answer depends on its view alone (and its seed), remembering each
    answer: in challenger mode the field's seats meet the same views again in every
    seat's replay of a deal (all of them before the challenger's position, and all after
    it wherever the challenger chose as the field did), so only the views the challenger
    changed cost a decision. The answers, and so the figures, are the same."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.answers: dict[SeatView, str] = {}

    @property
    def name(self) -> str:
        return self.bot.name

    def act(self, view: SeatView) -> str:
        answer = self.answers.get(view)
        if answer is None:
            answer = self.answers[view] = self.bot.act(view)
        return answer


# The kinds whose answer is a function of the seed and the view (each draws its random
# numbers from them): only these may be remembered. random draws from a stream.
VIEW_ONLY = frozenset({BotKind.COUNTER, BotKind.EXPERT, BotKind.EXPERT_ROUND,
                       BotKind.THRESHOLD})


def _remembering(kinds: Sequence[str], seeds: Sequence[int]) -> list[Bot] | None:
    """The field's bots for every replay of a chunk, remembered, if every kind is
    view-only (else None: a bot drawing from a stream must start afresh each replay)."""
    if any(parse_bot_spec(k)[0] not in VIEW_ONLY for k in kinds):
        return None
    return [Remembered(b) for b in _bots(kinds, seeds)]


def _round_chunk(chunk: Chunk, tally: Tally, *, remember: bool = True) -> Duel | None:
    """Single rounds: counted into ``tally``; paired with the challenger's if any.
    ``remember``: the field's view-only bots answer a view met before from memory."""
    plan = chunk.plan
    rules, kinds, n = plan.rules, plan.bots, plan.seats
    deal_seed = derive(plan.seed, "deal", chunk.index)
    seeds = [derive(plan.seed, "bot", chunk.index, s) for s in range(n)]
    lives = max(rules.options.lives, ROUND_LIVES)
    base: list[list[int]] = []
    kept = _remembering(kinds, seeds) if remember and plan.challenger is not None else None
    field_bots = kept if kept is not None else _bots(kinds, seeds)
    for rnd in play_rounds(rules, field_bots, chunk.start, chunk.count, deal_seed):
        lost = tally.count_round(rnd, [lives] * n)
        _add_round(tally, kinds, lost)
        base.append(lost)
    if plan.challenger is None:
        return None
    duel = Duel.empty(n)
    diffs = [[0] * n for _ in base]
    for p in range(n):
        if kept is None:
            mixed = _bots(_mixed(plan, p), seeds)
        else:
            mixed = list(kept)
            mixed[p] = bot_from_spec(plan.challenger, seeds[p])
        rounds = play_rounds(rules, mixed, chunk.start, chunk.count, deal_seed)
        for r, rnd in enumerate(rounds):
            mine = lives - rnd.lives[p]
            diffs[r][p] = base[r][p] - mine
            duel.field_lost[p].add(base[r][p], 1)
            duel.challenger_lost[p].add(mine, 1)
    for row in diffs:
        duel.units += 1
        duel.pooled.add(sum(row))
        for p in range(n):
            duel.by_seat[p].add(row[p])
    return duel


def _match_chunk(chunk: Chunk, tally: Tally) -> Duel | None:
    """Full matches: counted into ``tally``; paired with the challenger's if any."""
    plan = chunk.plan
    rules, kinds, n = plan.rules, plan.bots, plan.seats
    duel = Duel.empty(n) if plan.challenger is not None else None
    for m in range(chunk.start, chunk.start + chunk.count):
        match_seed = derive(plan.seed, "match", m)
        seeds = [derive(plan.seed, "bot", m, s) for s in range(n)]
        facts = _MatchFacts(tally, play_one_match(rules, _bots(kinds, seeds), match_seed))
        _add_match(tally, kinds, facts)
        if duel is None:
            continue
        total = won = 0.0
        for p in range(n):
            other = _MatchFacts(None, play_one_match(rules, _bots(_mixed(plan, p), seeds),
                                                     match_seed))
            field_rate = facts.lost[p] / facts.rounds_dealt[p]
            diff = field_rate - other.lost[p] / other.rounds_dealt[p]
            total += diff
            duel.by_seat[p].add(diff)
            duel.field_lost[p].add(facts.lost[p], facts.rounds_dealt[p])
            duel.challenger_lost[p].add(other.lost[p], other.rounds_dealt[p])
            duel.field_wins[p] += facts.wins[p]
            duel.challenger_wins[p] += other.wins[p]
            won += other.wins[p]
        duel.units += 1
        duel.pooled.add(total)
        duel.wins.add(won / n)
    return duel


def run(plan: Plan, *, jobs: int | None = None, progress: Progress | None = None) -> Result:
    """Play the whole plan over ``jobs`` processes (default: one per core)."""
    chunks = plan.chunks()
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(chunks)))
    total = Tally.empty(plan)
    total_duel = Duel.empty(plan.seats) if plan.challenger is not None else None
    waiting: dict[int, tuple[Tally, Duel | None]] = {}
    merged = done = 0

    def arrive(index: int, tally: Tally, duel: Duel | None) -> None:
        # Merge strictly in chunk order, whatever order the chunks finish in: float sums
        # then come out the same for any number of jobs.
        nonlocal merged, done
        waiting[index] = (tally, duel)
        while merged in waiting:
            t, d = waiting.pop(merged)
            total.merge(t)
            if total_duel is not None and d is not None:
                total_duel.merge(d)
            merged += 1
        done += chunks[index].count
        if progress is not None:
            progress(done, plan.count)

    if progress is not None:
        progress(0, plan.count)
    if jobs == 1:
        for chunk in chunks:
            arrive(*run_chunk(chunk))
    else:
        pool = ProcessPoolExecutor(jobs)
        try:
            for future in as_completed([pool.submit(run_chunk, c) for c in chunks]):
                arrive(*future.result())
        except BaseException:
            # Ctrl-C or a failed chunk: drop the queued chunks instead of playing them out.
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()
    return Result(plan, total, total_duel)
