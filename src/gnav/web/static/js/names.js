// One name per bot everywhere (board, log, winner, replay): the server names bots
// "Threshold bot 3" (the kind of bot, then its seat); a person reads the same, with the
// kind in their own language ("Expert bot 4", "Ekspert-robot 4"): the kind is what tells
// an easy table from a hard one, so no view drops it. People's names are never changed.

import { t, has } from "./i18n.js";
import { presetData } from "./presets.js";

// The kinds come from the server (presets.json): "Expert bot 4" is a bot's name as soon
// as the server has expert bots.
let pattern = null;
function botPattern() {
  if (pattern) return pattern;
  const data = presetData();  // app.js loads it before any page is drawn
  // A kind's other characters are escaped, not dropped: "Expert-round bot 2" is a name.
  const kinds = (data ? data.bot_kinds : [])
    .map((k) => k.charAt(0).toUpperCase() + k.slice(1).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const found = new RegExp(`^(?:(${kinds.join("|") || "(?!)"}) b|B)ot (\\d+)$`);
  if (data) pattern = found;
  return found;
}

export function botNumber(name) {
  const m = botPattern().exec(String(name ?? ""));
  return m ? m[2] : null;
}

// The kind a bot's name carries ("expert" for "Expert bot 4"); null for "Bot 4" and
// for every name that is no bot's.
export function botKind(name) {
  const m = botPattern().exec(String(name ?? ""));
  return m && m[1] ? m[1].toLowerCase() : null;
}

// A bot's name as a person reads it: its kind and number in the page's language.
function botShown(name) {
  const n = botNumber(name);
  const kind = botKind(name);
  return kind && has(`seat.bot_${kind}`) ? t(`seat.bot_${kind}`, { n }) : t("seat.bot_n", { n });
}

// A function from a seat's name to the name shown. ``bots``: the names of bot seats;
// ``all``: every name at the table (a bot's shown name never takes a person's).
export function namer(bots, all) {
  const names = new Set(all);
  return (name) => {
    if (name === null || name === undefined || !bots.has(name)) return name;
    if (botNumber(name) === null) return name;
    const shown = botShown(name);
    return shown !== name && names.has(shown) ? name : shown;
  };
}

// Where seat kinds are not known (a record, a lobby line): a name as the server names
// bots is a bot's.
export function namerByName(names) {
  return namer(new Set(names.filter((n) => botNumber(n) !== null)), names);
}
