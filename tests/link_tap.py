"""A tap on the link between two server processes (``gnav.server.peers``): a TCP
forwarder on a free loopback port that a process advertises (``--peer-advertise``) in
front of its real link, keeping every byte that comes in for it, so that a test reads
what crossed as a reader of the network would."""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType

from gnav.server.peers import LENGTH


class Tap:
    """Forwards connections on ``port`` to ``target`` (a port of 127.0.0.1), both ways,
    and keeps what came in (``heard``) by connection."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._heard: list[bytearray] = []
        self._open: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self) -> Tap:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for s in self._open:
                s.close()

    def heard(self) -> bytes:
        with self._lock:
            return b"".join(bytes(b) for b in self._heard)

    def frames(self) -> list[bytes]:
        """Every whole frame that came in, connection by connection, in order."""
        with self._lock:
            streams = [bytes(b) for b in self._heard]
        out = []
        for data in streams:
            at = 0
            while at + LENGTH.size <= len(data):
                (size,) = LENGTH.unpack_from(data, at)
                if at + LENGTH.size + size > len(data):
                    break
                out.append(data[at + LENGTH.size:at + LENGTH.size + size])
                at += LENGTH.size + size
        return out

    def _accept(self) -> None:
        while not self._closed:
            try:
                inside, _ = self._listener.accept()
            except OSError:
                return
            try:
                outside = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                inside.close()
                continue
            outside.settimeout(None)
            kept = bytearray()
            with self._lock:
                self._heard.append(kept)
                self._open += [inside, outside]
            threading.Thread(target=self._pump, args=(inside, outside, kept),
                             daemon=True).start()
            threading.Thread(target=self._pump, args=(outside, inside, None),
                             daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, kept: bytearray | None) -> None:
        try:
            while data := src.recv(65536):
                if kept is not None:
                    with self._lock:
                        kept += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
