// Learn to play: the guided first match. The frames come from the server, played by the
// engine (GET /api/learn, gnav.learn.lesson): the player's own events, the notes said
// where they happen (sentence ids of the engine's catalogue, gnav.texts.learn) and, where
// the player decides, the lesson's choice and why. This page only shows them: no rule is
// written here. A choice other than the lesson's is explained and asked again (nothing is
// played). Progress is kept in localStorage, so the lesson goes on where it was left; at
// its end it offers a real table with bots, or the table the player came from.

import { h, clear } from "./dom.js";
import { t, lang, onLang, sentence, fill } from "./i18n.js";
import { api, save } from "./api.js";
import { loadPresets, presetData, preset as getPreset, pieceName, presetTitle } from "./presets.js";
import { Board } from "./board.js";
import { emptyState, applyEvent } from "./state.js";
import { animateEvent } from "./animate.js";
import { dur, sleep } from "./settings.js";
import { setRulesContext } from "./rules.js";
import { says } from "./errors.js";

const KEY = "gnav.learn";       // {preset, frame, back}: where the lesson was left
const LEARNED = "gnav.learned";  // set once the lesson has been played to its end
export const PRESETS = ["gnav", "gnav-1917"];
// The only places a lesson sends a player back to: a table of this server.
const BACK = /^\/t\/[A-Za-z0-9_-]{1,64}$/;

export function learned() { return localStorage.getItem(LEARNED) === "1"; }

function progress() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    return {
      preset: PRESETS.includes(p.preset) ? p.preset : "gnav",
      frame: Number.isInteger(p.frame) && p.frame > 0 ? p.frame : 0,
      back: typeof p.back === "string" && BACK.test(p.back) ? p.back : null,
    };
  } catch {
    return { preset: "gnav", frame: 0, back: null };
  }
}

function keep(changes) {
  localStorage.setItem(KEY, JSON.stringify({ ...progress(), ...changes }));
}

export async function learnPage(shell) {
  await loadPresets();
  const back = new URLSearchParams(location.search).get("back");
  if (back !== null) {
    keep({ back: BACK.test(back) ? back : null });
    history.replaceState(null, "", location.pathname);
  }
  let lesson = null;
  const draw = () => {
    shell.setTitle(t("learn.ui.title"));
    if (lesson) lesson.build();
    else clear(shell.main).append(welcome((preset, frame) => {
      keep({ preset, frame });
      lesson = new Lesson(shell, preset);
      lesson.open(frame).catch((e) => {
        lesson = null;
        clear(shell.main).append(h("p", { class: "error", role: "alert", text: says(e) }));
      });
    }));
  };
  onLang(draw);
  draw();
}

// The first panel: what the lesson is, the rules it teaches, start (or go on).
function welcome(start) {
  const p = progress();
  const L = lang();
  const choice = h("fieldset", { class: "learn-presets" }, h("legend", { text: t("learn.ui.rules") }),
    PRESETS.map((name) => {
      const input = h("input", { type: "radio", name: "learn-preset", value: name, id: `learn-${name}` });
      input.checked = name === p.preset;
      return h("label", { class: "radio", for: `learn-${name}` }, input, ` ${presetTitle(presetData().byName[name], L)}`);
    }));
  const chosen = () => choice.querySelector("input:checked").value;
  const buttons = [];
  if (p.frame > 0) {
    buttons.push(h("button", { class: "btn primary", type: "button", id: "learn-resume", text: t("learn.ui.resume"),
                               onclick: () => start(p.preset, p.frame) }));
    buttons.push(h("button", { class: "btn", type: "button", id: "learn-restart", text: t("learn.ui.restart"),
                               onclick: () => start(chosen(), 0) }));
  } else {
    buttons.push(h("button", { class: "btn primary", type: "button", id: "learn-start", text: t("learn.ui.start"),
                               onclick: () => start(chosen(), 0) }));
  }
  return h("section", { class: "panel narrow-panel learn-welcome" },
    h("h1", { text: t("learn.ui.title") }), h("p", { class: "lead", text: t("learn.ui.lead") }),
    choice, h("div", { class: "buttons" }, ...buttons));
}

