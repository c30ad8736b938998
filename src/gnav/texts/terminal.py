"""The terminal's own words, keyed by id, in English, Norwegian and Danish: the seat
table, the player's piece, the prompts and key hints of ``gnav play``, and the frames of
``gnav replay``.

Data only (``gnav.texts.catalogue`` merges it into the one catalogue, so the browser
could say them too). Words the game already has are not repeated here: the stock
(``ev.stock``), "you" (``word.reader``, ``word.reader_object``), what a matador does
(``short.*``), a shared win (``ev.match_shared``) and the match's winner as the narration
says it. The keys themselves (``[s]``, ``[w]``, ...) are the same in every language: a
Norwegian keyboard has them where an English one does.

The register is the rules' and the narration's: Norwegian *partiet* and Danish *spillet*
for the match (and the record of it), *bunken* for the stock, *står over* for sitting
out, *robot* for a bot, as the browser's client says them.
"""

from __future__ import annotations

TERMINAL: dict[str, dict[str, str]] = {
    # -- the seat table (tui.board, tui.viewer) ---
    "tui.col_seat": {"en": "seat", "nb": "plass", "da": "plads"},
    "tui.col_lives": {"en": "lives", "nb": "liv", "da": "liv"},
    "tui.col_round": {"en": "this round", "nb": "denne runden", "da": "denne runde"},
    "tui.col_holds": {"en": "holds", "nb": "har", "da": "har"},
    "tui.out": {"en": "out", "nb": "ute", "da": "ude"},
    "tui.sits_out": {"en": "sits out", "nb": "står over", "da": "står over"},
    "tui.sits_out_round": {
        "en": "sits out this round",
        "nb": "står over denne runden",
        "da": "står over i denne runde",
    },
    "tui.to_play": {"en": "to play", "nb": "har turen", "da": "har turen"},
    # -- what a seat did this round, in a word or two ---
    "tui.knocked": {"en": "knocked: a fool", "nb": "banket: en narr", "da": "bankede: en nar"},
    "tui.stands": {"en": "stands", "nb": "står", "da": "står"},
    "tui.asks": {"en": "asks {whom}", "nb": "spør {whom}", "da": "spørger {whom}"},
    "tui.shows": {"en": "shows {piece}!", "nb": "viser {piece}!", "da": "viser {piece}!"},
    "tui.pays": {"en": "pays {n}", "nb": "betaler {n}", "da": "betaler {n}"},
    "tui.gains": {"en": "gains {n}", "nb": "får {n}", "da": "får {n}"},
    # -- the player's own piece ---
    "tui.your_piece": {"en": "your piece", "nb": "brikken din", "da": "din brik"},
    "tui.not_dealt": {"en": "not dealt in", "nb": "ingen brikke", "da": "ingen brik"},
    "tui.no_piece": {
        "en": "none this round",
        "nb": "ingen denne runden",
        "da": "ingen i denne runde",
    },
    "tui.matador": {"en": "matador: {does}", "nb": "matador: {does}", "da": "matador: {does}"},
    "tui.the_fool": {"en": "the fool", "nb": "narren", "da": "narren"},
    "tui.rank": {
        "en": "rank {rank} of {n}",
        "nb": "rang {rank} av {n}",
        "da": "rang {rank} af {n}",
    },
    # -- the play screen's header ---
    "tui.round": {"en": "round {n}", "nb": "runde {n}", "da": "runde {n}"},
    "tui.before_deal": {
        "en": "before the first deal",
        "nb": "før første utdeling",
        "da": "før første uddeling",
    },
    "tui.deals": {"en": "{name} deals", "nb": "{name} gir", "da": "{name} giver"},
    "tui.stock": {"en": "stock {n}", "nb": "{n} i bunken", "da": "{n} i bunken"},
    # The seed names the command line's --seed, so it keeps its name.
    "tui.title_seed": {
        "en": "{title} · seed {seed}",
        "nb": "{title} · seed {seed}",
        "da": "{title} · seed {seed}",
    },
    "tui.lives_line": {"en": "Lives: {lives}", "nb": "Liv: {lives}", "da": "Liv: {lives}"},
    # -- a person's turn ---
    "tui.your_turn": {"en": "Your turn, {name}", "nb": "Din tur, {name}", "da": "Din tur, {name}"},
    "tui.you_hold": {"en": "you hold {piece}.", "nb": "du har {piece}.", "da": "du har {piece}."},
    "tui.key_stand": {"en": "[s] stand {word}", "nb": "[s] stå {word}", "da": "[s] stå {word}"},
    "tui.no_stand": {
        "en": "(no standing without a matador)",
        "nb": "(du kan ikke stå uten en matador)",
        "da": "(du kan ikke stå uden en matador)",
    },
    "tui.key_swap": {
        "en": "[w] swap with {whom} {word}",
        "nb": "[w] bytt med {whom} {word}",
        "da": "[w] byt med {whom} {word}",
    },
    "tui.key_rules": {"en": "[?] rules", "nb": "[?] regler", "da": "[?] regler"},
    "tui.key_quit": {"en": "[q] quit", "nb": "[q] avslutt", "da": "[q] afslut"},
    "tui.key_coach": {"en": "[c] coach", "nb": "[c] trener", "da": "[c] træner"},
    "tui.key_coach_off": {"en": "[c] coach off", "nb": "[c] trener av",
                          "da": "[c] træner fra"},
    "tui.coach_stand": {
        "en": "Coach: if you stand you pay with {stand}, if you swap with {swap}; "
              "the expert would stand.",
        "nb": "Trener: står du, betaler du med {stand}, bytter du, med {swap}; "
              "eksperten ville stått.",
        "da": "Træner: står du, betaler du med {stand}, bytter du, med {swap}; "
              "eksperten ville stå.",
    },
    "tui.coach_swap": {
        "en": "Coach: if you stand you pay with {stand}, if you swap with {swap}; "
              "the expert would swap.",
        "nb": "Trener: står du, betaler du med {stand}, bytter du, med {swap}; "
              "eksperten ville byttet.",
        "da": "Træner: står du, betaler du med {stand}, bytter du, med {swap}; "
              "eksperten ville bytte.",
    },
    # The match (issue 29), where a match strategy ships: the chance to win it.
    "tui.coach_win": {
        "en": "To win the match: {stand} if you stand, {swap} if you swap.",
        "nb": "Sjansen til å vinne partiet: {stand} om du står, {swap} om du bytter.",
        "da": "Chancen for at vinde spillet: {stand} hvis du bliver, {swap} hvis du bytter."},
    # From 4 seats up: the round's playouts valued by the lives model.
    "tui.coach_win_model": {
        "en": "To win the match, by lives: {stand} if you stand, {swap} if you swap.",
        "nb": "Sjansen til å vinne partiet, etter liv: {stand} om du står, {swap} om du bytter.",
        "da": "Chancen for at vinde spillet, efter liv: {stand} hvis du bliver, "
              "{swap} hvis du bytter."},
    # What the figures say, after the chances (issue 26: gnav.odds.verdict).
    "tui.coach_verdict_swap": {"en": "Swapping is better, by {d} lives.",
                               "nb": "Å bytte er bedre, med {d} liv.",
                               "da": "Det er bedre at bytte, med {d} liv."},
    "tui.coach_verdict_stand": {"en": "Standing is better, by {d} lives.",
                                "nb": "Å stå er bedre, med {d} liv.",
                                "da": "Det er bedre at blive, med {d} liv."},
    "tui.coach_verdict_close": {
        "en": "Too close to call: the difference, {d} lives, could go either way.",
        "nb": "For jevnt til å avgjøre: forskjellen, {d} liv, kan gå begge veier.",
        "da": "For tæt til at afgøre: forskellen, {d} liv, kan gå begge veje."},
    "tui.coach_verdict_equal": {"en": "Both are worth the same, to 0.01 lives.",
                                "nb": "Begge er like mye verdt, på 0,01 liv nær.",
                                "da": "Begge er lige meget værd, på 0,01 liv nær."},
    "tui.coach_why_mixed": {
        "en": "The expert mixes here: it swaps {p} of the time.",
        "nb": "Eksperten blander her: den bytter {p} av gangene.",
        "da": "Eksperten blander her: den bytter {p} af gangene."},
    "tui.coach_why_policy": {
        "en": "The expert's trained policy decides from a summary of the table, and "
              "differs here.",
        "nb": "Ekspertens trente strategi bestemmer ut fra et sammendrag av bordet, og "
              "avviker her.",
        "da": "Ekspertens trænede strategi beslutter ud fra et resumé af bordet, og "
              "afviger her."},
    "tui.coach_why_counter": {
        "en": "The expert counts pieces here from its own, smaller sample of deals.",
        "nb": "Eksperten teller brikker her ut fra sitt eget, mindre utvalg av utdelinger.",
        "da": "Eksperten tæller brikker her ud fra sit eget, mindre udvalg af uddelinger."},
    "tui.coach_why_strategy": {
        "en": "The solved strategy is an approximate solution, and differs here.",
        "nb": "Den løste strategien er en tilnærmet løsning, og avviker her.",
        "da": "Den løste strategi er en tilnærmet løsning, og afviger her."},
    "tui.coach_none": {
        "en": "Coach: no figures for this view.",
        "nb": "Trener: ingen tall for denne situasjonen.",
        "da": "Træner: ingen tal for denne situation.",
    },
    # -- the people's names when --names is not given ---
    "tui.player": {"en": "Player", "nb": "Spiller", "da": "Spiller"},
    "tui.player_n": {"en": "Player {n}", "nb": "Spiller {n}", "da": "Spiller {n}"},
    "tui.must_swap": {
        "en": "You may not stand without a matador here: press w to swap.",
        "nb": "Her kan du ikke stå uten en matador: trykk w for å bytte.",
        "da": "Her må du ikke stå uden en matador: tryk w for at bytte.",
    },
    "tui.keys_help": {
        "en": "Press s to stand, w to swap, ? for the rules, q to quit.",
        "nb": "Trykk s for å stå, w for å bytte, ? for reglene, q for å avslutte.",
        "da": "Tryk s for at stå, w for at bytte, ? for reglerne, q for at afslutte.",
    },
    # -- hot-seat: handing the screen over ---
    "tui.pass_screen": {
        "en": "Pass the screen to {name}.",
        "nb": "Gi skjermen til {name}.",
        "da": "Giv skærmen til {name}.",
    },
    "tui.ready": {
        "en": "{name}, press {key} when only you can see the screen.",
        "nb": "{name}, trykk {key} når bare du kan se skjermen.",
        "da": "{name}, tryk {key}, når kun du kan se skærmen.",
    },
    "tui.swap_brought": {
        "en": "{name}, this is what your swap brought.",
        "nb": "{name}, dette fikk du i byttet.",
        "da": "{name}, dette fik du i byttet.",
    },
    "tui.key_hide": {
        "en": "[Enter] hide my piece",
        "nb": "[Enter] skjul brikken min",
        "da": "[Enter] skjul min brik",
    },
    # -- the end of a round, and of the match ---
    "tui.round_over": {"en": "Round over.", "nb": "Runden er over.", "da": "Runden er forbi."},
    "tui.you_out": {
        "en": "Round over. You are out of the game.",
        "nb": "Runden er over. Du er ute av spillet.",
        "da": "Runden er forbi. Du er ude af spillet.",
    },
    "tui.all_out": {
        "en": "Round over. Every person is out of the game.",
        "nb": "Runden er over. Dere er alle ute av spillet.",
        "da": "Runden er forbi. I er alle ude af spillet.",
    },
    "tui.key_next_round": {
        "en": "[Enter] next round",
        "nb": "[Enter] neste runde",
        "da": "[Enter] næste runde",
    },
    "tui.key_watch": {
        "en": "[Enter] watch the bots play on",
        "nb": "[Enter] se robotene spille videre",
        "da": "[Enter] se robotterne spille videre",
    },
    "tui.key_fast": {
        "en": "[f] fast-forward to the end",
        "nb": "[f] spol fram til slutten",
        "da": "[f] spol frem til slutningen",
    },
    "tui.saved": {
        "en": "Saved the match to {path}",
        "nb": "Partiet er lagret i {path}",
        "da": "Spillet er gemt i {path}",
    },
    "tui.replay_hint": {
        "en": "(replay it: gnav replay {path})",
        "nb": "(spill det av: gnav replay {path})",
        "da": "(afspil det: gnav replay {path})",
    },
    "tui.not_saved": {
        "en": "Could not save the match to {path}: {error}",
        "nb": "Kunne ikke lagre partiet i {path}: {error}",
        "da": "Kunne ikke gemme spillet i {path}: {error}",
    },
    "tui.stopped": {
        "en": "Stopped. The match so far is kept.",
        "nb": "Stoppet. Partiet så langt er tatt vare på.",
        "da": "Stoppet. Spillet indtil nu er gemt.",
    },
    # -- gnav replay ---
    "tui.replay_of": {
        "en": "Replay of {file}",
        "nb": "Avspilling av {file}",
        "da": "Afspilning af {file}",
    },
    "tui.round_of": {
        "en": "round {round} of {rounds}",
        "nb": "runde {round} av {rounds}",
        "da": "runde {round} af {rounds}",
    },
    "tui.the_deal": {"en": "the deal", "nb": "utdelingen", "da": "uddelingen"},
    "tui.decision": {
        "en": "decision {k} of {n}",
        "nb": "trekk {k} av {n}",
        "da": "træk {k} af {n}",
    },
    "tui.dealt": {"en": "Dealt: {hands}.", "nb": "Utdelt: {hands}.", "da": "Uddelt: {hands}."},
    "tui.dealt_was": {
        "en": "(dealt {piece})",
        "nb": "(utdelt: {piece})",
        "da": "(uddelt: {piece})",
    },
    "tui.replay_swap": {
        "en": "{seat} and {target} swap: {seat} now holds {seat_got}, {target} holds "
              "{target_got}.",
        "nb": "{seat} og {target} bytter: {seat} har nå {seat_got}, {target} har "
              "{target_got}.",
        "da": "{seat} og {target} bytter: {seat} har nu {seat_got}, {target} har "
              "{target_got}.",
    },
    "tui.replay_draw": {
        "en": "{seat} draws {piece} from the stock and sets {aside} aside.",
        "nb": "{seat} trekker {piece} fra bunken og legger {aside} til side.",
        "da": "{seat} trækker {piece} fra bunken og lægger {aside} til side.",
    },
    "tui.stock_left": {
        "en": "Stock: {n} left",
        "nb": "Bunken: {n} igjen",
        "da": "Bunken: {n} tilbage",
    },
    "tui.stock_next": {
        "en": "Stock: {n} left; next: {next}",
        "nb": "Bunken: {n} igjen; neste: {next}",
        "da": "Bunken: {n} tilbage; næste: {next}",
    },
    "tui.set_aside": {
        "en": "Set aside: {pieces}",
        "nb": "Lagt til side: {pieces}",
        "da": "Lagt til side: {pieces}",
    },
    "tui.won": {
        "en": "{seat} won the match.",
        "nb": "{seat} vant partiet.",
        "da": "{seat} vandt spillet.",
    },
    "tui.cut": {
        "en": "The match was stopped in the middle of a round (that round is not replayed).",
        "nb": "Partiet ble stoppet midt i en runde (den runden spilles ikke av).",
        "da": "Spillet blev stoppet midt i en runde (den runde afspilles ikke).",
    },
    "tui.not_over": {
        "en": "The record ends here; the match is not over.",
        "nb": "Her slutter opptegnelsen; partiet er ikke ferdig.",
        "da": "Her slutter optegnelsen; spillet er ikke færdigt.",
    },
    "tui.no_rounds": {
        "en": "{file}: the record has no rounds.",
        "nb": "{file}: opptegnelsen har ingen runder.",
        "da": "{file}: optegnelsen har ingen runder.",
    },
    "tui.key_next": {"en": "[Enter/n] next", "nb": "[Enter/n] neste", "da": "[Enter/n] næste"},
    "tui.key_previous": {"en": "[p] previous", "nb": "[p] forrige", "da": "[p] forrige"},
    "tui.key_round": {"en": "[r] next round", "nb": "[r] neste runde", "da": "[r] næste runde"},
}
