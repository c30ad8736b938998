"""The server's CPU seconds per action of an all-bot table, through ``gnav serve``.

    python tools/bot_table_cpu.py [--seats 41] [--lives 4] [--bots expert,counter]
        [--budget 600] [--uncap]

Starts ``gnav serve`` in a child process on a free loopback port, creates one table of
``--seats`` seats with only bots of each kind in turn (``POST /api/tables``, ``start``),
and polls it until its match is over or ``--budget`` seconds have passed. It reports
the server process's CPU seconds (user + system, from /proc) over the match's decisions
(counted in its record), per kind, in one run so that both see the same machine. A
developer tool, not part of the installed package.

A table created this way gets the options a table of its size sets (docs/spec/rules.md
§6.1): from 29 seats of gnav, ``two_fools = pay``. Under gnav's own ``two_fools = gain``
a 41-seat match of experts never ends (both fools are dealt in 97% of full rounds, their
holders gain a life and nobody pays, and experts avoid the charges), so before that
this tool played one life; now a match ends at the preset's four lives too (the
default, ``--lives 4``), and the report names the rules the record played. The server's
pacing (``gnav.table.Pace``: an unattended table's bots think at most a tenth of the
time) spaces the decisions.

The server refuses counter bots above 12 seats (they think 7 ms a decision at 41): to
measure them there anyway, this tool raises that cap in its own server process only
(``--uncap``), never in ``gnav serve`` itself.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import oneline

SERVE = """
import sys
import gnav.table.config as config
if sys.argv[1] == "uncap":
    config.MAX_COUNTER_SEATS = 10**6
from gnav.cli import main
sys.exit(main(sys.argv[2:]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def call(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    req.add_header("Content-Type", "application/json")
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def measure(base: str, pid: int, kind: str, seats: int, lives: int, budget: float
            ) -> dict[str, Any]:
    made = call(f"{base}/api/tables", {"preset": "gnav", "seats": seats, "bot": kind,
                                       "options": {"lives": lives}, "turn_timer": None})
    table, token = made["id"], made["host_token"]
    before = cpu_seconds(pid)
    start = time.monotonic()
    call(f"{base}/api/tables/{table}/start", {}, token)
    info = call(f"{base}/api/tables/{table}")
    while info["phase"] == "playing" and time.monotonic() - start < budget:
        time.sleep(1.0)
        info = call(f"{base}/api/tables/{table}")
    cpu = cpu_seconds(pid) - before
    finished = info["phase"] != "playing"
    changes = info["version"] - made["table"]["version"] if "table" in made else None
    actions = None
    record: dict[str, Any] = {}
    if finished:  # the record counts the decisions (a partial match has none yet)
        record = call(f"{base}/api/tables/{table}/record")
        actions = sum(len(r["actions"]) for r in record["rounds"])
    return {"bot": kind, "seats": seats, "lives": lives, "finished": finished,
            "changes": changes,
            "actions": actions, "rounds": len(record["rounds"]) if finished else None,
            "rules": record.get("rules"), "result": record.get("result"),
            "wall_s": round(time.monotonic() - start, 1), "server_cpu_s": round(cpu, 2),
            "cpu_ms_per_action": round(1000 * cpu / actions, 3) if actions else None}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seats", type=int, default=41)
    p.add_argument("--lives", type=int, default=4)
    p.add_argument("--bots", default="expert,counter")
    p.add_argument("--budget", type=float, default=600.0,
                   help="seconds a table may play before it is measured as it stands")
    p.add_argument("--uncap", action="store_true",
                   help="let counter bots sit above 12 seats in this tool's server")
    args = p.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVE, "uncap" if args.uncap else "capped", "serve",
             "--host", "127.0.0.1", "--port", str(port), "--db", f"{tmp}/t.db",
             "--creates-per-minute", "1000"],
            stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/err", "w"))  # noqa: SIM115
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(600):  # a busy machine takes its time to start a server
                if server.poll() is not None:
                    err = Path(tmp, "err").read_text(encoding="utf-8")[-2000:]
                    sys.exit(f"the server stopped: {err}")
                try:
                    call(f"{base}/api/tables")
                    break
                except OSError:
                    time.sleep(0.5)
            for kind in args.bots.split(","):
                print(json.dumps(measure(base, server.pid, kind, args.seats, args.lives,
                                         args.budget)), flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/bot_table_cpu.py"))
