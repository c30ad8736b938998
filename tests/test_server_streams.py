"""The payloads between server processes: public lines through one deflate stream a
pair of processes, the rest as they are; a chunk missed breaks the stream (never read
against a window that lacks it) until a new one; a chunk published twice is skipped."""

from __future__ import annotations

import json

import pytest

from gnav.server.streams import Packer, Unpacker, public


def update(n: int, seats: str = "-") -> str:
    """A relayed table message of the kind spectators get (its view repeats itself)."""
    view = {"type": "update", "version": n, "events": [{"type": "stand",
                                                        "seat": f"Random bot {n % 12}"}],
            "view": {"order": [f"Random bot {i}" for i in range(12)],
                     "lives": {f"Random bot {i}": 3 for i in range(12)}}}
    return f"towner {n} tableid1 {seats} {json.dumps(view)}"


def test_which_lines_are_public() -> None:
    assert public(update(1)) and public(update(1, "0,2,-")) and public("wowner 1 cid {}")
    several = "Towner 1 tableid1 {}\x1f{{\"a\":1}}\x1e0\x1f{{\"b\":2}}"  # (the first's seats)
    assert public(several.format("0,-")) and public(several.format("-"))
    for private in (update(1, "0"), update(1, "0,2"), "sowner 1 cid {}", "oowner 2 cid",
                    '{"k":"req","a":["a-seat-token"]}', several.format("0,2"),
                    "apeer 7 12 cid1 stand", "r9"):
        assert not public(private)


def test_public_lines_cross_through_one_stream_and_the_rest_as_they_are() -> None:
    packer, unpacker = Packer(), Unpacker()
    for n in range(1, 41):
        lines = [update(n), update(n, "3"), '{"k":"rep","id":1,"r":["a-seat-token"]}',
                 update(n, "0,3,-")]
        payload = packer.pack(lines)
        assert unpacker.unpack(payload) == (lines, False)
        assert b"a-seat-token" in payload and update(n, "3").encode() in payload
        assert update(n).encode() not in payload  # public: compressed
    spectators = Packer()
    raw = sum(len(update(n)) for n in range(1, 41))
    packed = sum(len(spectators.pack([update(n)])) for n in range(1, 41))
    assert packed * 8 < raw  # the stream remembers: far smaller than one at a time


def test_a_missed_chunk_breaks_the_stream_until_a_new_one() -> None:
    packer, unpacker = Packer(), Unpacker()
    first = packer.pack([update(1)])
    assert unpacker.unpack(first) == ([update(1)], False)
    assert unpacker.unpack(first) == ([], False)  # published twice: skipped
    packer.pack([update(2)])  # lost on the way
    third = packer.pack([update(3), "sowner 4 cid private"])
    assert unpacker.unpack(third) == (["sowner 4 cid private"], True)  # plain still read
    assert unpacker.unpack(packer.pack([update(5)])) == ([], True)  # never inflated
    packer.reset()
    assert unpacker.unpack(packer.pack([update(6)])) == ([update(6)], False)
    stale = Packer()  # the first stream's chunk, published again after the new one
    assert unpacker.unpack(stale.pack([update(1)])) == ([], False)

    unpacker.forget()  # the channel was down: chunks may have been missed
    assert unpacker.unpack(packer.pack([update(7)])) == ([], True)
    packer.reset()
    assert unpacker.unpack(packer.pack([update(8)])) == ([update(8)], False)


def test_a_payload_it_did_not_make_is_refused() -> None:
    unpacker = Unpacker()
    for bad in (b"x\x00\x00\x00\x01a", b"p\x00\x00\x00\x09short", b"z\x00\x00\x00\x02ab",
                b"p\x00"):
        with pytest.raises(ValueError):
            unpacker.unpack(bad)
    junk = Unpacker()
    chunk = b"\x00\x00\x00\x01\x00\x00\x00\x01not deflate"
    assert junk.unpack(b"z" + len(chunk).to_bytes(4, "big") + chunk) == ([], True)
