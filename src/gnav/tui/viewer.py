"""``gnav replay``: step through a finished record with everything face up.

A record is history, so the replay shows what no seat saw at the time: every hand, the
pieces of every swap, the stock. The steps are rebuilt by replaying the record through
the engine (``gnav.record.replay``), so what is shown is what the rules computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gnav.errors import GnavError, InconsistentError, MalformedError
from gnav.events import Draw, Event, RoundEnd, Swap
from gnav.match import MatchState
from gnav.record import Replay, loads, replay
from gnav.round import full_event
from gnav.texts.catalogue import say, text_lang
from gnav.texts.narrate import Narrator
from gnav.texts.rules import title as preset_title
from gnav.tui.board import LOG_COLOURS, LogLine, column, seat_notes, turn_order
from gnav.tui.keys import ENTER, EOF, ESC, LEFT, RIGHT, Keys
from gnav.tui.labels import lives_line, lives_text, piece_label
from gnav.tui.screen import Screen
from gnav.tui.style import Style, pad, width, wrap
from gnav.verify import results_warning
from gnav.views import spectator_view
from gnav.vocab import Lang


@dataclass(frozen=True)
class Step:
    round_index: int  # 0-based
    index: int  # 0: the deal; k: after the k-th decision
    state: MatchState
    lines: tuple[LogLine, ...]  # what happened in this step, in full


def load(path: str) -> tuple[Replay, str | None]:
    """The record at ``path``, replayed, and the warning to open it with when the results
    it states disagree with the engine's (the browser's replay says the same words). A
    file that does not replay is one GnavError line, as verify says."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GnavError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise GnavError(f"{path}: cannot read: {e}") from None
    try:
        rep = replay(loads(text))
    except (MalformedError, InconsistentError) as e:
        raise GnavError(f"{p.name}: {e}") from None
    return rep, results_warning(rep)


def _line(narrator: Narrator, e: Event) -> str | None:
    """``e`` in words, a swap or a draw with its pieces face up: the words in the
    narrator's ``text``, the pieces named in its ``lang``, as the table names them."""
    names = narrator.names
    rules = narrator.rules
    lang, text = narrator.lang, narrator.text
    if isinstance(e, Swap) and e.seat_got is not None:
        return say("tui.replay_swap", text, seat=names[e.seat], target=names[e.target],
                   seat_got=piece_label(rules, e.seat_got, lang),
                   target_got=piece_label(rules, e.target_got, lang))
    if isinstance(e, Draw) and e.piece is not None:
        return say("tui.replay_draw", text, seat=names[e.seat],
                   piece=piece_label(rules, e.piece, lang),
                   aside=piece_label(rules, e.set_aside, lang))
    return narrator.line(e)


def build_steps(rep: Replay, lang: str | None = None, text: str = Lang.EN) -> list[Step]:
    """Every step of the record, told with the calls in ``lang`` (None: the game's own)
    and the sentences in ``text``."""
    rules = rep.record.rules
    names = rep.record.seats
    narrator = Narrator(rules, names, lang=lang, text=text)
    shown = narrator.lang
    text = narrator.text
    steps: list[Step] = []
    for k, seen in enumerate(rep.states):
        first = seen[0]
        rnd = first.round
        assert rnd is not None
        lines: list[LogLine] = []
        for i, e in enumerate(rnd.public):
            told = _line(narrator, full_event(first.round, i, e))
            if told:
                lines.append((e.kind, told))
        dealt = ", ".join(f"{names[s]} {piece_label(rules, rules.ids[p], shown)}"
                          for s, p in zip(rnd.seats, rnd.deal, strict=True))
        lines.append(("note", say("tui.dealt", text, hands=dealt)))
        steps.append(Step(k, 0, first, tuple(lines)))
        for i, (_, action) in enumerate(rep.record.rounds[k].actions, 1):
            before = seen[i - 1]
            after, events = before.apply(action)
            base = len(before.round.public) if before.round is not None else 0
            lines = []
            for j, e in enumerate(events):
                told = _line(narrator, full_event(after.round, base + j, e))
                if told:
                    lines.append(("mine" if isinstance(e, Swap | Draw) else e.kind, told))
                if isinstance(e, RoundEnd):
                    lines.append(("note", lives_line(
                        names, e.lives, (s for s in range(len(names)) if s not in before.out),
                        text)))
            steps.append(Step(k, i, seen[i], tuple(lines)))
    return steps


