"""The ``/odds`` page's data: the shipped atlases (``gnav odds --all``) and those made on
demand for the other sizes (``gnav.odds.ondemand``), with the pieces' names and the
games' titles in the page's languages.

``GET /api/odds`` lists every game: its titles, the sizes that ship, the sizes already
made here, every size the page offers (2 to 41 where the game allows) and, if this
server cannot make the others, why not. ``GET /api/odds?preset=P&seats=N`` gives one
table's atlas (200), or how far its making is (202), or that it is neither shipped nor
made (404). ``POST /api/odds?preset=P&seats=N`` starts making it (202), in a process of
its own, one table at a time on the machine.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path
from typing import Any

from gnav.errors import Code, GnavError, MalformedError, RefusedError
from gnav.odds.docs import DATA, load
from gnav.odds.figures import Atlas
from gnav.odds.ondemand import LARGEST, atlas_path, read_lock, release, take_lock, why_not
from gnav.presets import PRESETS, get_preset
from gnav.rules import Rules
from gnav.strategies import game_name
from gnav.texts.rules import title
from gnav.vocab import TEXT_LANGS

ODDS_PAGE = "odds.html"


def default_dir() -> Path:
    """Where tables made on demand are kept unless the server is told
    (``gnav serve --odds-dir``): the user's cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gnav" / "odds"


@cache
def shipped() -> dict[str, list[int]]:
    """Preset -> the table sizes an atlas ships for: its game's (the files are one a
    game, ``gnav.strategies.game_name``: gnav-rulebook's are gnav's)."""
    files: dict[str, list[int]] = {}
    for path in sorted(DATA.glob("*.json.gz")):
        stem = path.name.removesuffix(".json.gz")
        game, _, seats = stem.rpartition("-")
        if seats.isdigit():
            files.setdefault(game, []).append(int(seats))
    out = {p: files.get(game_name(Rules.of(p)), []) for p in PRESETS}
    return {p: sorted(s) for p, s in out.items() if s}


def _table(preset: str, seats: int) -> Rules:
    """The rules of ``preset``'s game (gnav's for gnav-rulebook: one atlas a game),
    checked to have an atlas of ``seats`` seats at all."""
    try:
        name = game_name(Rules.of(get_preset(preset).name))
    except GnavError:
        raise MalformedError(f"odds: unknown preset {preset!r}") from None
    rules = Rules.of(name)
    if not rules.min_seats <= seats <= min(rules.max_seats, LARGEST):
        raise MalformedError(f"odds: {name} is played by {rules.min_seats} to "
                             f"{rules.max_seats} people; the odds go from "
                             f"{rules.min_seats} to {min(rules.max_seats, LARGEST)} seats, "
                             f"not {seats}")
    return rules


def _body(rules: Rules, atlas: Atlas) -> dict[str, Any]:
    names = {pid: {lang: rules.piece(rules.ids.index(pid)).name(lang)
                   for lang in TEXT_LANGS} for pid in atlas.pieces}
    return {"atlas": atlas.as_json(), "names": names}


@cache
def odds_json(preset: str, seats: int) -> dict[str, Any]:
    """One shipped table's atlas and its pieces' names.

    :raises: :exc:`MalformedError` for a preset or size nothing ships for (saying what
        does).
    """
    rules = _table(preset, seats)
    sizes = shipped().get(rules.name, [])
    if seats not in sizes:
        listed = ", ".join(map(str, sizes)) or "none"
        raise MalformedError(f"odds: no atlas ships for {seats} seats of {rules.name} "
                             f"(sizes: {listed})")
    atlas = load(rules.name, seats)
    assert atlas is not None
    return _body(rules, atlas)


