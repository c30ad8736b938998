"""The servers' key, and what is sealed with it before it goes into Redis.

Redis is a trust boundary: whoever can read it (a ``MONITOR``, a subscription, a copy
of its dump) must learn no secret from it. Two things would tell one:

- a table's master seed (every deal and every bot's choice, past and future) and the
  digest of its host token (from which its invite code is made), written in the
  journal's first entry: sealed there (``seal_entry``, ``open_entry``);
- what processes say to each other on their channels: forwarded hellos and joins with
  seat tokens, host tokens and invite codes, and relayed seats' views with their hidden
  pieces: every payload sealed whole (``Box.seal``, the channel's name bound to it).

A seal is AES-256-GCM (the ``cryptography`` package), a fresh 96-bit nonce each, with
what it belongs to (the table, the channel) as associated data, so a sealed value
copied elsewhere does not open. The key is 32 random bytes that only the servers hold:
``GNAV_KEY`` (the key itself, base64) or a file (``--key-file``, ``GNAV_KEY_FILE``,
else ``gnav.key`` in the working directory), never Redis. A file named and missing is
made, readable by its owner alone: the processes of one machine (``--workers``, or
several started in one folder) share it; other machines need a copy. Redis keeps a
check of the key (``gnav:key``, an HMAC of a fixed text: it tells nothing of the key),
so a server started with another key refuses to start rather than fail table by table.

A journal written before sealing has its seed in plain: it loads as it is (a reader of
Redis could always read it); every table created since is sealed.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from gnav.errors import GnavError

KEY_ENV = "GNAV_KEY"
KEY_FILE_ENV = "GNAV_KEY_FILE"
DEFAULT_KEY_FILE = "gnav.key"
KEY_BYTES = 32
NONCE_BYTES = 12
# The fields of a journal's first entry that are sealed (``Table.create`` writes them).
SECRET = ("seed", "host")
# The field the sealed ones travel in: a name the table's journal never writes (its own
# "sealed" holds the host token for a retried create, sealed with the request's key).
BOX = "box"


class Unsealable(Exception):
    """A sealed value that does not open with this key (another key, or tampered)."""


def new_key() -> bytes:
    return AESGCM.generate_key(bit_length=KEY_BYTES * 8)


def key_text(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).decode()


def parse_key(text: str, where: str) -> bytes:
    """The key written in ``text`` (base64 of 32 bytes).

    :raises: :exc:`GnavError` in one line naming ``where`` it came from.
    """
    try:
        key = base64.urlsafe_b64decode(text.strip().encode())
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise GnavError(f"{where}: not a key (base64 of {KEY_BYTES} random bytes, as "
                        f"gnav writes into a missing --key-file)")
    return key


def load_key(path: str | None = None) -> tuple[bytes, str]:
    """The servers' key and where it came from: ``GNAV_KEY``, else the file ``path``
    (else ``GNAV_KEY_FILE``, else ``gnav.key`` here), made with a new key if missing.

    :raises: :exc:`GnavError` in one line if it cannot be read or made.
    """
    given = os.environ.get(KEY_ENV)
    if given:
        return parse_key(given, f"${KEY_ENV}"), f"${KEY_ENV}"
    file = Path(path or os.environ.get(KEY_FILE_ENV) or DEFAULT_KEY_FILE)
    try:
        if not file.exists():
            _make(file)
        return parse_key(file.read_text(), f"key file {file}"), str(file)
    except OSError as e:
        raise GnavError(f"key file {file}: {e.strerror or e}") from None


def _make(file: Path) -> None:
    """Write a new key to ``file``, readable by its owner alone; if another process
    made it meanwhile, theirs stays (a link fails where a file exists: one wins)."""
    folder = file.parent if str(file.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".gnav-key-")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(key_text(new_key()) + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(temp, file)
    finally:
        os.unlink(temp)


class Box:
    """Seals and opens with the servers' key. Its repr shows no key."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)
        # What Redis may keep to tell whether a server holds the same key: an HMAC of a
        # fixed text, from which the key cannot be had.
        self.check = hmac.new(key, b"gnav key check", hashlib.sha256).hexdigest()[:32]

    def __repr__(self) -> str:
        return f"Box(check={self.check})"

    def seal(self, data: bytes, context: bytes) -> bytes:
        """``data`` unreadable and unforgeable without the key, bound to ``context``."""
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, data, context)

    def open(self, sealed: bytes, context: bytes) -> bytes:
        """:raises: :exc:`Unsealable` if ``sealed`` was not sealed with this key for
        ``context``."""
        try:
            return self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], context)
        except (InvalidTag, ValueError):
            raise Unsealable("sealed with another key, or altered") from None

    def seal_entry(self, table_id: str, entry: dict[str, Any]) -> dict[str, Any]:
        """A journal entry as Redis keeps it: the secret fields of a table's first entry
        sealed together (bound to the table), the rest as it is."""
        if not any(name in entry for name in SECRET):
            return entry
        if BOX in entry:  # pragma: no cover - a table writing our field would lose it
            raise ValueError(f"a journal entry may not hold {BOX!r}: the store seals in it")
        secret = {name: entry[name] for name in SECRET if name in entry}
        sealed = self.seal(json.dumps(secret).encode(), _table_context(table_id))
        kept = {k: v for k, v in entry.items() if k not in SECRET}
        return {**kept, BOX: base64.b64encode(sealed).decode()}

    def open_entry(self, table_id: str, entry: dict[str, Any]) -> dict[str, Any]:
        """A journal entry as the table reads it (``seal_entry`` undone; an entry
        written before sealing, in plain, as it is).

        :raises: :exc:`Unsealable` if it was sealed with another key.
        """
        sealed = entry.get(BOX)
        if not isinstance(sealed, str):
            return entry
        try:
            raw = base64.b64decode(sealed.encode(), validate=True)
        except (binascii.Error, ValueError):
            raise Unsealable("not a sealed value") from None
        secret = json.loads(self.open(raw, _table_context(table_id)))
        return {**{k: v for k, v in entry.items() if k != BOX}, **secret}


def _table_context(table_id: str) -> bytes:
    return f"gnav journal {table_id}".encode()
