// Links to the app's own other pages, where a player would look for them: the odds of
// every piece at every seat (/odds) and the companion for a real table (/companion).
// Each opens in the reader's language; from a table they open in a new tab, so that
// following one never leaves the game.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";

// The /odds address for a game (and a table size, a piece and a seat when known).
export function oddsHref({ preset, seats, piece, seat } = {}) {
  const q = new URLSearchParams();
  if (preset) q.set("preset", preset);
  if (seats) q.set("seats", String(seats));
  if (piece) q.set("piece", piece);
  if (seat) q.set("seat", String(seat));
  q.set("lang", lang());
  return `/odds?${q}`;
}

const tab = (away) => (away ? { target: "_blank", rel: "noopener" } : {});

// "The odds: how likely each piece is to cost a life, seat by seat".
export function oddsLink(where = {}, { away = false, text = "links.odds" } = {}) {
  return h("a", { class: "link odds-link", href: oddsHref(where), ...tab(away), text: t(text) });
}

export function companionLink({ away = false } = {}) {
  return h("a", { class: "link companion-link", href: "/companion", ...tab(away),
                  text: t("links.companion") });
}
