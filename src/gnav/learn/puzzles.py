"""Puzzles cut from finished matches: decisions where the expert's choice is clearly
better than the other, shown from the deciding seat's view alone.

For every decision with a choice, the coach's figures (``gnav.odds.coach.advise``, the
public function that computes a decision's figures from a view) give the expected lives
of standing and of swapping; a decision is a puzzle when

- the expert's choice is the better one by its figures, and
- the seat holds no matador (its holder plainly stands), and
- the margin between the two (the paired gain, in lives this round) is at least
  ``MIN_MARGIN``, and at least ``ERROR_TIMES`` times the figures' own error (the half
  width of the gain's 95% interval; 0 for an exact figure).

A puzzle holds the deciding seat's view (``view_to_json``: its own piece, the public log,
its own private overlays, nothing else), the choices' figures with their intervals, the
answer, the margin and error, the explanation as sentence ids with their numbers, and the
view's events told in every language. ``puzzle_at`` reads a match state only through
``seat_view``: a test moves hidden pieces and finds every puzzle unchanged.

A puzzle asks for the better choice in the round: its figures are in lives and its
answer the round's expert's (``expert-round``, as the coach sets it beside them); the
coach's chance to win the match is left out of puzzles.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gnav.match import MatchState
from gnav.record import Record, replay
from gnav.texts.catalogue import say
from gnav.texts.narrate import Narrator
from gnav.views import SeatView, seat_view, view_to_json
from gnav.vocab import TEXT_LANGS, Action

FORMAT = "gnav-puzzles/1"
MIN_MARGIN = 0.1  # lives this round: a clear difference, not a fine point
ERROR_TIMES = 3.0  # the margin is at least this many times the gain's 95% half width
DATA = Path(__file__).resolve().parent / "data"
SHIPPED = DATA / "puzzles.json.gz"  # tools/ship_puzzles.py makes it
RECORDS = DATA / "puzzle-records.json.gz"  # the bot matches it was cut from

Advise = Callable[[SeatView], Any]


@dataclass(frozen=True)
class Cut:
    """What cutting found: the puzzles, and how many decisions with a choice were read."""

    puzzles: list[dict[str, Any]]
    decisions: int


def _advise() -> Advise:
    from gnav.odds.coach import advise

    return advise


def puzzle_of(view: SeatView, advice: Any) -> dict[str, Any] | None:
    """The puzzle ``view``'s decision makes under the coach's ``advice``, or None where
    the expert's choice is not clearly better."""
    if advice is None or advice.expert != advice.best:
        return None
    # A matador's holder stands: the lesson teaches it, and a puzzle of it teaches nothing.
    if view.piece is not None and view.rules.piece_named(view.piece).power is not None:
        return None
    gain = advice.swap_gain
    margin = abs(gain.value)
    error = 0.0 if gain.low is None or gain.high is None else (gain.high - gain.low) / 2
    if margin < MIN_MARGIN or margin < ERROR_TIMES * error:
        return None
    answer = advice.expert
    data = view_to_json(view)
    key = hashlib.sha256(json.dumps([view.rules.to_spec(), data], sort_keys=True,
                                    ensure_ascii=False).encode()).hexdigest()[:16]
    return {
        "id": key,
        "rules": view.rules.to_spec(),
        "preset": view.rules.name,
        "seats": len(view.order),
        "view": data,
        "figures": {
            "stand": {"pay": advice.pay_stand.as_json(), "lives": advice.lives_stand.as_json()},
            "swap": {"pay": advice.pay_swap.as_json(), "lives": advice.lives_swap.as_json()},
            "gain": gain.as_json(),
        },
        "source": advice.source,
        "samples": advice.samples,
        "answer": str(answer),
        "margin": round(margin, 6),
        "error": round(error, 6),
        "explain": _explain(advice, answer, margin),
        "told": _told(view),
    }


def _explain(advice: Any, answer: Action, margin: float) -> list[dict[str, Any]]:
    """The answer's explanation from the figures: sentence ids and their numbers (the
    page formats them in its language)."""
    other = Action.STAND if answer == Action.SWAP else Action.SWAP
    return [
        {"key": "puzzle.why.pay", "params": {"stand": round(advice.pay_stand.value, 4),
                                             "swap": round(advice.pay_swap.value, 4)}},
        {"key": "puzzle.why.lives", "params": {"stand": round(advice.lives_stand.value, 4),
                                               "swap": round(advice.lives_swap.value, 4)}},
        {"key": f"puzzle.why.{answer}", "params": {"margin": round(margin, 4),
                                                   "other": str(other)}},
        {"key": f"puzzle.source.{advice.source}", "params": {"n": advice.samples}},
    ]


