"""The play screen's pieces: the table round the circle, the own piece drawn large,
and the log of what was said. Everything is built from a SeatView, so a frame can never
show more than its seat may know."""

from __future__ import annotations

from collections.abc import Sequence

from gnav.events import Answer, Ask, Event, Gain, Knock, Pay, Showdown, Stand
from gnav.texts.rules import native_name
from gnav.tui.labels import lives_text, piece_label, piece_of
from gnav.tui.style import Style, pad, width, wrap
from gnav.views import SeatView

# How each kind of log line is coloured: the calls stand out, payments are red.
LOG_COLOURS: dict[str, tuple[str, ...]] = {
    "round_start": ("bold", "cyan"), "knock": ("magenta",), "answer": ("bold", "yellow"),
    "pay": ("red",), "gain": ("green",), "showdown": ("bold",), "round_end": ("cyan",),
    "eliminated": ("bold", "red"), "match_end": ("bold", "green"), "undo": ("yellow",),
    "note": ("dim",), "mine": ("cyan",),
}

LogLine = tuple[str, str]  # (kind, text)


def seat_notes(view: SeatView, lang: str,
               viewer: int | None = None) -> dict[int, list[tuple[str, tuple[str, ...]]]]:
    """What each seat did this round, as short coloured notes, from the seat's own log."""
    rules = view.rules
    notes: dict[int, list[tuple[str, tuple[str, ...]]]] = {s: [] for s in range(len(view.names))}
    paid: dict[int, int] = {}
    shown: dict[int, str] = {}
    events: Sequence[Event] = view.events if view.seat is not None else view.public
    for e in events:
        if isinstance(e, Knock):
            notes[e.seat].append(("knocked: a fool", ("magenta",)))
        elif isinstance(e, Stand):
            notes[e.seat].append(("stands", ("dim",)))
        elif isinstance(e, Ask):
            whom = "the stock" if e.target is None else \
                "you" if e.target == viewer else view.names[e.target]
            notes[e.seat].append((f"asks {whom}", ("dim",)))
        elif isinstance(e, Answer) and e.seat is not None:
            name = native_name(rules, piece_of(rules, e.piece), lang)
            notes[e.seat].append((f"shows {name}!", ("bold", "yellow")))
        elif isinstance(e, Pay) and e.paid:
            paid[e.seat] = paid.get(e.seat, 0) - 1
        elif isinstance(e, Gain):
            paid[e.seat] = paid.get(e.seat, 0) + 1
        elif isinstance(e, Showdown):
            shown = e.hands
    for seat, pid in shown.items():
        notes[seat].insert(0, (f"[{piece_label(rules, pid, lang)}]", ("bold",)))
    for seat, change in paid.items():
        if change:
            colour = ("bold", "green") if change > 0 else ("bold", "red")
            word = "pays" if change < 0 else "gains"
            notes[seat].append((f"{word} {abs(change)}", colour))
    return notes


def table_lines(view: SeatView, start_lives: Sequence[int], style: Style, lang: str,
                viewer: int | None) -> list[str]:
    """One line per seat, clockwise from the dealer's left, so the dealer comes last and
    the list reads in turn order."""
    n = len(view.names)
    dealer = view.dealer
    order = [(dealer + 1 + k) % n for k in range(n)]
    name_w = max(8, *(len(x) for x in view.names)) + 1
    notes = seat_notes(view, lang, viewer)
    out_set, sitting = set(view.out), set(view.sitting_out)
    lines = [style(f"   {pad('seat', name_w + 6)}  {pad('lives', 14)}this round", "dim")]
    for seat in order:
        name = view.names[seat]
        mark = "▶ " if seat == view.to_act else "  "
        you = seat == viewer and name.casefold() != "you"
        label = pad(name + (" (you)" if you else ""), name_w + 6)
        if seat == viewer:
            label = style(label, "bold", "cyan")
        elif seat == view.to_act:
            label = style(label, "bold")
        dealer_mark = style("D", "bold", "magenta") if seat == dealer else " "
        lives = lives_text(style, view.rules.preset.score, view.lives[seat], start_lives[seat])
        if seat in out_set:
            status = style("out", "dim")
            label = style(plainish(name, name_w + 6), "dim")
        elif seat in sitting and seat not in view.order:
            status = style("sits out this round", "dim")
        else:
            parts = [style(text, *colour) for text, colour in notes[seat]]
            if seat == view.to_act:
                parts.append(style("← to play", "bold", "yellow"))
            status = "  ".join(parts)
        lines.append(f" {style(mark, 'bold', 'yellow')}{label}{dealer_mark} "
                     f"{pad(lives, 14)}{status}")
    return lines


def plainish(name: str, cols: int) -> str:
    return name + " " * max(0, cols - len(name))


