// The companion page (/companion): one phone lying on a real table keeps the game. The
// table taps what it sees; the bookkeeping (book.js) applies the rules; everything is
// kept in localStorage after every tap, so a reload or a flat battery loses nothing, and
// a service worker keeps the page working with no network once it has been opened.

import * as B from "./book.js";
import { speak, canSpeak } from "./speech.js";
import { cardsOf, cardText, cardMarkup, fitProblem, isRed } from "./cards52.js";

const KEY = "gnav.companion";
const UNDO_DEPTH = 100;
const LANGS = ["en", "nb", "da"];

let presets = [];
let meta = {};
let texts = {};
let store = load();

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && s.v === 1) return s;
  } catch { /* a store that does not parse starts afresh */ }
  return { v: 1, setup: null, match: null, undo: [], draft: null, speech: false,
           lang: guessLang() };
}

// Saved after every tap. Each undo step is a whole match, and a long match's history
// grows: when the browser's storage is full, the oldest undo steps go first, so the
// match itself is always kept.
function save() {
  for (;;) {
    try {
      localStorage.setItem(KEY, JSON.stringify(store));
      return;
    } catch (e) {
      if (!store.undo.length) throw e;
      store.undo.splice(0, Math.max(1, Math.ceil(store.undo.length / 2)));
    }
  }
}

function guessLang() {
  const l = (navigator.language || "en").slice(0, 2);
  return l === "nb" || l === "no" || l === "nn" ? "nb" : l === "da" ? "da" : "en";
}

// -- words ----------------------------------------------------------------------------

function t(id, params = {}) {
  const entry = texts[id];
  const text = entry ? entry[store.lang] || entry.en : id;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const presetOf = (name) => presets.find((p) => p.name === name);

function pieceName(preset, id) {
  const p = preset.pieces.find((x) => x.id === id);
  return (p && (p.names[store.lang] || p.names[preset.lang] || p.names.en)) || id;
}

function call(preset, id) {
  const p = preset.pieces.find((x) => x.id === id);
  const said = p.calls[store.lang] || p.calls[preset.lang] || p.calls.en;
  return said || `${pieceName(preset, id)}!`;
}

// -- a few DOM helpers ----------------------------------------------------------------

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "on") for (const [ev, f] of Object.entries(v)) el.addEventListener(ev, f);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) el.append(kid);
  return el;
}

const btn = (text, onclick, cls = "", attrs = {}) =>
  h("button", { type: "button", class: `btn ${cls}`.trim(), on: { click: onclick }, text, ...attrs });

// -- the match, tap by tap ------------------------------------------------------------

// Every change goes through here: the old state kept for "undo the last tap", the new
// one saved before anything is shown, and what changed said aloud when speech is on.
function change(f) {
  const before = store.match;
  let after;
  try {
    after = f(before);
  } catch (e) {
    if (e instanceof B.TableError) {
      store.error = e.problems ? e.problems : [{ text: e.message }];
      render();
      return;
    }
    throw e;
  }
  store.undo.push(before);
  if (store.undo.length > UNDO_DEPTH) store.undo.shift();
  store.match = after;
  store.error = null;
  save();
  render();
  if (store.speech) speak(spoken(before, after), store.lang);
}

function undoTap() {
  if (!store.undo.length) return;
  store.match = store.undo.pop();
  store.error = null;
  if (store.match && store.match.round && store.match.round.phase !== "showdown") store.draft = null;
  save();
  render();
}

// -- what is said ---------------------------------------------------------------------

