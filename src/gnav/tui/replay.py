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
from gnav.narrate import Narrator
from gnav.record import Replay, loads, replay
from gnav.round import full_event
from gnav.tui.keys import ENTER, EOF, ESC, LEFT, RIGHT, Keys
from gnav.tui.labels import lives_text, piece_label
from gnav.tui.screen import Screen
from gnav.tui.style import Style, pad, wrap
from gnav.tui.table import LOG_COLOURS, LogLine, seat_notes
from gnav.verify import results_warning
from gnav.views import spectator_view


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
    return rep, results_warning(text)


def _line(narrator: Narrator, rules_lang: str, e: Event) -> str | None:
    names = narrator.names
    rules = narrator.rules
    if isinstance(e, Swap) and e.seat_got is not None:
        return (f"{names[e.seat]} and {names[e.target]} swap: {names[e.seat]} now holds "
                f"{piece_label(rules, e.seat_got, rules_lang)}, {names[e.target]} holds "
                f"{piece_label(rules, e.target_got, rules_lang)}.")
    if isinstance(e, Draw) and e.piece is not None:
        return (f"{names[e.seat]} draws {piece_label(rules, e.piece, rules_lang)} from the "
                f"stock and sets {piece_label(rules, e.set_aside, rules_lang)} aside.")
    return narrator.line(e)


def build_steps(rep: Replay, lang: str | None = None) -> list[Step]:
    rules = rep.record.rules
    names = rep.record.seats
    narrator = Narrator(rules, names, lang=lang)
    say = narrator.lang
    steps: list[Step] = []
    for k, seen in enumerate(rep.states):
        first = seen[0]
        rnd = first.round
        assert rnd is not None
        lines: list[LogLine] = []
        for i, e in enumerate(rnd.public):
            text = _line(narrator, say, full_event(first.round, i, e))
            if text:
                lines.append((e.kind, text))
        dealt = ", ".join(f"{names[s]} {piece_label(rules, rules.ids[p], say)}"
                          for s, p in zip(rnd.seats, rnd.deal, strict=True))
        lines.append(("note", f"Dealt: {dealt}."))
        steps.append(Step(k, 0, first, tuple(lines)))
        for i, (_, action) in enumerate(rep.record.rounds[k].actions, 1):
            before = seen[i - 1]
            after, events = before.apply(action)
            base = len(before.round.public) if before.round is not None else 0
            lines = []
            for j, e in enumerate(events):
                text = _line(narrator, say, full_event(after.round, base + j, e))
                if text:
                    lines.append(("mine" if isinstance(e, Swap | Draw) else e.kind, text))
                if isinstance(e, RoundEnd):
                    lines.append(("note", "Lives: " + ", ".join(
                        f"{names[s]} {e.lives[s]}" for s in range(len(names))
                        if s not in before.out)))
            steps.append(Step(k, i, seen[i], tuple(lines)))
    return steps


