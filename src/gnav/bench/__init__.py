"""``gnav bench``: how fast the engines play, measured (``reference``: the full engine,
every decision from a view; ``jit``: the batch simulator's compiled engine; ``result``:
what a run measured).

Measurement only, out of the playing package's way: nothing that plays a game imports
it; the command (``gnav.cli.bench``) and the developer's tools do.
"""