function stepLines(m, steps) {
  const preset = presetOf(m.rules.preset);
  const r = m.round;
  const nm = (p) => m.names[r.seats[p]];
  const out = [];
  let fool = false;  // a "lowest" payment after the fool's is the drag's
  for (const s of steps) {
    if (s.k === "pay" && s.reason === "fool") fool = true;
    if (s.k === "pay" && s.reason === "lowest" && fool && m.rules.kernel.drag) {
      out.push(t(s.paid ? "companion.pays" : "companion.pays_nothing",
                 { seat: m.names[s.seat], why: t("companion.why.drag") }));
      continue;
    }
    if (s.k === "stand") out.push(t("companion.stood", { seat: nm(s.p) }));
    else if (s.k === "swap") out.push(t("companion.swapped", { seat: nm(s.a), target: nm(s.b) }));
    else if (s.k === "draw") out.push(t("companion.drew", { seat: nm(s.a) }));
    else if (s.k === "empty") out.push(t("companion.was_empty"));
    else if (s.k === "answer") {
      const said = call(preset, s.piece);
      out.push(s.b === null ? t("companion.stock_answered", { seat: nm(s.a), call: said })
        : t("companion.answered", { seat: nm(s.a), target: nm(s.b), call: said }));
    } else if (s.k === "undo") out.push(t("companion.undo_said"));
    else if (s.k === "pay") out.push(payLine(m, s));
    else if (s.k === "gain") out.push(gainLine(m, s));
    else if (s.k === "tie") out.push(t("companion.tie", { seat: m.names[s.seat] }));
  }
  return out;
}

function whyOf(m, reason) {
  const preset = presetOf(m.rules.preset);
  if (reason === "lowest" || reason === "fool" || reason === "two_fools") {
    return t(`companion.why.${reason}`);
  }
  return t("companion.why.matador", { piece: pieceName(preset, reason) });
}

function payLine(m, s) {
  const why = whyOf(m, s.reason);
  return t(s.paid ? "companion.pays" : "companion.pays_nothing", { seat: m.names[s.seat], why });
}

function gainLine(m, s) {
  const preset = presetOf(m.rules.preset);
  const why = s.reason === "two_fools" ? t("companion.why.two_fools")
    : t("companion.why.penalty", { piece: pieceName(preset, s.piece || "") });
  return t("companion.gains", { seat: m.names[s.seat], why });
}

function promptLine(m) {
  const w = B.waiting(m);
  if (!w) return null;
  if (w.kind === "turn") return t("companion.turn", { seat: m.names[w.seat] });
  return null;
}

// What is said aloud after a tap: the new events, then whose turn it is.
function spoken(before, after) {
  if (!after) return [];
  const lines = [];
  const r = after.round;
  if (r && before && before.round && before.round.number === r.number) {
    lines.push(...stepLines(after, r.steps.slice(before.round.steps.length)));
  }
  if (r && r.phase === "showdown" && r.endedBy !== "turns") lines.push(t("companion.stop_said"));
  const next = promptLine(after);
  if (next) lines.push(next);
  if (after.winners) lines.push(winnersLine(after));
  return lines;
}

function winnersLine(m) {
  const names = m.winners.map((s) => m.names[s]).join(" & ");
  return t(m.winners.length > 1 ? "companion.share" : "companion.wins", { seat: names });
}

// -- lives as the preset counts them --------------------------------------------------

function livesEl(score, lives, start) {
  const lost = Math.max(0, start - lives);
  const el = h("span", { class: `lives lives-${score}`, "aria-label": String(lives), title: String(lives) });
  if (score === "gnav") {
    el.append(h("b", { class: "gnav-word", text: "GNAV".repeat(3).slice(0, lost) }),
              h("span", { class: "dots", text: "·".repeat(Math.max(0, lives)) }));
  } else if (score === "strokes") {
    el.append(h("span", { class: "strokes", text: "|".repeat(Math.max(0, lives)) }));
  } else {
    el.append(h("span", { class: "tokens", text: "●".repeat(Math.max(0, lives)) }),
              h("span", { class: "tokens lost", text: "○".repeat(lost) }));
  }
  el.append(h("span", { class: "n", text: String(lives) }));
  return el;
}

// -- the setup ------------------------------------------------------------------------

function defaultSetup() {
  return { preset: "gnav", lives: 4, pack: "pieces", names: ["", "", "", ""], dealer: 0 };
}

