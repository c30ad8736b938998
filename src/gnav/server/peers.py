"""The links between server processes: one TCP connection each way between two processes
that share tables, carrying sealed frames.

Through Redis's pub/sub every relayed message was a command to Redis and a push back
out of it: Redis's CPU and traffic, redis-py's packing and parsing on both sides, a
round trip per batch (measured at people's pace: two processes cost 1.65 times one
process's CPU per action, and spectators through the other process 1.5 to 1.9 times the
owner's Redis traffic). A direct link costs a write and a read, and Redis carries only
the tables' state.

A process listens on its peer address (``gnav serve --peer``) and says where in its
liveness key (``gnav:alive:ID``), which it renews with its leases. A frame is its
length (4 bytes, big-endian) and a payload sealed with the servers' key
(``gnav.server.sealing``) for the receiving process alone: whoever reaches the port
without the key can send nothing that opens, and reads nothing. A connection is
ordered and loses nothing while it lasts; when it breaks, what was in flight is lost,
and both sides treat it as the channel down: the cluster closes the relayed sockets
(their clients reconnect and catch up from the journal) and answers the waiting
requests at once.
"""

from __future__ import annotations

import asyncio
import struct

from gnav.errors import GnavError

LENGTH = struct.Struct(">I")
# A frame's most: a batch is cut at BATCH_BYTES of text (a 41-seat snapshot is tens of
# kB), so this bounds only what a stranger can make a process allocate before the seal
# refuses it.
MAX_FRAME = 32 << 20
BATCH_BYTES = 4 << 20
# A connection must open with a frame this fast, or it is closed (a stranger that says
# nothing holds no task for long).
FIRST_FRAME = 10.0


class PeerGone(Exception):
    """The peer cannot be reached: it says no address, or its address refuses."""


def frame(payload: bytes) -> bytes:
    return LENGTH.pack(len(payload)) + payload


async def read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """The next frame's payload; None at the end of the stream.

    :raises: :exc:`ValueError` for a frame over ``MAX_FRAME``;
        :exc:`asyncio.IncompleteReadError` for a stream cut inside a frame.
    """
    try:
        head = await reader.readexactly(LENGTH.size)
    except asyncio.IncompleteReadError as e:
        if e.partial:
            raise
        return None
    (size,) = LENGTH.unpack(head)
    if size > MAX_FRAME:
        raise ValueError(f"a frame of {size} bytes (at most {MAX_FRAME})")
    return await reader.readexactly(size)


def parse_address(text: str, where: str = "--peer") -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6) as a host and a port.

    :raises: :exc:`GnavError` naming ``where``.
    """
    host, sep, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise GnavError(f"{where}: {text!r} is not HOST:PORT (e.g. 10.0.0.6:7001)")
    return host, int(port)


def join_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
