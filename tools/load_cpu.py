"""Load figures with the servers' CPU: start ``--processes`` gnav servers (SQLite, or one
shared redis-server of this script's own), run ``gnav loadtest`` with each table's seats
spread over them, sample every server process's CPU time from /proc meanwhile, and print
actions/s, latency, errors and CPU seconds per acknowledged action during play (set-up
left out), for the gnav processes and for them with Redis. ``--kill-after S`` SIGKILLs
the first server S seconds into play (the others take its tables over).

    python tools/load_cpu.py --processes 2 --tables 1000 --seats 6 --duration 40

Ports are free ones of the loopback address; everything started here is stopped here.
"""

from __future__ import annotations

import argparse
import json
import os
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
from pathlib import Path
from typing import Any

TICK = os.sysconf("SC_CLK_TCK")
URL = re.compile(r"open (http://\S+?)/?\s")


def cpu_seconds(pid: int) -> float:
    """User and system CPU of ``pid`` so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(store: str, folder: Path, n: int) -> tuple[subprocess.Popen[str], str]:
    log = (folder / f"server{n}.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gnav.cli", "serve", "--port", "0", "--store", store,
         "--creates-per-minute", "1000000", "--tables-per-client", "1000000",
         "--sockets-per-client", "1000000"], stdout=subprocess.PIPE, stderr=log,
        cwd=folder, text=True)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    match = URL.search(proc.stdout.readline()) if ready else None
    if match is None:
        raise SystemExit(f"server {n} did not start: see {folder}")
    return proc, match.group(1)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--store", choices=("sqlite", "redis"), default=None,
                   help="default: sqlite for one process, redis for more")
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seats", type=int, default=6)
    p.add_argument("--duration", type=float, default=40.0)
    p.add_argument("--kill-after", type=float, default=None, metavar="S")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    store_kind = a.store or ("sqlite" if a.processes == 1 else "redis")
    folder = Path(tempfile.mkdtemp(prefix="gnav-load-"))
    procs: list[subprocess.Popen[Any]] = []
    redis_proc = None
    try:
        if store_kind == "redis":
            port = free_port()
            command = shutil.which("redis-server")
            assert command, "redis-server is not installed"
            redis_proc = subprocess.Popen(
                [command, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                 "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
            store = f"redis://127.0.0.1:{port}/0"
        else:
            store = str(folder / "gnav.sqlite3")
        urls = []
        for n in range(a.processes):
            proc, url = start_server(store, folder, n)
            procs.append(proc)
            urls.append(url)
        pids = [proc.pid for proc in procs]
        samples: list[tuple[float, float, float]] = []  # time, gnav CPU, redis CPU
        last = {pid: 0.0 for pid in pids}
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                for pid in pids:  # a killed one keeps the CPU it had spent
                    last[pid] = max(last[pid], cpu_seconds(pid))
                rcpu = cpu_seconds(redis_proc.pid) if redis_proc else 0.0
                samples.append((time.monotonic(), sum(last.values()), rcpu))
                stop.wait(0.25)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        args = [sys.executable, "-m", "gnav.cli", "loadtest", "--tables", str(a.tables),
                "--seats", str(a.seats), "--duration", str(a.duration), "--seed",
                str(a.seed), "--concurrency", "64", "--json"]
        for url in urls:
            args += ["--url", url]
        t0 = time.monotonic()
        load = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        killed_at = None
        if a.kill_after is not None:
            # Play starts once every table is set up: the first server's log says when
            # the last table started; kill_after counts from there.
            log = folder / "server0.log"
            expected = a.tables // a.processes
            while load.poll() is None and log.read_text().count('"table.started"') < expected:
                time.sleep(0.2)
            time.sleep(a.kill_after)
            procs[0].send_signal(signal.SIGKILL)
            killed_at = time.monotonic() - t0
        out, err = load.communicate(timeout=a.duration + 1800)
        stop.set()
        sampler.join()
        report: dict[str, Any] = json.loads(out) if out.strip() else {}
        if not report:
            print(f"the load test printed no report: {err[-2000:]}", file=sys.stderr)

        def at(t: float) -> tuple[float, float]:
            best = min(samples, key=lambda s: abs(s[0] - t))
            return best[1], best[2]

        play_start = t0 + float(report.get("setup_s", 0.0))
        play_end = play_start + float(report.get("play_s", 0.0))
        (g0, r0), (g1, r1) = at(play_start), at(play_end)
        acked = max(1, int(report.get("actions_acknowledged", 0)))
        print(json.dumps({
            "processes": a.processes, "store": store_kind, "tables": a.tables,
            "seats": a.seats, "duration": a.duration, "killed_at_s": killed_at,
            "actions_per_s": report.get("actions_per_s"),
            "latency_ms": report.get("latency_ms"), "errors": report.get("errors"),
            "matches_finished": report.get("matches_finished"),
            "reconnects": report.get("reconnects"),
            "longest_pause_s": report.get("longest_pause_s"),
            "cpu_s_gnav": round(g1 - g0, 2), "cpu_s_redis": round(r1 - r0, 2),
            "cpu_ms_per_action_gnav": round(1000 * (g1 - g0) / acked, 3),
            "cpu_ms_per_action_with_redis": round(1000 * (g1 - g0 + r1 - r0) / acked, 3),
            "folder": str(folder)}))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
