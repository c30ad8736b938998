// Every string of the page in English, Norwegian (bokmål) and Danish.
// t(key, params) looks a string up in the current language; {name} is filled from params.
// The page's own words are here; the sentences it shares with the terminal (the
// narration, the rules panel's headings) are the engine's catalogue, loaded once from
// /static/texts.json (gnav.texts) before the first page is drawn.

// The page's languages are the server's (presets.json, page_languages): app.js sets them
// before anything is drawn. Until then the page speaks English.
export let LANGS = ["en"];
export let LANG_NAMES = { en: "English" };

export function setLanguages(names) {
  LANG_NAMES = { ...names };
  LANGS = Object.keys(LANG_NAMES);
}

const S = {
  // -- shell ---------------------------------------------------------------------------
  "app.title": { en: "Gnav", nb: "Gnav", da: "Gnav" },
  "app.skip": { en: "Skip to the game", nb: "Hopp til spillet", da: "Spring til spillet" },
  "app.home": { en: "Gnav: start page", nb: "Gnav: startsiden", da: "Gnav: startsiden" },
  "app.language": { en: "Language", nb: "Språk", da: "Sprog" },
  "app.rules": { en: "Rules", nb: "Regler", da: "Regler" },
  "app.settings": { en: "Settings", nb: "Innstillinger", da: "Indstillinger" },
  "app.close": { en: "Close", nb: "Lukk", da: "Luk" },
  "app.offline": { en: "The server cannot be reached.", nb: "Får ikke kontakt med serveren.",
                   da: "Kan ikke få forbindelse til serveren." },
  "settings.speed": { en: "Animation speed", nb: "Animasjonsfart", da: "Animationshastighed" },
  "speed.slow": { en: "Slow", nb: "Sakte", da: "Langsom" },
  "speed.normal": { en: "Normal", nb: "Normal", da: "Normal" },
  "speed.fast": { en: "Fast", nb: "Rask", da: "Hurtig" },
  "speed.instant": { en: "No animation", nb: "Ingen animasjon", da: "Ingen animation" },
  "settings.hints": { en: "Hints for new players", nb: "Tips for nye spillere",
                      da: "Tips til nye spillere" },
  "settings.coach": { en: "Coach: your odds at your turn", nb: "Trener: sjansene dine når det er din tur",
                      da: "Træner: dine chancer, når det er din tur" },
  "settings.coach_help": {
    en: "Beside your piece: how likely you are to pay if you stand and if you swap, and what the expert would do, from what you can see. Decisions you take after asking are marked in the record.",
    nb: "Ved brikken din: hvor sannsynlig det er at du betaler om du står og om du bytter, og hva eksperten ville gjort, ut fra det du kan se. Valg du tar etter å ha spurt, merkes i protokollen.",
    da: "Ved din brik: hvor sandsynligt det er, at du betaler, hvis du bliver og hvis du bytter, og hvad eksperten ville gøre, ud fra det du kan se. Valg du træffer efter at have spurgt, markeres i protokollen." },
  "coach.title": { en: "Coach", nb: "Trener", da: "Træner" },
  "coach.asking": { en: "The coach is thinking…", nb: "Treneren tenker…", da: "Træneren tænker…" },
  "coach.stand": { en: "Stand: {p} chance of paying", nb: "Stå: {p} sjanse for å betale",
                   da: "Bliv: {p} chance for at betale" },
  "coach.swap": { en: "Swap: {p}", nb: "Bytt: {p}", da: "Byt: {p}" },
  "coach.expert_stand": { en: "The expert stands here.", nb: "Eksperten står her.",
                          da: "Eksperten bliver her." },
  "coach.expert_swap": { en: "The expert swaps here.", nb: "Eksperten bytter her.",
                         da: "Eksperten bytter her." },
  "coach.expert_mixed": { en: "The expert swaps here {p} of the time.",
                          nb: "Eksperten bytter her {p} av gangene.",
                          da: "Eksperten bytter her {p} af gangene." },
  "coach.lives": { en: "Lives this round, on average: {s} if you stand, {w} if you swap.",
                   nb: "Liv denne runden, i snitt: {s} om du står, {w} om du bytter.",
                   da: "Liv i denne runde, i gennemsnit: {s} hvis du bliver, {w} hvis du bytter." },
  "coach.exact": { en: "Exact, from the solved game.", nb: "Nøyaktig, fra det løste spillet.",
                   da: "Nøjagtigt, fra det løste spil." },
  "coach.sampled": { en: "Estimated from {n} deals of what you cannot see (95% range in brackets).",
                     nb: "Anslått fra {n} utdelinger av det du ikke ser (95 % intervall i parentes).",
                     da: "Anslået fra {n} uddelinger af det, du ikke kan se (95 % interval i parentes)." },
  "coach.none": { en: "No choice to make here.", nb: "Her er det ikke noe valg.",
                  da: "Her er der intet valg." },
  "coach.off_here": { en: "No coaching at this table: the host's choice.",
                      nb: "Ingen trener ved dette bordet: vertens valg.",
                      da: "Ingen træner ved dette bord: værtens valg." },
  "settings.motion": {
    en: "Your system asks for reduced motion: pieces fade instead of flying.",
    nb: "Systemet ditt ber om mindre bevegelse: brikkene toner inn i stedet for å fly.",
    da: "Dit system beder om mindre bevægelse: brikkerne toner frem i stedet for at flyve." },

  // -- connection ----------------------------------------------------------------------
  "conn.connecting": { en: "Connecting…", nb: "Kobler til…", da: "Forbinder…" },
  "conn.open": { en: "Connected", nb: "Tilkoblet", da: "Forbundet" },
  "conn.retry": { en: "Connection lost: reconnecting in {s} s (attempt {n})",
                  nb: "Forbindelsen brøt: kobler til igjen om {s} s (forsøk {n})",
                  da: "Forbindelsen blev afbrudt: forbinder igen om {s} s (forsøg {n})" },
  "conn.now": { en: "Reconnect now", nb: "Koble til nå", da: "Forbind nu" },
  "conn.replaced": { en: "Your seat was opened in another window or tab.",
                     nb: "Plassen din ble åpnet i et annet vindu eller en annen fane.",
                     da: "Din plads blev åbnet i et andet vindue eller en anden fane." },
  "conn.take_back": { en: "Play here", nb: "Spill her", da: "Spil her" },
  "conn.removed": { en: "The host freed your seat: you are watching now.",
                    nb: "Verten frigjorde plassen din: nå ser du på.",
                    da: "Værten frigav din plads: nu ser du med." },
  "conn.bad_token": { en: "This browser no longer holds a seat here: you are watching.",
                      nb: "Denne nettleseren har ikke lenger en plass her: du ser på.",
                      da: "Denne browser har ikke længere en plads her: du ser med." },
  "conn.closed": { en: "The server closed the connection: {reason}",
                   nb: "Serveren lukket forbindelsen: {reason}",
                   da: "Serveren lukkede forbindelsen: {reason}" },

  // -- what went wrong (errors.js: the server's codes in words) ------------------------
  "err.unknown": { en: "That did not work. Try again, or reload the page.",
                   nb: "Det gikk ikke. Prøv igjen, eller last inn siden på nytt.",
                   da: "Det lykkedes ikke. Prøv igen, eller genindlæs siden." },
  "err.offline": { en: "The server cannot be reached: check your connection and try again.",
                   nb: "Får ikke kontakt med serveren: sjekk forbindelsen og prøv igjen.",
                   da: "Kan ikke få forbindelse til serveren: tjek forbindelsen, og prøv igen." },
  "err.http": { en: "The server answered with an error (HTTP {status}). Try again.",
                nb: "Serveren svarte med en feil (HTTP {status}). Prøv igjen.",
                da: "Serveren svarede med en fejl (HTTP {status}). Prøv igen." },
  "err.internal": { en: "The server hit an error of its own. Try again in a moment.",
                    nb: "Serveren fikk en feil. Prøv igjen om litt.",
                    da: "Serveren fik en fejl. Prøv igen om lidt." },
  "err.bad_request": { en: "The page and the server did not understand each other: reload the page.",
                       nb: "Siden og serveren forsto ikke hverandre: last inn siden på nytt.",
                       da: "Siden og serveren forstod ikke hinanden: genindlæs siden." },
  "err.bad_field": { en: "The table cannot be made with that setting: check “{field}”.",
                     nb: "Bordet kan ikke lages med den innstillingen: sjekk «{field}».",
                     da: "Bordet kan ikke oprettes med den indstilling: tjek »{field}«." },
  "err.bad_config": { en: "The table cannot be made with these settings.",
                      nb: "Bordet kan ikke lages med disse innstillingene.",
                      da: "Bordet kan ikke oprettes med disse indstillinger." },
  "err.bad_lang": { en: "This game has no calls in that language: pick another.",
                    nb: "Dette spillet har ikke rop på det språket: velg et annet.",
                    da: "Dette spil har ingen råb på det sprog: vælg et andet." },
  "err.bad_rules": { en: "The rules for these settings cannot be shown.",
                     nb: "Reglene for disse innstillingene kan ikke vises.",
                     da: "Reglerne for disse indstillinger kan ikke vises." },
  "err.bad_name": { en: "That name holds characters that cannot be shown to others: write it in plain letters.",
                    nb: "Navnet har tegn som ikke kan vises for andre: skriv det med vanlige bokstaver.",
                    da: "Navnet har tegn, der ikke kan vises for andre: skriv det med almindelige bogstaver." },
  "err.name_empty": { en: "Type a name first.", nb: "Skriv et navn først.", da: "Skriv et navn først." },
  "err.name_blank": { en: "Write a name: one of only spaces says nothing.",
                      nb: "Skriv et navn: bare mellomrom sier ingenting.",
                      da: "Skriv et navn: kun mellemrum siger intet." },
  "err.name_too_long": { en: "A name has at most {max} characters.",
                         nb: "Et navn har høyst {max} tegn.", da: "Et navn har højst {max} tegn." },
  "err.name_taken": { en: "Someone at this table already has that name: pick another.",
                      nb: "Noen ved bordet har allerede det navnet: velg et annet.",
                      da: "Nogen ved bordet har allerede det navn: vælg et andet." },
  "err.full": { en: "Every seat at this table is taken: you can still watch.",
                nb: "Alle plassene ved bordet er tatt: du kan fortsatt se på.",
                da: "Alle pladser ved bordet er taget: du kan stadig se med." },
  "err.started": { en: "The match has started: watch it, or wait for the next one.",
                   nb: "Partiet har startet: se på, eller vent på det neste.",
                   da: "Spillet er startet: se med, eller vent på det næste." },
  "err.bad_invite": { en: "The invite code is missing or wrong: ask the host for the invite link.",
                      nb: "Invitasjonskoden mangler eller er feil: be verten om invitasjonslenken.",
                      da: "Invitationskoden mangler eller er forkert: bed værten om invitationslinket." },
  "err.no_table": { en: "There is no table with that id: it may be mistyped, or the table is gone.",
                    nb: "Det finnes ikke noe bord med den id-en: den kan være feilskrevet, eller bordet er borte.",
                    da: "Der er intet bord med det id: det kan være stavet forkert, eller bordet er væk." },
  "err.not_found": { en: "There is no such page.", nb: "Den siden finnes ikke.", da: "Den side findes ikke." },
  "err.not_host": { en: "Only the host may do that.", nb: "Bare verten kan gjøre det.",
                    da: "Kun værten kan gøre det." },
  "err.bad_token": { en: "This browser no longer holds that seat.",
                     nb: "Denne nettleseren har ikke lenger den plassen.",
                     da: "Denne browser har ikke længere den plads." },
  "err.bad_seat": { en: "There is no such seat at this table.", nb: "Det er ingen slik plass ved bordet.",
                    da: "Der er ingen sådan plads ved bordet." },
  "err.bad_bot": { en: "There is no such bot.", nb: "Det finnes ingen slik robot.",
                   da: "Der findes ingen sådan robot." },
  "err.not_seated": { en: "Watchers cannot play: take a seat first.",
                      nb: "De som ser på kan ikke spille: ta en plass først.",
                      da: "De, der ser med, kan ikke spille: tag en plads først." },
  "err.no_coaching": { en: "The host chose no coaching at this table.",
                       nb: "Verten har valgt ingen trener ved dette bordet.",
                       da: "Værten har valgt ingen træner ved dette bord." },
  "err.stale": { en: "That move came too late: the table had moved on.",
                 nb: "Det trekket kom for sent: bordet hadde gått videre.",
                 da: "Det træk kom for sent: bordet var gået videre." },
  "err.illegal": { en: "That move is not allowed now.", nb: "Det trekket er ikke lov nå.",
                   da: "Det træk er ikke tilladt nu." },
  "err.rate_limited": { en: "Too many new tables from here in a minute: try again shortly.",
                        nb: "For mange nye bord herfra på ett minutt: prøv igjen snart.",
                        da: "For mange nye borde herfra på et minut: prøv igen om lidt." },
  "err.busy": { en: "The server holds all the tables it can right now: try again later.",
                nb: "Serveren har så mange bord den kan akkurat nå: prøv igjen senere.",
                da: "Serveren har så mange borde, den kan lige nu: prøv igen senere." },
  "err.closing": { en: "The server is restarting: try again in a moment.",
                   nb: "Serveren starter på nytt: prøv igjen om et øyeblikk.",
                   da: "Serveren genstarter: prøv igen om et øjeblik." },
  "err.crowded": { en: "This table has as many watchers as it may: try again later.",
                   nb: "Bordet har så mange tilskuere det kan ha: prøv igjen senere.",
                   da: "Bordet har så mange tilskuere, det må have: prøv igen senere." },
  "err.expired": { en: "This table was never started and has closed: make a new one.",
                   nb: "Dette bordet ble aldri startet og er stengt: lag et nytt.",
                   da: "Dette bord blev aldrig startet og er lukket: opret et nyt." },
  "err.too_many": { en: "You have as many unfinished tables as one address may: finish one first.",
                    nb: "Du har så mange uferdige bord som én adresse kan ha: spill ferdig ett først.",
                    da: "Du har så mange uafsluttede borde, som én adresse må have: spil et færdigt først." },
  "err.too_many_sockets": { en: "Too many tables are open from here at once: close some tabs and try again.",
                            nb: "For mange bord er åpne herfra samtidig: lukk noen faner og prøv igjen.",
                            da: "For mange borde er åbne herfra på én gang: luk nogle faner, og prøv igen." },
  "err.bad_origin": { en: "This page may not connect to the table from this address.",
                      nb: "Denne siden får ikke koble til bordet fra denne adressen.",
                      da: "Denne side må ikke forbinde til bordet fra denne adresse." },
  "err.not_over": { en: "The match is not over yet: its replay comes when it ends.",
                    nb: "Partiet er ikke ferdig ennå: avspillingen kommer når det er slutt.",
                    da: "Spillet er ikke slut endnu: afspilningen kommer, når det er slut." },
  "err.no_match": { en: "No match has been played at this table yet.",
                    nb: "Det er ikke spilt noe parti ved dette bordet ennå.",
                    da: "Der er ikke spillet noget spil ved dette bord endnu." },
  "err.no_record": { en: "There is no record of that game at this table.",
                     nb: "Det finnes ikke noe referat av det partiet ved dette bordet.",
                     da: "Der findes ikke noget referat af det spil ved dette bord." },
  "err.bad_record": { en: "This file is not a game record the viewer can read: open the JSON file “Download record” saves at the end of a match.",
                      nb: "Denne filen er ikke et parti avspilleren kan lese: åpne JSON-filen «Last ned partiet» lagrer når et parti er over.",
                      da: "Denne fil er ikke et spil, afspilleren kan læse: åbn JSON-filen, som »Hent spillet« gemmer, når et spil er slut." },
  "err.inconsistent": { en: "The record contradicts the rules: a move in it could not have been made.",
                        nb: "Partiet strider mot reglene: et trekk i det kunne ikke ha skjedd.",
                        da: "Spillet strider mod reglerne: et træk i det kunne ikke være sket." },
  "err.too_big": { en: "The record is too big for the viewer.", nb: "Partiet er for stort for avspilleren.",
                   da: "Spillet er for stort til afspilleren." },
  "err.removed": { en: "The host freed your seat: you are watching now.",
                   nb: "Verten frigjorde plassen din: nå ser du på.",
                   da: "Værten frigav din plads: nu ser du med." },
  "err.page_title": { en: "Nothing here", nb: "Ingenting her", da: "Intet her" },
  "err.page_text": { en: "There is no page at {path}. The link may be mistyped or old.",
                     nb: "Det finnes ingen side på {path}. Lenken kan være feilskrevet eller gammel.",
                     da: "Der er ingen side på {path}. Linket kan være stavet forkert eller gammelt." },
  "err.back": { en: "Back to the start page", nb: "Tilbake til startsiden", da: "Tilbage til startsiden" },

  // -- start page ----------------------------------------------------------------------
  "start.tagline": {
    en: "The old Scandinavian swap-and-bluff game. One piece each: keep it or swap it with your neighbour, and don't hold the lowest when everyone shows.",
    nb: "Det gamle skandinaviske bytte- og bløffspillet. Én brikke hver: behold den eller bytt med naboen, og ikke sitt med den laveste når alle viser.",
    da: "Det gamle skandinaviske bytte- og bluffespil. Én brik hver: behold den eller byt med naboen, og sid ikke med den laveste, når alle viser." },
  "create.heading": { en: "New table", nb: "Nytt bord", da: "Nyt bord" },
  "create.name": { en: "Your name", nb: "Navnet ditt", da: "Dit navn" },
  "create.preset": { en: "Game", nb: "Spill", da: "Spil" },
  "create.preset_count": { en: "Game: {n} to choose from", nb: "Spill: {n} å velge mellom",
                           da: "Spil: {n} at vælge imellem" },
  "create.out_of_range": { en: "“{field}” must be from {min} to {max}.",
                           nb: "«{field}» må være fra {min} til {max}.",
                           da: "»{field}« skal være fra {min} til {max}." },
  "create.seats": { en: "Seats", nb: "Plasser", da: "Pladser" },
  "create.seats_help": { en: "{min} to {max}; empty seats get bots when the match starts.",
                         nb: "{min} til {max}; tomme plasser får roboter når partiet starter.",
                         da: "{min} til {max}; tomme pladser får robotter, når spillet starter." },
  "create.bots": { en: "Bots to seat now", nb: "Roboter som settes inn nå",
                   da: "Robotter, der sættes ind nu" },
  "create.bot": { en: "Bots play", nb: "Robotene spiller", da: "Robotterne spiller" },
  "bot.random": { en: "at random (easy)", nb: "tilfeldig (lett)", da: "tilfældigt (let)" },
  "bot.threshold": { en: "steadily (medium)", nb: "jevnt (middels)", da: "jævnt (middel)" },
  "bot.counter": { en: "counting pieces (hard)", nb: "teller brikker (vanskelig)",
                   da: "tæller brikker (svær)" },
  "bot.expert": { en: "solved play (expert)", nb: "løst spill (ekspert)",
                  da: "løst spil (ekspert)" },
  "create.lives": { en: "Lives", nb: "Liv", da: "Liv" },
  "create.timer": { en: "Turn timer", nb: "Tid per tur", da: "Tid per tur" },
  "timer.off": { en: "Off", nb: "Av", da: "Fra" },
  "timer.secs": { en: "{n} seconds", nb: "{n} sekunder", da: "{n} sekunder" },
  "create.look": { en: "Pieces look like", nb: "Brikkene ser ut som", da: "Brikkerne ser ud som" },
  "look.pawns": { en: "turned wooden pawns", nb: "dreide trebrikker", da: "drejede træbrikker" },
  "look.cards": { en: "cards", nb: "kort", da: "kort" },
  "look.cards52": { en: "an ordinary pack", nb: "vanlig kortstokk", da: "almindelige kort" },
  "create.score": { en: "Lives shown as", nb: "Liv vises som", da: "Liv vises som" },
  "score.tokens": { en: "tokens", nb: "merker", da: "mærker" },
  "score.strokes": { en: "strokes on a slate", nb: "streker på en tavle",
                     da: "streger på en tavle" },
  "score.gnav": { en: "the letters G-N-A-V", nb: "bokstavene G-N-A-V",
                  da: "bogstaverne G-N-A-V" },
  "create.calls": { en: "Calls made in", nb: "Ropene på", da: "Råbene på" },
  "create.no_coaching": { en: "No coaching here (the coach is off for every seat)",
                          nb: "Ingen trener her (treneren er av for alle)",
                          da: "Ingen træner her (træneren er slået fra for alle)" },
  "create.listed": { en: "List the table for anyone to join",
                     nb: "Vis bordet for alle som vil bli med",
                     da: "Vis bordet for alle, der vil være med" },
  "create.more": { en: "More rules", nb: "Flere regler", da: "Flere regler" },
  "create.preset_default": { en: "as the game says", nb: "som spillet sier",
                             da: "som spillet siger" },
  "create.or_choose": { en: "Choose the game and its settings below, or create the table now with them as they are.",
                       nb: "Velg spillet og innstillingene nedenfor, eller lag bordet nå med dem som de er.",
                       da: "Vælg spillet og indstillingerne nedenfor, eller opret bordet nu med dem, som de er." },
  "create.submit": { en: "Create the table", nb: "Lag bordet", da: "Opret bordet" },
  "create.busy": { en: "Creating…", nb: "Lager bordet…", da: "Opretter…" },
  "join.heading": { en: "Join a table", nb: "Bli med ved et bord", da: "Vær med ved et bord" },
  "join.code": { en: "Invite link or code", nb: "Invitasjonslenke eller kode",
                 da: "Invitationslink eller kode" },
  "join.go": { en: "Go to the table", nb: "Gå til bordet", da: "Gå til bordet" },
  "join.bad_code": { en: "That is neither an invite link nor a code (a code looks like AbC123xyz:5f0c…).",
                     nb: "Det er verken en invitasjonslenke eller en kode (en kode ser ut som AbC123xyz:5f0c…).",
                     da: "Det er hverken et invitationslink eller en kode (en kode ser ud som AbC123xyz:5f0c…)." },
  "lobby.heading": { en: "Open tables", nb: "Åpne bord", da: "Åbne borde" },
  "lobby.none": { en: "No listed tables are waiting right now. Create one!",
                  nb: "Ingen åpne bord venter akkurat nå. Lag et!",
                  da: "Ingen åbne borde venter lige nu. Opret et!" },
  "lobby.refresh": { en: "Refresh", nb: "Oppdater", da: "Opdater" },
  "lobby.line": { en: "{preset} · {taken} of {seats} seats taken · {timer}",
                  nb: "{preset} · {taken} av {seats} plasser tatt · {timer}",
                  da: "{preset} · {taken} af {seats} pladser taget · {timer}" },
  "lobby.playing": { en: "playing", nb: "spiller", da: "spiller" },
  "lobby.no_timer": { en: "no timer", nb: "uten tidsgrense", da: "uden tidsgrænse" },
  "lobby.timer": { en: "{n} s a turn", nb: "{n} s per tur", da: "{n} s per tur" },
  "lobby.join": { en: "Join", nb: "Bli med", da: "Vær med" },
  "lobby.watch": { en: "Watch", nb: "Se på", da: "Se med" },
  "lobby.no_coaching": { en: "no coaching", nb: "ingen trener", da: "ingen træner" },
  "lobby.full": { en: "full: watch only", nb: "fullt: bare se på", da: "fuldt: kun se med" },
  "start.replay": { en: "Watch a finished match again: open the replay viewer",
                    nb: "Se et ferdig parti på nytt: åpne avspilleren",
                    da: "Se et færdigt spil igen: åbn afspilleren" },

  // -- option names and values ---------------------------------------------------------
  "opt.copies": { en: "Copies of each piece", nb: "Eksemplarer av hver brikke",
                  da: "Eksemplarer af hver brik" },
  "opt.knock": { en: "The fool's knock", nb: "Narrens bank", da: "Narrens bank" },
  "opt.revealed": { en: "A shown matador's turn", nb: "Tur for en vist matador",
                    da: "Tur for en vist matador" },
  "opt.drag": { en: "The fool drags the next-lowest", nb: "Narren drar med seg den nest laveste",
                da: "Narren trækker den næstlaveste med" },
  "opt.two_fools": { en: "Two fools in hand", nb: "To narrer på hånden", da: "To narre på hånden" },
  "opt.two_fools_sit_out": { en: "Two fools sit out the next round",
                             nb: "To narrer står over neste runde",
                             da: "To narre står over i næste runde" },
  "opt.penalty_to": { en: "A matador's penalty goes to", nb: "Straffen for en matador går til",
                      da: "Straffen for en matador går til" },
  "opt.stand_needs_matador": { en: "Stand only while holding a matador",
                               nb: "Stå bare med en matador", da: "Stå kun med en matador" },
  "opt.dealer_wins_ties": { en: "Ties go to the dealer", nb: "Giveren vinner likt",
                            da: "Giveren vinder lige" },
  "opt.max_rounds": { en: "Round limit (empty: none)", nb: "Største antall runder (tomt: ingen)",
                      da: "Største antal runder (tomt: ingen)" },
  "val.public": { en: "public: a fool is knocked", nb: "offentlig: narren bankes",
                  da: "offentlig: narren bankes" },
  "val.silent": { en: "silent: nobody knocks", nb: "stille: ingen banker", da: "stille: ingen banker" },
  "val.skip": { en: "skipped", nb: "hoppes over", da: "springes over" },
  "val.act": { en: "still taken", nb: "tas likevel", da: "tages alligevel" },
  "val.gain": { en: "each gains a life", nb: "hver får et liv", da: "hver får et liv" },
  "val.pay": { en: "each pays a life", nb: "hver betaler et liv", da: "hver betaler et liv" },
  "val.plain": { en: "no special rule", nb: "ingen egen regel", da: "ingen særlig regel" },
  "val.pool": { en: "the pool", nb: "potten", da: "puljen" },
  "val.holder": { en: "the matador's holder", nb: "den som har matadoren",
                  da: "den, der har matadoren" },
  "val.true": { en: "yes", nb: "ja", da: "ja" },
  "val.false": { en: "no", nb: "nei", da: "nej" },

  // -- the table -----------------------------------------------------------------------
  "table.loading": { en: "Loading the table…", nb: "Henter bordet…", da: "Henter bordet…" },
  "table.none_title": { en: "There is no table here", nb: "Det er ikke noe bord her",
                        da: "Der er intet bord her" },
  "table.label": { en: "The table", nb: "Bordet", da: "Bordet" },
  "table.id": { en: "Table {id}", nb: "Bord {id}", da: "Bord {id}" },
  "table.you_are": { en: "You are {name}", nb: "Du er {name}", da: "Du er {name}" },
  "table.watching": { en: "Watching", nb: "Ser på", da: "Ser med" },
  "wait.heading": { en: "Waiting for players", nb: "Venter på spillere", da: "Venter på spillere" },
  "wait.host": { en: "The host starts the match; empty seats get bots.",
                 nb: "Verten starter partiet; tomme plasser får roboter.",
                 da: "Værten starter spillet; tomme pladser får robotter." },
  "wait.invite": { en: "Invite link", nb: "Invitasjonslenke", da: "Invitationslink" },
  "wait.local_only": { en: "This link works on this computer alone: the server listens here only. To play with friends, start it with make run HOST=0.0.0.0 (README: Play with friends).",
                       nb: "Denne lenken virker bare på denne datamaskinen: serveren lytter bare her. For å spille med venner, start den med make run HOST=0.0.0.0 (README: Play with friends).",
                       da: "Dette link virker kun på denne computer: serveren lytter kun her. For at spille med venner, start den med make run HOST=0.0.0.0 (README: Play with friends)." },
  "wait.code": { en: "Invite code", nb: "Invitasjonskode", da: "Invitationskode" },
  "wait.watch": { en: "Watch link", nb: "Lenke for å se på", da: "Link til at se med" },
  "wait.copy": { en: "Copy", nb: "Kopier", da: "Kopiér" },
  "wait.copied": { en: "Copied", nb: "Kopiert", da: "Kopieret" },
  "wait.add_bot": { en: "Add a bot", nb: "Legg til en robot", da: "Tilføj en robot" },
  "wait.free": { en: "Free seat {n}", nb: "Frigjør plass {n}", da: "Frigiv plads {n}" },
  "wait.start": { en: "Start the match", nb: "Start partiet", da: "Start spillet" },
  "wait.seats": { en: "Seats", nb: "Plasser", da: "Pladser" },
  "seat.n": { en: "Seat {n}", nb: "Plass {n}", da: "Plads {n}" },
  "seat.empty": { en: "empty", nb: "ledig", da: "ledig" },
  "seat.bot_n": { en: "Bot {n}", nb: "Robot {n}", da: "Robot {n}" },
  "seat.bot": { en: "bot", nb: "robot", da: "robot" },
  "seat.bot_kind": { en: "{kind} bot", nb: "robot: {kind}", da: "robot: {kind}" },
  "seat.away": { en: "away", nb: "borte", da: "væk" },
  "seat.you": { en: "you", nb: "deg", da: "dig" },
  "seat.dealer": { en: "dealer", nb: "giver", da: "giver" },
  "seat.to_act": { en: "to act", nb: "sin tur", da: "sin tur" },
  "seat.out": { en: "out", nb: "ute", da: "ude" },
  "seat.sits_out": { en: "sits out", nb: "står over", da: "står over" },
  "seat.knocked": { en: "knocked: was dealt a fool and has not swapped since",
                    nb: "banket: fikk en narr og har ikke byttet siden",
                    da: "bankede: fik en nar og har ikke byttet siden" },
  "seat.knocked_moved": { en: "knocked at the deal (dealt a fool), but has swapped since: the fool may be elsewhere now",
                          nb: "banket ved utdelingen (fikk en narr), men har byttet siden: narren kan være et annet sted nå",
                          da: "bankede ved uddelingen (fik en nar), men har byttet siden: narren kan være et andet sted nu" },
  "seat.hidden": { en: "a hidden piece", nb: "en skjult brikke", da: "en skjult brik" },
  "seat.lives": { en: "{n} lives", nb: "{n} liv", da: "{n} liv" },
  "seat.one_life": { en: "1 life", nb: "1 liv", da: "1 liv" },
  "join.sit": { en: "Take a seat", nb: "Sett deg", da: "Sæt dig" },
  "join.watch_only": { en: "You are watching. To play, open the invite link the host shared.",
                       nb: "Du ser på. For å spille, åpne invitasjonslenken verten delte.",
                       da: "Du ser med. For at spille, åbn invitationslinket, værten delte." },
  "join.started": { en: "The match has started: you are watching.",
                    nb: "Partiet har startet: du ser på.", da: "Spillet er startet: du ser med." },
  "play.stand": { en: "Stand", nb: "Stå", da: "Stå" },
  "play.swap": { en: "Swap", nb: "Bytt", da: "Byt" },
  "play.stand_help": { en: "Keep your piece (key S)", nb: "Behold brikken (tast S)",
                       da: "Behold brikken (tast S)" },
  "play.swap_with": { en: "Swap with {name} (key W)", nb: "Bytt med {name} (tast W)",
                      da: "Byt med {name} (tast W)" },
  "play.swap_stock": { en: "Swap with the stock (key W)", nb: "Bytt med bunken (tast W)",
                       da: "Byt med bunken (tast W)" },
  "play.your_turn": { en: "Your turn", nb: "Din tur", da: "Din tur" },
  "play.turn_of": { en: "{name}'s turn", nb: "{name} sin tur", da: "{name}s tur" },
  "status.watching": { en: "You are watching", nb: "Du ser på", da: "Du ser med" },
  "status.over": { en: "The match is over", nb: "Partiet er slutt", da: "Spillet er slut" },
  "status.out": { en: "You are out: watching the rest", nb: "Du er ute: du ser resten",
                  da: "Du er ude: du ser resten" },
  "status.showdown": { en: "Showdown", nb: "Alle viser", da: "Alle viser" },
  "status.sitting_out": { en: "You sit out this round", nb: "Du står over denne runden",
                          da: "Du står over i denne runde" },
  "status.moving": { en: "Play goes on…", nb: "Spillet går videre…", da: "Spillet går videre…" },
  "play.time_up": { en: "Time's up!", nb: "Tiden er ute!", da: "Tiden er gået!" },
  "play.stand_in": { en: "Stand-in", nb: "Vikar", da: "Vikar" },
  "play.your_piece": { en: "Your piece", nb: "Brikken din", da: "Din brik" },
  "play.you_out": { en: "You are out of the game", nb: "Du er ute av spillet",
                    da: "Du er ude af spillet" },
  "play.no_piece": { en: "No piece this round", nb: "Ingen brikke denne runden",
                     da: "Ingen brik i denne runde" },
  "play.seconds": { en: "{s} s left", nb: "{s} s igjen", da: "{s} s tilbage" },
  "play.stock": { en: "Stock", nb: "Bunken", da: "Bunken" },
  "play.aside": { en: "Set aside", nb: "Lagt til side", da: "Lagt til side" },
  "play.pool": { en: "Pool", nb: "Potten", da: "Puljen" },
  "play.round": { en: "Round {n}", nb: "Runde {n}", da: "Runde {n}" },
  "play.deals": { en: "{name} deals", nb: "{name} gir", da: "{name} giver" },
  "play.log": { en: "What happened", nb: "Hva som skjedde", da: "Hvad der skete" },
  "play.sent": { en: "Sent…", nb: "Sendt…", da: "Sendt…" },
  "play.knock": { en: "Knock!", nb: "Bank!", da: "Bank!" },
  "play.empty": { en: "Empty!", nb: "Tom!", da: "Tom!" },
  "play.back": { en: "All back!", nb: "Alt tilbake!", da: "Alt tilbage!" },
  "play.pays": { en: "−1", nb: "−1", da: "−1" },
  "play.gains": { en: "+1", nb: "+1", da: "+1" },
  "end.wins": { en: "{name} wins!", nb: "{name} vinner!", da: "{name} vinder!" },
  "end.you_win": { en: "You win!", nb: "Du vinner!", da: "Du vinder!" },
  "end.shared": { en: "A shared win: {names}", nb: "Delt seier: {names}", da: "Delt sejr: {names}" },
  "end.again": { en: "Play again", nb: "Spill igjen", da: "Spil igen" },
  "end.wait_again": { en: "The host may start another match.",
                      nb: "Verten kan starte et nytt parti.", da: "Værten kan starte et nyt spil." },
  "end.replay": { en: "Replay this match", nb: "Spill av partiet", da: "Afspil spillet" },
  "end.download": { en: "Download record", nb: "Last ned partiet", da: "Hent spillet" },
  "end.standings": { en: "Standings", nb: "Resultatliste", da: "Stilling" },
  "end.place": { en: "Place", nb: "Plass", da: "Plads" },
  "end.place_n": { en: "{n}.", nb: "{n}.", da: "{n}." },
  "end.player": { en: "Player", nb: "Spiller", da: "Spiller" },
  "end.lives": { en: "Lives", nb: "Liv", da: "Liv" },
  "end.survived": { en: "Rounds survived", nb: "Runder overlevd", da: "Runder overlevet" },
  "end.new": { en: "New table", nb: "Nytt bord", da: "Nyt bord" },
  "end.close": { en: "Look at the table", nb: "Se på bordet", da: "Se på bordet" },

  // -- hints ---------------------------------------------------------------------------
  "hint.title": { en: "Hint", nb: "Tips", da: "Tip" },
  "hint.ok": { en: "Got it", nb: "Skjønner", da: "Forstået" },
  "hint.off": { en: "No more hints", nb: "Ingen flere tips", da: "Ikke flere tips" },
  "hint.first_turn": {
    en: "Your turn. Stand (S) keeps your piece. Swap (W) trades it with {left}, unseen. When everyone has had a turn, all pieces are shown and the lowest pays a life.",
    nb: "Din tur. Stå (S) beholder brikken. Bytt (W) bytter den med {left}, uten at andre ser. Når alle har hatt tur, vises alle brikkene, og den laveste betaler et liv.",
    da: "Din tur. Stå (S) beholder brikken. Byt (W) bytter den med {left}, uden at andre ser. Når alle har haft tur, vises alle brikker, og den laveste betaler et liv." },
  "hint.fool_left": {
    en: "{left} knocked at the deal: they were dealt a fool and still hold it. If you swap now you will almost surely get the fool, and the fool pays at the showdown. Swap only if your own piece is hopeless.",
    nb: "{left} banket da det ble delt ut: de fikk en narr og har den fortsatt. Bytter du nå, får du nesten helt sikkert narren, og narren betaler når alle viser. Bytt bare hvis brikken din er håpløs.",
    da: "{left} bankede, da der blev givet: de fik en nar og har den stadig. Bytter du nu, får du næsten helt sikkert narren, og narren betaler, når alle viser. Byt kun, hvis din egen brik er håbløs." },
  "hint.matador": {
    en: "You hold the {piece}, a matador. Nobody can take it by asking: if someone asks to swap, it answers «{call}», and {does}. Standing is usually right.",
    nb: "Du har {piece}, en matador. Ingen kan ta den ved å spørre: vil noen bytte, svarer den «{call}», og {does}. Det lønner seg som regel å stå.",
    da: "Du har {piece}, en matador. Ingen kan tage den ved at spørge: vil nogen bytte, svarer den «{call}», og {does}. Det er som regel bedst at stå." },
  "hint.answered": {
    en: "The {piece} is a matador: it never has to swap. When asked it answers «{call}», and {does}. The top pieces of the deck are matadors; the rest must swap when asked.",
    nb: "{piece} er en matador: den må aldri bytte. Når noen spør, svarer den «{call}», og {does}. De øverste brikkene i settet er matadorer; resten må bytte når noen spør.",
    da: "{piece} er en matador: den skal aldrig byttes. Når nogen spørger, svarer den «{call}», og {does}. De øverste brikker i sættet er matadorer; resten skal byttes, når nogen spørger." },
  "hint.fool_mine": {
    en: "You hold the fool. At the showdown it pays a life{drag}. Try to swap it away; your neighbour must take it unless they hold a matador.",
    nb: "Du har narren. Når alle viser, betaler den et liv{drag}. Prøv å bytte den bort; naboen må ta den, med mindre de har en matador.",
    da: "Du har narren. Når alle viser, betaler den et liv{drag}. Prøv at bytte den væk; naboen skal tage den, medmindre de har en matador." },
  "hint.drag": { en: " and drags the next-lowest piece down with it",
                 nb: " og drar den nest laveste brikken med seg",
                 da: " og trækker den næstlaveste brik med sig" },
  "hint.dealer": {
    en: "You are the dealer and act last: Swap draws the top piece of the stock instead of asking a neighbour.",
    nb: "Du er giver og handler sist: Bytt trekker den øverste brikken i bunken i stedet for å spørre en nabo.",
    da: "Du er giver og handler sidst: Byt trækker den øverste brik i bunken i stedet for at spørge en nabo." },

  // -- rules panel ---------------------------------------------------------------------
  "rules.rank": { en: "Rank", nb: "Rang", da: "Rang" },
  "rules.name": { en: "Piece", nb: "Brikke", da: "Brik" },
  "rules.asked": { en: "When asked to swap", nb: "Når noen vil bytte", da: "Når nogen vil bytte" },
  "rules.call": { en: "Call", nb: "Rop", da: "Råb" },
  "rules.copies": { en: "{n} of each piece in the deck.", nb: "{n} av hver brikke i settet.",
                    da: "{n} af hver brik i sættet." },
  "rules.source": { en: "Source: {source}", nb: "Kilde: {source}", da: "Kilde: {source}" },
  "rules.keys": { en: "Keys: S stand, W swap, ? rules, Esc closes.",
                  nb: "Taster: S stå, W bytt, ? regler, Esc lukker.",
                  da: "Taster: S stå, W byt, ? regler, Esc lukker." },
  "rules.loading": { en: "Loading the rules…", nb: "Henter reglene…", da: "Henter reglerne…" },

  // -- replay --------------------------------------------------------------------------
  "replay.title": { en: "Replay viewer", nb: "Avspilling", da: "Afspilning" },
  "replay.intro": {
    en: "Step through a finished match with every piece face up. Open a record file: the JSON that “Download record” saves at the end of a match, or one that gnav play saved.",
    nb: "Gå gjennom et ferdig parti med alle brikkene synlige. Åpne en fil med et parti: JSON-filen «Last ned partiet» lagrer når et parti er over, eller en som gnav play lagret.",
    da: "Gå et færdigt spil igennem med alle brikker synlige. Åbn en fil med et spil: JSON-filen, som »Hent spillet« gemmer, når et spil er slut, eller en, som gnav play gemte." },
  "replay.file": { en: "Record file", nb: "Partifil", da: "Spilfil" },
  "replay.table": { en: "…or a table's id", nb: "…eller et bords id", da: "…eller et bords id" },
  "replay.load": { en: "Load", nb: "Hent", da: "Hent" },
  "replay.loading": { en: "Replaying the record…", nb: "Spiller av partiet…",
                      da: "Afspiller spillet…" },
  "replay.first": { en: "First step (Home)", nb: "Første steg (Home)", da: "Første trin (Home)" },
  "replay.prev": { en: "Back one step (←)", nb: "Ett steg tilbake (←)", da: "Et trin tilbage (←)" },
  "replay.next": { en: "Forward one step (→)", nb: "Ett steg fram (→)", da: "Et trin frem (→)" },
  "replay.last": { en: "Last step (End)", nb: "Siste steg (End)", da: "Sidste trin (End)" },
  "replay.prev_round": { en: "Previous round (PgUp)", nb: "Forrige runde (PgUp)",
                         da: "Forrige runde (PgUp)" },
  "replay.next_round": { en: "Next round (PgDn)", nb: "Neste runde (PgDn)",
                         da: "Næste runde (PgDn)" },
  "replay.play": { en: "Play (space)", nb: "Spill av (mellomrom)", da: "Afspil (mellemrum)" },
  "replay.pause": { en: "Pause (space)", nb: "Pause (mellomrom)", da: "Pause (mellemrum)" },
  "replay.where": { en: "Round {round} of {rounds}, step {step} of {steps}",
                    nb: "Runde {round} av {rounds}, steg {step} av {steps}",
                    da: "Runde {round} af {rounds}, trin {step} af {steps}" },
  "replay.deal": { en: "The deal", nb: "Utdelingen", da: "Uddelingen" },
  "replay.warning": { en: "The record's stated results disagree with the rules: {reason}",
                      nb: "Resultatene i partiet stemmer ikke med reglene: {reason}",
                      da: "Spillets resultater stemmer ikke med reglerne: {reason}" },
  "replay.another": { en: "Open another record", nb: "Åpne et annet parti", da: "Åbn et andet spil" },
};

