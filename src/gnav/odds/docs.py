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

from gnav.odds.figures import Atlas
from gnav.odds.render import markdown
from gnav.odds.source import compute, is_exact
from gnav.presets import PRESETS_LIST
from gnav.rules import Rules

SIZES = (3, 4, 6, 10, 20)
# Simulated rounds by table size: the expert plays as counter there, a few
# milliseconds a decision, so the large tables get fewer rounds (wider intervals).
ROUNDS = {2: 4000, 3: 4000, 4: 1500, 6: 400, 10: 200, 20: 100}
DATA = Path(__file__).resolve().parent / "data"


def tables() -> list[tuple[str, int]]:
    out = []
    for preset in PRESETS_LIST:
        rules = Rules.of(preset.name)
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
    rounds = max(20, round(ROUNDS[seats] * scale))
    return compute(rules, seats, "expert", rounds=rounds, seed=seed).as_json()


INTRO = """\
# The odds of Gnav

How likely is your piece to cost you a life, where you sit? This page answers that for
every preset at 3, 4, 6, 10 and 20 seats, when every seat plays the `expert` bot's
policy. Made by `gnav odds --all` (the figures, the pictures, this page); `gnav odds
--preset P --seats N` prints one table in the terminal, and `gnav serve` shows them at
`/odds`.

## How to read it

- **Your seat** counts from the dealer's left (seat 1) round to the **dealer** (the
  last seat). The dealer's left decides first; the dealer last.
- **Your piece** is the piece you are dealt, lowest at the bottom of each picture: the
  fool, the owl, the pot, then the numbers, then the matadors at the top.
- **The chance of paying** is how often a seat with that piece in that seat loses at
  least one life in the round. 30% means: about 3 rounds in 10.
- Each picture has two panels. **Left:** you play as the expert would (swap the low
  pieces, stand on the high ones). **Right:** you keep your piece whatever happens
  (the other seats still play well). Where the two differ, your decision matters.
- **Lives a round** is what a seat loses on average each round (a negative number:
  −0.30 means about one life every three rounds).
- **Swaps up to** is the highest piece the expert swaps at that seat: *plain* when every
  seat before you stood, *swaps* when someone before you swapped, *asked* when your
  right neighbour just took your piece and you hold the one it gave you.
- **Exact or simulated.** At 3 and 4 seats a solved strategy ships for most presets and
  the figures are exact. Elsewhere they come from rounds played by the bots, and every
  figure has a 95% interval: `52±4` means the true value is very likely between 48 and
  56. Where no solved strategy exists the expert plays as the `counter` bot; the large
  tables have few rounds (the counter bot thinks hard), so read their pictures for
  the pattern, not for the last percent.

## What the tables say

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


def build(docs: Path, *, jobs: int = 1, scale: float = 1.0, seed: int = 1,
          only: Sequence[tuple[str, int]] | None = None, data: Path = DATA) -> list[Atlas]:
    from gnav.odds.plot import heatmap

    todo = list(only) if only is not None else tables()
    # Slow tables first, so that the pool's last minutes are not one long table.
    todo.sort(key=lambda t: (not is_exact(Rules.of(t[0]), t[1], "expert"), t[1]),
              reverse=True)
    jobs_in = [(p, n, scale, seed) for p, n in todo]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_one, jobs_in))
    else:
        results = [_one(j) for j in jobs_in]
    pictures = docs / "odds"
    pictures.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    atlases = []
    for raw in results:
        a = Atlas.from_json(raw)
        atlases.append(a)
        data_path(a.preset, a.seats, data).write_bytes(
            gzip.compress(json.dumps(raw, separators=(",", ":")).encode(), mtime=0))
        heatmap(a, Rules.of(a.preset), pictures / f"{a.preset}-{a.seats}.png")
    everything = [load(p, n, data) for p, n in tables()]
    shown = [a for a in everything if a is not None]
    parts = [INTRO, summary(shown), "\n"]
    current = ""
    for a in shown:
        if a.preset != current:
            current = a.preset
            parts.append(f"## {a.preset}\n\n")
        parts.append(markdown(a, Rules.of(a.preset), f"odds/{a.preset}-{a.seats}.png"))
        parts.append("\n")
    (docs / "odds.md").write_text("".join(parts))
    return atlases
