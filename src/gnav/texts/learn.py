"""The lesson's sentences (``gnav learn``, the browser's ``/learn``) and the puzzles'
(``/puzzles``), keyed by id, in English, Norwegian and Danish.

Data only. Each note of the lesson is said where its claim (``gnav.learn.claims``) has
happened in the player's own log; its ``{placeholders}`` are that claim's bindings (a
seat's name, or a piece, said by its name). ``learn.why.*`` is said when the player
chooses the other way; ``learn.ui.*`` and ``puzzle.*`` are the pages' own words.
"""

from __future__ import annotations

LEARN: dict[str, dict[str, str]] = {
    # -- said at each deal ---
    "learn.intro.stand_or_swap": {
        "en": "You are dealt {piece}. The lowest piece at the end pays a life. On your turn: "
              "stand, or ask your left neighbour to swap. {piece} is low.",
        "nb": "Du får {piece}. Den laveste brikken til slutt betaler et liv. Når det er din tur: "
              "stå, eller be naboen til venstre om å bytte. {piece} er lav.",
        "da": "Du får {piece}. Den laveste brik til sidst betaler et liv. Når det er din tur: "
              "bliv, eller bed naboen til venstre om at bytte. {piece} er lav.",
    },
    "learn.intro.asked": {
        "en": "You deal this round, so you act last. You hold {piece}, a good piece. Watch "
              "what the others do.",
        "nb": "Du gir denne runden, så du er sist. Du har {piece}, en god brikke. Se hva de "
              "andre gjør.",
        "da": "Du giver i denne runde, så du er sidst. Du har {piece}, en god brik. Se, hvad de "
              "andre gør.",
    },
    "learn.intro.low_again": {
        "en": "You hold {piece}: low again. Your left neighbour deals this time.",
        "nb": "Du har {piece}: lav igjen. Naboen til venstre gir denne gangen.",
        "da": "Du har {piece}: lav igen. Naboen til venstre giver denne gang.",
    },
    "learn.intro.nearly_lowest": {
        "en": "You hold {piece}, nearly the lowest there is. Swapping is right, but a swap can "
              "meet a matador.",
        "nb": "Du har {piece}, nesten den laveste som finnes. Å bytte er riktig, men et bytte "
              "kan møte en matador.",
        "da": "Du har {piece}, næsten den laveste, der findes. At bytte er rigtigt, men et bytte "
              "kan møde en matador.",
    },
    "learn.intro.you_first": {
        "en": "You hold {piece}. You act first.",
        "nb": "Du har {piece}. Du begynner.",
        "da": "Du har {piece}. Du begynder.",
    },
    "learn.intro.your_matador": {
        "en": "You hold {piece}: a matador. Nobody can take it from you; if someone asks you, it "
              "answers.",
        "nb": "Du har {piece}: en matador. Ingen kan ta den fra deg; spør noen deg, svarer den.",
        "da": "Du har {piece}: en matador. Ingen kan tage den fra dig; spørger nogen dig, svarer "
              "den.",
    },
    "learn.intro.middle": {
        "en": "You hold {piece}, in the middle.",
        "nb": "Du har {piece}, midt på treet.",
        "da": "Du har {piece}, midt i feltet.",
    },
    "learn.intro.two_fools": {
        "en": "You are dealt {piece}, the lowest piece of all. You knock it on the table.",
        "nb": "Du får {piece}, den laveste brikken av alle. Du banker den i bordet.",
        "da": "Du får {piece}, den laveste brik af alle. Du banker den i bordet.",
    },
    # -- said where their events happen ---
    "learn.you_swapped": {
        "en": "{whom} had to give you {got}: a plain piece must be swapped.",
        "nb": "{whom} måtte gi deg {got}: en vanlig brikke må byttes.",
        "da": "{whom} måtte give dig {got}: en almindelig brik skal byttes.",
    },
    "learn.dealer_draws": {
        "en": "{dealer} deals, so acts last, and swaps with the stock: drawing its top piece.",
        "nb": "{dealer} gir, er derfor sist, og bytter med bunken: trekker den øverste brikken.",
        "da": "{dealer} giver, er derfor sidst, og bytter med bunken: trækker den øverste brik.",
    },
    "learn.you_draw": {
        "en": "As the dealer you swapped with the stock: you drew {got}, and your {old} is "
              "out of play.",
        "nb": "Som giver byttet du med bunken: du trakk {got}, og {old} er ute av spillet.",
        "da": "Som giver byttede du med bunken: du trak {got}, og {old} er ude af spillet.",
    },
    "learn.lowest_pays": {
        "en": "Showdown: {payer} has the lowest piece and pays a life.",
        "nb": "Oppgjør: {payer} har den laveste brikken og betaler et liv.",
        "da": "Opgør: {payer} har den laveste brik og betaler et liv.",
    },
    "learn.you_pay_lowest": {
        "en": "Showdown: yours is the lowest piece, so you pay a life. Bad luck, not a bad choice.",
        "nb": "Oppgjør: din brikke er lavest, så du betaler et liv. Uflaks, ikke et dårlig valg.",
        "da": "Opgør: din brik er lavest, så du betaler et liv. Uheld, ikke et dårligt valg.",
    },
    "learn.asked_number": {
        "en": "{asker} asked you to swap. A number must be given: you gave {gave} and got {got}. "
              "Your turn still comes.",
        "nb": "{asker} ba deg bytte. Et tall må gis: du ga {gave} og fikk {got}. Du får fortsatt "
              "din tur.",
        "da": "{asker} bad dig bytte. Et tal skal gives: du gav {gave} og fik {got}. Du får "
              "stadig din tur.",
    },
    "learn.cuckoo_stops": {
        "en": "{holder} held the Cuckoo! It stops the round at once: straight to the showdown. "
              "You keep your piece.",
        "nb": "{holder} hadde Gjøken! Den stopper runden straks: rett til oppgjøret. Du beholder "
              "brikken din.",
        "da": "{holder} havde Gøgen! Den standser runden straks: lige til opgøret. Du beholder "
              "din brik.",
    },
    "learn.cuckoo_refuses": {
        "en": "{holder} held the Cuckoo! In these rules it simply refuses: you keep your piece, "
              "and play goes on.",
        "nb": "{holder} hadde Gjøken! Etter disse reglene nekter den bare: du beholder brikken "
              "din, og spillet går videre.",
        "da": "{holder} havde Gøgen! Efter disse regler nægter den bare: du beholder din brik, "
              "og spillet går videre.",
    },
    "learn.dragoon_charges": {
        "en": "{holder} held the Dragoon: it charges you a life, and you keep your piece. A shown "
              "matador's holder takes no turn.",
        "nb": "{holder} hadde Dragonen: den koster deg et liv, og du beholder brikken din. Den "
              "som har vist en matador, får ingen tur.",
        "da": "{holder} havde Dragonen: den koster dig et liv, og du beholder din brik. Den, der "
              "har vist en matador, får ingen tur.",
    },
    "learn.cat_undoes": {
        "en": "{asker} asked {holder}, who held the Cat: {asker} pays a life, and every swap of "
              "the round is undone. You hold {back} again.",
        "nb": "{asker} spurte {holder}, som hadde Katten: {asker} betaler et liv, og alle "
              "byttene i runden gjøres om. Du har {back} igjen.",
        "da": "{asker} spurgte {holder}, som havde Katten: {asker} betaler et liv, og alle "
              "runden bytter gøres om. Du har {back} igen.",
    },
    "learn.cat_charges": {
        "en": "{asker} asked {holder}, who held the Cat: {asker} pays a life. In these rules "
              "the Cat undoes nothing: you keep what you swapped for.",
        "nb": "{asker} spurte {holder}, som hadde Katten: {asker} betaler et liv. Etter disse "
              "reglene gjør Katten ingenting om: du beholder det du byttet til deg.",
        "da": "{asker} spurgte {holder}, som havde Katten: {asker} betaler et liv. Efter disse "
              "regler gør Katten intet om: du beholder det, du byttede til dig.",
    },
    "learn.house_passes": {
        "en": "{asker} asked {holder}, who held the House: it passes the request to the next "
              "player left. You.",
        "nb": "{asker} spurte {holder}, som hadde Huset: det sender spørsmålet videre til neste "
              "til venstre. Deg.",
        "da": "{asker} spurgte {holder}, som havde Huset: det sender spørgsmålet videre til næste "
              "til venstre. Dig.",
    },
    "learn.your_horse_passes": {
        "en": "Your Horse passes it on too; past the dealer it goes to the stock, and {asker} "
              "draws. Having shown a matador, you take no turn.",
        "nb": "Hesten din sender det videre; forbi giveren går det til bunken, og {asker} "
              "trekker. Du viste en matador, så du får ingen tur.",
        "da": "Din Hest sender det videre; forbi giveren går det til bunken, og {asker} trækker. "
              "Du viste en matador, så du får ingen tur.",
    },
    "learn.knock": {
        "en": "{holder} was dealt the fool and knocks, so everyone knows. At the showdown the "
              "fool pays and drags the next-lowest down too.",
        "nb": "{holder} fikk narren og banker, så alle vet det. I oppgjøret betaler narren og "
              "drar med seg den nest laveste.",
        "da": "{holder} fik narren og banker, så alle ved det. I opgøret betaler narren og "
              "trækker den næstlaveste med sig.",
    },
    "learn.stock_cuckoo_stops": {
        "en": "{dealer} tried to swap the fool away but drew the Cuckoo from the stock: it "
              "answers as if held, and stops the round.",
        "nb": "{dealer} ville bytte bort narren, men trakk Gjøken fra bunken: den svarer som om "
              "noen hadde den, og stopper runden.",
        "da": "{dealer} ville bytte narren væk, men trak Gøgen fra bunken: den svarer, som om "
              "nogen havde den, og standser runden.",
    },
    "learn.stock_cuckoo_refuses": {
        "en": "{dealer} tried to swap the fool away but drew the Cuckoo from the stock: it "
              "answers as if held, and refuses.",
        "nb": "{dealer} ville bytte bort narren, men trakk Gjøken fra bunken: den svarer som om "
              "noen hadde den, og nekter.",
        "da": "{dealer} ville bytte narren væk, men trak Gøgen fra bunken: den svarer, som om "
              "nogen havde den, og nægter.",
    },
    "learn.drag": {
        "en": "The drag: {fool} pays for the fool, and {dragged}, with the lowest of the other "
              "pieces, pays too.",
        "nb": "Narren drar: {fool} betaler for narren, og {dragged}, med den laveste av de "
              "andre brikkene, betaler også.",
        "da": "Narren trækker: {fool} betaler for narren, og {dragged}, med den laveste af de "
              "andre brikker, betaler også.",
    },
    "learn.two_knocks": {
        "en": "{other} knocks too. If both fools are still in hand at the showdown, each holder "
              "gains a life and nobody pays.",
        "nb": "{other} banker også. Er begge narrene fortsatt på hånden i oppgjøret, får begge et "
              "liv og ingen betaler.",
        "da": "{other} banker også. Er begge narre stadig på hånden i opgøret, får begge et liv, "
              "og ingen betaler.",
    },
    "learn.two_fools_gain": {
        "en": "Two fools at the showdown: you and {other} each gain a life, and nobody pays.",
        "nb": "To narrer i oppgjøret: du og {other} får et liv hver, og ingen betaler.",
        "da": "To narre i opgøret: du og {other} får et liv hver, og ingen betaler.",
    },
    "learn.you_win": {
        "en": "The last round is over and you have the most lives: you win. That is Gnav.",
        "nb": "Siste runde er over, og du har flest liv: du vinner. Det er gnav.",
        "da": "Sidste runde er forbi, og du har flest liv: du vinder. Det er gnav.",
    },
    # -- said when the player chooses the other way (nothing is played) ---
    "learn.why.swap_low": {
        "en": "Standing keeps a low piece, and the lowest pays. Ask your left neighbour: "
              "whatever you get is likely better.",
        "nb": "Står du, beholder du en lav brikke, og den laveste betaler. Spør naboen til "
              "venstre: det du får, er trolig bedre.",
        "da": "Bliver du, beholder du en lav brik, og den laveste betaler. Spørg naboen til "
              "venstre: det, du får, er sandsynligvis bedre.",
    },
    "learn.why.draw_low": {
        "en": "With I you are almost sure to be the lowest. As the dealer you swap with the "
              "stock: draw its top piece.",
        "nb": "Med I blir du nesten sikkert lavest. Som giver bytter du med bunken: trekk den "
              "øverste brikken.",
        "da": "Med I bliver du næsten sikkert lavest. Som giver bytter du med bunken: træk den "
              "øverste brik.",
    },
    "learn.why.keep_from_fool": {
        "en": "Your left neighbour knocked: they hold the fool. Asking them would hand it to "
              "you. Stand.",
        "nb": "Naboen til venstre banket: hen har narren. Spør du, får du den. Stå.",
        "da": "Naboen til venstre bankede: vedkommende har narren. Spørger du, får du den. "
              "Bliv.",
    },
    "learn.why.keep_two_fools": {
        "en": "Keep it: with two fools in hand at the showdown, each holder gains a life. "
              "Swapping would give your fool away.",
        "nb": "Behold den: med to narrer på hånden i oppgjøret får hver av dem et liv. Bytter "
              "du, gir du bort narren din.",
        "da": "Behold den: med to narre på hånden i opgøret får hver af dem et liv. Bytter du, "
              "giver du din nar væk.",
    },
    # -- the lesson's page and the terminal's frame ---
    "learn.ui.title": {"en": "Learn to play", "nb": "Lær å spille", "da": "Lær at spille"},
    "learn.ui.lead": {
        "en": "A short match against three bots, arranged so that every rule happens once. You "
              "make every decision. About five minutes.",
        "nb": "Et kort parti mot tre roboter, lagt opp slik at hver regel skjer én gang. Du tar "
              "alle valgene. Omtrent fem minutter.",
        "da": "Et kort spil mod tre robotter, lagt an, så hver regel sker én gang. Du træffer "
              "alle valgene. Omkring fem minutter.",
    },
    "learn.ui.start": {"en": "Start the lesson", "nb": "Start leksjonen", "da": "Start lektionen"},
    "learn.ui.resume": {"en": "Go on where you left off", "nb": "Fortsett der du slapp",
                        "da": "Fortsæt, hvor du slap"},
    "learn.ui.restart": {"en": "Start again", "nb": "Begynn på nytt", "da": "Begynd forfra"},
    "learn.ui.next": {"en": "Next", "nb": "Neste", "da": "Næste"},
    "learn.ui.your_turn": {"en": "Your turn: stand or swap?", "nb": "Din tur: stå eller bytte?",
                           "da": "Din tur: bliv eller byt?"},
    "learn.ui.stand": {"en": "Stand", "nb": "Stå", "da": "Bliv"},
    "learn.ui.swap": {"en": "Swap", "nb": "Bytt", "da": "Byt"},
    "learn.ui.not_that": {"en": "Not this time:", "nb": "Ikke denne gangen:",
                          "da": "Ikke denne gang:"},
    "learn.ui.round": {"en": "Lesson round {n} of {total}", "nb": "Leksjonsrunde {n} av {total}",
                       "da": "Lektionsrunde {n} af {total}"},
    "learn.ui.rules": {"en": "Rules taught", "nb": "Regler", "da": "Regler"},
    "learn.ui.done": {"en": "You know the game.", "nb": "Nå kan du spillet.",
                      "da": "Nu kan du spillet."},
    "learn.ui.play_bots": {"en": "Play a real table with bots", "nb": "Spill ved et ekte bord "
                           "med roboter", "da": "Spil ved et rigtigt bord med robotter"},
    "learn.ui.back_table": {"en": "Back to your friends' table", "nb": "Tilbake til vennenes bord",
                            "da": "Tilbage til vennernes bord"},
    "learn.ui.offer": {"en": "New to Gnav? Learn to play in five minutes, then come back here.",
                       "nb": "Ny i gnav? Lær å spille på fem minutter, og kom så tilbake hit.",
                       "da": "Ny i gnav? Lær at spille på fem minutter, og kom så tilbage hertil."},
    "learn.ui.offer_go": {"en": "Learn to play", "nb": "Lær å spille", "da": "Lær at spille"},
    "learn.ui.offer_no": {"en": "No thanks", "nb": "Nei takk", "da": "Nej tak"},
    "learn.ui.quit": {"en": "Stopped. gnav learn --round {n} goes on from this round.",
                      "nb": "Stoppet. gnav learn --round {n} fortsetter fra denne runden.",
                      "da": "Stoppet. gnav learn --round {n} fortsætter fra denne runde."},
    "learn.ui.prompt": {"en": "[s] stand  [w] swap  [q] quit >",
                        "nb": "[s] stå  [w] bytt  [q] avslutt >",
                        "da": "[s] bliv  [w] byt  [q] afslut >"},
    "learn.ui.press": {"en": "[enter] next  [q] quit >", "nb": "[enter] neste  [q] avslutt >",
                       "da": "[enter] næste  [q] afslut >"},
    # -- puzzles: the answer's explanation, from the figures (numbers formatted by the page) ---
    "puzzle.why.pay": {
        "en": "If you stand you pay a life {stand} of the time; if you swap, {swap}.",
        "nb": "Står du, betaler du et liv {stand} av gangene; bytter du, {swap}.",
        "da": "Bliver du, betaler du et liv {stand} af gangene; bytter du, {swap}.",
    },
    "puzzle.why.lives": {
        "en": "On average this round: {stand} lives if you stand, {swap} if you swap.",
        "nb": "I snitt denne runden: {stand} liv om du står, {swap} om du bytter.",
        "da": "I gennemsnit i denne runde: {stand} liv, hvis du bliver, {swap}, hvis du bytter.",
    },
    "puzzle.why.swap": {"en": "Swapping is better by {margin} of a life.",
                        "nb": "Å bytte er bedre med {margin} liv.",
                        "da": "At bytte er bedre med {margin} liv."},
    "puzzle.why.stand": {"en": "Standing is better by {margin} of a life.",
                         "nb": "Å stå er bedre med {margin} liv.",
                         "da": "At blive er bedre med {margin} liv."},
    "puzzle.source.exact": {"en": "Exact figures, from the solved game.",
                            "nb": "Nøyaktige tall, fra det løste spillet.",
                            "da": "Nøjagtige tal, fra det løste spil."},
    "puzzle.source.sampled": {
        "en": "Estimated from {n} deals of what you could not see.",
        "nb": "Anslått fra {n} utdelinger av det du ikke kunne se.",
        "da": "Anslået fra {n} uddelinger af det, du ikke kunne se.",
    },
    # -- the puzzles' page ---
    "puzzle.ui.title": {"en": "Puzzles", "nb": "Oppgaver", "da": "Opgaver"},
    "puzzle.ui.lead": {
        "en": "A decision from a real match, seen from the deciding seat alone: stand or swap?",
        "nb": "Et valg fra et ekte parti, sett bare fra plassen som velger: stå eller bytte?",
        "da": "Et valg fra et rigtigt spil, set kun fra pladsen, der vælger: bliv eller byt?",
    },
    "puzzle.ui.day": {"en": "Puzzle of the day", "nb": "Dagens oppgave", "da": "Dagens opgave"},
    "puzzle.ui.next": {"en": "Next puzzle", "nb": "Neste oppgave", "da": "Næste opgave"},
    "puzzle.ui.right": {"en": "Right: the expert does the same.",
                        "nb": "Riktig: eksperten gjør det samme.",
                        "da": "Rigtigt: eksperten gør det samme."},
    "puzzle.ui.wrong": {"en": "Not this time.", "nb": "Ikke denne gangen.",
                        "da": "Ikke denne gang."},
    "puzzle.ui.streak": {"en": "Streak {n} · best {best}", "nb": "På rad {n} · best {best}",
                         "da": "I træk {n} · bedst {best}"},
    "puzzle.ui.table": {"en": "{game}, {seats} seats", "nb": "{game}, {seats} plasser",
                        "da": "{game}, {seats} pladser"},
    "puzzle.ui.none": {"en": "No puzzles are served here.", "nb": "Her er det ingen oppgaver.",
                       "da": "Her er der ingen opgaver."},
}
