"""docs/odds.md, its heat maps, and the atlases the ``/odds`` page reads: one command.

    gnav odds --all [--jobs J] [--scale S]

computes every preset at 3, 4, 6, 10 and 20 seats (the sizes a preset allows) under the
expert policy, writes each table's heat map to docs/odds/PRESET-N.png, its figures to
src/gnav/odds/data/PRESET-N.json.gz (package data: the page and the coach read them),
and docs/odds.md around them. ``--scale`` multiplies the simulated rounds (below 1 for a
quick look).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gnav.odds.figures import PAYS, Atlas
from gnav.odds.render import markdown
from gnav.odds.source import atlas, engine, is_exact
from gnav.presets import PRESETS_LIST
from gnav.rules import Rules
from gnav.strategies import game_name

SIZES = (3, 4, 6, 10, 20)
# Simulated rounds by table size through the reference engine, where the expert plays
# as counter (a few milliseconds a decision): the large tables get fewer rounds (wider
# intervals). Where it plays a trained policy the batch engine plays BATCH_ROUNDS.
ROUNDS = {2: 4000, 3: 4000, 4: 600, 6: 300, 10: 150, 20: 80}
BATCH_ROUNDS = 200_000
DATA = Path(__file__).resolve().parent / "data"


def tables() -> list[tuple[str, int]]:
    """(game, seats) of every shipped atlas: one a size per game, as the strategies
    (``gnav.strategies.game_name``): gnav-rulebook's odds are gnav's."""
    out = []
    for preset in PRESETS_LIST:
        rules = Rules.of(preset.name)
        if game_name(rules) != preset.name:
            continue
        for n in SIZES:
            if rules.min_seats <= n <= rules.max_seats:
                out.append((preset.name, n))
    return out


def data_path(preset: str, seats: int, directory: Path = DATA) -> Path:
    return directory / f"{preset}-{seats}.json.gz"


def load(preset: str, seats: int, directory: Path = DATA) -> Atlas | None:
    """A shipped atlas, or None."""
    path = data_path(preset, seats, directory)
    if not path.exists():
        return None
    return Atlas.from_json(json.loads(gzip.decompress(path.read_bytes())))


def _one(job: tuple[str, int, float, int]) -> dict[str, object]:
    preset, seats, scale, seed = job
    rules = Rules.of(preset)
    how = engine(rules, seats, "expert")
    if how == "exact":
        return _exact(rules, seats)
    if how == "batch":
        rounds = max(1000, round(BATCH_ROUNDS * scale))
    else:
        rounds = max(20, round(ROUNDS[seats] * scale))
    return atlas(rules, seats, "expert", rounds=rounds, seed=seed).as_json()


def _exact(rules: Rules, seats: int) -> dict[str, object]:
    """An exact atlas, and the coach's table of the same tree where none ships yet (one
    tree for both: at 4 seats building it is most of the cost)."""
    from gnav.odds.coach import table_path
    from gnav.odds.exact import coach_table_of, from_tree
    from gnav.strategies import shipped

    strategy = shipped(rules, seats)
    assert strategy is not None
    made, ev = from_tree(rules, seats, strategy, "expert")
    path = table_path(strategy.preset, seats)  # the game's, as the strategy
    if not path.exists():
        data = coach_table_of(rules, seats, strategy, ev)
        path.write_bytes(gzip.compress(json.dumps(data, separators=(",", ":")).encode(),
                                       mtime=0))
    return made.as_json()


INTRO = """\
# The odds of Gnav

How likely is your piece to cost you a life, where you sit? This page answers that for
every preset at 3, 4, 6, 10 and 20 seats, when every seat plays as the `expert` bot
plays. Everything here (the figures, the pictures and this page) is made by one command:

    nice gnav odds --all --fresh

(`--jobs N` uses N cores; without `--fresh` it makes only the tables missing, so a run
that was stopped goes on where it stopped). `gnav odds --preset P --seats N` prints one
table in the terminal, and `gnav serve` shows them all at `/odds`, where you choose your
game, your piece and your seat and get the answer in a sentence; a table size not
below (2 to 41 seats) is made on the server when you choose it, in seconds.

## Find your answer in three steps

1. Find your game and your table size below (the sections are by game, then seats; a
   preset that is another's game under its own name has that game's: for gnav-rulebook
   read gnav).
2. In the picture, find your **piece** on the left edge (the best at the top, the worst
   at the bottom) and your **seat** along the bottom (seat 1 is the dealer's left, who
   decides first; the last column is the dealer).
3. The colour and the number in that square are your **chance of paying**: how often a
   player with that piece in that seat ends the round with fewer lives than it started
   with. 30% means about 3 rounds in 10. Pale is safe, deep red is dangerous.

The picture has two panels. **Left:** you play as the expert would (swap the low pieces,
stand on the high ones). **Right:** you keep your piece whatever happens (the others
still play well). Where the two panels differ, your decision matters; where they are
the same, nothing you do changes the odds.

## What paying means

{pays}

## The words in the tables

- **Lives a round**: what a seat loses on average each round (−0.30 means about one
  life every three rounds). The nearer to zero, the better the seat.
