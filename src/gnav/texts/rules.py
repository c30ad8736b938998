"""The rules of a preset in words, decided once for every language.

Nothing here is written per preset except a one-line description: the explanation and
the differences from ``gnav`` are read off the preset's data and the options in force,
so they cannot drift from what the engine plays. ``explanation`` and ``changes`` choose
the sentences (``Say``: ids and their parameters) without a language; ``say`` puts
them into one. The terminal (``gnav.tui.rules_page``) and the browser's rules panel
(``gnav.web.data.rules_json``) both lay out what these return.
"""

from __future__ import annotations

from gnav.calls import call_pair, quoted, word_pair
from gnav.lengths import shipped
from gnav.pieces import Piece
from gnav.presets import PRESETS, Preset
from gnav.rules import Rules
from gnav.texts.catalogue import Say, has, say, template, text_lang
from gnav.vocab import PenaltyTo, TwoFools

# One paragraph: sentences said one after the other.
Paragraph = list[Say]


def native_name(rules: Rules, p: Piece, lang: str) -> str:
    """The piece's name in ``lang``, else in the game's own language, else English."""
    return p.names.get(lang) or p.names.get(rules.preset.lang) or p.name()


def spoken_word(rules: Rules, key: str, lang: str) -> str:
    """«Ik sta» (Jeg står): the stand or swap word as the game says it, and its meaning."""
    return quoted(word_pair(rules, key, lang), "«", "»")


def piece_call(rules: Rules, p: Piece, lang: str) -> str:
    """The matador's call as said at this table for a reader of ``lang``, with what it
    means beside it (``gnav.calls``)."""
    pair = call_pair(rules, p, lang)
    return quoted(pair, "«", "»") if pair else ""


def _kind(p: Piece) -> str:
    if p.power is not None:
        return p.power.value
    return "fool" if p.fool else "plain"


def short_text(p: Piece, lang: str) -> str:
    """What the piece does when asked to swap, in a word or two (the piece table)."""
    return say(f"short.{_kind(p)}", lang)


def piece_text(p: Piece, lang: str) -> str:
    """What the piece does when asked to swap, as a clause."""
    return say(f"does.{_kind(p)}", lang)


MARKS = {"tokens": "●", "strokes": "|"}


def lives_shown(score: str, lives: int, lang: str) -> str:
    """How lives are shown, with as many marks as a player starts with (the letters of
    G-N-A-V count lives lost, so they are always four)."""
    if score in MARKS:
        return f"{say(f'marks.{score}', lang)} {MARKS[score] * lives}"
    return lives_word(score, lang)


def lives_word(score: str, lang: str) -> str:
    """How lives are shown under ``score`` (tokens, strokes, gnav), with three marks."""
    return say(f"lives.{score}", lang) if has(f"lives.{score}") else score


def language_name(code: str, lang: str) -> str:
    """The name of language ``code`` in ``lang`` (the code itself for one unknown)."""
    return say(f"lang.{code}", lang) if has(f"lang.{code}") else code


def option_text(name: str, lang: str) -> str:
    """What option ``name`` means, in ``lang``."""
    return say(f"option.{name}", lang)


def _own(p: Preset, what: str, english: str, lang: str) -> str:
    # The presets' English texts are their own; the catalogue holds the translations.
    id = f"preset.{what}.{p.name}"
    lang = text_lang(lang)
    return template(id, lang) if lang != "en" and has(id, lang) else english


def description(p: Preset, lang: str) -> str:
    """The preset's one-line description in ``lang``."""
    return _own(p, "description", p.description, lang)


def source(p: Preset, lang: str) -> str:
    """Where the preset's rules come from, in ``lang``."""
    return _own(p, "source", p.source, lang)


def title(p: Preset, lang: str) -> str:
    """The preset's title in ``lang`` (a game's own name is never translated)."""
    return _own(p, "title", p.title, lang)