def _told(view: SeatView) -> dict[str, list[str]]:
    """The round so far as the deciding seat saw it, in every language."""
    out = {}
    for lang in TEXT_LANGS:
        names = tuple(say("word.reader", lang).capitalize() if s == view.seat else n
                      for s, n in enumerate(view.names))
        narrator = Narrator(view.rules, names, me=view.seat, text=lang)
        out[str(lang)] = [line for e in view.events if (line := narrator.line(e)) is not None]
    return out


def puzzle_at(match: MatchState, seat: int, advise: Advise | None = None) -> dict[str, Any] | None:
    """The puzzle of ``seat``'s decision in ``match`` (read through ``seat_view`` alone),
    or None."""
    view = seat_view(match, seat)
    if len(view.legal) < 2:
        return None
    return puzzle_of(view, (advise or _advise())(view))


def cut(records: Iterable[tuple[str, Record]], *, advise: Advise | None = None,
        most_sampled: int | None = None) -> Cut:
    """Every puzzle of ``records`` (name, record), each decision of each round read from
    the deciding seat's view; the same view twice makes one puzzle. ``most_sampled``: a
    match with more decisions whose figures are sampled (not looked up) is left out,
    which bounds the CPU a match costs (the server's growth of its puzzles)."""
    adviser = advise or _advise()
    found: dict[str, dict[str, Any]] = {}
    decisions = 0
    for name, record in records:
        rep = replay(record)
        if most_sampled is not None and _sampled(rep.states, record) > most_sampled:
            continue
        for k, seen in enumerate(rep.states, 1):
            for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False):
                if len(seat_view(before, seat).legal) < 2:
                    continue
                decisions += 1
                puzzle = puzzle_at(before, seat, adviser)
                if puzzle is not None and puzzle["id"] not in found:
                    puzzle["from"] = {"record": name, "round": k,
                                      "seat": record.seats[seat]}
                    found[puzzle["id"]] = puzzle
    return Cut(list(found.values()), decisions)


def _sampled(states: list[list[MatchState]], record: Record) -> int:
    """How many decisions of a replayed match the coach would sample."""
    from gnav.odds.coach import looks_up

    return sum(1 for k, seen in enumerate(states, 1)
               for before, (seat, _) in zip(seen, record.rounds[k - 1].actions, strict=False)
               if len((view := seat_view(before, seat)).legal) > 1 and not looks_up(view))


def grow(path: Path, name: str, record: Record, *, most_sampled: int = 200) -> int:
    """Cut ``record`` and add its puzzles that ``path`` (JSON lines, one puzzle a line)
    does not hold yet, one line each (an append, so processes sharing the file do not
    mix their lines). How many were added."""
    have = {p["id"] for p in read_grown(path)}
    new = [p for p in cut([(name, record)], most_sampled=most_sampled).puzzles
           if p["id"] not in have]
    if new:
        with path.open("a", encoding="utf-8") as f:
            for p in new:
                f.write(json.dumps(p, ensure_ascii=False, separators=(",", ":")) + "\n")
    return len(new)


def read_grown(path: Path) -> list[dict[str, Any]]:
    """The puzzles of a grown file, each once, in the order added; a line that is not a
    puzzle (cut short, say) is passed over."""
    out: dict[str, dict[str, Any]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    for line in text.splitlines():
        try:
            p = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(p, dict) and isinstance(p.get("id"), str) and "view" in p \
                and p.get("answer") in ("stand", "swap"):
            out.setdefault(p["id"], p)
    return list(out.values())


def dump(result: Cut) -> dict[str, Any]:
    """A puzzles file: the puzzles and how they were cut."""
    margins = sorted(p["margin"] for p in result.puzzles)
    return {"format": FORMAT, "min_margin": MIN_MARGIN, "error_times": ERROR_TIMES,
            "decisions": result.decisions, "count": len(result.puzzles),
            "median_margin": margins[len(margins) // 2] if margins else None,
            "puzzles": result.puzzles}


def load(path: Path = SHIPPED) -> dict[str, Any]:
    """A puzzles file (gzipped where its name ends in .gz)."""
    raw = path.read_bytes()
    data: dict[str, Any] = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a puzzles file of format {FORMAT}")
    return data