function renderSetup(app) {
  const s = store.setup || (store.setup = defaultSetup());
  const preset = presetOf(s.preset) || presets[0];
  const copies = (s.options && s.options.copies) || preset.options.copies;
  const problem = fitProblem(preset, copies);
  if (problem && s.pack === "cards52") s.pack = "pieces";
  const field = (label, control, id) => h("div", { class: "field" },
    h("label", { for: id, text: label }), control);
  const langSel = h("select", { id: "c-lang", on: { change: (e) => { store.lang = e.target.value; save(); render(); } } },
    LANGS.map((l) => h("option", { value: l, selected: l === store.lang, text: texts[`lang.${l}`] ? texts[`lang.${l}`][l] : l })));
  const presetSel = h("select", { id: "c-preset", on: { change: (e) => {
    s.preset = e.target.value; s.lives = presetOf(s.preset).options.lives; s.options = {};
    save(); render(); } } },
  presets.map((p) => h("option", { value: p.name, selected: p.name === preset.name,
                                    text: (p.titles && p.titles[store.lang]) || p.title })));
  const lives = h("input", { id: "c-lives", type: "number", min: 1, max: 10, value: s.lives, inputmode: "numeric",
                             on: { change: (e) => { s.lives = Math.max(1, Math.min(10, Number(e.target.value) || 1)); save(); } } });
  const packs = h("div", { class: "choices", role: "radiogroup", id: "c-pack" },
    ["pieces", "cards", "cards52"].map((k) => {
      const off = k === "cards52" && problem;
      return h("label", { class: `choice${off ? " off" : ""}` },
        h("input", { type: "radio", name: "pack", value: k, checked: s.pack === k, disabled: Boolean(off),
                     on: { change: () => { s.pack = k; save(); render(); } } }),
        h("span", { text: t(`companion.pack.${k}`) }));
    }));
  const packNote = problem ? h("p", { class: "note", text: t("companion.pack.nofit", { why: problem }) })
    : s.pack === "cards52" ? h("p", { class: "note" }, t("companion.pack.leave_out", {
      cards: preset.cards52[String(copies)].left_out.map(cardText).join(" ") }), " ",
    h("a", { href: `/card/${preset.name}?lang=${store.lang}`, target: "_blank", id: "c-card",
             text: t("companion.print_card") })) : null;
  const rows = s.names.map((name, i) => h("div", { class: "seat-row" },
    h("input", { type: "text", value: name, maxlength: 24, autocomplete: "off", class: "seat-name",
                 placeholder: t("companion.seat_name", { n: i + 1 }), "aria-label": t("companion.seat_name", { n: i + 1 }),
                 on: { input: (e) => { s.names[i] = e.target.value; save(); refreshDealer(); } } }),
    btn("×", () => { s.names.splice(i, 1); if (s.dealer >= s.names.length) s.dealer = 0; save(); render(); },
        "ghost small", { "aria-label": t("companion.remove_seat", { seat: name || i + 1 }), disabled: s.names.length <= 2 })));
  const dealerSel = h("select", { id: "c-dealer", on: { change: (e) => { s.dealer = Number(e.target.value); save(); } } });
  function refreshDealer() {
    dealerSel.replaceChildren(...s.names.map((n, i) => h("option", { value: i, selected: i === s.dealer,
      text: n.trim() || t("companion.seat_name", { n: i + 1 }) })));
  }
  refreshDealer();
  const speech = h("label", { class: "toggle" },
    h("input", { type: "checkbox", id: "c-speech", checked: store.speech, disabled: !canSpeak(),
                 on: { change: (e) => { store.speech = e.target.checked; save(); } } }),
    h("span", { text: t("companion.speech") }));
  const error = h("p", { class: "error", role: "alert", id: "c-error" });
  const start = () => {
    const names = s.names.map((n, i) => n.trim() || t("companion.seat_name", { n: i + 1 }));
    if (new Set(names).size !== names.length) { error.textContent = t("companion.bad_names"); return; }
    const rules = B.rulesOf(preset, { ...(s.options || {}), lives: s.lives, pack: s.pack });
    const [lo, hi] = B.seatLimits(rules);
    if (names.length < lo || names.length > hi) {
      error.textContent = t("companion.bad_seats", { game: preset.title, lo, hi });
      return;
    }
    store.undo = [];
    store.draft = null;
    change(() => B.newMatch(rules, names, Math.min(s.dealer, names.length - 1)));
  };
  app.replaceChildren(
    h("header", { class: "bar" }, h("h1", { text: t("companion.title") }), langSel),
    h("p", { class: "intro", text: t("companion.intro") }),
    h("form", { class: "setup", on: { submit: (e) => { e.preventDefault(); start(); } } },
      field(t("companion.preset"), presetSel, "c-preset"),
      field(t("companion.lives"), lives, "c-lives"),
      h("fieldset", {}, h("legend", { text: t("companion.pack") }), packs, packNote),
      h("fieldset", {}, h("legend", { text: t("companion.seats") }), h("div", { id: "c-seats" }, rows),
        btn(`+ ${t("companion.add_seat")}`, () => { s.names.push(""); save(); render(); }, "ghost", { id: "c-add" })),
      field(t("companion.first_dealer"), dealerSel, "c-dealer"),
      houseRules(s, preset),
      speech, error,
      h("button", { type: "submit", class: "btn primary big", id: "c-start", text: t("companion.start") })),
    h("p", { class: "foot", text: t("companion.offline") }));
}

