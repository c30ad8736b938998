"""Match win rates (issue 29 §3): does the expert that plays for the match win more?

    python tools/match_winrates.py [--cells gnav-2,gnav-10:expert/threshold,...]
        [--matches 3000] [--counter-matches 600] [--seed 29] [--engine auto]
        [--json | --markdown]
    python tools/match_winrates.py --cost [--cost-tables gnav-2,gnav-41,...]

A cell is ``TABLE:CHALLENGER/FIELD``: one CHALLENGER among FIELD bots at a table
``PRESET-SEATS`` (or ``PRESET-SEATS-livesL`` at L lives, the match files' own names),
seats rotated; a ``TABLE`` alone is its four cells: one ``expert`` among
``expert-round``s, among ``counter``s and among ``threshold`` bots, and one
``expert-round`` among ``expert``s. Each cell gives the challenger's win rate over its
seats with its 95% interval, the fair share 1/N and the difference from it.

Engines. On the reference engine a cell is ``gnav simulate --field FIELD --challenger
CHALLENGER --matches M --seed S --jobs 1 --json`` (run in this process, the command
printed): each deal sequence played with the challenger at every seat in turn; the
pooled interval is over the sequences (``challenger.win_rate``). ``counter`` (a few ms a
decision) plays there only, at most ``--counter-matches`` sequences and up to
``--counter-seats`` seats (4; a larger table's counter cells say so, unplayed). At 5 seats and more,
where every bot is a table (``expert-round``, ``threshold``, and ``expert`` where no match
file fits: the same play), the compiled batch engine plays the cell
(``gnav.fast.matches.play_matches``, the challenger at seat ``k mod N`` of match ``k``,
each match its own deals; ``gnav.fast.expert.ExpertPolicy`` plays the trained policy
exactly and the exact 2-4 seat strategies of a match's last rounds coarsened onto the
abstraction); its command is this tool's, for that cell. ``--engine reference`` plays
every cell on the reference engine.

Where ``expert`` and ``expert-round`` play the same (no match file for the table: a
match strategy is the table's size, ``ExpertBot.match_table``), a cell of the two is not
played: it says "same strategy: no match policy at N seats". Cells where the expert
plays the round against other fields are played, and say that they await a match policy.

``--cost``: the CPU of one ``expert`` and one ``expert-round`` decision from a view at
each size (views of random matches, both actions legal), against the issue's 0.2 ms.
CPU-heavy at its defaults (minutes): run it under ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from random import Random
from typing import Any

import oneline
from gnav.bots.expert import ExpertBot
from gnav.errors import GnavError
from gnav.lengths import at_table
from gnav.rules import Rules
from gnav.sim.stats import Estimate, Moments

EXPERT, ROUND, COUNTER, THRESHOLD = "expert", "expert-round", "counter", "threshold"
PAIRS = ((EXPERT, ROUND), (EXPERT, COUNTER), (EXPERT, THRESHOLD), (ROUND, EXPERT))
KINDS = frozenset((EXPERT, ROUND, COUNTER, THRESHOLD))
TABLES = ("gnav-2,gnav-3,gnav-3-lives2,gnav-4,gnav-6,gnav-10,gnav-20,"
          "cuccu-3,cuccu-4,cuccu-10,kille-3,kille-4,kille-10")
# Below this the expert plays exact strategies keyed by the full information set, which
# the batch engine only coarsens: there the reference engine plays the bots themselves.
BATCH_FROM = 5
# counter decides in ms on the reference engine: about 5 s of CPU a deal sequence at 10
# seats (each sequence is N + 1 matches), so larger tables are left out unless asked.
COUNTER_SEATS = 4
REFERENCE, BATCH, SAME, SKIPPED = "reference", "batch", "same", "not played"
COST_TABLES = ("gnav-2,gnav-3,gnav-4,gnav-6,gnav-10,gnav-20,gnav-41,gnav-3-lives2,cuccu-3,"
               "kille-3")
COST_LIMIT = 2e-4  # the bound on one decision, seconds of CPU
TABLE = re.compile(r"^(?P<preset>[a-z0-9-]+?)-(?P<seats>\d+)(?:-lives(?P<lives>\d+))?$")


@dataclass(frozen=True)
class Table:
    preset: str
    seats: int
    lives: int | None  # None: the preset's own

    @classmethod
    def parse(cls, text: str) -> Table:
        m = TABLE.match(text.strip())
        if m is None:
            raise GnavError(f"a table is PRESET-SEATS or PRESET-SEATS-livesL, "
                            f"not {text.strip()!r}")
        lives = m.group("lives")
        table = cls(m.group("preset"), int(m.group("seats")),
                    None if lives is None else int(lives))
        table.rules()  # refused here, before any run, in gnav's own words
        return table

    @property
    def name(self) -> str:
        return f"{self.preset}-{self.seats}" + ("" if self.lives is None
                                                else f"-lives{self.lives}")

    def options(self) -> list[str]:
        return [] if self.lives is None else ["-o", f"lives={self.lives}"]

    def rules(self) -> Rules:
        """The rules as a table of this size plays them (``gnav simulate --matches``
        does the same: the options a large table sets so that a match ends)."""
        extra = {} if self.lives is None else {"lives": self.lives}
        rules = Rules.of(self.preset, **extra)
        rules.check_seats(self.seats)
        return at_table(rules, self.seats, set(extra))


@dataclass(frozen=True)
class Cell:
    table: Table
    challenger: str
    field: str


def parse_cells(text: str) -> list[Cell]:
    """``TABLE[:CHALLENGER/FIELD],...``: a table alone is its four cells (``PAIRS``)."""
    cells: list[Cell] = []
    for part in text.split(","):
        where, colon, pair = part.strip().partition(":")
        table = Table.parse(where)
        if not colon:
            cells += [Cell(table, c, f) for c, f in PAIRS]
            continue
        challenger, slash, field = pair.partition("/")
        if not slash or challenger not in KINDS or field not in KINDS or challenger == field:
            raise GnavError(f"a cell is TABLE[:CHALLENGER/FIELD], two of "
                            f"{', '.join(sorted(KINDS))}, e.g. gnav-2:expert/counter, "
                            f"not {part.strip()!r}")
        cells.append(Cell(table, challenger, field))
    return list(dict.fromkeys(cells))


def plays_match(table: Table) -> bool:
    """Whether ``expert`` plays for the match at this table: a match strategy (a match
    file is the table's size), or a trained match policy at some number of active seats
    the table passes through (5 seats and up); else it plays as ``expert-round`` at
    every decision."""
    bot, rules = ExpertBot(), table.rules()
    return bot.match_table(rules, table.seats) is not None or any(
        bot.match_policy(rules, n) is not None for n in range(5, table.seats + 1))


def engine_of(cell: Cell, engine: str) -> str:
    """Where the cell plays: ``same`` (not played: the two bots are one), ``batch`` or
    ``reference``."""
    matched = plays_match(cell.table)
    kinds = {cell.challenger, cell.field}
    if kinds == {EXPERT, ROUND} and not matched:
        return SAME
    # expert is a table where it plays the round, and where it plays a match policy (a
    # table a lives class, from 5 seats); a match strategy (2-4 seats) is not one.
    tables = {ROUND, THRESHOLD} | (
        {EXPERT} if not matched or cell.table.seats >= BATCH_FROM else set())
    if engine == "auto" and kinds <= tables and cell.table.seats >= BATCH_FROM:
        return BATCH
    return REFERENCE


@dataclass
class Measured:
    cell: str
    challenger: str
    field: str
    table: str
    preset: str
    seats: int
    engine: str
    matches: int  # deal sequences (reference) or matches per seat (batch)
    seed: int
    win_rate: dict[str, float | int] | None
    fair: float
    difference: dict[str, float | int] | None
    cpu_seconds: float
    note: str
    command: str


def fair_difference(rate: Estimate, seats: int) -> Estimate:
    """The rate less the fair share 1/N, its interval shifted with it."""
    fair = 1 / seats
    return Estimate(rate.value - fair, rate.low - fair, rate.high - fair, rate.n)


def rotated_rate(shares: Sequence[Sequence[float]]) -> Estimate:
    """The challenger's win rate, seats rotated: ``shares[k][p]`` its win share in
    sequence ``k`` with it at seat ``p``; the interval over sequences (its seats in one
    sequence share the deals, or at least the sequence's seed)."""
    m = Moments()
    for row in shares:
        m.add(sum(row) / len(row))
    return m.estimate()


def simulate_args(cell: Cell, matches: int, seed: int) -> list[str]:
    t = cell.table
    return ["simulate", "--preset", t.preset, "--seats", str(t.seats), *t.options(),
            "--field", cell.field, "--challenger", cell.challenger, "--matches",
            str(matches), "--seed", str(seed), "--jobs", "1", "--json"]


def run_reference(cell: Cell, matches: int, seed: int) -> Estimate:
    """``gnav simulate --matches`` in challenger mode, in this process."""
    from gnav.cli import main as gnav

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = gnav(simulate_args(cell, matches, seed))
    if code != 0:
        raise GnavError(err.getvalue().strip() or f"gnav simulate exited {code}")
    rate = json.loads(out.getvalue())["challenger"]["win_rate"]
    return Estimate(rate["value"], rate["low"], rate["high"], rate["n"])


def run_batch(cell: Cell, matches: int, seed: int) -> Estimate:
    """The cell on the compiled engine: ``matches`` x N matches, the challenger at seat
    ``k mod N`` of match ``k`` (the dealer starts at seat 0 in each)."""
    import numpy as np

    from gnav.fast.expert import ExpertPolicy
    from gnav.fast.matches import MatchPolicy, play_matches
    from gnav.fast.policies import ThresholdPolicy

    rules, n = cell.table.rules(), cell.table.seats

    def policy(kind: str) -> MatchPolicy:
        # expert: the match policies where they ship (a lives class's table), the round's
        # elsewhere; expert-round: the round's everywhere.
        return ThresholdPolicy(rules) if kind == THRESHOLD else \
            ExpertPolicy(rules, n, match=kind == EXPERT)

    rows = matches * n
    at = np.arange(rows) % n
    who = np.zeros((rows, n), np.intp)
    who[np.arange(rows), at] = 1
    state = play_matches(rules, n, rows, [policy(cell.field), policy(cell.challenger)],
                         rng=np.random.default_rng(seed), seat_policy=who)
    winners = state.winners.astype(np.float64)
    # A shared win (the round limit's tie) counts its share, as gnav simulate counts it.
    share = winners[np.arange(rows), at] / np.maximum(winners.sum(1), 1.0)
    return rotated_rate(share.reshape(matches, n).tolist())


def measure(cell: Cell, matches: int, counter_matches: int, seed: int, engine: str,
            counter_seats: int = COUNTER_SEATS) -> Measured:
    """One cell's row. A cell with ``counter`` plays at most ``counter_matches``
    sequences, and none above ``counter_seats`` seats (the reference engine's cost)."""
    how = engine_of(cell, engine)
    t = cell.table
    name = f"{t.name}:{cell.challenger}/{cell.field}"
    note = "" if plays_match(t) else \
        f"expert plays the round: no match policy at {t.seats} seats"
    if COUNTER in (cell.challenger, cell.field):
        matches = min(matches, counter_matches)
        if how == REFERENCE and t.seats > counter_seats:
            how, note = SKIPPED, (f"not played: counter on the reference engine above "
                                  f"{counter_seats} seats (--counter-seats)")
    if how in (SAME, SKIPPED):
        said = f"same strategy: no match policy at {t.seats} seats" \
            if how == SAME else note
        return Measured(name, cell.challenger, cell.field, t.name, t.preset, t.seats, how, 0,
                        seed, None, 1 / t.seats, None, 0.0, said, "")
    begin = time.process_time()
    if how == BATCH:
        rate = run_batch(cell, matches, seed)
        command = (f"python tools/match_winrates.py --cells {name} --matches {matches} "
                   f"--seed {seed}")
        note = "; ".join(x for x in (note, "each match its own deals; the 2-4 seat "
                                     "strategies coarsened") if x)
    else:
        rate = run_reference(cell, matches, seed)
        command = "gnav " + " ".join(simulate_args(cell, matches, seed))
    cpu = time.process_time() - begin
    return Measured(name, cell.challenger, cell.field, t.name, t.preset, t.seats, how,
                    matches, seed, rate.as_dict(), 1 / t.seats,
                    fair_difference(rate, t.seats).as_dict(), round(cpu, 1), note, command)


def fmt(e: dict[str, Any] | None, signed: bool = False) -> str:
    if e is None:
        return "—"
    f = "{:+.3f}" if signed else "{:.3f}"
    return f"{f.format(e['value'])} [{f.format(e['low'])}, {f.format(e['high'])}]"


def markdown(rows: Sequence[Measured]) -> str:
    lines = ["| table | challenger among field | engine | matches x seats | seed | "
             "challenger's win rate | fair 1/N | difference | CPU s | note |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        size = "—" if r.engine in (SAME, SKIPPED) else f"{r.matches:,} x {r.seats}"
        lines.append(f"| {r.table} | {r.challenger} among {r.field} | {r.engine} | {size} "
                     f"| {r.seed} | {fmt(r.win_rate)} | {r.fair:.3f} | "
                     f"{fmt(r.difference, True)} | {r.cpu_seconds:g} | {r.note} |")
    commands = [r.command for r in rows if r.command]
    return "\n".join([*lines, "", "commands:", *(f"    {c}" for c in commands)])


# -- the cost of a decision ----------------------------------------------------------

def views_of(rules: Rules, seats: int, count: int, seed: int) -> list[Any]:
    """Views of the seat to act with both actions legal, from random play of whole
    matches (so the later, smaller rounds of a big table are among them)."""
    from gnav.match import MatchState
    from gnav.views import seat_view

    rng = Random(seed)
    names = tuple(f"s{i}" for i in range(seats))
    match = MatchState.new(rules, names, seed=seed)
    out: list[Any] = []
    while len(out) < count:
        if match.over:
            match = MatchState.new(rules, names, seed=rng.randrange(10**9))
        if match.phase == "deal":
            match = match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions()
        if len(legal) == 2:
            out.append(seat_view(match, seat))
        match, _ = match.apply(rng.choice(legal))
    return out


def decision_cost(table: Table, count: int, seed: int, repeat: int = 3) -> dict[str, Any]:
    """CPU seconds of one decision from a view, best of ``repeat`` passes, for
    ``expert`` and ``expert-round`` (each warmed up: its tables loaded once)."""
    rules, seats = table.rules(), table.seats
    views = views_of(rules, seats, count, seed)
    row: dict[str, Any] = {"table": table.name, "seats": seats, "decisions": len(views)}
    for kind, bot in ((EXPERT, ExpertBot(seed)), (ROUND, ExpertBot(seed, match=False))):
        for view in views:
            bot.act(view)
        best = float("inf")
        for _ in range(repeat):
            begin = time.process_time()
            for view in views:
                bot.act(view)
            best = min(best, (time.process_time() - begin) / len(views))
        row[kind] = best
        row[f"{kind} plays"] = bot.plays(rules, seats)
    return row


def cost_markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = ["| table | decisions | expert µs | expert-round µs | expert plays |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['table']} | {r['decisions']} | "
                     f"{r[EXPERT] * 1e6:.0f} | {r[ROUND] * 1e6:.0f} | {r['expert plays']} |")
    worst = max(max(r[EXPERT], r[ROUND]) for r in rows)
    verdict = "within" if worst <= COST_LIMIT else "OVER"
    return "\n".join([*lines, "", f"slowest: {worst * 1e6:.0f} µs, {verdict} the "
                                f"{COST_LIMIT * 1e6:.0f} µs bound"])


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/match_winrates.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cells", default=TABLES, help=f"TABLE[:CHALLENGER/FIELD],... "
                                                   f"(default {TABLES})")
    p.add_argument("--matches", type=int, default=3000,
                   help="deal sequences a cell (reference), matches a seat (batch)")
    p.add_argument("--counter-matches", type=int, default=600,
                   help="at most this many in a cell with counter bots (slow)")
    p.add_argument("--counter-seats", type=int, default=COUNTER_SEATS,
                   help=f"play counter cells up to this many seats (default "
                        f"{COUNTER_SEATS}: above, minutes a sequence)")
    p.add_argument("--seed", type=int, default=29, help="the master seed of every cell")
    p.add_argument("--engine", choices=("auto", REFERENCE), default="auto",
                   help="auto: the batch engine where it plays the bots as they are")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the rows as JSON")
    out.add_argument("--markdown", action="store_true",
                     help="print one markdown table at the end (default: a row as it comes)")
    p.add_argument("--cost", action="store_true",
                   help="measure the CPU of one expert and expert-round decision instead")
    p.add_argument("--cost-tables", default=COST_TABLES, help=f"TABLE,... (default "
                                                              f"{COST_TABLES})")
    p.add_argument("--cost-decisions", type=int, default=2000)
    args = p.parse_args(argv)
    if min(args.matches, args.counter_matches, args.cost_decisions) < 1:
        p.error("--matches, --counter-matches and --cost-decisions must be at least 1")
    if args.cost:
        costs = [decision_cost(Table.parse(t), args.cost_decisions, args.seed)
                 for t in args.cost_tables.split(",")]
        print(json.dumps(costs) if args.json else cost_markdown(costs))
        return 0
    cells = parse_cells(args.cells)
    rows: list[Measured] = []
    for cell in cells:
        row = measure(cell, args.matches, args.counter_matches, args.seed, args.engine,
                      args.counter_seats)
        rows.append(row)
        if not (args.json or args.markdown):
            print(f"{row.cell}: {row.engine} {fmt(row.win_rate)} fair {row.fair:.3f} "
                  f"{row.cpu_seconds:g} s {row.note}", flush=True)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], ensure_ascii=False))
    else:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/match_winrates.py"))
