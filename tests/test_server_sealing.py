"""Redis as a trust boundary: the servers' key (from the environment or a file, never
from Redis), what it seals (a table's seed and host digest in its journal, every
message between processes), a Redis locked down with a password, an ACL user and TLS,
and a ``MONITOR`` of a whole match through two processes that shows no secret."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import stat
import subprocess
from contextlib import ExitStack
from pathlib import Path

import pytest

from gnav.errors import GnavError
from gnav.server.cluster import Cluster, channel
from gnav.server.logs import Log
from gnav.server.peers import frame
from gnav.server.redis_store import KEY_CHECK, RedisStore, journal_key
from gnav.server.sealing import (
    KEY_ENV,
    KEY_FILE_ENV,
    Box,
    Unsealable,
    key_text,
    load_key,
    new_key,
    parse_key,
)
from gnav.server.security import invite_code
from gnav.server.store import StoreError
from gnav.server.stores import open_store
from gnav.table import Table, TableConfig
from gnav.table.journal import dump
from gnav.table.table import hash_token
from link_tap import Tap
from redis_kit import RedisServer, free_port
from server_kit import eventually
from test_server_cluster import play, seat_people, servers


def test_the_key_comes_from_the_environment_or_a_file(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.delenv(KEY_FILE_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    key, where = load_key()  # none anywhere: made in gnav.key here, for its owner alone
    assert where == "gnav.key" and len(key) == 32
    assert stat.S_IMODE(os.stat(tmp_path / "gnav.key").st_mode) == 0o600
    assert load_key() == (key, "gnav.key")  # the same key the next time
    named = tmp_path / "elsewhere.key"
    other, _ = load_key(str(named))
    assert other != key and parse_key(named.read_text(), "x") == other
    monkeypatch.setenv(KEY_FILE_ENV, str(named))
    assert load_key()[0] == other
    given = new_key()
    monkeypatch.setenv(KEY_ENV, key_text(given))  # the key itself wins over any file
    assert load_key(str(named)) == (given, f"${KEY_ENV}")
    monkeypatch.setenv(KEY_ENV, "not a key")
    with pytest.raises(GnavError, match=r"^\$GNAV_KEY: not a key"):
        load_key()
    monkeypatch.delenv(KEY_ENV)
    (tmp_path / "short.key").write_text(key_text(b"x" * 16))
    with pytest.raises(GnavError, match=r"short\.key: not a key"):
        load_key(str(tmp_path / "short.key"))
    with pytest.raises(GnavError, match="no-such-folder"):
        load_key(str(tmp_path / "no-such-folder" / "gnav.key"))


def test_a_seal_opens_with_its_key_and_for_its_place_only() -> None:
    box, other = Box(new_key()), Box(new_key())
    sealed = box.seal(b"a seat token", b"gnav:proc:a")
    assert b"a seat token" not in sealed
    assert box.open(sealed, b"gnav:proc:a") == b"a seat token"
    assert box.seal(b"a seat token", b"gnav:proc:a") != sealed  # a fresh nonce each time
    altered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    for opener, text, place in ((box, sealed, b"gnav:proc:b"),  # meant for another process
                                (other, sealed, b"gnav:proc:a"),  # another key
                                (box, altered, b"gnav:proc:a")):
        with pytest.raises(Unsealable):
            opener.open(text, place)
    assert box.check != other.check and "check" in repr(box)
    # "req" and "sealed": a create sent with a request key keeps them (its retry's host
    # token, sealed with that key): they come back beside the store's own seal.
    entry = {"op": "create", "id": "tableid1", "seed": 123456789012345, "host": "ab" * 32,
             "t": 1.0, "req": "cd" * 32, "sealed": "ef" * 16}
    kept = box.seal_entry("tableid1", entry)
    assert "seed" not in kept and "host" not in kept and kept["t"] == 1.0
    assert "123456789012345" not in json.dumps(kept) and "ab" * 32 not in json.dumps(kept)
    assert box.open_entry("tableid1", kept) == entry
    with pytest.raises(Unsealable):  # copied into another table's journal
        box.open_entry("tableid2", kept)
    plain = {"op": "act", "seat": 1}
    assert box.seal_entry("tableid1", plain) is plain
    # A join sent with a request key keeps its seat token sealed with that key: nothing of
    # the store's own, so it comes back as it is (read as the store's, it failed to open,
    # and a table with such a join could not be taken over by another process).
    joined = {"op": "join", "seat": 1, "req": "cd" * 32, "sealed": "ef" * 16}
    assert box.open_entry("tableid1", box.seal_entry("tableid1", joined)) == joined
    assert box.open_entry("tableid1", entry) == entry  # written before sealing: as it is


def test_a_tables_secrets_are_sealed_in_redis(redis_url: str,
                                              redis_server: RedisServer) -> None:
    """What Redis keeps of a new table tells neither its seed nor its host digest (nor
    so its invite code); the store reads them back with the key; a journal written
    before sealing loads as it is; a store with another key refuses, in one line."""
    table, host, result = Table.create("tableid1", TableConfig(seats=4), now=1.0)
    legacy, _, legacy_result = Table.create("tableid2", TableConfig(seats=4), now=1.0)

    async def go() -> None:
        store = RedisStore(redis_url)
        store.check()
        summary = {"id": "tableid1", "phase": "lobby"}
        await store.create_table("tableid1", dump(result.journal), summary)
        with redis_server.client() as client:
            stored = json.dumps(client.xrange(journal_key("tableid1")))
            assert client.get(KEY_CHECK) == store.box.check
            # As a server before sealing wrote it: the seed in plain.
            client.hset("gnav:t:tableid2", mapping={"summary": "{}", "phase": "lobby"})
            client.xadd(journal_key("tableid2"),
                        {"e": json.dumps(dump(legacy_result.journal)[0]), "w": ""})
        for secret in (str(table.seed), table.host, invite_code(table.host), host,
                       hash_token(host)):
            assert secret not in stored
        journal = await store.journal("tableid1")
        assert journal is not None
        again = Table.restore(journal)
        assert (again.seed, again.host) == (table.seed, table.host)
        old = await store.journal("tableid2")
        assert old is not None and Table.restore(old).seed == legacy.seed
        await store.close()

        stranger = RedisStore(redis_url, Box(new_key()), "stranger.key")
        with pytest.raises(StoreError, match=r"sealed with another key than this "
                           r"server's \(stranger.key\)"):
            stranger.check()
        with pytest.raises(StoreError, match=r"tableid1 .* sealed with another key"):
            await stranger.journal("tableid1")
        await stranger.close()

    asyncio.run(go())


def test_the_link_between_processes_is_sealed(redis_url: str,
                                               redis_server: RedisServer) -> None:
    """A process's message to another crosses their link sealed: a reader of the
    network (a tap in front of the receiver's link) reads nothing of it, the process it
    is for opens it, and nothing of it crosses Redis. A stranger at the link's port,
    without the key, is cut off at its first frame, and nothing it sent is taken."""
    async def go() -> None:
        box = Box(new_key())
        port = free_port()
        with Tap(port) as tap:
            sender = Cluster(redis_url, Log(), box=box)
            receiver = Cluster(redis_url, Log(), box=box, peer=f"127.0.0.1:{port}",
                               advertise=f"127.0.0.1:{tap.port}")
            got: list[str] = []

            async def answer(m: dict[str, object]) -> None:
                got.append(str(m["a"]))

            receiver._answer = answer  # type: ignore[method-assign]
            with redis_server.client(decode=False) as spy:
                watch = spy.pubsub(ignore_subscribe_messages=True)
                watch.psubscribe("gnav:*")
                await receiver.start(_NoHub())  # type: ignore[arg-type]
                await sender.start(_NoHub())  # type: ignore[arg-type]
                sender.post(receiver.me, {"k": "req", "id": 1, "from": sender.me,
                                          "op": "info", "a": ["a-plain-seat-token"]})
                for _ in range(6000):
                    if got:
                        break
                    await asyncio.sleep(0.01)
                assert got == ["['a-plain-seat-token']"]
                assert watch.get_message(timeout=0.5) is None  # nothing published
                watch.close()
            frames = tap.frames()
            assert len(frames) == 1 and b"a-plain-seat-token" not in tap.heard()
            assert box.open(frames[0], channel(receiver.me).encode()).startswith(
                sender.me.encode() + b" ")

            # A stranger: the sender's frame again, and one sealed with another key.
            for sealed in (Box(new_key()).seal(b"x 1", channel(receiver.me).encode()),
                           b"not sealed at all"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(frame(sealed))
                assert await asyncio.wait_for(reader.read(), 30) == b""  # cut off
                writer.close()
            assert got == ["['a-plain-seat-token']"]
            await sender.close()
            await receiver.close()

    asyncio.run(go())


class _NoHub:
    """A hub with no tables (the link test's processes own nothing)."""

    def lost(self, table_id: str) -> None:
        raise AssertionError(table_id)

    async def adopt(self, table_id: str) -> None:
        raise AssertionError(table_id)


def test_a_wrong_password_is_one_line_without_it(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", locked=True)
    try:
        wrong = server.url.replace(server.password, "not-the-password")
        with pytest.raises(StoreError) as caught:
            open_store(wrong).check()
        text = str(caught.value)
        assert "\n" not in text and "not-the-password" not in text
        assert f"127.0.0.1:{server.port}" in text
        open_store(server.url).check()  # the right one
    finally:
        server.stop()


def test_a_match_through_two_processes_on_a_locked_redis_shows_no_secret(
        tmp_path: Path, servers_key: str) -> None:
    """Redis with TLS only, a password for its admin and an ACL user for gnav limited to
    its keys: two processes play a whole match over it, the people's sockets spread
    over both, while the admin runs ``MONITOR`` and a tap reads the link into one of
    the processes. No seat token, host token, invite code, seed or host digest appears
    in what Redis saw or in what crossed the link; and what the processes say to each
    other crosses the link, never Redis."""
    redis_cli = shutil.which("redis-cli")
    assert redis_cli, "redis-cli is not installed (Debian: apt-get install redis-tools)"
    server = RedisServer(tmp_path / "redis", locked=True)
    capture = tmp_path / "monitor.txt"
    made: dict[str, object] = {}
    link = free_port()
    tap = Tap(link)
    with capture.open("w") as out:
        monitor = subprocess.Popen(
            [redis_cli, "--tls", "--cacert", str(server.ca), "-h", "127.0.0.1", "-p",
             str(server.port), "--user", "default", "--pass", server.admin_password,
             "--no-auth-warning", "monitor"], stdout=out, stderr=subprocess.STDOUT)
    try:
        eventually(lambda: capture.read_text().startswith("OK"), 20)
        with ExitStack() as stack, servers(server.url, tmp_path, extra={1: [
                "--peer", f"127.0.0.1:{link}",
                "--peer-advertise", f"127.0.0.1:{tap.port}"]}) as procs:
            tid, players, links = seat_people(stack, procs, 4, 2, [0, 1, 1, 0, 1],
                                                made=made)
            play(players, random.Random(27))
            assert players[0].phase == "finished"
            health = [s.http.get("/health").json() for s in procs]
            assert sum(h["relayed"] for h in health) >= 1  # sockets crossed processes
            tokens = [str(link.token) for link in links if link.token is not None]
            with server.client() as admin:
                first = json.loads(admin.xrange(journal_key(tid))[0][1]["e"])
        eventually(lambda: f'"{tid}"' in capture.read_text(), 20)
    finally:
        monitor.terminate()
        monitor.wait(timeout=10)
        server.stop()
        tap.close()
    seen = capture.read_text()
    assert seen.count('"XADD"') >= 10  # it saw the match
    assert "PUBLISH" not in seen  # and none of the processes' talk
    crossed = tap.heard()
    # The link carried the match's relayed messages (several a frame: what a few loop
    # turns post goes together, 19 frames in a run here).
    assert len(tap.frames()) >= 10
    created = Box(parse_key(servers_key, "GNAV_KEY")).open_entry(tid, first)
    assert len(tokens) == 4
    secrets = {"seat token": tokens, "host token": [str(made["host_token"])],
               "invite": [str(made["invite"])], "seed": [str(created["seed"])],
               "host digest": [str(created["host"])]}
    for name, values in secrets.items():
        for value in values:
            assert len(value) >= 10 and value not in seen, name
            assert value.encode() not in crossed, name