- **Chance of paying**: how often the seat ends a round with fewer lives than it started
  it with, whatever piece it is dealt. A life gained in the round counts against one
  paid: with `two_fools = gain` a fool's holder who paid a matador's penalty and then
  gained a life at the showdown has not paid, and with `penalty_to = holder` a matador's
  holder gains the lives its askers pay. **Lives a round** counts every life, paid and
  gained.
- **Swaps up to**: the highest piece the expert swaps at that seat. *plain*: every seat
  before you stood; *swaps*: someone before you swapped; *asked*: your right neighbour
  just took your piece and you hold the one it gave you. *nothing*: it stands on every
  piece there; *n/a*: that never happens at that seat.
- **Exact or simulated.** At 3 and 4 seats a solved strategy ships for most presets and
  the figures are exact: the strategy is worked out on every possible deal. Elsewhere
  they come from rounds played by the bots, and every figure has a 95% range: `52±4`
  means the true value is very likely between 48 and 56. At 5 seats and more of gnav
  and its variants the expert plays a trained policy, and the batch engine plays
  200,000 rounds of it, every seat both ways (so the ranges are a point or two wide).
  Where nothing is solved or trained the expert plays as the `counter` bot, which thinks
  hard about each decision, so those tables have a few hundred rounds: read their
  pictures for the pattern, not for the last percent.

## What the tables say

"""


OUTRO = """\
## The coach and the analysis of a match

