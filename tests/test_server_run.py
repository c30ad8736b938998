"""Where the server's links point (gnav.server.run.public_url_for, Settings.loopback_only),
and what ``gnav serve`` says about it when it starts."""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gnav.server import run
from gnav.server.settings import Settings, is_loopback


def test_links_follow_public_url_then_the_network_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "lan_address", lambda: "192.168.1.20")
    # Behind a reverse proxy the given URL wins, whatever the server listens on.
    assert run.public_url_for("127.0.0.1", 8000, "https://gnav.example") == \
        "https://gnav.example"
    assert run.public_url_for("0.0.0.0", 8080, "https://gnav.example") == "https://gnav.example"
    # On every interface: this machine's address on its network, not http://0.0.0.0.
    assert run.public_url_for("0.0.0.0", 8080, None) == "http://192.168.1.20:8080"
    assert run.public_url_for("::", 8080, None) == "http://192.168.1.20:8080"
    # One address: that address (Settings.base_url).
    assert run.public_url_for("127.0.0.1", 8000, None) is None
    monkeypatch.setattr(run, "lan_address", lambda: None)
    assert run.public_url_for("0.0.0.0", 8080, None) is None


def test_the_network_address_is_another_computers_way_in() -> None:
    address = run.lan_address()  # None on a machine without a route out
    if address is not None:
        parsed = ipaddress.ip_address(address)
        assert parsed.version == 4 and not parsed.is_loopback and not parsed.is_unspecified


@pytest.mark.parametrize(("settings", "alone"), [
    (Settings(), True),
    (Settings(host="::1"), True),
    (Settings(host="127.0.0.2"), True),
    (Settings(public_url="http://localhost:8000"), True),
    (Settings(host="192.168.1.20"), False),
    (Settings(public_url="https://gnav.example/"), False),
    (Settings(host="0.0.0.0", public_url="http://10.0.0.5:8080"), False),
])
def test_links_on_loopback_work_on_this_computer_alone(settings: Settings, alone: bool) -> None:
    assert settings.loopback_only is alone


def test_loopback_names() -> None:
    assert all(map(is_loopback, ["localhost", "LOCALHOST", "127.0.0.1", "::1"]))
    assert not any(map(is_loopback, ["gnav.example", "10.0.0.1", "0.0.0.0", ""]))


def test_serve_on_loopback_says_the_links_work_here_alone(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("w") as sink:  # a file, read as it grows: no pipe buffer to outwait
        proc = subprocess.Popen([sys.executable, "-m", "gnav.cli", "serve", "--port", "0",
                                 "--db", str(tmp_path / "g.db")], stdout=sink,
                                stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
                                env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        deadline = time.monotonic() + 30
        lines: list[str] = []
        while len(lines) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            lines = out.read_text().splitlines()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert len(lines) >= 2, lines
    assert lines[0].startswith("gnav serve: open http://127.0.0.1:")
    assert "this computer only (127.0.0.1)" in lines[1] and "Play with friends" in lines[1]


def test_the_redis_window_is_checked_and_reaches_the_journals_pipe(tmp_path: Path) -> None:
    """``gnav serve --redis-window MS``: one line for a window out of range; a good one
    is the seconds the journal's writes wait (``gnav.server.resp``)."""
    from gnav.errors import GnavError
    from gnav.server.redis_store import RedisStore
    from gnav.server.resp import WINDOW
    from gnav.server.stores import open_store

    for bad in (-1.0, 101.0):
        with pytest.raises(GnavError, match="--redis-window must be 0 to 100 ms"):
            run.serve("127.0.0.1", 0, "redis://127.0.0.1:1/0", [], None,
                      redis_window_ms=bad)
    key = str(tmp_path / "gnav.key")
    for given, window in ((0.005, 0.005), (None, WINDOW)):
        store = open_store("redis://127.0.0.1:1/0", key, redis_window=given)
        assert isinstance(store, RedisStore) and store._pipe is not None
        assert store._pipe.window == window
