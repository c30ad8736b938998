"""The words of the game's pages, keyed by id, in English, Norwegian and Danish: headings,
names of things, what a piece does, the options, the presets' descriptions and sources.

Data only (``gnav.texts.catalogue`` looks them up). A ``{name}`` is filled in when the
text is said; an id missing a language is said in English. The presets' English
descriptions, sources and titles are the presets' own (``Preset.description``), so they
are not repeated here.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    # -- the rules pages' headings and labels ---
    "rules.title": {"en": "Rules: {title}", "nb": "Regler: {title}", "da": "Regler: {title}"},
    "rules.variant": {"en": "Variant", "nb": "Variant", "da": "Variant"},
    "rules.source_label": {"en": "Source", "nb": "Kilde", "da": "Kilde"},
    "rules.game": {"en": "The game", "nb": "Spillet", "da": "Spillet"},
    "rules.pieces": {
        "en": "The pieces, highest first",
        "nb": "Brikkene, høyeste først",
        "da": "Brikkerne, højeste først",
    },
    "rules.matadors": {
        "en": "Matadors: what they say and do",
        "nb": "Matadorene: hva de roper og gjør",
        "da": "Matadorerne: hvad de råber og gør",
    },
    "rules.options": {
        "en": "Options in force",
        "nb": "Innstillinger som gjelder",
        "da": "Gældende indstillinger",
    },
    "rules.changes": {
        "en": "What this variant changes (compared with gnav)",
        "nb": "Hva denne varianten endrer (sammenlignet med gnav)",
        "da": "Hvad denne variant ændrer (sammenlignet med gnav)",
    },
    "rules.nothing": {
        "en": "Nothing: this is the standard Norwegian game.",
        "nb": "Ingenting: dette er det vanlige norske spillet.",
        "da": "Intet: dette er det almindelige norske spil.",
    },
    "rules.col_rank": {"en": "rank", "nb": "rang", "da": "rang"},
    "rules.col_name": {"en": "name", "nb": "navn", "da": "navn"},
    "rules.col_english": {"en": "English", "nb": "engelsk", "da": "engelsk"},
    "rules.col_asked": {
        "en": "when asked to swap",
        "nb": "når noen vil bytte",
        "da": "når nogen vil bytte",
    },
    "rules.cmdline": {
        "en": "set on the command line",
        "nb": "endret på kommandolinjen",
        "da": "ændret på kommandolinjen",
    },
    "rules.copies_dim": {
        "en": "{n} of each piece in the deck",
        "nb": "{n} av hver brikke i settet",
        "da": "{n} af hver brik i sættet",
    },
    "rules.no_matador": {
        "en": "(no matadors)",
        "nb": "(ingen matadorer)",
        "da": "(ingen matadorer)",
    },
    # -- what a variant changes from gnav ---
    "change.order": {
        "en": "Order: {order}",
        "nb": "Rekkefølge: {order}",
        "da": "Rækkefølge: {order}",
    },
    "change.deck": {
        "en": "Its own deck: {n} pieces, {copies} of each ({total} in all).",
        "nb": "Egen kortstokk: {n} brikker, {copies} av hver ({total} i alt).",
        "da": "Eget sæt: {n} brikker, {copies} af hver ({total} i alt).",
    },
    "change.power": {
        "en": "{name}: {now} (in gnav: {was}).",
        "nb": "{name}: {now} (i gnav: {was}).",
        "da": "{name}: {now} (i gnav: {was}).",
    },
    "change.option": {
        "en": "{option} = {now} (in gnav: {was}).",
        "nb": "{option} = {now} (i gnav: {was}).",
        "da": "{option} = {now} (i gnav: {was}).",
    },
    "change.min_seats": {
        "en": "At least {n} players.",
        "nb": "Minst {n} spillere.",
        "da": "Mindst {n} spillere.",
    },
    "change.score": {
        "en": "Lives are shown as {style}.",
        "nb": "Liv vises som {style}.",
        "da": "Liv vises som {style}.",
    },
    "change.lang": {
        "en": "The calls are made in {language}.",
        "nb": "Ropene er på {language}.",
        "da": "Råbene er på {language}.",
    },
    "change.no_fool": {
        "en": "There is no fool.",
        "nb": "Det er ingen narr.",
        "da": "Der er ingen nar.",
    },
    # -- the pager ---
    "pager.more": {
        "en": "[Space/Enter] more",
        "nb": "[Mellomrom/Enter] mer",
        "da": "[Mellemrum/Enter] mere",
    },
    "pager.back": {"en": "[b] back", "nb": "[b] tilbake", "da": "[b] tilbage"},
    "pager.close": {
        "en": "[q] back to the game",
        "nb": "[q] tilbake til spillet",
        "da": "[q] tilbage til spillet",
    },
    "pager.lines": {
        "en": "lines {first}-{last} of {total}",
        "nb": "linje {first}–{last} av {total}",
        "da": "linje {first}–{last} af {total}",
    },
    # -- languages, by their code ---
    "lang.nb": {"en": "Norwegian", "nb": "norsk", "da": "norsk"},
    "lang.da": {"en": "Danish", "nb": "dansk", "da": "dansk"},
    "lang.nl": {"en": "Dutch", "nb": "nederlandsk", "da": "hollandsk"},
    "lang.it": {"en": "Italian", "nb": "italiensk", "da": "italiensk"},
    "lang.sv": {"en": "Swedish", "nb": "svensk", "da": "svensk"},
    "lang.en": {"en": "English", "nb": "engelsk", "da": "engelsk"},
    # -- what a piece does when asked, in a word (the piece table) ---
    "short.stop": {"en": "stop", "nb": "stopp", "da": "stop"},
    "short.refuse": {"en": "refuse", "nb": "nekter", "da": "nægter"},
    "short.charge": {
        "en": "asker pays",
        "nb": "den som spør, betaler",
        "da": "den, der spørger, betaler",
    },
    "short.charge_stop": {
        "en": "asker pays + stop",
        "nb": "den som spør, betaler + stopp",
        "da": "den, der spørger, betaler + stop",
    },
    "short.charge_undo": {
        "en": "asker pays + all back",
        "nb": "den som spør, betaler + alt tilbake",
        "da": "den, der spørger, betaler + alt tilbage",
    },
    "short.undo": {"en": "all back", "nb": "alt tilbake", "da": "alt tilbage"},
    "short.pass": {"en": "pass on", "nb": "videre", "da": "videre"},
    "short.plain": {"en": "swaps", "nb": "bytter", "da": "byttes"},
    "short.fool": {"en": "swaps; the fool", "nb": "bytter; narren", "da": "byttes; narren"},
    # -- what a piece does when asked, in a sentence ---
    "does.stop": {
        "en": "the round stops at once: showdown",
        "nb": "runden stopper straks, og alle viser brikkene sine",
        "da": "runden stopper straks, og alle viser deres brikker",
    },
    "does.refuse": {
        "en": "nothing happens: the asker keeps their piece",
        "nb": "ingenting skjer: den som spurte, beholder brikken sin",
        "da": "intet sker: den, der spurgte, beholder sin brik",
    },
    "does.charge": {
        "en": "the asker pays 1 life and keeps their piece",
        "nb": "den som spurte, betaler ett liv og beholder brikken sin",
        "da": "den, der spurgte, betaler et liv og beholder sin brik",
    },
    "does.charge_stop": {
        "en": "the asker pays 1 life, and the round stops",
        "nb": "den som spurte, betaler ett liv, og runden stopper",
        "da": "den, der spurgte, betaler et liv, og runden stopper",
    },
    "does.charge_undo": {
        "en": "the asker pays 1 life, then every swap of the round is undone",
        "nb": "den som spurte, betaler ett liv, og så går alle byttene i runden tilbake",
        "da": "den, der spurgte, betaler et liv, og så gøres alle ombytninger i runden om",
    },
    "does.undo": {
        "en": "every swap of the round is undone",
        "nb": "alle byttene i runden går tilbake",
        "da": "alle ombytninger i runden gøres om",
    },
    "does.pass": {
        "en": "the request passes on to the next player to the left",
        "nb": "forespørselen går videre til neste spiller til venstre",
        "da": "anmodningen går videre til næste spiller til venstre",
    },
    # "when asked": under a player's own piece, beside Stand and Swap, a bare "must
    # swap" read like an order to press Swap now.
    "does.plain": {
        "en": "must swap when asked",
        "nb": "må bytte når noen ber om det",
        "da": "skal byttes, når nogen beder om det",
    },
    "does.fool": {
        "en": "must swap when asked; the fool",
        "nb": "må bytte når noen ber om det; narren",
        "da": "skal byttes, når nogen beder om det; narren",
    },
    # -- the options (docs/spec/rules.md §7) ---
    "option.lives": {
        "en": "lives each player starts with",
        "nb": "liv hver spiller starter med",
        "da": "liv hver spiller starter med",
    },
    "option.copies": {
        "en": "copies of each piece",
        "nb": "eksemplarer av hver brikke",
        "da": "eksemplarer af hver brik",
    },
    "option.knock": {
        "en": "public: a dealt fool is knocked at once; silent: nobody knocks",
        "nb": "public: en utdelt narr bankes i bordet; silent: ingen banker",
        "da": "public: en uddelt nar bankes i bordet; silent: ingen banker",
    },
    "option.revealed": {
        "en": "skip: a shown matador takes no turn; act: it still does",
        "nb": "skip: den som har vist en matador, får ingen tur; act: får likevel tur",
        "da": "skip: den, der har vist en matador, får ingen tur; act: får alligevel tur",
    },
    "option.drag": {
        "en": "the fool drags the next-lowest down with it",
        "nb": "narren drar den nest laveste med seg",
        "da": "narren trækker den næstlaveste med sig",
    },
    "option.two_fools": {
        "en": "two fools in hand: gain (a life each), pay (a life each) or plain",
        "nb": "to narrer på hånden: gain (ett liv hver), pay (betaler hver) eller plain",
        "da": "to narre på hånden: gain (et liv hver), pay (betaler hver) eller plain",
    },
    "option.two_fools_sit_out": {
        "en": "the two fool holders sit out the next round",
        "nb": "de to med narr står over neste runde",
        "da": "de to med narre står over i næste runde",
    },
    "option.penalty_to": {
        "en": "where a matador's penalty goes: pool or its holder",
        "nb": "hvor straffen for en matador går: pool (potten) eller holder (eieren)",
        "da": "hvor straffen for en matador går: pool (puljen) eller holder (ejeren)",
    },
    "option.stand_needs_matador": {
        "en": "you may stand only while holding a matador",
        "nb": "du kan bare stå når du har en matador",
        "da": "du må kun stå, når du har en matador",
    },
    "option.dealer_wins_ties": {
        "en": "a tie on the paying piece goes to the dealer, who does not pay",
        "nb": "står giveren likt på brikken som betaler, går giveren fri",
        "da": "står giveren lige på brikken, der betaler, går giveren fri",
    },
    "option.pack": {
        "en": "what the table plays with: pieces (wooden pieces), cards (Gnav cards) or "
              "cards52 (an ordinary pack of 52 cards and two jokers)",
        "nb": "hva bordet spiller med: pieces (trebrikker), cards (gnavkort) eller "
              "cards52 (en vanlig kortstokk med 52 kort og to jokere)",
        "da": "hvad bordet spiller med: pieces (træbrikker), cards (gnavkort) eller "
              "cards52 (et almindeligt spil kort med 52 kort og to jokere)",
    },
    "option.max_rounds": {
        "en": "the match ends after this many rounds (none: no limit)",
        "nb": "partiet slutter etter så mange runder (none: ingen grense)",
        "da": "spillet slutter efter så mange runder (none: ingen grænse)",
    },
    # -- how lives are shown ---
    "lives.tokens": {"en": "tokens ●●●", "nb": "merker ●●●", "da": "mærker ●●●"},
    "lives.strokes": {"en": "strokes |||", "nb": "streker |||", "da": "streger |||"},
    "lives.gnav": {
        "en": "the letters G-N-A-V, one for each life lost",
        "nb": "bokstavene G-N-A-V, én for hvert liv som er tapt",
        "da": "bogstaverne G-N-A-V, ét for hvert tabt liv",
    },
    "marks.tokens": {"en": "tokens", "nb": "merker", "da": "mærker"},
    "marks.strokes": {"en": "strokes", "nb": "streker", "da": "streger"},
    # -- the presets' titles, where more than a name (English: the preset's own) ---
    "preset.title.gnav-rulebook": {"nb": "Gnav (regelboka)", "da": "Gnav (regelbogen)"},
    "preset.title.gnav-1917": {"nb": "Gnav (København 1917)", "da": "Gnav (København 1917)"},
    "preset.title.gnav-summary": {"nb": "Gnav (sammendrag)", "da": "Gnav (resumé)"},
    "preset.title.chase-the-ace": {
        "nb": "Chase the Ace (engelsk)",
        "da": "Chase the Ace (engelsk)",
    },
    # -- the presets' descriptions (English: the preset's own) ---
    "preset.description.gnav": {
        "nb": ("Det norske spillet: 42 brikker, fem matadorer, og narren drar den nest "
              "laveste med seg."),
        "da": ("Det norske spil: 42 brikker, fem matadorer, og narren trækker den "
              "næstlaveste med sig."),
    },
    "preset.description.gnav-pagat": {
        "nb": "Det norske spillet slik pagat.com gir det: to narrer betaler begge og står over.",
        "da": "Det norske spil, som pagat.com giver det: to narre betaler begge og står over.",
    },
    "preset.description.gnav-rulebook": {
        "nb": "Den engelske regelboka for det norske brikkesettet; samme spill som gnav.",
        "da": "Den engelske regelbog til det norske brikkesæt; samme spil som gnav.",
    },
    "preset.description.gnav-1917": {
        "nb": ("De danske reglene fra 1917: Katten står over Dragonen, Gjøken bare nekter, "
              "og poengene føres som streker."),
        "da": ("De danske regler fra 1917: Katten står over Dragonen, Gøgen nægter kun, og "
              "pointene føres som streger."),
    },
    "preset.description.gnav-summary": {
        "nb": ("Et alminnelig sammendrag: ingen 0-brikke, narren drar ingen med seg, "
              "straffen for en matador går til eieren, og poengene staver G-N-A-V."),
        "da": ("Et almindeligt resumé: ingen 0-brik, narren trækker ingen med sig, "
              "straffen for en matador går til ejeren, og pointene staver G-N-A-V."),
    },
    "preset.description.hypp": {
        "nb": "Gnav med ett sett på 21 brikker, for små bord.",
        "da": "Gnav med ét sæt på 21 brikker, til små borde.",
    },
    "preset.description.slabberjan": {
        "nb": ("Spillet fra Zeeland: Ruiteren tar betalt og stopper runden, Vogelen "
              "nekter, og det er ingen narreregler."),
        "da": ("Spillet fra Zeeland: Ruiteren tager betaling og stopper runden, Vogelen "
              "nægter, og der er ingen narreregler."),
    },
    "preset.description.cuccu": {
        "nb": "Den italienske stamfaren (foreløpig): 2 × 20 brikker, Osteriaen nekter, 3 liv.",
        "da": "Den italienske stamfader (foreløbig): 2 × 20 brikker, Osteriaen nægter, 3 liv.",
    },
    "preset.description.kille": {
        "nb": ("Svensk kille med én brikke (foreløpig): 2 × 20 brikker, to matadorer som "
              "sender videre, ingen narr."),
        "da": ("Svensk kille med én brik (foreløbig): 2 × 20 brikker, to matadorer, der "
              "sender videre, ingen nar."),
    },
    "preset.description.chase-the-ace": {
        "nb": "Den engelske slektningen med 52 kort: kongen nekter, esset er lavest, 3 liv.",
        "da": "Den engelske slægtning med 52 kort: kongen nægter, esset er lavest, 3 liv.",
    },
    "preset.description.le-her": {
        "nb": ("Den franske tomannsformen: én kortstokk, kongen nekter, og giveren vinner "
              "når det står likt."),
        "da": ("Den franske tomandsform: ét spil kort, kongen nægter, og giveren vinder, "
              "når det står lige."),
    },
    # -- where each preset comes from (English: the preset's own) ---
    "preset.source.gnav": {
        "nb": "beskrivelsen på pagat.com og regelboka til det norske brikkesettet, som er enige",
        "da": "beskrivelsen på pagat.com og regelbogen til det norske brikkesæt, som er enige",
    },
    "preset.source.gnav-pagat": {
        "nb": "beskrivelsen på pagat.com",
        "da": "beskrivelsen på pagat.com",
    },
    "preset.source.gnav-rulebook": {
        "nb": "regelboka til det norske brikkesettet",
        "da": "regelbogen til det norske brikkesæt",
    },
    "preset.source.gnav-1917": {
        "nb": "reglene fra København i 1917",
        "da": "reglerne fra København i 1917",
    },
    "preset.source.gnav-summary": {
        "nb": "et alminnelig sammendrag av hvordan man spiller",
        "da": "et almindeligt resumé af, hvordan man spiller",
    },
    "preset.source.hypp": {
        "nb": "et alminnelig sammendrag av hvordan man spiller (dets Hypp)",
        "da": "et almindeligt resumé af, hvordan man spiller (dets Hypp)",
    },
    "preset.source.slabberjan": {
        "nb": "beskrivelsen på pagat.com (spillet fra Zeeland)",
        "da": "beskrivelsen på pagat.com (spillet fra Zeeland)",
    },
    "preset.source.cuccu": {
        "nb": ("et alminnelig sammendrag og beskrivelsen på pagat.com, som nevner det som "
              "stamfaren; brikkene er foreløpige"),
        "da": ("et almindeligt resumé og beskrivelsen på pagat.com, som nævner det som "
              "stamfaderen; brikkerne er foreløbige"),
    },
    "preset.source.kille": {
        "nb": ("et alminnelig sammendrag og beskrivelsen på pagat.com, som nevner "
              "Byteskille som en slektning; brikkene er foreløpige"),
        "da": ("et almindeligt resumé og beskrivelsen på pagat.com, som nævner Byteskille "
              "som en slægtning; brikkerne er foreløbige"),
    },
    "preset.source.chase-the-ace": {
        "nb": "ingen av gnav-kildene: det engelske kortspillet slik det vanligvis spilles",
        "da": "ingen af gnav-kilderne: det engelske kortspil, som det normalt spilles",
    },
    "preset.source.le-her": {
        "nb": "spillteorien om Le Her (Waldegraves løsning fra 1713)",
        "da": "spilteorien om Le Her (Waldegraves løsning fra 1713)",
    },
}