// The preset's other options, for a table's house rules: each as the contract names it
// (docs/spec/rules.md §7), with the catalogue's sentence of what it does.
function houseRules(s, preset) {
  s.options = s.options || {};
  const skip = new Set(["lives", "pack"]);
  const now = (k) => (k in s.options ? s.options[k] : preset.options[k]);
  const set = (k, v) => {
    if (v === preset.options[k]) delete s.options[k];
    else s.options[k] = v;
    save();
  };
  const rows = meta.options.filter((k) => !skip.has(k)).map((k) => {
    const id = `c-opt-${k}`;
    const label = h("label", { for: id }, h("code", { text: k }), " ", h("small", { text: t(`option.${k}`) }));
    let control;
    if (meta.option_choices[k]) {
      control = h("select", { id, on: { change: (e) => set(k, e.target.value) } },
        meta.option_choices[k].map((v) => h("option", { value: v, selected: now(k) === v, text: v })));
    } else if (meta.option_bools.includes(k)) {
      control = h("input", { id, type: "checkbox", checked: Boolean(now(k)),
                             on: { change: (e) => set(k, e.target.checked) } });
    } else {
      const [lo, hi] = meta.option_ranges[k] || [meta.option_at_least[k] || 1, 1000];
      control = h("input", { id, type: "number", min: lo, max: hi, inputmode: "numeric",
                             value: now(k) ?? "", placeholder: "none",
                             on: { change: (e) => {
                               const n = e.target.value === "" ? null : Math.max(lo, Math.min(hi, Number(e.target.value)));
                               set(k, n);
                               if (k === "copies") render();
                             } } });
    }
    return h("div", { class: "field opt" }, label, control);
  });
  const open = Object.keys(s.options).length > 0;
  return h("details", { class: "house", id: "c-options", open },
    h("summary", { text: t("companion.house_rules") }), rows);
}

// -- the table ------------------------------------------------------------------------

function seatBadges(m, s) {
  const r = m.round;
  const out = [];
  const live = r && r.phase !== "over";
  if (m.winners && m.winners.includes(s)) out.push(["win", "♛"]);
  if (m.out.includes(s)) out.push(["out", t("companion.is_out")]);
  else if (m.sittingOut.includes(s)) out.push(["sit", t("companion.sitting_out")]);
  const dealer = live ? r.dealer : m.dealer;
  if (!live && (store.knocks || []).includes(s)) out.push(["knock", t("companion.knocked")]);
  if (!m.winners && dealer === s && !m.out.includes(s)) out.push(["dealer", t("companion.dealer")]);
  if (live) {
    const p = r.seats.indexOf(s);
    if (r.knocked.includes(s)) out.push(["knock", t("companion.knocked")]);
    for (const st of r.steps) {
      if (st.k === "answer" && st.b === p) out.push(["matador", pieceName(presetOf(m.rules.preset), st.piece)]);
    }
  }
  return out;
}

