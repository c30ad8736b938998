"""The sentences of the rules' explanation and of the narration, keyed by id, in English,
Norwegian and Danish.

Data only: which sentences are said, and in what order, is decided once for every
language (``gnav.texts.rules.explanation``, ``gnav.texts.narration.NARRATION``). An id
ending in ``.you`` is the sentence said to the reader about themselves where the
language needs other words for it (English verbs: "you pay", not "you pays"); a
language without it says the plain sentence with the word for "you" in it.
"""

from __future__ import annotations

EXPLANATION: dict[str, dict[str, str]] = {
    "explain.players_exact": {"en": "Exactly {n}", "nb": "Nøyaktig {n}", "da": "Præcis {n}"},
    "explain.players_range": {"en": "From {lo} to {hi}", "nb": "Fra {lo} til {hi}",
                              "da": "Fra {lo} til {hi}"},
    "explain.deal": {
        "en": "Each player is dealt one piece, face down; the rest is the stock. {players} can "
              "play.",
        "nb": "Hver spiller får én brikke med bildesiden ned; resten er bunken. {players} kan "
              "spille.",
        "da": "Hver spiller får én brik med billedsiden nedad; resten er bunken. {players} kan "
              "spille.",
    },
    "explain.knock_public": {
        "en": "Whoever is dealt a fool knocks it on the table at once, so everyone knows where "
              "it is.",
        "nb": "Den som får en narr, banker den i bordet med en gang, så alle vet hvor den er.",
        "da": "Den, der får en nar, banker den i bordet med det samme, så alle ved, hvor den "
              "er.",
    },
    "explain.knock_silent": {"en": "Nobody knocks: the fool stays hidden.",
                             "nb": "Ingen banker: narren holdes skjult.",
                             "da": "Ingen banker: narren holdes skjult."},
    "explain.turn": {
        "en": "Turns go clockwise from the dealer's left; the dealer is last. On your turn you "
              "stand, saying {stand}, or ask your left neighbour to swap, saying {swap}.",
        "nb": "Turen går med klokka fra giverens venstre side; giveren er sist. Når det er din "
              "tur, står du og sier {stand}, eller ber naboen til venstre om å bytte og sier "
              "{swap}.",
        "da": "Turen går med uret fra giverens venstre side; giveren er sidst. Når det er din "
              "tur, står du og siger {stand}, eller beder naboen til venstre om at bytte og "
              "siger {swap}.",
    },
    "explain.stand_needs_matador": {"en": "You may stand only while holding a matador.",
                                    "nb": "Du kan bare stå når du har en matador.",
                                    "da": "Du må kun stå, når du har en matador."},
    "explain.matador": {
        "en": "A plain piece must be swapped. A matador answers instead, with its power, and is "
              "shown to everyone; the asker keeps their own piece.",
        "nb": "En vanlig brikke må byttes. En matador svarer i stedet med kraften sin og vises "
              "for alle; den som spurte, beholder sin egen brikke.",
        "da": "En almindelig brik skal byttes. En matador svarer i stedet med sin kraft og "
              "vises for alle; den, der spurgte, beholder sin egen brik.",
    },
    "explain.revealed_skip": {
        "en": "A player who has shown a matador takes no turn later in the round.",
        "nb": "Den som har vist en matador, får ingen tur senere i runden.",
        "da": "Den, der har vist en matador, får ingen tur senere i runden.",
    },
    "explain.revealed_act": {"en": "A player who has shown a matador still takes their turn.",
                             "nb": "Den som har vist en matador, får likevel sin tur.",
                             "da": "Den, der har vist en matador, får alligevel sin tur."},
    "explain.dealer": {
        "en": "The dealer swaps with the stock: the top piece is drawn and answers as if "
              "someone held it. If it is plain, the dealer takes it and sets the old piece "
              "aside.",
        "nb": "Giveren bytter med bunken: den øverste brikken trekkes og svarer som om noen "
              "holdt den. Er den vanlig, tar giveren den, og den gamle legges til side.",
        "da": "Giveren bytter med bunken: den øverste brik trækkes og svarer, som om nogen "
              "havde den. Er den almindelig, tager giveren den, og den gamle lægges til side.",
    },
    "explain.showdown": {
        "en": "When the dealer has had their turn (or a matador stops the round), everyone "
              "shows. The lowest piece pays one life; if several tie, they all pay.",
        "nb": "Når giveren har hatt sin tur (eller en matador stopper runden), viser alle "
              "brikkene sine. Den laveste brikken betaler ett liv; står flere likt, betaler "
              "alle.",
        "da": "Når giveren har haft sin tur (eller en matador stopper runden), viser alle "
              "deres brik. Den laveste brik betaler et liv; står flere lige, betaler de alle.",
    },
    "explain.drag_on": {
        "en": "With one fool in hand, the fool pays, and so does the lowest of the other "
              "pieces.",
        "nb": "Med én narr på hånden betaler narren, og den laveste av de andre brikkene "
              "betaler også.",
        "da": "Med én nar på hånden betaler narren, og den laveste af de andre brikker betaler "
              "også.",
    },
    "explain.drag_off": {"en": "The fool is simply the lowest piece.",
                         "nb": "Narren er rett og slett den laveste brikken.",
                         "da": "Narren er simpelthen den laveste brik."},
    "explain.two_fools_gain": {
        "en": "With two fools in hand, each fool holder gains a life and nobody else pays.",
        "nb": "Med to narrer på hånden får hver som har en narr, ett liv, og ingen andre "
              "betaler.",
        "da": "Med to narre på hånden får hver, der har en nar, et liv, og ingen andre "
              "betaler.",
    },
    "explain.two_fools_pay": {
        "en": "With two fools in hand, each fool holder pays a life and nobody else pays.",
        "nb": "Med to narrer på hånden betaler hver som har en narr, ett liv, og ingen andre "
              "betaler.",
        "da": "Med to narre på hånden betaler hver, der har en nar, et liv, og ingen andre "
              "betaler.",
    },
    "explain.two_fools_plain": {"en": "Two fools simply tie for lowest.",
                                "nb": "To narrer er bare likt lavest.",
                                "da": "To narre står blot lige som lavest."},
    "explain.two_fools_sit_out": {"en": "The two fool holders sit out the next round.",
                                  "nb": "De to med narr står over neste runde.",
                                  "da": "De to med narrene står over i næste runde."},
    "explain.dealer_wins_ties": {
        "en": "A tie on the paying piece goes to the dealer: the dealer does not pay.",
        "nb": "Står giveren likt med en annen på brikken som betaler, går giveren fri.",
        "da": "Står giveren lige med en anden på brikken, der betaler, går giveren fri.",
    },
    "explain.lives": {
        "en": "Everyone starts with {lives} lives, shown as {style}. A player with no lives "
              "left at the end of a round is out; the last player with lives wins.",
        "nb": "Alle starter med {lives} liv, vist som {style}. Den som står uten liv når runden "
              "er slutt, er ute; den siste med liv igjen vinner.",
        "da": "Alle starter med {lives} liv, vist som {style}. Den, der står uden liv, når "
              "runden er slut, er ude; den sidste med liv tilbage vinder.",
    },
    "explain.one_life": {
        "en": "Everyone starts with {lives} life, shown as {style}. A player with no lives "
              "left at the end of a round is out; the last player with lives wins.",
        "nb": "Alle starter med {lives} liv, vist som {style}. Den som står uten liv når runden "
              "er slutt, er ute; den siste med liv igjen vinner.",
        "da": "Alle starter med {lives} liv, vist som {style}. Den, der står uden liv, når "
              "runden er slut, er ude; den sidste med liv tilbage vinder.",
    },
    "explain.penalty_holder": {"en": "A matador's penalty goes to its holder, as a life.",
                               "nb": "Straffen for en matador går til den som har den, som et "
                                     "liv.",
                               "da": "Straffen for en matador går til dens ejer som et liv."},
    "explain.max_rounds": {"en": "After {n} rounds the most lives win.",
                           "nb": "Etter {n} runder vinner den med flest liv.",
                           "da": "Efter {n} runder vinder den med flest liv."},
    # A large table's remedy (docs/spec/rules.md §6.1), said where the rules are the
    # preset's own: what a table of that size plays instead.
    "explain.large_table_pay": {
        "en": "From {n} players a table plays two fools paying instead, unless the players "
              "choose otherwise: with two fools gaining, a match that large hardly ends.",
        "nb": "Fra {n} spillere spiller et bord med at to narrer betaler, om ikke spillerne "
              "velger noe annet: når to narrer vinner et liv, tar et så stort parti nesten "
              "aldri slutt.",
        "da": "Fra {n} spillere spiller et bord med, at to narre betaler, medmindre "
              "spillerne vælger andet: når to narre vinder et liv, slutter et så stort spil "
              "næsten aldrig."},
    "explain.large_table_rounds": {
        "en": "From {n} players a table plays at most as many rounds as there are lives at "
              "the table, and then the most lives win, unless the players choose otherwise: "
              "with two fools gaining, a match that large hardly ends.",
        "nb": "Fra {n} spillere spiller et bord høyst like mange runder som det er liv rundt "
              "bordet, og så vinner flest liv, om ikke spillerne velger noe annet: når to "
              "narrer vinner et liv, tar et så stort parti nesten aldri slutt.",
        "da": "Fra {n} spillere spiller et bord højst lige så mange runder, som der er liv "
              "om bordet, og så vinder flest liv, medmindre spillerne vælger andet: når to "
              "narre vinder et liv, slutter et så stort spil næsten aldrig."},
}

