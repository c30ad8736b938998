"""The load client of ``tools/loadtest.py``: many tables of WebSocket bot clients against
a local ``gnav serve``. A developer's tool, outside the installed package.

Needs the ``[server]`` extra (the ``websockets`` client). One process, one asyncio loop:
``http`` creates, joins and starts tables (stdlib ``http.client`` in a few threads),
``client`` is one seat's socket acting from its own view, ``stats`` keeps the counts and
latencies and writes the report, ``failures`` types what it counts as errors (the
server's ``Code`` and the client's own failures), ``run`` ties them together.
"""