function seatList(m, opts = {}) {
  const preset = presetOf(m.rules.preset);
  const lives = B.livesNow(m);
  const w = B.waiting(m);
  const r = m.round;
  return h("ol", { class: "seats", id: "c-table" }, m.names.map((name, s) => {
    const classes = ["seat"];
    if (w && w.kind === "turn" && w.seat === s) classes.push("to-act");
    if (w && w.kind === "answer" && w.at === s) classes.push("asked");
    if (w && w.kind === "answer" && w.asker === s) classes.push("asker");
    if (m.out.includes(s)) classes.push("gone");
    if (opts.pick && opts.pick(s)) classes.push("pickable");
    const right = [];
    if (opts.show) {
      const id = opts.show(s);
      if (id !== undefined) right.push(pieceChip(m, id, true));
    }
    const row = h("li", { class: classes.join(" "), "data-seat": s },
      h("span", { class: "name", text: name }),
      h("span", { class: "badges" }, seatBadges(m, s).map(([k, txt]) => h("span", { class: `badge b-${k}`, text: txt }))),
      right,
      livesEl(preset.score, lives[s], m.start[s]));
    if (opts.pick && opts.pick(s)) {
      row.setAttribute("role", "button");
      row.tabIndex = 0;
      row.addEventListener("click", () => opts.onPick(s));
      row.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onPick(s); } });
    }
    if (r && r.phase !== "over" && !r.seats.includes(s)) row.classList.add("idle");
    return row;
  }));
}

// A piece as the table's pack shows it: its name, and its cards with an ordinary pack.
function pieceChip(m, id, small = false) {
  const preset = presetOf(m.rules.preset);
  const el = h("span", { class: `piece-chip${small ? " small" : ""}`, "data-piece": id || "" });
  if (!id) {
    el.textContent = "?";
    return el;
  }
  const p = preset.pieces.find((x) => x.id === id);
  el.classList.add(p.power ? "k-matador" : p.fool ? "k-fool" : "k-plain");
  if (m.rules.options.pack === "cards52") {
    const cards = cardsOf(preset, id, m.rules.options.copies);
    const span = h("span", { class: "cards" });
    for (const c of cards.slice(0, 2)) span.append(h("span", { class: isRed(c) ? "red" : "black", text: cardName(c) }));
    el.append(span);
  }
  el.append(h("span", { class: "pname", text: pieceName(preset, id) }));
  return el;
}

function header(m) {
  const preset = presetOf(m.rules.preset);
  const r = m.round;
  const n = r && r.phase !== "over" ? r.number : m.rounds + (m.winners ? 0 : 1);
  return h("header", { class: "bar" },
    h("h1", { text: `${t("companion.round", { n })} · ${(preset.titles && preset.titles[store.lang]) || preset.title}` }),
    h("div", { class: "tools" },
      btn("↶", undoTap, "ghost", { id: "c-undo", title: t("companion.undo_tap"), "aria-label": t("companion.undo_tap"), disabled: !store.undo.length }),
      btn(store.speech ? "♪ on" : "♪ off", () => { store.speech = !store.speech; save(); render(); }, "ghost",
          { id: "c-speak", "aria-pressed": String(store.speech), title: t("companion.speech"), "aria-label": t("companion.speech"), disabled: !canSpeak() }),
      btn("☰", () => { store.menu = !store.menu; render(); }, "ghost", { id: "c-menu", "aria-label": t("companion.menu"), "aria-expanded": String(Boolean(store.menu)) })));
}

