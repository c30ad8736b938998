"""The server's own failures, as the hub raises them and the cluster carries them from
the process that owns a table to the one that asked: below both, so that neither
imports the other for them."""

from __future__ import annotations

from gnav.errors import Code, CodedError


class Fault(CodedError):
    """The server, not the request, went wrong (a bug, a failing disk); ``code`` is
    machine-readable, the text one line. Nothing was changed. A ``CodedError`` but no
    ``GnavError``: it is not bad input."""

    def __init__(self, message: str, code: Code = Code.INTERNAL, *,
                 reload: bool = False) -> None:
        super().__init__(code, message)
        # The store holds another journal than the table in memory (``Diverged``):
        # the table must be read from the store again before it changes.
        self.reload = reload
