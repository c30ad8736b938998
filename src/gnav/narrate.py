"""Events in words: the game's own calls, with the English beside them."""

from __future__ import annotations

from gnav.calls import call_pair, quoted, word_pair
from gnav.events import (
    Answer,
    Ask,
    Draw,
    Eliminated,
    Event,
    Gain,
    Knock,
    MatchEnd,
    Pay,
    RoundEnd,
    RoundStart,
    Showdown,
    Stand,
    StockEmpty,
    Swap,
    Undo,
)
from gnav.rules import Rules


class Narrator:
    """Turns events into lines for one reader (``me``: the seat reading, or None)."""

    def __init__(self, rules: Rules, names: tuple[str, ...], *, me: int | None = None,
                 lang: str | None = None) -> None:
        self.rules = rules
        self.names = names
        self.me = me
        self.lang = lang or rules.preset.lang

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "the stock"
        return "you" if seat == self.me else self.names[seat]

    def piece(self, pid: str | None, lang: str = "en") -> str:
        if pid is None:
            return "?"
        return self.rules.pieces[self.rules.index(pid)].name(lang)

    def word(self, key: str) -> str:
        """A spoken phrase as the game says it, with its meaning beside it."""
        return quoted(word_pair(self.rules, key, self.lang))

    def line(self, e: Event) -> str | None:
        w = self.who
        if isinstance(e, RoundStart):
            order = ", ".join(self.names[s] for s in e.order)
            dealer = self.who(e.dealer)
            verb = "deal" if e.dealer == self.me else "deals"
            text = f"── Round {e.round}: {dealer.capitalize()} {verb}. Turn order: {order}."
            if e.piece is not None:
                text += f" You are dealt {self.piece(e.piece)}."
            return text
        if isinstance(e, Knock):
            return f"{w(e.seat).capitalize()} knock{'' if e.seat == self.me else 's'} on the " \
                   "table: a fool!"
        if isinstance(e, Stand):
            return f"{w(e.seat).capitalize()}: {self.word('stand')}"
        if isinstance(e, Ask):
            if e.target is None:
                return f"{w(e.seat).capitalize()} swap{'' if e.seat == self.me else 's'} " \
                       "with the stock."
            return f"{w(e.seat).capitalize()} ask{'' if e.seat == self.me else 's'} " \
                   f"{w(e.target)} to swap: {self.word('swap')}"
        if isinstance(e, Answer):
            p = self.rules.pieces[self.rules.index(e.piece)]
            pair = call_pair(self.rules, p, self.lang)
            call = quoted(pair) if pair else '""'
            holder = "From the stock" if e.seat is None else w(e.seat).capitalize()
            verb = "comes" if e.seat is None else "show" if e.seat == self.me else "shows"
            # English sentences name pieces in English; the call is the game's own.
            return f"{holder} {verb} the {p.name('en')}: {call}"
        if isinstance(e, Swap):
            text = f"{w(e.seat).capitalize()} and {w(e.target)} swap."
            if e.seat_got is not None and self.me in (e.seat, e.target):
                got = e.seat_got if self.me == e.seat else e.target_got
                gave = e.target_got if self.me == e.seat else e.seat_got
                text += f" You give {self.piece(gave)} and get {self.piece(got)}."
            return text
        if isinstance(e, Draw):
            text = f"{w(e.seat).capitalize()} take{'' if e.seat == self.me else 's'} a piece " \
                   "from the stock."
            if e.piece is not None:
                text += f" You get {self.piece(e.piece)} and set {self.piece(e.set_aside)} aside."
            return text
        if isinstance(e, StockEmpty):
            return "The stock is empty: nothing happens."
        if isinstance(e, Pay):
            if not e.paid:
                return f"{w(e.seat).capitalize()} would pay, but has no life left."
            dest = "the pool" if e.to is None else w(e.to)
            why = {"lowest": " for the lowest piece", "fool": " for the fool",
                   "two_fools": " for the two fools"}.get(e.reason, "")
            return f"{w(e.seat).capitalize()} pay{'' if e.seat == self.me else 's'} a life to " \
                   f"{dest}{why} ({e.lives} left)."
        if isinstance(e, Gain):
            why = " for the two fools" if e.reason == "two_fools" else ""
            return f"{w(e.seat).capitalize()} gain{'' if e.seat == self.me else 's'} a " \
                   f"life{why} ({e.lives})."
        if isinstance(e, Undo):
            text = "Every swap is undone: each piece goes back to where it was dealt."
            if e.piece is not None:
                text += f" You have {self.piece(e.piece)} again."
            return text
        if isinstance(e, Showdown):
            shown = ", ".join(f"{self.names[s]} {self.piece(p)}"
                              for s, p in zip(e.seats, e.pieces, strict=True))
            return f"Showdown: {shown}."
        if isinstance(e, RoundEnd):
            how = "every turn taken" if e.ended_by == "turns" else \
                f"stopped by the {self.piece(e.ended_by)}"
            text = f"The round ends ({how})."
            if e.sit_out:
                text += " Sitting out next round: " + ", ".join(w(s) for s in e.sit_out) + "."
            return text
        if isinstance(e, Eliminated):
            return "Out of the game: " + ", ".join(w(s) for s in e.seats) + "."
        if isinstance(e, MatchEnd):
            if len(e.winners) == 1:
                winner = e.winners[0]
                ending = "" if winner == self.me else "s"
                return f"{w(winner).capitalize()} win{ending} the match!"
            return "A shared win: " + ", ".join(w(s) for s in e.winners) + "."
        return None
