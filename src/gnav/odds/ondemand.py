"""An atlas made on demand for a table size that ships none (the ``/odds`` page asks for
it), in a process of its own, into a cache folder:

    python -m gnav.odds.ondemand PRESET SEATS DIR

writes ``DIR/PRESET-SEATS.json.gz`` (the shipped atlases' format, ``gnav.odds.docs``)
and, while it works, ``DIR/making.json``: which table, how far (``done`` of
``total``) and its process. That file is also the lock: one table is made at a time on
a machine, whichever server process asked (they share the folder). A lock nobody has
written for ``STALE`` seconds is a dead maker's and is taken over.

Bounded: the batch engine plays ``ROUNDS`` rounds (a tenth of what ``gnav odds --all``
plays: 7.1 s of CPU at 41 seats and 1.6 s at 5, measured on the shared machine), the exact
tables are cheap below 5 seats, the process runs at a lower priority and stops at
``CPU_SECONDS`` of CPU. Tables only the reference engine could make (no solved strategy
and no trained policy: minutes of CPU) are not made here, and neither is anything where
numpy and numba are missing; ``why_not`` says so.
"""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gnav.errors import GnavError
from gnav.odds.source import atlas, engine
from gnav.presets import get_preset
from gnav.rules import Rules

ROUNDS = 50_000  # intervals about a point wide at 10 seats
CPU_SECONDS = 300  # a maker that runs longer is stopped by the system
STALE = 60.0  # seconds without news after which a lock is a dead maker's
LOCK = "making.json"
LARGEST = 41  # the page offers 2 to 41 seats (gnav's own range)


def atlas_path(directory: Path, preset: str, seats: int) -> Path:
    return directory / f"{preset}-{seats}.json.gz"


def why_not(rules: Rules, seats: int) -> str | None:
    """None if the atlas of ``seats`` seats of ``rules`` can be made here; else a code
    for why not: "size" (not a size of the game, or above ``LARGEST``), "slow" (only
    the reference engine could: minutes of CPU) or "numpy" (numpy and numba, the
    ``[analysis]`` extra, are not installed)."""
    if not rules.min_seats <= seats <= min(rules.max_seats, LARGEST):
        return "size"
    how = engine(rules, seats, "expert")
    if how == "reference":
        # Without numba a trained policy's table falls back to the reference engine too.
        return "numpy" if not _installed("numpy", "numba") else "slow"
    return None if _installed("numpy", *(("numba",) if how == "batch" else ())) else "numpy"


def _installed(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def read_lock(directory: Path) -> dict[str, Any] | None:
    """What is being made now (the lock's contents), or None; a stale lock is None."""
    path = directory / LOCK
    try:
        age = time.time() - path.stat().st_mtime
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if age > STALE or not isinstance(data, dict):
        return None
    return data


def take_lock(directory: Path, preset: str, seats: int) -> bool:
    """Take the lock for (preset, seats): False if another table holds it."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / LOCK
    if path.exists() and read_lock(directory) is None:
        with contextlib.suppress(OSError):
            path.unlink()  # a dead maker's
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(_state(preset, seats, 0, 1), f)
    return True


def _state(preset: str, seats: int, done: int, total: int) -> dict[str, Any]:
    return {"preset": preset, "seats": seats, "done": done, "total": total,
            "pid": os.getpid()}


def _write_state(directory: Path, state: dict[str, Any]) -> None:
    tmp = directory / f".{LOCK}.{os.getpid()}"
    tmp.write_text(json.dumps(state), encoding="utf-8")
    os.replace(tmp, directory / LOCK)


def make(preset: str, seats: int, directory: Path) -> Path:
    """Make the atlas (the caller holds the lock), reporting progress in the lock,
    and let the lock go. Returns the atlas's path."""
    rules = Rules.of(preset)
    last = 0.0
    done_event = threading.Event()

    def heartbeat() -> None:
        # A phase with no progress to report (numba compiling the engine on a machine's
        # first run, a minute or more under load) must not make the lock look stale.
        while not done_event.wait(STALE / 6):
            with contextlib.suppress(OSError):
                os.utime(directory / LOCK)

    threading.Thread(target=heartbeat, daemon=True).start()

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= 0.25 or done >= total:
            last = now
            _write_state(directory, _state(preset, seats, done, total))

    try:
        made = atlas(rules, seats, "expert", rounds=ROUNDS, seed=1, progress=progress)
        raw = json.dumps(made.as_json(), separators=(",", ":")).encode()
        out = atlas_path(directory, preset, seats)
        tmp = out.with_name(f".{out.name}.{os.getpid()}")
        tmp.write_bytes(gzip.compress(raw, mtime=0))
        os.replace(tmp, out)  # whole or not at all: a reader never sees half of it
        return out
    finally:
        done_event.set()
        with contextlib.suppress(OSError):
            (directory / LOCK).unlink()


def release(directory: Path, preset: str, seats: int, pids: Sequence[int]) -> None:
    """Let go of the lock of (preset, seats) if one of ``pids`` holds it: a maker that
    died without letting go (killed at its CPU ceiling, say) leaves no lock behind."""
    lock = read_lock(directory)
    if lock and (lock.get("preset"), lock.get("seats")) == (preset, seats) \
            and lock.get("pid") in pids:
        with contextlib.suppress(OSError):
            (directory / LOCK).unlink()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gnav.odds.ondemand PRESET SEATS DIR`` (the server starts it, holding
    the lock for it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3 or not args[1].isdigit():
        print("usage: python -m gnav.odds.ondemand PRESET SEATS DIR", file=sys.stderr)
        return 2
    directory = Path(args[2])
    try:
        preset, seats = get_preset(args[0]).name, int(args[1])
        reason = why_not(Rules.of(preset), seats)
        if reason is not None:
            raise GnavError(f"odds: {preset} at {seats} seats is not made here ({reason})")
        make(preset, seats, directory)
    except GnavError as e:
        with contextlib.suppress(OSError):
            (directory / LOCK).unlink()
        print(e, file=sys.stderr)
        return 1
    return 0


def bounded() -> None:
    """This process, made a background one: a lower priority (the tables of the server
    that asked come first) and a ceiling on its CPU. Only the maker's own process calls
    it (never ``main`` itself: a test calling ``main`` would be bounded too)."""
    with contextlib.suppress(OSError, ValueError):
        os.nice(10)
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


if __name__ == "__main__":
    bounded()
    sys.exit(main())
