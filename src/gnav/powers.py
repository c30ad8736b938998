"""The power vocabulary: what a matador does when it is asked to swap.

A power is data: whether the asker pays, and what happens next. The round logic reads
these two fields and never a power's name, so a new game is a new table of pieces.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import NamedTuple


class Outcome(Enum):
    """What happens to the round after a matador answers."""

    CONTINUE = "continue"
    STOP = "stop"
    UNDO = "undo"
    PASS = "pass"


class Effect(NamedTuple):
    charge: bool
    outcome: Outcome


class Power(StrEnum):
    """A matador's power, by name (docs/spec/rules.md §4); ``effect`` is what it does."""

    STOP = "stop"
    REFUSE = "refuse"
    CHARGE = "charge"
    CHARGE_STOP = "charge_stop"
    CHARGE_UNDO = "charge_undo"
    UNDO = "undo"
    PASS = "pass"

    @property
    def effect(self) -> Effect:
        return EFFECTS[self]


EFFECTS: dict[Power, Effect] = {
    Power.STOP: Effect(False, Outcome.STOP),
    Power.REFUSE: Effect(False, Outcome.CONTINUE),
    Power.CHARGE: Effect(True, Outcome.CONTINUE),
    Power.CHARGE_STOP: Effect(True, Outcome.STOP),
    Power.CHARGE_UNDO: Effect(True, Outcome.UNDO),
    Power.UNDO: Effect(False, Outcome.UNDO),
    Power.PASS: Effect(False, Outcome.PASS),
}
