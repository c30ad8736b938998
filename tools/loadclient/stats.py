"""What a load test counts: actions and their latencies, messages, matches, errors; and
the report made of them (a dict for ``--json``, lines for people)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from loadclient.failures import Error


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile of an ascending list (0.0 if empty)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Stats:
    """Counters the clients bump (one event loop: no locks)."""

    latencies: list[float] = field(default_factory=list)  # seconds, act -> its update
    errors: Counter[Error] = field(default_factory=Counter)
    acts: int = 0  # acts sent
    messages: int = 0  # messages received over every socket
    matches: int = 0  # matches seen to end
    tables_ready: int = 0  # tables created, joined and connected
    sockets: int = 0  # sockets that said hello and got their snapshot
    reconnects: int = 0  # sockets opened again after a loss, as the browser does
    retries: int = 0  # requests (create, join, start) and setup sockets sent again
    longest_pause: float = 0.0  # the longest silence any table saw in play, in seconds
    # How late this client's own event loop woke for a 10 ms timer in play, in seconds:
    # every latency it measures includes its own delays, so the report shows them beside.
    lags: list[float] = field(default_factory=list)
    # Play is over once ``acting`` is False: no seat sends again, and the acts still in
    # flight are waited for before any socket closes (``in_flight``; those still
    # unanswered when the wait gives up are ``unanswered``). Closing thousands of sockets
    # sets the servers to work telling every table who left: an act answered behind that
    # once stood in the figures for the service in play (1.2 s where play's own were
    # under 0.13 s, measured at 1,000 x 6).
    acting: bool = True
    in_flight: int = 0
    unanswered: int = 0

    def error(self, what: Error) -> None:
        self.errors[what] += 1

    def report(self, *, config: dict[str, Any], setup_s: float, play_s: float,
               matches_expected: int | None,
               play_at: tuple[float, float] | None = None) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        lags = sorted(self.lags)
        errors: Counter[str] = Counter()  # by the string each error always had
        for what, n in self.errors.items():
            errors[str(what)] += n
        acked = len(ordered)
        play = max(play_s, 1e-9)

        def ms(seconds: float) -> float:
            return round(seconds * 1000.0, 2)

        return {
            **config,
            "sockets": self.sockets,
            "tables_ready": self.tables_ready,
            "setup_s": round(setup_s, 3),
            "play_s": round(play_s, 3),
            # When play began and ended on the machine's monotonic clock (Linux: one
            # clock for every process): where another process's samples of the
            # servers' CPU cut play out (``tools/load_cpu.py``).
            "play_at": None if play_at is None else [round(t, 4) for t in play_at],
            "actions": self.acts,
            "actions_acknowledged": acked,
            "actions_per_s": round(acked / play, 1),
            "unanswered_at_end": self.unanswered,
            "messages": self.messages,
            "messages_per_s": round(self.messages / play, 1),
            "matches_finished": self.matches,
            "matches_expected": matches_expected,
            "errors": dict(sorted(errors.items())),
            "reconnects": self.reconnects,
            "retries": self.retries,
            "longest_pause_s": round(self.longest_pause, 3),
            "latency_ms": {
                "count": acked,
                "mean": ms(sum(ordered) / acked) if acked else 0.0,
                "p50": ms(percentile(ordered, 50)),
                "p95": ms(percentile(ordered, 95)),
                "p99": ms(percentile(ordered, 99)),
                "max": ms(ordered[-1]) if ordered else 0.0,
            },
            "client_lag_ms": {
                "p50": ms(percentile(lags, 50)),
                "p99": ms(percentile(lags, 99)),
                "max": ms(lags[-1]) if lags else 0.0,
            },
        }


def format_report(r: dict[str, Any]) -> list[str]:
    lat = r["latency_ms"]
    expected = r["matches_expected"]
    matches = f"{r['matches_finished']}" + (f"/{expected}" if expected is not None else "")
    errors = ", ".join(f"{code} {n}" for code, n in r["errors"].items()) or "none"
    return [
        f"load test: {r['tables']} tables x {r['seats']} seats ({r['humans']} socket "
        f"clients each, {r['bot']} bots), preset {r['preset']}"
        + (f", lives {r['lives']}" if r["lives"] is not None else "")
        + (f", thinking {r['think']:g} s" if r.get("think") else ""),
        f"setup: {r['setup_s']:.1f} s, {r['tables_ready']} tables ready, "
        f"{r['sockets']} sockets",
        f"play:  {r['play_s']:.1f} s, {r['actions_acknowledged']} actions "
        f"({r['actions_per_s']:,.1f}/s), {r['messages']} messages "
        f"({r['messages_per_s']:,.1f}/s), {matches} matches finished",
        f"latency (ms, act to its update): p50 {lat['p50']:.1f}  p95 {lat['p95']:.1f}  "
        f"p99 {lat['p99']:.1f}  max {lat['max']:.1f}  mean {lat['mean']:.1f}  "
        f"(n={lat['count']})",
        f"this client's own loop, late for a 10 ms timer (ms): p50 "
        f"{r['client_lag_ms']['p50']:.1f}  p99 {r['client_lag_ms']['p99']:.1f}  max "
        f"{r['client_lag_ms']['max']:.1f}",
        f"errors: {errors}"
        + (f"; {r['unanswered_at_end']} acts unanswered when play ended"
           if r.get("unanswered_at_end") else "")
        + f"; {r['reconnects']} reconnects, {r.get('retries', 0)} retries, the longest "
          f"pause a table saw "
          f"{r['longest_pause_s']:.2f} s",
    ]
