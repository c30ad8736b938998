"""Load figures with the servers' CPU: start ``--processes`` gnav servers (SQLite, or one
shared redis-server of this script's own), run ``tools/loadtest.py`` with each table's seats
spread over them, sample every server process's CPU time from /proc meanwhile, and print
actions/s, latency, errors and CPU seconds per acknowledged action during play (set-up
left out), for the gnav processes and for them with Redis. ``--kill-after S`` SIGKILLs
the first server S seconds into play (the others take its tables over).

    python tools/load_cpu.py --processes 2 --tables 1000 --seats 6 --duration 40

Comparisons in one run, so that every side sees the same machine: ``--processes 1,2``
alternates one and two processes, ``--before COMMIT`` alternates the servers of that
commit (its ``src``, taken with ``git archive``) with this tree's, ``--repeat N`` times;
the last line is each side's CPU per action over all its runs, and their ratios to the
first side. ``--profile FILE`` samples the servers with py-spy (it must be in this venv)
and writes where their time went. The load client is always this tree's.

Ports are free ones of the loopback address; everything started here is stopped here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_before_after import export

ROOT = Path(__file__).resolve().parents[1]
LOADTEST = ROOT / "tools" / "loadtest.py"  # the load client, this tree's
TICK = os.sysconf("SC_CLK_TCK")
URL = re.compile(r"open (http://\S+?)/?\s")
# Stacks whose innermost frame waits (py-spy counts a thread blocked in a system call
# as busy): left out of the profile's busy samples.
WAITING = frozenset({"select", "poll", "epoll_wait", "wait", "_worker", "acquire", "sleep"})


# A server under cProfile (its event loop's thread): SIGUSR1 starts it (play has begun),
# SIGUSR2 stops it and writes the profile (play has ended: a server's shutdown hands its
# tables to the other, which is no part of play).
PROFILED = """
import cProfile, runpy, signal, sys, time
profile = cProfile.Profile(time.thread_time)  # CPU, not wall time: a loaded machine
def done(*_):
    profile.disable()
    profile.dump_stats({out!r})
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
signal.signal(signal.SIGUSR2, done)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


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


def raise_fd_limit() -> int:
    """The soft limit on open files up to the hard one (6,000 sockets a side need it);
    the children inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        soft = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def start_server(store: str, folder: Path, n: int, src: Path | None,
                 cprofile: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    log = (folder / f"server{n}.log").open("ab")
    env = dict(os.environ)
    # Another commit's gnav, or this tree's: named, never left to whatever the venv
    # imports (an editable install of another checkout made "this tree's" servers that
    # checkout's, and --before compared a commit with itself).
    env["PYTHONPATH"] = str(src) if src is not None else os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])
    wrap = ["-m"] if cprofile is None else ["-c", PROFILED.format(out=str(cprofile))]
    proc = subprocess.Popen(
        [sys.executable, *wrap, "gnav.cli", "serve", "--port", "0", "--store", store,
         "--creates-per-minute", "1000000", "--tables-per-client", "1000000",
         "--sockets-per-client", "1000000"], stdout=subprocess.PIPE, stderr=log,
        cwd=folder, text=True, env=env)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    match = URL.search(proc.stdout.readline()) if ready else None
    if match is None:
        raise SystemExit(f"server {n} did not start: see {folder}")
    return proc, match.group(1)


def profile(pid: int, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling ``pid`` (its threads' stacks, collapsed) into ``out``."""
    spy = Path(sys.executable).parent / "py-spy"
    if not spy.exists():
        raise SystemExit("--profile needs py-spy in this venv: pip install py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--rate", "250",
                             "--format", "raw", "--nonblocking", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def summarize(files: list[Path], top: int = 40) -> str:
    """The functions where the samples of ``files`` (py-spy's collapsed stacks) were:
    by their own share (the function itself running) and by their total share (it or
    what it called), samples of a waiting thread left out. The SQLite store's thread is
    counted apart: py-spy sees a thread waiting on the disk (fsync) as busy, so its
    samples are mostly time, not CPU."""
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    samples = store = 0
    for file in files:
        if not file.exists():
            continue
        for line in file.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            # "function (path:line)" -> "function (file)": lines of one function together
            frames = [re.sub(r" \((?:.*/)?([^/]+?):\d+\)$", r" (\1)", f)
                      for f in stack.split(";")]
            if not frames or frames[-1].split(" (")[0].rsplit(".", 1)[-1] in WAITING:
                continue
            n = int(count)
            if any(f.startswith("SQLiteStore._write ") for f in frames):
                store += n
                continue
            samples += n
            own[frames[-1]] = own.get(frames[-1], 0) + n
            for frame in set(frames):
                total[frame] = total.get(frame, 0) + n
    lines = [f"{samples} busy samples, and {store} of the SQLite store's thread (its "
             f"queries and its fsync; left out below)", "", "own %  function"]
    lines += [f"{100 * n / max(1, samples):5.1f}  {f}" for f, n in
              sorted(own.items(), key=lambda kv: -kv[1])[:top]]
    lines += ["", "total %  function"]
    lines += [f"{100 * n / max(1, samples):5.1f}  {f}" for f, n in
              sorted(total.items(), key=lambda kv: -kv[1])[:top]]
    return "\n".join(lines) + "\n"


def links(urls: Sequence[str]) -> dict[str, Any]:
    """Frames and texts the servers sent one another over their links so far (their
    ``/health``; none for one process, or a commit that did not count them), and each
    server's own loop lateness and collections (``server_loops``), where it says them."""
    frames = texts = 0
    loops: list[dict[str, Any]] = []
    for url in urls:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=10) as response:
                health = json.loads(response.read())
        except (OSError, ValueError):
            continue
        frames += int(health.get("frames_sent", 0))
        texts += int(health.get("texts_sent", 0))
        if "loop_late_ms" in health:
            loops.append({"loop_late_ms": health["loop_late_ms"], "gc": health.get("gc")})
    return ({"link_frames": frames, "link_texts": texts} if frames else {}) | \
        ({"server_loops": loops} if loops else {})


