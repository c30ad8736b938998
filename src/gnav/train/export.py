"""A trained state as a policy file (the format of ``gnav.strategies.policy``)."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

from gnav.abstraction import VERSION
from gnav.rules import Rules
from gnav.strategies import round_options
from gnav.strategies.policy import FORMAT, backoffs

SCALE = 1_000_000
MIN_VISITS = 50  # a key met fewer times in training is answered by its backed-off keys


def policy_data(rules: Rules, seats: tuple[int, int],
                average: Mapping[str, Sequence[float]], rounds: int,
                keep: Container[str] | None = None, **meta: Any) -> dict[str, Any]:
    """The file's data: the average strategy at every key trained (``average``: key ->
    [weight, weight * P(swap)]) or only those in ``keep`` (the rest answered by their
    backed-off keys), and the backed-off keys, each the mean of all the keys it stands
    for weighted by how often (and how late) training visited them."""
    swap: dict[str, int] = {}
    pooled: dict[str, list[float]] = {}
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
    for k in sorted(pooled):
        w, s = pooled[k]
        swap[k] = round(s / w * SCALE)
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