function menu(m) {
  if (!store.menu) return null;
  const record = JSON.stringify(B.toRecord(m), null, 1);
  const download = h("a", { class: "btn", id: "c-download", download: `gnav-${new Date().toISOString().slice(0, 10)}.json`,
                            href: `data:application/json;charset=utf-8,${encodeURIComponent(record)}`, text: t("companion.record") });
  return h("nav", { class: "menu", id: "c-menu-list" },
    download,
    btn(t("companion.replay"), () => {
      localStorage.setItem("gnav.replay.record", record);
      location.href = "/replay?record=local";
    }, "", { id: "c-replay" }),
    m.rules.options.pack === "cards52" ? h("a", { class: "btn", href: `/card/${m.rules.preset}?lang=${store.lang}`,
                                                  target: "_blank", text: t("companion.print_card") }) : "",
    btn(t("companion.new"), () => {
      if (!confirm(t("companion.new_sure"))) return;
      store.match = null; store.undo = []; store.draft = null; store.menu = false; save(); render();
    }, "danger", { id: "c-new" }));
}

function logList(m) {
  const r = m.round;
  if (!r || r.phase === "over") return null;
  const lines = stepLines(m, r.steps);
  if (!lines.length) return null;
  return h("ol", { class: "log", id: "c-log", "aria-live": "polite" },
    lines.slice(-6).map((l) => h("li", { text: l })));
}

function errors() {
  if (!store.error) return null;
  const preset = store.match ? presetOf(store.match.rules.preset) : null;
  return h("div", { class: "error", role: "alert", id: "c-problems" },
    h("p", { text: t("companion.problems") }),
    h("ul", {}, store.error.map((p) => h("li", { text: p.text || t(p.id, {
      ...p, piece: preset && p.piece ? pieceName(preset, p.piece) : p.piece,
      said: preset && p.said ? pieceName(preset, p.said) : p.said }) }))));
}

function renderTable(app) {
  const m = store.match;
  const w = B.waiting(m);
  let prompt;
  let opts = {};
  if (m.winners) prompt = finished(m);
  else if (!m.round || m.round.phase === "over") ({ prompt, opts } = dealPrompt(m));
  else if (w.kind === "turn") prompt = turnPrompt(m, w);
  else if (w.kind === "answer") prompt = answerPrompt(m, w);
  else ({ prompt, opts } = showdownPrompt(m));
  app.replaceChildren(header(m), menu(m) || "", seatList(m, opts), logList(m) || "",
                      errors() || "", prompt);
  const sheet = pickerSheet(m);
  if (sheet) app.append(sheet);
}

function summary(m) {
  if (!m.last) return null;
  const lines = stepLines(m, m.round.steps.filter((s) => ["pay", "gain", "tie"].includes(s.k)));
  if (!lines.length) lines.push(t("companion.nobody_pays"));
  for (const s of m.last.gone) lines.push(t("companion.out", { seat: m.names[s] }));
  for (const s of m.last.sitOut) lines.push(t("companion.sits_out", { seat: m.names[s] }));
  return h("section", { class: "summary", id: "c-summary" },
    h("h2", { text: t("companion.settle") }),
    h("ul", {}, lines.map((l) => h("li", { text: l }))));
}

function dealPrompt(m) {
  const knock = m.rules.kernel.knock_public;
  const picked = new Set(store.knocks || []);
  const dealer = m.names[m.dealer];
  const prompt = h("section", { class: "prompt", id: "c-prompt" },
    summary(m) || "",
    h("p", { class: "ask", text: t(knock ? "companion.knocks_q" : "companion.knocks_none", { seat: dealer }) }),
    h("div", { class: "actions" },
      btn(t("companion.play"), () => {
        const k = [...picked];
        store.knocks = [];
        store.draft = null;
        change((x) => B.deal(x, k));
      }, "primary big", { id: "c-play" })));
  const active = new Set(B.turnOrder(m));
  const opts = knock ? {
    pick: (s) => active.has(s),
    onPick: (s) => {
      store.knocks = picked.has(s) ? [...picked].filter((x) => x !== s) : [...picked, s];
      save();
      render();
    },
  } : {};
  return { prompt, opts };
}

function turnPrompt(m, w) {
  const r = m.round;
  const p = r.seats.indexOf(w.seat);
  const target = w.dealer ? null : m.names[r.seats[p + 1]];
  return h("section", { class: "prompt", id: "c-prompt" },
    h("p", { class: "ask", text: t("companion.turn", { seat: m.names[w.seat] }) }),
    h("div", { class: "actions two" },
      btn(t("companion.stand"), () => change((x) => B.act(x, "stand")), "big", { id: "c-stand" }),
      btn(target ? t("companion.ask", { target }) : t("companion.draw"), () => change((x) => B.act(x, "swap")), "big primary", { id: "c-swap" })));
}

