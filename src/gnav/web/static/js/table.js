// The table page: the lobby (seats, invite link, bots, start), the match (the board,
// your piece, Stand and Swap, every event animated and narrated) and the winner.
//
// One store (state.js) holds what the page knows; the panels (js/panels/) draw from it.
// This module is the conductor: it reads the server's messages, plays their events
// one by one (animated, or at once), sends the reader's decisions and says when to draw.
//
// The reader's turn never waits for an animation: the moment a message gives them the
// turn, whatever is still being shown of the moves before it jumps to its end and the
// rest is played at once (the log keeps every move), the buttons come alive, and the
// page tells the server (``shown``), whose clock for the turn then starts again.

import { h, clear, toast } from "./dom.js";
import { t, onLang } from "./i18n.js";
import { api, saved, save } from "./api.js";
import { Conn } from "./conn.js";
import { Board } from "./board.js";
import { tableStore } from "./state.js";
import { says } from "./errors.js";
import { animateEvent } from "./animate.js";
import { loadPresets } from "./presets.js";
import { speed, dur, coachOn, hurry } from "./settings.js";
import { setRulesContext, showRules } from "./rules.js";
import { busy, game, canAct, myName } from "./select.js";
import { boardModel } from "./panels/board.js";
import { ActionBar } from "./panels/action_bar.js";
import { LobbyPanel } from "./panels/lobby.js";
import { LogPanel } from "./panels/log.js";
import { HintPanel, nextHint } from "./panels/hints.js";
import { WinPanel } from "./panels/win.js";

// A hook for tests and the screenshot script: pause the animation at chosen events.
const debug = window.gnavDebug = window.gnavDebug || { pauseOn: new Set(), paused: null,
                                                       resume() {} };

// Messages played at once (speed "instant", a catch-up) are drawn at most this often
// (ms), but the reader's turn at once: a board of 41 seats drawn for each of the bots'
// 40 messages held a loaded phone, and with it the message giving the reader the turn,
// for seconds.
const DRAW_GAP = 150;

export async function tablePage(shell, tableId) {
  const page = new TablePage(shell, tableId);
  await page.start();
  return page;
}

class TablePage {
  constructor(shell, id) {
    this.shell = shell;
    this.id = id;
    this.store = tableStore();
    this.queue = [];   // the server's messages not yet played
    this.conn = null;
    this.board = null;
    this.panels = null;
    this.wantsJoin = false;
    this.coach = null;  // the coach's answer for the decision at ``coach.version``
    this.hurryTo = null;  // the message that gives the reader the turn, until it is played
    this.pumpRunning = false;  // pump() is playing the queue
    this.atOnce = false;  // the last message was played at once (it may be drawn later)
    this.drawLater = null;  // the timer of a drawing put off (``drawSoon``)
  }

  get s() { return this.store.state; }

  dispatch(action) { return this.store.dispatch(action); }

  // Keep the table's tokens (api.js, in localStorage), and tell the store.
  remember(changes) {
    this.dispatch({ type: "creds", creds: save(this.id, changes) });
  }

