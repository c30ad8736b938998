"""The browser client of ``gnav serve``: static ES modules and CSS, no build step.

Like ``gnav.server`` this package needs Starlette; it is imported only by the server,
which mounts it, and it imports nothing from the server (the layer above it).
``static_routes()`` gives the routes to add to the server's list: the pages (``/``,
``/t/{table_id}``, ``/replay``, the companion's ``/companion`` with its service worker
``/companion-sw.js``, the printable card ``/card/{preset}``), ``/static/...``, and the
engine helpers the page uses (``/static/presets.json``, ``/static/texts.json``,
``GET /api/rules``, ``POST /api/replay``, ``/api/odds``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from starlette.routing import BaseRoute


def static_routes(odds_dir: Path | None = None) -> list[BaseRoute]:
    """The client's routes (Starlette is imported here, not when gnav.web is);
    ``odds_dir``: where /odds keeps the tables it makes on demand."""
    from gnav.web.routes import routes

    return routes(odds_dir)
