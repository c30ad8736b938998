"""The rules kernel: what a preset and its options decide about a round, as plain data.

Every loop that plays a round reads its decisions here rather than from the options: the
reference engine (``gnav.round``), the compiled batch engine (``gnav.fast``, through
one function that turns a kernel into arrays), the solver (which drives the reference
engine) and the companion's JavaScript (which is served ``to_json``). So an option that
changes what a power does, or who pays at the showdown, is written once, here:

- ``effects``: by piece, what it does when asked to swap (charge the asker? then go on,
  stop the round, undo every swap, or pass the request to the left); None for a plain
  piece, which swaps.
- the turn: whether a seat may stand without a matador, whether revealed matadors are
  skipped, whether fools knock at the deal, and who a charge is paid to.
- the showdown: ``showdown`` decides it (which rank pays, what the fools do, whether
  the dealer is let off a tie), in plain loops and small ints that the companion's
  JavaScript ports line for line; ``settle`` says it as gains and payments for the
  reference engine and the solver, and ``sit_out`` who sits out the next round. The
  compiled engine's loop writes the same decision out fused with its payments, for
  speed (``gnav.fast.jit`` says what compiling this function cost), and the property
  tests hold its every row to the reference engine.

Immutable, built once per ``Rules`` (``rules.kernel``), and free of any dependency.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gnav.options import BOOLS, CHOICES, RANGES, Options
from gnav.powers import Effect, Outcome
from gnav.presets import Preset
from gnav.vocab import Action, KnockMode, PenaltyTo, Revealed, TwoFools

_BOTH, _ONLY_SWAP = (Action.STAND, Action.SWAP), (Action.SWAP,)
# Reasons a payment is made for, as the events and records write them.
FOOL, TWO_FOOLS, LOWEST = "fool", "two_fools", "lowest"


class Settlement(NamedTuple):
    """What a showdown does, by position: ``gains`` gain a life each (two fools, under
    ``two_fools = gain``), then ``pays`` pay one each, in order, for their reason;
    ``fools`` are the positions that may sit out the next round (``Kernel.sit_out``);
    ``let_off`` is the dealer's position when ``dealer_wins_ties`` let it off a tie (-1
    otherwise)."""

    gains: tuple[int, ...]
    pays: tuple[tuple[int, str], ...]
    fools: tuple[int, ...]
    let_off: int


_NONE: tuple[int, ...] = ()

# What the fools do at a showdown (``showdown``), and two_fools as it reads it: small
# ints, so that the compiled engine runs the same function.
FOOLS_SHOWN, FOOLS_GAIN, FOOLS_PAY, FOOL_PAYS = range(4)
TWO_GAIN, TWO_PAY, TWO_PLAIN = 0, 1, 2
TWO_CODES = {TwoFools.GAIN: TWO_GAIN, TwoFools.PAY: TWO_PAY, TwoFools.PLAIN: TWO_PLAIN}


@dataclass(frozen=True, slots=True)
class Kernel:
    """The decisions of one preset under its options (docs/spec/rules.md §3 to §7)."""

    ids: tuple[str, ...]  # the pieces by rank, 0 the highest
    effects: tuple[Effect | None, ...]  # by piece: its answer to a request; None: plain
    fools: tuple[bool, ...]  # by piece
    deck: tuple[int, ...]  # every copy of every piece, in rank order
    lives: int  # each seat's lives at the start of a match
    stand_needs_matador: bool  # a seat without a matador must swap
    skip_revealed: bool  # a seat whose matador has answered takes no turn
    knock_public: bool  # a fool's holder knocks at the deal, for all to hear
    to_holder: bool  # a charge is paid to the matador's holder (not to the pool)
    drag: bool  # a lone fool pays, and the lowest of the others pays beside it
    two_fools: TwoFools  # two fools or more: their holders gain, pay, or it is a plain hand
    two_fools_sit_out: bool  # ... and sit out the next round
    dealer_wins_ties: bool  # the dealer is let off a tie on the rank that pays
    max_rounds: int  # the match's last round (0: no limit)
    # Derived: the fools by rank, and the actions of a seat by the piece it holds.
    fool_ranks: tuple[int, ...] = field(init=False)
    legal: tuple[tuple[Action, ...], ...] = field(init=False)
    passes: tuple[bool, ...] = field(init=False)  # by piece: it passes a request on
    two_code: int = field(init=False)  # two_fools as ``showdown`` reads it

    def __post_init__(self) -> None:
        s = object.__setattr__  # frozen: the derived tables are set once, here
        s(self, "fool_ranks", tuple(i for i, f in enumerate(self.fools) if f))
        s(self, "legal", tuple(_ONLY_SWAP if self.stand_needs_matador and e is None
                               else _BOTH for e in self.effects))
        s(self, "two_code", TWO_CODES[self.two_fools])
        s(self, "passes", tuple(e is not None and e.outcome is Outcome.PASS
                                for e in self.effects))

    @classmethod
    def of(cls, preset: Preset, options: Options) -> Kernel:
        """The kernel of ``preset`` under ``options`` (checked already: ``Rules`` builds
        it as ``rules.kernel``)."""
        pieces = preset.pieces
        return cls(
            ids=tuple(p.id for p in pieces),
            effects=tuple(p.power.effect if p.power else None for p in pieces),
            fools=tuple(p.fool for p in pieces),
            deck=tuple(i for i in range(len(pieces)) for _ in range(options.copies)),
            lives=options.lives,
            stand_needs_matador=options.stand_needs_matador,
            skip_revealed=options.revealed == Revealed.SKIP,
            knock_public=options.knock == KnockMode.PUBLIC,
            to_holder=options.penalty_to == PenaltyTo.HOLDER,
            drag=options.drag,
            two_fools=options.two_fools,
            two_fools_sit_out=options.two_fools_sit_out,
            dealer_wins_ties=options.dealer_wins_ties,
            max_rounds=options.max_rounds or 0,
        )

    # -- the turn ------------------------------------------------------------------

    def next_turn(self, revealed: int, after: int, n: int) -> int:
        """The position to act after ``after`` (``n``: nobody, the round is over), past
        every position in the bit mask ``revealed`` when revealed matadors are skipped."""
        turn = after + 1
        if self.skip_revealed:
            while turn < n and revealed >> turn & 1:
                turn += 1
        return turn

    def fool_holders(self, hands: Sequence[int]) -> list[int]:
        """The positions holding a fool, in order (none, most often)."""
        found: list[int] = []
        for fool in self.fool_ranks:  # one piece in every preset that has a fool
            if fool in hands:
                found += holders(hands, fool)
        if len(self.fool_ranks) > 1:
            found.sort()
        return found

    def last_draw(self, piece: int, hands: Sequence[int], deal: Sequence[int],
                  asker: int) -> tuple[Sequence[int], int] | None:
        """A request that ends the round on the stock (the dealer's, or a pass chain's
        past the dealer) meets ``piece``: the hands the showdown shows and the charge the
        asker pays. None for a pass piece, which is set aside for the next one to answer.
        A plain piece becomes the asker's; a matador leaves the hands as they are, or
        shows the hands dealt if it undoes every swap; the round ends either way."""
        effect = self.effects[piece]
        if effect is None:
            held = list(hands)
            held[asker] = piece
            return held, 0
        if effect.outcome is Outcome.PASS:
            return None
        return (deal if effect.outcome is Outcome.UNDO else hands), int(effect.charge)

    # -- the showdown --------------------------------------------------------------

    def settle(self, hands: Sequence[int]) -> Settlement:
        """Who gains and who pays at the showdown of ``hands`` (by position, the dealer
        last), as ``showdown`` decides: two fools or more settle between themselves
        (unless they are a plain hand); a lone fool under ``drag`` pays and drags the
        lowest of the others with it; otherwise the lowest rank shown pays, every holder
        of it, but the dealer in a tie under ``dealer_wins_ties``."""
        lowest, fools, let_off = showdown(hands, len(hands), self.fools, self.drag,
                                          self.two_code, self.dealer_wins_ties)
        if fools in (FOOLS_GAIN, FOOLS_PAY):
            settling = tuple(self.fool_holders(hands))
            if fools == FOOLS_GAIN:
                return Settlement(settling, (), settling, -1)
            return Settlement((), tuple((p, TWO_FOOLS) for p in settling), settling, -1)
        before = ((self.fool_holders(hands)[0], FOOL),) if fools == FOOL_PAYS else ()
        payers = holders(hands, lowest)
        if let_off >= 0:
            payers.remove(let_off)
        if len(payers) == 1:
            return Settlement((), (*before, (payers[0], LOWEST)), (), let_off)
        return Settlement((), (*before, *((p, LOWEST) for p in payers)), (), let_off)

    def sit_out(self, fools: Sequence[int], alive: Sequence[bool], number: int,
                returning: int) -> tuple[int, ...]:
        """The positions of ``fools`` (a settlement's) that sit out the next round, once
        the showdown is paid: those still ``alive`` (by position), when the rules send
        them out, there is a next round (``number`` is not the last of ``max_rounds``),
        and at least 2 seats would still play it (``returning``: seats back from sitting
        out this round)."""
        if not fools or not self.two_fools_sit_out \
                or 0 < self.max_rounds <= number:
            return _NONE
        out = tuple(p for p in fools if alive[p])
        return out if enough_play_on(sum(alive), len(out), returning) else _NONE

    # -- export --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The kernel as JSON data (the companion's JavaScript plays from it): each
        piece's ``effect`` as ``{"charge", "outcome"}`` or null, and every rule field by
        its name, enums as their words."""
        return {
            "ids": list(self.ids),
            "effects": [None if e is None else {"charge": e.charge, "outcome": e.outcome.value}
                        for e in self.effects],
            "fools": list(self.fools),
            "deck": list(self.deck),
            "lives": self.lives,
            "stand_needs_matador": self.stand_needs_matador,
            "skip_revealed": self.skip_revealed,
            "knock_public": self.knock_public,
            "to_holder": self.to_holder,
            "drag": self.drag,
            "two_fools": self.two_fools.value,
            "two_fools_sit_out": self.two_fools_sit_out,
            "dealer_wins_ties": self.dealer_wins_ties,
            "max_rounds": self.max_rounds,
        }


def preset_json(preset: Preset) -> dict[str, Any]:
    """The kernel of ``preset`` for a page that lets a table choose its options (the
    companion): ``base``, the kernel at the preset's own options, and ``by_option``: for
    every option with a few values (named, yes/no, or a small range) and each value, the
    fields of the kernel that value sets. Each field of the kernel follows from one
    option at most, so the kernel of any options is ``base`` with the changed options'
    fields laid over it (tests/test_kernel.py holds it so); ``max_rounds``, a number
    without a bound, is left to the page to read from its options."""
    own = preset.options
    base = Kernel.of(preset, own).to_json()
    by_option: dict[str, dict[str, dict[str, Any]]] = {}
    for name, values in _small_options().items():
        by_value: dict[str, dict[str, Any]] = {}
        for value in values:
            changed = Kernel.of(preset, own.updated({name: value})).to_json()
            by_value[json_key(value)] = {k: v for k, v in changed.items() if base[k] != v}
        by_option[name] = by_value
    return {"base": base, "by_option": by_option}


def json_key(value: object) -> str:
    """An option value as a key of ``by_option``: its JSON text (``true``, ``3``, and a
    word as itself)."""
    return value if isinstance(value, str) else json.dumps(value)


def _small_options() -> dict[str, tuple[object, ...]]:
    """Every option whose values can be listed, with its values."""
    out: dict[str, tuple[object, ...]] = {k: tuple(v) for k, v in CHOICES.items()}
    out.update({k: (False, True) for k in BOOLS})
    out.update({k: tuple(range(lo, hi + 1)) for k, (lo, hi) in RANGES.items()})
    return out


def showdown(hands: Any, n: int, fool: Any, drag: bool, two: int,
             dealer_wins_ties: bool) -> tuple[int, int, int]:
    """The showdown of ``hands[:n]`` (ranks by position, the dealer last), decided:
    ``(lowest, fools, let_off)``. Every holder of rank ``lowest`` pays (-1: no rank
    pays), but position ``let_off`` (-1: none); ``fools`` says what every holder of a
    fool does besides: ``FOOLS_SHOWN`` nothing more, ``FOOLS_GAIN`` gain a life,
    ``FOOLS_PAY`` pay for two fools, ``FOOL_PAYS`` pay for the lone fool that drags.
    ``fool[rank]`` is true for a fool; ``two`` is ``TWO_GAIN``, ``TWO_PAY`` or
    ``TWO_PLAIN``.

    The one statement of the showdown: ``Kernel.settle`` reads it for the reference
    engine and the solver, and the companion's JavaScript ports it line for line. It is
    written in the plain loops and small ints that numba compiles (a sequence or an
    array alike, nothing allocated), though the compiled engine keeps its own fused
    copy for speed (``gnav.fast.jit``)."""
    fools = 0
    lowest = -1
    others = -1  # the lowest of the pieces that are no fool
    for c in range(n):
        h = hands[c]
        if fool[h]:
            fools += 1
        elif h > others:
            others = h
        if h > lowest:
            lowest = h
    if fools >= 2 and two != TWO_PLAIN:  # the fools settle between themselves
        return -1, FOOLS_GAIN if two == TWO_GAIN else FOOLS_PAY, -1
    shown = FOOLS_SHOWN
    if fools == 1 and drag:  # the fool pays, and drags the lowest of the others
        lowest = others
        shown = FOOL_PAYS
    let_off = -1
    if dealer_wins_ties and hands[n - 1] == lowest:
        count = 0
        for c in range(n):
            if hands[c] == lowest:
                count += 1
        if count > 1:
            let_off = n - 1
    return lowest, shown, let_off


def enough_play_on(alive: int, out: int, returning: int) -> bool:
    """Whether ``out`` of the ``alive`` seats may sit the next round out: at least 2 seats
    would still play it (``returning``: seats back from sitting out)."""
    return alive - out + returning >= 2


def holders(hands: Sequence[int], piece: int) -> list[int]:
    """The positions holding ``piece``, in order. One, nearly always: then found by
    ``count`` and ``index`` in C rather than a loop over every position."""
    if hands.count(piece) == 1:
        return [hands.index(piece)]
    return [p for p, h in enumerate(hands) if h == piece]


# Outcome is part of the kernel's vocabulary: re-exported for the loops that read it.
__all__ = ["FOOL", "FOOLS_GAIN", "FOOLS_PAY", "FOOLS_SHOWN", "FOOL_PAYS", "LOWEST",
           "TWO_CODES", "TWO_FOOLS", "TWO_GAIN", "TWO_PAY", "TWO_PLAIN", "Effect", "Kernel",
           "Outcome", "Settlement", "enough_play_on", "holders", "json_key", "preset_json",
           "showdown"]
