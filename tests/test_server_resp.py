"""The journal's pipelined connection to Redis (``gnav.server.resp``): replies matched in
order, redis-py's errors, a script Redis forgot, a connection that goes silent, writes
sent together within their window (to share Redis's fsync)."""

from __future__ import annotations

import asyncio

import pytest
import redis.exceptions as rerr

from gnav.server import resp
from gnav.server.resp import Incomplete, Pipe, pack, parse
from redis_kit import RedisServer


def test_replies_are_read_whole_or_not_at_all() -> None:
    text = b"*3\r\n:7\r\n$6\r\nh\xc3\xa6llo\r\n*2\r\n+OK\r\n$-1\r\n"
    reply, at = parse(bytearray(text), 0)
    assert reply == [7, "h\u00e6llo", ["OK", None]] and at == len(text)
    for cut in range(1, len(text)):  # every prefix waits for the rest
        with pytest.raises(Incomplete):
            parse(bytearray(text[:cut]), 0)
    error, _ = parse(bytearray(b"-NOSCRIPT No matching script.\r\n"), 0)
    assert isinstance(error, rerr.NoScriptError)
    error, _ = parse(bytearray(b"-OOM command not allowed\r\n"), 0)
    assert isinstance(error, rerr.OutOfMemoryError)
    with pytest.raises(ValueError):
        parse(bytearray(b"?what\r\n"), 0)
    assert pack(("GET", "k\u00e6")) == b"*2\r\n$3\r\nGET\r\n$3\r\nk\xc3\xa6\r\n"
    # ASCII text (the journal's writes) is put together as text, encoded once: the same
    # bytes as each argument encoded apart; bytes and other text take the long way.
    args = ("EVALSHA", "f" * 40, "1", "gnav:t:x", "", '{"a":"b c"}', "1764912345-0")
    assert pack(args) == b"".join([b"*7\r\n", *(b"$%d\r\n%s\r\n" % (len(a), a.encode())
                                                  for a in args)])
    assert pack(("SET", "k", b"v\x00\xff")) == b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv\x00\xff\r\n"


def test_writes_at_once_get_their_own_replies(redis_url: str,
                                              redis_server: RedisServer) -> None:
    """Hundreds of scripts in flight on the one connection, each answered with its own
    reply; a script Redis has forgotten is sent again whole; an error is redis-py's."""
    script = "redis.call('SET', KEYS[1], ARGV[1]); return {tonumber(ARGV[1]), KEYS[1]}"

    async def go() -> None:
        pipe = Pipe(redis_url)
        replies = await asyncio.gather(*(pipe.eval(script, [f"gnav:k{i}"], [str(i)])
                                         for i in range(300)))
        assert replies == [[i, f"gnav:k{i}"] for i in range(300)]
        with redis_server.client() as client:
            assert client.get("gnav:k299") == "299"
            client.script_flush()
        assert await pipe.eval(script, ["gnav:again"], ["5"]) == [5, "gnav:again"]
        with pytest.raises(rerr.ResponseError, match="GNAV_TEST"):
            await pipe.eval("return redis.error_reply('GNAV_TEST')", [], [])
        assert await pipe.call("PING") == "PONG"  # the connection lives on
        await pipe.close()

    asyncio.run(go())


def test_writes_within_the_window_go_out_in_one_write(redis_url: str) -> None:
    """Writes asked for within the window are written to the socket at once (Redis reads
    them in one turn and syncs its file once), each still answered with its own reply;
    a batch that fills goes out without waiting for the window's end."""

    async def go() -> None:
        pipe = Pipe(redis_url, window=0)  # connected, its first write sent at once
        assert await pipe.call("PING") == "PONG" and pipe.batches == 1
        pipe.window = 0.5
        replies = await asyncio.wait_for(asyncio.gather(
            *(pipe.call("INCRBY", "gnav:grouped", str(i)) for i in range(1, 8))), 30.0)
        assert replies == [1, 3, 6, 10, 15, 21, 28]  # in order, one write for the seven
        assert pipe.batches == 2
        pipe.window, pipe.batch = 3600.0, 5  # a full batch does not wait an hour
        replies = await asyncio.wait_for(asyncio.gather(
            *(pipe.call("INCRBY", "gnav:grouped", "1") for _ in range(5))), 30.0)
        assert replies == [29, 30, 31, 32, 33] and pipe.batches == 3
        await pipe.close()

    asyncio.run(go())


