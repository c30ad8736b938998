"""``POST /api/analyse``: the analysis of a finished match for the replay viewer's
Analysis button (``gnav.odds.analyse``, the figures of ``gnav analyse``).

Its cost is bounded: exact figures are lookups; where the coach samples, each decision
takes ``SAMPLES`` deals, and a record with more than ``MOST_SAMPLED`` such decisions is
refused in one line (``gnav analyse RECORD`` does any match). The last few answers are
kept by the record's digest, so pressing the button again costs nothing.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from threading import Lock
from typing import Any

from gnav.errors import Code, GnavError, MalformedError
from gnav.odds.analyse import TooCostly, analyse
from gnav.record import loads
from gnav.web.steps import MAX_BYTES, ReplayError

SAMPLES = 32  # deals per sampled decision (gnav analyse takes 128 by default)
MOST_SAMPLED = 400  # sampled decisions one request may cost (a few seconds of a core)
KEPT = 8

_kept: OrderedDict[str, dict[str, Any]] = OrderedDict()
_lock = Lock()


def analysis_json(text: str, most: int = MOST_SAMPLED) -> dict[str, Any]:
    """The analysis of the record ``text``, as JSON (``most``: the sampled decisions it
    may cost).

    :raises: :exc:`ReplayError` saying in one line what is wrong (a bad record, one the
        rules contradict, or one too costly to analyse here).
    """
    if len(text) > MAX_BYTES:
        raise ReplayError(Code.TOO_BIG, f"record: over {MAX_BYTES} characters")
    digest = hashlib.sha256(f"{most}:{text}".encode("utf-8", "surrogatepass")).hexdigest()
    with _lock:
        if digest in _kept:
            _kept.move_to_end(digest)
            return _kept[digest]
    try:
        record = loads(text)
        result = analyse(record, samples=SAMPLES, most=most)
    except TooCostly as e:
        raise ReplayError(Code.TOO_BIG, str(e)) from None
    except MalformedError as e:
        raise ReplayError(Code.BAD_RECORD, f"record: {e}") from None
    except GnavError as e:  # InconsistentError: the rules contradict the record
        raise ReplayError(Code.INCONSISTENT, f"record: {e}") from None
    out = {**result.as_json(), "samples": SAMPLES}
    with _lock:
        _kept[digest] = out
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return out
