"""What a server runs with: address, database, allowed origins and limits."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from gnav.errors import GnavError
from gnav.table import Pace


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased.

    :raises: :exc:`GnavError` if it is not one.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise GnavError(f"origin {url!r} must look like http://host:port")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise GnavError(f"origin {url!r} must not have a path, query or fragment")
    return f"{parts.scheme}://{parts.netloc}".lower()


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def trusted_proxies(value: str) -> tuple[str, ...]:
    """``--forwarded-allow-ips``: addresses or networks, comma-separated (uvicorn's
    spelling).

    :raises: :exc:`GnavError` naming the first that is neither.
    """
    out = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise GnavError(f"--forwarded-allow-ips: {item!r} is not an IP address or "
                            f"network (e.g. 127.0.0.1,10.0.0.0/8)") from None
        out.append(item)
    return tuple(out)


def is_loopback(host: str) -> bool:
    """A name or address of this computer alone."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# Seconds a journal write to Redis waits for others, so that Redis syncs its append-only
# file once for all of them (``gnav.server.resp``; ``gnav serve --redis-window``).
REDIS_WINDOW = 0.005


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "./gnav.sqlite3"
    allow_origins: tuple[str, ...] = ()  # besides the server's own
    public_url: str | None = None  # where people reach the server, if not host:port
    ws_max_bytes: int = 4096  # one WebSocket message
    http_max_bytes: int = 16384  # one HTTP request body
    ws_rate: float = 20.0  # messages per second per connection...
    ws_burst: int = 40  # ...with bursts up to this many
    creates_per_minute: int = 10  # tables per client IP a minute (gnav serve --creates-per-minute)
    hello_timeout: float = 10.0  # seconds a new socket has to say hello
    max_tables: int = 2000  # tables held in memory (idle ones are let go to make room)
    tables_per_client: int = 50  # unfinished tables one address block may hold
    lobby_ttl: float = 86400.0  # seconds an unstarted table stays open
    idle_after: float = 600.0  # seconds before a table nobody is at leaves memory
    sweep_every: float = 60.0  # seconds between looks for expired and idle tables
    finished_cached: int = 1000  # finished tables' info kept to answer reads cheaply
    # Bytes queued for one slow connection before it is cut (it reconnects and catches
    # up from the journal): a few snapshots of the largest table, or hundreds of updates.
    send_backlog: int = 1 << 20
    # Bytes (of text, before compression) an owner keeps waiting for one other process
    # it relays to (``gnav.server.cluster``); past it, the holder's relayed sockets are
    # cut (they reconnect and catch up from the journal) and what waited is let go: a
    # holder that falls behind costs the owner at most this. Replies to forwarded
    # requests never wait behind it. Room for a burst of catch-ups (a snapshot of the
    # largest table is tens of kB: a table's 200 spectators arriving at once).
    link_backlog: int = 8 << 20
    # After each collection of the youngest generation, what survived it is frozen out of
    # the collector's walks (``gnav.server.loopwatch``): the server's survivors are its
    # tables' state, which lives on, and the older generations' walks over them were its
    # longest pauses (one of 0.66 to 0.92 s at 1,000 x 6, freeing 200 objects).
    # ``gnav serve`` turns it on; tests' in-process servers keep the collector as it is.
    freeze_survivors: bool = False
    max_sockets: int = 200  # sockets at one table (seats replace their old socket)
    sockets_per_client: int = 256  # WebSockets one address block may hold open, and open a minute
    costly_per_minute: int = 60  # expensive reads (records, replays, ...) per address
    # Where /odds keeps the tables it makes on demand (None: the user's cache folder).
    odds_dir: str | None = None
    pace: Pace = field(default_factory=Pace)  # how fast bots play (see gnav.table.Pace)
    workers: int = 4  # threads for people's changes at crowded tables
    # A person's change at a table with at most this many sockets runs on the event loop:
    # it is short (one decision, the bots' burst bounded by ``pace``, a few messages),
    # and a hop to a thread and back cost more CPU than the change itself.
    inline_sockets: int = 16
    record_elsewhere: int = 2000  # a match's versions from which its record is built elsewhere
    # Puzzles cut from finished listed matches are added to this JSON-lines file, and
    # /puzzles serves them after the shipped ones (gnav serve --grow-puzzles); None: off.
    grow_puzzles: str | None = None
    # Seconds the hub takes at most to stop after uvicorn's own wait for requests
    # (run.GRACEFUL): within 10 s of a SIGTERM in all, whatever the store is doing.
    shutdown_wait: float = 6.0
    retry_after: float = 1.0  # seconds a timer waits after a failed change
    # Proxies (addresses, networks) whose X-Forwarded-For is believed; from anyone else
    # the header is ignored, and every limit keys on the connecting address.
    forwarded_allow_ips: tuple[str, ...] = ()
    lease: float = 5.0  # seconds a process holds a table of a shared store unrenewed
    # Where a process sharing its tables listens for the others (``gnav.server.peers``),
    # and the address it gives them if not that one.
    peer: str = "127.0.0.1:0"
    peer_advertise: str | None = None
    # uvicorn's limits (see docs/server.md)
    keep_alive: float = 5.0  # seconds an idle HTTP connection stays open
    header_timeout: float = 10.0  # seconds a new connection has to send a whole request head
    max_connections: int = 20000  # connections and requests at once; beyond: 503

    @property
    def base_url(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        return f"http://{url_host(self.host)}:{self.port}"

    @property
    def loopback_only(self) -> bool:
        """Whether the links handed out name this computer (127.0.0.1, localhost, ::1):
        they work on it alone."""
        return is_loopback(urlsplit(self.base_url).hostname or "")

    @property
    def origins(self) -> frozenset[str]:
        """Origins whose pages may open a WebSocket: the server's own and the
        loopback names of its port, plus ``--allow-origin``."""
        own = {self.base_url, f"http://{url_host(self.host)}:{self.port}",
               f"http://localhost:{self.port}", f"http://127.0.0.1:{self.port}",
               f"http://[::1]:{self.port}"}
        return frozenset(origin_of(o) for o in (*own, *self.allow_origins))
