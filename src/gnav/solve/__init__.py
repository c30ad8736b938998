"""Solving one round of Gnav exactly (the ``[analysis]`` extra: numpy).

``tree.build`` drives the engine to build the collapsed game tree once; ``cfr.solve`` runs
CFR+ over it with numpy and measures the result with an exact best response.
"""
