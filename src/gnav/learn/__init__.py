"""Learn to play: the guided first match (``script``: its deals, the bots' moves, the
player's expected choices and the notes said; ``lesson``: that script played by the
engine into the frames the terminal and the browser show) and the puzzles cut from
finished matches (``puzzles``). docs/learn.md.
"""
