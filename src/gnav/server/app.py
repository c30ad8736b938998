"""The application: routes, middleware and the hub's lifetime."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import WebSocketRoute
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from gnav.server.api import Api
from gnav.server.hub import Hub
from gnav.server.logs import Log
from gnav.server.loopwatch import LoopWatch
from gnav.server.security import Costly
from gnav.server.settings import Settings
from gnav.server.store import Store
from gnav.server.ws import Sockets
from gnav.web import static_routes
from gnav.web.routes import page_not_found


def create_app(settings: Settings, store: Store, *, clock: Callable[[], float] = time.time,
               log: Log | None = None) -> Starlette:
    """The server over ``store``. ``clock`` is the tables' time (wall-clock seconds:
    deadlines are stored and must survive a restart); tests may move it."""
    log = log or Log()
    cluster = None
    if store.shared:  # other processes may serve the same tables
        from gnav.server.cluster import Cluster
        from gnav.server.redis_store import RedisStore

        assert isinstance(store, RedisStore)
        store.lease_ms = int(settings.lease * 1000)
        cluster = Cluster(store.url, log, settings.lease, store.last_ids, store.box,
                          peer=settings.peer, advertise=settings.peer_advertise,
                          backlog=settings.link_backlog)
    hub = Hub(store, settings, log, clock, cluster)
    watch = LoopWatch(freeze_survivors=settings.freeze_survivors)
    api = Api(hub, settings, log, watch)
    sockets = Sockets(hub, settings, log)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.open()
        watch.start()
        try:
            yield
        finally:
            await watch.stop()
            await hub.close()

    # CORS lets pages on the allowed origins call the HTTP API; it does not apply to
    # WebSockets, whose Origin the socket endpoint checks itself.
    cors = Middleware(CORSMiddleware, allow_origins=sorted(settings.origins),
                      allow_methods=["GET", "POST", "DELETE"],
                      allow_headers=["Authorization", "Content-Type", "Idempotency-Key"])
    # Reads that cost the server far more than the asker: a record (up to 2 MB), a
    # replay (ten times its record), a table's info or the rules (cheap unless the
    # table must be loaded from the store).
    n = settings.costly_per_minute
    costly = Middleware(Costly, routes=[
        ("POST", re.compile(r"/api/replay"), max(1, n // 10)),  # seconds of CPU each
        # An analysis: up to 200 sampled decisions in one worker process (a minute of
        # one core at 41 seats at most, docs/odds.md).
        ("POST", re.compile(r"/api/analyse"), max(1, n // 10)),
        # The coach: once per decision is a lookup or at most 8192 deals (under half a
        # second of one core at 41 seats); asking again is a lookup (the answer is
        # kept), so the cap is only against a flood.
        ("POST", re.compile(r"/api/tables/[^/]+/seats/[^/]+/coach"), 10 * n),
        ("GET", re.compile(r"/api/tables/[^/]+/record"), n),
        ("GET", re.compile(r"/api/tables/[^/]+"), 10 * n),
        ("GET", re.compile(r"/api/rules"), 10 * n),
        # An odds table made on demand: seconds of a core in a process of its own (one
        # at a time on the machine); asking how far it is (GET) is a file read.
        ("POST", re.compile(r"/api/odds"), max(1, n // 10)),
    ], clock=time.monotonic)
    odds_dir = Path(settings.odds_dir) if settings.odds_dir else None
    routes = [*api.routes(), WebSocketRoute("/ws/{table_id}", sockets.endpoint),
              *static_routes(odds_dir)]
    handlers = api.handlers()
    handlers[404] = page_not_found(handlers[HTTPException])  # a person gets a page
    # Behind a reverse proxy: the client's address as the trusted proxy reports it, so
    # that per-address limits, logs and caps see people, not the proxy. The header is
    # believed from those addresses only (uvicorn's own middleware, its rules).
    proxies = [Middleware(ProxyHeadersMiddleware,
                          trusted_hosts=list(settings.forwarded_allow_ips))
               ] if settings.forwarded_allow_ips else []
    app = Starlette(routes=routes, middleware=[*proxies, cors, costly],
                    exception_handlers=handlers, lifespan=lifespan)
    app.state.hub = hub
    app.state.grow_puzzles = settings.grow_puzzles  # /api/puzzles serves them too
    return app
