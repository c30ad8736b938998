"""What a server runs with: address, database, allowed origins and limits."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from gnav.errors import GnavError


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased; GnavError if it is not one."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise GnavError(f"origin {url!r} must look like http://host:port")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise GnavError(f"origin {url!r} must not have a path, query or fragment")
    return f"{parts.scheme}://{parts.netloc}".lower()


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


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
    max_tables: int = 2000  # unfinished tables held at once
    send_backlog: int = 2000  # messages queued for one slow connection before it is cut
    max_sockets: int = 200  # sockets at one table (seats replace their old socket)

    @property
    def base_url(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        return f"http://{url_host(self.host)}:{self.port}"

    @property
    def origins(self) -> frozenset[str]:
        """Origins whose pages may open a WebSocket: the server's own and the
        loopback names of its port, plus ``--allow-origin``."""
        own = {self.base_url, f"http://{url_host(self.host)}:{self.port}",
               f"http://localhost:{self.port}", f"http://127.0.0.1:{self.port}",
               f"http://[::1]:{self.port}"}
        return frozenset(origin_of(o) for o in (*own, *self.allow_origins))
