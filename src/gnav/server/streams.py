"""What one server process publishes to another, as bytes: its lines in segments, and
what anyone watching the table may see through one deflate stream per pair of
processes.

A table's messages for its spectators (and news for everyone) repeat themselves from
one to the next: the table's description, the names, the order. Compressed one batch
at a time they shrink 3.6 times (a lone 12-seat update) to 11 times (five at once);
through a stream that remembers what it sent before, 21 times one at a time (measured
on 400 spectator updates of a 12-seat table, zlib level 1). So an owner keeps a deflate
stream for each process it relays to, and the holder the matching inflater.

Only public lines go through it (``public``): what spectators see, and their own
catch-ups. A seat's own view, a request and a reply (tokens, invite codes) go as they
are, never compressed beside other text: the sealed size of a compressed secret next to
text someone else chose would tell something of it.

A stream needs every chunk, in order: each carries its stream's number (``epoch``) and
its own (``seq``), outside the compressed bytes, and the holder inflates a chunk only if
it is the next one. A chunk missed (pub/sub dropped it, a publish failed) breaks the
stream: its chunks are dropped from then on, never inflated against a window that lacks
what came before (which would make wrong text); the holder closes its sockets relayed
from that owner, as for any lost message, and asks for a new stream (``Unpacker.broken``),
and the owner starts one (``Packer.reset``). A chunk published twice (a retry) is
skipped.

Payload: segments, each a kind byte, its length (4 bytes) and its body. ``p``: lines as
they are. ``z``: epoch (4 bytes), seq (4 bytes), then the stream's bytes for its lines.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

_HEAD = struct.Struct(">cI")
_CHUNK = struct.Struct(">II")


def public(line: str) -> bool:
    """Whether a line to a holder is what any spectator may see: a spectator's own
    catch-up (``w``), or a table's message (or messages: ``T``) whose seats include the
    spectators (``-``)."""
    if line[:1] == "w":
        return True
    if line[:1] == "T":  # several, all public or none (``Cluster.fan_all``): the first's
        parts = line.split(" ", 3)
        return len(parts) > 3 and "-" in parts[3].partition("\x1f")[0].split(",")
    if line[:1] != "t":
        return False
    parts = line.split(" ", 4)
    return len(parts) > 3 and "-" in parts[3].split(",")


@dataclass
class Packer:
    """The owner's side for one holder: its deflate stream."""

    epoch: int = 1
    seq: int = 0
    _deflate: zlib._Compress = field(default_factory=lambda: zlib.compressobj(1))

    def reset(self) -> None:
        """A new stream (the holder lost the old one's chunks, or a publish failed)."""
        self.epoch, self.seq, self._deflate = self.epoch + 1, 0, zlib.compressobj(1)

    def pack(self, lines: list[str]) -> bytes:
        """``lines`` as one payload, in order: runs of public lines through the stream,
        the others as they are."""
        out = bytearray()
        run: list[str] = []
        kind = ""
        for line in [*lines, ""]:
            now = "z" if line and public(line) else "p"
            if run and (now != kind or not line):
                body = "\n".join(run).encode()
                if kind == "z":
                    self.seq += 1
                    body = (_CHUNK.pack(self.epoch, self.seq) + self._deflate.compress(body)
                            + self._deflate.flush(zlib.Z_SYNC_FLUSH))
                out += _HEAD.pack(kind.encode(), len(body)) + body
                run = []
            kind = now
            run.append(line)
        return bytes(out)


@dataclass
class Unpacker:
    """The holder's side for one owner: the inflater of its stream."""

    epoch: int = 0  # 0: none yet (or the channel was down): only a new stream's first
    seq: int = 0
    lost: bool = False  # the stream ``epoch`` missed a chunk: the rest of it is dropped
    _inflate: zlib._Decompress = field(default_factory=zlib.decompressobj)

    def unpack(self, payload: bytes) -> tuple[list[str], bool]:
        """The lines of ``payload`` that can be read, in order, and whether a chunk of
        the stream was missed (then the caller closes what it relays from this owner
        and asks it for a new stream).

        :raises: :exc:`ValueError` for a payload ``Packer.pack`` did not make.
        """
        lines: list[str] = []
        missed = False
        at = 0
        while at < len(payload):
            if at + _HEAD.size > len(payload):
                raise ValueError("a payload cut short")
            kind, size = _HEAD.unpack_from(payload, at)
            body = payload[at + _HEAD.size:at + _HEAD.size + size]
            at += _HEAD.size + size
            if len(body) != size:
                raise ValueError("a payload cut short")
            if kind == b"p":
                lines += body.decode().split("\n")
            elif kind == b"z":
                text = self._chunk(body)
                if text is None:
                    missed = missed or self.lost
                else:
                    lines += text.split("\n")
            else:
                raise ValueError(f"a segment of unknown kind {kind!r}")
        return lines, missed

    def _chunk(self, body: bytes) -> str | None:
        """The chunk's text, or None: published twice, or of a stream that lost one."""
        if len(body) < _CHUNK.size:
            raise ValueError("a chunk without its numbers")
        epoch, seq = _CHUNK.unpack_from(body)
        if epoch < self.epoch:  # an old stream's, published again: long replaced
            return None
        if epoch != self.epoch:
            if seq != 1:  # a stream begun before this holder heard of it: unreadable
                self.epoch, self.lost = epoch, True
                return None
            self.epoch, self.seq, self.lost = epoch, 0, False
            self._inflate = zlib.decompressobj()
        if self.lost:
            return None
        if seq <= self.seq:  # published twice (retried after its reply was lost)
            return None
        if seq != self.seq + 1:
            self.lost = True
            return None
        self.seq = seq
        try:
            return self._inflate.decompress(body[_CHUNK.size:]).decode()
        except (zlib.error, UnicodeDecodeError):
            self.lost = True
            return None

    def forget(self) -> None:
        """The channel was down: chunks may have been missed; only a new stream reads."""
        self.epoch, self.seq, self.lost = 0, 0, False
