// The rules of the table's preset, in plain words, one click (or "?") away. The text is
// the engine's own (GET /api/rules), so it says what the table plays.

import { h, clear } from "./dom.js";
import { t, lang, onLang } from "./i18n.js";
import { api } from "./api.js";
import { pieceSVG } from "./pieces.js";
import { preset as getPreset } from "./presets.js";
import { says } from "./errors.js";
import { oddsLink, companionLink } from "./links.js";

let dialog = null;
// The table's (or the form's) game: its lives and way of scoring are the ones the text shows.
let current = { preset: "gnav", options: {}, look: "pawns", score: null };

// The game the rules show now (the coach's link to the odds names it too).
export function rulesPreset() {
  return current.preset;
}

export function setRulesContext(ctx) {
  current = { ...current, ...ctx };
}

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h("dialog", { class: "dialog rules-dialog", "aria-labelledby": "rules-title" });
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  document.body.append(dialog);
  onLang(() => { if (dialog.open) fill(); });
  return dialog;
}

export function showRules(ctx) {
  if (ctx) setRulesContext(ctx);
  const d = ensureDialog();
  if (!d.open) d.showModal();
  fill();
}

async function fill() {
  const d = dialog;
  const closeBtn = h("button", { class: "btn close", type: "button", onclick: () => d.close() }, t("app.close"));
  clear(d).append(h("div", { class: "dialog-head" },
    h("h2", { id: "rules-title", text: t("app.rules") }), closeBtn),
    h("p", { class: "muted", text: t("rules.loading") }));
  closeBtn.focus();
  const q = new URLSearchParams({ preset: current.preset, lang: lang(),
                                  options: JSON.stringify(current.options || {}) });
  if (current.score) q.set("score", current.score);
  let r;
  try {
    r = await api("GET", `/api/rules?${q}`);
  } catch (e) {
    d.append(h("p", { class: "error", dataset: { code: e.code || "" }, text: says(e) }));
    return;
  }
  const p = getPreset(r.preset);
  const body = h("div", { class: "rules-body" });
  body.append(h("p", { class: "lead", text: r.description }));
  body.append(h("h3", { text: t("rules.game") }));
  for (const para of r.explanation) body.append(h("p", { text: para }));
  body.append(h("h3", { text: t("rules.pieces") }));
  const rows = r.pieces.map((x) => h("tr", { class: x.matador ? "matador" : x.fool ? "fool" : "" },
    h("td", { class: "num", text: String(x.rank) }),
    h("td", { class: "pic" }, pieceSVG(p, x.id, { look: current.look, lang: lang(), label: false })),
    h("th", { scope: "row" }, x.name, x.english ? h("span", { class: "muted", text: ` (${x.english})` }) : null),
    h("td", { text: x.short }),
    h("td", { class: "call", text: x.call ? `«${x.call}»` : "" })));
  body.append(h("div", { class: "table-wrap" }, h("table", { class: "pieces-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rules.rank") }), h("th", { scope: "col" }),
      h("th", { scope: "col", text: t("rules.name") }), h("th", { scope: "col", text: t("rules.asked") }),
      h("th", { scope: "col", text: t("rules.call") }))),
    h("tbody", {}, rows))));
  body.append(h("p", { class: "muted", text: t("rules.copies", { n: r.copies }) }));
  const matadors = r.pieces.filter((x) => x.matador);
  if (matadors.length) {
    body.append(h("h3", { text: t("rules.matadors") }));
    body.append(h("dl", { class: "matadors" }, matadors.flatMap((x) => [
      h("dt", {}, h("strong", { text: x.name }), x.call ? ` «${x.call}»` : "",
        x.call_en ? h("span", { class: "muted", text: ` (${x.call_en})` }) : null),
      h("dd", { text: x.does.charAt(0).toUpperCase() + x.does.slice(1) + "." }),
    ])));
  }
  body.append(h("h3", { text: t("rules.options") }));
  body.append(h("ul", { class: "options-list" }, r.options.map((o) =>
    h("li", { class: o.changed ? "changed" : "" }, h("code", { text: `${o.name} = ${o.value}` }), ` ${o.text}`))));
  body.append(h("h3", { text: t("rules.changes") }));
  body.append(r.changes.length ? h("ul", {}, r.changes.map((c) => h("li", { text: c })))
    : h("p", { text: t("rules.nothing") }));
  body.append(h("p", { class: "muted small", text: t("rules.source", { source: r.source }) }));
  body.append(h("p", { class: "muted small", text: t("rules.keys") }));
  body.append(h("p", { class: "rules-links" }, oddsLink({ preset: r.preset }, { away: true }), h("br"),
                companionLink({ away: true })));
  clear(d).append(h("div", { class: "dialog-head" },
    h("h2", { id: "rules-title", text: t("rules.title", { title: r.title }) }), closeBtn), body);
  // The lives as the table shows them (tokens or strokes, one for each life).
  body.dataset.score = r.score;
  closeBtn.focus();
}
