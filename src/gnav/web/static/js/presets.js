// The presets as the engine defines them (served from gnav.presets), and how the page
// names pieces, calls and spoken words in a language. Loading them loads the engine's
// catalogue of sentences too (i18n.js: the narration, the rules' headings): every page
// that draws a game reads both, so neither can be missing when it draws.

import { loadTexts } from "./i18n.js";

let data = null;
let loading = null;

export async function loadPresets() {
  if (data) return data;
  if (!loading) {
    loading = Promise.all([fetch("/static/presets.json").then((r) => {
      if (!r.ok) throw new Error(`presets: HTTP ${r.status}`);
      return r.json();
    }), loadTexts()]).then(([d]) => {
      data = d;
      data.byName = Object.fromEntries(d.presets.map((p) => [p.name, p]));
      for (const p of d.presets) {
        p.byId = Object.fromEntries(p.pieces.map((x, i) => [x.id, { ...x, rank: i }]));
      }
      return data;
    });
  }
  return loading;
}

export function presetData() { return data; }

export function preset(name) {
  return data.byName[name] || data.byName.gnav;
}

export function piece(p, id) {
  return p.byId[id] || { id, names: { en: id }, calls: {}, power: null, fool: false, rank: 99,
                         does: {}, short: {} };
}

export function isMatador(p, id) { return piece(p, id).power !== null; }
export function isFool(p, id) { return piece(p, id).fool; }

// The piece's name in the reader's language, else the game's own, else English.
export function pieceName(p, id, lang) {
  if (id === null || id === undefined) return "?";
  const names = piece(p, id).names;
  return names[lang] || names[p.lang] || names.en || id;
}

// The call as the table makes it (its language), and the reader's own version when it
// differs (a translation to show beside it).
export function pieceCall(p, id, tableLang) {
  const calls = piece(p, id).calls;
  return calls[tableLang] || calls[p.lang] || calls.en || "";
}

export function callBeside(p, id, tableLang, lang) {
  const calls = piece(p, id).calls;
  const main = pieceCall(p, id, tableLang);
  const mine = calls[lang];
  return mine && mine !== main ? mine : "";
}

// A spoken word of the game ("stand" or "swap") as the table says it.
export function word(p, key, tableLang) {
  const w = p.words || {};
  return w[`${key}.${tableLang}`] || w[`${key}.${p.lang}`] || w[`${key}.en`] ||
    (key === "stand" ? "I stand" : "I want to trade");
}

export function maxSeats(p, copies) {
  // The stock keeps at least one piece; a preset may cap the table lower (Le Her: 2).
  const most = p.pieces.length * copies - 1;
  return p.max_seats == null ? most : Math.min(p.max_seats, most);
}

export function effectiveOptions(p, options) {
  return { ...p.options, ...(options || {}) };
}

// A game's title in the reader's language (the engine's own title where it has none).
export function presetTitle(p, lang) {
  return (p.titles && p.titles[lang]) || p.title;
}
