"""``gnav serve``: bind, print the URL, run uvicorn until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import gc
import socket
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from gnav.errors import GnavError
from gnav.server import logs
from gnav.server.app import create_app
from gnav.server.peers import join_address, parse_address
from gnav.server.settings import Settings, origin_of, trusted_proxies
from gnav.server.stores import open_store
from gnav.server.workers import supervise

# Frames above this are cut by the protocol layer (close 1009) before the application
# reads them; between the application's limit and this one, it answers with an error.
WS_PROTOCOL_MAX = 65536
# Seconds uvicorn waits, after a SIGTERM, for requests under way, before the hub's own
# bounded stop (``Settings.shutdown_wait``): the two within 10 s.
GRACEFUL = 3


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the server runs so a taken port is a
    one-line error and ``--port 0`` can pick a free one."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise GnavError(f"--host {host!r}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        raise GnavError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    return sock


EVERY_INTERFACE = ("0.0.0.0", "::")


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (the interface its default route
    leaves by): where others at home reach it. Connecting a UDP socket sends nothing;
    192.0.2.1 is a documentation address, never contacted. None without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def peer_addresses(host: str, peer: str | None, advertise: str | None,
                   workers: int) -> tuple[str, str | None]:
    """``--peer`` and ``--peer-advertise`` checked, with their defaults: the link
    listens on ``--host`` at any free port, and a server on every interface gives the
    others its network address.

    :raises: :exc:`GnavError` naming the option that is wrong.
    """
    listen_host, listen_port = parse_address(peer) if peer is not None else (host, 0)
    if advertise is not None:
        a_host, a_port = parse_address(advertise, "--peer-advertise")
        if a_host in EVERY_INTERFACE or a_port == 0:
            raise GnavError(f"--peer-advertise: {advertise!r} is no address another "
                            f"server can reach (give a host and a port)")
        if workers > 1:
            raise GnavError("--peer-advertise names one address: not with --workers")
    elif listen_host in EVERY_INTERFACE:
        lan = lan_address()
        if lan is None:
            raise GnavError(f"--peer {join_address(listen_host, listen_port)}: this "
                            f"machine has no network address to give the other servers; "
                            f"pass --peer-advertise HOST:PORT")
        advertise = join_address(lan, listen_port)  # port 0: the one bound
    if workers > 1 and listen_port:
        raise GnavError("--peer with --workers: give port 0 (each worker listens on a "
                        "free port of its own)")
    return join_address(listen_host, listen_port), advertise


def public_url_for(host: str, port: int, public_url: str | None) -> str | None:
    """The base of the links the server hands out: ``--public-url``, else, listening on
    every interface, this machine's address on its network (``http://0.0.0.0:PORT``
    works for nobody, and friends' pages from the address they typed are refused their
    WebSocket unless it is the server's own origin); else None (``http://HOST:PORT``)."""
    if public_url is not None or host not in EVERY_INTERFACE:
        return public_url
    address = lan_address()
    return None if address is None else f"http://{address}:{port}"


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head and body.

    uvicorn times out a connection only after a response (keep-alive): one that never
    sends a request, or sends half of one, stays open for ever. This one is closed if
    the client has not finished sending its request within ``request_timeout`` seconds
    of connecting, or of the last response. A WebSocket, once upgraded, belongs to
    another protocol and is never touched."""

    request_timeout = 10.0
    _request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._request_timer is not None:
            self._request_timer.cancel()

    def _arm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
        self._request_timer = self.loop.call_later(self.request_timeout, self._expire)

    def _expire(self) -> None:
        self._request_timer = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed already, or a WebSocket now
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            transport.close()  # no whole request came in time


def uvicorn_config(app: ASGIApp, settings: Settings, **extra: Any) -> uvicorn.Config:
    """uvicorn with the limits of docs/server.md: keep-alive, a deadline for each
    request, and a cap on connections and requests at once (beyond it, 503)."""
    protocol = type("GuardedH11", (GuardedH11,), {"request_timeout": settings.header_timeout})
    return uvicorn.Config(app, log_config=None, access_log=False, lifespan="on",
                          ws_max_size=WS_PROTOCOL_MAX, timeout_graceful_shutdown=GRACEFUL,
                          proxy_headers=False, server_header=False, http=protocol,
                          timeout_keep_alive=int(settings.keep_alive),
                          limit_concurrency=settings.max_connections,
                          ws_ping_interval=20.0, ws_ping_timeout=20.0, **extra)


def serve(host: str, port: int, where: str, allow_origins: list[str],
          public_url: str | None, *, creates_per_minute: int = Settings.creates_per_minute,
          tables_per_client: int = Settings.tables_per_client,
          sockets_per_client: int = Settings.sockets_per_client,
          costly_per_minute: int = Settings.costly_per_minute, workers: int = 1,
          forwarded_allow_ips: str = "", odds_dir: str | None = None,
          grow_puzzles: str | None = None, key_file: str | None = None,
          peer: str | None = None, peer_advertise: str | None = None,
          redis_window_ms: float | None = None) -> int:
    if not 0 <= port <= 65535:
        raise GnavError(f"--port must be 0 to 65535, not {port}")
    if creates_per_minute < 1:
        raise GnavError(f"--creates-per-minute must be at least 1, not {creates_per_minute}")
    if tables_per_client < 1:
        raise GnavError(f"--tables-per-client must be at least 1, not {tables_per_client}")
    if sockets_per_client < 1:
        raise GnavError(f"--sockets-per-client must be at least 1, not {sockets_per_client}")
    if costly_per_minute < 1:
        raise GnavError(f"--costly-per-minute must be at least 1, not {costly_per_minute}")
    if redis_window_ms is not None and not 0 <= redis_window_ms <= 100:
        raise GnavError(f"--redis-window must be 0 to 100 ms, not {redis_window_ms}")
    if not 1 <= workers <= 256:
        raise GnavError(f"--workers must be 1 to 256, not {workers}")
    if workers > 1 and not where.startswith(("redis://", "rediss://", "unix://")):
        raise GnavError(f"--workers {workers} needs a store the processes can share: "
                        f"--store redis://HOST:PORT/DB")
    peer, peer_advertise = peer_addresses(host, peer, peer_advertise, workers)
    proxies = trusted_proxies(forwarded_allow_ips)
    origins = tuple(origin_of(o) for o in allow_origins)
    if public_url is not None:
        origin_of(public_url)  # a base URL: scheme and host, nothing after
    sock = bind(host, port)  # first: a taken port leaves no database file behind
    try:
        store = open_store(where, key_file,
                           None if redis_window_ms is None else redis_window_ms / 1000)
        store.check()  # reachable now, or one line and no server
    except GnavError:
        sock.close()
        raise
    port = sock.getsockname()[1]
    given = public_url
    public_url = public_url_for(host, port, public_url)
    settings = Settings(host=host, port=port, db=where, allow_origins=origins,
                        public_url=public_url, creates_per_minute=creates_per_minute,
                        tables_per_client=tables_per_client,
                        sockets_per_client=sockets_per_client,
                        costly_per_minute=costly_per_minute, forwarded_allow_ips=proxies,
                         odds_dir=odds_dir, grow_puzzles=grow_puzzles, peer=peer,
                         peer_advertise=peer_advertise, freeze_survivors=True)
    logs.setup()
    if store.created:
        logs.Log().warning("store.created", db=where, note="no database was there: a new, "
                           "empty one was made")
    # Thousands of sockets keep about a million long-lived objects (uvicorn, websockets,
    # asyncio) that full collections walk and never free: measured pauses of 16 to 870 ms
    # under load. Everything made at start-up is frozen out of collection, and so is what
    # survives each young collection from then on (Settings.freeze_survivors, done by the
    # loop watch): at 1,000 x 6 at people's pace the older generations' walks paused the
    # loop up to 0.92 s and freed 712 objects a run. With only the young ever walked, a
    # young collection every 3,000 objects made keeps each walk short (docs/server.md,
    # the server's own pauses).
    gc.freeze()
    gc.set_threshold(3_000, 20, 1000)
    # The GIL's switch interval stays at Python's 5 ms: 1 ms was tried for bots' bursts on
    # threads, but bursts now run on the event loop, and at 1,000 tables the extra
    # switching raised the p99 from 30 ms to 260-340 ms (docs/server.md, load figures).
    print(f"gnav serve: open {settings.base_url}/  (API {settings.base_url}/api/tables, "
          f"docs {settings.base_url}/openapi.json; Ctrl-C stops)", flush=True)
    if host in EVERY_INTERFACE and given is None:
        print(f"gnav serve: listening on every interface; links say {settings.base_url}/, "
              f"this machine on its network (--public-url URL for another address, e.g. "
              f"behind a reverse proxy)" if public_url else "gnav serve: listening on "
              "every interface; pass --public-url so that links work for others",
              flush=True)
    elif settings.loopback_only:
        print(f"gnav serve: listening on this computer only ({host}): links work here "
              f"alone; to play with friends, --host 0.0.0.0 (README: Play with friends)",
              flush=True)

    def run_one() -> int:
        server = uvicorn.Server(uvicorn_config(create_app(settings, store), settings))
        server.run(sockets=[sock])
        return 0 if server.started else 1

    if workers == 1:
        return run_one()
    # Each worker makes its own app, hub and Redis connections after the fork (the
    # store's client connects on first use, in the worker's own event loop).
    return supervise(workers, run_one, logs.Log())