EVENTS: dict[str, dict[str, str]] = {
    # -- the words a narrated line is built with -----------------------------------------
    "ev.stock": {"en": "the stock", "nb": "bunken", "da": "bunken"},
    "word.reader": {"en": "you", "nb": "du", "da": "du"},
    "word.reader_object": {"en": "you", "nb": "deg", "da": "dig"},
    "word.and": {"en": "and", "nb": "og", "da": "og"},
    # -- the events ----------------------------------------------------------------------
    "ev.round_start": {"en": "Round {round}: {dealer} deals.", "nb": "Runde {round}: {dealer} gir.",
                       "da": "Runde {round}: {dealer} giver."},
    "ev.round_start.you": {"en": "Round {round}: {dealer} deal."},
    "ev.turn_order": {"en": "Turn order: {order}.", "nb": "Rekkefølge: {order}.",
                      "da": "Rækkefølge: {order}."},
    "ev.dealt": {"en": "You are dealt {piece}.", "nb": "Du får {piece}.", "da": "Du får {piece}."},
    "ev.knock": {"en": "{seat} knocks on the table: a fool!",
                 "nb": "{seat} banker i bordet: en narr!", "da": "{seat} banker i bordet: en nar!"},
    "ev.knock.you": {"en": "{seat} knock on the table: a fool!"},
    "ev.stand": {"en": "{seat} stands: {word}", "nb": "{seat} står: {word}",
                 "da": "{seat} står: {word}"},
    "ev.stand.you": {"en": "{seat} stand: {word}"},
    "ev.ask": {"en": "{seat} asks {target} to swap: {word}",
               "nb": "{seat} vil bytte med {target}: {word}",
               "da": "{seat} vil bytte med {target}: {word}"},
    "ev.ask.you": {"en": "{seat} ask {target} to swap: {word}"},
    "ev.ask_stock": {"en": "{seat} swaps with the stock.", "nb": "{seat} bytter med bunken.",
                     "da": "{seat} bytter med bunken."},
    "ev.ask_stock.you": {"en": "{seat} swap with the stock."},
    "ev.answer": {"en": "{seat} shows the {piece}: {call}", "nb": "{seat} viser {piece}: {call}",
                  "da": "{seat} viser {piece}: {call}"},
    "ev.answer.you": {"en": "{seat} show the {piece}: {call}"},
    "ev.answer_stock": {"en": "From the stock comes the {piece}: {call}",
                        "nb": "Fra bunken kommer {piece}: {call}",
                        "da": "Fra bunken kommer {piece}: {call}"},
    "ev.answer_plain": {"en": "{seat} shows the {piece}.", "nb": "{seat} viser {piece}.",
                        "da": "{seat} viser {piece}."},
    "ev.answer_plain.you": {"en": "{seat} show the {piece}."},
    "ev.pass": {"en": "The request passes on.", "nb": "Forespørselen går videre.",
                "da": "Anmodningen går videre."},
    "ev.swap": {"en": "{seat} and {target} swap.", "nb": "{seat} og {target} bytter.",
                "da": "{seat} og {target} bytter."},
    "ev.swap_you": {"en": "You give {gave} and get {got}.", "nb": "Du gir {gave} og får {got}.",
                    "da": "Du giver {gave} og får {got}."},
    "ev.swap_full": {"en": "{seat} gets {seat_got}; {target} gets {target_got}.",
                     "nb": "{seat} får {seat_got}; {target} får {target_got}.",
                     "da": "{seat} får {seat_got}; {target} får {target_got}."},
    "ev.draw": {"en": "{seat} takes a piece from the stock and sets the old one aside.",
                "nb": "{seat} trekker en brikke fra bunken og legger den gamle til side.",
                "da": "{seat} trækker en brik fra bunken og lægger den gamle til side."},
    "ev.draw.you": {"en": "{seat} take a piece from the stock and set the old one aside."},
    "ev.draw_you": {"en": "You get {piece} and set {aside} aside.",
                    "nb": "Du får {piece} og legger {aside} til side.",
                    "da": "Du får {piece} og lægger {aside} til side."},
    "ev.draw_full": {"en": "{seat} gets {piece} and sets {aside} aside.",
                     "nb": "{seat} får {piece} og legger {aside} til side.",
                     "da": "{seat} får {piece} og lægger {aside} til side."},
    "ev.stock_empty": {"en": "The stock is empty: nothing happens.",
                       "nb": "Bunken er tom: ingenting skjer.", "da": "Bunken er tom: intet sker."},
    "ev.pay": {"en": "{seat} pays a life to the pool{why} ({lives} left).",
               "nb": "{seat} betaler et liv til potten{why} ({lives} igjen).",
               "da": "{seat} betaler et liv til puljen{why} ({lives} tilbage)."},
    "ev.pay.you": {"en": "{seat} pay a life to the pool{why} ({lives} left)."},
    "ev.pay_to": {"en": "{seat} pays a life to {to}{why} ({lives} left).",
                  "nb": "{seat} betaler et liv til {to}{why} ({lives} igjen).",
                  "da": "{seat} betaler et liv til {to}{why} ({lives} tilbage)."},
    "ev.pay_to.you": {"en": "{seat} pay a life to {to}{why} ({lives} left)."},
    "ev.pay_none": {"en": "{seat} would pay, but has no life left.",
                    "nb": "{seat} skulle betalt, men har ikke flere liv.",
                    "da": "{seat} skulle have betalt, men har ikke flere liv."},
    "ev.pay_none.you": {"en": "{seat} would pay, but have no life left."},
    "why.lowest": {"en": " for the lowest piece", "nb": " for den laveste brikken",
                   "da": " for den laveste brik"},
    "why.fool": {"en": " for the fool", "nb": " for narren", "da": " for narren"},
    "why.dragged": {"en": ", dragged down by the fool", "nb": ", dratt med ned av narren",
                    "da": ", trukket med ned af narren"},
    "why.two_fools": {"en": " for the two fools", "nb": " for de to narrene",
                      "da": " for de to narre"},
    "why.matador": {"en": " for asking the {piece}", "nb": " for å ha spurt {piece}",
                    "da": " for at have spurgt {piece}"},
    "ev.gain": {"en": "{seat} gains a life{why} ({lives}).",
                "nb": "{seat} får et liv{why} ({lives}).",
                "da": "{seat} får et liv{why} ({lives})."},
    "ev.gain.you": {"en": "{seat} gain a life{why} ({lives})."},
    "ev.undo": {"en": "Every swap is undone: each piece goes back to where it was dealt.",
                "nb": "Alle byttene går tilbake: hver brikke går tilbake dit den ble delt ut.",
                "da": "Alle ombytninger gøres om: hver brik går tilbage, hvor den blev givet."},
    "ev.undo_you": {"en": "You have {piece} again.", "nb": "Du har {piece} igjen.",
                    "da": "Du har {piece} igen."},
    "ev.showdown": {"en": "Showdown: {shown}.", "nb": "Alle viser: {shown}.",
                    "da": "Alle viser: {shown}."},
    "ev.showdown_big": {"en": "Showdown: all {n} pieces are face up on the board.",
                        "nb": "Alle viser: alle {n} brikkene ligger synlige på bordet.",
                        "da": "Alle viser: alle {n} brikker ligger synlige på bordet."},
    "ev.timer": {"en": "Time ran out for {seat}: a stand-in bot plays this turn.",
                 "nb": "Tiden gikk ut for {seat}: en vikarrobot tar denne turen.",
                 "da": "Tiden løb ud for {seat}: en vikarrobot tager denne tur."},
    "ev.standin": {"en": "{seat} is away: a stand-in bot plays for them.",
                   "nb": "{seat} er borte: en vikarrobot spiller for dem.",
                   "da": "{seat} er væk: en vikarrobot spiller for dem."},
    "ev.round_end": {"en": "The round ends.", "nb": "Runden er slutt.", "da": "Runden er slut."},
    "ev.round_end_by": {"en": "The {piece} ended the round.", "nb": "{piece} avsluttet runden.",
                        "da": "{piece} afsluttede runden."},
    "ev.sit_out": {"en": "Sitting out next round: {seats}.",
                   "nb": "Står over neste runde: {seats}.",
                   "da": "Står over i næste runde: {seats}."},
    "ev.eliminated": {"en": "Out of the game: {seats}.", "nb": "Ute av spillet: {seats}.",
                      "da": "Ude af spillet: {seats}."},
    "ev.match_end": {"en": "{seat} wins the match!", "nb": "{seat} vinner partiet!",
                     "da": "{seat} vinder spillet!"},
    "ev.match_end.you": {"en": "{seat} win the match!"},
    "ev.match_shared": {"en": "A shared win: {seats}.", "nb": "Delt seier: {seats}.",
                        "da": "Delt sejr: {seats}."},
}
