// The /odds page: choose a game, a table size, a piece and a seat; read the chance that
// the piece costs a life there (docs/odds.md's figures, from /api/odds). A size that
// ships no table is made on the server when chosen, with its progress shown.
// Its own strings in English, Norwegian and Danish: the page stands alone; every
// figure is written in the page's language (Intl.NumberFormat).

const S = {
  title: { en: "The odds", nb: "Oddsen", da: "Oddsene" },
  heading: { en: "How likely is your piece to cost you a life?",
             nb: "Hvor sannsynlig er det at brikken din koster deg et liv?",
             da: "Hvor sandsynligt er det, at din brik koster dig et liv?" },
  lang: { en: "Language", nb: "Språk", da: "Sprog" },
  preset: { en: "Game", nb: "Spill", da: "Spil" },
  size: { en: "Players", nb: "Spillere", da: "Spillere" },
  piece: { en: "Your piece", nb: "Brikken din", da: "Din brik" },
  seat: { en: "Your seat", nb: "Plassen din", da: "Din plads" },
  seatN: { en: "seat {n}", nb: "plass {n}", da: "plads {n}" },
  left: { en: "seat 1 (the dealer's left)", nb: "plass 1 (til venstre for given)",
          da: "plads 1 (til venstre for giveren)" },
  dealer: { en: "the dealer", nb: "given", da: "giveren" },
  answer: { en: "chance that {piece} at {seat} costs you a life this round, if you play as the expert",
            nb: "sjanse for at {piece} på {seat} koster deg et liv denne runden, om du spiller som eksperten",
            da: "chance for at {piece} på {seat} koster dig et liv i denne runde, hvis du spiller som eksperten" },
  stand: { en: "If you keep it whatever happens: {p}.", nb: "Om du beholder den uansett: {p}.",
           da: "Hvis du beholder den uanset hvad: {p}." },
  swap: { en: "If you swap whenever you may: {p}.", nb: "Om du bytter når du kan: {p}.",
          da: "Hvis du bytter, når du kan: {p}." },
  swaps: { en: "The expert swaps it {p} of the time here.",
           nb: "Eksperten bytter den {p} av gangene her.",
           da: "Eksperten bytter den {p} af gangene her." },
  threshold: { en: "At this seat the expert swaps up to {piece} when everyone before stood.",
               nb: "På denne plassen bytter eksperten til og med {piece} når alle før sto.",
               da: "På denne plads bytter eksperten til og med {piece}, når alle før stod." },
  never: { en: "At this seat the expert swaps nothing when everyone before stood.",
           nb: "På denne plassen bytter eksperten ingenting når alle før sto.",
           da: "På denne plads bytter eksperten intet, når alle før stod." },
  exact: { en: "Exact: the solved strategy on every deal and every draw.",
           nb: "Eksakt: den løste strategien over alle utdelinger og trekk.",
           da: "Eksakt: den løste strategi over alle uddelinger og træk." },
  simulated: { en: "Simulated: {rounds} rounds; the range in brackets holds the true value 95 times in 100.",
               nb: "Simulert: {rounds} runder; intervallet i parentes holder den sanne verdien 95 av 100 ganger.",
               da: "Simuleret: {rounds} runder; intervallet i parentes rummer den sande værdi 95 ud af 100 gange." },
  counter: { en: "No solved strategy exists at this size: the expert plays as the counter bot.",
             nb: "Ingen løst strategi finnes for denne størrelsen: eksperten spiller som counter-boten.",
             da: "Ingen løst strategi findes for denne størrelse: eksperten spiller som counter-botten." },
  grid: { en: "Chance of paying, every piece (rows) at every seat (columns). Tap a square.",
          nb: "Sjanse for å betale, hver brikke (rader) på hver plass (kolonner). Trykk på en rute.",
          da: "Chance for at betale, hver brik (rækker) på hver plads (kolonner). Tryk på et felt." },
  seats: { en: "Each seat over many rounds", nb: "Hver plass over mange runder",
           da: "Hver plads over mange runder" },
  colSeat: { en: "Seat", nb: "Plass", da: "Plads" },
  colLives: { en: "Lives a round", nb: "Liv per runde", da: "Liv pr. runde" },
  colPays: { en: "Chance of paying", nb: "Sjanse for å betale", da: "Chance for at betale" },
  failed: { en: "The odds could not be loaded.", nb: "Klarte ikke å hente oddsen.",
            da: "Kunne ikke hente oddsene." },
  // What "paying" counts: the same words as the coach's (i18n.js "pays.means") and
  // docs/odds.md's, which tests hold equal.
  paysMeans: { en: "Paying here means ending the round with fewer lives than you started it with: a life you gain in the same round makes up for one you paid. So a fool that paid a matador's penalty and then gained a life because two fools were shown has not paid.",
               nb: "Å betale betyr her å ende runden med færre liv enn du startet den med: et liv du får i samme runde, veier opp for et du betalte. En narr som betalte straff til en matador og så fikk et liv fordi to narrer ble vist, har altså ikke betalt.",
               da: "At betale betyder her at slutte runden med færre liv, end du startede den med: et liv, du får i samme runde, opvejer et, du betalte. En nar, der betalte straf til en matador og så fik et liv, fordi to narre blev vist, har altså ikke betalt." },
  // The colour key of the grid.
  key: { en: "Colour: chance of paying", nb: "Farge: sjanse for å betale", da: "Farve: chance for at betale" },
  // Sizes made on demand (no table ships for them).
  sizesReady: { en: "Ready", nb: "Klare", da: "Klar" },
  sizesToMake: { en: "Made on the server when chosen (seconds)", nb: "Lages på serveren når du velger dem (sekunder)",
                 da: "Laves på serveren, når du vælger dem (sekunder)" },
  making: { en: "Making the table for {n} players on the server: {p} done.",
            nb: "Lager tabellen for {n} spillere på serveren: {p} ferdig.",
            da: "Laver tabellen for {n} spillere på serveren: {p} færdig." },
  starting: { en: "Making the table for {n} players on the server: starting…",
              nb: "Lager tabellen for {n} spillere på serveren: starter…",
              da: "Laver tabellen for {n} spillere på serveren: starter…" },
  busy: { en: "The server is making another table just now; this one follows in a moment.",
          nb: "Serveren lager en annen tabell akkurat nå; denne kommer straks etter.",
          da: "Serveren laver en anden tabel lige nu; denne følger om et øjeblik." },
  tooMany: { en: "Too many tables asked for from here in a minute: this one starts in {s} s.",
             nb: "For mange tabeller bestilt herfra på ett minutt: denne starter om {s} s.",
             da: "For mange tabeller bestilt herfra på et minut: denne starter om {s} s." },
  noNumpy: { en: "No table ships for {n} players, and this server cannot make one: it needs numpy and numba (pip install 'gnav[analysis]').",
             nb: "Det følger ingen tabell for {n} spillere, og denne serveren kan ikke lage en: den trenger numpy og numba (pip install 'gnav[analysis]').",
             da: "Der følger ingen tabel for {n} spillere, og denne server kan ikke lave en: den kræver numpy og numba (pip install 'gnav[analysis]')." },
  cannot: { en: "No table ships for {n} players, and it could not be made here.",
            nb: "Det følger ingen tabell for {n} spillere, og den kunne ikke lages her.",
            da: "Der følger ingen tabel for {n} spillere, og den kunne ikke laves her." },
};