class Maker:
    """The tables made on demand, in ``directory`` (shared by the server's processes on
    one machine: the lock and the atlases are files there)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_dir()
        self.made: dict[tuple[str, int], tuple[float, dict[str, Any]]] = {}

    def made_sizes(self, preset: str) -> list[int]:
        found = []
        for path in self.directory.glob(f"{preset}-*.json.gz"):
            seats = path.name.removesuffix(".json.gz").removeprefix(f"{preset}-")
            if seats.isdigit():
                found.append(int(seats))
        return sorted(found)

    def _made(self, rules: Rules, seats: int) -> dict[str, Any] | None:
        path = atlas_path(self.directory, rules.name, seats)
        try:
            stamp = path.stat().st_mtime
            kept = self.made.get((rules.name, seats))
            if kept is not None and kept[0] == stamp:
                return kept[1]
            atlas = Atlas.from_json(json.loads(gzip.decompress(path.read_bytes())))
        except (OSError, ValueError, KeyError, TypeError):  # gone, or not an atlas
            return None
        body = _body(rules, atlas)
        self.made[rules.name, seats] = (stamp, body)
        return body

    def _making(self, rules: Rules, seats: int) -> dict[str, Any] | None:
        lock = read_lock(self.directory)
        if lock and lock.get("preset") == rules.name and lock.get("seats") == seats:
            return {"making": {"preset": rules.name, "seats": seats,
                               "done": int(lock.get("done", 0)),
                               "total": max(1, int(lock.get("total", 1)))}}
        return None

    def status(self, preset: str, seats: int) -> tuple[int, dict[str, Any]]:
        """(200, the atlas), (202, how far its making is).

        :raises: :exc:`MalformedError` for an unknown preset or size; ``RefusedError``
            (``NO_ODDS``) for a table neither shipped, made nor being made.
        """
        rules = _table(preset, seats)
        if seats in shipped().get(rules.name, []):
            return 200, odds_json(rules.name, seats)
        body = self._made(rules, seats)
        if body is not None:
            return 200, body
        making = self._making(rules, seats)
        if making is not None:
            return 202, making
        raise RefusedError(Code.NO_ODDS, f"odds: {seats} seats of {rules.name} are not "
                           "made yet (POST the same address to make them)")

    def start(self, preset: str, seats: int) -> tuple[int, dict[str, Any]]:
        """Make the table unless it is here or under way: as ``status``.

        :raises: :exc:`RefusedError`: ``NO_ODDS`` where this server cannot make it (the
            reason says why), ``BUSY`` while another table is being made.
        """
        try:
            return self.status(preset, seats)
        except RefusedError:
            pass
        rules = _table(preset, seats)
        reason = why_not(rules, seats)
        if reason is not None:
            raise RefusedError(Code.NO_ODDS, f"odds: this server does not make {seats} "
                               f"seats of {rules.name}: {WHY[reason]}")
        if not take_lock(self.directory, rules.name, seats):
            raise RefusedError(Code.BUSY, "odds: another table is being made; try again in "
                               "a few seconds")
        try:
            child = subprocess.Popen(
                [sys.executable, "-m", "gnav.odds.ondemand", rules.name, str(seats),
                 str(self.directory)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        except OSError:
            release(self.directory, rules.name, seats, [os.getpid()])
            raise

        def reap() -> None:  # no zombie, and no lock left by a maker that died
            child.wait()
            release(self.directory, rules.name, seats, [child.pid, os.getpid()])

        threading.Thread(target=reap, daemon=True, name="odds-maker").start()
        return self.status(rules.name, seats)

    def index(self) -> dict[str, Any]:
        return {"presets": [{**p, "made": self.made_sizes(game_name(Rules.of(p["preset"])))}
                            for p in offered()]}


@cache
def offered() -> list[dict[str, Any]]:
    """Every game the page offers: its titles, the sizes that ship, every size offered
    and, if this server cannot make the others, why not ("numpy"). Asked once a process:
    finding which sizes a trained policy covers reads the policies (about 2 s)."""
    ships = shipped()
    presets = []
    for p in PRESETS.values():
        rules = Rules.of(p.name)
        top = min(rules.max_seats, LARGEST)
        sizes = range(rules.min_seats, top + 1)
        reasons = {n: why_not(rules, n) for n in sizes}
        shown = [n for n in sizes if n in ships.get(p.name, []) or reasons[n] != "slow"]
        if not shown:
            continue
        cannot = {reasons[n] for n in shown if n not in ships.get(p.name, [])}
        presets.append({"preset": p.name,
                        "titles": {lang: title(p, lang) for lang in TEXT_LANGS},
                        "sizes": ships.get(p.name, []), "all": shown,
                        "make": "numpy" if "numpy" in cannot else None})
    return presets


# Why a table is not made here, as the API says it (the page has its own sentences).
WHY = {
    "size": "not a size of this game the odds cover",
    "slow": "no solved strategy and no trained policy ships for it, and the reference "
            "engine would take minutes (gnav odds makes it)",
    "numpy": "it needs numpy and numba (pip install 'gnav[analysis]')",
}
