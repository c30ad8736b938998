"""Rules: a preset with its options, and the kernel of decisions they imply (``kernel``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from random import Random

from gnav.cards import card_aliases, fit_problem
from gnav.errors import MalformedError, OptionError, UnknownPresetError
from gnav.kernel import Kernel
from gnav.options import Options
from gnav.pieces import Piece, PieceReader
from gnav.powers import Effect
from gnav.presets import Preset, get_preset
from gnav.vocab import Action, Pack


def _preset(name: object, where: str) -> Preset:
    try:
        return get_preset(name)
    except UnknownPresetError as e:
        raise UnknownPresetError(f"{where}: {e}") from None


class _Tables:
    """The tables a ``Rules`` derives from its preset and options, once, for the round to
    read. Declared here, outside the dataclass, so that they are no fields of it: not in
    its ``repr``, ``fields()`` or ``replace()``; only ``preset`` and ``options`` are."""

    kernel: Kernel  # every decision of the round (gnav.kernel); the rest read off it
    pieces: tuple[Piece, ...]
    ids: tuple[str, ...]
    effects: tuple[Effect | None, ...]
    power_names: tuple[str, ...]  # as an Answer writes it; "" for none
    fools: tuple[bool, ...]
    fool_set: frozenset[int]
    # Options the round reads on every decision, flattened for speed.
    stand_needs_matador: bool
    skip_revealed: bool
    knock_public: bool
    deck: tuple[int, ...]
    # The actions of the seat to act, by the piece it holds: read on every decision (a
    # view's ``legal``), so looked up rather than worked out from the option each time.
    legal_holding: tuple[tuple[Action, ...], ...]
    reader: PieceReader


def _plain(value: object) -> object:
    """An option's value as it is written: an enum member as its word."""
    return value.value if isinstance(value, StrEnum) else value