def table(step: Step, style: Style, lang: str, text: str = Lang.EN) -> list[str]:
    """Every seat with its piece now and its dealt piece: the full information, in the
    words of ``text`` with the pieces named in ``lang``."""
    state = step.state
    rnd = state.round
    assert rnd is not None
    rules = state.rules
    view = spectator_view(state)
    notes = seat_notes(view, lang, text=text)
    names = state.names
    hands = dict(zip(rnd.seats, rnd.hands, strict=True))
    dealt = dict(zip(rnd.seats, rnd.deal, strict=True))
    lives = [lives_text(style, rules.preset.score, rnd.lives[seat], state.start_lives[seat])
             for seat in range(len(names))]
    holds: dict[int, str] = {}
    for seat, pid in hands.items():
        now = piece_label(rules, rules.ids[pid], lang)
        was = piece_label(rules, rules.ids[dealt[seat]], lang)
        holds[seat] = style(now, "bold") + (
            " " + style(say("tui.dealt_was", text, piece=was), "dim") if now != was else "")
    seat_h, lives_h = say("tui.col_seat", text), say("tui.col_lives", text)
    holds_h = say("tui.col_holds", text)
    # A name, at least one space, the dealer's mark and a space: the header's first cell.
    w = max(column(names, 9, 1), width(seat_h))
    lives_w = column([lives_h, *lives], 14)
    holds_w = column([holds_h, *holds.values()], 24)
    out = [style(f"   {pad(seat_h, w + 2)}{pad(lives_h, lives_w)}{pad(holds_h, holds_w)}"
                 f"{say('tui.col_round', text)}", "dim")]
    for seat in turn_order(rnd.dealer, len(names)):
        mark = style("▶ ", "bold", "yellow") if seat == rnd.to_act else "  "
        dmark = style("D", "bold", "magenta") if seat == rnd.dealer else " "
        if seat not in hands:
            why = say("tui.out", text) if seat in state.out else say("tui.sits_out", text)
            out.append(f" {mark}{style(pad(names[seat], w), 'dim')}{dmark} "
                       f"{pad(lives[seat], lives_w)}{style(why, 'dim')}")
            continue
        status = "  ".join(style(t, *c) for t, c in notes[seat] if not t.startswith("["))
        out.append(f" {mark}{pad(names[seat], w)}{dmark} {pad(lives[seat], lives_w)}"
                   f"{pad(holds[seat], holds_w)}{status}")
    left = rnd.stock[rnd.drawn:]
    out.append("")
    if left:
        top = ", ".join(piece_label(rules, rules.ids[p], lang) for p in left[:6])
        more = ", …" if len(left) > 6 else ""
        out.append(style(say("tui.stock_next", text, n=len(left), next=top + more), "dim"))
    else:
        out.append(style(say("tui.stock_left", text, n=0), "dim"))
    if rnd.aside:
        aside = ", ".join(piece_label(rules, rules.ids[p], lang) for p in rnd.aside)
        out.append(style(say("tui.set_aside", text, pieces=aside), "dim"))
    return out


def _log(lines: tuple[LogLine, ...], style: Style, cols: int, *, now: bool) -> list[str]:
    out: list[str] = []
    for kind, text in lines:
        attrs = LOG_COLOURS.get(kind, ())
        if not now:
            attrs = ("dim",)
        out += [style(part, *attrs) for part in wrap(text, cols - 2, "    ")]
    return out


def step_frame(steps: list[Step], at: int, style: Style, cols: int, rows: int, lang: str,
               title: str, text: str = Lang.EN) -> list[str]:
    step = steps[at]
    rounds = steps[-1].round_index + 1
    in_round = [s for s in steps if s.round_index == step.round_index]
    where = say("tui.the_deal", text) if step.index == 0 else \
        say("tui.decision", text, k=step.index, n=len(in_round) - 1)
    head = " · ".join((title, say("tui.round_of", text, round=step.round_index + 1,
                                  rounds=rounds), where))
    out = [style(pad(f" {head} ", cols - 1), "reverse", "bold"), ""]
    out += table(step, style, lang, text)
    out.append("")
    earlier: list[str] = []
    for s in in_round[: step.index]:
        earlier += _log(s.lines, style, cols, now=False)
    current = _log(step.lines, style, cols, now=True)
    room = max(3, rows - len(out) - 3 - len(current))
    out += earlier[-room:] + current
    return out


