"""The rules of a preset as terminal text, in English, Norwegian or Danish.

Nothing here is written per preset except a one-line description: the explanation,
the piece table, the powers and the differences from ``gnav`` are generated from the
preset's data and the options in force, so they cannot drift from what the engine plays.
"""

from __future__ import annotations

from gnav.pieces import Piece
from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.tui.labels import lives_word, native_name, piece_call, piece_text, spoken_word
from gnav.tui.style import Style, pad, wrap

T: dict[str, dict[str, str]] = {
    "title": {"en": "Rules: {title}", "nb": "Regler: {title}", "da": "Regler: {title}"},
    "variant": {"en": "Variant", "nb": "Variant", "da": "Variant"},
    "source": {"en": "Source", "nb": "Kilde", "da": "Kilde"},
    "game": {"en": "The game", "nb": "Spillet", "da": "Spillet"},
    "pieces": {"en": "The pieces, highest first", "nb": "Brikkene, høyeste først",
               "da": "Brikkerne, højeste først"},
    "matadors": {"en": "Matadors: what they say and do",
                 "nb": "Matadorene: hva de roper og gjør",
                 "da": "Matadorerne: hvad de råber og gør"},
    "options": {"en": "Options in force", "nb": "Innstillinger som gjelder",
                "da": "Gældende indstillinger"},
    "changes": {"en": "What this variant changes (compared with gnav)",
                "nb": "Hva denne varianten endrer (sammenlignet med gnav)",
                "da": "Hvad denne variant ændrer (sammenlignet med gnav)"},
    "rank": {"en": "rank", "nb": "rang", "da": "rang"},
    "name": {"en": "name", "nb": "navn", "da": "navn"},
    "english": {"en": "English", "nb": "engelsk", "da": "engelsk"},
    "asked": {"en": "when asked to swap", "nb": "når noen vil bytte",
              "da": "når nogen vil bytte"},
    "nothing": {"en": "Nothing: this is the standard Norwegian game.",
                "nb": "Ingenting: dette er det vanlige norske spillet.",
                "da": "Intet: dette er det almindelige norske spil."},
    "cmdline": {"en": "set on the command line", "nb": "endret på kommandolinjen",
                "da": "ændret på kommandolinjen"},
    "order": {"en": "Order: {order}", "nb": "Rekkefølge: {order}",
              "da": "Rækkefølge: {order}"},
    "deck": {"en": "Its own deck: {n} pieces, {copies} of each ({total} in all).",
             "nb": "Egen kortstokk: {n} brikker, {copies} av hver ({total} i alt).",
             "da": "Eget sæt: {n} brikker, {copies} af hver ({total} i alt)."},
    "power_change": {"en": "{name}: {now} (in gnav: {was}).",
                     "nb": "{name}: {now} (i gnav: {was}).",
                     "da": "{name}: {now} (i gnav: {was})."},
    "option_change": {"en": "{option} = {now} (in gnav: {was}).",
                      "nb": "{option} = {now} (i gnav: {was}).",
                      "da": "{option} = {now} (i gnav: {was})."},
    "min_seats": {"en": "At least {n} players.", "nb": "Minst {n} spillere.",
                  "da": "Mindst {n} spillere."},
    "score": {"en": "Lives are shown as {style}.", "nb": "Liv vises som {style}.",
              "da": "Liv vises som {style}."},
    "lang": {"en": "The calls are made in {language}.", "nb": "Ropene er på {language}.",
             "da": "Råbene er på {language}."},
    "no_fool": {"en": "There is no fool.", "nb": "Det er ingen narr.",
                "da": "Der er ingen nar."},
    "copies": {"en": "{n} of each piece in the deck", "nb": "{n} av hver brikke i settet",
               "da": "{n} af hver brik i sættet"},
    "no_matador": {"en": "(no matadors)", "nb": "(ingen matadorer)",
                   "da": "(ingen matadorer)"},
}

