"""``gnav.abstraction``'s information sets (``gnav-abstraction/1``) as the compiled engine
indexes its tables: each key an int of ``gnav.abstraction.Layout`` with nothing left out
(so ``0 <= key < size``: a table's index; ``gnav.fast.jit`` computes it per decision
with the layout's own formula), and a policy's answer at every key at once
(``policy_table``, the table the compiled engine plays a trained policy by: the batch
expert's and the odds atlas's).

``tests/test_fast_abstraction.py`` holds the key the compiled engine writes equal to
``abstract_key(view)`` at every decision of random rounds.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from gnav.abstraction import BACKOFF, FEATURES, Layout, band_index
from gnav.bots.threshold import resolve_threshold
from gnav.rules import Rules
from gnav.strategies.policy import Policy

MAX_COUNT = 200  # seats before/after a decider: far above any table's
_PIECE = FEATURES.index("piece")


def band_indices() -> npt.NDArray[np.intp]:
    """``gnav.abstraction.band_index`` of every count to ``MAX_COUNT``, to gather from."""
    return np.array([band_index(c) for c in range(MAX_COUNT + 1)], dtype=np.intp)


class GnavAbstraction:
    """The ``gnav-abstraction/1`` information sets of ``rules``' deck as integers
    ``0 <= index < size``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.layout = layout = Layout.of(rules)
        self.pieces = layout.pieces
        self.radix = layout.radix
        self.size = layout.size

    def table(self, swap: Mapping[int, float], default: float = 0.5
              ) -> npt.NDArray[np.float32]:
        """A ``TablePolicy`` table from P(swap) by key (nothing left out); ``default``
        elsewhere."""
        out = np.full(self.size, default, dtype=np.float32)
        for key, p in swap.items():
            out[key] = p
        return out

    def lookup(self, policy: Policy) -> npt.NDArray[np.float64]:
        """``policy.lookup`` at every key, by ``Layout.backoff`` on every key at once: a
        key takes the finest of its back-offs that the policy holds; NaN where it holds
        none."""
        everything = np.arange(self.size, dtype=np.int64)
        out = np.full(self.size, np.nan, dtype=np.float64)
        if not policy.swap:
            return out
        keys = np.fromiter(policy.swap.keys(), dtype=np.int64, count=len(policy.swap))
        values = np.fromiter(policy.swap.values(), dtype=np.float64, count=len(policy.swap))
        order = np.argsort(keys)
        known, answer = keys[order], values[order] / policy.scale
        for step in range(len(BACKOFF) + 1):
            coarse = self.layout.backoff(everything, step)
            at = np.minimum(np.searchsorted(known, coarse), len(known) - 1)
            hit = (known[at] == coarse) & np.isnan(out)
            out[hit] = answer[at[hit]]
        return out


# Tables made so far, by (rules, the policy's identity); the policy is kept with its
# table so that its identity is not reused (a Policy holds dicts: it has no hash).
_made: dict[tuple[Rules, int], tuple[Policy, npt.NDArray[np.float64],
                                     npt.NDArray[np.bool_]]] = {}


def policy_table(rules: Rules, policy: Policy
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """P(swap) at every abstract key of ``rules`` as ``policy`` plays it, and which
    keys had no answer from it (the threshold policy's there)."""
    made = _made.get((rules, id(policy)))
    if made is not None:
        return made[1], made[2]
    out, missing = abstract_table(rules, policy)
    _made[rules, id(policy)] = (policy, out, missing)
    return out, missing


def abstract_table(rules: Rules, policy: Policy
                   ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``policy_table`` made afresh and kept nowhere (for a caller that plays many
    policies once each, whose tables would fill memory in the cache)."""
    abstraction = GnavAbstraction(rules)
    out = abstraction.lookup(policy)
    missing = np.isnan(out)
    threshold = resolve_threshold(rules, None)
    piece = np.arange(abstraction.size) // abstraction.layout.weight[_PIECE] \
        % abstraction.pieces
    out[missing] = (piece[missing] > threshold).astype(np.float64)
    return out, missing
