"""Keyboard input: single keys on a terminal, whole lines from anything else.

On a terminal the game runs in cbreak mode (keys arrive at once, not echoed, Ctrl-C
still interrupts). From a pipe each line counts as one key, its first character, so a
script or a test can drive the game with ``printf 's\\nw\\n'``.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any, TextIO

ENTER = "enter"
ESC = "esc"
EOF = "eof"
UP, DOWN, LEFT, RIGHT = "up", "down", "left", "right"

_SEQUENCES = {"\x1b[A": UP, "\x1b[B": DOWN, "\x1b[C": RIGHT, "\x1b[D": LEFT,
              "\x1bOA": UP, "\x1bOB": DOWN, "\x1bOC": RIGHT, "\x1bOD": LEFT}


class Keys:
    """Reads one key at a time. Use as a context manager around the whole session, so
    the terminal is put back however the session ends."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self._saved: list[Any] | None = None

    def __enter__(self) -> Keys:
        if self.tty:
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def flush(self) -> None:
        """Drop keys typed ahead, so a key pressed while the bots played cannot decide
        the next turn before the player has seen it."""
        if self._saved is not None:
            import termios

            termios.tcflush(self.stream.fileno(), termios.TCIFLUSH)

    def read(self) -> str:
        """One key: a character, or ENTER, ESC, EOF, UP, DOWN, LEFT, RIGHT."""
        if self._saved is None:
            line = self.stream.readline()
            if not line:
                return EOF
            text = line.strip()
            return text[0] if text else ENTER
        data = os.read(self.stream.fileno(), 64)
        if not data or data == b"\x04":
            return EOF
        text = data.decode("utf-8", errors="ignore")
        if text in ("\n", "\r", "\r\n"):
            return ENTER
        if text.startswith("\x1b"):
            return _SEQUENCES.get(text[:3], ESC)
        return text[0] if text else ESC