LANGUAGE = {
    "nb": {"en": "Norwegian", "nb": "norsk", "da": "norsk"},
    "da": {"en": "Danish", "nb": "dansk", "da": "dansk"},
    "nl": {"en": "Dutch", "nb": "nederlandsk", "da": "hollandsk"},
    "it": {"en": "Italian", "nb": "italiensk", "da": "italiensk"},
    "sv": {"en": "Swedish", "nb": "svensk", "da": "svensk"},
    "en": {"en": "English", "nb": "engelsk", "da": "engelsk"},
}

SHORT_POWER = {
    "stop": {"en": "stop", "nb": "stopp", "da": "stop"},
    "refuse": {"en": "refuse", "nb": "nekter", "da": "nægter"},
    "charge": {"en": "asker pays", "nb": "den som spør, betaler",
               "da": "den, der spørger, betaler"},
    "charge_stop": {"en": "asker pays + stop", "nb": "den som spør, betaler + stopp",
                    "da": "den, der spørger, betaler + stop"},
    "charge_undo": {"en": "asker pays + all back", "nb": "den som spør, betaler + alt tilbake",
                    "da": "den, der spørger, betaler + alt tilbage"},
    "undo": {"en": "all back", "nb": "alt tilbake", "da": "alt tilbage"},
    "pass": {"en": "pass on", "nb": "videre", "da": "videre"},
}
SHORT_PLAIN = {"en": "swaps", "nb": "bytter", "da": "byttes"}
SHORT_FOOL = {"en": "swaps; the fool", "nb": "bytter; narren", "da": "byttes; narren"}

OPTION_TEXT: dict[str, dict[str, str]] = {
    "lives": {"en": "lives each player starts with", "nb": "liv hver spiller starter med",
              "da": "liv hver spiller starter med"},
    "copies": {"en": "copies of each piece", "nb": "eksemplarer av hver brikke",
               "da": "eksemplarer af hver brik"},
    "knock": {"en": "public: a dealt fool is knocked at once; silent: nobody knocks",
              "nb": "public: en utdelt narr bankes i bordet; silent: ingen banker",
              "da": "public: en uddelt nar bankes i bordet; silent: ingen banker"},
    "revealed": {"en": "skip: a shown matador takes no turn; act: it still does",
                 "nb": "skip: den som har vist en matador, får ingen tur; act: får likevel tur",
                 "da": "skip: den, der har vist en matador, får ingen tur; act: får alligevel tur"},
    "drag": {"en": "the fool drags the next-lowest down with it",
             "nb": "narren drar den nest laveste med seg",
             "da": "narren trækker den næstlaveste med sig"},
    "two_fools": {"en": "two fools in hand: gain (a life each), pay (a life each) or plain",
                  "nb": "to narrer på hånden: gain (ett liv hver), pay (betaler hver) eller plain",
                  "da": "to narre på hånden: gain (et liv hver), pay (betaler hver) eller plain"},
    "two_fools_sit_out": {"en": "the two fool holders sit out the next round",
                          "nb": "de to med narr står over neste runde",
                          "da": "de to med narre står over i næste runde"},
    "penalty_to": {"en": "where a matador's penalty goes: pool or its holder",
                   "nb": "hvor straffen for en matador går: pool (potten) eller holder (eieren)",
                   "da": "hvor straffen for en matador går: pool (puljen) eller holder (ejeren)"},
    "stand_needs_matador": {"en": "you may stand only while holding a matador",
                            "nb": "du kan bare stå når du har en matador",
                            "da": "du må kun stå, når du har en matador"},
    "dealer_wins_ties": {"en": "a tie on the paying piece goes to the dealer, who does not pay",
                         "nb": "står giveren likt på brikken som betaler, går giveren fri",
                         "da": "står giveren lige på brikken, der betaler, går giveren fri"},
    "max_rounds": {"en": "the match ends after this many rounds (none: no limit)",
                   "nb": "partiet slutter etter så mange runder (none: ingen grense)",
                   "da": "spillet slutter efter så mange runder (none: ingen grænse)"},
}

