"""A trained state as a policy file (the format of ``gnav.strategies.policy``)."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

from gnav.abstraction import VERSION
from gnav.rules import Rules
from gnav.strategies import round_options
from gnav.strategies.policy import BACKOFF, FORMAT, backoffs

SCALE = 1_000_000
MIN_VISITS = 50  # a key met fewer times in training is answered by its backed-off keys
# The training's tremble by default (``gnav.train.batch.Config.tremble``: batch t's
# lines trembling with probability 0.3 / sqrt(t)). Without one, a 41-seat policy never
# learnt that the seat a neighbour swapped into should take a knocked fool when the
# other fool is held too (a life to gain); at 4 seats of gnav it costs no NashConv
# (0.00474 against 0.00473 at 16M rounds, tools/train_check.py), where 0.1 held constant
# cost 0.0014.
TREMBLE = 0.3


def policy_data(rules: Rules, seats: tuple[int, int],
                average: Mapping[str, Sequence[float]], rounds: int,
                keep: Container[str] | None = None, *,
                visits: Mapping[str, int] | None = None, min_visits: int = MIN_VISITS,
                **meta: Any) -> dict[str, Any]:
    """The file's data: the average strategy at every key trained (``average``: key ->
    [weight, weight * P(swap)]) or only those in ``keep`` (the rest answered by their
    backed-off keys), and the backed-off keys, each the mean of all the keys it stands
    for weighted by how often (and how late) training visited them. With ``visits``
    (key -> decisions met), a backed-off key whose keys were met fewer than
    ``min_visits`` times in all is left out too, so that a lookup falls through to a
    coarser key that training knows (the coarsest, position and piece, always stays)."""
    swap: dict[str, int] = {}
    pooled: dict[str, list[float]] = {}
    met: dict[str, int] = {}
    for key in sorted(average):
        w, s = average[key]
        if w <= 0:
            continue
        if keep is None or key in keep:
            swap[key] = round(s / w * SCALE)
        for k in backoffs(key):
            acc = pooled.setdefault(k, [0.0, 0.0])
            acc[0] += w
            acc[1] += s
            if visits is not None:
                met[k] = met.get(k, 0) + visits.get(key, 0)
    coarsest = len(BACKOFF)
    for k in sorted(pooled):
        if visits is not None and met[k] < min_visits and k.count("*") < coarsest:
            continue
        w, s = pooled[k]
        swap[k] = round(s / w * SCALE)
    if keep is not None:
        meta = {**meta, "min_visits": min_visits}
    return {
        "format": FORMAT,
        "preset": rules.name,
        "seats": list(seats),
        "options": round_options(rules),
        "abstraction": VERSION,
        "scale": SCALE,
        "meta": {**meta, "keys": len(average), "kept": sum(1 for k in swap if "*" not in k),
                 "rounds": rounds},
        "swap": swap,
    }
