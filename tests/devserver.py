"""A table server with the browser client, in a thread: for the browser tests and the
pictures of ``tools/*shots.py``. Test code, not part of the installed package (``gnav
serve`` runs the same application in the foreground).

It is ``gnav serve``'s application with the client's routes added if the server does
not carry them yet, on a free port of 127.0.0.1 and a database of its own.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from gnav.server.app import create_app
from gnav.server.run import WS_PROTOCOL_MAX, bind
from gnav.server.settings import Settings
from gnav.server.store import SQLiteStore
from gnav.web import static_routes


def with_client(app: Starlette) -> Starlette:
    """``app`` serving the client: its routes are added unless the server has them."""
    paths = {getattr(r, "path", None) for r in app.router.routes}
    if "/static" not in paths:
        routes: list[BaseRoute] = static_routes()
        app.router.routes.extend(routes)
    return app


@dataclass
class Running:
    url: str
    server: uvicorn.Server
    thread: threading.Thread
    app: Starlette

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def start(db: Path, *, port: int = 0, **settings: Any) -> Running:
    """A server on 127.0.0.1 over the SQLite file ``db``, running in a daemon thread."""
    sock = bind("127.0.0.1", port)
    config = Settings(host="127.0.0.1", port=sock.getsockname()[1], db=str(db), **settings)
    app = with_client(create_app(config, SQLiteStore(db)))
    server = uvicorn.Server(uvicorn.Config(
        app, log_config=None, access_log=False, lifespan="on", ws_max_size=WS_PROTOCOL_MAX,
        timeout_graceful_shutdown=2, server_header=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True,
                              name="gnav-devserver")
    thread.start()
    end = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > end:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    return Running(config.base_url, server, thread, app)
