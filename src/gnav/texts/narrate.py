"""Events in words for the terminal and the lesson: the game's own calls, with their
meaning beside (in the core, below both ``gnav.tui`` and ``gnav.learn``, which read it).

Which sentences tell an event is the narration table's (``gnav.texts.narration``), the
same one the browser reads; the sentences are the catalogue's, in English, Norwegian or
Danish. What this module adds is the terminal's way of saying the things they name:
the reader addressed as "you", calls in plain quotes, the turn order told.
"""

from __future__ import annotations

from gnav.calls import call_pair, quoted, word_pair
from gnav.events import (
    Answer,
    Ask,
    Event,
    MatchEnd,
    Pay,
    RoundStart,
    Showdown,
    Stand,
    event_to_json,
)
from gnav.rules import Rules
from gnav.texts.catalogue import text_lang
from gnav.texts.narration import Words, tell
from gnav.texts.rules import native_name
from gnav.vocab import Lang


class Narrator:
    """Turns events into lines for one reader (``me``: the seat reading, or None).

    ``lang``: the language the calls are said in (None: the game's own); ``text``: the
    language of the sentences (English, Norwegian or Danish)."""

    def __init__(self, rules: Rules, names: tuple[str, ...], *, me: int | None = None,
                 lang: str | None = None, text: str = Lang.EN) -> None:
        self.rules = rules
        self.names = names
        self.me = me
        self.lang = lang or rules.preset.lang
        self.text = text_lang(text)
        self.words = Words(self.text, me=me, you=me is not None,
                           name=lambda seat: self.names[seat], piece=self.piece)
        # Whether this showdown's fool has paid: a "lowest" payment after it is the
        # fool's drag (events read in order, as they happened).
        self.fool_paid = False

    def piece(self, pid: str | None) -> str:
        """A piece's name in the reader's language."""
        if pid is None:
            return "?"
        return native_name(self.rules, self.rules.pieces[self.rules.index(pid)], self.text)

    def word(self, key: str) -> str:
        """A spoken phrase as the game says it, with its meaning beside it."""
        return quoted(word_pair(self.rules, key, self.lang))

    def _facts(self, e: Event) -> dict[str, object]:
        facts: dict[str, object] = {"full": False, "tell_order": True, "big": False}
        if isinstance(e, Stand):
            facts["word"] = self.word("stand")
        elif isinstance(e, Ask):
            facts["word"] = self.word("swap")
        elif isinstance(e, Answer):
            pair = call_pair(self.rules, self.rules.pieces[self.rules.index(e.piece)], self.lang)
            facts["call"] = quoted(pair) if pair else None
        elif isinstance(e, Pay):
            facts["dragged"] = e.reason == "lowest" and self.fool_paid
            self.fool_paid = self.fool_paid or e.reason == "fool"
            facts["matador_reason"] = e.reason in self.rules.ids and \
                self.rules.pieces[self.rules.index(e.reason)].power is not None
        elif isinstance(e, Showdown):
            self.fool_paid = False
            facts["shown"] = ", ".join(f"{self.names[s]} {self.piece(p)}"
                                       for s, p in zip(e.seats, e.pieces, strict=True))
            facts["n"] = len(e.seats)
        elif isinstance(e, MatchEnd):
            facts["winner"] = e.winners[0] if len(e.winners) == 1 else None
        return facts

    def line(self, e: Event) -> str | None:
        """``e`` in words as the reader (``me``) may read it; None for an event that is
        not told. Any event of the engine's is told without an error."""
        text = tell(event_to_json(e), self._facts(e), self.words)
        # A new round stands out in a terminal's scrolling log.
        return f"── {text}" if text is not None and isinstance(e, RoundStart) else text
