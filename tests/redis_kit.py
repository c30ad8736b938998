"""A real ``redis-server`` for the tests (no tests here): started on a free port of the
loopback address in a folder of the test's own, stopped (or killed, or restarted on the
same data) by the test. Debian's ``redis-server`` must be installed (``make test``
installs it); a test that needs it fails, never skips, without it.

Locked down as docs/deploy.md shows (``locked=True``): TLS only, with a CA and a
certificate made for the test (``make_certificates``), the default user behind a
password (the admin's: the tests' ``MONITOR``), and a user ``gnav`` limited to gnav's
keys and channels and to the commands a server needs (``GNAV_ACL``)."""

from __future__ import annotations

import datetime
import ipaddress
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import redis
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

# The gnav user of a locked-down Redis (docs/deploy.md says the same): its keys only
# (no channels: gnav publishes nothing), and no command that reads or changes the
# server itself (@dangerous: MONITOR, KEYS, FLUSHALL, CONFIG, DEBUG, ...) nor @admin.
GNAV_ACL = ["~gnav:*", "resetchannels", "+@all", "-@dangerous", "-@admin"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    """One redis-server process. ``persist``: an append-only file fsynced at every
    write, so that a restart (or a kill) keeps every acknowledged change."""

    def __init__(self, folder: Path, *, persist: bool = False, maxmemory: str | None = None,
                 locked: bool = False) -> None:
        command = shutil.which("redis-server")
        assert command, "redis-server is not installed (Debian: apt-get install redis-server)"
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.args = [command, "--port", str(self.port), "--bind", "127.0.0.1",
                     "--dir", str(folder), "--save", "", "--daemonize", "no",
                     "--protected-mode", "yes", "--logfile", str(folder / "redis.log"),
                     "--appendonly", "yes" if persist else "no",
                     "--appendfsync", "always"]
        if maxmemory is not None:
            self.args += ["--maxmemory", maxmemory, "--maxmemory-policy", "noeviction"]
        self.locked = locked
        self.admin_password = self.password = ""
        if locked:
            self.ca, cert, key = make_certificates(folder)
            self.admin_password = secrets.token_urlsafe(16)
            self.password = secrets.token_urlsafe(16)
            self.args[self.args.index("--port") + 1] = "0"  # no plain port at all
            self.args += ["--tls-port", str(self.port), "--tls-cert-file", str(cert),
                          "--tls-key-file", str(key), "--tls-ca-cert-file", str(self.ca),
                          "--tls-auth-clients", "no",
                          "--requirepass", self.admin_password,
                          "--user", "gnav", "on", f">{self.password}", *GNAV_ACL]
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        """What a gnav server is given (locked: the gnav user, over TLS)."""
        if self.locked:
            return (f"rediss://gnav:{self.password}@127.0.0.1:{self.port}/0"
                    f"?ssl_ca_certs={self.ca}")
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self, *, decode: bool = True) -> redis.Redis:
        """The admin's client (the default user); ``decode``: replies as text."""
        tls: dict[str, Any] = {"ssl": True, "ssl_ca_certs": str(self.ca),
                               "password": self.admin_password} if self.locked else {}
        return redis.Redis(host="127.0.0.1", port=self.port, decode_responses=decode,
                           socket_timeout=10, **tls)

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while True:
            try:
                with self.client() as c:
                    if c.ping():
                        return
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            assert self.proc.poll() is None, (self.folder / "redis.log").read_text()[-2000:]
            assert time.monotonic() < end, "redis-server did not answer"
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - only if it hung
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        """Stop and start again on the same port and data."""
        self.stop()
        self.start()


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a certificate it signed for 127.0.0.1: the CA's file, the
    certificate's and its key's."""
    now = datetime.datetime.now(datetime.UTC)

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("gnav test CA"))
          .issuer_name(name("gnav test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(
              digital_signature=False, content_commitment=False, key_encipherment=False,
              data_encipherment=False, key_agreement=False, key_cert_sign=True,
              crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("127.0.0.1"))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.pem", folder / "redis.pem", folder / "redis.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.TraditionalOpenSSL,
                                           serialization.NoEncryption()))
    return paths