function answerPrompt(m, w) {
  const preset = presetOf(m.rules.preset);
  const fromStock = w.at === null;
  const q = fromStock ? t("companion.stock_q", { seat: m.names[w.asker] })
    : t("companion.asks", { seat: m.names[w.asker], target: m.names[w.at] });
  const buttons = [btn(fromStock ? t("companion.takes") : t("companion.swaps"),
                       () => change((x) => B.answer(x, "swap")), "big", { id: "c-answer-swap" })];
  for (const p of B.matadors(m.rules)) {
    const name = pieceName(preset, p.id);
    const passes = B.passes(m.rules, p.id);
    const label = passes ? t("companion.passes", { piece: name })
      : fromStock ? t("companion.from_stock", { piece: `${name}!` }) : `${name}!`;
    const b = btn(label, () => change((x) => B.answer(x, p.id)), `big matador p-${p.power}`, { id: `c-answer-${p.id}`, "data-piece": p.id });
    const said = call(preset, p.id);
    const cards = m.rules.options.pack === "cards52"
      ? cardsOf(preset, p.id, m.rules.options.copies).map(cardText).join(" ") : "";
    const under = [said !== `${name}!` && !passes ? `«${said}»` : "", cards].filter(Boolean).join(" · ");
    if (under) b.append(h("small", { text: under }));
    buttons.push(b);
  }
  if (fromStock) buttons.push(btn(t("companion.empty"), () => change((x) => B.answer(x, "empty")), "ghost", { id: "c-answer-empty" }));
  return h("section", { class: "prompt", id: "c-prompt" },
    h("p", { class: "ask", text: q }), h("div", { class: "actions answers" }, buttons));
}

// The showdown: a piece for every seat dealt in (tap the seat, then the piece), and the
// pieces set aside by draws from the stock.
function showdownPrompt(m) {
  const r = m.round;
  const d = store.draft || (store.draft = { hands: {}, aside: [], open: null });
  const asideBy = B.asideNeeded(m);
  while (d.aside.length < asideBy.length) d.aside.push(null);
  const missing = r.seats.filter((s) => !d.hands[s]);
  const ready = !missing.length && d.aside.every(Boolean);
  const prompt = h("section", { class: "prompt", id: "c-prompt" },
    h("p", { class: "ask", text: r.endedBy !== "turns" ? `${t("companion.stop_said")} ${t("companion.showdown")}` : t("companion.showdown") }),
    asideBy.map((s, i) => h("div", { class: "aside-row" },
      h("span", { text: t("companion.aside", { seat: m.names[s] }) }),
      h("button", { type: "button", class: "btn pick", id: `c-aside-${i}`,
                    on: { click: () => { d.open = { aside: i }; save(); render(); } } }, pieceChip(m, d.aside[i], true)))),
    h("div", { class: "actions" },
      btn(t("companion.settle"), () => {
        const hands = { ...d.hands };
        const aside = [...d.aside];
        change((x) => B.showdown(x, hands, aside));
      }, "primary big", { id: "c-settle", disabled: !ready })));
  const opts = {
    pick: (s) => r.seats.includes(s),
    onPick: (s) => { d.open = { seat: s }; save(); render(); },
    show: (s) => (r.seats.includes(s) ? d.hands[s] || null : undefined),
  };
  return { prompt, opts };
}