@dataclass(frozen=True)
class Side:
    """One configuration of a comparison: how many processes, and whose code."""

    processes: int
    label: str
    src: Path | None  # None: this tree's


def run(a: argparse.Namespace, side: Side) -> dict[str, Any]:
    """One load test against ``side``'s servers; its figures."""
    store_kind = a.store or ("sqlite" if side.processes == 1 else "redis")
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
                 "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                 "--maxclients", "20000"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
            store = f"redis://127.0.0.1:{port}/0"
        else:
            store = str(folder / "gnav.sqlite3")
        urls = []
        for n in range(side.processes):
            cprofile = None if a.cprofile is None else \
                a.cprofile / f"{side.label}-server{n}.prof"
            proc, url = start_server(store, folder, n, side.src, cprofile)
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
        args = [sys.executable, str(LOADTEST), "--tables", str(a.tables),
                "--seats", str(a.seats), "--seed", str(a.seed), "--concurrency", "64",
                "--think", str(a.think), "--json"] + (["--together"] if a.together else [])
        args += ["--duration", str(a.duration)] if a.matches is None else \
            ["--matches", str(a.matches), "--timeout", str(a.timeout)]
        if a.lives is not None:
            args += ["--lives", str(a.lives)]
        for url in urls:
            args += ["--url", url]
        load_avg = os.getloadavg()[0]
        t0 = time.monotonic()
        load = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        spies: list[subprocess.Popen[bytes]] = []
        if a.profile is not None or a.cprofile is not None:
            # Profiled from when every table has started: play, not set-up (creating
            # and joining thousands of tables through HTTP once took most of the samples).
            logs = [folder / f"server{n}.log" for n in range(len(pids))]
            while load.poll() is None and sum(
                    log.read_text().count('"table.started"') for log in logs) < a.tables:
                time.sleep(0.2)
            if a.profile is not None:
                spies = [profile(pid, folder / f"profile{n}.txt")
                         for n, pid in enumerate(pids)]
            if a.cprofile is not None:
                for proc in procs:
                    proc.send_signal(signal.SIGUSR1)
        killed_at = None
        if a.kill_after is not None:
            # Play starts once every table is set up: the first server's log says when
            # the last table started; kill_after counts from there.
            log = folder / "server0.log"
            expected = a.tables // side.processes
            while load.poll() is None and log.read_text().count('"table.started"') < expected:
                time.sleep(0.2)
            time.sleep(a.kill_after)
            procs[0].send_signal(signal.SIGKILL)
            killed_at = time.monotonic() - t0
        out, err = load.communicate(timeout=max(a.duration, a.timeout) + 1800)
        if a.cprofile is not None:
            for n, proc in enumerate(procs):
                proc.send_signal(signal.SIGUSR2)
                written = a.cprofile / f"{side.label}-server{n}.prof"
                for _ in range(600):  # the server writes it between two loop turns
                    if written.exists():
                        break
                    time.sleep(0.1)
        stop.set()
        sampler.join()
        link = links(urls)
        for spy in spies:
            spy.send_signal(signal.SIGINT)  # py-spy writes what it has on SIGINT
            spy.wait(timeout=60)
        if a.profile is not None:
            text = summarize([folder / f"profile{n}.txt" for n in range(len(pids))])
            target = a.profile if len(a.sides) == 1 else \
                a.profile.with_name(f"{a.profile.stem}-{side.label}{a.profile.suffix}")
            target.write_text(text)
        report: dict[str, Any] = json.loads(out) if out.strip() else {}
        if not report:
            print(f"the load test printed no report: {err[-2000:]}", file=sys.stderr)

        def at(t: float) -> tuple[float, float]:
            """The CPU spent by ``t``, between the two samples around it."""
            after = next((i for i, s in enumerate(samples) if s[0] >= t), len(samples) - 1)
            (ta, ga, ra), (tb, gb, rb) = samples[max(0, after - 1)], samples[after]
            share = 0.0 if tb <= ta else min(1.0, max(0.0, (t - ta) / (tb - ta)))
            return ga + (gb - ga) * share, ra + (rb - ra) * share

        # Play as the load client saw it begin and end, on the monotonic clock this
        # process samples by (None: no table got to play). This script's start plus the
        # client's set-up time put play's start about 0.45 s early, in the last of
        # set-up (docs/server.md, "a fourth look").
        play_start, play_end = report.get("play_at") or (t0, t0)
        (g0, r0), (g1, r1) = at(play_start), at(play_end)
        acked = int(report.get("actions_acknowledged", 0))
        return {
            "side": side.label, "processes": side.processes, "store": store_kind,
            "tables": a.tables, "seats": a.seats, "think": a.think, "lives": a.lives,
            **({"duration": a.duration} if a.matches is None else {"matches": a.matches}),
            "load_average": round(load_avg, 2), "killed_at_s": killed_at,
            "actions": acked, "actions_per_s": report.get("actions_per_s"),
            "latency_ms": report.get("latency_ms"), "errors": report.get("errors"),
            "client_lag_ms": report.get("client_lag_ms"),
            "matches_finished": report.get("matches_finished"),
            "reconnects": report.get("reconnects"),
            "longest_pause_s": report.get("longest_pause_s"),
            **link,
            "cpu_s_gnav": round(g1 - g0, 2), "cpu_s_redis": round(r1 - r0, 2),
            "cpu_ms_per_action_gnav": round(1000 * (g1 - g0) / max(1, acked), 3),
            "cpu_ms_per_action_with_redis": round(1000 * (g1 - g0 + r1 - r0) / max(1, acked),
                                                  3),
            "folder": str(folder)}
    finally:
        stop_servers(procs, redis_proc)


