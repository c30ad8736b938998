"""``gnav simulate --lengths``: how many rounds a match of expert bots lasts, for every
preset at every table size, and the options a table sets where a preset's own would
not end (``gnav.lengths`` reads what this writes; docs/spec/rules.md §6.1).

Every size of a preset is played in one batch of whole matches on the batch engine
(``gnav.fast.matches``, a size a group of rows), the expert deciding at each row's
number of active seats as the bot itself would (``gnav.fast.expert``). A match is
cut at ``cap`` rounds; the share cut is reported as "does not end".

The rule that picks the sizes: without a gain of lives every round costs at least one
life, so a match of ``n`` seats at ``L`` lives ends within ``n * L`` rounds whatever is
played. Where the 95th percentile of a preset's own matches exceeds that (gains are
holding the match up), from the first such size up, a table sets a remedy: the first of
``REMEDIES`` that the expert has shipped tables for at every size (so it keeps playing
its solved and trained play, never its ``counter`` fallback) and whose matches all end
within ``n * L`` rounds at the 95th percentile. ``two_fools = pay`` (S1's rule) leaves
no gain at all; a fixed number of rounds (S0's), ``n * L``, changes nothing in the round.
A fixed number of rounds is played as its own matches, each size at its own ``n * L``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from gnav.bots.expert import ExpertBot
from gnav.fast.expert import ExpertPolicy
from gnav.fast.matches import play_matches
from gnav.lengths import FORMAT, ROUNDS_PER_LIFE, Length, Remedy, game_of
from gnav.presets import PRESETS_LIST, Preset, get_preset
from gnav.rules import Rules
from gnav.seeds import derive

MATCHES = 200  # a size
CAP = 1000  # rounds; a match still on then "does not end"
SEED = 1
WIDEST = 41  # the largest table measured (chase-the-ace seats 51)
REMEDIES: tuple[Mapping[str, object], ...] = (
    {"two_fools": "pay"}, {"max_rounds": ROUNDS_PER_LIFE})


@dataclass(frozen=True)
class Measured:
    preset: str
    lives: int
    default: dict[int, Length]
    remedy: Remedy | None
    remedied: dict[int, Length]

    def as_json(self) -> dict[str, Any]:
        def rows(by: dict[int, Length]) -> list[list[float]]:
            return [[n, x.median, x.p95, x.ends] for n, x in sorted(by.items())]
        r = self.remedy
        return {"preset": self.preset, "lives": self.lives,
                "remedy": None if r is None else {"from": r.start, "options": dict(r.options)},
                "default": rows(self.default), "remedied": rows(self.remedied)}


def sizes_of(rules: Rules) -> range:
    return range(rules.min_seats, min(rules.max_seats, WIDEST) + 1)


def play(rules: Rules, sizes: range, matches: int, cap: int, seed: int,
         fixed: Mapping[int, int] | None = None
         ) -> dict[int, np.ndarray[Any, np.dtype[np.intp]]]:
    """Rounds each match lasted (``cap`` where it had not ended), by size: ``matches``
    expert matches at every size of ``sizes``, in one batch; ``fixed``: each size's
    ``max_rounds`` (the rules' own elsewhere)."""
    seated = np.repeat(np.asarray(sizes), matches)
    width = sizes[-1]
    cut = None if fixed is None else \
        np.asarray([fixed.get(n, rules.options.max_rounds or 0) for n in seated])
    state = play_matches(rules, width, len(seated), [ExpertPolicy(rules, width)],
                         rng=np.random.default_rng(seed), max_rounds=cap, seated=seated,
                         fixed_rounds=cut)
    rounds = np.where(state.over, state.rounds, cap)
    return {n: rounds[seated == n] for n in sizes}


def length(rounds: np.ndarray[Any, np.dtype[np.intp]], cap: int) -> Length:
    return Length(float(np.median(rounds)), float(np.percentile(rounds, 95)),
                  round(float(np.mean(rounds < cap)), 3))


def too_long(n: int, lives: int, x: Length) -> bool:
    """Whether a match is held up by gains: 95th percentile beyond the ``n * lives``
    rounds a match without gains lasts at most, or a match that did not end."""
    return x.p95 > n * lives or x.ends < 1.0


def expert_everywhere(rules: Rules, sizes: Iterable[int]) -> bool:
    """Whether the expert plays a shipped strategy or policy at every size (never its
    counter fallback)."""
    bot = ExpertBot(0)
    return all(not bot.plays(rules, n).startswith("counter") for n in sizes)


def measure_preset(preset: Preset, *, matches: int = MATCHES, cap: int = CAP,
                   seed: int = SEED, say: Callable[[str], None] = lambda _: None) -> Measured:
    rules = Rules.of(preset)
    lives = rules.options.lives
    sizes = sizes_of(rules)
    played = play(rules, sizes, matches, cap, derive(seed, "lengths", preset.name))
    default = {n: length(r, cap) for n, r in played.items()}
    start = next((n for n in sizes if too_long(n, lives, default[n])), None)
    say(f"{preset.name}: {'ends at every size' if start is None else f'too long from {start}'}")
    if start is None:
        return Measured(preset.name, lives, default, None, {})
    for options in REMEDIES:
        if any(rules.preset.options.as_dict()[k] == v for k, v in options.items()):
            continue
        # The remedy's round (max_rounds, which differs by size, is no part of it).
        round_options = {k: v for k, v in options.items() if k != "max_rounds"}
        cured = Rules(rules.preset, rules.options.updated(round_options))
        if not expert_everywhere(cured, sizes):
            say(f"  {options}: the expert has no tables for it")
            continue
        fixed = {n: n * lives for n in sizes} \
            if options.get("max_rounds") == ROUNDS_PER_LIFE else None
        again = play(cured, sizes, matches, cap,
                     derive(seed, "lengths", preset.name, *options.items()), fixed)
        remedied = {n: length(r, cap) for n, r in again.items()}
        if any(too_long(n, lives, remedied[n]) for n in sizes if n >= start):
            say(f"  {options}: still too long")
            continue
        say(f"  {options} from {start} seats")
        return Measured(preset.name, lives, default, Remedy(start, options), remedied)
    raise RuntimeError(f"{preset.name}: no remedy of {REMEDIES} ends every match from "
                       f"{start} seats")


def measure(presets: Iterable[Preset] = PRESETS_LIST, *, matches: int = MATCHES,
            cap: int = CAP, seed: int = SEED, say: Callable[[str], None] = lambda _: None
            ) -> list[Measured]:
    """The game of every preset in ``presets`` measured once, under its first preset
    (``gnav.lengths.game_of``: the same pieces, options and sizes): gnav-rulebook's
    matches are gnav's, and the file holds them once, read by both."""
    games: dict[str, Preset] = {}  # each game once, in the order first named
    for preset in presets:
        name = game_of(preset)
        games.setdefault(name, preset if name == preset.name else get_preset(name))
    return [measure_preset(p, matches=matches, cap=cap, seed=seed, say=say)
            for p in games.values()]


def as_json(measured: list[Measured], *, matches: int, cap: int, seed: int
            ) -> dict[str, Any]:
    return {"format": FORMAT,
            "made_by": f"gnav simulate --lengths --matches {matches} --cap {cap} "
                       f"--seed {seed}",
            "matches": matches, "cap": cap, "seed": seed, "bot": "expert",
            "rule": "a table sets the remedy from the first size whose 95th percentile "
                    "exceeds seats * lives rounds (or where a match did not end)",
            "presets": [m.as_json() for m in measured]}