def value_text(v: object) -> str:
    """An option's value as the rules write it: true, false, none, or the value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def explanation(rules: Rules, lang: str, style: str | None = None) -> list[Paragraph]:
    """The course of a round under ``rules``, paragraph by paragraph, as sentences to be
    said in ``lang`` (the stand and swap words are the game's own, in ``lang``'s eyes).
    ``style``: how lives are shown (None: the preset's way, a mark for each life)."""
    o = rules.options
    # The words are the game's own, as its calls are, meaning beside.
    own = rules.preset.lang if lang == "en" else lang
    lo, hi = rules.min_seats, rules.max_seats
    players = Say("explain.players_exact", {"n": lo}) if lo == hi else \
        Say("explain.players_range", {"lo": lo, "hi": hi})
    out: list[Paragraph] = [[Say("explain.deal", {"players": players})]]
    if rules.has_fool:
        out.append([Say(f"explain.knock_{o.knock}")])
    turn = [Say("explain.turn", {"stand": spoken_word(rules, "stand", own),
                                 "swap": spoken_word(rules, "swap", own)})]
    if o.stand_needs_matador:
        turn.append(Say("explain.stand_needs_matador"))
    out.append(turn)
    out.append([Say("explain.matador"), Say(f"explain.revealed_{o.revealed}")])
    out.append([Say("explain.dealer")])
    show = [Say("explain.showdown")]
    if rules.has_fool:
        show.append(Say("explain.drag_on" if o.drag else "explain.drag_off"))
        show.append(Say(f"explain.two_fools_{o.two_fools}"))
        if o.two_fools != TwoFools.PLAIN and o.two_fools_sit_out:
            show.append(Say("explain.two_fools_sit_out"))
    if o.dealer_wins_ties:
        show.append(Say("explain.dealer_wins_ties"))
    out.append(show)
    shown = style if style is not None else lives_shown(rules.preset.score, o.lives, lang)
    end = [Say("explain.one_life" if o.lives == 1 else "explain.lives",
               {"lives": o.lives, "style": shown})]
    if o.penalty_to == PenaltyTo.HOLDER:
        end.append(Say("explain.penalty_holder"))
    if o.max_rounds:
        end.append(Say("explain.max_rounds", {"n": o.max_rounds}))
    end += large_table(rules)
    out.append(end)
    return out


def large_table(rules: Rules) -> list[Say]:
    """What a large table of ``rules``' preset plays instead, where these rules are what
    it changes (docs/spec/rules.md §6.1): a sentence, or none."""
    found = shipped().of(rules.preset)
    if found is None or found.remedy is None:
        return []
    remedy = found.remedy
    own = rules.options.as_dict()
    if all(own[k] is not None if k == "max_rounds" else own[k] == v
           for k, v in remedy.options.items()):
        return []  # these rules already play it
    kind = "rounds" if "max_rounds" in remedy.options else "pay"
    return [Say(f"explain.large_table_{kind}", {"n": remedy.start})]


def paragraphs(said: list[Paragraph], lang: str) -> list[str]:
    """Paragraphs of sentences said in ``lang``."""
    return [" ".join(say(s, lang) for s in para) for para in said]


def changes(rules: Rules, lang: str) -> list[Say]:
    """What the preset changes from ``gnav``, read off the data, as sentences (the piece
    names and power words in them already in ``lang``)."""
    base = PRESETS["gnav"]
    p = rules.preset
    out: list[Say] = []
    ids = [x.id for x in p.pieces]
    base_ids = [x.id for x in base.pieces]
    if ids != base_ids:
        if sorted(ids) == sorted(base_ids):
            order = " > ".join(native_name(rules, x, lang) for x in p.pieces)
            out.append(Say("change.order", {"order": order}))
        else:
            out.append(Say("change.deck", {"n": len(ids), "copies": p.options.copies,
                                           "total": len(ids) * p.options.copies}))
    by_id = {x.id: x for x in base.pieces}
    for piece in p.pieces:
        was = by_id.get(piece.id)
        if was is not None and was.power != piece.power:
            out.append(Say("change.power", {"name": native_name(rules, piece, lang),
                                            "now": short_text(piece, lang),
                                            "was": short_text(was, lang)}))
    if not any(x.fool for x in p.pieces):
        out.append(Say("change.no_fool"))
    mine, theirs = p.options.as_dict(), base.options.as_dict()
    for name, value in mine.items():
        if value != theirs[name]:
            out.append(Say("change.option", {"option": name, "now": value_text(value),
                                             "was": value_text(theirs[name])}))
    if p.min_seats != base.min_seats:
        out.append(Say("change.min_seats", {"n": p.min_seats}))
    if p.score != base.score:
        out.append(Say("change.score", {"style": lives_word(p.score, lang)}))
    if p.lang != base.lang:
        out.append(Say("change.lang", {"language": language_name(p.lang, lang)}))
    return out


def changes_text(rules: Rules, lang: str) -> list[str]:
    """``changes`` said in ``lang``; nothing for ``gnav`` itself."""
    return [] if rules.preset.name == "gnav" else [say(s, lang) for s in changes(rules, lang)]
