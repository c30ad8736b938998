"""The online table server: HTTP and WebSocket transport around ``gnav.table``.

Needs the ``[server]`` extra (Starlette, uvicorn). The table logic stays in
``gnav.table``; these modules only carry requests to it, store its journal and deliver
what it returns.
"""
