"""The play loop: people and bots at one table, narrated, saved as a record at the end.

The engine's ``play_match`` runs the match; people join it as players whose ``act``
reads a key, and the listener draws every step. Each person (and the spectator) has a
log of their own, built from the events as that seat sees them, so in hot-seat play
nobody's private swaps show on someone else's screen.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gnav.errors import GnavError
from gnav.events import Draw, Eliminated, Event, MatchEnd, RoundEnd, Swap, Undo
from gnav.match import MatchState
from gnav.odds.figures import Figure
from gnav.protocol import Bot
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.runner import StopMatch, play_match
from gnav.texts.catalogue import say
from gnav.texts.narrate import Narrator
from gnav.texts.rules import spoken_word, title
from gnav.tui.board import LogLine, play_frame, table_lines
from gnav.tui.keys import ENTER, EOF, ESC, Keys
from gnav.tui.labels import lives_line, piece_label
from gnav.tui.rules_page import pager_words, rules_lines, rules_title
from gnav.tui.screen import Screen
from gnav.tui.style import width
from gnav.views import SeatView, seat_view, spectator_view
from gnav.vocab import Action, BotKind, Lang

BOT_NAMES = ("Astrid", "Bjørn", "Cecilie", "Dag", "Eirik", "Frida", "Gunnar", "Hedda",
             "Ivar", "Jorunn", "Knut", "Liv", "Magnus", "Nora", "Olav", "Petra", "Rune",
             "Sigrid", "Tor", "Unni", "Vidar", "Wenche", "Yngve", "Åse")

# The terminal's default opponent: plays the sources' advice, and answers at once.
DEFAULT_BOT = BotKind.THRESHOLD


def people_names(count: int, lang: Lang) -> list[str]:
    """The people's names when none are given, in the screen's language ("Spiller" in
    Norwegian and Danish): "Player", or "Player 1", "Player 2"... in hot-seat play."""
    if count == 1:
        return [say("tui.player", lang)]
    return [say("tui.player_n", lang, n=i + 1) for i in range(count)]


@dataclass
class PlayConfig:
    rules: Rules
    names: tuple[str, ...]
    humans: tuple[int, ...]  # seats played by people, at this screen
    bots: dict[int, Bot]
    kinds: dict[int, str]  # seat -> bot kind, for the record
    seed: int
    delay: float
    lang: Lang  # the language the calls are said in, and the pieces named in
    # The language of the screen's words, the narration and the rules behind "?"
    # (English where a language has calls but no texts).
    rules_lang: Lang
    record: Path
    title: str = field(default="")


class HumanPlayer:
    """A person at the keyboard, asked through the same protocol as a bot."""

    name = "human"

    def __init__(self, game: Game) -> None:
        self.game = game

    def act(self, view: SeatView) -> Action:
        return self.game.decide(view)


class Game:
    def __init__(self, cfg: PlayConfig, screen: Screen, keys: Keys) -> None:
        self.cfg = cfg
        self.screen = screen
        self.keys = keys
        self.rules = cfg.rules
        self.names = cfg.names
        self.match = MatchState.new(cfg.rules, cfg.names, seed=cfg.seed)
        self.hotseat = len(cfg.humans) > 1
        self.viewers: list[int | None] = list(cfg.humans)
        if not cfg.humans or self.hotseat:
            self.viewers.append(None)
        self.logs: dict[int | None, list[LogLine]] = {v: [] for v in self.viewers}
        self.cursor: dict[int | None, tuple[int, int]] = {}
        self.printed: dict[int | None, int] = {}
        self.narrators = {v: Narrator(cfg.rules, cfg.names, me=v, lang=cfg.lang,
                                      text=cfg.rules_lang)
                          for v in self.viewers}
        self.last_person: int | None = None  # hot-seat: whose eyes are on the screen
        self.acted: tuple[int, Action] | None = None  # the person who just acted, and how
        self.fast = False  # fast-forward once every person is out
        self.coach = False  # the coach's line under a person's turn (key c)
        self.coached: list[tuple[int, int]] = []  # (round, seat) decided with the coach on
        self.text = cfg.rules_lang
        self.title = say("tui.title_seed", self.text, seed=cfg.seed,
                         title=cfg.title or title(cfg.rules.preset, self.text))

    # -- who is looking ------------------------------------------------------------

    @property
    def watching(self) -> int | None:
        """The seat whose view is on screen between decisions: the one person, or in
        hot-seat play nobody's (the table as a spectator sees it)."""
        return self.cfg.humans[0] if len(self.cfg.humans) == 1 else None

    def players(self) -> list[Bot]:
        human = HumanPlayer(self)
        return [human if s in self.cfg.humans else self.cfg.bots[s]
                for s in range(len(self.names))]

    # -- narration -----------------------------------------------------------------

    def listen(self, match: MatchState, events: tuple[Event, ...]) -> None:
        self.match = match
        self._narrate(match, events)
        if match.over:
            return  # the final screen is drawn once the record is saved
        ended = any(isinstance(e, RoundEnd) for e in events)
        acted, self.acted = self.acted, None
        rnd = match.round
        people_in = rnd is not None and any(s in rnd.seats for s in self.cfg.humans)
        if ended and people_in and not self.fast:
            self.round_over()
            return
        if self.hotseat and acted is not None and acted[1] == Action.SWAP and not ended:
            self.private_result(acted[0])
            return
        self.draw(self.watching)
        if self.cfg.delay and not self.fast:
            time.sleep(self.cfg.delay)

    def _narrate(self, match: MatchState, events: tuple[Event, ...]) -> None:
        rnd = match.round
        if rnd is None:
            return
        # Eliminations and the match's end come from the match, not the round's log.
        extras = [e for e in events if isinstance(e, Eliminated | MatchEnd)]
        gone = {s for e in extras if isinstance(e, Eliminated) for s in e.seats}
        for v in self.viewers:
            seen = rnd.seat_events(v) if v is not None and v in rnd.seats else list(rnd.public)
            number, done = self.cursor.get(v, (0, 0))
            start = done if number == rnd.number else 0
            self.cursor[v] = (rnd.number, len(seen))
            narrator = self.narrators[v]
            for e in [*seen[start:], *extras]:
                line = narrator.line(e)
                if not line:
                    continue
                kind = "mine" if _private(e) else e.kind
                if isinstance(e, RoundEnd):
                    self.logs[v].append((kind, line))
                    self.logs[v].append(("note", self._lives_line(e, gone)))
                    continue
                self.logs[v].append((kind, line))

    def _lives_line(self, e: RoundEnd, gone: set[int]) -> str:
        out = set(self.match.out) - gone
        return lives_line(self.names, e.lives, (s for s in range(len(self.names))
                                                if s not in out), self.text)

    # -- drawing -------------------------------------------------------------------

    def draw(self, viewer: int | None, prompt: Sequence[str] = (), *,
             table: bool = True, again: bool = False) -> None:
        """The screen as ``viewer`` may see it. Plain output prints the new log lines,
        and the table only when someone must decide."""
        s = self.screen.style
        view = _view(self.match, viewer)
        cols, rows = self.screen.size()
        lang = self.cfg.lang
        if self.screen.fancy:
            self.screen.frame(play_frame(view, self.match.start_lives, self.logs[viewer],
                                         prompt, style=s, cols=cols, rows=rows, lang=lang,
                                         title=self.title, text=self.text))
            return
        log = self.logs[viewer]
        start = self.printed.get(viewer, 0)
        self.printed[viewer] = len(log)
        self.screen.print(*(text for _, text in log[start:]))
        if prompt:
            lines = play_frame(view, self.match.start_lives, None, prompt, style=s,
                               cols=cols, rows=rows, lang=lang, title=self.title,
                               text=self.text) \
                if table and not again else [x for x in prompt if x]
            self.screen.print(*lines)

    def keys_hint(self, *parts: str) -> list[str]:
        """The keys' hints two spaces apart, a key's in bold. On a terminal they take as
        many lines as its width needs, a hint never split: a frame's line is clipped at
        the edge, and a longer word in another language must not push a key off it."""
        room = self.screen.size()[0] - 1 if self.screen.fancy else None
        lines: list[str] = []
        for part in parts:
            shown = self.screen.style(part, "bold") if part.startswith("[") else part
            if lines and (room is None or width(lines[-1]) + 2 + width(shown) <= room):
                lines[-1] += "  " + shown
            else:
                lines.append(shown)
        return lines

    def read(self) -> str:
        key = self.keys.read()
        if key == EOF:
            raise StopMatch
        return key

    def show_rules(self) -> None:
        lang = self.text
        lines = rules_lines(self.rules, lang, self.screen.style)
        self.screen.page(lines, self.keys, title=rules_title(self.rules, lang),
                         words=pager_words(lang))

    # -- the person's moments --------------------------------------------------------

    def decide(self, view: SeatView) -> Action:
        """A person's turn: stand or swap, by key."""
        seat = view.seat
        assert seat is not None
        if self.hotseat and self.last_person != seat:
            self.pass_screen(seat)
        self.last_person = seat
        s = self.screen.style
        target = view.left_of(seat)
        text = self.text
        whom = say("ev.stock", text) if target is None else self.names[target]
        lang = self.cfg.lang
        stand_word = spoken_word(self.rules, "stand", lang)
        swap_word = spoken_word(self.rules, "swap", lang)
        can_stand = Action.STAND in view.legal
        message = ""
        again = False
        advice: list[str] | None = None
        self.keys.flush()
        while True:
            if self.coach and advice is None:
                advice = [coach_line(view, text, self.rules, lang)]
            mine = piece_label(self.rules, view.piece, lang)
            stand = say("tui.key_stand", text, word=stand_word) if can_stand else \
                s(say("tui.no_stand", text), "dim")
            prompt = [
                s(message, "bold", "yellow") if message else "",
                s(say("tui.your_turn", text, name=self.names[seat]), "bold", "cyan") +
                ": " + say("tui.you_hold", text, piece=mine),
                *(advice if self.coach and advice else []),
                *self.keys_hint(stand, say("tui.key_swap", text, whom=whom, word=swap_word),
                                say("tui.key_coach_off", text) if self.coach
                                else say("tui.key_coach", text),
                                say("tui.key_rules", text), say("tui.key_quit", text)),
            ]
            self.draw(seat, prompt, again=again)
            again = True
            key = self.read().lower()
            if key == "s" and can_stand:
                action = Action.STAND
            elif key == "w":
                action = Action.SWAP
            elif key == "?":
                self.show_rules()
                message = ""
                continue
            elif key == "c":
                self.coach = not self.coach
                message = ""
                continue
            elif key in ("q", ESC):
                raise StopMatch
            elif key == "s":
                message = say("tui.must_swap", text)
                continue
            else:
                message = say("tui.keys_help", text)
                continue
            self.acted = (seat, action)
            if self.coach:
                self.coached.append((view.round, seat))
            return action

    def pass_screen(self, seat: int) -> None:
        """Hot-seat: hide everything private until the next person says they're ready."""
        s = self.screen.style
        name = self.names[seat]
        prompt = ["", s(say("tui.pass_screen", self.text, name=name), "bold", "cyan"),
                  *self.keys_hint(say("tui.ready", self.text, name=name,
                                      key=s("[Enter]", "bold")), say("tui.key_quit", self.text))]
        self.keys.flush()
        again = False
        while True:
            self.draw(None, prompt, again=again)
            again = True
            key = self.read().lower()
            if key in ("q", ESC):
                raise StopMatch
            if key == ENTER:
                return

    def private_result(self, seat: int) -> None:
        """Hot-seat: show a person what their swap brought, then hide it again."""
        s = self.screen.style
        prompt = ["", s(say("tui.swap_brought", self.text, name=self.names[seat]), "bold",
                        "cyan"),
                  *self.keys_hint(say("tui.key_hide", self.text), say("tui.key_quit", self.text))]
        again = False
        while True:
            self.draw(seat, prompt, table=False, again=again)
            again = True
            key = self.read().lower()
            if key in ("q", ESC):
                raise StopMatch
            if key == ENTER:
                self.draw(None)
                return

    def round_over(self) -> None:
        """Let the people read the showdown and the payments before the next deal."""
        s = self.screen.style
        alive = set(self.match.alive())
        people_left = [p for p in self.cfg.humans if p in alive]
        viewer = self.watching
        text = self.text
        if people_left:
            head = s(say("tui.round_over", text), "bold")
            hint = self.keys_hint(say("tui.key_next_round", text), say("tui.key_rules", text),
                                  say("tui.key_quit", text))
        else:
            gone = say("tui.you_out", text) if len(self.cfg.humans) == 1 else \
                say("tui.all_out", text)
            head = s(gone, "bold", "red")
            hint = self.keys_hint(say("tui.key_watch", text), say("tui.key_fast", text),
                                  say("tui.key_quit", text))
        self.keys.flush()
        again = False
        while True:
            self.draw(viewer, ["", head, *hint], again=again)
            again = True
            key = self.read().lower()
            if key == ENTER:
                return
            if key == "f" and not people_left:
                self.fast = True
                return
            if key == "?":
                self.show_rules()
            elif key in ("q", ESC):
                raise StopMatch

    # -- the match -------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end or to a quit; save the record either way."""
        stopped = False
        try:
            self.draw(self.watching)
            self.match = play_match(self.rules, self.names, self.players(), seed=self.cfg.seed,
                                    listener=self.listen, match=self.match)
        except KeyboardInterrupt:
            stopped = True
        except GnavError:
            # A bot or the engine refused a move: keep the match so far, then report.
            self.finish(True)
            raise
        stopped = stopped or not self.match.over
        return self.finish(stopped)

    def finish(self, stopped: bool) -> int:
        s = self.screen.style
        text = self.text
        try:
            where = save_record(self.match, self.cfg, self.coached)
            saved = s(say("tui.saved", text, path=where), "bold", "green") + \
                "  " + say("tui.replay_hint", text, path=where)
            code = 0
        except OSError as e:
            saved = s(say("tui.not_saved", text, path=self.cfg.record,
                          error=e.strerror or e), "bold", "red")
            code = 1
        if stopped:
            head = s(say("tui.stopped", text), "bold", "yellow")
        else:
            head = s(self._result_text(), "bold", "green")
        viewer = self.watching
        if self.screen.fancy:
            self.draw(viewer, ["", head, saved])
        else:
            self.draw(viewer)
            view = _view(self.match, viewer)
            self.screen.print("", *table_lines(view, self.match.start_lives, s, self.cfg.lang,
                                               viewer, text=text), "", head, saved)
        return code

    def _result_text(self) -> str:
        """The winner as the narration says it to whoever watches: "You win the match!"
        to the one person playing, the names in hot-seat play."""
        line = self.narrators[self.watching].line(MatchEnd(self.match.winners or ()))
        return line or ""