let lang = "en";
// The page's languages are the server's (presets.json): this page keeps no list of them.
let LANGS = ["en"];
const word = (key, params = {}) => (S[key][lang] || S[key].en).replace(/\{(\w+)\}/g,
  (_, k) => String(params[k] ?? ""));

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

// Numbers in the page's language: "27 %" and "−0,27" in Norwegian, "27%" and "-0.27" in
// English. The formatters are made again when the language changes.
let fmt = null;
function formats() {
  if (fmt && fmt.lang === lang) return fmt;
  fmt = { lang,
          pct: new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }),
          num: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }),
          lives: new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2,
                                               signDisplay: "exceptZero" }) };
  return fmt;
}
const percent = (x) => formats().pct.format(Math.round(100 * x) / 100);
const pct = (f) => {
  if (f === null || f === undefined) return "–";
  if (typeof f === "number") return percent(f);
  if (f.value !== f.value || f.value === null) return "–";
  return `${percent(f.value)} (${formats().num.format(Math.round(100 * f.low))}–${percent(f.high)})`;
};
const value = (f) => (typeof f === "number" ? f : f && f.value);

const state = { index: null, data: null, preset: "gnav", seats: 0, piece: null, seat: 1,
                making: null, note: null };

function readAddress() {
  const q = new URLSearchParams(location.search);
  const stored = localStorage.getItem("gnav.odds.lang");
  const browser = (navigator.language || "en").slice(0, 2).replace("no", "nb");
  lang = [q.get("lang"), stored, browser].find((x) => LANGS.includes(x)) || "en";
  state.preset = q.get("preset") || "gnav";
  state.seats = Number(q.get("seats")) || 0;
  state.piece = q.get("piece");
  state.seat = Number(q.get("seat")) || 1;
}

