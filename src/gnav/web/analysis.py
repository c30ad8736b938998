"""``POST /api/analyse``: the analysis of a finished match for the replay viewer's
Analysis button (``gnav.odds.analyse``, the figures of ``gnav analyse`` and of the
coach: one function, ``gnav.odds.coach.advise``, for all three).

Its cost is bounded (issue 26: a long match is analysed, never refused):

- exact figures are lookups, computed here;
- sampled ones (as many deals as the coach takes, at most ``gnav.odds.coach.MOST`` a
  decision) go, ``CHUNK`` views at a time, to one worker process of this server's own,
  so that analyses take at most one core and never hold this process's GIL;
- a match with more than ``BUDGET`` sampled decisions is analysed on a stated sample of
  its rounds (every k-th, the smallest k that fits), which the answer names.

``progress(done, total)`` is called as the sampled decisions come back (the route
streams it to the viewer). The last few answers are kept by the record's digest, so
pressing the button again costs nothing.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from threading import Lock
from typing import Any

from gnav.errors import Code, GnavError, MalformedError
from gnav.odds.analyse import TooCostly, analyse, sampled
from gnav.odds.coach import MOST, Advice, advise
from gnav.odds.verdict import PRINTED
from gnav.record import loads
from gnav.views import SeatView
from gnav.web.steps import MAX_BYTES, ReplayError

BUDGET = 200  # sampled decisions one request may cost (docs/odds.md has the CPU it takes)
CHUNK = 8  # views a task: the progress's step
KEPT = 8

Progress = Callable[[int, int], None]

_kept: OrderedDict[str, dict[str, Any]] = OrderedDict()
_lock = Lock()
_pool: ProcessPoolExecutor | None = None
_pool_lock = Lock()


def analysis_json(text: str, budget: int | None = None, progress: Progress | None = None,
                  *, most: int | None = None) -> dict[str, Any]:
    """The analysis of the record ``text``, as JSON (``budget``: the sampled decisions
    it may cost, ``BUDGET`` unless told; ``most``: refuse beyond that many instead, for
    callers that must not sample).

    :raises: :exc:`ReplayError` saying in one line what is wrong (a bad record, one the
        rules contradict, or one beyond ``most``).
    """
    if len(text) > MAX_BYTES:
        raise ReplayError(Code.TOO_BIG, f"record: over {MAX_BYTES} characters")
    budget = BUDGET if budget is None else budget
    digest = hashlib.sha256(f"{budget}:{most}:{text}".encode("utf-8", "surrogatepass")
                            ).hexdigest()
    with _lock:
        if digest in _kept:
            _kept.move_to_end(digest)
            return _kept[digest]
    try:
        record = loads(text)
        result = analyse(record, budget=budget, most=most,
                         advisor=lambda views: _advise_all(views, progress))
    except TooCostly as e:
        raise ReplayError(Code.TOO_BIG, str(e)) from None
    except BrokenProcessPool:  # the worker died (killed, out of memory): a new one next time
        _forget_worker()
        raise ReplayError(Code.INTERNAL, "analysis: the worker process stopped; ask "
                          "again") from None
    except MalformedError as e:
        raise ReplayError(Code.BAD_RECORD, f"record: {e}") from None
    except GnavError as e:  # InconsistentError: the rules contradict the record
        raise ReplayError(Code.INCONSISTENT, f"record: {e}") from None
    out = {**result.as_json(), "deals": {"precision": PRINTED, "most": MOST}}
    with _lock:
        _kept[digest] = out
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return out


def _advise_all(views: Sequence[SeatView], progress: Progress | None) -> list[Advice | None]:
    """The figures of ``views``: lookups here, sampled ones in the worker process."""
    out: list[Advice | None] = [None] * len(views)
    costly = [i for i, v in enumerate(views) if sampled(v)]
    for i, v in enumerate(views):
        if not sampled(v):
            out[i] = advise(v)
    total = len(costly)
    if progress is not None:
        progress(0, total)
    if not costly:
        return out
    chunks = [costly[i:i + CHUNK] for i in range(0, total, CHUNK)]
    pool = _worker()
    futures: list[Future[list[Advice | None]]] = [
        pool.submit(_advise_many, [views[i] for i in chunk]) for chunk in chunks]
    done = 0
    for chunk, future in zip(chunks, futures, strict=True):
        for i, advice in zip(chunk, future.result(), strict=True):
            out[i] = advice
        done += len(chunk)
        if progress is not None:
            progress(done, total)
    return out


def _advise_many(views: list[SeatView]) -> list[Advice | None]:
    return [advise(v) for v in views]


def _worker() -> ProcessPoolExecutor:
    """The one process this server's analyses sample in, started on first need."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _forget_worker() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