- **The coach** (`gnav play`, key `c`) shows, at your turn, your chance of paying if you
  stand and if you swap, your expected lives each way, what the figures say (the better
  choice and by how much, or *too close to call*), and what the expert would do, from
  what your seat sees and nothing else. Where a solved strategy ships (2 to 4 seats of
  most presets) it is an exact lookup (about 0.04 ms, 0.2 to 0.3 ms with the chance to
  win by the lives model where no match file fits). Elsewhere it samples deals of the
  pieces you cannot see, weighted by how well they explain the others' decisions, and
  plays each out both ways on the same deals and the same random numbers (common
  random numbers): on the batch engine with the later seats playing the expert's
  trained policy where one ships, else on the reference engine with the later seats
  following the sources' tips. It draws 256 deals at a time until the standard error of
  the difference between standing and swapping, over at least 32 effective deals (the
  deals' weights make some count less), is below 0.01 lives, what the page prints, or
  it has drawn 8,192 deals (2,048 on the reference engine): the cap on a
  decision's cost. A decision taken with the coach on is listed in the record under
  `x.coached`. In the browser, turn it on in Settings: it shows the same figures beside
  your piece at your turn, unless the host created the table with "No coaching here".
- **In the match** (where a match strategy ships for the table: 2 seats of every game
  at its default lives and at 2, 3 seats of most games: `gnav solve --match --check
  all` lists them): the coach also gives your chance to win the
  match if you stand and if you swap, every seat playing the match strategy from there
  on (an exact lookup in `odds/tables/match/`), and `gnav analyse` gives each decision
  its chances, the points of it given away against the better choice, and the accuracy
  and mark Lichess would give that loss (*inaccuracy* from 5 points, *mistake* from 10,
  *blunder* from 15), and each seat its mean accuracy: docs/strategy.md, *Reading the
  coach in chances to win*. Where the figures are sampled (5 seats and up), the same
  chances come from the lives model instead (*by lives*: each playout's lives valued as
  if each later round one seat still in loses a life; `win_source` says which). Where
  they are an exact lookup without a match file (4 seats, other lives counts at 2 and 3
  seats, a large table down to a few seats), the lookup's own round is valued the same
  way: its table holds the chance of each way the round can end for the lives.
- **What the figures say** (`gnav.odds.verdict`, one place for the coach and the
  analysis): the headline is the figures' verdict, read off the difference between the
  two choices and its 95% interval (paired on the same deals): *swapping is better by
  0.05 lives (0.03 – 0.07)*, or *too close to call* where the interval holds 0 (exact
  figures: *worth the same* where they differ by less than 0.005). The expert's choice
  comes after it, and where the verdict is clear and the expert does otherwise, the page
  says why: it mixes (it swaps some of the time, so that the others cannot read its
  piece from its choice), or it plays one trained policy for a band of table sizes from
  a summary of what it sees, or it counts pieces from its own smaller sample where
  nothing is solved or trained, or the solved strategy is an approximate solution.
- **`gnav analyse RECORD`** goes through every decision of a finished match with the
  coach's own figures (one function, `gnav.odds.coach.advise(view)`, computes a
  decision's figures for the coach, the analysis and anything else that needs them):
  the expert's choice, and the expected lives the decision taken gave away against the
  better one, from the deciding seat's view, with the 95% interval of that cost where it
  was sampled. Marks: *good* below 0.02 lives, *too close to call* from 0.02 where the
  interval of the difference holds 0, else *inaccuracy* below 0.05, *mistake* below
  0.15, *blunder* from 0.15: no decision is *good* with a cost of 0.02 or more. Each
  seat gets its total cost and its luck (the lives its rounds brought minus what its
  decisions were expected to bring). A finished match's record shows every deal anyway;
  the figures still use only what each seat saw. The command shows a progress bar while
  it samples. The replay viewer's **Analyse the match** button shows the same, round by
  round: a round's decisions appear once the replay reaches its end, where its pieces
  are shown. The server samples in one worker process of its own (at most one core for
  every analysis it runs) and streams its progress to the viewer; a match with more than
  200 sampled decisions is analysed on a stated sample of its rounds (one in k, the
  smallest k that fits), and the page says which.

What a sampled decision costs (thread CPU, measured with `uptime` load 10 to 20 on the
shared two-core machine, so an upper figure): at 6 seats, 200 ms for seat 1 holding II
(5,632 deals before the difference was known to 0.01 lives: +0.01 (−0.01 – 0.03), too
close to call; the expert stands) and 290 ms for the dealer holding V after five stands
(the cap, 8,192 deals: standing better by 0.07, as the expert does); at 41 seats, over
60 decisions of a 158-round match (3,021 decisions), 364 ms a decision on average
(median 382 ms, at most 770 ms; 7,219 deals on average, 46 of the 60 at the cap). Most
of it is drawing the deals in Python (the counter bot's sampler), not playing them. So
one analysis request costs at most about 200 × 0.4 s, a little over a minute of one
core, in its worker process; the replay and analysis routes share a rate cap per
address.
"""


def summary(atlases: Sequence[Atlas]) -> str:
    """A few sentences computed from the atlases (nothing typed in by hand)."""
    lines = []
    for a in atlases:
        if a.preset != "gnav":
            continue
        worst = min(range(a.seats), key=lambda i: a.values[i].value)
        best = max(range(a.seats), key=lambda i: a.values[i].value)
        lines.append(
            f"- gnav, {a.seats} seats: the best seat is {_seat(best, a.seats)} "
            f"({a.values[best].value:+.2f} lives a round), the worst "
            f"{_seat(worst, a.seats)} "
            f"({a.values[worst].value:+.2f}).")
    return "\n".join(lines) + "\n"


def _seat(i: int, n: int) -> str:
    return "the dealer" if i == n - 1 else f"seat {i + 1}"


def priority(table: tuple[str, int]) -> tuple[int, int, str]:
    """The order tables are made in: the cheap exact ones first, then gnav's own sizes,
    then the rest; so that a run cut short has made the tables most players open."""
    preset, seats = table
    exact = is_exact(Rules.of(preset), seats, "expert")
    if exact and seats <= 3:
        return (0, seats, preset)
    if preset == "gnav":
        return (1, seats, preset)
    return (2 if exact else 3, seats, preset)


def build(docs: Path, *, jobs: int = 1, scale: float = 1.0, seed: int = 1,
          only: Sequence[tuple[str, int]] | None = None, data: Path = DATA,
          fresh: bool = False) -> list[Atlas]:
    """Make the tables (those not made yet, unless ``fresh``), each written as soon as
    it is done, and docs/odds.md again after each: a run may be stopped and resumed."""
    todo = sorted(only if only is not None else tables(), key=priority)
    if not fresh:
        todo = [t for t in todo if not data_path(*t, directory=data).exists()]
    made: list[Atlas] = []
    jobs_in = [(p, n, scale, seed) for p, n in todo]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for raw in pool.map(_one, jobs_in):
                made.append(_write(raw, docs, data))
    else:
        for job in jobs_in:
            made.append(_write(_one(job), docs, data))
    if not made:
        write_page(docs, data)
    return made


def _write(raw: dict[str, object], docs: Path, data: Path) -> Atlas:
    from gnav.odds.plot import heatmap

    a = Atlas.from_json(raw)
    pictures = docs / "odds"
    pictures.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    data_path(a.preset, a.seats, data).write_bytes(
        gzip.compress(json.dumps(raw, separators=(",", ":")).encode(), mtime=0))
    heatmap(a, Rules.of(a.preset), pictures / f"{a.preset}-{a.seats}.png")
    write_page(docs, data)
    print(f"{a.preset}-{a.seats}: {a.source}", flush=True)
    return a


def write_page(docs: Path, data: Path = DATA) -> None:
    """docs/odds.md from every atlas made so far."""
    everything = [load(p, n, data) for p, n in tables()]
    shown = [a for a in everything if a is not None]
    missing = [f"{p}-{n}" for (p, n), a in zip(tables(), everything, strict=True)
               if a is None]
    parts = [INTRO.replace("{pays}", PAYS), summary(shown), "\n"]
    if missing:
        parts.append("Not made yet (`gnav odds --all` makes what is missing): "
                     + ", ".join(missing) + ".\n\n")
    current = ""
    for a in shown:
        if a.preset != current:
            current = a.preset
            parts.append(f"## {a.preset}\n\n")
        parts.append(markdown(a, Rules.of(a.preset), f"odds/{a.preset}-{a.seats}.png"))
        parts.append("\n")
    parts.append(OUTRO)
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "odds.md").write_text("".join(parts))
