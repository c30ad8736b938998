// Events in words, in the reader's language, with the game's own calls.
//
// Which sentences tell an event is not written here: it is the engine's narration table
// (gnav.texts.narration, served in /static/texts.json), the one the terminal reads too.
// This file only reads it: it tests a condition and fills a sentence, as the Python
// reader does (tell in gnav/texts/narration.py); a browser test holds the two to the
// same choices. What is the page's own: calls and words in «quotes», the reader named
// (never "you"), the turn order left to the board, a big showdown left to the board.

import { lang, list, sentence, narrationTable, fill } from "./i18n.js";
import { pieceName, pieceCall, callBeside, word, piece } from "./presets.js";

// The event with every seat name as the reader is shown it (``who``: names.js).
function renamed(e, who) {
  const out = { ...e };
  for (const k of ["seat", "target", "to", "dealer"]) if (typeof e[k] === "string") out[k] = who(e[k]);
  for (const k of ["seats", "winners", "sit_out", "order"]) if (Array.isArray(e[k])) out[k] = e[k].map(who);
  return out;
}

// At a table this big the showdown's pieces are read on the board, not in one long line
// of the log.
export const BIG_SHOWDOWN = 10;

const CONDITION = /^(!?)(\w+)(?:(==|=)(\w+))?$/;

// A field is there: not null, false, empty text or an empty list (0 is).
function present(v) {
  return !(v === null || v === undefined || v === false || v === "" ||
           (Array.isArray(v) && v.length === 0));
}

function holds(condition, get, me) {
  const m = CONDITION.exec(condition);
  if (!m) throw new Error(`narration: bad condition ${condition}`);
  const [, negate, name, op, operand] = m;
  const value = get(name);
  const result = op === "==" ? me !== null && me !== undefined && value === me
    : op === "=" ? present(value) && String(value) === operand
    : present(value);
  return result !== Boolean(negate);
}

function pick(group, get, me) {
  return group.find((alt) => (alt.if || []).every((c) => holds(c, get, me))) || null;
}

// The alternatives that tell an event of ``kind``, in order (tests compare them with the
// Python reader's).
export function choose(kind, get, me, table = narrationTable()) {
  return (table.events[kind] || []).map((g) => pick(g, get, me)).filter((alt) => alt !== null);
}

function sentenceOf(alt, get, words, table) {
  const text = sentence(alt.say, words.lang);
  const renames = alt.as || {};
  const inner = alt.with || {};
  const params = {};
  let capital = false;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const ph = m[1];
    if (ph in params) continue;
    if (ph in inner) {
      const part = pick(table.parts[inner[ph]], get, words.me);
      params[ph] = part ? sentenceOf(part, get, words, table) : "";
      continue;
    }
    const field = renames[ph] || ph;
    const value = get(field);
    if (table.seats.includes(field)) {
      const stock = value === null || value === undefined;
      params[ph] = stock ? sentence("ev.stock", words.lang) : value;
      capital = capital || (stock && m.index === 0);
    } else if (table.seat_lists.includes(field)) {
      params[ph] = list(value || []);
    } else if (table.pieces.includes(field)) {
      params[ph] = words.piece(value);
    } else {
      params[ph] = value === null || value === undefined ? "" : String(value);
    }
  }
  const said = fill(text, params);
  return capital ? said.charAt(0).toUpperCase() + said.slice(1) : said;
}

// What the page knows beside the event (gnav.texts.narration.FACTS).
function facts(e, ctx) {
  const p = ctx.preset;
  const L = lang();
  const out = { full: Boolean(ctx.full), tell_order: false, dragged: Boolean(ctx.dragged) };
  if (e.type === "stand" || e.type === "ask") {
    out.word = `«${word(p, e.type === "stand" ? "stand" : "swap", ctx.tableLang)}»`;
  } else if (e.type === "answer") {
    const main = pieceCall(p, e.piece, ctx.tableLang);
    const beside = main ? callBeside(p, e.piece, ctx.tableLang, L) : "";
    out.call = !main ? null : beside ? `«${main}» («${beside}»)` : `«${main}»`;
  } else if (e.type === "pay") {
    out.matador_reason = Boolean(piece(p, e.reason).power);
  } else if (e.type === "showdown") {
    out.big = e.seats.length >= BIG_SHOWDOWN;
    out.n = e.seats.length;
    out.shown = e.seats.map((s, i) => `${s} ${pieceName(p, e.pieces[i], L)}`).join(", ");
  } else if (e.type === "match_end") {
    out.winner = e.winners.length === 1 ? e.winners[0] : null;
  }
  return out;
}

// ctx: {preset, tableLang, me (name or null), full (a replay: every piece known),
//       who (name shown for a seat's name), dragged (this "lowest" payment is the
//       fool's drag: a "fool" payment came before it in the same showdown)}
export function narrate(raw, ctx) {
  const e = ctx.who ? renamed(raw, ctx.who) : raw;
  const me = ctx.me && ctx.who ? ctx.who(ctx.me) : ctx.me;
  const table = narrationTable();
  const known = facts(e, ctx);
  const get = (name) => (name in known ? known[name] : e[name]);
  const words = { lang: lang(), me, piece: (id) => pieceName(ctx.preset, id, lang()) };
  return choose(e.type, get, me, table).map((alt) => sentenceOf(alt, get, words, table)).join(" ");
}

// A function that says, for each event read in order, whether it is a "lowest" payment
// the fool dragged down (a "fool" payment came before it in the same showdown): the
// events themselves do not say.
export function dragWatch() {
  let fool = false;
  return (e) => {
    if (e.type === "showdown" || e.type === "round_start") fool = false;
    const dragged = e.type === "pay" && e.reason === "lowest" && fool;
    if (e.type === "pay" && e.reason === "fool") fool = true;
    return dragged;
  };
}
