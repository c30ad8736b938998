"""Which sentences tell an event: one table for the terminal and the browser.

The branch structure of the narration is data (``NARRATION``), not code: for each kind
of event, groups of sentences said one after another; in a group, the first alternative
whose conditions hold is said (none: the group says nothing). The terminal reads it here
(``gnav.texts.narrate.Narrator``), the browser reads the same table from ``/static/texts.json``
(``static/js/narrate.js``), and both fill the sentences from the one catalogue.

Why a table both read, and not ids computed in Python and sent to the browser: the
browser narrates the events it is sent as they come (and the replay's, and the stand-in
notes the page makes itself), in the language the reader picks at any moment; narrating
on the server would put every reader's words on the wire. The table keeps the choices
in one place; the two small readers of it (``tell`` here, ``narrate`` in narrate.js) only
know how to test a condition and fill a sentence, and a browser test holds them to the
same answers.

An alternative: ``say`` (a sentence id); ``if`` (conditions that must all hold);
``as`` (placeholder -> the event field or fact filling it, where the names differ);
``with`` (placeholder -> a group, said first and put in); ``you`` (the field naming the
subject: when that is the reader, addressed as "you", the sentence ``<id>.you`` is said
where the language has it). A condition is ``f`` (f is there: not null, false, empty),
``!f`` (it is not), ``f=v`` (f's value is v) or ``f==me`` (f is the reader's seat). A
name is looked up among the facts the reader knows first (``FACTS``), then the event's
own fields (docs/spec/records.md §3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gnav.texts.catalogue import CATALOGUE, PLACEHOLDER, fill, template, text_lang

Alternative = dict[str, Any]
Group = list[Alternative]

NARRATION: dict[str, list[Group]] = {
    "round_start": [
        [{"say": "ev.round_start", "you": "dealer"}],
        [{"say": "ev.turn_order", "if": ["tell_order"]}],
        [{"say": "ev.dealt", "if": ["piece"]}],
    ],
    "knock": [[{"say": "ev.knock", "you": "seat"}]],
    "stand": [[{"say": "ev.stand", "you": "seat"}]],
    "ask": [[{"say": "ev.ask_stock", "if": ["!target"], "you": "seat"},
             {"say": "ev.ask", "you": "seat"}]],
    "answer": [
        [{"say": "ev.answer_plain", "if": ["!call"], "you": "seat"},
         {"say": "ev.answer_stock", "if": ["!seat"]},
         {"say": "ev.answer", "you": "seat"}],
        [{"say": "ev.pass", "if": ["power=pass"]}],
    ],
    "swap": [
        [{"say": "ev.swap"}],
        [{"say": "ev.swap_full", "if": ["full", "seat_got"]},
         {"say": "ev.swap_you", "if": ["seat_got", "seat==me"],
          "as": {"gave": "target_got", "got": "seat_got"}},
         {"say": "ev.swap_you", "if": ["seat_got", "target==me"],
          "as": {"gave": "seat_got", "got": "target_got"}}],
    ],
    "draw": [
        [{"say": "ev.draw_full", "if": ["full", "piece"], "as": {"aside": "set_aside"}},
         {"say": "ev.draw", "you": "seat"}],
        [{"say": "ev.draw_you", "if": ["piece", "!full"], "as": {"aside": "set_aside"}}],
    ],
    "stock_empty": [[{"say": "ev.stock_empty"}]],
    "pay": [[
        {"say": "ev.pay_none", "if": ["!paid"], "you": "seat"},
        {"say": "ev.pay", "if": ["!to"], "you": "seat", "with": {"why": "pay_why"}},
        {"say": "ev.pay_to", "you": "seat", "with": {"why": "pay_why"}},
    ]],
    "gain": [[{"say": "ev.gain", "you": "seat", "with": {"why": "gain_why"}}]],
    "undo": [
        [{"say": "ev.undo"}],
        [{"say": "ev.undo_you", "if": ["piece", "!full"]}],
    ],
    "showdown": [[{"say": "ev.showdown_big", "if": ["big"]}, {"say": "ev.showdown"}]],
    "standin": [[{"say": "ev.timer", "if": ["how=timer"]}, {"say": "ev.standin"}]],
    "round_end": [
        [{"say": "ev.round_end", "if": ["ended_by=turns"]},
         {"say": "ev.round_end_by", "as": {"piece": "ended_by"}}],
        [{"say": "ev.sit_out", "if": ["sit_out"], "as": {"seats": "sit_out"}}],
    ],
    "eliminated": [[{"say": "ev.eliminated"}]],
    "match_end": [[{"say": "ev.match_end", "if": ["winner"], "as": {"seat": "winner"},
                    "you": "winner"},
                   {"say": "ev.match_shared", "as": {"seats": "winners"}}]],
}

# Groups said inside a sentence (``with``): why a payment or a gain is made.
PARTS: dict[str, Group] = {
    "pay_why": [{"say": "why.dragged", "if": ["dragged"]},
                {"say": "why.lowest", "if": ["reason=lowest"]},
                {"say": "why.fool", "if": ["reason=fool"]},
                {"say": "why.two_fools", "if": ["reason=two_fools"]},
                {"say": "why.matador", "if": ["matador_reason"], "as": {"piece": "reason"}}],
    "gain_why": [{"say": "why.two_fools", "if": ["reason=two_fools"]}],
}

# How a field is said: a seat by its name (the reader's own as "you", an object's in the
# object's form), a list of seats as "A, B and C", a piece by its name.
SEATS = ("seat", "target", "to", "dealer", "winner")
OBJECTS = ("target", "to")
SEAT_LISTS = ("order", "seats", "winners", "sit_out")
PIECES = ("piece", "seat_got", "target_got", "set_aside", "ended_by", "reason")

# What the reader knows beside the event, worked out by the terminal and the browser
# alike: filled in as they are (calls, words and the showdown are said by the reader's
# own means: quotes differ between a terminal and a page).
FACTS = {
    "full": "every piece is known (a replay), so swaps and draws are told in full",
    "tell_order": "the round's turn order is told (the terminal; the page draws it)",
    "dragged": "this lowest payment is the fool's drag (a fool payment came before it in "
               "this showdown)",
    "call": "the answering matador's call, as said at this table, with its meaning",
    "word": "the stand or swap word, as said at this table, with its meaning",
    "matador_reason": "the payment is a matador's penalty",
    "big": "the showdown's pieces are too many for one line: the board shows them",
    "winner": "the one winner of the match (none for a shared win)",
    "shown": "the showdown: each seat's name and piece",
    "n": "how many pieces the showdown shows",
}

_CONDITION = re.compile(r"^(!?)(\w+)(?:(==|=)(\w+))?$")


def narration_json() -> dict[str, Any]:
    """The table, for the browser (``/static/texts.json``)."""
    return {"events": NARRATION, "parts": PARTS, "seats": list(SEATS),
            "objects": list(OBJECTS), "seat_lists": list(SEAT_LISTS),
            "pieces": list(PIECES)}


def present(value: object) -> bool:
    """Whether a field is there: not None, false, empty text or an empty list (0 is)."""
    return not (value is None or value is False or value == "" or
                (isinstance(value, list | tuple) and not value))


def holds(condition: str, get: Callable[[str], object], me: object) -> bool:
    """Whether ``condition`` holds of the event and facts ``get`` looks names up in."""
    m = _CONDITION.match(condition)
    if m is None:
        raise ValueError(f"narration: bad condition {condition!r}")
    negate, name, op, operand = m.groups()
    value = get(name)
    if op == "==":
        result = me is not None and value == me
    elif op == "=":
        result = present(value) and str(value) == operand
    else:
        result = present(value)
    return result != bool(negate)


def pick(group: Sequence[Alternative], get: Callable[[str], object],
         me: object) -> Alternative | None:
    """The first alternative of ``group`` whose conditions all hold."""
    for alt in group:
        if all(holds(c, get, me) for c in alt.get("if", ())):
            return alt
    return None


def choose(kind: str, get: Callable[[str], object], me: object) -> list[Alternative]:
    """The alternatives that tell an event of ``kind``, in order."""
    chosen = (pick(group, get, me) for group in NARRATION.get(kind, ()))
    return [alt for alt in chosen if alt is not None]


class Words:
    """How one reader says the things a sentence names (their surface's own means)."""

    def __init__(self, lang: str, *, me: object, you: bool,
                 name: Callable[[Any], str], piece: Callable[[Any], str]) -> None:
        self.lang = text_lang(lang)
        self.me = me
        self.you = you  # whether the reader is addressed as "you"
        self.name = name  # a seat's name
        self.piece = piece  # a piece's name, in the reader's language

    def word(self, id: str) -> str:
        return template(id, self.lang)

    def seat(self, value: object, field: str) -> tuple[str, bool]:
        """A seat said, and whether it was said as a word (you, the stock): such a word
        opening a sentence takes a capital."""
        if value is None:
            return self.word("ev.stock"), True
        if self.you and value == self.me:
            return self.word("word.reader_object" if field in OBJECTS else "word.reader"), True
        return self.name(value), False

    def seats(self, values: Sequence[object]) -> str:
        said = [self.seat(v, "seats")[0] for v in values]
        if len(said) <= 1:
            return "".join(said)
        return f"{', '.join(said[:-1])} {self.word('word.and')} {said[-1]}"


def _sentence(alt: Alternative, get: Callable[[str], object], words: Words) -> str:
    you_field = alt.get("you")
    id = alt["say"]
    if you_field and words.you and words.me is not None and get(you_field) == words.me:
        mine = CATALOGUE.get(f"{id}.you", {})
        id = f"{id}.you" if words.lang in mine else id
    text = template(id, words.lang)
    renames: Mapping[str, str] = alt.get("as", {})
    inner: Mapping[str, str] = alt.get("with", {})
    params: dict[str, str] = {}
    capital = False
    for m in PLACEHOLDER.finditer(text):
        ph = m.group(1)
        if ph in params:
            continue
        if ph in inner:
            part = pick(PARTS[inner[ph]], get, words.me)
            params[ph] = "" if part is None else _sentence(part, get, words)
            continue
        field = renames.get(ph, ph)
        value = get(field)
        if field in SEATS:
            params[ph], is_word = words.seat(value, field)
            capital = capital or (is_word and m.start() == 0)
        elif field in SEAT_LISTS:
            params[ph] = words.seats(value if isinstance(value, list | tuple) else ())
        elif field in PIECES:
            params[ph] = words.piece(value)
        else:
            params[ph] = "" if value is None else str(value)
    said = fill(text, params)
    return said[:1].upper() + said[1:] if capital else said


def tell(event: Mapping[str, Any], facts: Mapping[str, object], words: Words) -> str | None:
    """``event`` (as ``gnav.events.event_to_json`` writes it) told in ``words.lang``;
    None for an event the table has no sentence for."""

    def get(name: str) -> object:
        return facts[name] if name in facts else event.get(name)

    chosen = choose(str(event.get("type")), get, words.me)
    if not chosen:
        return None
    return " ".join(_sentence(alt, get, words) for alt in chosen)
