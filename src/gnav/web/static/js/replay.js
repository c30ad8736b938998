// The replay viewer: a finished match, from a table on this server or from a record file,
// stepped through with every piece face up. The rules are never played here: the server
// replays the record through the engine (POST /api/replay) and sends every step.

import { h, clear, icon } from "./dom.js";
import { t, lang, onLang } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { Board } from "./board.js";
import { animateEvent } from "./animate.js";
import { emptyState, applyEvent } from "./state.js";
import { narrate, dragWatch } from "./narrate.js";
import { loadPresets, preset as getPreset, pieceName } from "./presets.js";
import { dur, sleep, speed } from "./settings.js";
import { setRulesContext } from "./rules.js";
import { says } from "./errors.js";
import { namerByName, botNumber } from "./names.js";

const MAX_FILE = 12_000_000;  // gnav.web.steps.MAX_BYTES

// POST /api/analyse?progress=1: ``progress(done, total)`` on each line of progress, the
// analysis at the end (an error line throws, as api() does).
async function streamAnalysis(text, progress) {
  let r;
  try {
    r = await fetch("/api/analyse?progress=1", { method: "POST", body: text,
                                                  headers: { "Content-Type": "application/json" } });
  } catch (e) {
    throw new ApiError("offline", String(e.message || e), 0);
  }
  if (!r.ok || !r.body) {
    let data = null;
    try { data = await r.json(); } catch { data = null; }
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http", err.reason || `HTTP ${r.status}`, r.status);
  }
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      if (msg.analysis) return msg.analysis;
      if (msg.error) throw new ApiError(msg.error.code, msg.error.reason || "", 200);
      progress(msg.done, msg.total);
    }
    if (done) throw new ApiError("internal", "the analysis ended early", 200);
  }
}

// Why the expert's choice differs from what the figures say (gnav.odds.verdict).
function whyOf(x) {
  const g = x.swap_gain;
  const d = Math.abs(typeof g === "number" ? g : g.value);
  return t(`why.${x.why}`, { p: `${Math.round(x.expert_swap * 100)}%`,
                             d: d.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }) });
}

export async function replayPage(shell) {
  await loadPresets();
  shell.setTitle(t("replay.title"));
  const params = new URLSearchParams(location.search);
  const table = params.get("table");
  const game = params.get("game");
  const chooser = () => showChooser(shell, table || "");
  // The companion (/companion) hands its record over in this browser's storage.
  const local = params.get("record") === "local" && localStorage.getItem("gnav.replay.record");
  if (local) {
    loading(shell);
    try {
      await openRecord(shell, local, chooser);
    } catch (e) {
      chooser();
      showError(e);
    }
  } else if (table) {
    loading(shell);
    try {
      const q = game ? `?game=${encodeURIComponent(game)}` : "";
      const record = await api("GET", `/api/tables/${encodeURIComponent(table)}/record${q}`);
      await openRecord(shell, JSON.stringify(record), chooser);
    } catch (e) {
      chooser();
      showError(e);
    }
  } else {
    chooser();
  }
}

function loading(shell) {
  clear(shell.main).append(h("p", { class: "loading", text: t("replay.loading") }));
}

// The sentence for a person; the server's one-line reason stays in the tooltip for
// whoever wrote the record.
function showError(err) {
  const box = document.getElementById("replay-error");
  if (!box) return;
  box.textContent = says(err);
  box.dataset.code = err.code || "";
  box.title = err.message || "";
}

function showChooser(shell, tableId) {
  const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  const id = h("input", { id: "record-table", value: tableId, autocomplete: "off", spellcheck: "false" });
  const error = h("p", { class: "error", role: "alert", id: "replay-error" });
  const read = async (f) => {
    if (!f) return;
    if (f.size > MAX_FILE) { showError({ code: "too_big" }); return; }
    const text = await f.text();
    try {
      loading(shell);
      await openRecord(shell, text, () => showChooser(shell, tableId));
    } catch (e) {
      showChooser(shell, tableId);
      showError(e);
    }
  };
  file.addEventListener("change", () => read(file.files[0]));
  const drop = h("div", { class: "panel drop", tabindex: "-1" },
    h("h1", { text: t("replay.title") }), h("p", { text: t("replay.intro") }),
    h("div", { class: "field" }, h("label", { for: "record-file", text: t("replay.file") }), file),
    h("form", { class: "field", onsubmit: (e) => {
      e.preventDefault();
      if (id.value.trim()) location.assign(`/replay?table=${encodeURIComponent(id.value.trim())}`);
    } }, h("label", { for: "record-table", text: t("replay.table") }),
      h("div", { class: "row" }, id, h("button", { class: "btn", type: "submit", text: t("replay.load") }))),
    error);
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    read(e.dataTransfer.files[0]);
  });
  clear(shell.main).append(h("div", { class: "replay-choose" }, drop));
}

