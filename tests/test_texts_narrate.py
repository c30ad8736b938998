"""The narrator's words for the showdown's payments: the fool's drag is told as what it
is, and only in the showdown where the fool paid."""

from __future__ import annotations

from gnav.events import Pay, Showdown
from gnav.rules import Rules
from gnav.texts.narrate import Narrator

NAMES = ("Astrid", "Bjørn", "Cecilie")


def test_the_fools_drag_is_narrated_as_the_drag() -> None:
    n = Narrator(Rules.from_spec({"preset": "gnav"}), NAMES)
    assert n.line(Showdown((0, 1, 2), ("fool", "cuckoo", "1"))) is not None
    fool = n.line(Pay(0, None, "fool", 3, True)) or ""
    dragged = n.line(Pay(2, None, "lowest", 3, True)) or ""
    assert fool == "Astrid pays a life to the pool for the fool (3 left)."
    assert dragged == "Cecilie pays a life to the pool, dragged down by the fool (3 left)."
    assert "lowest" not in dragged
    # The next showdown has no fool: its lowest pays for being lowest.
    n.line(Showdown((0, 1, 2), ("2", "cuckoo", "1")))
    plain = n.line(Pay(2, None, "lowest", 2, True)) or ""
    assert plain == "Cecilie pays a life to the pool for the lowest piece (2 left)."


def test_a_fool_without_a_life_still_drags() -> None:
    n = Narrator(Rules.from_spec({"preset": "gnav"}), NAMES, me=1)
    n.line(Showdown((0, 1, 2), ("fool", "2", "cuckoo")))
    assert n.line(Pay(0, None, "fool", 0, False)) == "Astrid would pay, but has no life left."
    assert n.line(Pay(1, None, "lowest", 1, True)) == \
        "You pay a life to the pool, dragged down by the fool (1 left)."