DESCRIPTION: dict[str, dict[str, str]] = {
    "gnav": {"nb": "Det norske spillet: 42 brikker, fem matadorer, og narren drar den nest "
                   "laveste med seg.",
             "da": "Det norske spil: 42 brikker, fem matadorer, og narren trækker den "
                   "næstlaveste med sig."},
    "gnav-pagat": {"nb": "Det norske spillet slik pagat.com gir det: to narrer betaler begge "
                         "og står over.",
                   "da": "Det norske spil, som pagat.com giver det: to narre betaler begge og "
                         "står over."},
    "gnav-rulebook": {"nb": "Den engelske regelboka for det norske brikkesettet; samme spill "
                            "som gnav.",
                      "da": "Den engelske regelbog til det norske brikkesæt; samme spil som "
                            "gnav."},
    "gnav-1917": {"nb": "De danske reglene fra 1917: Katten står over Dragonen, Gjøken bare "
                        "nekter, og poengene føres som streker.",
                  "da": "De danske regler fra 1917: Katten står over Dragonen, Gøgen nægter "
                        "kun, og pointene føres som streger."},
    "gnav-summary": {"nb": "Et alminnelig sammendrag: ingen 0-brikke, narren drar ingen med "
                           "seg, straffen for en matador går til eieren, og poengene staver "
                           "G-N-A-V.",
                     "da": "Et almindeligt resumé: ingen 0-brik, narren trækker ingen med sig, "
                           "straffen for en matador går til ejeren, og pointene staver "
                           "G-N-A-V."},
    "hypp": {"nb": "Gnav med ett sett på 21 brikker, for små bord.",
             "da": "Gnav med ét sæt på 21 brikker, til små borde."},
    "slabberjan": {"nb": "Spillet fra Zeeland: Ruiteren tar betalt og stopper runden, Vogelen "
                         "nekter, og det er ingen narreregler.",
                   "da": "Spillet fra Zeeland: Ruiteren tager betaling og stopper runden, "
                         "Vogelen nægter, og der er ingen narreregler."},
    "cuccu": {"nb": "Den italienske stamfaren (foreløpig): 2 × 20 brikker, Osteriaen nekter, "
                    "3 liv.",
              "da": "Den italienske stamfader (foreløbig): 2 × 20 brikker, Osteriaen nægter, "
                    "3 liv."},
    "kille": {"nb": "Svensk kille med én brikke (foreløpig): 2 × 20 brikker, to matadorer som "
                    "sender videre, ingen narr.",
              "da": "Svensk kille med én brik (foreløbig): 2 × 20 brikker, to matadorer, der "
                    "sender videre, ingen nar."},
    "chase-the-ace": {"nb": "Den engelske slektningen med 52 kort: kongen nekter, esset er "
                            "lavest, 3 liv.",
                      "da": "Den engelske slægtning med 52 kort: kongen nægter, esset er "
                            "lavest, 3 liv."},
    "le-her": {"nb": "Den franske tomannsformen: én kortstokk, kongen nekter, og giveren "
                     "vinner når det står likt.",
               "da": "Den franske tomandsform: ét spil kort, kongen nægter, og giveren "
                     "vinder, når det står lige."},
}


