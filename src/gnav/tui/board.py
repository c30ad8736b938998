"""The play screen's pieces: the table round the circle, the own piece drawn large,
and the log of what was said. Everything is built from a SeatView, so a frame can never
show more than its seat may know."""

from __future__ import annotations

from collections.abc import Sequence

from gnav.events import Answer, Ask, Event, EventKind, Gain, Knock, Pay, Showdown, Stand
from gnav.pieces import Piece
from gnav.rules import Rules
from gnav.texts.catalogue import say
from gnav.texts.rules import native_name, short_text
from gnav.tui.labels import lives_text, piece_label, piece_of
from gnav.tui.style import Style, pad, width, wrap
from gnav.views import SeatView
from gnav.vocab import Lang

# How each kind of log line is coloured: the calls stand out, payments are red.
# Besides the events' kinds, a line is a note, or the reader's own (a private swap or draw).
LOG_COLOURS: dict[str, tuple[str, ...]] = {
    EventKind.ROUND_START: ("bold", "cyan"), EventKind.KNOCK: ("magenta",),
    EventKind.ANSWER: ("bold", "yellow"), EventKind.PAY: ("red",), EventKind.GAIN: ("green",),
    EventKind.SHOWDOWN: ("bold",), EventKind.ROUND_END: ("cyan",),
    EventKind.ELIMINATED: ("bold", "red"), EventKind.MATCH_END: ("bold", "green"),
    EventKind.UNDO: ("yellow",), "note": ("dim",), "mine": ("cyan",),
}

LogLine = tuple[str, str]  # (kind, text)


def seat_notes(view: SeatView, lang: str, viewer: int | None = None, *,
               text: str = Lang.EN) -> dict[int, list[tuple[str, tuple[str, ...]]]]:
    """What each seat did this round, as short coloured notes, from the seat's own log:
    the words in ``text``, the pieces named in ``lang``."""
    rules = view.rules
    notes: dict[int, list[tuple[str, tuple[str, ...]]]] = {s: [] for s in range(len(view.names))}
    paid: dict[int, int] = {}
    shown: dict[int, str] = {}
    events: Sequence[Event] = view.events if view.seat is not None else view.public
    for e in events:
        if isinstance(e, Knock):
            notes[e.seat].append((say("tui.knocked", text), ("magenta",)))
        elif isinstance(e, Stand):
            notes[e.seat].append((say("tui.stands", text), ("dim",)))
        elif isinstance(e, Ask):
            whom = say("ev.stock", text) if e.target is None else \
                say("word.reader_object", text) if e.target == viewer else view.names[e.target]
            notes[e.seat].append((say("tui.asks", text, whom=whom), ("dim",)))
        elif isinstance(e, Answer) and e.seat is not None:
            name = native_name(rules, piece_of(rules, e.piece), lang)
            notes[e.seat].append((say("tui.shows", text, piece=name), ("bold", "yellow")))
        elif isinstance(e, Pay) and e.paid:
            paid[e.seat] = paid.get(e.seat, 0) - 1
        elif isinstance(e, Gain):
            paid[e.seat] = paid.get(e.seat, 0) + 1
        elif isinstance(e, Showdown):
            shown = e.hands
    for seat, pid in shown.items():
        notes[seat].insert(0, (f"[{piece_label(rules, pid, lang)}]", ("bold",)))
    for seat, change in paid.items():
        if change > 0:
            notes[seat].append((say("tui.gains", text, n=change), ("bold", "green")))
        elif change < 0:
            notes[seat].append((say("tui.pays", text, n=-change), ("bold", "red")))
    return notes


def turn_order(dealer: int, n: int) -> list[int]:
    """Every seat clockwise from the dealer's left, so the dealer comes last and the list
    reads in turn order."""
    return [(dealer + 1 + k) % n for k in range(n)]


def column(cells: Sequence[str], least: int, gap: int = 2) -> int:
    """The width of a column: at least ``least``, and its widest cell and ``gap`` spaces
    after it. Cells are measured in the columns they show, so a longer word in another
    language moves the next column over instead of running into it."""
    return max(least, *(width(c) + gap for c in cells))


