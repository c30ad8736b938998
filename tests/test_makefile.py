"""The README's commands: ``make run`` takes HOST, PORT, PUBLIC_URL, DB or STORE, and starts the
server (the set-up of ``make test`` is tests/test_sysdeps.py)."""

from __future__ import annotations

import os
import select
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")


def dry_run(*args: str) -> str:
    assert MAKE is not None, "make is part of the README's two commands"
    out = subprocess.run([MAKE, "-s", "-n", "-C", str(ROOT), "run", *args], capture_output=True,
                         text=True, timeout=30, check=True,
                         env={**os.environ, "HOST": "shell-host", "PORT": "1"})
    return out.stdout.strip().splitlines()[-1]


def test_make_run_passes_host_port_and_public_url() -> None:
    # The shell's own HOST and PORT (zsh, tcsh and some hosts set them) are not read.
    assert dry_run().endswith("gnav serve --host '127.0.0.1' --port '8000' "
                              "--db 'gnav.sqlite3'")
    assert dry_run("HOST=0.0.0.0", "PORT=8080").endswith(
        "gnav serve --host '0.0.0.0' --port '8080' --db 'gnav.sqlite3'")
    assert dry_run("PUBLIC_URL=https://gnav.example").endswith(
        "--port '8000' --db 'gnav.sqlite3' --public-url 'https://gnav.example'")


def test_make_run_takes_a_store() -> None:
    """STORE takes the place of DB (a Redis shared with other servers, say)."""
    line = dry_run("STORE=redis://127.0.0.1:6379/0")
    assert line.endswith("--port '8000' --store 'redis://127.0.0.1:6379/0'"), line
    assert "--db" not in line
    assert dry_run("STORE=sqlite:///elsewhere.db", "PUBLIC_URL=https://gnav.example").endswith(
        "--store 'sqlite:///elsewhere.db' --public-url 'https://gnav.example'")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_make_run_serves_on_the_port_asked(tmp_path: Path) -> None:
    assert MAKE is not None
    port = free_port()
    # The gnav of the venv running this test; its set-up (the stamp) taken as done.
    proc = subprocess.Popen([MAKE, "-s", "-C", str(ROOT), "-o", ".venv/.installed", "run",
                             f"BIN={Path(sys.executable).parent}", f"PORT={port}",
                             f"DB={tmp_path / 'g.sqlite3'}"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready
        line = proc.stdout.readline()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    assert line.startswith(f"gnav serve: open http://127.0.0.1:{port}/"), line
