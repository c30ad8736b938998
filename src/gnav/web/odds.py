"""The ``/odds`` page's data: the shipped atlases (``gnav odds --all``), with the
pieces' names in the page's languages.

``GET /api/odds`` lists what is shipped (preset -> sizes); ``GET /api/odds?preset=P&
seats=N`` gives one table's atlas (docs/odds.md's figures) and its pieces' names.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gnav.errors import GnavError, MalformedError
from gnav.odds.docs import DATA, load
from gnav.presets import get_preset
from gnav.rules import Rules
from gnav.vocab import TEXT_LANGS

ODDS_PAGE = "odds.html"


@cache
def shipped() -> dict[str, list[int]]:
    """Preset -> the table sizes an atlas ships for."""
    out: dict[str, list[int]] = {}
    for path in sorted(DATA.glob("*.json.gz")):
        stem = path.name.removesuffix(".json.gz")
        preset, _, seats = stem.rpartition("-")
        if seats.isdigit():
            out.setdefault(preset, []).append(int(seats))
    return {p: sorted(s) for p, s in out.items()}


@cache
def odds_json(preset: str, seats: int) -> dict[str, Any]:
    """One table's atlas and its pieces' names.

    :raises: :exc:`MalformedError` for a preset or size nothing ships for (saying what
        does).
    """
    try:
        name = get_preset(preset).name
    except GnavError:
        raise MalformedError(f"odds: unknown preset {preset!r}") from None
    sizes = shipped().get(name, [])
    if seats not in sizes:
        listed = ", ".join(map(str, sizes)) or "none"
        raise MalformedError(f"odds: no atlas for {seats} seats of {name} "
                             f"(sizes: {listed})")
    atlas = load(name, seats)
    assert atlas is not None
    rules = Rules.of(name)
    names = {pid: {lang: rules.piece(rules.ids.index(pid)).name(lang)
                   for lang in TEXT_LANGS} for pid in atlas.pieces}
    return {"atlas": atlas.as_json(), "names": names}


def index() -> dict[str, Any]:
    presets = shipped()
    return {"presets": [{"preset": p, "sizes": s} for p, s in presets.items()]}
