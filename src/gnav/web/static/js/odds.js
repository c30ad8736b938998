// The /odds page: choose a preset, a table size, a piece and a seat; read the chance
// that the piece costs a life there (docs/odds.md's figures, from /api/odds).
// Its own strings in English, Norwegian and Danish: the page stands alone.

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
  colPays: { en: "Pays", nb: "Betaler", da: "Betaler" },
  failed: { en: "The odds could not be loaded.", nb: "Klarte ikke å hente oddsen.",
            da: "Kunne ikke hente oddsene." },
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

const pct = (f) => {
  if (f === null || f === undefined) return "–";
  if (typeof f === "number") return `${Math.round(100 * f)}%`;
  if (f.value !== f.value || f.value === null) return "–";
  return `${Math.round(100 * f.value)}% (${Math.round(100 * f.low)}–${Math.round(100 * f.high)})`;
};
const value = (f) => (typeof f === "number" ? f : f && f.value);

const state = { index: null, data: null, preset: "gnav", seats: 0, piece: null, seat: 1 };

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

async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function load() {
  const sizes = (state.index.presets.find((p) => p.preset === state.preset) || state.index.presets[0]);
  state.preset = sizes.preset;
  if (!sizes.sizes.includes(state.seats)) state.seats = sizes.sizes.includes(4) ? 4 : sizes.sizes[0];
  state.data = await getJSON(`/api/odds?preset=${encodeURIComponent(state.preset)}&seats=${state.seats}`);
  const pieces = state.data.atlas.pieces;
  if (!pieces.includes(state.piece)) state.piece = pieces[Math.floor(pieces.length / 2)];
  state.seat = Math.min(Math.max(1, state.seat), state.seats);
}

function select(id, label, options, chosen, onChange) {
  const s = el("select", { id });
  for (const [v, text] of options) {
    const o = el("option", { value: String(v), text });
    if (String(v) === String(chosen)) o.selected = true;
    s.append(o);
  }
  s.addEventListener("change", () => onChange(s.value));
  return el("label", { for: id }, el("span", { text: label }), s);
}

function colour(p) {
  // From pale sand (0) to deep red (1).
  const a = Math.max(0, Math.min(1, p));
  const r = Math.round(250 - 90 * a), g = Math.round(235 - 200 * a), b = Math.round(200 - 170 * a);
  return `rgb(${r}, ${g}, ${b})`;
}

function draw() {
  document.documentElement.lang = lang;
  document.title = `Gnav: ${word("title")}`;
  document.getElementById("odds-title").textContent = word("title");
  document.getElementById("odds-lang-label").textContent = word("lang");
  document.getElementById("odds-lang").value = lang;
  const main = document.getElementById("main");
  main.replaceChildren();
  const { atlas, names } = state.data;
  const n = atlas.seats;
  const name = (pid) => (names[pid] && (names[pid][lang] || names[pid].en)) || pid;
  const cells = new Map(atlas.cells.map((c) => [`${c.piece}/${c.position}`, c]));
  const presets = state.index.presets.map((p) => [p.preset, p.preset]);
  const sizes = state.index.presets.find((p) => p.preset === state.preset).sizes.map((s) => [s, s]);
  const pieces = [...atlas.pieces].reverse().map((p) => [p, name(p)]);
  const seats = Array.from({ length: n }, (_, i) => [i + 1, seatName(i + 1, n)]);
  const controls = el("div", { class: "odds-controls" },
    select("odds-preset", word("preset"), presets, state.preset, (v) => { state.preset = v; refresh(); }),
    select("odds-size", word("size"), sizes, state.seats, (v) => { state.seats = Number(v); refresh(); }),
    select("odds-piece", word("piece"), pieces, state.piece, (v) => { state.piece = v; writeAddress(); draw(); }),
    select("odds-seat", word("seat"), seats, state.seat, (v) => { state.seat = Number(v); writeAddress(); draw(); }));
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
  main.append(el("p", { class: "odds-source", text: atlas.source === "exact" ? word("exact")
    : word("simulated", { rounds: atlas.rounds.toLocaleString(lang) }) + (atlas.note.includes("counter") ? " " + word("counter") : "") }));

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
                            text: p === null || p !== p ? "–" : String(Math.round(100 * p)) });
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
  main.append(el("p", { class: "odds-legend", text: word("grid") }), el("div", { class: "odds-grid-wrap" }, table));

  const seatsTable = el("table");
  seatsTable.append(el("tr", {}, el("th", { text: word("colSeat") }), el("th", { text: word("colLives") }),
                       el("th", { text: word("colPays") })));
  for (let i = 0; i < n; i++) {
    const v = atlas.values[i];
    seatsTable.append(el("tr", {}, el("td", { text: seatName(i + 1, n) }),
      el("td", { text: (value(v) >= 0 ? "+" : "") + value(v).toFixed(2) }), el("td", { text: pct(atlas.pay[i]) })));
  }
  main.append(el("section", { class: "odds-seats" }, el("h3", { text: word("seats") }), seatsTable));
}

async function refresh() {
  try {
    await load();
    writeAddress();
    draw();
  } catch (e) {
    document.getElementById("main").replaceChildren(el("p", { class: "error", text: word("failed") }));
  }
}

async function start() {
  try {
    const meta = await getJSON("/static/presets.json");
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
    if (state.data) draw();
  });
  try {
    state.index = await getJSON("/api/odds");
  } catch (e) {
    document.getElementById("main").replaceChildren(el("p", { class: "error", text: word("failed") }));
    return;
  }
  await refresh();
}

start();
