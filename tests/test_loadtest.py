"""``tools/loadtest.py`` (the load client) against a real ``gnav serve`` process: a small
run finishes every match without errors and reports its figures; non-loopback targets
and bad sizes are refused before anything is sent."""

from __future__ import annotations

import json
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gnav.errors import Code, GnavError
from loadclient.run import Options, loopback
from loadclient.stats import percentile

URL = re.compile(r"open (http://\S+?)/?\s")
LOADTEST = Path(__file__).resolve().parents[1] / "tools" / "loadtest.py"


@contextmanager
def serving(tmp_path: Path, creates_per_minute: int) -> Iterator[str]:
    """``gnav serve`` on a free port over a temporary database; its base URL."""
    with (tmp_path / "server.log").open("ab") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gnav.cli", "serve", "--port", "0", "--db",
             str(tmp_path / "gnav.sqlite3"), "--creates-per-minute", str(creates_per_minute)],
            stdout=subprocess.PIPE, stderr=err, cwd=tmp_path, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 20)
        assert ready, "the server printed no URL"
        match = URL.search(proc.stdout.readline())
        assert match, (tmp_path / "server.log").read_text()[-2000:]
        yield match.group(1)
    finally:
        proc.kill()
        proc.wait(timeout=10)


def loadtest(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LOADTEST), "--url", url, *args],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)


def test_a_small_load_test_plays_every_match(tmp_path: Path) -> None:
    with serving(tmp_path, 1000) as url:
        before = time.monotonic()
        done = loadtest(tmp_path, url, "--tables", "4", "--seats", "3", "--lives", "2",
                        "--seed", "5", "--json")
        after = time.monotonic()
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    # Play on the machine's monotonic clock, inside the run, after its set-up and as
    # long as play_s: where tools/load_cpu.py cuts the servers' CPU samples.
    start, end = report["play_at"]
    assert before + report["setup_s"] <= start <= end <= after
    assert end - start == pytest.approx(report["play_s"], abs=0.05)
    assert done.stderr == ""  # no progress bar off a terminal
    assert report["tables"] == 4 and report["seats"] == 3 and report["humans"] == 3
    assert report["tables_ready"] == 4 and report["sockets"] == 12
    assert report["errors"] == {}
    assert report["matches_finished"] == report["matches_expected"] == 4
    assert report["actions"] > 0
    assert report["actions_acknowledged"] == report["actions"]
    assert report["actions_per_s"] > 0 and report["messages"] >= report["actions"]
    lat = report["latency_ms"]
    assert lat["count"] == report["actions"]
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"] < 10_000
    # The client's own loop was watched all through play (a lag of 0 is possible).
    lag = report["client_lag_ms"]
    assert 0 <= lag["p50"] <= lag["p99"] <= lag["max"] < 10_000


def test_server_bots_fill_the_seats_without_clients(tmp_path: Path) -> None:
    with serving(tmp_path, 1000) as url:
        done = loadtest(tmp_path, url, "--tables", "3", "--seats", "4", "--humans", "1",
                        "--lives", "2", "--bot", "threshold", "--matches", "2", "--think",
                        "0.002")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6/6 matches finished" in done.stdout
    assert "errors: none" in done.stdout


