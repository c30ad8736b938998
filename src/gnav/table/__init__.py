"""The table: an I/O-free game master for online play.

The server only feeds it (joins, actions, clock ticks) and delivers what it returns;
everything a table decides can be tested without a network.
"""

from gnav.table.config import TableConfig
from gnav.table.table import Outbound, Pace, Refused, Table

__all__ = ["Outbound", "Pace", "Refused", "Table", "TableConfig"]