class Lesson {
  constructor(shell, presetName) {
    this.shell = shell;
    this.presetName = presetName;
    this.preset = getPreset(presetName);
    this.tableLang = this.preset.lang;
    this.board = new Board({ preset: this.preset, look: "pawns", score: this.preset.score,
                             tableLang: this.tableLang });
    setRulesContext({ preset: presetName, options: {}, look: "pawns" });
    this.cur = 0;
    this.token = 0;
    // S and W, as at a table: the lesson's question answered from the keyboard.
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || !this.shownFrame || !this.shownFrame.ask) return;
      const action = { s: "stand", w: "swap" }[e.key.toLowerCase()];
      if (action) { e.preventDefault(); this.choose(this.shownFrame, action); }
    });
  }

  async open(frame) {
    this.data = await api("GET", `/api/learn?preset=${encodeURIComponent(this.presetName)}`);
    this.me = this.data.me;
    this.build();
    this.goto(Math.min(frame, this.data.frames.length));
  }

  who = (name) => (name === this.me ? cap(sentence("word.reader") || "you") : name);

  build() {
    this.roundEl = h("p", { class: "where", id: "learn-round" });
    this.notesEl = h("div", { class: "learn-notes", id: "learn-notes", role: "status", "aria-live": "polite" });
    this.choiceEl = h("div", { class: "buttons learn-choice", id: "learn-choice" });
    this.log = h("ol", { class: "log", role: "log", "aria-live": "polite", tabindex: "0", "aria-label": t("play.log") });
    clear(this.shell.main).append(h("div", { class: "table-page learn-page" },
      h("div", { class: "play-area" }, h("div", { class: "stage" }, this.board.el),
        h("section", { class: "learn-panel", "aria-label": t("learn.ui.title") },
          this.roundEl, this.notesEl, this.choiceEl)),
      h("aside", { class: "side" },
        h("section", { class: "log-panel" }, h("h2", { text: t("play.log") }), this.log))));
    this.board.layout();
    if (this.data && this.st) {
      this.render();
      this.relog();
      this.say(this.shownFrame);
    }
  }

  // The state just before frame ``i``, from its round's first frame; then frame ``i`` played.
  goto(i) {
    const frames = this.data.frames;
    this.token += 1;
    keep({ preset: this.presetName, frame: i });
    if (i >= frames.length) { this.finish(); return; }
    let first = i;
    while (first > 0 && frames[first - 1].round === frames[i].round) first -= 1;
    this.st = emptyState();
    this.logged = [];  // the frames of this round told so far
    for (let j = first; j < i; j++) this.absorb(frames[j]);
    if (i > first) this.fix(frames[i - 1].view);
    this.render();
    this.relog();
    this.play(i);
  }

  absorb(frame) {
    for (const e of frame.events) applyEvent(this.st, e, this.me);
    this.logged.push(frame);
  }

  fix(view) {
    this.st.lives = { ...view.lives };
    this.st.toAct = view.to_act;
    this.st.stockLeft = view.stock_left;
    if (view.piece) this.st.myPiece = view.piece;
  }

  async play(i) {
    const frame = this.data.frames[i];
    const token = this.token;
    this.cur = i;
    this.shownFrame = null;
    this.roundEl.textContent = t("learn.ui.round", { n: frame.round, total: this.data.rounds });
    clear(this.notesEl);
    clear(this.choiceEl);
    this.st.toAct = null;
    this.logged.push({ events: [], told: {} });
    for (const e of frame.events) {
      if (token !== this.token) return;
      const apply = () => {
        applyEvent(this.st, e, this.me);
        this.render();
      };
      await animateEvent(this.board, e, { preset: this.preset, tableLang: this.tableLang, st: this.st, apply });
    }
    if (token !== this.token) return;
    this.logged[this.logged.length - 1] = frame;
    this.relog();
    this.fix(frame.view);
    this.render();
    this.shownFrame = frame;
    this.say(frame);
    if (!frame.ask && !frame.notes.length) {
      await sleep(Math.max(250, dur(700)));
      if (token === this.token) this.goto(i + 1);
    }
  }

  // The frame's notes, and its question (or Next).
  say(frame) {
    if (!frame) return;
    clear(this.notesEl);
    clear(this.choiceEl);
    for (const n of frame.notes) this.notesEl.append(h("p", { class: "learn-note", text: this.noteText(n) }));
    if (frame.ask) {
      this.notesEl.append(h("p", { class: "learn-ask", text: t("learn.ui.your_turn") }));
      for (const action of ["stand", "swap"]) {
        this.choiceEl.append(h("button", { class: "btn primary big", type: "button", id: `learn-${action}`,
                                           text: t(`learn.ui.${action}`), onclick: () => this.choose(frame, action) }));
      }
    } else if (frame.notes.length) {
      const next = h("button", { class: "btn primary big", type: "button", id: "learn-next", text: t("learn.ui.next"),
                                 onclick: () => this.goto(this.cur + 1) });
      this.choiceEl.append(next);
      next.focus({ preventScroll: true });
    }
  }

  choose(frame, action) {
    const old = this.notesEl.querySelector(".learn-why");
    if (old) old.remove();
    if (action === frame.ask.expected) { this.goto(this.cur + 1); return; }
    this.notesEl.append(h("p", { class: "learn-why", id: "learn-why", role: "alert" },
      h("strong", { text: `${t("learn.ui.not_that")} ` }), fill(sentence(frame.ask.why) || "", {})));
  }

  noteText(n) {
    const params = {};
    for (const [k, v] of Object.entries(n.params)) {
      params[k] = "piece" in v ? pieceName(this.preset, v.piece, lang()) : this.who(v.seat);
    }
    return fill(sentence(n.key) || n.key, params);
  }

  render() {
    const st = this.st;
    const names = this.data.names;
    const faces = new Map();
    for (const [seat, p] of st.revealed) faces.set(seat, p);
    for (const [seat, p] of st.shown) faces.set(seat, p);
    if (st.myPiece && !st.shown.has(this.me)) faces.set(this.me, st.myPiece);
    const start = this.data.lives;
    let pool = 0;
    for (const s of names) pool += Math.max(0, start - (st.lives[s] ?? start));
    this.board.render({
      seats: names.map((name) => ({ name, kind: name === this.me ? "human" : "bot", connected: true, shown: this.who(name) })),
      me: names.indexOf(this.me), lobby: false, inRound: new Set(st.order), dealer: st.dealer,
      toAct: st.toAct, lives: Object.fromEntries(names.map((s) => [s, st.lives[s] ?? start])), start,
      out: st.out, sittingOut: new Set(), faces, knocked: st.knocked, revealed: st.revealed, shown: st.shown,
      acted: st.acted, paid: st.paid, stockLeft: st.stockLeft, aside: st.aside, asideFaces: st.asideFaces, pool,
      caption: st.round ? t("play.round", { n: st.round }) : "",
      sub: st.toAct === this.me ? t("play.your_turn") : st.toAct ? t("play.turn_of", { name: this.who(st.toAct) }) : "",
      timer: null, winners: st.winners, replay: false, moved: st.moved,
    });
  }

  // The round so far in words: the engine's narrator tells each frame in every language
  // (gnav.learn.lesson.told), saying "you" to the player as the terminal does.
  relog() {
    clear(this.log);
    for (const frame of this.logged) {
      // The terminal's rule before a new round ("── ") is the log's own line here.
      for (const text of frame.told[lang()] || frame.told.en || []) {
        this.log.append(h("li", { class: "ev", text: text.replace(/^── /, "") }));
      }
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  // The end: the lesson is learnt; a real table with bots, or back to the friends' table.
  finish() {
    localStorage.setItem(LEARNED, "1");
    const back = progress().back;
    localStorage.removeItem(KEY);
    this.roundEl.textContent = "";
    clear(this.choiceEl);
    this.notesEl.append(h("p", { class: "learn-done", id: "learn-done", text: t("learn.ui.done") }));
    if (back) {
      this.choiceEl.append(h("a", { class: "btn primary big", id: "learn-back", href: `${back}#join`,
                                    text: t("learn.ui.back_table") }));
    }
    const error = h("p", { class: "error", role: "alert" });
    this.choiceEl.append(h("button", { class: `btn big${back ? "" : " primary"}`, type: "button", id: "learn-bots",
                                       text: t("learn.ui.play_bots"),
                                       onclick: (e) => botTable(this.presetName, e.target, error) }), error);
  }
}

// A table of four with three bots, the player seated, under the lesson's rules.
async function botTable(presetName, button, error) {
  button.disabled = true;
  const data = presetData();
  const name = (localStorage.getItem("gnav.name") || "").trim() || cap(sentence("word.reader") || "you");
  try {
    const made = await api("POST", "/api/tables", { body: {
      preset: presetName, options: {}, seats: 4, turn_timer: null, listed: false, bot: data.bot_default,
      look: data.look_default } });
    save(made.id, { host: made.host_token, invite: made.invite });
    const joined = await api("POST", `/api/tables/${made.id}/join`, { body: { name, invite: made.invite } });
    save(made.id, { seat: joined.seat, token: joined.token, name });
    for (let i = 0; i < 3; i++) await api("POST", `/api/tables/${made.id}/bots`, { body: {}, token: made.host_token });
    location.assign(`/t/${made.id}`);
  } catch (e) {
    button.disabled = false;
    error.textContent = says(e);
  }
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