def _view(match: MatchState, viewer: int | None) -> SeatView:
    return spectator_view(match) if viewer is None else seat_view(match, viewer)


def _private(e: Event) -> bool:
    """An event carrying a piece only its reader may see."""
    if isinstance(e, Swap):
        return e.seat_got is not None
    if isinstance(e, Draw | Undo):
        return e.piece is not None
    return False


def save_record(match: MatchState, cfg: PlayConfig,
                coached: Sequence[tuple[int, int]] = ()) -> Path:
    """Write the record (a round cut short by a quit goes under ``x``: see from_match).
    ``coached``: the (round, seat) decisions taken with the coach on, written as
    ``x.coached`` (docs/spec/records.md)."""
    x: dict[str, Any] = {
        "program": "gnav play",
        "seed": cfg.seed,
        "players": {cfg.names[s]: ("person" if s in cfg.humans else cfg.kinds.get(s, "bot"))
                    for s in range(len(cfg.names))},
    }
    if coached:
        x["coached"] = [[r, cfg.names[s]] for r, s in coached]
    data = from_match(match, x=x)
    cfg.record.write_text(dumps(data), encoding="utf-8")
    return cfg.record


def play(cfg: PlayConfig, screen: Screen, keys: Keys) -> int:
    with keys:
        screen.begin()
        try:
            return Game(cfg, screen, keys).run()
        finally:
            screen.end()


