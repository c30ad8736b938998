"""The real thing: ``gnav serve`` as a process, people on WebSockets, a SIGKILL mid-round,
a restart on the same database, reconnection with the last version seen, and a record
that verifies and holds every action anyone saw acknowledged. Then a SIGTERM."""

from __future__ import annotations

import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from gnav.verify import verify_text
from server_kit import Json, Player, Throttle, eventually, play_out

URL = re.compile(r"open (http://\S+?)/?\s")


def serve_command() -> list[str]:
    return [sys.executable, "-m", "gnav.cli", "serve"]


class Pause(Exception):
    pass


class Server:
    def __init__(self, store: str, log: Path, *args: str) -> None:
        self.log = log
        with log.open("ab") as err:
            self.proc = subprocess.Popen(
                [*serve_command(), "--port", "0", "--store", store, *args],
                stdout=subprocess.PIPE, stderr=err, cwd=log.parent, text=True)
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        assert ready, "the server printed no URL"
        line = self.proc.stdout.readline()
        match = URL.search(line)
        assert match, f"no URL in {line!r}; log: {log.read_text()[-2000:]}"
        self.base = match.group(1)
        self.http = httpx.Client(base_url=self.base, timeout=10)
        end = time.monotonic() + 20
        while True:
            try:
                if self.http.get("/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < end and self.proc.poll() is None, log.read_text()
            time.sleep(0.05)

    def ws(self, table_id: str) -> str:
        return "ws" + self.base.removeprefix("http") + f"/ws/{table_id}"

    def stop(self, sig: int) -> int:
        self.http.close()
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:  # pragma: no cover - only if it hung
                self.proc.kill()


class SocketLink:
    """A ``websockets`` client connection, closed with the test's ExitStack."""

    def __init__(self, stack: ExitStack, url: str) -> None:
        self.ws: ClientConnection = stack.enter_context(
            connect(url, open_timeout=10, close_timeout=1))
        self.throttle = Throttle()

    def send(self, message: Json) -> None:
        self.throttle.wait()
        self.ws.send(json.dumps(message))

    def recv(self) -> Json:
        message: Json = json.loads(self.ws.recv(timeout=60))
        return message


@contextmanager
def running(store: str, log: Path, *args: str) -> Iterator[Server]:
    server = Server(store, log, *args)
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


def acknowledged(players: list[Player]) -> dict[int, tuple[str, str]]:
    """Every decision any socket was told of, by version."""
    seen: dict[int, tuple[str, str]] = {}
    for p in players:
        for frame in p.frames:
            for e in frame.get("events", []) if frame["type"] == "update" else []:
                if e["type"] in ("stand", "ask"):
                    action = "stand" if e["type"] == "stand" else "swap"
                    assert seen.setdefault(frame["version"], (e["seat"], action)) == \
                        (e["seat"], action), "two sockets were told different things"
    return seen


def decisions(record: Json, first_deal: int) -> dict[int, tuple[str, str]]:
    """The record's decisions by table version: each round is a deal, then one version
    per decision."""
    out: dict[int, tuple[str, str]] = {}
    version = first_deal
    for rnd in record["rounds"]:
        for i, (seat, action) in enumerate(rnd["actions"], 1):
            out[version + i] = (seat, action)
        version += len(rnd["actions"]) + 1
    return out


def test_a_killed_server_comes_back_and_the_match_finishes(tmp_path: Path,
                                                           store_url: str) -> None:
    """With either store: Redis (its own persistence aside) keeps what it acknowledged
    when the server that wrote it dies."""
    db, log = store_url, tmp_path / "server.log"
    rng = random.Random(11)
    with ExitStack() as stack, running(db, log) as server:
        r = server.http.post("/api/tables", json={
            "seats": 4, "bot": "random", "turn_timer": None, "grace": 600,
            "options": {"lives": 3}})
        assert r.status_code == 201, r.text
        created = r.json()
        tid, auth = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
        joined = [server.http.post(f"/api/tables/{tid}/join",
                                   json={"name": f"P{i}", "invite": created["invite"]}).json()
                  for i in (1, 2, 3)]
        people = [Player(SocketLink(stack, server.ws(tid)), f"P{i + 1}", j["seat"])
                  .hello(j["token"]) for i, j in enumerate(joined)]
        watcher = Player(SocketLink(stack, server.ws(tid))).hello(None)
        everyone = [*people, watcher]
        with pytest.raises(InvalidStatus) as refused:  # a page from elsewhere
            SocketLink(stack, server.ws(tid)).ws.close()
            stack.enter_context(connect(server.ws(tid), origin=Origin("http://evil.example")))
        assert refused.value.response.status_code == 403
        big = SocketLink(stack, server.ws(tid))  # a frame past the protocol's own cap
        big.ws.send("x" * 100_000)
        with pytest.raises(ConnectionClosed) as cut:
            big.ws.recv(timeout=10)
        assert cut.value.rcvd is not None and cut.value.rcvd.code == 1009
        assert server.http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
        for p in everyone:
            p.sync()
        first_deal = next(f["version"] for f in people[0].frames
                          if f.get("view", {}).get("round") == 1)

        # Play a while, then one more decision goes out and the server dies at once.
        def kill_midway(n: int) -> None:
            if n == 7:
                raise Pause

        with pytest.raises(Pause):
            play_out(everyone, rng, between=kill_midway)
        mover = next(p for p in people if p.sync().my_turn)
        assert mover.view is not None and mover.view["phase"] == "play"
        mover.link.send({"type": "act", "action": "swap", "version": mover.version})
        server.proc.send_signal(signal.SIGKILL)
        assert server.proc.wait(timeout=10) == -signal.SIGKILL
    before = acknowledged(everyone)
    assert len(before) >= 7

    with ExitStack() as stack, running(db, log) as server:  # the same database, a new port
        # SQLite: restored at start. Redis: taken over once the dead process's lease on
        # the table runs out (it cannot be told apart from a live one before).
        eventually(lambda: server.http.get("/health").json()["unfinished"] == 1, 20)
        for p, j in zip(people, joined, strict=True):
            p.reconnect(SocketLink(stack, server.ws(tid)), j["token"])
        watcher.reconnect(SocketLink(stack, server.ws(tid)), None)
        play_out(everyone, rng)
        r = server.http.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200
        code, lines = verify_text(r.text, "killed.json")
        assert code == 0, lines
        record = decisions(r.json(), first_deal)
        seen = acknowledged(everyone)
        assert before.items() <= seen.items()
        missing = {v: a for v, a in seen.items() if record.get(v) != a}
        assert not missing, f"acknowledged but not in the record: {missing}"
        # A graceful stop: uvicorn then re-raises the signal, as a process should.
        assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)

    lines_logged = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert all({"time", "level", "event", "table", "fields"} <= set(e) for e in lines_logged)
    events = [e["event"] for e in lines_logged]
    assert "table.restored" in events and "server.stopped" in events


def test_serve_refuses_bad_arguments_in_one_line(tmp_path: Path) -> None:
    def run(*args: str) -> Any:
        return subprocess.run([*serve_command(), "--db", str(tmp_path / "x.db"), *args],
                              capture_output=True, text=True, timeout=30, cwd=tmp_path,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})

    bad_port = run("--port", "70000")
    assert bad_port.returncode == 2 and "--port" in bad_port.stderr
    assert len(bad_port.stderr.strip().splitlines()) == 1
    bad_origin = run("--allow-origin", "evil.example")
    assert bad_origin.returncode == 2 and "origin" in bad_origin.stderr
    many = run("--workers", "2")  # processes cannot share a SQLite file
    assert many.returncode == 2 and "redis" in many.stderr
    assert len(many.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()  # nothing was created for a refused start
    both = run("--store", "sqlite:///y.db")
    assert both.returncode == 2 and "--store" in both.stderr and "--db" in both.stderr
    for store, said in (("mysql://x/y", "--store"), ("redis://127.0.0.1:1/0", "cannot reach")):
        bad = subprocess.run([*serve_command(), "--store", store, "--port", "0"],
                             capture_output=True, text=True, timeout=30, cwd=tmp_path)
        assert bad.returncode != 0 and said in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1
