"""The load test: set up every table (create, join, connect each seat), start them, let
the seats play until each table has finished its matches (or the time is up), then
close everything and report.

With several server URLs (processes sharing their tables through Redis), each table's
seats are spread across them, so that every table is played across processes; a seat
whose socket is lost reconnects as the browser does, to the next URL if its own is gone.

Only loopback servers may be targeted, and every loop is bounded: setup and play each
have a deadline, and a table plays at most ``matches`` matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import secrets
import socket
import sys
import time
from dataclasses import dataclass
from random import Random
from typing import Any, TextIO
from urllib.parse import urlsplit

from gnav.errors import Code, GnavError
from gnav.tui.progress import ProgressBar as Progress  # the one progress bar
from loadclient.client import Game, SeatClient, make_policy
from loadclient.failures import Failure, Raised
from loadclient.http import Http, HttpError
from loadclient.stats import Stats

MAX_TABLES = 2000  # the server holds at most 2000 unfinished tables by default
MAX_SECONDS = 3600.0
MAX_MATCHES = 1000  # per table, even in a --duration run
SETUP_TIMEOUT = 30.0  # one request or one socket's hello
LAG_TICK = 0.01  # the timer of the loop-lag watch (s)
DRAIN_FOR = 10.0  # seconds play's last acts are waited for before sockets close
RETRY_FOR = 60.0  # seconds a request (or a setup socket) is sent again, server after server
# What a server answers when it cannot do it now, but another (or it, a moment later)
# may: a server gone (no answer at all), busy, stopping, or its store away.
RETRYABLE: frozenset[Code | Failure] = frozenset({Failure.HTTP_FAILED, Code.BUSY, Code.CLOSING,
                                                  Code.STORE_FAILED, Code.STORE_FULL})


@dataclass(frozen=True)
class Options:
    urls: tuple[str, ...] = ("http://127.0.0.1:8000",)
    tables: int = 10
    seats: int = 6
    humans: int | None = None  # socket clients per table (None: every seat)
    lives: int | None = None
    preset: str = "gnav"
    bot: str = "random"  # the clients' policy, and the server's bots for other seats
    concurrency: int = 32  # requests and socket openings in flight during setup
    duration: float | None = None  # play this long, starting new matches as they end
    matches: int = 1  # else: this many matches per table
    timeout: float = 600.0  # the most a run of --matches may play
    seed: int | None = None
    deflate: bool = False  # offer permessage-deflate, as browsers do
    # Each table's seats spread over the servers (a load balancer's worst case: most
    # sockets relayed), or all at the server that created it (none relayed).
    spread: bool = True
    think: float = 0.0  # mean seconds a client waits before acting (0: at once)

    def check(self) -> None:
        if not 1 <= len(self.urls) <= 64:
            raise GnavError(f"--url: 1 to 64 servers, not {len(self.urls)}")
        if not 1 <= self.tables <= MAX_TABLES:
            raise GnavError(f"--tables must be 1 to {MAX_TABLES}, not {self.tables}")
        if not 2 <= self.seats <= 64:
            raise GnavError(f"--seats must be 2 to 64, not {self.seats}")
        if self.humans is not None and not 0 <= self.humans <= self.seats:
            raise GnavError(f"--humans must be 0 to --seats ({self.seats}), not {self.humans}")
        if self.lives is not None and not 1 <= self.lives <= 99:
            raise GnavError(f"--lives must be 1 to 99, not {self.lives}")
        if not 1 <= self.concurrency <= 256:
            raise GnavError(f"--concurrency must be 1 to 256, not {self.concurrency}")
        if self.duration is not None and not 0 < self.duration <= MAX_SECONDS:
            raise GnavError(f"--duration must be over 0 and at most {MAX_SECONDS:g} s")
        if not 1 <= self.matches <= MAX_MATCHES:
            raise GnavError(f"--matches must be 1 to {MAX_MATCHES}, not {self.matches}")
        if not 0 < self.timeout <= MAX_SECONDS:
            raise GnavError(f"--timeout must be over 0 and at most {MAX_SECONDS:g} s")
        if not 0 <= self.think <= 60:
            raise GnavError(f"--think must be 0 to 60 s, not {self.think}")
        if self.bot not in ("random", "threshold"):
            raise GnavError(f"--bot must be random or threshold, not {self.bot!r}")


def loopback(url: str) -> tuple[str, int]:
    """(host, port) of ``url`` if it is an http:// URL of this machine; else an error."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise GnavError(f"--url must look like http://127.0.0.1:8000, not {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise GnavError(f"--url must be the server's base URL, not {url!r}")
    host = parts.hostname
    try:
        port = parts.port or 80
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (ValueError, socket.gaierror) as e:
        raise GnavError(f"--url {url!r}: {e}") from None
    addresses = {info[4][0] for info in infos}
    if not addresses or not all(ipaddress.ip_address(str(a).partition("%")[0]).is_loopback
                                for a in addresses):
        raise GnavError(f"--url {url!r}: a load test may only target this machine "
                        f"(a loopback address such as 127.0.0.1), not {sorted(addresses)}")
    return host, port


