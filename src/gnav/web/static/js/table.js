// The table page: the lobby (seats, invite link, bots, start), the match (the board,
// your piece, Stand and Swap, every event animated and narrated) and the winner.

import { h, clear, toast } from "./dom.js";
import { t, lang, onLang } from "./i18n.js";
import { api, saved, save } from "./api.js";
import { Conn } from "./conn.js";
import { Board } from "./board.js";
import { emptyState, applyEvent, reconcile } from "./state.js";
import { narrate, dragWatch } from "./narrate.js";
import { says, nameLimit, NAME_MAX } from "./errors.js";
import { namer } from "./names.js";
import { pieceSVG, crownSVG } from "./pieces.js";
import { animateEvent } from "./animate.js";
import { loadPresets, preset as getPreset, piece, pieceName, pieceCall,
         effectiveOptions } from "./presets.js";
import { speed, hintsOn, setHints, dur } from "./settings.js";
import { setRulesContext, showRules } from "./rules.js";

const LOG_MAX = 300;

// Hints about the reader's own turn: they go once the turn has passed.
const TURN_HINTS = /^(first_turn|dealer|fool_mine|matador:|fool_left:)/;

// A hook for tests and the screenshot script: pause the animation at chosen events.
const debug = window.gnavDebug = window.gnavDebug || { pauseOn: new Set(), paused: null,
                                                       resume() {} };

export async function tablePage(shell, tableId) {
  const page = new TablePage(shell, tableId);
  await page.start();
  return page;
}

class TablePage {
  constructor(shell, id) {
    this.shell = shell;
    this.id = id;
    this.info = null;
    this.links = null;
    this.you = null;
    this.version = null;
    this.received = null;
    this.view = null;
    this.st = emptyState();
    this.queue = [];
    this.pumping = false;
    this.animating = false;
    this.pending = null;
    this.infoAt = performance.now();
    this.logEntries = [];
    this.hintNow = null;  // {id, text()}: the hint shown
    this.conn = null;
    this.board = null;
    this.tick = null;
    this.joinError = "";
    this.dragged = dragWatch();
    // Seat name -> how ("timer" or "standin"): a bot played for that person, and the
    // board says so until they play again themselves (the latest two are shown).
    this.notes = new Map();
  }

  // The name a seat is shown by (one per bot everywhere: names.js).
  get who() {
    const seats = this.info ? this.info.seats : [];
    const bots = new Set(seats.filter((s) => s.kind === "bot").map((s) => s.name));
    return namer(bots, seats.map((s) => s.name));
  }

  get creds() { return saved(this.id); }

  get myName() {
    if (this.you === null || !this.info) return null;
    const s = this.info.seats[this.you];
    return s ? (s.name ?? `Seat ${this.you + 1}`) : null;
  }