function writeAddress() {
  const q = new URLSearchParams({ preset: state.preset, seats: state.seats, piece: state.piece || "",
                                  seat: state.seat, lang });
  history.replaceState(null, "", `/odds?${q}`);
}

const seatName = (pos, n) => (pos === n ? word("dealer") : pos === 1 ? word("left") : word("seatN", { n: pos }));
const shortSeat = (pos, n) => (pos === n ? word("dealer") : String(pos));

// A JSON answer with its status; an error's code and Retry-After kept for the sentence.
async function ask(method, url) {
  const r = await fetch(url, { method });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { status: r.status, body, code: body && body.error ? body.error.code : null,
           retry: Number(r.headers.get("Retry-After")) || 0 };
}

const game = () => state.index.presets.find((p) => p.preset === state.preset) || state.index.presets[0];
const title = (p) => (p.titles && (p.titles[lang] || p.titles.en)) || p.preset;
const ready = (p, n) => p.sizes.includes(n) || (p.made || []).includes(n);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The chosen table: served at once where it ships or was made, else made on the server
// (POST), its progress shown until it is there (GET answers 202 while it is made).
async function load() {
  const p = game();
  state.preset = p.preset;
  if (!p.all.includes(state.seats)) state.seats = p.all.includes(4) ? 4 : p.sizes[0] || p.all[0];
  const url = `/api/odds?preset=${encodeURIComponent(state.preset)}&seats=${state.seats}`;
  const wanted = `${state.preset}/${state.seats}`;
  state.data = null;
  state.making = null;
  state.note = null;
  // A size the index says is not here yet is asked for at once (a GET would only be
  // answered 404, an error in the console of a page working as it should).
  let r = ready(p, state.seats) ? await ask("GET", url) : { status: 404, code: "no_odds" };
  let tries = 0;
  while (`${state.preset}/${state.seats}` === wanted) {
    if (r.status === 200) break;
    if (r.status === 202) {
      state.making = r.body.making;
      drawMaking();
      await sleep(500);
      r = await ask("GET", url);
      continue;
    }
    // Not made yet: ask for it, once; a busy server or a spent budget is asked again.
    if (r.code === "no_odds" && tries === 0 || r.code === "busy" || r.code === "rate_limited") {
      if (r.code === "busy") state.note = word("busy");
      if (r.code === "rate_limited") state.note = word("tooMany", { s: r.retry || 10 });
      if (r.code === "busy" || r.code === "rate_limited") {
        drawMaking();
        await sleep(1000 * Math.max(2, r.retry || 3));
      }
      tries += 1;
      if (tries > 30) throw new Error("odds: gave up");
      r = await ask("POST", url);
      continue;
    }
    state.note = p.make === "numpy" ? word("noNumpy", { n: state.seats }) : word("cannot", { n: state.seats });
    return false;
  }
  if (`${state.preset}/${state.seats}` !== wanted) return false;  // the reader chose again
  if (!(p.made || []).includes(state.seats) && !p.sizes.includes(state.seats)) (p.made = p.made || []).push(state.seats);
  state.data = r.body;
  state.making = null;
  state.note = null;
  const pieces = state.data.atlas.pieces;
  if (!pieces.includes(state.piece)) state.piece = pieces[Math.floor(pieces.length / 2)];
  state.seat = Math.min(Math.max(1, state.seat), state.seats);
  return true;
}

// ``options``: [value, text] pairs, or groups of them ({ group: label, options }).
function select(id, label, options, chosen, onChange, cls = "") {
  const s = el("select", { id });
  const add = (into, [v, text]) => {
    const o = el("option", { value: String(v), text });
    if (String(v) === String(chosen)) o.selected = true;
    into.append(o);
  };
  for (const x of options) {
    if (Array.isArray(x)) { add(s, x); continue; }
    const g = el("optgroup", { label: x.group });
    for (const y of x.options) add(g, y);
    s.append(g);
  }
  s.addEventListener("change", () => onChange(s.value));
  return el("label", { for: id, class: cls }, el("span", { text: label }), s);
}

