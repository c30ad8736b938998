"""The printable card of ``pack = cards52``: which card of an ordinary pack stands for
which piece of a preset, on one A4 page (``gnav rules PRESET --pack cards52 --html F``
writes it; ``gnav serve`` serves it at ``/card/PRESET``). The cards are drawn as SVG;
the page's stylesheet (``static/companion/card.css``) lays it out for the screen and
for print. Standard library only."""

from __future__ import annotations

from base64 import b64encode
from html import escape
from pathlib import Path

from gnav.cards import JOKERS, card_text, is_red, mapping
from gnav.rules import Rules
from gnav.texts.catalogue import say, text_lang
from gnav.texts.rules import native_name, short_text
from gnav.texts.rules import title as preset_title

CSS = Path(__file__).resolve().parent / "static" / "companion" / "card.css"
ICON = Path(__file__).resolve().parent / "static" / "favicon.svg"
SUIT = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def order_text(rules: Rules, lang: str) -> str:
    """How the cards rank, and, where the mapping gives the picture cards to the
    matadors alone, that a picture card is a matador."""
    m = mapping(rules.pieces, rules.options.copies)
    courts = {p.id for p in rules.pieces
              if any(c[0] in "KQJ" and c not in JOKERS for c in m.cards[p.id])}
    playing = {c for cards in m.cards.values() for c in cards}
    text = say("companion.card_order", lang)
    # Said only of cards in play: the card also says to take the aces out where none plays.
    if any(c.startswith("A") for c in playing):
        text += " " + say("companion.card_aces", lang)
    if playing & set(JOKERS):
        text += " " + say("companion.card_jokers", lang)
    if courts and all(p.matador for p in rules.pieces if p.id in courts):
        text += " " + say("companion.card_courts", lang)
    return text


def card_name(code: str, lang: str) -> str:
    """A card as the card's reader writes it: ``K♥``, and the jokers in words ("red
    joker", "black joker"), which "Joker ♥ Joker" was not."""
    if code in JOKERS:
        return say("companion.joker_red" if code == "RJ" else "companion.joker_black", lang)
    return card_text(code)


def card_svg(code: str) -> str:
    """One card, 40 × 56: its index in the corner, its suit large in the middle."""
    ink = "#b3261e" if is_red(code) else "#1b1b1b"
    head = (f'<svg class="card" viewBox="0 0 40 56" role="img" '
            f'aria-label="{escape(card_name(code, "en"))}"><rect x=".6" y=".6" width="38.8" '
            'height="54.8" rx="4" fill="#fff" stroke="#444" stroke-width=".8"/>')
    if code in JOKERS:  # no font is sure to hold a joker glyph: the word, across
        return (f'{head}<text x="4" y="12" font-size="10" fill="{ink}">★</text>'
                f'<text x="20" y="32" font-size="8" font-weight="700" text-anchor="middle" '
                f'font-family="system-ui, sans-serif" fill="{ink}" transform="rotate(-30 20 30)">'
                "JOKER</text></svg>")
    rank, suit = code[:-1], SUIT[code[-1]]
    return (f'{head}<text x="4" y="12" font-size="10" font-weight="700" '
            f'font-family="Georgia, serif" fill="{ink}">{rank}</text>'
            f'<text x="20" y="40" font-size="20" text-anchor="middle" fill="{ink}">{suit}</text>'
            "</svg>")


def card_html(rules: Rules, lang: str = "en", *, inline_css: bool = False) -> str:
    """The one-page card of ``rules`` (its preset and copies) in ``lang``.

    :raises: :exc:`ValueError` if the preset does not fit an ordinary pack.
    """
    lang = text_lang(lang)
    m = mapping(rules.pieces, rules.options.copies)
    game = preset_title(rules.preset, lang)
    cells = []
    for p in rules.pieces:
        cards = "".join(card_svg(c) for c in m.cards[p.id])
        # Two cards are named beside the pictures; four of one rank need no words.
        names = " · " + ", ".join(card_name(c, lang) for c in m.cards[p.id]) \
            if rules.options.copies <= 2 else ""
        name = native_name(rules, p, lang)
        english = p.name("en")
        also = f' <span class="en">({escape(english)})</span>' if english != name else ""
        kind = "matador" if p.matador else "fool" if p.fool else "plain"
        cells.append(f'<li class="k-{kind}"><span class="cards">{cards}</span>'
                     f'<span class="what"><b>{escape(name)}</b>{also}'
                     f'<small>{escape(short_text(p, lang))}{escape(names)}</small></span></li>')
    out = " ".join(card_name(c, lang) for c in m.left_out) or "—"
    order = order_text(rules, lang)
    style = (f"<style>{CSS.read_text(encoding='utf-8')}</style>" if inline_css
             else '<link rel="stylesheet" href="/static/companion/card.css">')
    # The server's icon (a page without one asks for /favicon.ico, a 404); a file on its
    # own carries it inside.
    icon = ("data:image/svg+xml;base64," + b64encode(ICON.read_bytes()).decode()
            if inline_css else "/static/favicon.svg")
    title = say("companion.card_title", lang, game=game)
    copies, pieces = rules.options.copies, len(rules.pieces)
    foot = say("companion.card_foot", lang, cards=copies * pieces, copies=copies,
               pieces=pieces)
    return f"""<!doctype html>
<html lang="{lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="{icon}" type="image/svg+xml">{style}</head>
<body><article class="sheet">
<h1>{escape(title)}</h1>
<p class="order">{escape(order)}</p>
<ol class="pieces n{len(rules.pieces)}">{"".join(cells)}</ol>
<p class="out">{escape(say("companion.pack.leave_out", lang, cards=out))}</p>
<p class="foot">{escape(foot)}</p>
</article></body></html>
"""


def card_text_lines(rules: Rules, lang: str = "en") -> list[str]:
    """The card for the terminal: a line per piece, its cards beside it."""
    lang = text_lang(lang)
    m = mapping(rules.pieces, rules.options.copies)
    game = preset_title(rules.preset, lang)
    width = max(len(native_name(rules, p, lang)) for p in rules.pieces)
    lines = [say("companion.card_title", lang, game=game), order_text(rules, lang), ""]
    # A joker's name is words: a comma keeps two of them apart.
    shown = {p.id: (", " if set(m.cards[p.id]) & set(JOKERS) else " ").join(
        card_name(c, lang) for c in m.cards[p.id]) for p in rules.pieces}
    column = max(16, *(len(s) for s in shown.values()))
    for p in rules.pieces:
        lines.append(f"  {native_name(rules, p, lang):<{width}}  {shown[p.id]:<{column}} "
                     f"{short_text(p, lang)}")
    out = " ".join(card_name(c, lang) for c in m.left_out) or "—"
    lines += ["", say("companion.pack.leave_out", lang, cards=out)]
    return lines
