"""A real ``redis-server`` for the tests (no tests here): started on a free port of the
loopback address in a folder of the test's own, stopped (or killed, or restarted on the
same data) by the test. Debian's ``redis-server`` must be installed (``make test``
installs it); a test that needs it fails, never skips, without it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    """One redis-server process. ``persist``: an append-only file fsynced at every
    write, so that a restart (or a kill) keeps every acknowledged change."""

    def __init__(self, folder: Path, *, persist: bool = False, maxmemory: str | None = None
                 ) -> None:
        command = shutil.which("redis-server")
        assert command, "redis-server is not installed (Debian: apt-get install redis-server)"
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.args = [command, "--port", str(self.port), "--bind", "127.0.0.1",
                     "--dir", str(folder), "--save", "", "--daemonize", "no",
                     "--protected-mode", "yes", "--logfile", str(folder / "redis.log"),
                     "--appendonly", "yes" if persist else "no",
                     "--appendfsync", "always"]
        if maxmemory is not None:
            self.args += ["--maxmemory", maxmemory, "--maxmemory-policy", "noeviction"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=10)

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while True:
            try:
                with self.client() as c:
                    if c.ping():
                        return
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            assert self.proc.poll() is None, (self.folder / "redis.log").read_text()[-2000:]
            assert time.monotonic() < end, "redis-server did not answer"
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - only if it hung
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        """Stop and start again on the same port and data."""
        self.stop()
        self.start()