def table(step: Step, style: Style, lang: str) -> list[str]:
    """Every seat with its piece now and its dealt piece: the full information."""
    state = step.state
    rnd = state.round
    assert rnd is not None
    rules = state.rules
    view = spectator_view(state)
    notes = seat_notes(view, lang)
    names = state.names
    w = max(8, *(len(x) for x in names)) + 1
    hands = dict(zip(rnd.seats, rnd.hands, strict=True))
    dealt = dict(zip(rnd.seats, rnd.deal, strict=True))
    n = len(names)
    out = [style(f"   {pad('seat', w)}  {pad('lives', 14)}{pad('holds', 24)}this round", "dim")]
    for seat in [(rnd.dealer + 1 + k) % n for k in range(n)]:
        mark = style("▶ ", "bold", "yellow") if seat == rnd.to_act else "  "
        dmark = style("D", "bold", "magenta") if seat == rnd.dealer else " "
        lives = lives_text(style, rules.preset.score, rnd.lives[seat], state.start_lives[seat])
        if seat not in hands:
            why = "out" if seat in state.out else "sits out"
            out.append(f" {mark}{style(pad(names[seat], w), 'dim')}{dmark} {pad(lives, 14)}"
                       f"{style(why, 'dim')}")
            continue
        now = piece_label(rules, rules.ids[hands[seat]], lang)
        was = piece_label(rules, rules.ids[dealt[seat]], lang)
        holds = style(now, "bold") + (style(f" (dealt {was})", "dim") if now != was else "")
        status = "  ".join(style(t, *c) for t, c in notes[seat] if not t.startswith("["))
        out.append(f" {mark}{pad(names[seat], w)}{dmark} {pad(lives, 14)}{pad(holds, 24)}"
                   f"{status}")
    left = rnd.stock[rnd.drawn:]
    top = ", ".join(piece_label(rules, rules.ids[p], lang) for p in left[:6])
    more = ", …" if len(left) > 6 else ""
    out.append("")
    out.append(style(f"Stock: {len(left)} left" + (f"; next: {top}{more}" if left else ""),
                     "dim"))
    if rnd.aside:
        aside = ", ".join(piece_label(rules, rules.ids[p], lang) for p in rnd.aside)
        out.append(style(f"Set aside: {aside}", "dim"))
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
               title: str) -> list[str]:
    step = steps[at]
    rounds = steps[-1].round_index + 1
    in_round = [s for s in steps if s.round_index == step.round_index]
    where = "the deal" if step.index == 0 else f"decision {step.index} of {len(in_round) - 1}"
    head = f" {title} · round {step.round_index + 1} of {rounds} · {where} "
    out = [style(pad(head, cols - 1), "reverse", "bold"), ""]
    out += table(step, style, lang)
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
    rep, warning = load(path)
    rules = rep.record.rules
    shown_lang = lang or rules.preset.lang
    title = f"Replay of {Path(path).name} · {rules.preset.title}"
    steps = build_steps(rep, lang)
    x = rep.record.x
    cut = isinstance(x, dict) and "unfinished_round" in x
    ending = _ending(rep.final, cut)
    if not steps:
        if warning:
            screen.print(screen.style(warning, "bold", "yellow"))
        screen.print(f"{Path(path).name}: the record has no rounds. {ending}")
        return 0
    if everything:
        _print_all(steps, screen, shown_lang, title, ending, warning)
        return 0
    with keys:
        screen.begin()
        try:
            _browse(steps, screen, keys, shown_lang, title, ending, warning)
        finally:
            screen.end()
    return 0


def _ending(final: MatchState, cut: bool) -> str:
    if final.winners is not None:
        names = [final.names[w] for w in final.winners]
        return (f"{names[0]} won the match." if len(names) == 1 else
                "A shared win: " + ", ".join(names) + ".")
    if cut:
        return "The match was stopped in the middle of a round (that round is not replayed)."
    return "The record ends here; the match is not over."


def _warning_lines(warning: str | None, style: Style, cols: int) -> list[str]:
    if not warning:
        return []
    return [style(part, "bold", "yellow") for part in wrap(warning, cols - 2, "  ")]


def _print_all(steps: list[Step], screen: Screen, lang: str, title: str,
               ending: str, warning: str | None = None) -> None:
    s = screen.style
    cols = 100
    screen.print(s(title, "bold"), *_warning_lines(warning, s, cols))
    for i, step in enumerate(steps):
        if step.index == 0:
            screen.print("", s(f"═══ Round {step.round_index + 1} ═══", "bold", "cyan"))
            screen.print(*table(step, s, lang), "")
        screen.print(*_log(step.lines, s, cols, now=True))
        last = i + 1 == len(steps) or steps[i + 1].index == 0
        if last:
            screen.print("", *table(step, s, lang))
    screen.print("", s(ending, "bold"), *_warning_lines(warning, s, cols))


def _browse(steps: list[Step], screen: Screen, keys: Keys, lang: str, title: str,
            ending: str, warning: str | None = None) -> None:
    s = screen.style
    at = 0
    while True:
        cols, rows = screen.size()
        end = at + 1 == len(steps)
        hint = "  ".join(s(k, "bold") if k.startswith("[") else k for k in (
            "[Enter/n] next", "[p] previous", "[r] next round", "[q] quit"))
        notice = _warning_lines(warning, s, cols)
        lines = step_frame(steps, at, s, cols, rows - 3 - len(notice), lang, title)
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