  async start() {
    this.dispatch({ type: "creds", creds: saved(this.id) });
    this.readFragment();
    const main = this.shell.main;
    clear(main).append(h("p", { class: "loading", text: t("table.loading") }));
    await loadPresets();
    try {
      const info = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`,
                             { token: this.s.creds.host });
      this.dispatch({ type: "table", table: info, at: performance.now(), links: info.links || null });
    } catch (e) {
      clear(main).append(h("div", { class: "panel narrow-panel" },
        h("h1", { text: t("table.none_title") }),
        h("p", { class: "error", role: "alert", dataset: { code: e.code || "" }, text: says(e) }),
        h("p", {}, h("a", { href: "/", class: "btn primary", text: t("end.new") }))));
      return;
    }
    this.setup();
    this.build();
    this.render();
    this.connect();
    onLang(() => {
      this.build();  // every panel again, in the new words (the hint too: it is in the store)
      this.render();
      // The new words change the heights round the board: lay it out again once they
      // are drawn (it would otherwise keep the old size until the window changed).
      requestAnimationFrame(() => this.board.layout());
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    // A phone fits the board and the action bar under the top bar (gnav.css), whose
    // height changes as it wraps.
    const topbar = document.querySelector(".topbar");
    if (topbar) {
      new ResizeObserver(() => document.documentElement.style.setProperty(
        "--topbar-h", `${topbar.offsetHeight}px`)).observe(topbar);
    }
    window.addEventListener("gnav-coach", () => this.render());
    setInterval(() => { if (this.panels) this.panels.actionBar.clock(this.s); }, 250);
  }

  readFragment() {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
    const changes = {};
    if (frag.get("invite")) changes.invite = frag.get("invite");
    if (frag.get("host")) changes.host = frag.get("host");
    if (Object.keys(changes).length) this.remember(changes);
    this.wantsJoin = frag.has("join") || frag.has("invite");
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  // The board for the table's game (again when its configuration changes).
  setup() {
    const cfg = this.s.info.config;
    const g = game(this.s);
    setRulesContext({ preset: cfg.preset, options: cfg.options, look: cfg.look, score: cfg.score });
    if (this.board) this.board.destroy();
    this.board = new Board({ preset: g.preset, look: cfg.look, score: g.score, tableLang: g.tableLang });
  }

  // -- layout ----------------------------------------------------------------------------

  build() {
    const main = this.shell.main;
    clear(main);
    const hostCall = (method, path, body) => this.hostCall(method, path, body);
    const lobby = new LobbyPanel({ id: this.id, hostCall, join: (name) => this.join(name) });
    lobby.focusJoin = this.wantsJoin;
    this.wantsJoin = false;
    this.panels = {
      actionBar: new ActionBar({ act: (action) => this.act(action) }),
      lobby,
      log: new LogPanel(),
      hint: new HintPanel({ dismiss: () => { this.dispatch({ type: "hint", hint: null }); this.render(); } }),
      win: new WinPanel({ id: this.id, hostCall,
                          close: () => { this.dispatch({ type: "win_closed" }); this.render(); } }),
    };
    const p = this.panels;
    const stage = h("div", { class: "stage" }, this.board.el, p.win.el);
    main.append(h("div", { class: "table-page" },
      h("div", { class: "play-area" }, stage, p.hint.el, p.actionBar.el),
      h("aside", { class: "side", "aria-label": t("play.log") }, p.lobby.el, p.log.el)));
    // A phone's board shares the screen with the action bar, not with a hint (gnav.css):
    // a hint coming and going leaves the board as it is, the page grows below instead.
    if (this.hintSize) this.hintSize.disconnect();
    this.hintSize = new ResizeObserver(() => {
      const tall = p.hint.el.offsetHeight;
      const gap = tall ? parseFloat(getComputedStyle(p.hint.el.parentElement).rowGap) || 0 : 0;
      document.documentElement.style.setProperty("--hint-h", `${tall + gap}px`);
    });
    this.hintSize.observe(p.hint.el);
    this.board.layout();
  }

  // Draw every panel from the store (a hint whose moment has passed goes first).
  render() {
    clearTimeout(this.drawLater);
    this.drawLater = null;
    const s = this.dispatch({ type: "expire" });
    if (!s.info || !this.board || !this.panels) return;
    const id = t("table.id", { id: this.id });
    this.shell.setTitle(s.you === null ? `${t("table.watching")} · ${id}`
      : `${t("table.you_are", { name: myName(s) })} · ${id}`);
    this.board.render(boardModel(s));
    this.showTurn(s);
    const p = this.panels;
    p.actionBar.render(s);
    p.actionBar.renderCoach(this.coachFor(s));
    p.lobby.render(s);
    p.win.render(s);
    p.hint.render(s);
    p.log.render(s);
  }

  // -- the connection ----------------------------------------------------------------------

  connect() {
    if (this.conn) this.conn.close();
    this.conn = new Conn(this.id, {
      hello: () => {
        const c = this.s.creds;
        const seat = Number.isInteger(c.seat) ? c.seat : null;
        return { seat, token: seat === null ? null : c.token, since: this.s.received };
      },
      onMessage: (msg, meta) => this.onMessage(msg, meta),
      onState: (state, detail) => this.onConnState(state, detail),
    });
    this.conn.open();
    // For tests: drop the connection as a failing network would.
    debug.drop = () => { if (this.conn && this.conn.ws) this.conn.ws.close(); };
  }

  onConnState(state, detail) {
    this.shell.setConn(state, detail, () => this.conn.open());
    if (state !== "stopped") return;
    if (detail.code === "bad_token" || detail.code === "bad_seat" || detail.code === "removed") {
      this.remember({ seat: null, token: null, name: null });
      toast(detail.code === "removed" ? t("conn.removed") : t("conn.bad_token"), "error");
      this.dispatch({ type: "seat_lost" });
      setTimeout(() => this.connect(), 50);
    } else if (detail.code === "replaced") {
      this.shell.setConn("replaced", {}, () => this.conn.open());
    } else if (detail.code === "no_table") {
      toast(says({ code: "no_table" }), "error");
    }
  }

  onMessage(msg, { catchUp }) {
    if (msg.type === "error") {
      if (["stale", "not_your_turn", "illegal", "closed", "not_playing"].includes(msg.code)) {
        this.dispatch({ type: "pending", action: null });
        this.render();
      }
      toast(says(msg), "error");
      return;
    }
    if (!["snapshot", "update", "table"].includes(msg.type)) return;
    if (typeof msg.version === "number") {
      this.dispatch({ type: "received", version: msg.version, snapshot: msg.type === "snapshot" });
    }
    this.queue.push({ msg, at: performance.now(), catchUp });
    if (this.givesTurn(msg)) this.hurryUp(msg);
    this.pump();
  }

  // Whether ``msg`` gives the reader the turn.
  givesTurn(msg) {
    const you = msg.type === "snapshot" ? msg.you : this.s.you;
    const table = msg.table;
    return (msg.type === "update" || msg.type === "snapshot") && Number.isInteger(you) &&
      Boolean(table) && table.phase === "playing" && table.to_act === you;
  }

  // The reader's turn has come: the moves before it are not made to wait for. What is
  // in flight jumps to its end (unless a test holds it), every wait ends, and until
  // ``msg`` is played everything plays at once.
  hurryUp(msg) {
    this.hurryTo = msg;
    if (!this.s.pumping) return;  // nothing is being shown: ``msg`` plays at once
    hurry(true);
    if (debug.paused !== null || !this.board) return;
    for (const a of this.board.el.getAnimations({ subtree: true })) {
      if (a instanceof CSSAnimation || a instanceof CSSTransition) continue;  // the styles'
      try { a.finish(); } catch { /* an endless one: it goes on */ }
    }
  }

  // The page has caught up with the reader's turn: animations are played again, and
  // what was left on the board of the moves skipped over goes.
  caughtUp() {
    this.hurryTo = null;
    hurry(false);
    if (this.board) {
      this.board.clearBubbles();
      this.board.clearArrows();
    }
  }

  // The reader's buttons have come alive for this version: the server is told, so that
  // the turn's clock starts now (``shown``, bounded by the server), and the page's
  // countdown counts from now too.
  showTurn(s) {
    if (s.liveFor === s.version || !(canAct(s, "stand") || canAct(s, "swap"))) return;
    const at = performance.now();
    const told = Boolean(this.conn && this.conn.send({ type: "shown", version: s.version }));
    this.dispatch({ type: "live", version: s.version, at, told });
  }

  async pump() {
    if (this.pumpRunning) return;
    this.pumpRunning = true;
    try {
      while (this.queue.length) {
        const item = this.queue.shift();
        // News that is no move (someone came or went, the turn's clock started again)
        // holds nobody up: the reader's live buttons stay live while it is drawn.
        if (item.msg.type !== "table") this.dispatch({ type: "busy", pumping: true });
        try {
          await this.process(item);
        } catch (e) {
          console.error(e);
        }
      }
    } finally {
      this.pumpRunning = false;
      if (this.hurryTo) this.caughtUp();  // (its message failed to play: never stay hurried)
      this.dispatch({ type: "busy", pumping: false, moving: false });
      if (this.atOnce && !canAct(this.s, "stand") && !canAct(this.s, "swap")) this.drawSoon();
      else this.render();
    }
  }

  // A drawing within DRAW_GAP ms, one for everything played meanwhile.
  drawSoon() {
    if (this.drawLater === null) this.drawLater = setTimeout(() => this.render(), DRAW_GAP);
  }

  async process(item) {
    this.atOnce = false;
    await this.processOne(item);
    if (item.msg === this.hurryTo) this.caughtUp();
  }

  async processOne({ msg, at, catchUp }) {
    if (msg.type === "snapshot") return this.snapshot(msg, at, catchUp);
    if (msg.type === "table") {
      this.dispatch({ type: "table", table: msg.table, at, version: msg.version });
      this.render();
      return;
    }
    // An update: play its events one by one, then take the server's view.
    this.dispatch({ type: "pending", action: null });
    const quick = catchUp || this.queue.length > 40 || speed() === "instant" ||
      this.hurryTo !== null;
    this.dispatch({ type: "busy", moving: !quick });
    await this.standIn(msg, quick);
    for (const e of msg.events) {
      if (quick) {
        this.dispatch({ type: "event", event: e });
        this.hints(e);
        if (debug.pauseOn.has(e.type)) await this.hold(e);
      } else {
        await this.play(e);
      }
    }
    this.dispatch({ type: "table", table: msg.table, at, version: msg.version });
    if (msg.view) this.dispatch({ type: "view", view: msg.view });
    this.dispatch({ type: "pending", action: null });
    this.dispatch({ type: "busy", moving: this.queue.length > 0 && !quick });
    if (quick) this.atOnce = true;  // drawn when the queue is played (``pump``)
    else this.render();
    this.hints(null);
  }

  // Everything again (the first message, a reconnection, a new match).
  async snapshot(msg, at, catchUp) {
    const s = this.s;
    // A reconnection of the same reader (seat or watcher) that missed nothing is told
    // where the table stands all the same: it is kept as it is drawn (the log too), and
    // a decision sent before the line was lost is pending no more (stored, the table
    // would be past this version): the reader may act again. A reader who has just
    // taken a seat gets the whole snapshot.
    if (catchUp && s.info && s.you === msg.you && s.version === msg.version &&
        s.info.games === msg.table.games) {
      this.dispatch({ type: "table", table: msg.table, at, version: msg.version });
      if (msg.view) this.dispatch({ type: "view", view: msg.view });
      this.dispatch({ type: "pending", action: null });
      this.render();
      return;
    }
    const before = s.info && s.info.config;
    // A new match (or the next one, "play again"): what the last one showed is gone.
    const fresh = !s.info || s.info.games !== msg.table.games ||
      (s.info.phase !== "playing" && msg.table.phase === "playing");
    if (fresh && !catchUp && msg.table.phase === "playing" && window.scrollY > 0) {
      window.scrollTo({ top: 0, behavior: "instant" });  // the board, not the lobby's button
    }
    // A match that starts while we watch: deal it before our eyes, like any round.
    const starting = !catchUp && s.info && s.info.phase !== "playing" &&
      msg.table.phase === "playing" && msg.view && speed() !== "instant" && this.hurryTo === null;
    this.dispatch({ type: "snapshot", table: msg.table, at, you: msg.you, version: msg.version,
                    view: msg.view || null, fresh });
    if (before && JSON.stringify(before) !== JSON.stringify(msg.table.config)) {
      this.setup();
      this.build();
    }
    const view = this.s.view;
    if (starting) {
      this.dispatch({ type: "busy", moving: true });
      for (const e of view.events) await this.play(e);
      this.dispatch({ type: "busy", moving: false });
    } else if (view) {
      for (const e of view.events) this.dispatch({ type: "event", event: e });
    }
    this.dispatch({ type: "view", view });
    this.dispatch({ type: "pending", action: null });
    this.board.clearArrows();
    this.board.clearBubbles();
    this.render();
    this.hints(null);
  }

  // One event, animated so that a person can follow it.
  async play(e) {
    const b = this.board;
    const apply = () => { this.dispatch({ type: "event", event: e }); this.render(); };
    const pause = debug.pauseOn.has(e.type);
    if (pause) b.hold = new Promise((res) => { debug.resume = () => { res(); b.hold = null; }; });
    const peak = pause ? async () => {
      // Everything in flight stops where it is until the test lets go.
      const moving = b.el.getAnimations({ subtree: true });
      for (const a of moving) a.pause();
      debug.paused = e.type;
      await b.hold;
      debug.paused = null;
      for (const a of moving) a.play();
    } : null;
    const g = game(this.s);
    await animateEvent(b, e, { preset: g.preset, tableLang: g.tableLang, st: this.s.round, apply,
                              onAnswer: (x) => this.hints(x), peak });
  }

  // Without animation, a test holds the table as it is after the event ``e``.
  async hold(e) {
    const wasMoving = this.s.moving;
    this.dispatch({ type: "busy", moving: true });  // nobody may act while it is held
    this.render();
    await new Promise((res) => {
      debug.paused = e.type;
      debug.resume = () => { debug.paused = null; res(); };
    });
    this.dispatch({ type: "busy", moving: wasMoving });
  }

  // A person's turn played by a bot (the timer ran out, or they are away): the log says
  // so, the board shows it until that person plays again.
  async standIn(msg, quick) {
    const first = msg.events[0];
    const seat = first && (first.type === "stand" || first.type === "ask") ? first.seat : null;
    const by = msg.by && typeof msg.by.seat === "string"
      ? { seat: msg.by.seat, how: msg.by.how === "timer" ? "timer" : "standin" } : null;
    this.dispatch({ type: "decision", seat, by });
    if (by && !quick) {  // said before the bot's move is shown, not over it
      this.render();
      await this.board.bubble(by.seat, t(by.how === "timer" ? "play.time_up" : "play.stand_in"),
                              { kind: "standin", ms: dur(1100) });
    }
  }

  // The hint this moment calls for, if any, shown at once.
  hints(e) {
    const s = this.dispatch({ type: "expire" });
    const hint = nextHint(s, e);
    if (hint) this.dispatch({ type: "hint", hint });
    if (this.panels) this.panels.hint.render(this.s);
  }

  // -- the coach ---------------------------------------------------------------------------

  // What the coach shows now (null: nothing). It is asked once per decision, only when
  // the reader turned it on, only at their own turn, with their own seat's token: the
  // server answers from that seat's view and marks the decision as coached.
  coachFor(s) {
    const v = s.view;
    const mine = s.you !== null && s.info.phase === "playing" && v && v.to_act === myName(s) &&
      s.round.toAct === myName(s) && (v.legal || []).length > 0 && !busy(s);
    if (!coachOn() || !mine) return null;
    if (s.info.config.coaching === false) return { state: "off_here" };
    if (!this.coach || this.coach.version !== s.version) {
      this.coach = { version: s.version, state: "asking" };
      this.askCoach(s.version, s.you, s.creds.token);
    }
    const { version, ...shown } = this.coach;
    return shown;
  }

  async askCoach(version, seat, token) {
    let got;
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/seats/${seat}/coach`,
                          { token, body: {} });
      got = r.advice ? { state: "advice", advice: r.advice } : { state: "none" };
    } catch (e) {
      got = { state: "error", text: says(e) };
    }
    if (!this.coach || this.coach.version !== version) return;  // the table moved on
    this.coach = { version, ...got };
    if (this.panels) this.panels.actionBar.renderCoach(this.coachFor(this.s));
  }

  // -- acting ------------------------------------------------------------------------------

  act(action) {
    if (!canAct(this.s, action)) return;
    if (this.conn.send({ type: "act", action, version: this.s.version })) {
      this.dispatch({ type: "pending", action });
      this.render();
    }
  }

  onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || document.querySelector("dialog[open]")) return;
    const k = e.key.toLowerCase();
    if (k === "s") { e.preventDefault(); this.act("stand"); }
    else if (k === "w") { e.preventDefault(); this.act("swap"); }
    else if (e.key === "?") { e.preventDefault(); showRules(); }
  }

  async hostCall(method, path, body) {
    try {
      await api(method, `/api/tables/${encodeURIComponent(this.id)}/${path}`,
                { token: this.s.creds.host, body });
    } catch (e) {
      toast(says(e), "error");
    }
  }

  async join(raw) {
    const name = raw.trim();
    if (!name) {  // said next to the field, before asking the server
      this.dispatch({ type: "join_error", text: says({ code: raw ? "name_blank" : "name_empty" }) });
      this.render();
      document.getElementById("join-name").focus();
      return;
    }
    localStorage.setItem("gnav.name", name);
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/join`,
                          { body: { name, invite: this.s.creds.invite || null } });
      this.remember({ seat: r.seat, token: r.token, name });
      this.dispatch({ type: "joined" });
      this.connect();
    } catch (e) {
      this.dispatch({ type: "join_error", text: says(e) });
      this.render();
    }
  }
}