  async start() {
    this.readFragment();
    const main = this.shell.main;
    clear(main).append(h("p", { class: "loading", text: t("table.loading") }));
    await loadPresets();
    try {
      const info = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`,
                             { token: this.creds.host });
      this.info = info;
      this.links = info.links || null;
    } catch (e) {
      clear(main).append(h("div", { class: "panel narrow-panel" },
        h("h1", { text: t("table.none_title") }),
        h("p", { class: "error", role: "alert", dataset: { code: e.code || "" }, text: says(e) }),
        h("p", {}, h("a", { href: "/", class: "btn primary", text: t("end.new") }))));
      return;
    }
    this.setup();
    this.build();
    this.renderAll();
    this.connect();
    onLang(() => {
      const hint = this.hintNow;
      this.build();
      this.relog();
      if (hint) this.showHint(hint.id, hint.text);  // the same hint, in the new words
      this.renderAll();
      // The new words change the heights round the board: lay it out again once they
      // are drawn (it would otherwise keep the old size until the window changed).
      requestAnimationFrame(() => this.board.layout());
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    this.tick = setInterval(() => this.renderClock(), 250);
  }

  readFragment() {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
    const changes = {};
    if (frag.get("invite")) changes.invite = frag.get("invite");
    if (frag.get("host")) changes.host = frag.get("host");
    if (Object.keys(changes).length) save(this.id, changes);
    this.wantsJoin = frag.has("join") || frag.has("invite");
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  setup() {
    const cfg = this.info.config;
    this.preset = getPreset(cfg.preset);
    this.options = effectiveOptions(this.preset, cfg.options);
    this.tableLang = cfg.lang || this.preset.lang;
    setRulesContext({ preset: cfg.preset, options: cfg.options, look: cfg.look, score: cfg.score });
    if (this.board) this.board.destroy();
    this.board = new Board({ preset: this.preset, look: cfg.look, score: cfg.score || this.preset.score,
                             tableLang: this.tableLang });
  }

  // -- layout ----------------------------------------------------------------------------

  build() {
    const main = this.shell.main;
    clear(main);
    this.standBtn = h("button", { class: "btn act stand", type: "button", "aria-keyshortcuts": "S",
                                  onclick: () => this.act("stand") },
      h("span", { class: "act-label", text: t("play.stand") }), h("kbd", { text: "S" }));
    this.swapBtn = h("button", { class: "btn act swap", type: "button", "aria-keyshortcuts": "W",
                                 onclick: () => this.act("swap") },
      h("span", { class: "act-label", text: t("play.swap") }), h("kbd", { text: "W" }));
    this.handPiece = h("div", { class: "hand-piece" });
    this.handName = h("div", { class: "hand-name" });
    this.handDoes = h("div", { class: "hand-does" });
    this.statusLine = h("p", { class: "status-line", id: "turn-status", "aria-live": "polite" });
    this.clock = h("span", { class: "clock", "aria-hidden": "true" });
    this.hintBox = h("div", { class: "hint-slot" });
    this.actionBar = h("section", { class: "action-bar", "aria-label": t("play.your_piece") },
      h("div", { class: "hand" }, this.handPiece, h("div", { class: "hand-text" },
        h("div", { class: "hand-title", text: t("play.your_piece") }), this.handName, this.handDoes)),
      h("div", { class: "controls" }, h("div", { class: "status-row" }, this.statusLine, this.clock),
        h("div", { class: "buttons" }, this.standBtn, this.swapBtn)));
    this.log = h("ol", { class: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions",
                         "aria-label": t("play.log"), tabindex: "0" });
    this.side = h("div", { class: "side-main" });
    this.winBox = h("div", { class: "win-slot" });
    const stage = h("div", { class: "stage" }, this.board.el, this.winBox);
    main.append(h("div", { class: "table-page" },
      h("div", { class: "play-area" }, stage, this.hintBox, this.actionBar),
      h("aside", { class: "side", "aria-label": t("play.log") }, this.side,
        h("section", { class: "log-panel" }, h("h2", { text: t("play.log") }), this.log))));
    this.board.layout();
  }

  // -- the connection ----------------------------------------------------------------------

  connect() {
    if (this.conn) this.conn.close();
    this.conn = new Conn(this.id, {
      hello: () => {
        const c = this.creds;
        const seat = Number.isInteger(c.seat) ? c.seat : null;
        return { seat, token: seat === null ? null : c.token, since: this.received };
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
      save(this.id, { seat: null, token: null, name: null });
      toast(detail.code === "removed" ? t("conn.removed") : t("conn.bad_token"), "error");
      this.you = null;
      this.received = null;
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
        this.pending = null;
        this.renderControls();
      }
      toast(says(msg), "error");
      return;
    }
    if (!["snapshot", "update", "table"].includes(msg.type)) return;
    if (typeof msg.version === "number") this.received = Math.max(this.received ?? 0, msg.version);
    if (msg.type === "snapshot") this.received = msg.version;
    this.queue.push({ msg, at: performance.now(), catchUp });
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const item = this.queue.shift();
        try {
          await this.process(item);
        } catch (e) {
          console.error(e);
        }
      }
    } finally {
      this.pumping = false;
      this.animating = false;
      this.renderAll();
    }
  }

  async process({ msg, at, catchUp }) {
    if (msg.type === "snapshot") {
      const before = this.info && this.info.config;
      // A new match (or the next one, "play again"): what the last one showed is gone.
      const fresh = !this.info || this.info.games !== msg.table.games ||
        (this.info.phase !== "playing" && msg.table.phase === "playing");
      if (fresh) {
        this.dismissHint();
        this.notes.clear();
        if (!catchUp && msg.table.phase === "playing" && window.scrollY > 0) {
          window.scrollTo({ top: 0, behavior: "instant" });  // the board, not the lobby's button
        }
      }
      // A match that starts while we watch: deal it before our eyes, like any round.
      const starting = !catchUp && this.info && this.info.phase !== "playing" &&
        msg.table.phase === "playing" && msg.view && speed() !== "instant";
      this.info = msg.table;
      this.infoAt = at;
      this.you = msg.you;
      this.version = msg.version;
      this.view = msg.view || null;
      if (before && JSON.stringify(before) !== JSON.stringify(msg.table.config)) {
        this.setup();
        this.build();
      }
      this.st = emptyState();
      this.logEntries = [];
      clear(this.log);
      this.dragged = dragWatch();
      if (starting) {
        this.animating = true;
        for (const e of this.view.events) await this.play(e);
        reconcile(this.st, this.view);
        this.animating = false;
      } else if (this.view) {
        for (const e of this.view.events) {
          applyEvent(this.st, e, this.myName);
          this.addLog(e);
        }
        reconcile(this.st, this.view);
      }
      this.pending = null;
      this.board.clearArrows();
      this.board.clearBubbles();
      this.renderAll();
      this.hints(null);
      return;
    }
    if (msg.type === "table") {
      this.info = msg.table;
      this.infoAt = at;
      this.version = msg.version;
      this.renderAll();
      return;
    }
    // An update: play its events one by one, then take the server's view.
    this.pending = null;
    const quick = catchUp || this.queue.length > 40 || speed() === "instant";
    this.animating = !quick;
    await this.standIn(msg, quick);
    for (const e of msg.events) {
      if (quick) {
        applyEvent(this.st, e, this.myName);
        this.addLog(e);
        this.hints(e);
        if (debug.pauseOn.has(e.type)) await this.hold(e);
      } else {
        await this.play(e);
      }
    }
    this.info = msg.table;
    this.infoAt = at;
    this.version = msg.version;
    if (msg.view) {
      this.view = msg.view;
      reconcile(this.st, this.view);
    }
    this.pending = null;
    this.animating = this.queue.length > 0 && !quick;
    this.renderAll();
    this.hints(null);
  }

  // One event, animated so that a person can follow it.
  async play(e) {
    const b = this.board;
    const me = this.myName;
    const apply = () => { applyEvent(this.st, e, me); this.addLog(e); this.renderAll(); };
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
    await animateEvent(b, e, { preset: this.preset, tableLang: this.tableLang, st: this.st, apply,
                              onAnswer: (x) => this.hints(x), peak });
  }

  // Without animation, a test holds the table as it is after the event ``e``.
  async hold(e) {
    const wasAnimating = this.animating;
    this.animating = true;  // nobody may act while it is held
    this.renderAll();
    await new Promise((res) => {
      debug.paused = e.type;
      debug.resume = () => { debug.paused = null; res(); };
    });
    this.animating = wasAnimating;
  }

  // -- acting ------------------------------------------------------------------------------

  canAct(action) {
    const v = this.view;
    return Boolean(this.info && this.info.phase === "playing" && v && this.you !== null &&
      !this.animating && !this.pumping && this.pending === null && this.st.toAct === this.myName &&
      v.to_act === this.myName && (v.legal || []).includes(action));
  }

  act(action) {
    if (!this.canAct(action)) return;
    if (this.conn.send({ type: "act", action, version: this.version })) {
      this.pending = action;
      this.dismissHint();
      this.renderControls();
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

  // -- drawing -----------------------------------------------------------------------------

  model() {
    const info = this.info;
    const st = this.st;
    const lobby = info.phase === "lobby" || st.round === 0;
    const who = this.who;
    const seats = info.seats.map((s, i) => ({ name: s.name ?? `Seat ${i + 1}`, kind: s.kind,
                                              connected: s.connected, bot: s.bot,
                                              shown: who(s.name ?? `Seat ${i + 1}`) }));
    const me = this.myName;
    const faces = new Map();
    for (const [s, p] of st.revealed) faces.set(s, p);
    for (const [s, p] of st.shown) faces.set(s, p);
    if (me && st.myPiece && !st.shown.has(me)) faces.set(me, st.myPiece);
    const start = this.options.lives;
    const lives = {};
    for (const s of seats) {
      if (s.kind === "empty" && lobby) continue;
      lives[s.name] = st.lives[s.name] ?? start;
    }
    let pool = 0;
    if (!lobby) for (const s of seats) pool += Math.max(0, start - (lives[s.name] ?? start));
    const toAct = this.animating || this.pumping ? null : st.toAct;
    let timer = null;
    if (toAct && info.timer_left !== null && info.timer_left !== undefined) {
      timer = { name: toAct, deadline: this.infoAt + info.timer_left * 1000,
                total: Math.max(info.config.turn_timer || 0, info.timer_left, 1) };
    }
    let caption = "", sub = "";
    if (info.phase === "lobby") {
      caption = t("wait.heading");
      sub = t("wait.host");
    } else if (st.round) {
      caption = t("play.round", { n: st.round });
      sub = toAct === null ? "" : toAct === me ? t("play.your_turn") : t("play.turn_of", { name: who(toAct) });
    }
    const note = info.phase !== "playing" ? "" : [...this.notes].slice(-2).map(([seat, how]) =>
      narrate({ type: "standin", seat, how }, { preset: this.preset, tableLang: this.tableLang, me, who }))
      .join(" ");
    return {
      seats, me: this.you, lobby, inRound: new Set(lobby ? [] : st.order), dealer: lobby ? null : st.dealer,
      toAct, lives, start, out: st.out, sittingOut: lobby ? new Set() : st.sittingOut, faces,
      knocked: st.knocked, revealed: st.revealed, shown: st.shown, acted: st.acted, paid: st.paid,
      stockLeft: st.stockLeft, aside: st.aside, asideFaces: st.asideFaces, pool, caption, sub, timer,
      winners: st.winners, replay: false, moved: st.moved, note,
    };
  }

  renderAll() {
    if (!this.info || !this.board) return;
    this.shell.setTitle(this.you === null ? `${t("table.watching")} · ${t("table.id", { id: this.id })}`
      : `${t("table.you_are", { name: this.myName })} · ${t("table.id", { id: this.id })}`);
    this.board.render(this.model());
    this.renderHand();
    this.renderControls();
    this.renderSide();
    this.renderWin();
  }

  renderHand() {
    const me = this.myName;
    const p = this.preset;
    const L = lang();
    const inRound = me && this.st.order.includes(me) && this.info.phase !== "lobby";
    this.actionBar.hidden = this.you === null;
    const id = inRound ? this.st.myPiece : null;
    const key = `${id}:${L}:${this.info.config.look}`;
    if (this.handPiece.dataset.key !== key) {
      this.handPiece.dataset.key = key;
      clear(this.handPiece);
      if (id) this.handPiece.append(pieceSVG(p, id, { look: this.info.config.look, lang: L }));
    }
    if (!inRound) {
      this.handName.textContent = this.info.phase === "lobby" ? ""
        : me && this.st.out.has(me) ? t("play.you_out") : t("play.no_piece");
      this.handDoes.textContent = "";
      return;
    }
    this.handName.textContent = id ? pieceName(p, id, L) : "";
    const x = id ? piece(p, id) : null;
    let does = x ? (x.does[L] || x.does.en || "") : "";
    if (x && x.power) {
      const call = pieceCall(p, id, this.tableLang);
      does = `«${call}» ${does}`;
    }
    this.handDoes.textContent = does;
    this.actionBar.classList.toggle("k-matador", Boolean(x && x.power));
    this.actionBar.classList.toggle("k-fool", Boolean(x && x.fool));
  }

  leftOf(name) {
    const order = this.st.order;
    const i = order.indexOf(name);
    return i >= 0 && i + 1 < order.length ? order[i + 1] : null;
  }

  renderControls() {
    if (!this.standBtn) return;
    const stand = this.canAct("stand"), swap = this.canAct("swap");
    this.standBtn.disabled = !stand;
    this.swapBtn.disabled = !swap;
    const me = this.myName;
    const left = me ? this.leftOf(me) : null;
    this.standBtn.title = t("play.stand_help");
    this.standBtn.setAttribute("aria-label", t("play.stand_help"));
    const swapText = left ? t("play.swap_with", { name: this.who(left) }) : t("play.swap_stock");
    this.swapBtn.title = swapText;
    this.swapBtn.setAttribute("aria-label", swapText);
    this.actionBar.classList.toggle("my-turn", stand || swap);
    const status = this.status(stand || swap);
    if (this.statusLine.textContent !== status) this.statusLine.textContent = status;
    this.expireHint();
    this.renderClock();
  }

  // The line under the buttons: what is true for the reader now.
  status(canAct) {
    const info = this.info, st = this.st, me = this.myName;
    if (this.you === null) return t("status.watching");
    if (info.phase === "lobby") return t("wait.host");
    if (info.phase === "finished") return t("status.over");
    if (this.pending) return t("play.sent");
    if (canAct) return t("play.your_turn");
    if (me && st.out.has(me)) return t("status.out");
    if (st.shown.size || st.ended) return t("status.showdown");
    if (me && st.sittingOut.has(me)) return t("status.sitting_out");
    if (me && st.round && !st.order.includes(me)) return t("status.watching");
    if (this.animating || this.pumping) return t("status.moving");
    if (st.toAct && st.toAct !== me) return t("play.turn_of", { name: this.who(st.toAct) });
    return t("status.moving");
  }

  // A person's turn played by a bot (the timer ran out, or they are away): the log says
  // so, the board shows it until that person plays again.
  async standIn(msg, quick) {
    const first = msg.events[0];
    // The reader's own decision, whoever made it: the turn (and its hint) has passed.
    if (first && (first.type === "stand" || first.type === "ask") && first.seat === this.myName) {
      if (this.hintNow && TURN_HINTS.test(this.hintNow.id)) this.dismissHint();
    }
    if (msg.by && typeof msg.by.seat === "string") {
      const seat = msg.by.seat, how = msg.by.how === "timer" ? "timer" : "standin";
      this.notes.delete(seat);
      this.notes.set(seat, how);
      this.addLog({ type: "standin", seat, how });
      if (!quick) {  // said before the bot's move is shown, not over it
        this.renderAll();
        await this.board.bubble(seat, t(how === "timer" ? "play.time_up" : "play.stand_in"),
                                { kind: "standin", ms: dur(1100) });
      }
    } else if (first && (first.type === "stand" || first.type === "ask")) {
      this.notes.delete(first.seat);  // the person plays again
    }
  }

  renderClock() {
    if (!this.info || !this.clock) return;
    const left = this.info.timer_left;
    if (left === null || left === undefined || this.animating || this.pumping || !this.st.toAct ||
        this.info.phase !== "playing") {
      this.clock.textContent = "";
      return;
    }
    const secs = Math.max(0, Math.ceil(left - (performance.now() - this.infoAt) / 1000));
    this.clock.textContent = t("play.seconds", { s: secs });
    this.clock.classList.toggle("urgent", secs <= 5);
  }

  // The side panel: the lobby's seats and links, or joining, or nothing but the log.
  renderSide() {
    const info = this.info;
    const c = this.creds;
    const isHost = Boolean(c.host);
    const side = this.side;
    const key = JSON.stringify([info.phase, info.seats, this.you, isHost, c.invite, lang(),
                                this.joinError, this.links]);
    if (side.dataset.key === key) return;
    side.dataset.key = key;
    clear(side);
    if (info.phase !== "lobby") {
      if (this.you === null) side.append(h("p", { class: "note", text: t("join.started") }));
      return;
    }
    const panel = h("section", { class: "panel lobby-panel" }, h("h2", { text: t("wait.heading") }));
    const list = h("ol", { class: "seat-list" });
    info.seats.forEach((s, i) => {
      const who = s.kind === "empty" ? t("seat.empty") : this.who(s.name);
      const notes = [];
      if (s.kind === "bot") notes.push(t("seat.bot"));
      if (i === this.you) notes.push(t("seat.you"));
      if (s.kind === "human" && !s.connected && i !== this.you) notes.push(t("seat.away"));
      const li = h("li", { class: `seat-line ${s.kind}` },
        h("span", { class: "seat-no", text: `${i + 1}.` }), h("span", { class: "who", text: who }),
        notes.length ? h("span", { class: "muted", text: ` (${notes.join(", ")})` }) : null);
      if (isHost && s.kind !== "empty" && i !== this.you) {
        li.append(h("button", { class: "btn small ghost", type: "button",
          onclick: () => this.hostCall("DELETE", `seats/${i}`), text: "×",
          "aria-label": t("wait.free", { n: i + 1 }), title: t("wait.free", { n: i + 1 }) }));
      }
      list.append(li);
    });
    panel.append(h("h3", { text: t("wait.seats") }), list);
    const empty = info.seats.filter((s) => s.kind === "empty").length;
    if (isHost) {
      panel.append(h("div", { class: "row" },
        h("button", { class: "btn", type: "button", disabled: empty === 0,
                      onclick: () => this.hostCall("POST", "bots", {}) }, t("wait.add_bot")),
        h("button", { class: "btn primary", type: "button", id: "start-match",
                      onclick: () => this.hostCall("POST", "start", {}) }, t("wait.start"))));
    } else {
      panel.append(h("p", { class: "muted", text: t("wait.host") }));
    }
    const invite = (this.links && this.links.invite) ||
      (c.invite ? `${location.origin}/t/${this.id}#invite=${c.invite}` : null);
    const code = invite ? invite.split("#invite=")[1] : null;
    if (invite) {
      panel.append(copyField(t("wait.invite"), invite, "invite-link"));
      panel.append(copyField(t("wait.code"), `${this.id}:${code}`, "invite-code"));
    }
    panel.append(copyField(t("wait.watch"), `${location.origin}/t/${this.id}`, "watch-link"));
    if (this.you === null) {
      if (c.invite || info.config.listed) {
        const name = h("input", { id: "join-name", name: "name", maxlength: String(NAME_MAX),
                                  autocomplete: "nickname", "aria-describedby": "join-name-error",
                                  value: (localStorage.getItem("gnav.name") || "").slice(0, NAME_MAX) });
        const note = h("p", { class: "error", role: "alert", id: "join-name-error", text: this.joinError });
        nameLimit(name, note);
        const form = h("form", { class: "join-form", novalidate: true,
                                 onsubmit: (e) => { e.preventDefault(); this.join(name.value); } },
          h("label", { for: "join-name", text: t("create.name") }),
          h("div", { class: "row" }, name, h("button", { class: "btn primary", type: "submit", text: t("join.sit") })),
          note);
        side.append(form);
        if (this.wantsJoin) { setTimeout(() => name.focus(), 0); this.wantsJoin = false; }
      } else {
        side.append(h("p", { class: "note", text: t("join.watch_only") }));
      }
    }
    side.append(panel);
  }

  async hostCall(method, path, body) {
    try {
      await api(method, `/api/tables/${encodeURIComponent(this.id)}/${path}`,
                { token: this.creds.host, body });
    } catch (e) {
      toast(says(e), "error");
    }
  }

  async join(raw) {
    const name = raw.trim();
    if (!name) {  // said next to the field, before asking the server
      this.joinError = says({ code: "name_blank" });
      this.side.dataset.key = "";
      this.renderSide();
      document.getElementById("join-name").focus();
      return;
    }
    localStorage.setItem("gnav.name", name);
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/join`,
                          { body: { name, invite: this.creds.invite || null } });
      save(this.id, { seat: r.seat, token: r.token, name });
      this.joinError = "";
      this.received = null;
      this.connect();
    } catch (e) {
      this.joinError = says(e);
      this.side.dataset.key = "";
      this.renderSide();
    }
  }

  renderWin() {
    const st = this.st;
    const show = this.info.phase === "finished" && st.winners && !this.animating && !this.pumping;
    const key = show ? JSON.stringify([st.winners, lang(), this.info.games, Boolean(this.creds.host)]) : "";
    if (this.winBox.dataset.key === key) return;
    this.winBox.dataset.key = key;
    clear(this.winBox);
    if (!show) return;
    const me = this.myName;
    const who = this.who;
    this.dismissHint();  // the winner screen is no moment for a hint
    const title = st.winners.length === 1
      ? (st.winners[0] === me ? t("end.you_win") : t("end.wins", { name: who(st.winners[0]) }))
      : t("end.shared", { names: st.winners.map(who).join(", ") });
    const crown = h("div", { class: "win-crown", "aria-hidden": "true" });
    crown.append(crownSVG());
    const dlg = h("section", { class: "win-panel", role: "dialog", "aria-modal": "false",
                               "aria-labelledby": "win-title" },
      crown, h("h2", { id: "win-title", text: title }),
      h("div", { class: "row" },
        this.creds.host ? h("button", { class: "btn primary", type: "button",
          onclick: () => this.hostCall("POST", "start", {}) }, t("end.again")) : null,
        h("a", { class: "btn", href: `/replay?table=${encodeURIComponent(this.id)}&game=${this.info.games}` },
          t("end.replay")),
        h("a", { class: "btn ghost", href: "/" }, t("end.new")),
        h("button", { class: "btn ghost", type: "button", onclick: () => { clear(this.winBox); } },
          t("end.close"))),
      this.creds.host ? null : h("p", { class: "muted", text: t("end.wait_again") }));
    this.winBox.append(dlg);
    const first = dlg.querySelector("button, a");
    if (first) first.focus({ preventScroll: true });
    if (me && hintsOn()) setHints(false);  // the first game is over: no more hints
  }

  // -- the log -----------------------------------------------------------------------------

  addLog(e) {
    const entry = { e, me: this.myName, dragged: this.dragged(e) };
    this.logEntries.push(entry);
    if (this.logEntries.length > LOG_MAX) this.logEntries.shift();
    this.log.append(this.logLine(entry));
    while (this.log.children.length > LOG_MAX) this.log.firstChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  logLine({ e, me, dragged }) {
    const text = narrate(e, { preset: this.preset, tableLang: this.tableLang, me, full: false,
                              who: this.who, dragged });
    return h("li", { class: `ev ev-${e.type}`, text });
  }

  relog() {
    clear(this.log);
    for (const entry of this.logEntries) this.log.append(this.logLine(entry));
    this.log.scrollTop = this.log.scrollHeight;
  }

  // -- hints for the first game ------------------------------------------------------------

  hints(e) {
    this.expireHint();
    if (!hintsOn() || this.you === null || !this.info || this.info.phase !== "playing") return;
    const p = this.preset, me = this.myName, st = this.st;
    // Only a player in this round gets hints: not one who is out, or sits it out.
    if (!me || st.out.has(me) || !st.order.includes(me) || st.winners) return;
    const seen = new Set(JSON.parse(sessionStorage.getItem("gnav.hints.seen") || "[]"));
    // ``text`` makes the words (again, in a new language, if the reader switches).
    const show = (id, text) => {
      if (seen.has(id) && !id.startsWith("fool_left")) return;
      seen.add(id);
      sessionStorage.setItem("gnav.hints.seen", JSON.stringify([...seen]));
      this.showHint(id, text);
    };
    const does = (id) => (piece(p, id).does[lang()] || "");
    if (e && e.type === "answer") {
      const id = e.piece;
      show(`answered:${id}`, () => t("hint.answered", { piece: pieceName(p, id, lang()),
        call: pieceCall(p, id, this.tableLang), does: does(id) }));
      return;
    }
    if (e || this.animating || st.toAct !== me || !this.view || !(this.view.legal || []).length) return;
    const left = this.leftOf(me);
    const mine = st.myPiece;
    const swappedLeft = st.swaps.some(([a, b]) => a === left || b === left);
    if (left && st.knocked.has(left) && !swappedLeft && !(mine && piece(p, mine).fool)) {
      show(`fool_left:${st.round}`, () => t("hint.fool_left", { left: this.who(left) }));
    } else if (mine && piece(p, mine).power) {
      show(`matador:${mine}`, () => t("hint.matador", { piece: pieceName(p, mine, lang()),
        call: pieceCall(p, mine, this.tableLang), does: does(mine) }));
    } else if (mine && piece(p, mine).fool) {
      show("fool_mine", () => t("hint.fool_mine", { drag: this.options.drag ? t("hint.drag") : "" }));
    } else if (!left) {
      show("dealer", () => t("hint.dealer"));
    } else {
      show("first_turn", () => t("hint.first_turn", { left: this.who(left) }));
    }
  }

  showHint(id, text) {
    clear(this.hintBox);
    this.hintNow = { id, text };
    const box = h("aside", { class: "hint", role: "note", "aria-label": t("hint.title"), dataset: { hint: id } },
      h("strong", { text: `${t("hint.title")}: ` }), h("span", { text: text() }),
      h("div", { class: "row" },
        h("button", { class: "btn small", type: "button", onclick: () => this.dismissHint() }, t("hint.ok")),
        h("button", { class: "btn small ghost", type: "button",
                      onclick: () => { setHints(false); this.dismissHint(); } }, t("hint.off"))));
    this.hintBox.append(box);
  }

  dismissHint() {
    this.hintNow = null;
    if (this.hintBox) clear(this.hintBox);
  }

  // A hint whose moment has passed goes: a turn hint once the turn is over, any hint
  // once the round (or the match) is over or the reader is out of it.
  expireHint() {
    const box = this.hintBox && this.hintBox.firstChild;
    if (!box) return;
    const id = box.dataset.hint || "";
    const st = this.st, me = this.myName;
    const over = !this.info || this.info.phase !== "playing" || st.ended || Boolean(st.winners) ||
      !me || st.out.has(me) || !st.order.includes(me);
    const turnGone = TURN_HINTS.test(id) && !this.animating && !this.pumping &&
      (this.pending !== null || st.toAct !== me);
    if (over || turnGone) this.dismissHint();
  }
}

function copyField(label, value, id) {
  const input = h("input", { id, readonly: true, value, class: "copy-input",
                             onfocus: (e) => e.target.select() });
  const btn = h("button", { class: "btn small", type: "button", text: t("wait.copy") });
  btn.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      document.execCommand && document.execCommand("copy");
    }
    btn.textContent = t("wait.copied");
    setTimeout(() => { btn.textContent = t("wait.copy"); }, 1500);
  });
  return h("div", { class: "copy-field" }, h("label", { for: id, text: label }), h("div", { class: "row" }, input, btn));
}