def test_a_lone_write_waits_its_window_and_no_more(redis_url: str) -> None:
    async def go() -> None:
        pipe = Pipe(redis_url, window=0)
        await pipe.call("PING")
        pipe.window = 0.25
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await asyncio.wait_for(pipe.call("SET", "gnav:lone", "1"), 10.0) == "OK"
        assert loop.time() - start >= 0.25 * 0.9  # held for company (the timer's grain)
        assert pipe.batches == 2
        await pipe.close()

    asyncio.run(go())


def test_writes_waiting_for_their_window_are_sent_again_after_a_cut(redis_url: str) -> None:
    """The connection breaks while writes wait to be sent: each is sent again on a new
    one (after its own jittered pause, as redis-py's retries: so in any order) and
    answered once, with its own reply."""

    async def go() -> None:
        pipe = Pipe(redis_url, window=0)
        await pipe.call("DEL", "gnav:cut")
        pipe.window = 0.2
        writes = [asyncio.ensure_future(pipe.call("RPUSH", "gnav:cut", str(i)))
                  for i in range(4)]
        conn = pipe._conn
        assert conn is not None
        end = asyncio.get_running_loop().time() + 10.0
        while len(conn.queued) < 4:  # every write waiting in the window
            assert asyncio.get_running_loop().time() < end
            await asyncio.sleep(0.001)
        assert conn.transport is not None
        conn.transport.abort()
        lengths = await asyncio.wait_for(asyncio.gather(*writes), 30.0)
        stored = await pipe.call("LRANGE", "gnav:cut", "0", "-1")
        assert sorted(lengths) == [1, 2, 3, 4]  # each pushed once...
        assert [stored[n - 1] for n in lengths] == ["0", "1", "2", "3"]  # ...its own reply
        assert pipe._conn is not conn
        await pipe.close()

    asyncio.run(go())


def test_the_database_of_the_url_is_the_one_written(redis_server: RedisServer) -> None:
    async def go() -> None:
        pipe = Pipe(f"redis://127.0.0.1:{redis_server.port}/3")
        assert await pipe.call("SET", "gnav:in3", "yes") == "OK"
        await pipe.close()

    asyncio.run(go())
    with redis_server.client() as client:
        client.execute_command("SELECT", "3")
        assert client.get("gnav:in3") == "yes"
        client.delete("gnav:in3")


def test_a_silent_connection_is_given_up_and_tried_again(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A Redis that takes the write and never answers: after ``timeout`` the connection
    is dropped and the write sent on a new one, and after the last try the caller gets
    redis-py's TimeoutError."""
    monkeypatch.setattr(resp, "TRIES", 2)
    connections: list[asyncio.StreamWriter] = []

    async def go() -> None:
        async def mute(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connections.append(writer)

        server = await asyncio.start_server(mute, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        pipe = Pipe(f"redis://127.0.0.1:{port}/0", timeout=0.2)
        with pytest.raises(rerr.TimeoutError):
            await asyncio.wait_for(pipe.call("PING"), 30.0)
        assert len(connections) == 2  # one a try
        await pipe.close()
        server.close()

    asyncio.run(go())


def test_only_plain_connections_are_piped() -> None:
    assert Pipe.usable("redis://127.0.0.1:6379/0")
    assert Pipe.usable("unix:///tmp/redis.sock?db=1")
    assert not Pipe.usable("rediss://127.0.0.1:6379/0")
