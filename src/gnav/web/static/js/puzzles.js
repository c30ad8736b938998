// Puzzles: a decision from a finished match, seen from the deciding seat alone (GET
// /api/puzzles?n=N, cut by gnav.learn.puzzles). The reader chooses, then sees the answer
// explained from the figures. The puzzle of the day comes first; a streak of right
// answers is kept on this device (localStorage), as is which puzzle comes next.

import { h, clear } from "./dom.js";
import { t, lang, onLang, sentence, fill } from "./i18n.js";
import { api } from "./api.js";
import { loadPresets, preset as getPreset, presetTitle } from "./presets.js";
import { Board } from "./board.js";
import { emptyState, applyEvent } from "./state.js";
import { says } from "./errors.js";

const KEY = "gnav.puzzles";  // {next, streak, best, seen: [id, ...], day}

function kept() {
  try {
    const k = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    return { next: Number.isInteger(k.next) ? k.next : null, streak: Number(k.streak) || 0,
             best: Number(k.best) || 0, day: typeof k.day === "string" ? k.day : null };
  } catch {
    return { next: null, streak: 0, best: 0, day: null };
  }
}

function keep(changes) { localStorage.setItem(KEY, JSON.stringify({ ...kept(), ...changes })); }

export async function puzzlesPage(shell) {
  await loadPresets();
  let index, shown = null;
  try {
    index = await api("GET", "/api/puzzles");
  } catch (e) {
    clear(shell.main).append(h("p", { class: "error", role: "alert", text: says(e) }));
    return;
  }
  if (!index.count) {
    clear(shell.main).append(h("p", { class: "panel", text: t("puzzle.ui.none") }));
    return;
  }
  // Today's puzzle first, once a day; then on from where this device was.
  const k = kept();
  const first = k.day !== index.date ? index.day : (k.next ?? index.day) % index.count;
  const open = async (n) => {
    try {
      const p = await api("GET", `/api/puzzles?n=${n}`);
      shown = new Puzzle(shell, p, n, n === index.day && kept().day !== index.date,
                         () => { keep({ next: (n + 1) % index.count }); open((n + 1) % index.count); });
      if (n === index.day) keep({ day: index.date });
      shown.draw();
    } catch (e) {
      clear(shell.main).append(h("p", { class: "error", role: "alert", text: says(e) }));
    }
  };
  onLang(() => { if (shown) shown.draw(); });
  open(first);
}

class Puzzle {
  constructor(shell, p, n, daily, next) {
    this.shell = shell;
    this.p = p;
    this.n = n;
    this.daily = daily;
    this.next = next;
    this.chosen = null;
    this.preset = getPreset(p.preset);
    this.board = new Board({ preset: this.preset, look: "pawns", score: this.preset.score,
                             tableLang: this.preset.lang });
  }

  draw() {
    const p = this.p, v = p.view;
    this.shell.setTitle(t("puzzle.ui.title"));
    const k = kept();
    const head = h("div", { class: "learn-panel puzzle-panel", id: "puzzle" },
      h("p", { class: "where", id: "puzzle-where",
               text: `${this.daily ? `${t("puzzle.ui.day")} · ` : ""}${t("puzzle.ui.table", { game: presetTitle(this.preset, lang()), seats: p.seats })}` }),
      h("p", { class: "learn-note", text: t("puzzle.ui.lead") }),
      this.result = h("div", { class: "learn-notes", id: "puzzle-result", role: "status", "aria-live": "polite" }),
      this.choice = h("div", { class: "buttons learn-choice", id: "puzzle-choice" }),
      h("p", { class: "muted small", id: "puzzle-streak", text: t("puzzle.ui.streak", { n: k.streak, best: k.best }) }));
    const log = h("ol", { class: "log", role: "log", tabindex: "0", "aria-label": t("play.log") },
      (p.told[lang()] || p.told.en).map((text) => h("li", { class: "ev", text })));
    clear(this.shell.main).append(h("div", { class: "table-page learn-page puzzle-page" },
      h("div", { class: "play-area" }, h("div", { class: "stage" }, this.board.el), head),
      h("aside", { class: "side" }, h("section", { class: "log-panel" }, h("h2", { text: t("play.log") }), log))));
    this.board.layout();
    this.render(v);
    if (this.chosen) this.explain();
    else {
      for (const action of ["stand", "swap"]) {
        this.choice.append(h("button", { class: "btn primary big", type: "button", id: `puzzle-${action}`,
                                         text: t(`learn.ui.${action}`), onclick: () => this.choose(action) }));
      }
    }
  }

  render(v) {
    const st = emptyState();
    for (const e of v.events) applyEvent(st, e, v.seat);
    const names = Object.keys(v.lives);
    const faces = new Map();
    for (const [seat, piece] of st.revealed) faces.set(seat, piece);
    faces.set(v.seat, v.piece);
    const start = Math.max(this.preset.options.lives, ...Object.values(v.lives));
    let pool = 0;
    for (const s of names) pool += Math.max(0, start - v.lives[s]);
    this.board.render({
      seats: names.map((name) => ({ name, kind: name === v.seat ? "human" : "bot", connected: true, shown: name })),
      me: names.indexOf(v.seat), lobby: false, inRound: new Set(v.order), dealer: v.dealer, toAct: v.to_act,
      lives: v.lives, start, out: new Set(v.out), sittingOut: new Set(v.sitting_out), faces,
      knocked: st.knocked, revealed: st.revealed, shown: st.shown, acted: st.acted, paid: st.paid,
      stockLeft: v.stock_left, aside: st.aside, asideFaces: st.asideFaces, pool,
      caption: t("play.round", { n: v.round }), sub: t("play.your_turn"), timer: null, winners: null,
      replay: false, moved: st.moved,
    });
  }

  choose(action) {
    this.chosen = action;
    const k = kept();
    const right = action === this.p.answer;
    const streak = right ? k.streak + 1 : 0;
    keep({ streak, best: Math.max(k.best, streak) });
    this.draw();
  }

  // The answer, explained from the figures, numbers in the reader's language.
  explain() {
    const p = this.p;
    const L = lang();
    const pct = new Intl.NumberFormat(L, { style: "percent", maximumFractionDigits: 0 });
    const num = new Intl.NumberFormat(L, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const right = this.chosen === p.answer;
    clear(this.choice);
    this.result.append(h("p", { class: right ? "learn-done" : "learn-why", id: "puzzle-verdict",
                                text: right ? t("puzzle.ui.right") : `${t("puzzle.ui.wrong")} ${t(`learn.ui.${p.answer}`)}!` }));
    for (const line of p.explain) {
      const params = {};
      for (const [key, value] of Object.entries(line.params)) {
        params[key] = typeof value !== "number" ? value
          : line.key === "puzzle.why.pay" ? pct.format(value)
          : key === "n" ? String(value) : num.format(value);
      }
      this.result.append(h("p", { class: "learn-note", text: fill(sentence(line.key) || line.key, params) }));
    }
    const next = h("button", { class: "btn primary big", type: "button", id: "puzzle-next", text: t("puzzle.ui.next"),
                               onclick: () => this.next() });
    this.choice.append(next);
  }
}
