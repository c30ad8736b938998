// What the table page reads from its store (state.js), computed where it is needed: the
// game the table plays, the names seats are shown by, whether the reader may act.

import { namer } from "./names.js";
import { preset as getPreset, effectiveOptions } from "./presets.js";
import { myName } from "./state.js";

export { myName };

// The game of the table's configuration: its preset, options and the calls' language.
// Looked up again only when the configuration changes.
let gameKey = null, gameNow = null;
export function game(s) {
  const cfg = s.info.config;
  const key = JSON.stringify(cfg);
  if (key !== gameKey) {
    const p = getPreset(cfg.preset);
    gameKey = key;
    gameNow = { preset: p, options: effectiveOptions(p, cfg.options), tableLang: cfg.lang || p.lang,
                look: cfg.look, score: cfg.score || p.score };
  }
  return gameNow;
}

// The name a seat is shown by (one per bot everywhere: names.js).
export function who(s) {
  const seats = s.info ? s.info.seats : [];
  const bots = new Set(seats.filter((x) => x.kind === "bot").map((x) => x.name));
  return namer(bots, seats.map((x) => x.name));
}

// The seat a player asks to swap with (null: the dealer, who draws from the stock).
export function leftOf(s, name) {
  const order = s.round.order;
  const i = order.indexOf(name);
  return i >= 0 && i + 1 < order.length ? order[i + 1] : null;
}

export function busy(s) { return s.moving || s.pumping; }

export function canAct(s, action) {
  const v = s.view;
  return Boolean(s.info && s.info.phase === "playing" && v && s.you !== null && !busy(s) &&
    s.pending === null && s.round.toAct === myName(s) && v.to_act === myName(s) &&
    (v.legal || []).includes(action));
}
