"""Training in match terms (issue 29 §2): a unit's sampled regrets valued in win chance,
each seat playing the table of its lives class (``gnav train --terms match``).

A round policy values a round in lives, the same at any lives state; the match is won by
being the last with lives, and a life is worth most near elimination. Here each row of a
unit is dealt at a lives state drawn from the field's own full-table states at that
size (``gnav.fast.lifestates``: whole matches of the shipped ``expert-round`` field,
every seat dealt in; ``field_states``, computed once per size and process), and:

* each column plays the table of its lives class at the round's start
  (``gnav.lives_class.column_classes``: its own lives, its neighbours'); the tables are
  one round table per class, ``CLASSES`` of them side by side (index ``class * size +
  key``, the abstraction's ``size``);
* the round is played at those lives on the batch engine (``JitRounds.of_matches``: the
  payments stop at 0, as in the match), and each decision's two lines, its own and the
  other action's on the same decks and draws, are valued as the deciding seat's chance
  to win the match after the round (``gnav.fast.match_response.match_gap``, under
  ``gnav.match_value``'s model; a seat brought to 0 is out, all out together share).

CFR's sampled regrets need only the difference of a decision's two values (the regret of
an action is its value less the mean, ``p * (v0 - v1)`` and ``(1 - p) * (v1 - v0)``), so
the main line is valued 0 and the flipped line the change of win chance it brings: one
valuation a decision, not two. How many seats are still in is the table size, which the
abstraction's position digits and the band already hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.classes import row_classes
from gnav.fast.expert import ExpertPolicy
from gnav.fast.jit import ABSTRACT, FLIP, JitRounds
from gnav.fast.lifestates import State, draw_states, full_table_states, round_starts
from gnav.fast.match_response import match_gap
from gnav.lives_class import CLASSES
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.train.regrets import accumulate, both_legal

F64 = npt.NDArray[np.float64]
MATCHES = 1000  # whole matches of the field a size, to draw the lives states from


@lru_cache(maxsize=64)
def field_states(preset: str, options: tuple[tuple[str, object], ...], seats: int,
                 matches: int = MATCHES, seed: int = 0) -> tuple[tuple[State, float], ...]:
    """The lives states at which the shipped expert's field (``expert-round`` on the
    batch engine: the rounds' own tables, as ``gnav.fast.expert.ExpertPolicy`` plays
    them) deals all ``seats`` seats in, over ``matches`` whole matches of the rules'
    lives, each with its share (``full_table_states``). Cached: a training asks once a
    size."""
    rules = Rules.of(preset, **dict(options))
    starts = round_starts(rules, seats, matches, [ExpertPolicy(rules, seats)],
                          rng=np.random.default_rng(derive(seed, "train-states", seats)))
    found = full_table_states(starts)
    if not found:
        raise ValueError(f"no match of {seats} seats of {preset} dealt every seat in")
    return tuple(found)


def match_sums(rules: Rules, seats: int, rows: int, current: F64,
               states: Sequence[tuple[State, float]], *, seed: int,
               rng: np.random.Generator, first_row: int = 0,
               ab: GnavAbstraction | None = None,
               both: npt.NDArray[np.bool_] | None = None,
               slot: npt.NDArray[np.int64] | None = None, played: F64 | None = None
               ) -> tuple[npt.NDArray[np.int64], F64]:
    """One unit's sampled regrets in match terms (``gnav.train.batch.sums``'s, each row
    at a lives state drawn by ``rng`` from ``states``): ``current`` and ``played`` are
    P(swap) over ``CLASSES * size`` indices, and so are the indices returned. ``both``
    and ``slot`` are over the same indices."""
    ab = ab if ab is not None else GnavAbstraction(rules)
    size = ab.size
    both = both if both is not None else np.tile(both_legal(rules, ab), CLASSES)
    slot = slot if slot is not None else np.full(CLASSES * size, -1, dtype=np.int64)
    tables = (current if played is None else played).reshape(CLASSES, size)
    before = draw_states(states, rows, rng).astype(np.int16)
    if before.shape[1] != seats:
        raise ValueError(f"lives states of {before.shape[1]} seats for rounds of {seats}")
    classes = row_classes(before)
    ids = np.arange(first_row, first_row + rows, dtype=np.int64)
    per_row = np.stack([np.full(rows, seats), ids, np.zeros(rows, np.int64),
                        np.zeros(rows, np.int64)], axis=1)
    engine = JitRounds.of_matches(rules, seats, seed=seed, per_row=per_row, lives=before)
    engine.play(tables, ABSTRACT, policy_of=classes)
    keys = np.where(engine.keys >= 0, classes * size + engine.keys, -1)
    took = engine.actions.copy()
    main = engine.lives.astype(np.int64) - before
    gap = np.zeros((seats, rows))
    for c in range(seats):
        engine.lives[:] = before  # a round of matches plays from the lives it holds
        force = np.full(seats, -1, dtype=np.int64)
        force[c] = FLIP
        engine.play(tables, ABSTRACT, policy_of=classes, forced=force)
        on = keys[:, c] >= 0
        if on.any():
            flipped = engine.lives[on].astype(np.int64) - before[on]
            gap[c, on] = match_gap(before[on], main[on], flipped, c)
    visited, out = accumulate(keys.T.flatten(), took.T.flatten(), np.zeros(seats * rows),
                               gap.ravel(), current, both, slot)
    return visited, out
