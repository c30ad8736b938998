"""The rules of a preset laid out for the terminal: headings, the piece table, the
matadors, the options in force and the differences from ``gnav``.

Layout only: the words are the catalogue's (``gnav.texts``), chosen once for every
language by ``gnav.texts.rules``, the same sentences the browser's rules panel shows.
"""

from __future__ import annotations

from gnav.rules import Rules
from gnav.texts.catalogue import say, template, text_lang
from gnav.texts.rules import (
    changes_text,
    description,
    explanation,
    native_name,
    option_text,
    paragraphs,
    piece_call,
    piece_text,
    short_text,
    source,
    value_text,
)
from gnav.tui.style import Style, pad, wrap

PAGER_KEYS = ("more", "back", "close", "lines")


def pager_words(lang: str) -> dict[str, str]:
    """The pager's words in ``lang`` (English for a language it does not have), unfilled:
    the pager fills in the lines it shows."""
    return {key: template(f"pager.{key}", text_lang(lang)) for key in PAGER_KEYS}


def rules_title(rules: Rules, lang: str) -> str:
    """The title above the rules pager."""
    return say("rules.title", lang, title=rules.preset.title)


def rules_lines(rules: Rules, lang: str, style: Style, cols: int = 88) -> list[str]:
    """The rules of ``rules`` (a preset and its options) as lines for the terminal."""
    lang = text_lang(lang)
    s = style
    p = rules.preset

    def word(key: str) -> str:
        return say(f"rules.{key}", lang)

    def heading(key: str) -> list[str]:
        return ["", s(word(key), "bold", "cyan"), s("─" * len(word(key)), "cyan")]

    def para(text: str) -> list[str]:
        return [*wrap(text, cols, ""), ""]

    # English rules still name the pieces as the game does, with the English beside.
    own = p.lang if lang == "en" else lang
    title = say("rules.title", lang, title=p.title)
    out = [s(title, "bold", "reverse"), "",
           *wrap(f"{word('variant')}: {p.name}. {description(p, lang)}", cols, ""),
           *[s(line, "dim") for line in
             wrap(f"{word('source_label')}: {source(p, lang)}", cols, "")]]
    out += heading("game")
    for text in paragraphs(explanation(rules, lang), lang):
        out += para(text)
    out += heading("pieces")
    names = [native_name(rules, x, own) for x in p.pieces]
    name_w = max(len(word("col_name")), *(len(n) for n in names)) + 2
    eng_w = max(len(word("col_english")), *(len(x.name()) for x in p.pieces)) + 2
    out.append(s(f"{pad(word('col_rank'), 6)}{pad(word('col_name'), name_w)}"
                 f"{pad(word('col_english'), eng_w)}{word('col_asked')}", "dim"))
    for rank, (piece, name) in enumerate(zip(p.pieces, names, strict=True), 1):
        english = piece.name() if piece.name() != name else ""
        colour = ("yellow",) if piece.matador else ("red",) if piece.fool else ()
        out.append(f"{pad(str(rank), 6)}{pad(s(name, 'bold', *colour), name_w)}"
                   f"{pad(english, eng_w)}{short_text(piece, lang)}")
    out.append(s(say("rules.copies_dim", lang, n=rules.options.copies), "dim"))
    out += heading("matadors")
    matadors = [x for x in p.pieces if x.matador]
    if not matadors:
        out.append(word("no_matador"))
    name_w = max((len(native_name(rules, x, own)) for x in matadors), default=0) + 2
    for piece in matadors:
        call = piece_call(rules, piece, own)
        head = pad(s(native_name(rules, piece, own), "bold", "yellow"), name_w)
        text = piece_text(piece, lang)
        out.append(f"{head}{call}")
        out += wrap(" " * name_w + text[0].upper() + text[1:] + ".", cols, " " * name_w)
    out += heading("options")
    base = p.options.as_dict()
    now = rules.options.as_dict()
    opt_w = max(len(f"{k} = {value_text(v)}") for k, v in now.items()) + 2
    for name, value in now.items():
        mark = s(f"  ({word('cmdline')})", "yellow") if base[name] != value else ""
        out.append(f"{pad(s(f'{name} = {value_text(value)}', 'bold'), opt_w)}"
                   f"{option_text(name, lang)}{mark}")
    out += heading("changes")
    for line in changes_text(rules, lang) or [word("nothing")]:
        out += wrap(f"• {line}", cols, "  ")
    return out