class TableRun:
    """One table of the test: its id and host token, its seats' clients, and the
    matches they have seen end."""

    def __init__(self, index: int, stats: Stats) -> None:
        self.index = index
        self.stats = stats
        self.id = ""
        self.host = ""
        self.clients: list[SeatClient] = []
        self.ended = asyncio.Event()
        self.game = Game(self._finished)
        self.ready = False

    def _finished(self, games: int) -> None:
        """A match ended (``games``: the table's count of them), or a seat's socket was
        lost (-1)."""
        if games >= 0:
            self.stats.matches += 1
        self.ended.set()


class LoadTest:
    def __init__(self, options: Options, progress: TextIO | None = None) -> None:
        options.check()
        self.o = options
        self.servers = [loopback(url) for url in options.urls]
        self.ws_bases = [f"ws://{f'[{host}]' if ':' in host else host}:{port}/ws/"
                         for host, port in self.servers]
        self.stats = Stats()
        self.humans = options.seats if options.humans is None else options.humans
        self.rng = Random(options.seed)
        self.policy = make_policy(options.bot, options.preset, options.lives, self.rng)
        mean, uniform = options.think, self.rng.uniform
        # A person's pause: from half to one and a half times the mean.
        self.think = (lambda: uniform(0.5 * mean, 1.5 * mean)) if mean > 0 else None
        self.tables = [TableRun(i, self.stats) for i in range(options.tables)]
        self.readers: list[asyncio.Task[None]] = []
        self.progress = Progress(progress) if progress is not None else None
        self.phase = "setup"
        self.play_started = 0.0
        self.fatal: str | None = None

    # -- setup -----------------------------------------------------------------------

    def _config(self) -> dict[str, Any]:
        options: dict[str, Any] = {} if self.o.lives is None else {"lives": self.o.lives}
        # No turn timer, and the longest grace: nothing the clock does gets in the way.
        return {"preset": self.o.preset, "seats": self.o.seats, "turn_timer": None,
                "grace": 600, "listed": False, "bot": self.o.bot, "options": options}

    async def _post(self, https: list[Http], first: int, path: str,
                    body: dict[str, Any] | None = None, token: str | None = None
                    ) -> dict[str, Any]:
        """POST with a request key of its own, to server ``first``; sent again with the
        same key, to the next server each time (the browser's proxy does the same),
        while the answer says another may do it, for ``RETRY_FOR`` seconds: a retry of
        one that was stored answers as the first did (``gnav.table.retries``)."""
        key = secrets.token_urlsafe(16)
        end = time.monotonic() + RETRY_FOR
        attempt = 0
        while True:
            try:
                return await https[(first + attempt) % len(https)].post(path, body, token, key)
            except HttpError as e:
                if e.code not in RETRYABLE or time.monotonic() > end:
                    raise
            attempt += 1
            self.stats.retries += 1
            await asyncio.sleep(min(2.0, 0.1 * 2 ** attempt))

    async def _open(self, client: SeatClient, t: TableRun, at: int,
                    joined: dict[str, Any]) -> None:
        """The seat's first socket, at server ``at``; at the next one when that fails
        (a server gone mid-handshake), for ``RETRY_FOR`` seconds."""
        end = time.monotonic() + RETRY_FOR
        attempt = 0
        while True:
            try:
                await asyncio.wait_for(
                    client.open([base + t.id for base in self.ws_bases], at + attempt,
                                int(joined["seat"]), str(joined["token"]),
                                deflate=self.o.deflate, timeout=SETUP_TIMEOUT),
                    SETUP_TIMEOUT)
                return
            except Exception as e:
                response = getattr(e, "response", None)  # websockets' InvalidStatus
                if getattr(response, "status_code", None) == 429 \
                        or time.monotonic() > end:
                    raise
            attempt += 1
            self.stats.retries += 1
            await asyncio.sleep(min(2.0, 0.1 * 2 ** attempt))

    async def _setup(self, t: TableRun, https: list[Http], gate: asyncio.Semaphore) -> None:
        try:
            async with gate:  # at the table's own server first
                created = await self._post(https, t.index, "/api/tables", self._config())
            t.id, t.host = str(created["id"]), str(created["host_token"])
            invite = created.get("invite")
            for n in range(1, self.humans + 1):
                name = f"p{n}"
                # seat n's server: spread over them all, or the table's own
                at = (t.index + (n if self.o.spread else 0)) % len(https)
                async with gate:
                    joined = await self._post(https, at, f"/api/tables/{t.id}/join",
                                              {"name": name, "invite": invite})
                client = SeatClient(name, t.game, self.policy, self.stats, self.think)
                t.clients.append(client)
                async with gate:
                    await self._open(client, t, at, joined)
                self.readers.append(asyncio.create_task(client.run()))
        except HttpError as e:
            self.stats.error(e.code)
            if e.code in (Code.RATE_LIMITED, Code.TOO_MANY):
                self.fatal = ("the server limits table creation: start it with "
                              "'gnav serve --creates-per-minute 100000 "
                              "--tables-per-client 100000'")
            elif e.code == Code.BUSY:
                self.fatal = "the server holds as many unfinished tables as it may"
            return
        except (OSError, TimeoutError) as e:
            self.stats.error(Failure.CONNECT_FAILED if isinstance(e, OSError)
                             else Failure.TIMEOUT)
            return
        except Exception as e:  # a refused handshake, a closed socket
            self.stats.error(Raised(type(e).__name__))
            response = getattr(e, "response", None)  # websockets' InvalidStatus
            if getattr(response, "status_code", None) == 429:
                self.fatal = ("the server limits sockets per address: start it with "
                              "'gnav serve --sockets-per-client 100000'")
            return
        t.ready = True
        self.stats.tables_ready += 1

    # -- play ------------------------------------------------------------------------

    async def _drive(self, t: TableRun, https: list[Http], target: int) -> None:
        """Start the table's matches one after another, until ``target`` have ended
        (or the run is cancelled); then close its sockets. A start goes to the next
        server when one does not answer (it may be the one that was killed), with its
        key (``_post``)."""
        try:
            started = 0
            while started < target:
                started += 1
                t.ended.clear()
                t.game.live, t.game.last_message = True, time.perf_counter()
                try:  # sent again with its key: a start stored is not refused as started
                    info = await self._post(https, t.index, f"/api/tables/{t.id}/start",
                                            token=t.host)
                except HttpError as e:
                    self.stats.error(e.code)
                    return
                t.game.saw(info)
                while t.game.finished < started:
                    if t.game.broken:
                        return  # counted by the client whose socket closed
                    if not t.clients:  # bots alone: the server's timer plays them out
                        await asyncio.sleep(0.25)
                        t.game.saw(await https[t.index % len(https)].get(
                            f"/api/tables/{t.id}"))
                        continue
                    await t.ended.wait()
                    t.ended.clear()
        finally:
            await self._close(t)

    async def _close(self, t: TableRun) -> None:
        for client in t.clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 10)

    async def _show(self) -> None:
        if self.progress is None:
            return
        total = len(self.tables)
        target = None if self.o.duration is not None else self.o.matches * total
        last_acts, last_t = 0, time.monotonic()
        while True:
            await asyncio.sleep(0.5)
            s = self.stats
            now = time.monotonic()
            rate = (s.acts - last_acts) / max(now - last_t, 1e-9)
            last_acts, last_t = s.acts, now
            errors = sum(s.errors.values())
            if self.phase == "setup":
                self.progress.draw("setup", s.tables_ready, total,
                                   f"{s.sockets} sockets, {errors} errors")
            elif target is not None:
                self.progress.draw("play ", s.matches, target,
                                   f"matches, {s.acts} acts, {rate:,.0f}/s, {errors} errors")
            else:
                played = now - self.play_started
                self.progress.draw("play ", int(played), int(self.o.duration or 0),
                                   f"s, {s.matches} matches, {s.acts} acts, {rate:,.0f}/s, "
                                   f"{errors} errors")

    async def _drain(self) -> None:
        """End play: no seat acts again, and the acts in flight are answered (or given
        up after ``DRAIN_FOR``) before a socket closes, so every latency is one of play."""
        stats = self.stats
        stats.acting = False
        end = time.monotonic() + DRAIN_FOR
        while stats.in_flight > 0 and time.monotonic() < end:
            await asyncio.sleep(0.01)
        stats.unanswered = stats.in_flight

    async def _watch_lag(self) -> None:
        """How late this loop wakes for a 10 ms timer, all through play (``Stats.lags``)."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            self.stats.lags.append(max(0.0, time.perf_counter() - asked - LAG_TICK))

    async def run(self) -> dict[str, Any]:
        o = self.o
        https = [Http(host, port, o.concurrency, timeout=SETUP_TIMEOUT)
                 for host, port in self.servers]
        shower = asyncio.create_task(self._show())
        setup_s = play_s = 0.0
        play_at: tuple[float, float] | None = None  # on the machine's monotonic clock
        try:
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(o.concurrency)
            setups = [asyncio.create_task(self._setup(t, https, gate)) for t in self.tables]
            limit = min(900.0, 60.0 + o.tables * 0.5)
            _, pending = await asyncio.wait(setups, timeout=limit)
            for task in pending:
                task.cancel()
                self.stats.error(Failure.SETUP_TIMEOUT)
            await asyncio.gather(*pending, return_exceptions=True)
            setup_s = time.perf_counter() - t0
            if self.fatal is not None:
                raise GnavError(self.fatal)

            # Thousands of sockets set up, long-lived: out of the collector's reach, or
            # its full collections over them pause this one process that reads every
            # table's updates (measured at 1,000 x 6: ten collections of 36 to 915 ms
            # of CPU in 30 s, up to 2.2 s of wall time, each added to the latency of
            # every action then in flight).
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 20, 1000)  # as the server: few, short collections
            self.phase = "play"
            self.play_started = time.monotonic()
            t1 = time.perf_counter()
            ready = [t for t in self.tables if t.ready]
            target = MAX_MATCHES if o.duration is not None else o.matches
            limit = o.duration if o.duration is not None else o.timeout
            drivers = [asyncio.create_task(self._drive(t, https, target)) for t in ready]
            watch = asyncio.create_task(self._watch_lag())
            if drivers:
                _, late = await asyncio.wait(drivers, timeout=limit)
                play_s = time.perf_counter() - t1
                play_at = (self.play_started, time.monotonic())
                await self._drain()
                for task in late:
                    task.cancel()
                await asyncio.gather(*late, return_exceptions=True)
                if late and o.duration is None:
                    self.stats.error(Failure.TIMEOUT)
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        finally:
            shower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await shower
            if self.progress is not None:
                self.progress.close()
            for t in self.tables:  # a failed setup may have left sockets open
                await self._close(t)
            if self.readers:
                await asyncio.wait(self.readers, timeout=15)
                for task in self.readers:
                    task.cancel()
            for http in https:
                await asyncio.to_thread(http.close)
        config = {"urls": list(o.urls), "tables": o.tables, "seats": o.seats, "humans": self.humans,
                  "preset": o.preset, "lives": o.lives, "bot": o.bot,
                  "concurrency": o.concurrency, "duration": o.duration,
                  "matches": None if o.duration is not None else o.matches,
                  "deflate": o.deflate, "spread": o.spread, "think": o.think, "seed": o.seed}
        expected = None if o.duration is not None else o.matches * o.tables
        return self.stats.report(config=config, setup_s=setup_s, play_s=play_s,
                                 play_at=play_at, matches_expected=expected)


def run(options: Options, progress: TextIO | None = None) -> dict[str, Any]:
    """Run the load test; the report (see ``Stats.report``)."""
    return asyncio.run(LoadTest(options, progress).run())


def ok(report: dict[str, Any]) -> bool:
    """No errors, and (with --matches) every match finished."""
    expected = report["matches_expected"]
    return not report["errors"] and (expected is None
                                      or report["matches_finished"] >= expected)


def default_progress(force: bool) -> TextIO | None:
    return sys.stderr if force or sys.stderr.isatty() else None
