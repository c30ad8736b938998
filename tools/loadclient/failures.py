"""What a load test counts as an error, typed: the server's codes (``gnav.errors.Code``),
read once from its answers, and the failures the load client sees for itself. The
report writes each as the string it always had (``str(error)``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gnav.errors import Code


class Failure(StrEnum):
    """What went wrong where no server said so."""

    HTTP_FAILED = "http_failed"  # a request got no answer: the server gone, the transport
    BAD_RESPONSE = "bad_response"  # an answer that is not a JSON object
    CONNECT_FAILED = "connect_failed"  # a seat's socket could not be opened
    TIMEOUT = "timeout"  # a socket's set-up, or the play, outlasted its limit
    SETUP_TIMEOUT = "setup_timeout"  # a table not set up by the set-up's deadline


@dataclass(frozen=True, slots=True)
class Closed:
    """A seat's socket lost for good, with the close code it got (None: none came)."""

    code: int | None

    def __str__(self) -> str:
        return "closed" if self.code is None else f"closed_{self.code}"


@dataclass(frozen=True, slots=True)
class HttpStatus:
    """An error answer that carries no code of its own: its HTTP status."""

    status: int

    def __str__(self) -> str:
        return f"http_{self.status}"


@dataclass(frozen=True, slots=True)
class Raised:
    """A socket's set-up that raised something else (a refused handshake, a closed
    socket): the exception's class name."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Unknown:
    """A code a server sent that this client's ``Code`` does not hold (a newer server)."""

    code: str

    def __str__(self) -> str:
        return self.code


Error = Code | Failure | Closed | HttpStatus | Raised | Unknown


def code_of(value: object) -> Code | Unknown:
    """The server's code in an error answer or message."""
    text = str(value)
    try:
        return Code(text)
    except ValueError:
        return Unknown(text)