# Where each preset comes from (``Preset.source``), in Norwegian and Danish.
SOURCE: dict[str, dict[str, str]] = {
    "gnav": {"nb": "beskrivelsen på pagat.com og regelboka til det norske brikkesettet, som er "
                   "enige",
             "da": "beskrivelsen på pagat.com og regelbogen til det norske brikkesæt, som er "
                   "enige"},
    "gnav-pagat": {"nb": "beskrivelsen på pagat.com", "da": "beskrivelsen på pagat.com"},
    "gnav-rulebook": {"nb": "regelboka til det norske brikkesettet",
                      "da": "regelbogen til det norske brikkesæt"},
    "gnav-1917": {"nb": "reglene fra København i 1917", "da": "reglerne fra København i 1917"},
    "gnav-summary": {"nb": "et alminnelig sammendrag av hvordan man spiller",
                     "da": "et almindeligt resumé af, hvordan man spiller"},
    "hypp": {"nb": "et alminnelig sammendrag av hvordan man spiller (dets Hypp)",
             "da": "et almindeligt resumé af, hvordan man spiller (dets Hypp)"},
    "slabberjan": {"nb": "beskrivelsen på pagat.com (spillet fra Zeeland)",
                   "da": "beskrivelsen på pagat.com (spillet fra Zeeland)"},
    "cuccu": {"nb": "et alminnelig sammendrag og beskrivelsen på pagat.com, som nevner det som "
                    "stamfaren; brikkene er foreløpige",
              "da": "et almindeligt resumé og beskrivelsen på pagat.com, som nævner det som "
                    "stamfaderen; brikkerne er foreløbige"},
    "kille": {"nb": "et alminnelig sammendrag og beskrivelsen på pagat.com, som nevner "
                    "Byteskille som en slektning; brikkene er foreløpige",
              "da": "et almindeligt resumé og beskrivelsen på pagat.com, som nævner Byteskille "
                    "som en slægtning; brikkerne er foreløbige"},
    "chase-the-ace": {"nb": "ingen av gnav-kildene: det engelske kortspillet slik det vanligvis "
                            "spilles",
                      "da": "ingen af gnav-kilderne: det engelske kortspil, som det normalt "
                            "spilles"},
    "le-her": {"nb": "spillteorien om Le Her (Waldegraves løsning fra 1713)",
               "da": "spilteorien om Le Her (Waldegraves løsning fra 1713)"},
}

# The pager's own words (``Screen.page``), and the title above the rules.
PAGER: dict[str, dict[str, str]] = {
    "more": {"en": "[Space/Enter] more", "nb": "[Mellomrom/Enter] mer",
             "da": "[Mellemrum/Enter] mere"},
    "back": {"en": "[b] back", "nb": "[b] tilbake", "da": "[b] tilbage"},
    "close": {"en": "[q] back to the game", "nb": "[q] tilbake til spillet",
              "da": "[q] tilbage til spillet"},
    "lines": {"en": "lines {first}-{last} of {total}", "nb": "linje {first}–{last} av {total}",
              "da": "linje {first}–{last} af {total}"},
}


def pager_words(lang: str) -> dict[str, str]:
    """The pager's words in ``lang`` (English for a language it does not have)."""
    lang = lang if lang in ("en", "nb", "da") else "en"
    return {key: text[lang] for key, text in PAGER.items()}


def rules_title(rules: Rules, lang: str) -> str:
    lang = lang if lang in ("en", "nb", "da") else "en"
    return T["title"][lang].format(title=rules.preset.title)