def run_replay(path: str, screen: Screen, keys: Keys, *, everything: bool,
               lang: str | None) -> int:
    """Show the record at ``path``: step by step, or ``everything`` at once. ``lang``
    (None: the game's own) names the pieces and says the calls; the words are said in
    it too where it has texts, else in English."""
    rep, warning = load(path)
    rules = rep.record.rules
    shown_lang = lang or rules.preset.lang
    text = text_lang(lang or Lang.EN)
    name = Path(path).name
    title = f"{say('tui.replay_of', text, file=name)} · {preset_title(rules.preset, text)}"
    steps = build_steps(rep, lang, text)
    x = rep.record.x
    cut = isinstance(x, dict) and "unfinished_round" in x
    ending = _ending(rep.final, cut, text)
    if not steps:
        if warning:
            screen.print(screen.style(warning, "bold", "yellow"))
        screen.print(f"{say('tui.no_rounds', text, file=name)} {ending}")
        return 0
    if everything:
        _print_all(steps, screen, shown_lang, title, ending, warning, text)
        return 0
    with keys:
        screen.begin()
        try:
            _browse(steps, screen, keys, shown_lang, title, ending, warning, text)
        finally:
            screen.end()
    return 0


def _ending(final: MatchState, cut: bool, text: str = Lang.EN) -> str:
    if final.winners is not None:
        names = [final.names[w] for w in final.winners]
        return (say("tui.won", text, seat=names[0]) if len(names) == 1 else
                say("ev.match_shared", text, seats=", ".join(names)))
    return say("tui.cut", text) if cut else say("tui.not_over", text)


def _warning_lines(warning: str | None, style: Style, cols: int) -> list[str]:
    if not warning:
        return []
    return [style(part, "bold", "yellow") for part in wrap(warning, cols - 2, "  ")]


def _print_all(steps: list[Step], screen: Screen, lang: str, title: str,
               ending: str, warning: str | None = None, text: str = Lang.EN) -> None:
    s = screen.style
    cols = 100
    screen.print(s(title, "bold"), *_warning_lines(warning, s, cols))
    for i, step in enumerate(steps):
        if step.index == 0:
            heading = say("tui.round", text, n=step.round_index + 1)
            screen.print("", s(f"═══ {heading[:1].upper()}{heading[1:]} ═══", "bold", "cyan"))
            screen.print(*table(step, s, lang, text), "")
        screen.print(*_log(step.lines, s, cols, now=True))
        last = i + 1 == len(steps) or steps[i + 1].index == 0
        if last:
            screen.print("", *table(step, s, lang, text))
    screen.print("", s(ending, "bold"), *_warning_lines(warning, s, cols))


def _browse(steps: list[Step], screen: Screen, keys: Keys, lang: str, title: str,
            ending: str, warning: str | None = None, text: str = Lang.EN) -> None:
    s = screen.style
    at = 0
    hint = "  ".join(s(k, "bold") for k in (
        say("tui.key_next", text), say("tui.key_previous", text), say("tui.key_round", text),
        say("tui.key_quit", text)))
    while True:
        cols, rows = screen.size()
        end = at + 1 == len(steps)
        notice = _warning_lines(warning, s, cols)
        lines = step_frame(steps, at, s, cols, rows - 3 - len(notice), lang, title, text)
        lines[1:1] = notice  # under the title, on every step
        footer = ["", s(ending, "bold") if end else "", hint]
        if screen.fancy:
            body = lines + [""] * max(0, rows - 1 - len(lines) - len(footer))
            screen.frame(body + footer)
        else:
            screen.print("", *lines, *footer)
        key = keys.read()
        if key in ("q", "Q", ESC, EOF):
            return
        if key in (ENTER, "n", " ", RIGHT):
            if end:
                return
            at += 1
        elif key in ("p", "b", LEFT):
            at = max(0, at - 1)
        elif key == "r":
            nxt = [i for i in range(at + 1, len(steps)) if steps[i].index == 0]
            at = nxt[0] if nxt else len(steps) - 1
