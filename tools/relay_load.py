"""The relay measured: spectators of tables that one server process owns, connected to
that process or to the other, and what they cost: each process's memory and CPU, and
Redis's traffic in and out.

Two ``gnav serve`` processes share a redis-server of this script's own. The first makes
``--tables`` tables of ``--seats`` seats (so it owns them); then ``--watchers``
spectators a table open sockets to ``--through`` the owner or the other process as the
tables start (each has one person, played here on the owner, who acts at once, or after
``--think`` seconds: its bots then answer at once too, and the table plays as fast as
the server lets it, a match after another), and either never read (``--slow``: their TCP
buffers fill and the server queues what they do not take, up to the socket's backlog) or
read everything. After ``--duration`` seconds, one JSON line: the processes' resident
memory before and after (and peak), their CPU seconds, Redis's bytes in and out
meanwhile (and per match finished), what the spectators read, and how many sockets the
servers closed (``closes``: how many with each close code and reason), and the owner's
``/health`` on its link to the other process: the most bytes that waited in it and how
many times it was cut for a holder too far behind (``Settings.link_backlog``).

Compare the two sides at the same pace (``--think 0.2``: every run plays the same
changes). At ``--think 0`` the tables play as fast as the owner lets them, and an owner
that writes to 150 spectators itself plays them two to four times slower than one whose
spectators are on the other process: the run through the other process then plays more
matches (more journal in Redis, more for each spectator to read), and spectators that
read slower than their table plays fall more than their backlog behind and are closed
(1013), whichever process holds them.

    python tools/relay_load.py --through other --slow --watchers 40 --duration 30
    python tools/relay_load.py --through owner --watchers 30 --duration 30 --before main

``--before COMMIT`` runs that commit's servers (its ``src``, taken with ``git archive``)
instead of this tree's. Ports are free ones of the loopback address; everything started
here is stopped here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench_before_after import export
from load_cpu import cpu_seconds, free_port, raise_fd_limit, start_server, stop_servers


def memory(pid: int) -> tuple[float, float]:
    """Resident and peak resident MB of ``pid``."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def net(client: redis.Redis) -> tuple[int, int]:
    stats = client.info("stats")
    return int(stats["total_net_input_bytes"]), int(stats["total_net_output_bytes"])


def calls(client: redis.Redis) -> dict[str, int]:
    """Commands Redis ran so far, by name."""
    return {name.removeprefix("cmdstat_"): int(stat["calls"])
            for name, stat in client.info("commandstats").items()}


def make_tables(http: httpx.Client, tables: int, seats: int) -> list[dict[str, Any]]:
    """Tables of one person (whose seat and token these are) and bots, not started."""
    made = []
    for _ in range(tables):
        created = http.post("/api/tables", json={"seats": seats, "bot": "random",
                                                 "turn_timer": None,
                                                 "options": {"lives": 10}}).json()
        tid = created["id"]
        joined = http.post(f"/api/tables/{tid}/join",
                           json={"name": "Person", "invite": created["invite"]}).json()
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        for _ in range(seats - 1):
            r = http.post(f"/api/tables/{tid}/bots", json={}, headers=auth)
            assert r.status_code == 200, r.text
        made.append({"id": tid, "auth": auth, "seat": joined["seat"],
                     "token": joined["token"]})
    return made


async def person(http: httpx.AsyncClient, table: dict[str, Any], ready: asyncio.Event,
                 think: float) -> None:
    """The table's one person, on the owner: acts as soon as it is its turn (so its
    bots answer at once, and the table plays as fast as the server lets it), and as its
    host starts the next match as soon as one ends. An act the server drops for its
    rate limit (``gnav serve``'s 20 messages a second a socket) is sent again a moment
    later: unanswered, the table would wait for it to the end of the run (measured at
    ``--think 0``: 5 tables of 5 stopped so, 11 matches where 19 were played)."""
    url = "ws" + str(http.base_url).rstrip("/").removeprefix("http")
    async with connect(f"{url}/ws/{table['id']}", open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": table["seat"],
                                  "token": table["token"], "since": None}))
        ready.set()
        last = ""
        while True:
            m = json.loads(await ws.recv())
            if m.get("type") == "error" and m.get("code") == "rate_limited" and last:
                table["limited"] = table.get("limited", 0) + 1
                await asyncio.sleep(0.1)
                await ws.send(last)
                continue
            view = m.get("view")
            if m.get("table", {}).get("phase") == "finished":
                table["finished"] = table.get("finished", 0) + 1
                await http.post(f"/api/tables/{table['id']}/start", headers=table["auth"])
                continue
            if view and view.get("to_act") == "Person" and view.get("legal"):
                if think:
                    await asyncio.sleep(think)
                last = json.dumps({"type": "act", "action": view["legal"][0],
                                   "version": m["version"]})
                await ws.send(last)


