"""A match training's state as a match policy file (``gnav.strategies.match_policy``'s
format): a table a lives class, and the lives-blind table of every class pooled."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gnav.lives_class import CLASSES, FEATURES
from gnav.rules import Rules
from gnav.strategies.match_policy import MATCH_POLICY_FORMAT
from gnav.train.batch import State
from gnav.train.export import MIN_VISITS, SCALE, policy_data


def match_policy_data(rules: Rules, seats: tuple[int, int], state: State, *,
                      min_visits: int = MIN_VISITS, **meta: Any) -> dict[str, Any]:
    """The file's data from ``state`` (``CLASSES`` tables side by side, as
    ``gnav.train.batch.train`` with ``terms="match"`` leaves it): the lives-blind table
    as a round policy file's (``policy_data``: the keys met ``min_visits`` times, the
    backed-off keys), and each class's keys met that often (the rest, and every
    back-off, left to the lives-blind table: ``gnav.strategies.match_policy``)."""
    blind = state.blind(CLASSES)
    head = policy_data(rules, seats, blind.by_key(), state.rounds, blind.met(min_visits),
                       visits=blind.visits_by_key(), min_visits=min_visits,
                       terms="match", **meta)
    classes: list[dict[str, Sequence[int]]] = []
    for i in range(CLASSES):
        part = state.part(CLASSES, i)
        keys = sorted(part.met(min_visits))
        classes.append({"keys": keys, "swap": [
            round(part.swap[k] / part.weight[k] * SCALE) for k in keys]})
    head["meta"]["class_keys"] = [len(c["keys"]) for c in classes]
    out = {k: v for k, v in head.items() if k not in ("format", "keys", "swap")}
    return {"format": MATCH_POLICY_FORMAT, **out,
            "lives": {"features": list(FEATURES), "classes": CLASSES},
            "blind": {"keys": head["keys"], "swap": head["swap"]}, "classes": classes}