def piece_box(view: SeatView, style: Style, lang: str) -> list[str]:
    """The reader's own piece, large: its name in the game's language, English below."""
    rules = view.rules
    inner = 24
    if view.seat is None:
        return []
    if view.piece is None:
        body = [("", ()), ("not dealt in", ("dim",)), ("this round", ("dim",)), ("", ())]
        colour: tuple[str, ...] = ("dim",)
        note = ""
    else:
        p = piece_of(rules, view.piece)
        native, english = native_name(rules, p, lang), p.name()
        rank = rules.pieces.index(p) + 1
        colour = ("bold", "yellow") if p.matador else ("bold", "red") if p.fool else ("bold",)
        body = [("", ()), (native.upper(), colour),
                (english if english != native else "", ("dim",)), ("", ())]
        if p.matador and p.power is not None:
            note = f"matador: {p.power.value.replace('_', ' + ')}"
        elif p.fool:
            note = "the fool"
        else:
            note = f"rank {rank} of {len(rules.pieces)}"
    edge = style("─" * inner, *colour)
    lines = [style("your piece", "dim"), style("┌", *colour) + edge + style("┐", *colour)]
    for text, attrs in body:
        left = (inner - len(text)) // 2
        cell = " " * left + style(text, *attrs) + " " * (inner - left - len(text))
        lines.append(style("│", *colour) + cell + style("│", *colour))
    lines.append(style("└", *colour) + edge + style("┘", *colour))
    if note:
        lines.append(style(note, "dim"))
    return lines


def piece_line(view: SeatView, style: Style, lang: str) -> list[str]:
    """The own piece in one framed line, for terminals too narrow for the large box."""
    if view.seat is None:
        return []
    if view.piece is None:
        return [style("your piece: none this round", "dim")]
    rules = view.rules
    p = piece_of(rules, view.piece)
    native, english = native_name(rules, p, lang), p.name()
    colour = ("bold", "yellow") if p.matador else ("bold", "red") if p.fool else ("bold",)
    beside = f" ({english})" if english != native else ""
    what = (f"matador: {p.power.value.replace('_', ' + ')}" if p.power is not None else
            "the fool" if p.fool else f"rank {rules.pieces.index(p) + 1} of {len(rules.pieces)}")
    return [style("your piece: ", "dim") + style(f"▌ {native.upper()} ▐", *colour) +
            f"{beside}  " + style(what, "dim")]


def side_by_side(left: list[str], right: list[str], left_width: int) -> list[str]:
    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [pad(a, left_width) + "  " + b for a, b in zip(left, right, strict=True)]


def log_lines(log: Sequence[LogLine], style: Style, cols: int, rows: int) -> list[str]:
    """The newest ``rows`` lines of the log, wrapped and coloured by kind."""
    wrapped: list[str] = []
    for kind, text in log[-rows * 2:]:
        attrs = LOG_COLOURS.get(kind, ())
        wrapped += [style(part, *attrs) for part in wrap(text, cols - 2, "    ")]
    return wrapped[-rows:] if rows > 0 else []


def play_frame(view: SeatView, start_lives: Sequence[int], log: Sequence[LogLine] | None,
               prompt: Sequence[str], *, style: Style, cols: int, rows: int, lang: str,
               title: str) -> list[str]:
    """The whole play screen: header, table and piece, log, prompt. ``log=None`` leaves
    the log out, for plain output, where the log has already been printed line by line."""
    s = style
    rnd = f"round {view.round}" if view.round else "before the first deal"
    head = f" {title} · {rnd} · {view.names[view.dealer]} deals · stock {view.stock_left} "
    header = [s(pad(head, cols - 1), "reverse", "bold"), ""]
    table = table_lines(view, start_lives, s, lang, view.seat)
    box = piece_box(view, s, lang)
    table_w = max(width(x) for x in table) if table else 0
    box_w = max(width(x) for x in box) if box else 0
    if box and table_w + 2 + box_w <= cols:
        body = side_by_side(table, box, table_w)
    elif box:
        # A narrow terminal (80 columns): the piece goes under the table, in one line.
        body = [*table, "", *piece_line(view, s, lang)]
    else:
        body = table
    if log is None:
        return [*header, *body, "", *prompt]
    avail = rows - 1  # the frame leaves the last row alone, so it never scrolls
    fixed = len(header) + len(body) + 1 + len(prompt) + 1
    if fixed > avail:  # a table taller than the screen: the prompt must still show
        body = body[: max(0, len(body) - (fixed - avail))]
        fixed = avail
    log_rows = avail - fixed
    logged = log_lines(log, s, cols, log_rows)
    return [*header, *body, "", *logged, *[""] * (log_rows - len(logged)), "", *prompt]
