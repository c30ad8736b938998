"""Who may do what, and how often: origins, bearer tokens, invite codes, rate limits.

Seat and host tokens are checked by the table itself (hashed, compared in constant
time); this module holds what only the transport knows about.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from collections.abc import Callable, Mapping, Sequence

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from gnav.errors import Code
from gnav.server.untrusted import address_block

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")


# Table ids are read aloud and typed from screens: no I, l, 1, O, o or 0 to mistake.
TABLE_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
TABLE_ID_LENGTH = 11  # 11 of 56 letters: 63.9 random bits


def new_table_id() -> str:
    # About 64 random bits: an unlisted table is found only through its links.
    return "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))


def table_id_for(key: str) -> str:
    """The id of the table a create with request key ``key`` makes: drawn from the key,
    so that a retry of the create finds it (``gnav.table.retries``). As random as a
    drawn id while the key is (the browser's holds 128 bits); the key stays secret."""
    number = int.from_bytes(hashlib.sha256(b"gnav table " + key.encode()).digest(), "big")
    letters = []
    for _ in range(TABLE_ID_LENGTH):
        number, i = divmod(number, len(TABLE_ID_ALPHABET))
        letters.append(TABLE_ID_ALPHABET[i])
    return "".join(letters)


def valid_table_id(text: str) -> bool:
    return TABLE_ID.fullmatch(text) is not None


def invite_code(host_digest: str) -> str:
    """The code an invite link carries. Derived from the (secret, stored) digest of the
    host token, so it survives restarts without being stored, and only the host (who
    can ask the server for it) and the people it was given to know it."""
    key = host_digest.encode()
    return hmac.new(key, b"gnav invite", hashlib.sha256).hexdigest()[:24]


def check_invite(given: object, host_digest: str) -> bool:
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode(), invite_code(host_digest).encode())


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if there is one."""
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def origin_allowed(origin: str | None, allowed: frozenset[str]) -> bool:
    """Browsers always send Origin on a WebSocket; other clients may leave it out (they
    are not a cross-site page riding on someone's session, so they may connect)."""
    if origin is None:
        return True
    return origin.strip().rstrip("/").lower() in allowed


class TokenBucket:
    """``rate`` per second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        self._refill()
        return max(0.0, (1 - self.tokens) / self.rate)

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class PerKey:
    """A bucket for each key (a client IP); full buckets are forgotten, so the map only
    holds clients that have been busy lately."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float],
                 keep: int = 10000) -> None:
        self.rate, self.burst, self.clock, self.keep = rate, burst, clock, keep
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float | None:
        """None if ``key`` may go ahead, else the seconds to wait."""
        if len(self.buckets) >= self.keep:
            self.buckets = {k: b for k, b in self.buckets.items() if not b.full}
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return None if bucket.take() else bucket.wait()


class Flood:
    """A connection's message budget: beyond it each message is refused; a client that
    keeps sending through the refusals is cut off."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.bucket = TokenBucket(rate, burst, clock)
        self.limit = burst
        self.refused = 0

    def check(self) -> str:
        """"ok", "refuse" (answer with an error) or "close" (a flood)."""
        if self.bucket.take():
            self.refused = 0
            return "ok"
        self.refused += 1
        return "close" if self.refused > self.limit else "refuse"


class Costly:
    """ASGI middleware: per-address budgets for the routes that cost the server more
    than they cost the asker (a record, a replay, a table loaded from the store).
    ``routes`` maps (method, compiled path pattern) to requests a minute; beyond a
    budget the answer is 429 with Retry-After, in the API's error shape."""

    def __init__(self, app: ASGIApp, routes: Sequence[tuple[str, re.Pattern[str], int]],
                 clock: Callable[[], float]) -> None:
        self.app = app
        self.routes = [(method, pattern, PerKey(n / 60.0, n, clock))
                       for method, pattern, n in routes]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path, method = scope.get("path", ""), scope.get("method", "")
            for want, pattern, budget in self.routes:
                if want == method and pattern.fullmatch(path):
                    client = scope.get("client")
                    wait = budget.take(address_block(client[0] if client else ""))
                    if wait is not None:
                        seconds = str(max(1, math.ceil(wait)))
                        reply = JSONResponse(
                            {"error": {"code": Code.RATE_LIMITED, "reason":
                                       f"{method} {pattern.pattern}: at most "
                                       f"{budget.burst:g} a minute from one address; "
                                       f"try again in {seconds} s"}},
                            status_code=Code.RATE_LIMITED.status,
                            headers={"Retry-After": seconds})
                        await reply(scope, receive, send)
                        return
                    break
        await self.app(scope, receive, send)