def explanation(rules: Rules, lang: str) -> list[str]:
    """The course of a round under ``rules``, paragraph by paragraph."""
    o = rules.options
    # The words are the game's own, as its calls are (``rules_lines``), meaning beside.
    own = rules.preset.lang if lang == "en" else lang
    stand, swap = spoken_word(rules, "stand", own), spoken_word(rules, "swap", own)
    lo, hi = rules.min_seats, rules.max_seats
    style = lives_word(rules.preset.score, lang)
    out: list[str] = []
    if lang == "nb":
        players = f"Nøyaktig {lo}" if lo == hi else f"Fra {lo} til {hi}"
        out.append(f"Hver spiller får én brikke med bildesiden ned; resten er bunken. "
                   f"{players} kan spille.")
        if rules.has_fool:
            out.append("Den som får en narr, banker den i bordet med en gang, så alle vet hvor "
                       "den er." if o.knock == "public" else "Ingen banker: narren holdes skjult.")
        turn = (f"Turen går med klokka fra giverens venstre side; giveren er sist. Når det er "
                f"din tur, står du og sier {stand}, eller ber naboen til venstre om å bytte og "
                f"sier {swap}.")
        if o.stand_needs_matador:
            turn += " Du kan bare stå når du har en matador."
        out.append(turn)
        out.append("En vanlig brikke må byttes. En matador svarer i stedet med kraften sin og "
                   "vises for alle; den som spurte, beholder sin egen brikke. "
                   + ("Den som har vist en matador, får ingen tur senere i runden."
                      if o.revealed == "skip" else
                      "Den som har vist en matador, får likevel sin tur."))
        out.append("Giveren bytter med bunken: den øverste brikken trekkes og svarer som om "
                   "noen holdt den. Er den vanlig, tar giveren den, og den gamle legges til side.")
        show = ("Når giveren har hatt sin tur (eller en matador stopper runden), viser alle "
                "brikkene sine. Den laveste brikken betaler ett liv; står flere likt, betaler "
                "alle.")
        if rules.has_fool:
            show += (" Med én narr på hånden betaler narren, og den laveste av de andre "
                     "brikkene betaler også." if o.drag else
                     " Narren er rett og slett den laveste brikken.")
            show += {"gain": " Med to narrer på hånden får hver som har en narr, ett liv, og "
                             "ingen andre betaler.",
                     "pay": " Med to narrer på hånden betaler hver som har en narr, ett liv, "
                            "og ingen andre betaler.",
                     "plain": " To narrer er bare likt lavest."}[o.two_fools]
            if o.two_fools != "plain" and o.two_fools_sit_out:
                show += " De to med narr står over neste runde."
        if o.dealer_wins_ties:
            show += " Står giveren likt med en annen på brikken som betaler, går giveren fri."
        out.append(show)
        end = (f"Alle starter med {o.lives} liv, vist som {style}. Den som står uten liv når "
               "runden er slutt, er ute; den siste med liv igjen vinner.")
        if o.penalty_to == "holder":
            end += " Straffen for en matador går til den som har den, som et liv."
        if o.max_rounds:
            end += f" Etter {o.max_rounds} runder vinner den med flest liv."
        out.append(end)
    elif lang == "da":
        players = f"Præcis {lo}" if lo == hi else f"Fra {lo} til {hi}"
        out.append(f"Hver spiller får én brik med billedsiden nedad; resten er bunken. "
                   f"{players} kan spille.")
        if rules.has_fool:
            out.append("Den, der får en nar, banker den i bordet med det samme, så alle ved, "
                       "hvor den er." if o.knock == "public" else
                       "Ingen banker: narren holdes skjult.")
        turn = (f"Turen går med uret fra giverens venstre side; giveren er sidst. Når det er "
                f"din tur, står du og siger {stand}, eller beder naboen til venstre om at bytte "
                f"og siger {swap}.")
        if o.stand_needs_matador:
            turn += " Du må kun stå, når du har en matador."
        out.append(turn)
        out.append("En almindelig brik skal byttes. En matador svarer i stedet med sin kraft og "
                   "vises for alle; den, der spurgte, beholder sin egen brik. "
                   + ("Den, der har vist en matador, får ingen tur senere i runden."
                      if o.revealed == "skip" else
                      "Den, der har vist en matador, får alligevel sin tur."))
        out.append("Giveren bytter med bunken: den øverste brik trækkes og svarer, som om "
                   "nogen havde den. Er den almindelig, tager giveren den, og den gamle lægges "
                   "til side.")
        show = ("Når giveren har haft sin tur (eller en matador stopper runden), viser alle "
                "deres brik. Den laveste brik betaler et liv; står flere lige, betaler de alle.")
        if rules.has_fool:
            show += (" Med én nar på hånden betaler narren, og den laveste af de andre brikker "
                     "betaler også." if o.drag else
                     " Narren er simpelthen den laveste brik.")
            show += {"gain": " Med to narre på hånden får hver, der har en nar, et liv, og "
                             "ingen andre betaler.",
                     "pay": " Med to narre på hånden betaler hver, der har en nar, et liv, og "
                            "ingen andre betaler.",
                     "plain": " To narre står blot lige som lavest."}[o.two_fools]
            if o.two_fools != "plain" and o.two_fools_sit_out:
                show += " De to med narrene står over i næste runde."
        if o.dealer_wins_ties:
            show += " Står giveren lige med en anden på brikken, der betaler, går giveren fri."
        out.append(show)
        end = (f"Alle starter med {o.lives} liv, vist som {style}. Den, der står uden liv, når "
               "runden er slut, er ude; den sidste med liv tilbage vinder.")
        if o.penalty_to == "holder":
            end += " Straffen for en matador går til dens ejer som et liv."
        if o.max_rounds:
            end += f" Efter {o.max_rounds} runder vinder den med flest liv."
        out.append(end)
    else:
        players = f"Exactly {lo}" if lo == hi else f"From {lo} to {hi}"
        out.append(f"Each player is dealt one piece, face down; the rest is the stock. "
                   f"{players} can play.")
        if rules.has_fool:
            out.append("Whoever is dealt a fool knocks it on the table at once, so everyone "
                       "knows where it is." if o.knock == "public" else
                       "Nobody knocks: the fool stays hidden.")
        turn = (f"Turns go clockwise from the dealer's left; the dealer is last. On your turn "
                f"you stand, saying {stand}, or ask your left neighbour to swap, saying {swap}.")
        if o.stand_needs_matador:
            turn += " You may stand only while holding a matador."
        out.append(turn)
        out.append("A plain piece must be swapped. A matador answers instead, with its power, "
                   "and is shown to everyone; the asker keeps their own piece. "
                   + ("A player who has shown a matador takes no turn later in the round."
                      if o.revealed == "skip" else
                      "A player who has shown a matador still takes their turn."))
        out.append("The dealer swaps with the stock: the top piece is drawn and answers as if "
                   "someone held it. If it is plain, the dealer takes it and sets the old piece "
                   "aside.")
        show = ("When the dealer has had their turn (or a matador stops the round), everyone "
                "shows. The lowest piece pays one life; if several tie, they all pay.")
        if rules.has_fool:
            show += (" With one fool in hand, the fool pays, and so does the lowest of the "
                     "other pieces." if o.drag else " The fool is simply the lowest piece.")
            show += {"gain": " With two fools in hand, each fool holder gains a life and "
                             "nobody else pays.",
                     "pay": " With two fools in hand, each fool holder pays a life and nobody "
                            "else pays.",
                     "plain": " Two fools simply tie for lowest."}[o.two_fools]
            if o.two_fools != "plain" and o.two_fools_sit_out:
                show += " The two fool holders sit out the next round."
        if o.dealer_wins_ties:
            show += " A tie on the paying piece goes to the dealer: the dealer does not pay."
        out.append(show)
        end = (f"Everyone starts with {o.lives} lives, shown as {style}. A player with no "
               "lives left at the end of a round is out; the last player with lives wins.")
        if o.penalty_to == "holder":
            end += " A matador's penalty goes to its holder, as a life."
        if o.max_rounds:
            end += f" After {o.max_rounds} rounds the most lives win."
        out.append(end)
    return out


