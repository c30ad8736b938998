"""Text and numbers from the wire, checked once at the edge.

Everything a client sends (a JSON string, a path segment, a query value, a header) is
hostile until one of these has turned it into a plain value: a whole number written in
ASCII digits, or a token of the alphabet the server hands out. The one text people
read, a seat's name, is read by ``gnav.names.parse_name`` (valid Unicode, no control or
format characters, folded and capped), which the terminal game uses too. Each refusal
is one line naming the field.
"""

from __future__ import annotations

import ipaddress
import re

from gnav.errors import Code, RefusedError

# The alphabet of ``secrets.token_urlsafe`` (seat and host tokens) and of hex digests
# (invite codes): anything else cannot be a token this server gave.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}", re.ASCII)
DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)


class Untrusted(RefusedError):
    """A value from a client that is not what its field takes; the text is one line."""


def quote(value: object, limit: int = 40) -> str:
    """``value`` for an error message: repr, shortened, and printable whatever it holds
    (a lone surrogate's repr is its escape, so the message itself stays valid text)."""
    text = ascii(value) if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole(text: str, where: str, *, most: int, code: Code = Code.BAD_FIELD) -> int:
    """A whole number from 0 to ``most`` written in ASCII digits (``str.isdigit`` also
    accepts '²' and other digits ``int`` refuses; this does not)."""
    if DIGITS.fullmatch(text) is None or int(text) > most:
        raise Untrusted(code, f"{where}: must be a whole number from 0 to {most}, not "
                        f"{quote(text)}")
    return int(text)


def token(value: object, where: str, code: Code = Code.BAD_FIELD) -> str:
    """A token as this server writes them (URL-safe base64, or hex)."""
    if not isinstance(value, str) or TOKEN.fullmatch(value) is None:
        raise Untrusted(code, f"{where}: not a token this server gave")
    return value


def address_block(host: str) -> str:
    """The block a client address counts in for per-client limits: an IPv4 address
    alone, an IPv6 address by its /64 (one subscriber usually holds a whole /64)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # a test client's name, or a Unix socket: count it as it is
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
