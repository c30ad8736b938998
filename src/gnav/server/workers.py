"""``gnav serve --workers N``: N server processes on one listening socket, for a machine
with many cores. They share their tables through Redis (``gnav.server.cluster``): any of
them may take any socket, the kernel spreading connections among them.

The parent binds the socket, forks the workers and watches them: one that dies (a crash,
a SIGKILL) is started again a second later, its tables taken over meanwhile by the
others; SIGTERM or SIGINT is passed to every worker, and the parent waits for them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from types import FrameType

from gnav.server.logs import Log


def supervise(count: int, run_one: Callable[[], int], log: Log,
              respawn_after: float = 1.0) -> int:
    """Run ``run_one`` in ``count`` forked processes until a signal stops them all."""
    workers: dict[int, int] = {}  # pid: worker number
    stopping = False

    def spawn(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker: the parent's signal handlers are not its own
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 1
            try:
                code = run_one()
            finally:
                os._exit(code)
        workers[pid] = number
        log.info("worker.started", worker=number, pid=pid)

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(count):
        spawn(number)
    failed = False
    while workers:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        if pid not in workers:
            continue
        number = workers.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        if stopping:
            failed |= code not in (0, -signal.SIGTERM)
            continue
        log.warning("worker.died", worker=number, pid=pid, code=code)
        time.sleep(respawn_after)
        if not stopping:
            spawn(number)
    return 1 if failed else 0
