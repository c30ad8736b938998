"""The guided first match as data: four seats, eight arranged rounds, each teaching one
rule as it happens to the player (seat 0) or in front of them.

Nothing here restates a rule. A round gives its deal, its stock and every decision in
order (the bots' fixed, the player's expected one with the sentence that explains it);
the engine plays them (``gnav.learn.lesson``), and each note is said where the events
its claim names have happened (``gnav.learn.claims``): a note whose events do not
happen under a preset fails the lesson's test for that preset. A note may name a
different sentence per preset where the presets' rules differ (the Cuckoo stops play
in gnav and only refuses in the 1917 rules; the 1917 Cat charges but undoes nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from gnav.vocab import Action

STAND, SWAP = Action.STAND, Action.SWAP

PLAYER = 0
NAMES = ("You", "Astrid", "Bjørn", "Cecilie")
LIVES = 4
FIRST_DEALER = 3  # the player sits at the dealer's left in the first round
PRESETS = ("gnav", "gnav-1917")  # the rules the lesson is checked under and offered in


class Decision(NamedTuple):
    """One decision of the round, in turn order: a bot's fixed move, or the player's
    expected one, with ``why`` the sentence said when they choose the other."""

    seat: int
    action: Action
    why: str | None = None


Said = str | Mapping[str, str]  # a sentence id, or one per preset (others: "gnav"'s)


class LessonRound(NamedTuple):
    """One arranged round: ``deal`` by seat (piece ids), the stock top first, every
    decision in order, the sentence said at the deal, and the notes in the order their
    events happen."""

    deal: Mapping[int, str]
    stock: tuple[str, ...]
    decisions: tuple[Decision, ...]
    intro: str
    notes: tuple[Said, ...]


def said(text: Said, preset: str) -> str:
    """The sentence id ``text`` names under ``preset``."""
    if isinstance(text, str):
        return text
    return text.get(preset, text["gnav"])


ROUNDS: tuple[LessonRound, ...] = (
    # 1. Stand or swap; the lowest pays. Dealer Cecilie; you act first.
    LessonRound(
        deal={0: "2", 1: "10", 2: "5", 3: "8"}, stock=("6", "9", "4", "11"),
        decisions=(Decision(0, SWAP, "learn.why.swap_low"), Decision(1, SWAP),
                   Decision(2, SWAP), Decision(3, SWAP)),
        intro="learn.intro.stand_or_swap",
        notes=("learn.you_swapped", "learn.dealer_draws", "learn.lowest_pays"),
    ),
    # 2. Asked to swap while holding a number; the dealer's draw, yours. You deal.
    LessonRound(
        deal={1: "9", 2: "7", 3: "1", 0: "11"}, stock=("12", "3", "5", "10"),
        decisions=(Decision(1, STAND), Decision(2, STAND), Decision(3, SWAP),
                   Decision(0, SWAP, "learn.why.draw_low")),
        intro="learn.intro.asked",
        notes=("learn.asked_number", "learn.you_draw", "learn.lowest_pays"),
    ),
    # 3. The Cuckoo on your left. Dealer Astrid.
    LessonRound(
        deal={2: "9", 3: "house", 0: "3", 1: "cuckoo"}, stock=("6", "8", "4", "10"),
        decisions=(Decision(2, STAND), Decision(3, STAND),
                   Decision(0, SWAP, "learn.why.swap_low")),
        intro="learn.intro.low_again",
        notes=({"gnav": "learn.cuckoo_stops", "gnav-1917": "learn.cuckoo_refuses"},
               "learn.you_pay_lowest"),
    ),
    # 4. The Dragoon charges you. Dealer Bjørn.
    LessonRound(
        deal={3: "10", 0: "1", 1: "dragoon", 2: "4"}, stock=("0", "7", "5", "12"),
        decisions=(Decision(3, STAND), Decision(0, SWAP, "learn.why.swap_low"),
                   Decision(2, SWAP)),
        intro="learn.intro.nearly_lowest",
        notes=("learn.dragoon_charges", "learn.dealer_draws", "learn.lowest_pays"),
    ),
    # 5. The Cat: it charges its asker, and (in gnav) undoes every swap. Dealer Cecilie.
    LessonRound(
        deal={0: "2", 1: "11", 2: "cat", 3: "3"}, stock=("0", "6", "9", "5"),
        decisions=(Decision(0, SWAP, "learn.why.swap_low"), Decision(1, SWAP),
                   Decision(3, SWAP)),
        intro="learn.intro.you_first",
        notes=({"gnav": "learn.cat_undoes", "gnav-1917": "learn.cat_charges"},
               "learn.dealer_draws", "learn.lowest_pays"),
    ),
    # 6. House and Horse pass the request on; your Horse too, to the stock. You deal.
    LessonRound(
        deal={1: "12", 2: "1", 3: "house", 0: "horse"}, stock=("10", "7", "5", "8"),
        decisions=(Decision(1, STAND), Decision(2, SWAP)),
        intro="learn.intro.your_matador",
        notes=("learn.house_passes", "learn.your_horse_passes", "learn.lowest_pays"),
    ),
    # 7. The fool knocks, and drags the next-lowest down. Dealer Astrid, dealt the fool.
    LessonRound(
        deal={2: "10", 3: "3", 0: "5", 1: "fool"}, stock=("cuckoo", "7", "9", "12"),
        decisions=(Decision(2, STAND), Decision(3, STAND),
                   Decision(0, STAND, "learn.why.keep_from_fool"), Decision(1, SWAP)),
        intro="learn.intro.middle",
        notes=("learn.knock",
               {"gnav": "learn.stock_cuckoo_stops", "gnav-1917": "learn.stock_cuckoo_refuses"},
               "learn.drag"),
    ),
    # 8. Two fools: both holders gain a life. Dealer Bjørn, dealt the other fool.
    LessonRound(
        deal={3: "9", 0: "fool", 1: "5", 2: "fool"}, stock=("8", "6", "4", "12"),
        decisions=(Decision(3, STAND), Decision(0, STAND, "learn.why.keep_two_fools"),
                   Decision(1, STAND), Decision(2, STAND)),
        intro="learn.intro.two_fools",
        notes=("learn.two_knocks", "learn.two_fools_gain", "learn.you_win"),
    ),
)