def stop_servers(procs: Sequence[subprocess.Popen[Any]],
         redis_proc: subprocess.Popen[Any] | None = None) -> None:
    """Stop the servers as a deployment would (SIGTERM: they close their tables and
    sockets), killing any that take over 30 s, then their redis-server."""
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--processes", default="1", metavar="P[,P...]",
                   help="server processes; several (1,2) alternate in one run")
    p.add_argument("--store", choices=("sqlite", "redis"), default=None,
                   help="default: sqlite for one process, redis for more")
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seats", type=int, default=6)
    p.add_argument("--duration", type=float, default=40.0,
                   help="seconds of play, new matches started as they end")
    p.add_argument("--matches", type=int, default=None, metavar="K",
                   help="instead of --duration: each table plays K matches to their end "
                   "(every match finished), within --timeout seconds")
    p.add_argument("--timeout", type=float, default=1800.0)
    p.add_argument("--lives", type=int, default=None, help="lives a player (shorter matches)")
    p.add_argument("--kill-after", type=float, default=None, metavar="S")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--together", action="store_true",
                   help="each table's seats at the server that created it (none relayed), "
                        "not spread over the servers")
    p.add_argument("--think", type=float, default=0.0, metavar="S",
                   help="the clients' mean pause before each act (people's pace)")
    p.add_argument("--before", default=None, metavar="COMMIT",
                   help="alternate that commit's servers with this tree's")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--profile", type=Path, default=None, metavar="FILE",
                   help="sample each server with py-spy during the run and write where "
                   "its time went to FILE (one file per side when comparing)")
    p.add_argument("--cprofile", type=Path, default=None, metavar="DIR",
                   help="profile each server with cProfile (its event loop's thread; about "
                   "twice the CPU, so not for the figures) from when every table has "
                   "started to the end of play, into DIR/SIDE-serverN.prof")
    a = p.parse_args()
    if a.cprofile is not None:
        a.cprofile.mkdir(parents=True, exist_ok=True)
    try:
        counts = [int(n) for n in a.processes.split(",")]
    except ValueError:
        p.error(f"--processes: whole numbers separated by commas, not {a.processes!r}")
    limit = raise_fd_limit()
    if a.tables * a.seats + 1000 > limit:
        print(f"warning: {a.tables * a.seats} sockets and an open-files limit of {limit}",
              file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        before = export(a.before, Path(tmp)) if a.before else None
        sides = [Side(n, f"{n}p", None) for n in counts]
        if before is not None:
            sides = [s for n in counts for s in (Side(n, f"{n}p-before", before),
                                                 Side(n, f"{n}p-after", None))]
        a.sides = sides
        totals: dict[str, list[float]] = {s.label: [0.0, 0.0, 0.0] for s in sides}
        for _ in range(a.repeat):
            for side in sides:
                result = run(a, side)
                print(json.dumps(result), flush=True)
                total = totals[side.label]
                total[0] += result["cpu_s_gnav"]
                total[1] += result["cpu_s_redis"]
                total[2] += result["actions"]
    first = sides[0].label
    per = {label: 1000 * t[0] / max(1.0, t[2]) for label, t in totals.items()}
    with_redis = {label: 1000 * (t[0] + t[1]) / max(1.0, t[2]) for label, t in totals.items()}
    print(json.dumps({"cpu_ms_per_action_gnav": {k: round(v, 3) for k, v in per.items()},
                      "cpu_ms_per_action_with_redis":
                          {k: round(v, 3) for k, v in with_redis.items()},
                      f"ratio_to_{first}": {k: round(v / per[first], 3) if per[first] else None
                                            for k, v in per.items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
