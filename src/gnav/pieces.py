"""Pieces as data, and the reader that turns a name into a piece of a deck."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gnav.errors import UnknownPieceError
from gnav.powers import Power

ROMAN = ("O", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


@dataclass(frozen=True)
class Piece:
    """One kind of piece. ``names`` and ``calls`` map a language code to display text.

    ``calls`` is what the holder says when the piece answers a request (matadors), in
    the languages the piece is traditionally called in.
    """

    id: str
    names: Mapping[str, str] = field(compare=False, hash=False)
    power: Power | None = None
    fool: bool = False
    aliases: tuple[str, ...] = field(default=(), compare=False, hash=False)
    calls: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False
    )

    @property
    def matador(self) -> bool:
        return self.power is not None

    def name(self, lang: str = "en") -> str:
        """The display name in ``lang``, else English, else the id."""
        return self.names.get(lang) or self.names.get("en") or self.id

    def call(self, lang: str = "en") -> str | None:
        """What the holder says when the piece answers, in ``lang`` or English (None
        for a piece that never answers)."""
        return self.calls.get(lang) or self.calls.get("en")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Read-only mappings do not pickle: rebuild through ``piece`` from plain dicts.
        return (_rebuilt, (self.id, dict(self.names), self.power, self.fool, self.aliases,
                           dict(self.calls)))


def _rebuilt(id: str, names: dict[str, str], power: Power | None, fool: bool,
             aliases: tuple[str, ...], calls: dict[str, str]) -> Piece:
    return piece(id, names, power, fool=fool, aliases=aliases, calls=calls)


def piece(
    id: str,
    names: Mapping[str, str] | None = None,
    power: Power | None = None,
    *,
    fool: bool = False,
    aliases: Iterable[str] = (),
    calls: Mapping[str, str] | None = None,
) -> Piece:
    return Piece(
        id=id,
        names=MappingProxyType(dict(names or {"en": id})),
        power=power,
        fool=fool,
        aliases=tuple(aliases),
        calls=MappingProxyType(dict(calls or {})),
    )


def numbers(high: int, low: int, *, roman: bool) -> list[Piece]:
    """Number pieces from ``high`` down to ``low``; Roman numerals are accepted either way."""
    out = []
    for n in range(high, low - 1, -1):
        label = ROMAN[n] if roman and n < len(ROMAN) else str(n)
        aliases = [ROMAN[n]] if n < len(ROMAN) else []
        if n == 0:
            aliases += ["o", "zero", "null", "nulla"]
        out.append(piece(str(n), {"en": label}, aliases=aliases))
    return out


def _norm(text: str) -> str:
    return " ".join(text.strip().casefold().split())


class PieceReader:
    """Reads piece names of one deck: ids, aliases, display names, any case."""

    def __init__(self, pieces: tuple[Piece, ...], extra: Mapping[str, int] | None = None) -> None:
        """``extra``: more names, each to a rank (the cards of an ordinary pack); ids
        still win over them."""
        self._pieces = pieces
        table: dict[str, int] = {_norm(k): v for k, v in (extra or {}).items()}
        # Ids win over aliases and names, so no alias can shadow a real id.
        for i, p in enumerate(pieces):
            for text in (*p.names.values(), *p.aliases):
                table.setdefault(_norm(text), i)
        for i, p in enumerate(pieces):
            table[_norm(p.id)] = i
        self._table = table

    def index(self, text: object) -> int:
        """The rank of the piece ``text`` names.

        :raises: :exc:`UnknownPieceError` if none does.
        """
        if isinstance(text, bool) or not isinstance(text, str | int):
            raise UnknownPieceError(f"a piece must be a string, not {text!r}")
        found = self._table.get(_norm(str(text)))
        if found is None:
            known = ", ".join(p.id for p in self._pieces)
            raise UnknownPieceError(f"unknown piece {str(text)!r} (this deck has: {known})")
        return found

    def read(self, text: object) -> Piece:
        """The piece ``text`` names.

        :raises: :exc:`UnknownPieceError` if none does.
        """
        return self._pieces[self.index(text)]