def _short(p: Piece, lang: str) -> str:
    if p.power is not None:
        return SHORT_POWER[p.power.value][lang]
    return SHORT_FOOL[lang] if p.fool else SHORT_PLAIN[lang]


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def changes(rules: Rules, lang: str) -> list[str]:
    """What the preset changes from ``gnav``, read off the data."""
    base = PRESETS["gnav"]
    p = rules.preset
    out: list[str] = []
    ids = [x.id for x in p.pieces]
    base_ids = [x.id for x in base.pieces]
    if ids != base_ids:
        if sorted(ids) == sorted(base_ids):
            order = " > ".join(native_name(rules, x, lang) for x in p.pieces)
            out.append(T["order"][lang].format(order=order))
        else:
            out.append(T["deck"][lang].format(n=len(ids), copies=p.options.copies,
                                              total=len(ids) * p.options.copies))
    by_id = {x.id: x for x in base.pieces}
    for piece in p.pieces:
        was = by_id.get(piece.id)
        if was is not None and was.power != piece.power:
            out.append(T["power_change"][lang].format(
                name=native_name(rules, piece, lang), now=_short(piece, lang),
                was=_short(was, lang)))
    if not any(x.fool for x in p.pieces):
        out.append(T["no_fool"][lang])
    mine, theirs = p.options.as_dict(), base.options.as_dict()
    for name, value in mine.items():
        if value != theirs[name]:
            out.append(T["option_change"][lang].format(option=name, now=_value(value),
                                                       was=_value(theirs[name])))
    if p.min_seats != base.min_seats:
        out.append(T["min_seats"][lang].format(n=p.min_seats))
    if p.score != base.score:
        out.append(T["score"][lang].format(style=lives_word(p.score, lang)))
    if p.lang != base.lang:
        out.append(T["lang"][lang].format(language=LANGUAGE.get(p.lang, {}).get(lang, p.lang)))
    return out