def test_tables_of_server_bots_alone_finish_on_the_servers_timer(tmp_path: Path) -> None:
    with serving(tmp_path, 1000) as url:
        done = loadtest(tmp_path, url, "--tables", "2", "--seats", "4", "--humans", "0",
                        "--lives", "2", "--matches", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4/4 matches finished" in done.stdout


def test_the_creation_limit_is_named_when_the_server_keeps_it(tmp_path: Path) -> None:
    with serving(tmp_path, 2) as url:
        done = loadtest(tmp_path, url, "--tables", "4", "--seats", "3")
    assert done.returncode == 2
    assert "--creates-per-minute" in done.stderr


def test_only_loopback_servers_may_be_targeted() -> None:
    assert loopback("http://127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert loopback("http://localhost:9/") == ("localhost", 9)
    for url in ("http://10.1.2.3:8000", "http://192.168.0.1", "https://127.0.0.1:8000",
                "ftp://127.0.0.1", "http://127.0.0.1:8000/api"):
        with pytest.raises(GnavError):
            loopback(url)


@pytest.mark.parametrize("bad", [{"tables": 0}, {"tables": 5000}, {"seats": 1},
                                 {"humans": 7}, {"concurrency": 0}, {"duration": 0.0},
                                 {"duration": 10**6}, {"matches": 0}, {"bot": "counter"},
                                 {"think": -1.0}, {"think": 100.0}, {"timeout": 0.0}])
def test_sizes_are_bounded(bad: dict[str, object]) -> None:
    with pytest.raises(GnavError):
        Options(**bad).check()  # type: ignore[arg-type]


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile([3.0], 95) == 3.0
    assert percentile([], 50) == 0.0


def test_the_fast_encoder_writes_what_the_standard_library_writes() -> None:
    """The server encodes messages with orjson (``wire.dumps``): each text must be
    exactly the standard library's compact, UTF-8 JSON of the message, for every kind
    of message of a match (names beyond ASCII, floats, nulls), so that a client (and
    the load client's matching on a message's head) sees one format; what orjson
    refuses (a lone surrogate) the standard library writes."""
    import random

    from gnav.names import parse_name
    from gnav.server.wire import dumps, encode, error
    from gnav.table import Table, TableConfig, render

    def plain(message: dict[str, Any]) -> str:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)

    config = TableConfig.from_json({"seats": 4, "turn_timer": 30, "options": {"lives": 2}})
    table, host, _ = Table.create("abcdefgh", config, now=0.0)
    tokens = [table.join(parse_name(f"Pé{i} "), 0.0)[1] for i in range(3)]  # 4th: a bot
    results = [table.start(host, 0.0)]
    rng = random.Random(3)
    now = 0.0
    while table.phase == "playing" and table.match is not None:
        seat = table.match.to_act
        assert seat is not None and seat < 3
        now += 0.37
        results.append(table.act(seat, tokens[seat], table.version,
                                 rng.choice(table.match.legal_actions()), now))
    results.append(table.disconnect(1, now + 1.0))
    out = [o for r in results for o in render(r.notices)]
    assert {o.message["type"] for o in out} == {"update", "snapshot", "table"}
    assert encode(out) == [(o.to, plain(o.message)) for o in out]
    odd = error(Code.BAD_FIELD, "name: \ud800 is not a name")
    odd["reason"] = "a lone \ud800 surrogate"
    assert dumps(odd) == plain(odd)


def test_updates_built_for_all_seats_at_once_are_each_seats_own() -> None:
    """The renderer converts each public event once for every seat's update; each seat
    must still get exactly what building its updates alone gives (its own dealt piece
    above all)."""
    import random

    from gnav.names import parse_name
    from gnav.server.wire import dumps
    from gnav.table import Table, TableConfig, render

    config = TableConfig.from_json({"seats": 5, "turn_timer": None, "options": {"lives": 2}})
    table, host, _ = Table.create("abcdefgh", config, now=0.0)
    tokens = [table.join(parse_name(f"P{i}"), 0.0)[1] for i in range(5)]
    table.start(host, 0.0)
    rng = random.Random(7)
    checked = 0
    while table.phase == "playing" and table.match is not None:
        seat = table.match.to_act
        assert seat is not None
        before = table.version
        result = table.act(seat, tokens[seat], before, rng.choice(table.match.legal_actions()),
                           1.0)
        steps = [s for s in table.steps if s.version > before]
        everyone = render(result.notices)
        for i in [*range(5), None]:
            got = [dumps(o.message) for o in everyone if i in o.to]
            assert got == [dumps(o.message) for o in render(result.notices, {i})]
            assert got == [dumps(m) for m in plain_updates(table, i, steps)]
            checked += len(got)
    assert checked > 100


def plain_updates(table: Any, seat: int | None, steps: list[Any]) -> list[dict[str, Any]]:
    """A seat's updates built the plain way: each from the seat's own view alone."""
    from gnav.events import event_to_json
    from gnav.views import seat_view, spectator_view, view_to_json

    out = []
    for step in steps:
        view = spectator_view(step.match) if seat is None else seat_view(step.match, seat)
        events = view.events[step.start:] + list(step.extra)
        out.append({"type": "update", "version": step.version,
                    "events": [event_to_json(e, step.match.names) for e in events],
                    "view": view_to_json(view, since=len(view.events)),
                    "table": table.info(1.0)})
    return out


def test_tables_spread_over_two_processes_survive_one_killed(
        tmp_path: Path, redis_url: str) -> None:
    """Each table's seats on both processes (sharing Redis); one process SIGKILLed in
    play: its seats reconnect to the other, which takes its tables over, and every
    match finishes with no error; the reconnects and the longest pause are reported."""
    from test_server_process import Server

    servers = [Server(redis_url, tmp_path / f"server{i}.log", "--creates-per-minute",
                      "100000") for i in range(2)]
    try:
        proc = subprocess.Popen(
            [sys.executable, str(LOADTEST), "--url", servers[0].base,
             "--url", servers[1].base, "--tables", "6", "--seats", "4", "--lives", "3",
             "--seed", "7", "--json",
             # Paced, so that the matches are still in play when the kill comes: at once,
             # on an idle machine, all six finished before it and nobody reconnected.
             "--think", "0.05"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=tmp_path)
        deadline = time.monotonic() + 180
        while "table.started" not in (tmp_path / "server0.log").read_text():
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr
            time.sleep(0.05)
        # Every table in play (each started at one process or the other), not a guess
        # of how long that takes: killed while still in play, even on a loaded machine.
        while sum(s.log.read_text().count('"table.started"') for s in servers) < 6:
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr
            time.sleep(0.05)
        servers[0].proc.kill()
        out, err = proc.communicate(timeout=180)
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.proc.kill()
            server.proc.wait()
    assert proc.returncode == 0, out + err
    report = json.loads(out)
    assert report["urls"] == [servers[0].base, servers[1].base]
    assert report["errors"] == {}
    assert report["matches_finished"] == report["matches_expected"] == 6
    assert report["reconnects"] >= 6  # at least every seat that was on the killed one
    assert report["longest_pause_s"] > 0.5  # the takeover waits out the dead one's lease


def test_a_process_killed_during_set_up_loses_no_table(
        tmp_path: Path, redis_url: str) -> None:
    """Issue 27: a process SIGKILLed while the load client was still creating tables,
    joining and seating sockets finished 0 of 100 tables (connect_failed, http_failed,
    InvalidMessage). Killed here at the first table it makes, with one request in flight
    at a time (so that set-up has barely begun): every create, join and socket that
    failed is sent again, with its key, to the other process, every table is set up and
    finishes, and no error is reported."""
    from test_server_process import Server

    servers = [Server(redis_url, tmp_path / f"server{i}.log", "--creates-per-minute",
                      "100000") for i in range(2)]
    try:
        proc = subprocess.Popen(
            [sys.executable, str(LOADTEST), "--url", servers[0].base,
             "--url", servers[1].base, "--tables", "6", "--seats", "4", "--lives", "2",
             "--seed", "9", "--json", "--concurrency", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        deadline = time.monotonic() + 180
        while '"table.created"' not in servers[0].log.read_text():
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr
            time.sleep(0.01)
        servers[0].proc.kill()
        out, err = proc.communicate(timeout=300)
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.proc.kill()
            server.proc.wait()
    assert proc.returncode == 0, out + err
    report = json.loads(out)
    assert report["errors"] == {}
    assert report["tables_ready"] == 6
    assert report["matches_finished"] == report["matches_expected"] == 6
    assert report["retries"] >= 1  # something was sent again to the survivor
