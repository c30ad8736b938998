"""A trained state as a policy file (the format of ``gnav.strategies.policy``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Container, Mapping, Sequence
from pathlib import Path
from typing import Any

from gnav.abstraction import BACKOFF, SHIFT, VERSION, Layout
from gnav.errors import MalformedError
from gnav.rules import Rules
from gnav.strategies import read_json, round_options
from gnav.strategies.policy import FORMAT, parse

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
                average: Mapping[int, Sequence[float]], rounds: int,
                keep: Container[int] | None = None, *,
                visits: Mapping[int, int] | None = None, min_visits: int = MIN_VISITS,
                **meta: Any) -> dict[str, Any]:
    """The file's data: the average strategy at every key trained (``average``: key ->
    [weight, weight * P(swap)]) or only those in ``keep`` (the rest answered by their
    backed-off keys), and the backed-off keys, each the mean of all the keys it stands
    for weighted by how often (and how late) training visited them. With ``visits``
    (key -> decisions met), a backed-off key whose keys were met fewer than
    ``min_visits`` times in all is left out too, so that a lookup falls through to a
    coarser key that training knows (the coarsest, position and piece, always stays)."""
    layout = Layout.of(rules)
    swap: dict[int, int] = {}
    pooled: dict[int, list[float]] = {}
    met: dict[int, int] = {}
    for key in sorted(average):
        w, s = average[key]
        if w <= 0:
            continue
        if keep is None or key in keep:
            swap[key] = round(s / w * SCALE)
        for k in layout.backoffs(key):
            acc = pooled.setdefault(k, [0.0, 0.0])
            acc[0] += w
            acc[1] += s
            if visits is not None:
                met[k] = met.get(k, 0) + visits.get(key, 0)
    coarsest = layout.backoff(0, len(BACKOFF)) >> SHIFT  # the mask of every back-off
    for k in sorted(pooled):
        if visits is not None and met[k] < min_visits and k >> SHIFT != coarsest:
            continue
        w, s = pooled[k]
        swap[k] = round(s / w * SCALE)
    if keep is not None:
        meta = {**meta, "min_visits": min_visits}
    return file_data(rules.name, seats, round_options(rules), layout, SCALE, swap, {
        **meta, "keys": len(average), "kept": sum(1 for k in swap if k >> SHIFT == 0),
        "rounds": rounds})


def file_data(preset: str, seats: tuple[int, int], options: Mapping[str, object],
              layout: Layout, scale: int, swap: Mapping[int, int], meta: Mapping[str, Any],
              *, dealer_stood: bool = True) -> dict[str, Any]:
    """A policy file's JSON (``gnav.strategies.policy``'s format): ``keys`` ascending
    and ``swap`` beside them. ``dealer_stood``: keyed with the dealer's ``left`` digit
    (``gnav.abstraction``), as every file trained now is."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "preset": preset,
        "seats": list(seats),
        "options": dict(options),
        "abstraction": VERSION,
        "pieces": list(layout.ids),
        "scale": scale,
        "meta": dict(meta),
        "keys": sorted(swap),
        "swap": [swap[k] for k in sorted(swap)],
    }
    if dealer_stood:  # a file made before keeps its bytes (``converted``)
        out["dealer_stood"] = True
    return out


def converted(path: str) -> dict[str, Any]:
    """The policy file at ``path`` (of any format ``gnav.strategies.policy`` reads) in
    the format written now, every key and every probability as it was."""
    data = read_json(path)
    policy = parse(data, path, as_made=True)
    return file_data(policy.preset, policy.seats, policy.options, policy.layout,
                     policy.scale, policy.swap, policy.meta,
                     dealer_stood=isinstance(data, dict) and data.get("dealer_stood") is True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gnav.train.export --convert FILE...``: each policy file rewritten in
    place in the format written now (the one-off that made the shipped files
    ``gnav-policy/2``). Prints a line a file; exits 2 at the first it cannot read."""
    p = argparse.ArgumentParser(prog="python -m gnav.train.export", description=main.__doc__)
    p.add_argument("--convert", nargs="+", metavar="FILE", required=True)
    args = p.parse_args(argv)
    from gnav.solve.export import write  # numpy: not at import (gnav train's help)

    for name in args.convert:
        try:
            data = converted(name)
        except MalformedError as e:
            print(f"convert: {e}", file=sys.stderr)
            return 2
        write(Path(name), data)
        print(f"{name}: {len(data['swap']):,} keys, {FORMAT}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
