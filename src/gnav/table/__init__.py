"""The table: an I/O-free game master for online play.

The server only feeds it typed values (names, actions, bot kinds, clock ticks), stores
its journal and delivers what ``gnav.table.render`` makes of its notices; everything a
table decides can be tested without a network.
"""

from gnav.table.config import TableConfig
from gnav.table.journal import Mover
from gnav.table.render import Outbound, messages, render
from gnav.table.table import Missed, News, Notice, Pace, Played, Refused, Snapshot, Table

__all__ = ["Missed", "Mover", "News", "Notice", "Outbound", "Pace", "Played", "Refused",
           "Snapshot", "Table", "TableConfig", "messages", "render"]
