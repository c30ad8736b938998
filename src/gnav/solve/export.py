"""A solution as JSON: the summary ``gnav solve --json`` prints and the strategy file of
``--out`` (the format of ``gnav.strategies``), quantised and measured again."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gnav.rules import Rules
from gnav.solve.cfr import UNREACHED, F, Game, Solution
from gnav.solve.tree import build
from gnav.strategies import FORMAT, Strategy, round_options

SCALE = 1_000_000  # probabilities are stored in millionths
SNAP = 1e-3  # a choice this close to pure is tried as pure (kept if NashConv is no worse)
# An action worse than the other by more than this (lives a round, given the set is
# reached) is dominated there: the shipped strategy never plays it. In an exact
# equilibrium every action played is as good as the other; CFR's average keeps a trace of
# early iterates (gnav, 4 seats: the dealer's left swapped a III with 0.0037 where
# standing was worth 0.033 more, over half the table's NashConv).
DOMINATED = 1e-3


def gaps(game: Game, sigma: F) -> tuple[F, F]:
    """(each information set's reach by chance and the other seats, the value of swap
    minus stand there, given it is reached): what a seat gains by each action."""
    rho = game.reach(sigma)
    _, q = game.values(sigma)
    cf = game.action_values(rho, q)
    reach: F = np.bincount(game.infoset, weights=rho, minlength=game.infosets).astype(
        np.float64)
    gap: F = (cf[:, 1] - cf[:, 0]) / np.where(reach > 0, reach, 1.0)
    return reach, gap


def dominated(game: Game, sigma: F, tolerance: float = DOMINATED) -> npt.NDArray[np.bool_]:
    """The reached information sets where ``sigma`` plays an action, with any
    probability, that is worse than the other by more than ``tolerance``."""
    reach, gap = gaps(game, sigma)
    both = game.legal[:, 0] & game.legal[:, 1]
    bad_swap = (gap < -tolerance) & (sigma[:, 1] > 0)
    bad_stand = (gap > tolerance) & (sigma[:, 0] > 0)
    out: npt.NDArray[np.bool_] = both & (reach > UNREACHED) & (bad_swap | bad_stand)
    return out


def undominated(game: Game, sigma: F, tolerance: float = DOMINATED,
                passes: int = 20) -> F:
    """``sigma`` with every dominated choice removed (the better action played purely
    there), again until none is left: a change at one position moves the values of the
    others, so each pass measures afresh."""
    out = sigma.copy()
    for _ in range(passes):
        bad = dominated(game, out, tolerance)
        if not bad.any():
            return out
        _, gap = gaps(game, out)
        swap = (gap[bad] > 0).astype(np.float64)
        out[bad, 1] = swap
        out[bad, 0] = 1.0 - swap
    return out


def quantised(game: Game, strategy: F) -> tuple[F, float]:
    """``strategy`` with its unreached sets answered (``Game.off_path``), in steps of
    1/SCALE (near-pure choices snapped when that is no worse), its dominated choices
    removed (``undominated``), and its NashConv: the strategy a file holds and the
    number it is shipped with."""
    def q(s: F) -> F:
        swap = np.round(s[:, 1] * SCALE) / SCALE
        swap = np.where(game.legal[:, 1], swap, 0.0)
        swap = np.where(game.legal[:, 0], swap, 1.0)
        return np.stack([1.0 - swap, swap], axis=1)

    plain = undominated(game, q(game.off_path(strategy)))
    conv = game.nash_conv(plain)
    snapped = game.off_path(strategy)
    snapped[:, 1] = np.where(snapped[:, 1] < SNAP, 0.0,
                             np.where(snapped[:, 1] > 1 - SNAP, 1.0, snapped[:, 1]))
    snapped = undominated(game, q(snapped))
    snapped_conv = game.nash_conv(snapped)
    if snapped_conv <= conv:
        return snapped, snapped_conv
    return plain, conv


def measure_afresh(rules: Rules, seats: int, strategy: Strategy) -> tuple[float, int, int]:
    """What a strategy file holds, measured on a tree built anew: (its NashConv, the
    information sets where it plays a dominated choice, those where both actions are
    legal and the file has no answer, played there as even odds)."""
    game = Game(build(rules, seats))
    both = game.legal[:, 0] & game.legal[:, 1]
    found = [strategy.swap_probability(k) for k in game.keys]
    missing = sum(1 for q, b in zip(found, both.tolist(), strict=True) if b and q is None)
    p = np.array([0.5 if q is None else q for q in found], dtype=np.float64)
    p = np.where(game.legal[:, 1], p, 0.0)
    p = np.where(game.legal[:, 0], p, 1.0)
    sigma = np.stack([1.0 - p, p], axis=1)
    return game.nash_conv(sigma), int(dominated(game, sigma).sum()), missing


def summary(rules: Rules, seats: int, sol: Solution, **extra: Any) -> dict[str, Any]:
    """The fields of ``gnav solve --json``; ``values`` run from the dealer's left to the
    dealer, ``opening`` is position 0's swap probability by piece when nobody else
    knocked."""
    return {
        "preset": rules.name,
        "seats": seats,
        "options": rules.options.as_dict(),
        "nash_conv": sol.nash_conv,
        "iterations": sol.iterations,
        "seconds": round(sol.seconds, 3),
        "values": [float(v) for v in sol.values],
        "opening": {piece: round(p, 6) for piece, p in
                    sorted(sol.opening().items(), key=lambda kv: rules.index(kv[0]))},
        **extra,
    }


def strategy_data(rules: Rules, seats: int, sol: Solution,
                  **extra: Any) -> dict[str, Any]:
    game = sol.game
    both: list[bool] = (game.legal[:, 0] & game.legal[:, 1]).tolist()
    swap = {k: round(p * SCALE) for k, p, b in
            zip(game.keys, sol.strategy[:, 1].tolist(), both, strict=True) if b}
    return {
        "format": FORMAT,
        "preset": rules.name,
        "seats": seats,
        "options": round_options(rules),
        "nash_conv": sol.nash_conv,
        "values": [float(v) for v in sol.values],
        "iterations": sol.iterations,
        **extra,
        "scale": SCALE,
        "swap": swap,
    }


def write(path: str | Path, data: dict[str, Any]) -> None:
    """Gzip'd JSON when the name ends in .gz, else plain JSON."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=False).encode()
    p = Path(path)
    if p.suffix == ".gz":
        # mtime=0: the same strategy makes the same bytes.
        p.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    else:
        p.write_bytes(text)