async function openRecord(shell, text, back) {
  const data = await api("POST", "/api/replay", { body: text });
  const viewer = new Viewer(shell, data, back, text);
  viewer.show();
  return viewer;
}

class Viewer {
  constructor(shell, data, back, text) {
    this.shell = shell;
    this.data = data;
    this.back = back;
    this.text = text;  // the record, for its analysis (POST /api/analyse)
    this.analysis = null;  // null: not asked; {busy}, {error} or the server's analysis
    this.preset = getPreset(data.preset);
    this.tableLang = this.preset.lang;
    this.cur = 0;
    this.st = emptyState();
    this.hands = new Map();
    this.animating = false;
    this.playing = false;
    // A match is replayed with the pieces its table showed (x.look, from gnav serve), or
    // else with the cards its pack option names.
    const look = data.look || { cards: "cards", cards52: "cards52" }[data.options.pack] || "pawns";
    this.board = new Board({ preset: this.preset, look, score: this.preset.score,
                             tableLang: this.tableLang });
    setRulesContext({ preset: data.preset, options: data.options, look });
    this.start = Math.max(...Object.values(data.start_lives));
    this.who = namerByName(data.seats);
    this.dragged = dragWatch();
    onLang(() => { this.build(); this.goto(this.cur); });
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  show() {
    this.build();
    this.goto(0);
  }

  build() {
    const main = this.shell.main;
    const btn = (key, name, f, id) => h("button", { class: "btn icon", type: "button", id, title: t(key),
                                                  "aria-label": t(key), onclick: f }, icon(name));
    this.where = h("p", { class: "where", id: "replay-where", "aria-live": "polite" });
    this.playBtn = btn("replay.play", "play", () => this.toggle(), "replay-play");
    this.slider = h("input", { type: "range", min: "0", max: String(this.data.steps.length - 1), value: "0",
                               id: "replay-slider", "aria-label": t("replay.title") });
    this.slider.addEventListener("input", () => this.goto(Number(this.slider.value)));
    this.log = h("ol", { class: "log", role: "log", "aria-live": "polite", tabindex: "0",
                         "aria-label": t("play.log") });
    // The server words the warning (the same words as gnav replay's), in every language.
    const warn = this.data.warning ? h("p", { class: "warning", role: "note",
      text: (this.data.warnings && this.data.warnings[lang()]) || this.data.warning }) : null;
    clear(main).append(h("div", { class: "table-page replay-page" },
      h("div", { class: "play-area" }, h("div", { class: "stage" }, this.board.el),
        h("section", { class: "replay-controls", "aria-label": t("replay.title") },
          h("div", { class: "buttons" },
            btn("replay.first", "first", () => this.goto(0), "replay-first"),
            btn("replay.prev_round", "prevRound", () => this.round(-1), "replay-prev-round"),
            btn("replay.prev", "prev", () => this.goto(this.cur - 1), "replay-prev"),
            this.playBtn,
            btn("replay.next", "next", () => this.forward(), "replay-next"),
            btn("replay.next_round", "nextRound", () => this.round(1), "replay-next-round"),
            btn("replay.last", "last", () => this.goto(this.data.steps.length - 1), "replay-last")),
          this.slider, this.where)),
      h("aside", { class: "side" }, warn,
        h("section", { class: "log-panel" }, h("h2", { text: t("play.log") }), this.log),
        this.analysisEl = h("section", { class: "analysis-panel", id: "analysis", "aria-live": "polite" }),
        h("p", {}, h("button", { class: "btn ghost", type: "button", onclick: () => { this.stop(); this.back(); },
                                 text: t("replay.another") })))));
    this.board.layout();
    this.renderAnalysis();
  }

  // -- the analysis (the Analysis button) ---------------------------------------------------

  // A long match takes a while: the server streams its progress (JSON lines), then
  // the analysis.
  async analyse() {
    if (this.analysis && !this.analysis.error) return;
    this.analysis = { busy: true };
    this.renderAnalysis();
    try {
      this.analysis = await streamAnalysis(this.text, (done, total) => {
        this.analysis = { busy: true, done, total };
        this.renderAnalysis();
      });
    } catch (e) {
      this.analysis = { error: says(e), code: e.code || "" };
    }
    this.renderAnalysis();
  }

  // The rounds whose end the replay has reached: their pieces are shown at the showdown,
  // so their decisions (which tell of the pieces held) may be shown. A round still under
  // way shows nothing, not even its decisions so far.
  roundsShown() {
    const d = this.data, rounds = d.rounds;
    let n = 0;
    for (let r = 0; r < rounds.length; r++) {
      const last = r + 1 < rounds.length ? rounds[r + 1].first_step - 1 : d.steps.length - 1;
      if (this.cur >= last) n = r + 1;
    }
    return n;
  }

  renderAnalysis() {
    const el = this.analysisEl;
    if (!el) return;
    const a = this.analysis;
    const shown = a && !a.busy && !a.error ? this.roundsShown() : 0;
    const key = JSON.stringify([a ? (a.busy ? ["busy", a.done, a.total] : a.error ? a.error : "ok") : null, shown, lang()]);
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    clear(el);
    el.append(h("h2", { text: t("analysis.title") }));
    if (!a) {
      el.append(h("button", { class: "btn", type: "button", id: "replay-analyse",
                              onclick: () => this.analyse(), text: t("replay.analyse") }));
      return;
    }
    if (a.busy) {
      el.append(h("p", { class: "muted", id: "analysis-busy", text: a.total ? t("analysis.progress", { done: a.done, total: a.total })
        : t("analysis.busy") }));
      if (a.total) el.append(h("progress", { id: "analysis-progress", max: String(a.total), value: String(a.done) }));
      return;
    }
    if (a.error) {
      el.append(h("p", { class: "error", role: "alert", dataset: { code: a.code }, text: a.error }));
      return;
    }
    el.dataset.shown = String(shown);
    const num = (x, sign) => x.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2,
                                                          signDisplay: sign ? "exceptZero" : "auto" });
    el.append(h("p", { class: "muted small", text: t("analysis.help") }),
      h("p", { class: "muted small", text: a.exact ? t("analysis.exact")
        : t("analysis.sampled", { p: num(a.deals.precision, false), n: a.deals.most.toLocaleString(lang()) }) }));
    if (a.analysed) {
      el.append(h("p", { class: "small", id: "analysis-sample", text: t("analysis.sample", {
        every: a.analysed.every, n: a.analysed.rounds.length, of: a.analysed.of }) }));
    }
    // The decisions carry their figures in the match: the match strategy's where one ships
    // for the table, the lives model's where the figures were sampled.
    const inMatch = a.decisions.some((x) => x.win_loss !== undefined);
    const byModel = a.decisions.some((x) => x.win_source === "model");
    if (inMatch) el.append(h("p", { class: "muted small", id: "analysis-win-help",
      text: t(byModel ? "analysis.win_help_model" : "analysis.win_help") }));
    if (!shown) { el.append(h("p", { class: "muted", id: "analysis-none", text: t("analysis.none_yet") })); return; }
    // Totals over the rounds shown: lives lost to the seat's own decisions, and luck.
    const total = new Map(a.seats.map((s) => [s, { n: 0, cost: 0, luck: 0, won: 0, acc: 0 }]));
    for (const x of a.decisions) {
      if (x.round > shown) continue;
      const v = total.get(x.seat);
      v.n += 1;
      v.cost += x.cost;
      if (x.accuracy !== undefined) { v.won += 1; v.acc += x.accuracy; }
    }
    const pct1 = (x) => `${x.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
    const heads = ["seat", "decisions", "cost", "luck", ...(inMatch ? ["accuracy"] : [])];
    for (const r of a.rounds) if (r.round <= shown) for (const s of a.seats) total.get(s).luck += r.luck[s];
    el.append(h("p", { class: "muted small", id: "analysis-so-far", text: t(shown === 1 ? "analysis.so_far_one" : "analysis.so_far",
                                                          { n: shown, rounds: this.data.rounds.length }) }),
      h("table", { class: "analysis-totals", id: "analysis-totals" },
        h("thead", {}, h("tr", {}, ...heads.map((k) => h("th", { text: t(`analysis.${k}`) })))),
        h("tbody", {}, ...a.seats.map((s) => {
          const v = total.get(s);
          return h("tr", { dataset: { seat: s } }, h("td", { text: this.who(s) }), h("td", { text: String(v.n) }),
            h("td", { text: num(v.cost, false) }), h("td", { text: num(v.luck, true) }),
            ...(inMatch ? [h("td", { class: "analysis-accuracy", text: v.won ? pct1(v.acc / v.won) : "–" })] : []));
        }))));
    const list = h("ol", { class: "analysis-list", id: "analysis-list" });
    for (const x of a.decisions) {
      if (x.round > shown) continue;
      list.append(h("li", { class: `mark-${x.mark}`, dataset: { round: String(x.round), seat: x.seat } },
        t("analysis.row", { round: x.round, seat: this.who(x.seat), piece: pieceName(this.preset, x.piece, lang()),
                            action: t(x.action === "swap" ? "analysis.swapped" : "analysis.stood"),
                            expert: t(x.expert === "swap" ? "analysis.expert_swap" : "analysis.expert_stand") }),
        " ", h("span", { class: "analysis-cost", text: x.cost_interval && x.cost_interval[1] > 0
          ? t("analysis.cost_range", { cost: num(x.cost, false), low: num(x.cost_interval[0], false),
                                       high: num(x.cost_interval[1], false) })
          : t("analysis.cost_of", { cost: num(x.cost, false) }) }),
        " · ", h("strong", { class: "analysis-mark", dataset: { mark: x.mark }, text: t(`mark.${x.mark}`) }),
        x.why ? h("span", { class: "analysis-why muted", dataset: { why: x.why }, text: ` · ${t("coach.why", { why: whyOf(x) })}` }) : "",
        x.win_loss !== undefined ? h("span", { class: "analysis-win", text: ` · ${t("analysis.win", {
          s: pct1(100 * x.win_stand), w: pct1(100 * x.win_swap),
          loss: x.win_loss.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
          acc: pct1(x.accuracy) })} ` }) : "",
        x.win_mark ? h("strong", { class: "analysis-win-mark", dataset: { mark: x.win_mark }, text: t(`mark.${x.win_mark}`) }) : "",
        x.coached ? h("span", { class: "muted", text: ` · ${t("analysis.coached")}` }) : ""));
    }
    el.append(list);
  }

  onKey(e) {
    if (!document.body.contains(this.board.el) || document.querySelector("dialog[open]")) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && e.target !== this.slider) return;
    if ((tag === "BUTTON" || tag === "A") && (e.key === " " || e.key === "Enter")) return;
    const keys = { ArrowRight: () => this.forward(), ArrowLeft: () => this.goto(this.cur - 1),
                   Home: () => this.goto(0), End: () => this.goto(this.data.steps.length - 1),
                   PageDown: () => this.round(1), PageUp: () => this.round(-1), " ": () => this.toggle() };
    const f = keys[e.key];
    if (f && !(e.target === this.slider && e.key.startsWith("Arrow"))) {
      e.preventDefault();
      f();
    }
  }

  round(dir) {
    const steps = this.data.steps;
    const rounds = this.data.rounds;
    const r = steps[this.cur].round - 1 + dir;
    if (dir < 0 && steps[this.cur].index > 0) return this.goto(rounds[steps[this.cur].round - 1].first_step);
    if (r < 0 || r >= rounds.length) return;
    this.goto(rounds[r].first_step);
  }

  // The state after step ``s``, from its round's deal.
  rebuild(s) {
    const steps = this.data.steps;
    const step = steps[s];
    const rnd = this.data.rounds[step.round - 1];
    const st = emptyState();
    for (let j = rnd.first_step; j <= s; j++) for (const e of steps[j].events) applyEvent(st, e, null);
    this.fix(st, step);
    this.st = st;
    this.hands = new Map(rnd.order.map((name, i) => [name, step.hands[i]]));
  }

  fix(st, step) {
    st.lives = { ...step.lives };
    st.out = new Set(step.out);
    st.winners = step.winners;
    st.toAct = step.to_act;
    st.stockLeft = step.stock_left;
    st.aside = step.aside.length;
    st.asideFaces = step.aside.slice();
  }

  goto(s) {
    this.stopAnim();
    s = Math.max(0, Math.min(this.data.steps.length - 1, s));
    this.cur = s;
    this.rebuild(s);
    this.render();
    this.relog();
  }

  stopAnim() {
    this.token = (this.token || 0) + 1;
    this.animating = false;
    this.board.clearArrows();
    this.board.clearBubbles();
  }

  async forward() {
    const steps = this.data.steps;
    if (this.cur >= steps.length - 1) { this.stop(); return; }
    if (this.animating || speed() === "instant") { this.goto(this.cur + 1); return; }
    const target = this.cur + 1;
    const step = steps[target];
    const token = this.token = (this.token || 0) + 1;
    this.animating = true;
    for (const e of step.events) {
      if (token !== this.token) return;
      const apply = () => {
        applyEvent(this.st, e, null);
        this.track(e, step);
        this.logEvent(e);
        this.render();
      };
      await animateEvent(this.board, e, { preset: this.preset, tableLang: this.tableLang, st: this.st, apply });
    }
    if (token !== this.token) return;
    this.animating = false;
    this.cur = target;
    this.rebuild(target);
    this.render();
  }

  // Who holds what, while a step plays (every piece is known in a replay).
  track(e, step) {
    const rnd = this.data.rounds[step.round - 1];
    if (e.type === "round_start") this.hands = new Map(rnd.order.map((n, i) => [n, rnd.deal[i]]));
    else if (e.type === "swap" && e.seat_got) { this.hands.set(e.seat, e.seat_got); this.hands.set(e.target, e.target_got); }
    else if (e.type === "draw" && e.piece) this.hands.set(e.seat, e.piece);
    else if (e.type === "undo") this.hands = new Map(rnd.order.map((n, i) => [n, rnd.deal[i]]));
  }

  toggle() {
    if (this.playing) this.stop();
    else this.play();
  }

  async play() {
    this.playing = true;
    clear(this.playBtn).append(icon("pause"));
    this.playBtn.title = t("replay.pause");
    this.playBtn.setAttribute("aria-label", t("replay.pause"));
    while (this.playing && this.cur < this.data.steps.length - 1) {
      await this.forward();
      await sleep(Math.max(speed() === "instant" ? 350 : 0, dur(500)));
    }
    this.stop();
  }

  stop() {
    this.playing = false;
    if (!this.playBtn) return;
    clear(this.playBtn).append(icon("play"));
    this.playBtn.title = t("replay.play");
    this.playBtn.setAttribute("aria-label", t("replay.play"));
  }

  render() {
    const d = this.data;
    const st = this.st;
    const step = d.steps[this.cur];
    const seats = d.seats.map((name) => ({ name, kind: botNumber(name) === null ? "human" : "bot",
                                          connected: true, shown: this.who(name) }));
    const faces = new Map(this.hands);
    let pool = 0;
    for (const s of d.seats) pool += Math.max(0, (d.start_lives[s] ?? this.start) - (st.lives[s] ?? 0));
    const model = {
      seats, me: null, lobby: false, inRound: new Set(st.order), dealer: st.dealer,
      toAct: this.animating ? null : st.toAct, lives: st.lives, start: this.start, out: st.out,
      sittingOut: new Set(d.seats.filter((s) => !st.order.includes(s) && !st.out.has(s))), faces,
      knocked: st.knocked, revealed: st.revealed, shown: st.shown, acted: st.acted, paid: st.paid,
      stockLeft: st.stockLeft, aside: st.aside, asideFaces: st.asideFaces, pool,
      caption: t("play.round", { n: st.round }),
      sub: st.toAct && !this.animating ? t("play.turn_of", { name: this.who(st.toAct) }) : "",
      timer: null, winners: st.winners, replay: true, moved: st.moved,
    };
    this.board.render(model);
    this.slider.value = String(this.cur);
    const rndSteps = d.steps.filter((x) => x.round === step.round).length;
    this.renderAnalysis();
    this.where.textContent = `${t("replay.where", { round: step.round, rounds: d.rounds.length,
      step: step.index + 1, steps: rndSteps })}${step.index === 0 ? ` · ${t("replay.deal")}` : ""}`;
  }

  relog() {
    clear(this.log);
    const steps = this.data.steps;
    const step = steps[this.cur];
    const first = this.data.rounds[step.round - 1].first_step;
    this.dragged = dragWatch();
    for (let j = first; j <= this.cur; j++) {
      for (const e of steps[j].events) this.logEvent(e, j === this.cur);
    }
  }

  logEvent(e, latest = true) {
    const dragged = this.dragged(e);
    const text = narrate(e, { preset: this.preset, tableLang: this.tableLang, me: null, full: true,
                              who: this.who, dragged });
    const li = h("li", { class: `ev ev-${e.type}${latest ? " latest" : ""}`, text });
    this.log.append(li);
    this.log.scrollTop = this.log.scrollHeight;
  }
}