function colour(p) {
  // From pale sand (0) to deep red (1).
  const a = Math.max(0, Math.min(1, p));
  const r = Math.round(250 - 90 * a), g = Math.round(235 - 200 * a), b = Math.round(200 - 170 * a);
  return `rgb(${r}, ${g}, ${b})`;
}

function chrome() {
  document.documentElement.lang = lang;
  document.title = `Gnav: ${word("title")}`;
  document.getElementById("odds-title").textContent = word("title");
  document.getElementById("odds-lang-label").textContent = word("lang");
  document.getElementById("odds-lang").value = lang;
}

// The game and the size: shown while a table is made too.
function tableControls() {
  const presets = state.index.presets.map((p) => [p.preset, title(p)]);
  const p = game();
  // The sizes to be made apart from those ready, so that a chosen size reads "7" alone.
  const sizes = [{ group: word("sizesReady"), options: p.all.filter((n) => ready(p, n)).map((n) => [n, String(n)]) },
                 { group: word("sizesToMake"), options: p.all.filter((n) => !ready(p, n)).map((n) => [n, String(n)]) }]
    .filter((g) => g.options.length);
  return [
    select("odds-preset", word("preset"), presets, state.preset, (v) => { state.preset = v; refresh(); }),
    select("odds-size", word("size"), sizes, state.seats, (v) => { state.seats = Number(v); refresh(); }),
  ];
}

function drawMaking() {
  chrome();
  const main = document.getElementById("main");
  const box = el("section", { class: "odds-making", id: "odds-making", "aria-live": "polite" });
  const m = state.making;
  if (m) {
    const started = m.done > 0;
    const bar = el("progress", { id: "odds-progress", max: String(m.total) });
    if (started) bar.setAttribute("value", String(m.done));  // else: not started, no value
    box.append(el("p", { text: started ? word("making", { n: state.seats, p: percent(m.done / m.total) })
                                       : word("starting", { n: state.seats }) }), bar);
  }
  if (state.note) box.append(el("p", { class: "odds-note", id: "odds-note", text: state.note }));
  main.replaceChildren(el("h2", { text: word("heading") }),
                       el("div", { class: "odds-controls" }, ...tableControls()), box);
}

