"""The terminal: whole frames redrawn in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from typing import TextIO

from gnav.texts.catalogue import fill
from gnav.tui.keys import DOWN, ENTER, EOF, ESC, LEFT, RIGHT, UP, Keys
from gnav.tui.rules_page import pager_words
from gnav.tui.style import Style, clip, wants_colour
from gnav.vocab import Lang

HOME = "\x1b[H"
CLEAR_LINE = "\x1b[K"
CLEAR_BELOW = "\x1b[J"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
# The pager's words when nobody gives it others: the catalogue's, in English.
PAGER_EN = pager_words(Lang.EN)


class Screen:
    """``fancy``: a terminal, where every frame replaces the last one. Otherwise lines
    are printed one after another, without escapes."""

    def __init__(self, out: TextIO, *, fancy: bool | None = None,
                 colour: bool | None = None) -> None:
        self.out = out
        try:
            tty = out.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.fancy = tty if fancy is None else fancy
        self.style = Style(wants_colour(out) if colour is None else colour)

    def size(self) -> tuple[int, int]:
        """(columns, rows); a pipe gets a generous width, so nothing is cut short."""
        if not self.fancy:
            return 100, 10_000
        try:
            # The terminal itself first: a COLUMNS or LINES left in the environment by a
            # parent process goes stale as soon as the window is resized.
            cols, rows = os.get_terminal_size(self.out.fileno())
        except (AttributeError, ValueError, OSError):
            cols, rows = shutil.get_terminal_size((100, 30))
        return max(cols, 40), max(rows, 12)

    def begin(self) -> None:
        if self.fancy:
            self.out.write(HIDE_CURSOR + HOME + CLEAR_BELOW)
            self.out.flush()

    def end(self) -> None:
        if self.fancy:
            self.out.write("\x1b[0m" + SHOW_CURSOR)
            self.out.flush()

    def frame(self, lines: Sequence[str]) -> None:
        """Draw ``lines`` as the whole screen (fancy) or print them (plain)."""
        if not self.fancy:
            self.print(*lines)
            return
        cols, rows = self.size()
        # One row short of the screen: writing the last row would scroll it.
        shown = list(lines)[: rows - 1]
        body = "".join(clip(line, cols) + CLEAR_LINE + "\n" for line in shown)
        self.out.write(HOME + body + CLEAR_BELOW)
        self.out.flush()

    def print(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def page(self, lines: Sequence[str], keys: Keys, title: str = "",
             words: Mapping[str, str] | None = None) -> str:
        """Show ``lines`` a screenful at a time; the key that closed the pager.
        ``words`` are its own words in the reader's language (``more``, ``back``,
        ``close``, ``lines``); English without them.

        Plain output gets everything at once: a pipe has no screen to fill.
        """
        w = {**PAGER_EN, **(words or {})}
        if not self.fancy:
            self.print(*lines)
            return ENTER
        s = self.style
        top = 0
        while True:
            rows = self.size()[1]
            height = rows - 3
            last = max(0, len(lines) - height)
            top = min(max(top, 0), last)
            more = top < last
            footer = (f"{w['more']}  {w['back']}  " if more else
                      f"{w['back']}  " if top else "") + w["close"]
            span = fill(w["lines"], {"first": top + 1, "last": min(len(lines), top + height),
                                     "total": len(lines)})
            where = f"{title}  {span}"
            self.frame([s(where, "dim"), *lines[top: top + height],
                        *[""] * max(0, height - len(lines[top: top + height])),
                        s(footer, "reverse")])
            key = keys.read()
            if key in (" ", DOWN, RIGHT, "n", "f") and more:
                top += height if key in (" ", "f", RIGHT) else 1
            elif key in ("b", UP, LEFT, "p"):
                top -= height if key in ("b", LEFT, "p") else 1
            elif key == ENTER and more:
                top += height
            elif key in ("q", "Q", ESC, EOF, ENTER, "?", " "):
                return key
