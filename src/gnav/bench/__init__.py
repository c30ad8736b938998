"""``gnav bench``: how fast the engines play, measured (``reference``: the full engine,
every decision from a view; ``batch``: the batch simulator's numpy and compiled engines;
``result``: what a run measured).

Measurement only, out of the playing package's way: nothing that plays a game imports
it; the command (``gnav.cli.bench``) and the developer's tools do.
"""