let current = "en";
const listeners = new Set();
let catalogue = {};  // id -> language -> text: the engine's sentences
let narration = null;  // which sentences tell an event (gnav.texts.narration)
let loading = null;

// The engine's catalogue of sentences and its narration table (or ``data`` given, as the
// tests of the narration give it).
export async function loadTexts(data = null) {
  if (data) {
    ({ sentences: catalogue, narration } = data);
    return data;
  }
  if (!loading) {
    loading = fetch("/static/texts.json").then((r) => {
      if (!r.ok) throw new Error(`texts: HTTP ${r.status}`);
      return r.json();
    }).then((d) => loadTexts(d));
  }
  return loading;
}

export function narrationTable() { return narration; }

// The sentence ``key`` of the catalogue in ``code``, unfilled; English where it lacks
// ``code``; null where the catalogue lacks it.
export function sentence(key, code = current) {
  const entry = catalogue[key];
  return entry ? (entry[code] ?? entry.en) : null;
}

export function detectLang() {
  const saved = localStorage.getItem("gnav.lang");
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    let base = String(tag).toLowerCase().split("-")[0];
    if (base === "no" || base === "nn") base = "nb";  // a Norwegian reader gets bokmål
    if (LANGS.includes(base)) return base;
  }
  return LANGS[0];
}

export function lang() { return current; }

export function setLang(code, save = true) {
  if (!LANGS.includes(code)) return;
  current = code;
  if (save) localStorage.setItem("gnav.lang", code);
  document.documentElement.lang = code === "nb" ? "nb" : code;
  for (const f of listeners) f(code);
}

export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }

// ``text`` with each {name} filled from ``params`` (as gnav.texts.catalogue.fill does).
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function t(key, params = {}) {
  const entry = S[key];
  const text = entry ? (entry[current] ?? entry.en) : sentence(key) ?? key;
  return fill(text, params);
}

export function has(key) { return key in S || key in catalogue; }

// A list of names: "A, B and C" / "A, B og C".
export function list(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("word.and")} ${items[items.length - 1]}`;
}
