"""``gnav simulate``: many bot games, summarised with confidence intervals.

The modules here are stdlib only, except ``plot``, which imports matplotlib when asked.
"""