def rules_lines(rules: Rules, lang: str, style: Style, cols: int = 88) -> list[str]:
    """The rules of ``rules`` (a preset and its options) as lines for the terminal."""
    if lang not in ("en", "nb", "da"):
        lang = "en"
    s = style
    p = rules.preset

    def heading(key: str) -> list[str]:
        return ["", s(T[key][lang], "bold", "cyan"), s("─" * len(T[key][lang]), "cyan")]

    def para(text: str) -> list[str]:
        return [*wrap(text, cols, ""), ""]

    # English rules still name the pieces as the game does, with the English beside.
    own = p.lang if lang == "en" else lang
    title = T["title"][lang].format(title=p.title)
    desc = p.description if lang == "en" else DESCRIPTION.get(p.name, {}).get(lang, p.description)
    source = p.source if lang == "en" else SOURCE.get(p.name, {}).get(lang, p.source)
    out = [s(title, "bold", "reverse"), "",
           *wrap(f"{T['variant'][lang]}: {p.name}. {desc}", cols, ""),
           *[s(line, "dim") for line in wrap(f"{T['source'][lang]}: {source}", cols, "")]]
    out += heading("game")
    for text in explanation(rules, lang):
        out += para(text)
    out += heading("pieces")
    names = [native_name(rules, x, own) for x in p.pieces]
    name_w = max(len(T["name"][lang]), *(len(n) for n in names)) + 2
    eng_w = max(len(T["english"][lang]), *(len(x.name()) for x in p.pieces)) + 2
    out.append(s(f"{pad(T['rank'][lang], 6)}{pad(T['name'][lang], name_w)}"
                 f"{pad(T['english'][lang], eng_w)}{T['asked'][lang]}", "dim"))
    for rank, (piece, name) in enumerate(zip(p.pieces, names, strict=True), 1):
        english = piece.name() if piece.name() != name else ""
        colour = ("yellow",) if piece.matador else ("red",) if piece.fool else ()
        out.append(f"{pad(str(rank), 6)}{pad(s(name, 'bold', *colour), name_w)}"
                   f"{pad(english, eng_w)}{_short(piece, lang)}")
    out.append(s(T["copies"][lang].format(n=rules.options.copies), "dim"))
    out += heading("matadors")
    matadors = [x for x in p.pieces if x.matador]
    if not matadors:
        out.append(T["no_matador"][lang])
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
    opt_w = max(len(f"{k} = {_value(v)}") for k, v in now.items()) + 2
    for name, value in now.items():
        mark = s(f"  ({T['cmdline'][lang]})", "yellow") if base[name] != value else ""
        text = OPTION_TEXT[name][lang]
        out.append(f"{pad(s(f'{name} = {_value(value)}', 'bold'), opt_w)}{text}{mark}")
    out += heading("changes")
    diff = changes(rules, lang) if p.name != "gnav" else []
    for line in diff or [T["nothing"][lang]]:
        out += wrap(f"• {line}", cols, "  ")
    return out
