"""Kill under load: two ``gnav serve`` processes sharing one redis-server (this script's
own, append-only with an fsync at every write), ``--tables`` tables of ``--seats`` seats
played by ``tools/loadtest.py``'s clients with each table's seats spread over both, one
match a table, and the first process SIGKILLed ``--kill-after`` seconds into set-up
(``--kill setup``: tables being created, joined and their sockets seated; the clients
send each request again, with its key, to the other process), as the starts go out
(``--kill start``: at the ``--kill-after``-th start the first process logs; the default
``--kill-after`` is then 1), or into play (``--kill play``, the default). ``--redis-restart-after
S`` also stops redis-server S seconds into play and starts it again on the same data
``--redis-down`` seconds later. The survivor takes the tables over from their journals;
the clients reconnect as the browser does. Then every table's record is read from the
survivor and checked: it verifies (``gnav verify``'s checks) and holds every decision
any client was told of.

    nice -n 10 python tools/kill_under_load.py --tables 300 --seats 6 --kill-after 5
    nice -n 10 python tools/kill_under_load.py --tables 100 --kill setup --kill-after 1.5
    nice -n 10 python tools/kill_under_load.py --tables 100 --kill none \\
        --redis-restart-after 3

Prints one JSON report: the load test's own (actions, latency, errors, retries,
reconnects, the longest pause a table saw), when the kill came, how many tables the
killed process held, when Redis restarted, and the records checked, with any that
failed. Exit 0 only if there were no errors, every table was set up, every match
finished and every record passed. Ports are free ones of the loopback address;
everything started here is stopped here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from gnav.verify import verify_text
from load_cpu import stop_servers
from loadclient.client import SeatClient
from loadclient.run import LoadTest, Options, ok

URL = re.compile(r"open (http://\S+?)/?\s")
Decision = tuple[str, str]  # (seat's name, "stand" or "swap")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_redis(folder: Path, port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """This script's redis-server in ``folder`` (on ``port``: again, on the same data)."""
    command = shutil.which("redis-server")
    if command is None:
        raise SystemExit("redis-server is not installed (Debian: apt-get install redis-server)")
    port = free_port() if port is None else port
    proc = subprocess.Popen(
        [command, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    end = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, url
        except OSError:
            if time.monotonic() > end or proc.poll() is not None:
                raise SystemExit("redis-server did not start") from None
            time.sleep(0.05)


def start_server(store: str, folder: Path, n: int) -> tuple[subprocess.Popen[str], str]:
    log = (folder / f"server{n}.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gnav.cli", "serve", "--port", "0", "--store", store,
         "--creates-per-minute", "1000000", "--tables-per-client", "1000000",
         "--sockets-per-client", "1000000", "--costly-per-minute", "1000000"],
        stdout=subprocess.PIPE, stderr=log, cwd=folder, text=True)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    match = URL.search(proc.stdout.readline()) if ready else None
    if match is None:
        raise SystemExit(f"server {n} did not start: see {folder}")
    return proc, match.group(1)


class Told:
    """Every decision any client was told of, by table and version, and the version of
    each table's first deal (where the record's decisions start). Wraps the clients'
    ``take``: a full parse of each message, on the load generator's own core."""

    def __init__(self) -> None:
        self.decisions: dict[str, dict[int, Decision]] = {}
        self.first_deal: dict[str, int] = {}
        self.conflicts: list[str] = []

    def install(self) -> Callable[[], None]:
        take = SeatClient.take
        told = self

        def recording(client: SeatClient, text: str) -> str | None:
            told.saw(client.urls[0].rsplit("/", 1)[1], text)
            return take(client, text)

        SeatClient.take = recording  # type: ignore[method-assign,assignment]

        def undo() -> None:
            SeatClient.take = take  # type: ignore[method-assign]

        return undo

    def saw(self, table: str, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict) or not isinstance(message.get("version"), int):
            return
        version = message["version"]
        view = message.get("view")
        if isinstance(view, dict) and view.get("round") == 1:
            self.first_deal[table] = min(self.first_deal.get(table, version), version)
        if message.get("type") != "update":
            return
        seen = self.decisions.setdefault(table, {})
        for e in message.get("events", []):
            if e.get("type") in ("stand", "ask"):
                decision = (str(e["seat"]), "stand" if e["type"] == "stand" else "swap")
                if seen.setdefault(version, decision) != decision:
                    self.conflicts.append(f"{table}: two decisions told at {version}")


def record_decisions(record: dict[str, Any], first_deal: int) -> dict[int, Decision]:
    """The record's decisions by table version: a round is a deal, then a version per
    decision."""
    out: dict[int, Decision] = {}
    version = first_deal
    for rnd in record["rounds"]:
        for i, (seat, action) in enumerate(rnd["actions"], 1):
            out[version + i] = (str(seat), str(action))
        version += len(rnd["actions"]) + 1
    return out


def check_records(base: str, told: Told, tables: list[str]) -> dict[str, Any]:
    """Each table's record from ``base``: it verifies and holds what was told."""
    failed: dict[str, str] = {}
    decisions = 0
    with httpx.Client(base_url=base, timeout=60) as http:
        for tid in tables:
            r = http.get(f"/api/tables/{tid}/record")
            if r.status_code != 200:
                failed[tid] = f"HTTP {r.status_code}: {r.text[:200]}"
                continue
            code, lines = verify_text(r.text, f"{tid}.json")
            if code != 0:
                failed[tid] = f"does not verify: {' '.join(lines)[:200]}"
                continue
            if tid not in told.first_deal:
                failed[tid] = "no client saw its first deal"
                continue
            record = record_decisions(r.json(), told.first_deal[tid])
            seen = told.decisions.get(tid, {})
            missing = {v: d for v, d in seen.items() if record.get(v) != d}
            if missing:
                failed[tid] = f"told but not in the record: {sorted(missing.items())[:5]}"
            decisions += len(seen)
    return {"records_checked": len(tables), "records_failed": failed,
            "decisions_told_checked": decisions, "told_conflicts": told.conflicts}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=300)
    p.add_argument("--seats", type=int, default=6)
    p.add_argument("--lives", type=int, default=2)
    p.add_argument("--think", type=float, default=0.1, metavar="S",
                   help="mean seconds a client waits before acting (default 0.1)")
    p.add_argument("--kill", choices=("setup", "start", "play", "none"), default="play",
                   help="when the first process is SIGKILLed (default: in play)")
    p.add_argument("--kill-after", type=float, default=None, metavar="S",
                   help="seconds into set-up or play (default 5), or (--kill start) the "
                        "number of starts the first process has logged (default 1)")
    p.add_argument("--redis-restart-after", type=float, default=None, metavar="S",
                   help="also restart redis-server S seconds into play")
    p.add_argument("--redis-down", type=float, default=1.0, metavar="S")
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.kill_after is None:
        a.kill_after = 1 if a.kill == "start" else 5.0
    folder = Path(tempfile.mkdtemp(prefix="gnav-kill-"))
    redis_proc, store = start_redis(folder)
    procs: list[subprocess.Popen[str]] = []
    try:
        urls = []
        for n in range(2):
            proc, url = start_server(store, folder, n)
            procs.append(proc)
            urls.append(url)
        test = LoadTest(Options(urls=tuple(urls), tables=a.tables, seats=a.seats,
                                lives=a.lives, think=a.think, timeout=a.timeout,
                                seed=a.seed, concurrency=64, matches=1))
        told = Told()
        undo = told.install()
        killed: dict[str, Any] = {}
        restarted: dict[str, Any] = {}
        began = time.monotonic()

        def kill() -> None:
            if a.kill == "start":  # the moment the starts go out: no look at /health
                log = folder / "server0.log"
                while log.read_text().count('"table.started"') < a.kill_after:
                    time.sleep(0.005)
                procs[0].send_signal(signal.SIGKILL)
                killed["starts_logged_then"] = log.read_text().count('"table.started"')
            else:
                if a.kill == "play":
                    while test.phase != "play":
                        time.sleep(0.01)
                time.sleep(a.kill_after)
                with contextlib.suppress(httpx.HTTPError), \
                        httpx.Client(base_url=urls[0], timeout=2) as http:
                    killed["owned"] = http.get("/health").json().get("owned")
                procs[0].send_signal(signal.SIGKILL)
            killed["phase"] = test.phase
            killed["at_s"] = round(time.monotonic() - (
                test.play_started if test.phase == "play" else began), 2)
            killed["tables_ready_then"] = test.stats.tables_ready

        def restart() -> None:
            nonlocal redis_proc
            while test.phase != "play":
                time.sleep(0.01)
            time.sleep(a.redis_restart_after)
            port = int(store.rsplit(":", 1)[1].split("/")[0])
            redis_proc.terminate()  # an orderly stop: the append-only file is whole
            redis_proc.wait()
            restarted["at_play_s"] = round(time.monotonic() - test.play_started, 2)
            time.sleep(a.redis_down)
            redis_proc, _ = start_redis(folder, port)
            restarted["down_s"] = round(time.monotonic() - test.play_started
                                        - restarted["at_play_s"], 2)

        chores = ([threading.Thread(target=kill, daemon=True)] if a.kill != "none" else []) \
            + ([threading.Thread(target=restart, daemon=True)]
               if a.redis_restart_after is not None else [])
        for chore in chores:
            chore.start()
        try:
            report = asyncio.run(test.run())
        finally:
            undo()
        for chore in chores:
            chore.join(timeout=30)
        tables = [t.id for t in test.tables if t.ready]
        checked = check_records(urls[1], told, tables)
        good = ok(report) and not checked["records_failed"] and not checked["told_conflicts"] \
            and report["tables_ready"] == a.tables \
            and (a.kill == "none" or bool(killed)) \
            and (a.redis_restart_after is None or "down_s" in restarted)
        print(json.dumps({**report, "killed": killed, "redis_restarted": restarted,
                          **checked, "ok": good, "folder": str(folder)}))
        return 0 if good else 1
    finally:
        stop_servers(procs, redis_proc)


if __name__ == "__main__":
    raise SystemExit(main())