def table_lines(view: SeatView, start_lives: Sequence[int], style: Style, lang: str,
                viewer: int | None, *, text: str = Lang.EN) -> list[str]:
    """One line per seat, in turn order: name, lives, and what the seat did this round
    (the words in ``text``, the pieces named in ``lang``)."""
    dealer = view.dealer
    notes = seat_notes(view, lang, viewer, text=text)
    out_set, sitting = set(view.out), set(view.sitting_out)
    you_word = say("word.reader", text)
    labels = [name + (f" ({you_word})" if seat == viewer and name.casefold() !=
                      you_word.casefold() else "")
              for seat, name in enumerate(view.names)]
    lives = [lives_text(style, view.rules.preset.score, view.lives[seat], start_lives[seat])
             for seat in range(len(view.names))]
    seat_h, lives_h = say("tui.col_seat", text), say("tui.col_lives", text)
    # A name, at least one space, the dealer's mark and a space: the header's first cell.
    name_w = max(column(labels, 15, 1), width(seat_h))
    lives_w = column([lives_h, *lives], 14)
    lines = [style(f"   {pad(seat_h, name_w + 2)}{pad(lives_h, lives_w)}"
                   f"{say('tui.col_round', text)}", "dim")]
    for seat in turn_order(dealer, len(view.names)):
        mark = "▶ " if seat == view.to_act else "  "
        label = pad(labels[seat], name_w)
        if seat == viewer:
            label = style(label, "bold", "cyan")
        elif seat == view.to_act:
            label = style(label, "bold")
        dealer_mark = style("D", "bold", "magenta") if seat == dealer else " "
        if seat in out_set:
            status = style(say("tui.out", text), "dim")
            label = style(pad(view.names[seat], name_w), "dim")
        elif seat in sitting and seat not in view.order:
            status = style(say("tui.sits_out_round", text), "dim")
        else:
            parts = [style(note, *colour) for note, colour in notes[seat]]
            if seat == view.to_act:
                parts.append(style(f"← {say('tui.to_play', text)}", "bold", "yellow"))
            status = "  ".join(parts)
        lines.append(f" {style(mark, 'bold', 'yellow')}{label}{dealer_mark} "
                     f"{pad(lives[seat], lives_w)}{status}")
    return lines


def _what(p: Piece, rules: Rules, text: str) -> str:
    """A line under the piece: what a matador does, the fool, or a plain piece's rank."""
    if p.matador and p.power is not None:
        return say("tui.matador", text, does=short_text(p, text))
    if p.fool:
        return say("tui.the_fool", text)
    return say("tui.rank", text, rank=rules.pieces.index(p) + 1, n=len(rules.pieces))


def _colour(p: Piece) -> tuple[str, ...]:
    return ("bold", "yellow") if p.matador else ("bold", "red") if p.fool else ("bold",)


def piece_box(view: SeatView, style: Style, lang: str, *, text: str = Lang.EN) -> list[str]:
    """The reader's own piece, large: its name in the game's language, English below."""
    rules = view.rules
    if view.seat is None:
        return []
    if view.piece is None:
        body = [("", ()), (say("tui.not_dealt", text), ("dim",)),
                (say("tui.col_round", text), ("dim",)), ("", ())]
        colour: tuple[str, ...] = ("dim",)
        note = ""
    else:
        p = piece_of(rules, view.piece)
        native, english = native_name(rules, p, lang), p.name()
        colour = _colour(p)
        body = [("", ()), (native.upper(), colour),
                (english if english != native else "", ("dim",)), ("", ())]
        note = _what(p, rules, text)
    inner = max(24, *(width(line) + 2 for line, _ in body))
    edge = style("─" * inner, *colour)
    lines = [style(say("tui.your_piece", text), "dim"),
             style("┌", *colour) + edge + style("┐", *colour)]
    for line, attrs in body:
        left = (inner - width(line)) // 2
        cell = " " * left + style(line, *attrs) + " " * (inner - left - width(line))
        lines.append(style("│", *colour) + cell + style("│", *colour))
    lines.append(style("└", *colour) + edge + style("┘", *colour))
    if note:
        lines.append(style(note, "dim"))
    return lines


def piece_line(view: SeatView, style: Style, lang: str, *, text: str = Lang.EN) -> list[str]:
    """The own piece in one framed line, for terminals too narrow for the large box."""
    if view.seat is None:
        return []
    mine = say("tui.your_piece", text)
    if view.piece is None:
        return [style(f"{mine}: {say('tui.no_piece', text)}", "dim")]
    rules = view.rules
    p = piece_of(rules, view.piece)
    native, english = native_name(rules, p, lang), p.name()
    beside = f" ({english})" if english != native else ""
    return [style(f"{mine}: ", "dim") + style(f"▌ {native.upper()} ▐", *_colour(p)) +
            f"{beside}  " + style(_what(p, rules, text), "dim")]


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
               title: str, text: str = Lang.EN) -> list[str]:
    """The whole play screen: header, table and piece, log, prompt, in the words of
    ``text`` with the pieces named in ``lang``. ``log=None`` leaves the log out, for plain
    output, where the log has already been printed line by line."""
    s = style
    rnd = say("tui.round", text, n=view.round) if view.round else \
        say("tui.before_deal", text)
    head = " · ".join((title, rnd, say("tui.deals", text, name=view.names[view.dealer]),
                       say("tui.stock", text, n=view.stock_left)))
    header = [s(pad(f" {head} ", cols - 1), "reverse", "bold"), ""]
    table = table_lines(view, start_lives, s, lang, view.seat, text=text)
    box = piece_box(view, s, lang, text=text)
    table_w = max(width(x) for x in table) if table else 0
    box_w = max(width(x) for x in box) if box else 0
    if box and table_w + 2 + box_w <= cols:
        body = side_by_side(table, box, table_w)
    elif box:
        # A narrow terminal (80 columns): the piece goes under the table, in one line.
        body = [*table, "", *piece_line(view, s, lang, text=text)]
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