@dataclass(frozen=True, eq=False, repr=False)
class Rules(_Tables):
    """A preset plus options. Pieces are numbered by rank: 0 is the highest.

    ``repr`` is the call that makes them: ``Rules.of('gnav', lives=3)``."""

    preset: Preset
    options: Options

    def __post_init__(self) -> None:
        pieces = self.preset.pieces
        s = object.__setattr__  # frozen: derived tables are set once, here
        kernel = Kernel.of(self.preset, self.options)
        s(self, "kernel", kernel)
        s(self, "pieces", pieces)
        s(self, "ids", kernel.ids)
        s(self, "effects", kernel.effects)
        s(self, "power_names", tuple(p.power.value if p.power else "" for p in pieces))
        s(self, "fools", kernel.fools)
        s(self, "fool_set", frozenset(kernel.fool_ranks))
        s(self, "stand_needs_matador", kernel.stand_needs_matador)
        s(self, "skip_revealed", kernel.skip_revealed)
        s(self, "knock_public", kernel.knock_public)
        s(self, "deck", kernel.deck)
        s(self, "legal_holding", kernel.legal)
        cards: dict[str, int] = {}
        if self.options.pack == Pack.CARDS52:
            problem = fit_problem(pieces, self.options.copies)
            if problem is not None:
                raise OptionError(f"pack cards52: {self.preset.name} does not fit an ordinary "
                                  f"pack: {problem}")
            # A game played with cards may name the cards (KH, K♥) for its pieces.
            cards = card_aliases(pieces, self.options.copies)
        s(self, "reader", PieceReader(pieces, cards))

    @classmethod
    def of(cls, preset: str | Preset = "gnav", **options: object) -> Rules:
        """Rules of ``preset`` (a name or alias, or a Preset of your own) with
        ``options`` changed.

        :raises:
            - :exc:`UnknownPresetError` for a preset no registry holds.
            - :exc:`OptionError` for an option it does not take.
        """
        p = preset if isinstance(preset, Preset) else get_preset(preset)
        return cls(p, p.options.updated(options))

    @classmethod
    def from_spec(cls, spec: object, *, where: str = "rules") -> Rules:
        """Rules from a record's ``rules`` field: a preset name, or an object with
        ``preset`` and options.

        :raises:
            - :exc:`MalformedError` for a field of another shape.
            - :exc:`UnknownPresetError` for a preset no registry holds.
            - :exc:`OptionError` for an option it does not take.
        """
        if isinstance(spec, str):
            p = _preset(spec, where)
            return cls(p, p.options)
        if isinstance(spec, Mapping):
            if "preset" not in spec:
                raise MalformedError(f"{where}: missing field 'preset'")
            p = _preset(spec["preset"], f"{where}: preset")
            changes = {k: v for k, v in spec.items() if k != "preset"}
            return cls(p, p.options.updated(changes, where=where))
        raise MalformedError(f"{where}: must be a preset name or an object, not {spec!r}")

    def to_spec(self) -> str | dict[str, object]:
        """The shortest record form: the preset name, plus every option that differs.

        :raises: :exc:`UnknownPresetError` for a preset records cannot name: one of your own
            that is not registered (``gnav.presets.register``), or another preset of that
            name.
        """
        try:
            named = get_preset(self.preset.name)
        except UnknownPresetError:
            raise UnknownPresetError(
                f"preset {self.preset.name!r} is not registered: records name their preset "
                "(gnav.presets.register it first)") from None
        if named != self.preset:
            raise UnknownPresetError(
                f"preset {self.preset.name!r} differs from the registered preset of that "
                "name: records could not tell them apart")
        base = self.preset.options.as_dict()
        changed = {k: v for k, v in self.options.as_dict().items() if base[k] != v}
        if not changed:
            return self.preset.name
        return {"preset": self.preset.name, **changed}

    @property
    def name(self) -> str:
        return self.preset.name

    @property
    def has_fool(self) -> bool:
        return any(self.fools)

    @property
    def min_seats(self) -> int:
        return self.preset.min_seats

    @property
    def max_seats(self) -> int:
        # The stock must hold at least one piece; a preset may allow fewer (Le Her: 2).
        most = len(self.deck) - 1
        cap = self.preset.max_seats
        return most if cap is None else min(cap, most)

    def shuffle(self, rng: Random) -> list[int]:
        """The deck in a random order drawn from ``rng``.

        Sorting by random float keys is about twice as fast as ``rng.shuffle`` here; a
        tie between two 53-bit keys (which would keep deck order) has odds near 1e-13.
        The keys come from ``rng.random`` through ``next`` on a callable iterator, so no
        Python frame runs per piece (the same draws, in the same order, as a lambda);
        its sentinel is a float that ``random()`` never returns, so each check is a
        float comparison.
        """
        return sorted(self.deck, key=partial(next, iter(rng.random, -1.0)))

    def piece(self, index: int) -> Piece:
        """The piece of rank ``index`` (0: the highest).

        :raises: :exc:`IndexError` past the deck.
        """
        return self.pieces[index]

    def piece_named(self, text: str) -> Piece:
        """The piece ``text`` names: an id, an alias or a display name, any case
        (``"cuckoo"``, ``"Gjøk"``, ``"XII"``).

        :raises: :exc:`UnknownPieceError` if none does.
        """
        return self.reader.read(text)

    def index(self, text: object) -> int:
        """The rank of the piece ``text`` names (see ``piece_named``).

        :raises: :exc:`UnknownPieceError` if none does.
        """
        return self.reader.index(text)

    def seats_text(self) -> str:
        """The seat counts this game allows, in words: "2 to 41 seats", "exactly 2 seats"."""
        lo, hi = self.min_seats, self.max_seats
        return f"exactly {lo} seats" if lo == hi else f"{lo} to {hi} seats"

    def check_seats(self, n: int) -> None:
        """Check that these rules seat ``n`` players.

        :raises: :exc:`OptionError` if they do not.
        """
        if not self.min_seats <= n <= self.max_seats:
            raise OptionError(f"{self.name} takes {self.seats_text()}, not {n}")

    def __repr__(self) -> str:
        base = self.preset.options.as_dict()
        changed = [f"{k}={_plain(v)!r}" for k, v in self.options.as_dict().items()
                   if base[k] != v]
        try:
            registered = get_preset(self.preset.name) == self.preset
        except UnknownPresetError:
            registered = False
        name = repr(self.preset.name) if registered else f"<preset {self.preset.name!r}>"
        return f"Rules.of({', '.join([name, *changed])})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # A built-in preset goes by name (small, and the same object on the other side);
        # any other by value, so a worker process needs no registration of its own.
        if self.preset.builtin:
            return (Rules.from_spec, (self.to_spec(),))
        return (Rules, (self.preset, self.options))

    def __eq__(self, other: object) -> bool:
        # By content: a preset of your own is not gnav because it is called "gnav".
        if not isinstance(other, Rules):
            return NotImplemented
        if self is other:
            return True
        return self.options == other.options and (
            self.preset is other.preset or self.preset == other.preset)

    def __hash__(self) -> int:
        return hash((self.preset.name, self.options))
