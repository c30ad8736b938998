"""Structured logs: one JSON object per line on stderr (time, level, event, table, fields)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

LOGGER = "gnav.server"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        event = getattr(record, "event", None)
        fields = getattr(record, "fields", None)
        if event is None:  # a library's record (uvicorn): keep its text as a field
            event = record.name.partition(".")[0]
            fields = {"message": record.getMessage()}
        if record.exc_info:
            fields = {**(fields or {}), "error": self.formatException(record.exc_info)}
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "event": event,
            "table": getattr(record, "table", None),
            "fields": fields or {},
        }
        return json.dumps(line, default=str, ensure_ascii=False)


def setup(stream: TextIO | None = None, level: int = logging.INFO) -> None:
    """Send every log record (ours and the libraries') to ``stream`` as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


class Log:
    """``log.info("table.created", table=id, seats=4)``: an event name, the table it
    concerns, and whatever fields explain it. Never pass tokens."""

    def __init__(self, name: str = LOGGER) -> None:
        self._logger = logging.getLogger(name)

    def _log(self, level: int, event: str, table: str | None, fields: dict[str, Any],
             exc: bool = False) -> None:
        self._logger.log(level, event, exc_info=exc,
                         extra={"event": event, "table": table, "fields": fields})

    def info(self, event: str, table: str | None = None, **fields: Any) -> None:
        self._log(logging.INFO, event, table, fields)

    def warning(self, event: str, table: str | None = None, **fields: Any) -> None:
        self._log(logging.WARNING, event, table, fields)

    def error(self, event: str, table: str | None = None, *, exc: bool = False,
              **fields: Any) -> None:
        self._log(logging.ERROR, event, table, fields, exc)
