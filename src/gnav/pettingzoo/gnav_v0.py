"""``gnav_v0`` under PettingZoo's naming (``from gnav.pettingzoo import gnav_v0``), as its
own games are ``pettingzoo.classic.tictactoe_v3`` and the like."""

from gnav.pettingzoo import env, raw_env

__all__ = ["env", "raw_env"]