def coach_line(view: SeatView, lang: str, rules: Rules, piece_lang: str) -> str:
    """The coach's figures for a person's turn, in one line (gnav.odds.coach: from this
    seat's view only)."""
    from gnav.odds.coach import advise
    from gnav.odds.verdict import CLOSE

    advice = advise(view)
    if advice is None:
        return say("tui.coach_none", lang)

    def pct(f: Figure) -> str:
        if f.low is None or f.high is None:
            return f"{100 * f.value:.0f}%"
        return f"{100 * f.value:.0f}% (±{100 * (f.high - f.low) / 2:.0f})"
    stand, swap = pct(advice.pay_stand), pct(advice.pay_swap)
    if advice.expert == Action.SWAP:
        line = say("tui.coach_swap", lang, stand=stand, swap=swap)
    else:
        line = say("tui.coach_stand", lang, stand=stand, swap=swap)
    # What the figures say, and why the expert differs where it does.
    gain = advice.swap_gain
    said = advice.verdict
    d = f"{abs(gain.value):.2f}"
    if said != CLOSE:
        line += " " + say(f"tui.coach_verdict_{said}", lang, d=d)
    elif gain.low is None:
        line += " " + say("tui.coach_verdict_equal", lang)
    else:
        line += " " + say("tui.coach_verdict_close", lang, d=d)
    if advice.why is not None:
        line += " " + say(f"tui.coach_why_{advice.why}", lang,
                          p=f"{100 * advice.expert_swap:.0f}%")
    if advice.win_stand is not None and advice.win_swap is not None:
        stand, swap = f"{100 * advice.win_stand:.1f}%", f"{100 * advice.win_swap:.1f}%"
        if advice.win_source == "model":  # the lives model's, where no match ships
            line += " " + say("tui.coach_win_model", lang, stand=stand, swap=swap)
        else:
            line += " " + say("tui.coach_win", lang, stand=stand, swap=swap)
    return line