function draw() {
  chrome();
  if (!state.data) { drawMaking(); return; }
  const main = document.getElementById("main");
  main.replaceChildren();
  const { atlas, names } = state.data;
  const n = atlas.seats;
  const name = (pid) => (names[pid] && (names[pid][lang] || names[pid].en)) || pid;
  const cells = new Map(atlas.cells.map((c) => [`${c.piece}/${c.position}`, c]));
  const pieces = [...atlas.pieces].reverse().map((p) => [p, name(p)]);
  const seats = Array.from({ length: n }, (_, i) => [i + 1, seatName(i + 1, n)]);
  const controls = el("div", { class: "odds-controls" }, ...tableControls(),
    select("odds-piece", word("piece"), pieces, state.piece, (v) => { state.piece = v; writeAddress(); draw(); }),
    select("odds-seat", word("seat"), seats, state.seat, (v) => { state.seat = Number(v); writeAddress(); draw(); }, "wide"));
  main.append(el("h2", { text: word("heading") }), controls);

  const cell = cells.get(`${state.piece}/${state.seat - 1}`);
  const answer = el("section", { class: "odds-answer", "aria-live": "polite", id: "odds-answer" });
  if (cell) {
    answer.append(
      el("p", {}, el("span", { class: "big", text: pct(cell.pay) }), " ",
         el("span", { text: word("answer", { piece: name(state.piece), seat: seatName(state.seat, n) }) })),
      el("p", { text: word("stand", { p: pct(cell.stand) }) }),
      el("p", { text: word("swap", { p: pct(cell.swap) }) }),
      el("p", { class: "odds-advice", text: word("swaps", { p: pct(cell.swaps) }) }));
  }
  const limit = atlas.thresholds.plain[state.seat - 1];
  answer.append(el("p", { text: limit ? word("threshold", { piece: name(limit) }) : word("never") }));
  main.append(answer);
  main.append(el("p", { class: "odds-means", id: "odds-means", text: word("paysMeans") }));
  main.append(el("p", { class: "odds-source", text: atlas.source === "exact" ? word("exact")
    : word("simulated", { rounds: formats().num.format(atlas.rounds) }) + (atlas.note.includes("counter") ? " " + word("counter") : "") }));

  const table = el("table", { class: "odds-grid" });
  const head = el("tr", {}, el("th", { class: "row", text: word("piece") }));
  for (let i = 1; i <= n; i++) head.append(el("th", { scope: "col", text: shortSeat(i, n) }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const [pid, label] of pieces) {
    const row = el("tr", {}, el("th", { class: "row", scope: "row", text: label }));
    for (let i = 0; i < n; i++) {
      const c = cells.get(`${pid}/${i}`);
      const p = c ? value(c.pay) : null;
      const td = el("td", { tabindex: "0", "aria-label": `${label}, ${seatName(i + 1, n)}: ${c ? pct(c.pay) : "–"}`,
                            text: p === null || p !== p ? "–" : formats().num.format(Math.round(100 * p)) });
      if (p !== null && p === p) td.style.setProperty("background", colour(p));
      if (p > 0.55) td.classList.add("dark");
      if (pid === state.piece && i + 1 === state.seat) td.classList.add("chosen");
      const choose = () => { state.piece = pid; state.seat = i + 1; writeAddress(); draw(); };
      td.addEventListener("click", choose);
      td.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } });
      row.append(td);
    }
    body.append(row);
  }
  table.append(body);
  main.append(el("p", { class: "odds-legend", text: word("grid") }), colourKey(),
              el("div", { class: "odds-grid-wrap" }, table));

  const seatsTable = el("table");
  seatsTable.append(el("tr", {}, el("th", { text: word("colSeat") }), el("th", { text: word("colLives") }),
                       el("th", { text: word("colPays") })));
  for (let i = 0; i < n; i++) {
    const v = atlas.values[i];
    seatsTable.append(el("tr", {}, el("td", { text: seatName(i + 1, n) }),
      el("td", { class: "odds-lives", text: formats().lives.format(value(v)) }), el("td", { text: pct(atlas.pay[i]) })));
  }
  main.append(el("section", { class: "odds-seats" }, el("h3", { text: word("seats") }), seatsTable));
}

// The grid's colours with their meaning: 0 to 100 % in the grid's own colours.
function colourKey() {
  const stops = [0, 0.25, 0.5, 0.75, 1];
  const bar = el("span", { class: "odds-key-bar", "aria-hidden": "true" });
  bar.style.setProperty("background", `linear-gradient(to right, ${stops.map(colour).join(", ")})`);
  const marks = el("span", { class: "odds-key-marks" }, ...stops.map((x) => el("span", { text: percent(x) })));
  return el("figure", { class: "odds-key", id: "odds-key" },
    el("figcaption", { text: word("key") }), el("span", { class: "odds-key-scale" }, bar, marks));
}

let asked = 0;  // the latest load: an older one that ends late draws nothing

async function refresh() {
  const mine = ++asked;
  try {
    writeAddress();
    const got = await load();
    if (mine !== asked) return;
    writeAddress();
    if (got || state.note) draw();
  } catch (e) {
    if (mine === asked) document.getElementById("main").replaceChildren(el("p", { class: "error", text: word("failed") }));
  }
}

async function start() {
  try {
    const r = await fetch("/static/presets.json");
    const meta = await r.json();
    LANGS = Object.keys(meta.page_languages);
    const chooser = document.getElementById("odds-lang");
    chooser.replaceChildren(...LANGS.map((code) => el("option", { value: code, text: meta.page_languages[code] })));
  } catch (e) {
    // English only: the page still works.
  }
  readAddress();
  document.getElementById("odds-lang").addEventListener("change", (e) => {
    lang = e.target.value;
    localStorage.setItem("gnav.odds.lang", lang);
    writeAddress();
    if (state.index) draw();
  });
  const index = await ask("GET", "/api/odds");
  if (index.status !== 200) {
    document.getElementById("main").replaceChildren(el("p", { class: "error", text: word("failed") }));
    return;
  }
  state.index = index.body;
  await refresh();
}

start();