async def session(owner: str, target: str, tables: list[dict[str, Any]], per_table: int,
                  slow: bool, seconds: float, think: float) -> dict[str, Any]:
    """The people on the owner, the tables started, then ``per_table`` spectators a
    table on ``target`` for ``seconds``: what they read, how many the server closed."""
    read = closed = 0
    closes: dict[str, int] = {}

    async def one(tid: str) -> None:
        nonlocal read, closed
        ws: ClientConnection = await connect(f"ws{target.removeprefix('http')}/ws/{tid}",
                                             max_queue=1 if slow else 64, open_timeout=30)
        try:
            await ws.send(json.dumps({"type": "hello", "seat": None, "token": None,
                                      "since": None}))
            if slow:  # never reads: what the server sends waits in buffers and queues
                await ws.wait_closed()
                closed += 1
                return
            while True:
                text = await ws.recv()  # (not "read += len(await ...)": read before the await)
                read += len(text)
        except ConnectionClosed as e:
            closed += 1
            said = e.rcvd
            why = "none" if said is None else f"{said.code} {said.reason}"
            closes[why] = closes.get(why, 0) + 1
        finally:
            await ws.close()

    ready = [asyncio.Event() for _ in tables]
    http = httpx.AsyncClient(base_url=owner, timeout=30)
    people = [asyncio.ensure_future(person(http, t, r, think))
              for t, r in zip(tables, ready, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 30)
    for t in tables:
        r = await http.post(f"/api/tables/{t['id']}/start", headers=t["auth"])
        assert r.status_code == 200, r.text
    tasks = [asyncio.ensure_future(one(t["id"])) for t in tables for _ in range(per_table)]
    await asyncio.wait(tasks, timeout=seconds)
    for task in [*tasks, *people]:
        task.cancel()
    outcomes = await asyncio.gather(*tasks, *people, return_exceptions=True)
    await http.aclose()
    failed = [repr(r) for r in outcomes
              if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
    return {"read_bytes": read, "closed_by_server": closed, "closes": closes,
            "failed": len(failed),
            "first_failure": failed[0] if failed else None,
            "matches_finished": sum(t.get("finished", 0) for t in tables),
            "acts_rate_limited": sum(t.get("limited", 0) for t in tables)}


def run(a: argparse.Namespace, src: Path | None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="gnav-relay-"))
    port = free_port()
    command = shutil.which("redis-server")
    assert command, "redis-server is not installed"
    redis_proc = subprocess.Popen(
        [command, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no", "--maxclients", "20000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs: list[subprocess.Popen[Any]] = []
    try:
        client = redis.Redis(port=port)
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        store = f"redis://127.0.0.1:{port}/0"
        urls = []
        for n in range(2):
            proc, url = start_server(store, folder, n, src)
            procs.append(proc)
            urls.append(url)
        with httpx.Client(base_url=urls[0], timeout=30) as http:
            tables = make_tables(http, a.tables, a.seats)
        pids = [proc.pid for proc in procs]
        before = [memory(pid)[0] for pid in pids]
        cpu = [cpu_seconds(pid) for pid in pids]
        net_before, calls_before = net(client), calls(client)
        target = urls[0] if a.through == "owner" else urls[1]
        got = asyncio.run(session(urls[0], target, tables, a.watchers, a.slow, a.duration,
                                  a.think))
        after = [memory(pid) for pid in pids]
        # What waited in the owner for the other process, and how often it was cut
        # (None: servers from before the links' queues were bounded said nothing of it).
        health = httpx.get(f"{urls[0]}/health", timeout=30).json()
        net_after, calls_after = net(client), calls(client)
        ran = {name: n - calls_before.get(name, 0) for name, n in calls_after.items()
               if n > calls_before.get(name, 0)}
        matches = max(1, got["matches_finished"])
        traffic = [after - before for after, before in zip(net_after, net_before,
                                                           strict=True)]
        return {"side": a.before or "this tree", "through": a.through,
                "spectators": a.watchers * len(tables), "slow": a.slow,
                "seconds": a.duration, "think": a.think,
                "owner_mb": [round(before[0], 1), round(after[0][0], 1), round(after[0][1], 1)],
                "other_mb": [round(before[1], 1), round(after[1][0], 1), round(after[1][1], 1)],
                "cpu_s": [round(cpu_seconds(pid) - c, 2) for pid, c in zip(pids, cpu,
                                                                           strict=True)],
                "redis_in_mb": round(traffic[0] / 1e6, 2),
                "redis_out_mb": round(traffic[1] / 1e6, 2),
                "redis_kb_per_match": [round(t / 1e3 / matches, 1) for t in traffic],
                "redis_calls": dict(sorted(ran.items(), key=lambda kv: -kv[1])[:6]),
                "owner_link_queued_most_mb": None if "link_queued_most" not in health
                else round(health["link_queued_most"] / 1e6, 2),
                "owner_link_cuts": health.get("link_cuts"),
                **got}
    finally:
        stop_servers(procs, redis_proc)
        if a.keep:
            print(f"kept: {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--through", choices=("owner", "other"), default="other")
    p.add_argument("--slow", action="store_true", help="spectators that never read")
    p.add_argument("--tables", type=int, default=5)
    p.add_argument("--seats", type=int, default=12)
    p.add_argument("--watchers", type=int, default=40, help="spectators a table")
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--think", type=float, default=0.0, metavar="S",
                   help="the person's pause before each act (default 0: as fast as the "
                        "server plays; a pause gives both sides the same number of changes)")
    p.add_argument("--keep", action="store_true",
                   help="keep the servers' logs (the folder is named)")
    p.add_argument("--before", default=None, metavar="COMMIT",
                   help="run that commit's servers instead of this tree's")
    a = p.parse_args()
    raise_fd_limit()
    src = None
    if a.before is not None:
        src = export(a.before, Path(tempfile.mkdtemp(prefix="gnav-before-")))
    print(json.dumps(run(a, src)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