function pickerSheet(m) {
  const d = store.draft;
  if (!d || !d.open || !m.round || m.round.phase !== "showdown") return null;
  const preset = presetOf(m.rules.preset);
  const title = d.open.seat !== undefined ? m.names[d.open.seat]
    : t("companion.aside", { seat: m.names[B.asideNeeded(m)[d.open.aside]] });
  const choose = (id) => {
    if (d.open.seat !== undefined) {
      d.hands[d.open.seat] = id;
      // On to the next seat without a piece: a showdown is entered in one pass round the table.
      const r = m.round;
      const at = r.seats.indexOf(d.open.seat);
      const next = [...r.seats.slice(at + 1), ...r.seats.slice(0, at)].find((s) => !d.hands[s]);
      d.open = next === undefined ? null : { seat: next };
    } else {
      d.aside[d.open.aside] = id;
      d.open = null;
    }
    store.error = null;
    save();
    render();
  };
  const cards52 = m.rules.options.pack === "cards52";
  return h("div", { class: "sheet", role: "dialog", "aria-modal": "true", "aria-label": title, id: "c-picker" },
    h("div", { class: "sheet-head" }, h("strong", { text: title }), h("span", { text: t("companion.pick") }),
      btn("×", closeSheet, "ghost small", { id: "c-picker-close", "aria-label": "close" })),
    h("div", { class: `grid${cards52 ? " cards" : ""}` }, preset.pieces.map((p) => {
      const b = h("button", { type: "button", class: "pick-piece", "data-piece": p.id, on: { click: () => choose(p.id) } });
      if (cards52) {
        // Every card that is this piece, fanned (K♥ and K♦ for the Cuckoo): whoever holds
        // the second card finds it without knowing the mapping.
        const cs = cardsOf(preset, p.id, m.rules.options.copies);
        const fan = h("span", { class: `fan n${cs.length}` });
        fan.innerHTML = cs.map((c) => cardMarkup(c, "")).join("");
        b.append(fan, h("span", { class: "pname", text: pieceName(preset, p.id) }));
        b.setAttribute("aria-label", `${cs.map(cardName).join(", ")}: ${pieceName(preset, p.id)}`);
      } else {
        b.append(pieceChip(m, p.id));
      }
      return b;
    })));
}

// A card as the reader writes it: K♥, and the jokers in words ("red joker").
function cardName(code) {
  if (code === "RJ") return t("companion.joker_red");
  if (code === "BJ") return t("companion.joker_black");
  return cardText(code);
}

function closeSheet() {
  if (store.draft && store.draft.open) {
    store.draft.open = null;
    save();
    render();
  }
}

function finished(m) {
  return h("section", { class: "prompt won", id: "c-prompt" },
    summary(m) || "",
    h("p", { class: "ask winners", id: "c-winners", text: winnersLine(m) }),
    h("div", { class: "actions" },
      btn(t("companion.replay"), () => {
        localStorage.setItem("gnav.replay.record", JSON.stringify(B.toRecord(m)));
        location.href = "/replay?record=local";
      }, "", { id: "c-replay-end" }),
      btn(t("companion.new"), () => { store.match = null; store.undo = []; store.draft = null; save(); render(); }, "primary", { id: "c-new-end" })));
}

// -- start ----------------------------------------------------------------------------

function render() {
  const app = document.getElementById("app");
  document.documentElement.lang = store.lang;
  document.title = t("companion.title");
  if (!store.match) renderSetup(app);
  else renderTable(app);
}

async function boot() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/companion-sw.js", { scope: "/companion" }).catch(() => null);
  }
  const [data, words] = await Promise.all([
    fetch("/static/presets.json").then((r) => r.json()),
    fetch("/static/texts.json").then((r) => r.json()),
  ]);
  meta = data;
  presets = data.presets;
  texts = words.sentences;
  // A match kept by an older page has no rules kernel: its preset's, for its options.
  const upgrade = (m) => {
    const preset = m && m.rules ? presetOf(m.rules.preset) : null;
    return preset ? B.withKernel(m, preset) : m;
  };
  store.match = upgrade(store.match);
  store.undo = (store.undo || []).map(upgrade);
  render();
  // Another tab (or a reload elsewhere) changed the store: show it.
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeSheet(); });
  window.addEventListener("storage", (e) => { if (e.key === KEY) { store = load(); render(); } });
  window.gnavCompanion = { record: () => (store.match ? B.toRecord(store.match) : null), store: () => store };
}

boot();
