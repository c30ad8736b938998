// The table drawn: seats round an oval (the reader at the bottom, play going clockwise,
// so each seat's left neighbour is the next one round), the stock, the pieces set aside
// and the pool in the middle; and the animations that let a person follow each event.

import { h, clear, toast } from "./dom.js";
import { pieceSVG, livesEl, svgEl, tokenEl } from "./pieces.js";
import { pieceName } from "./presets.js";
import { t, lang } from "./i18n.js";
import { hurrying, reducedMotion, sleep } from "./settings.js";

const EASE = "cubic-bezier(.45,.05,.35,1)";

export class Board {
  constructor(opts) {
    this.opts = opts;  // {preset, look, score, tableLang}
    this.el = h("section", { class: "board", "aria-label": t("table.label") });
    this.felt = h("div", { class: "felt", "aria-hidden": "true" });
    this.caption = h("div", { class: "caption" });
    this.sub = h("div", { class: "caption-sub" });
    this.noteEl = h("div", { class: "caption-note", role: "status" });
    this.stockPile = pile("stock");
    this.asidePile = pile("aside");
    this.poolPile = pile("pool");
    this.centerSlot = h("div", { class: "center-slot" });
    this.center = h("div", { class: "center" }, this.caption, this.sub, this.noteEl,
      h("div", { class: "piles" }, this.stockPile.el, this.asidePile.el, this.poolPile.el),
      this.centerSlot);
    this.seatBox = h("ol", { class: "seats" });
    // The knock mark's meaning is its tooltip, which a phone never shows: a tap on a
    // knocked seat (its "!" is too small a target on its own) says it.
    this.seatBox.addEventListener("click", (e) => {
      const seat = e.target.closest && e.target.closest(".seat.knocked");
      const chip = seat && seat.querySelector(".knock-chip");
      if (!chip || !chip.title) return;
      toast(`${seat.querySelector(".seat-name").title}: ${chip.title}`);
    });
    this.arrows = svgEl("svg", { class: "arrows", "aria-hidden": "true", focusable: "false" });
    this.arrows.innerHTML = `<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="7" refY="5"
      markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0 10 5 0 10z" fill="#ffe08a"/></marker></defs>`;
    this.fx = h("div", { class: "fx", "aria-hidden": "true" });
    this.el.append(this.felt, this.center, this.seatBox, this.arrows, this.fx);
    this.seatEls = [];
    this.n = 0;
    this.me = null;
    this.model = null;
    this.size = 0;
    this.centerWidth = 0;
    this.hold = null;
    this.observer = new ResizeObserver(() => this.layout());
    this.observer.observe(this.el);
  }

  destroy() {
    this.observer.disconnect();
    this.el.remove();
  }

  // -- layout --------------------------------------------------------------------------

  layout() {
    const W = this.el.clientWidth, H = this.el.clientHeight;
    const n = this.n;
    if (!W || !H || !n) return;
    const cards = this.opts.look !== "pawns";  // Gnav cards or an ordinary pack
    let S = Math.min(118, Math.min(W, H) / 4.2);
    let rx = 0, ry = 0;
    for (let k = 0; k < 4; k++) {
      rx = W / 2 - S * 0.52;
      ry = H / 2 - S * 0.66;
      const per = Math.PI * (3 * (rx + ry) - Math.sqrt((3 * rx + ry) * (rx + 3 * ry)));
      S = Math.max(24, Math.min(118, Math.min(W, H) / 4.2, (per / n) * 0.8));
    }
    rx = W / 2 - S * 0.52;
    ry = H / 2 - S * 0.66;
    this.size = S;
    this.el.style.setProperty("--s", S.toFixed(1));
    this.el.classList.toggle("crowded", S < 62);
    this.el.classList.toggle("tiny", S < 40);
    // The seats at the top and bottom stay whole inside the board: their plates have a
    // height of their own (the text's), which the estimate above does not know.
    const tallest = Math.max(0, ...this.seatEls.map((el) => el.offsetHeight));
    if (tallest) ry = Math.max(20, Math.min(ry, H / 2 - tallest / 2 - S * 0.04 - 2));
    const fx = Math.max(rx - S * 0.34, 60), fy = Math.max(ry - S * 0.42, 50);
    Object.assign(this.felt.style, { width: `${2 * fx}px`, height: `${2 * fy}px`,
                                     left: `${W / 2 - fx}px`, top: `${H / 2 - fy}px` });
    Object.assign(this.center.style, { width: `${fx * 1.45}px`, maxHeight: `${fy * 1.5}px`,
                                       left: `${W / 2}px`, top: `${H / 2}px` });
    this.center.classList.toggle("narrow", fx < 130);
    const me = this.me ?? 0;
    const crowded = S < 62;
    const places = spread(n, rx, ry);
    const pts = this.seatEls.map((el, i) => {
      const a = places[(i - me + n) % n];
      return { a, x: W / 2 + rx * Math.cos(a), y: H / 2 + ry * Math.sin(a) + (cards ? 0 : S * 0.04) };
    });
    this.seatEls.forEach((el, i) => {
      const { a, x, y } = pts[i];
      // Where the neighbours sit above and below rather than beside, the seat lies on its
      // side: piece outside, plate inside.
      const before = pts[(i - 1 + n) % n], after = pts[(i + 1) % n];
      const upright = n < 3 || Math.abs(after.y - before.y) <= Math.abs(after.x - before.x);
      const side = !upright ? (Math.cos(a) > 0 ? "right" : "left") : Math.sin(a) > 0 ? "bottom" : "top";
      el.dataset.side = side;
      // A name plate as wide as the room beside it: up to the neighbours (when they sit
      // level with it) and the board's edges. Crowded side seats put it inwards.
      let room;
      if (crowded && (side === "left" || side === "right")) {
        room = Math.min(rx * 0.5, 150);
      } else {
        room = Math.min(2 * Math.min(x, W - x) - 6, 200, S * 1.9);
        if (n > 1) {
          for (const j of [(i + 1) % n, (i - 1 + n) % n]) {
            const q = pts[j];
            if (Math.abs(q.y - y) < S * 0.9) room = Math.min(room, Math.abs(q.x - x) - 8);
          }
        }
      }
      el.style.setProperty("--pw", `${Math.max(S * 0.9, room).toFixed(0)}px`);
      el.style.left = `${x}px`;
      el.style.top = `${y}px`;
    });
    this.arrows.setAttribute("viewBox", `0 0 ${W} ${H}`);
    this.centerWidth = fx * 1.45;
    this.fitNames();
    this.fitCenter();
  }

  // On a crowded board a name may not fit its plate ("B… 10" on a phone at 16 seats):
  // its letters get smaller, a pixel at a time down to 8px, before any is cut. The
  // plate stays the size the layout gave it, so no neighbour is covered.
  fitNames() {
    const names = this.seatEls.map((el) => el.querySelector(".seat-name"));
    for (const name of names) if (name.style.fontSize) name.style.fontSize = "";
    if (!this.el.classList.contains("crowded")) return;
    const cut = (name) => {
      const word = name.querySelector(".nm-word");
      return name.scrollWidth > name.clientWidth + 0.5 ||
        Boolean(word && word.scrollWidth > word.clientWidth + 0.5);
    };
    // One layout for every seat's reading; only the names cut are changed after it.
    for (const name of names.filter(cut)) {
      let px = parseFloat(getComputedStyle(name).fontSize);
      while (cut(name) && px > 8) {
        px -= 1;
        name.style.fontSize = `${px}px`;
      }
    }
  }

  // On a crowded board the side seats' plates point inwards, into the felt: the centre
  // (the caption and the piles) narrows to the room between the plates level with its
  // piles, so that "Set aside" never runs into a seat's name. The piles wrap instead.
  fitCenter() {
    const full = this.centerWidth;
    if (!full) return;
    this.center.style.width = `${full}px`;
    this.caption.style.fontSize = "";
    if (!this.el.classList.contains("crowded")) return;
    const mid = this.el.getBoundingClientRect().left + this.el.clientWidth / 2;
    const piles = this.center.querySelector(".piles");
    for (let pass = 0; pass < 2; pass++) {  // narrower is taller: look again once
      // The piles are what is wide; the caption above them is short, and may wrap.
      const c = piles.getBoundingClientRect();
      let half = full / 2;
      for (const el of this.seatEls) {
        const side = el.dataset.side;
        if (side !== "left" && side !== "right") continue;
        const p = el.querySelector(".seat-plate").getBoundingClientRect();
        if (!p.width || p.bottom < c.top || p.top > c.bottom) continue;
        half = Math.min(half, (side === "left" ? mid - p.right : p.left - mid) - 6);
      }
      const width = Math.max(80, 2 * half);
      if (Math.abs(width - this.center.getBoundingClientRect().width) < 1) break;
      this.center.style.width = `${width}px`;
    }
    // The narrower centre is taller, so its caption (one line) rises towards the top
    // seats: a smaller font until it is clear of their plates.
    const plates = this.seatEls.map((el) => el.querySelector(".seat-plate").getBoundingClientRect())
      .filter((p) => p.width);
    for (const size of ["", ".85rem", ".75rem", ".65rem"]) {
      this.caption.style.fontSize = size;
      const c = this.caption.getBoundingClientRect();
      if (!plates.some((p) => p.left < c.right && c.left < p.right && p.top < c.bottom && c.top < p.bottom)) break;
    }
  }

  setSeats(n, me) {
    if (n === this.n && me === this.me) return;
    this.n = n;
    this.me = me;
    clear(this.seatBox);
    this.seatEls = [];
    for (let i = 0; i < n; i++) {
      const el = h("li", { class: "seat", dataset: { seat: String(i) } },
        h("div", { class: "seat-body" }, h("div", { class: "seat-piece" }),
          h("span", { class: "chip dealer-chip", "aria-hidden": "true", text: "D" }),
          h("span", { class: "chip knock-chip", "aria-hidden": "true" })),
        // Marks (out, sits out, away) sit in the plate beside the name, never over it.
        h("div", { class: "seat-plate" },
          h("span", { class: "seat-name" }), h("span", { class: "stamp", "aria-hidden": "true" }),
          h("span", { class: "seat-away" }), h("span", { class: "seat-lives" })),
        h("div", { class: "seat-timer", "aria-hidden": "true" }, h("i")));
      this.seatEls.push(el);
      this.seatBox.append(el);
    }
    this.layout();
  }

  // -- drawing -------------------------------------------------------------------------

  render(m) {
    this.model = m;
    this.setSeats(m.seats.length, m.me);
    const o = this.opts;
    const L = lang();
    m.seats.forEach((seat, i) => {
      const el = this.seatEls[i];
      const name = seat.name;
      const inRound = m.inRound.has(name);
      const face = m.faces.get(name) ?? null;
      const present = inRound && !m.lobby;
      const cls = {
        me: i === m.me, empty: seat.kind === "empty", bot: seat.kind === "bot",
        away: seat.kind === "human" && !seat.connected && !m.replay,
        dealer: m.dealer === name, turn: m.toAct === name, out: m.out.has(name),
        sitting: m.sittingOut.has(name) && !m.out.has(name), acted: m.acted.has(name),
        knocked: m.knocked.has(name), revealed: m.revealed.has(name),
        // Knocked, then swapped (or drew): the fool it was dealt may be elsewhere now.
        "knock-moved": m.knocked.has(name) && Boolean(m.moved && m.moved.has(name)),
        shown: m.shown.has(name), paid: m.paid.has(name),
        winner: Boolean(m.winners && m.winners.includes(name)), idle: !present,
      };
      for (const [k, v] of Object.entries(cls)) el.classList.toggle(k, v);
      el.dataset.name = name;
      // The piece: redrawn only when what it shows changes.
      const key = present ? `${o.look}:${face ?? "?"}:${L}` : "none";
      const slot = el.querySelector(".seat-piece");
      if (slot.dataset.key !== key) {
        slot.dataset.key = key;
        clear(slot);
        if (present) slot.append(pieceSVG(o.preset, face, { look: o.look, lang: L }));
      }
      const label = seat.kind === "empty" ? t("seat.n", { n: i + 1 }) : (seat.shown ?? name);
      const nameEl = el.querySelector(".seat-name");
      if (nameEl.title !== label || nameEl.dataset.kind !== seat.kind) {
        const num = seat.kind === "bot" ? /^(.*\S)(\s+\d+)$/.exec(label) : null;
        clear(nameEl);
        if (num) nameEl.append(h("span", { class: "nm-word", text: num[1] }), h("span", { class: "nm-num", text: num[2] }));
        else nameEl.textContent = label;
        nameEl.title = label;
        nameEl.dataset.kind = seat.kind;
      }
      el.querySelector(".seat-away").textContent = cls.away ? t("seat.away") : "";
      const knock = el.querySelector(".knock-chip");
      const knockText = cls["knock-moved"] ? t("seat.knocked_moved") : t("seat.knocked");
      knock.textContent = cls["knock-moved"] ? "?" : "!";
      knock.title = cls.knocked ? knockText : "";
      const livesBox = el.querySelector(".seat-lives");
      const lives = m.lives[name];
      const lkey = seat.kind === "empty" || lives === undefined ? "" :
        `${o.score}:${lives}:${m.start}:${this.size < 62}:${L}`;
      if (livesBox.dataset.key !== lkey) {
        livesBox.dataset.key = lkey;
        clear(livesBox);
        if (lkey) livesBox.append(livesEl(o.score, lives, m.start, { compact: this.size < 62 }));
      }
      el.querySelector(".stamp").textContent = cls.out ? t("seat.out") : cls.sitting ? t("seat.sits_out") : "";
      const notes = [label];
      if (i === m.me) notes.push(t("seat.you"));
      if (seat.kind === "empty") notes.push(t("seat.empty"));
      if (seat.kind === "bot") notes.push(t("seat.bot"));
      if (cls.away) notes.push(t("seat.away"));
      if (lives !== undefined && seat.kind !== "empty") notes.push(lives === 1 ? t("seat.one_life") : t("seat.lives", { n: lives }));
      if (cls.dealer) notes.push(t("seat.dealer"));
      if (cls.turn) notes.push(t("seat.to_act"));
      if (cls.knocked) notes.push(knockText);
      if (face && present) notes.push(pieceName(o.preset, face, L));
      if (cls.out) notes.push(t("seat.out"));
      if (cls.sitting) notes.push(t("seat.sits_out"));
      el.setAttribute("aria-label", notes.join(", "));
      el.title = notes.join(", ");
    });
    this.renderTimer(m);
    this.caption.textContent = m.caption || "";
    this.sub.textContent = m.sub || "";
    if (this.noteEl.textContent !== (m.note || "")) this.noteEl.textContent = m.note || "";
    this.stockPile.set(m.lobby ? null : m.stockLeft, null, o);
    this.asidePile.set(m.lobby || !m.aside ? null : m.aside, m.asideFaces, o);
    this.poolPile.set(m.lobby || !m.pool ? null : m.pool, null, o);
    this.fitNames();
    this.fitCenter();
  }

  renderTimer(m) {
    for (const el of this.seatEls) {
      const bar = el.querySelector(".seat-timer i");
      if (bar._anim) { bar._anim.cancel(); bar._anim = null; }
    }
    const tm = m.timer;
    if (!tm) return;
    const i = m.seats.findIndex((s) => s.name === tm.name);
    if (i < 0) return;
    const el = this.seatEls[i];
    el.classList.add("timed");
    const bar = el.querySelector(".seat-timer i");
    const left = Math.max(0, tm.deadline - performance.now());
    const frac = Math.min(1, left / (tm.total * 1000));
    bar._anim = bar.animate([{ transform: `scaleX(${frac})` }, { transform: "scaleX(0)" }],
                            { duration: Math.max(1, left), fill: "forwards" });
    this.seatEls.forEach((e, k) => { if (k !== i) e.classList.remove("timed"); });
  }

  // -- positions -------------------------------------------------------------------------

  indexOf(name) {
    return this.model ? this.model.seats.findIndex((s) => s.name === name) : -1;
  }

  point(target) {
    const b = this.el.getBoundingClientRect();
    let el;
    if (target === "stock" || target === null) el = this.stockPile.icon;
    else if (target === "aside") el = this.asidePile.icon;
    else if (target === "pool") el = this.poolPile.icon;
    else if (target === "center") return { x: b.width / 2, y: b.height / 2 };
    else {
      const i = typeof target === "number" ? target : this.indexOf(target);
      el = this.seatEls[i] && this.seatEls[i].querySelector(".seat-piece");
    }
    if (!el) return { x: b.width / 2, y: b.height / 2 };
    const r = el.getBoundingClientRect();
    return { x: r.left - b.left + r.width / 2, y: r.top - b.top + r.height / 2 };
  }

  pieceEl(name) {
    const i = this.indexOf(name);
    return i >= 0 ? this.seatEls[i].querySelector(".seat-piece") : null;
  }

  // -- animations ------------------------------------------------------------------------

  // A piece (face ``id``, or hidden) from one place to another.
  async fly(from, to, id, ms, { scale = 1 } = {}) {
    if (ms <= 0 || hurrying()) return;  // hurrying: a deal's later flights are not flown
    const a = this.point(from), b = this.point(to);
    const w = this.size * (this.opts.look !== "pawns" ? 0.5 : 0.46) * scale;
    const node = h("div", { class: "fly" });
    node.append(pieceSVG(this.opts.preset, id, { look: this.opts.look, lang: lang(), label: false }));
    node.style.width = `${w}px`;
    node.style.left = `${a.x}px`;
    node.style.top = `${a.y}px`;
    this.fx.append(node);
    const dx = b.x - a.x, dy = b.y - a.y;
    let anim;
    if (reducedMotion()) {
      node.style.left = `${b.x}px`;
      node.style.top = `${b.y}px`;
      anim = node.animate([{ opacity: 0 }, { opacity: 1 }, { opacity: 0 }], { duration: ms });
    } else {
      const lift = -Math.min(60, Math.hypot(dx, dy) * 0.18);
      anim = node.animate([
        { transform: "translate(-50%, -50%) scale(1)" },
        { transform: `translate(calc(-50% + ${dx / 2}px), calc(-50% + ${dy / 2 + lift}px)) scale(1.15)`, offset: 0.5 },
        { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(1)` },
      ], { duration: ms, easing: EASE });
    }
    await anim.finished.catch(() => {});
    node.remove();
  }

  async flyToken(from, to, ms) {
    if (ms <= 0) return;
    const a = this.point(from), b = this.point(to);
    const node = tokenEl();
    node.style.left = `${a.x}px`;
    node.style.top = `${a.y}px`;
    this.fx.append(node);
    const dx = b.x - a.x, dy = b.y - a.y;
    const anim = reducedMotion()
      ? node.animate([{ opacity: 1 }, { opacity: 0 }], { duration: ms })
      : node.animate([{ transform: "translate(-50%, -50%)" },
                      { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))` }],
                     { duration: ms, easing: EASE });
    await anim.finished.catch(() => {});
    node.remove();
  }

  // Hide the real pieces of ``names`` while a flight stands in for them.
  lift(names, on) {
    for (const n of names) {
      const el = this.pieceEl(n);
      if (el) el.classList.toggle("lifted", on);
    }
  }

  async swap(a, b, aGot, bGot, ms) {
    if (ms <= 0) return;
    this.lift([a, b], true);
    // a's old piece is what b got, and the other way round.
    await Promise.all([this.fly(a, b, bGot ?? null, ms), this.fly(b, a, aGot ?? null, ms)]);
    this.lift([a, b], false);
  }

  async deal(order, ms) {
    if (ms <= 0) return;
    const step = Math.min(90, (ms * 0.6) / Math.max(1, order.length));
    const flights = order.map((name, k) => sleep(k * step).then(() => this.fly("stock", name, null, ms * 0.5)));
    this.lift(order, true);
    await Promise.all(flights);
    this.lift(order, false);
  }

  bubble(target, text, { sub = "", kind = "say", ms = 1200 } = {}) {
    if (ms <= 0) return Promise.resolve();
    const p = this.point(target === null ? "stock" : target);
    const W = this.el.clientWidth, H = this.el.clientHeight;
    // A life paid or gained is said just above the seat's piece: its name stays readable.
    const onPiece = kind === "pay" || kind === "gain" || kind === "standin";
    const k = target === null || target === "stock" || onPiece ? 0 : 0.38;
    let x = p.x + (W / 2 - p.x) * k, y = p.y + (H / 2 - p.y) * k - this.size * (onPiece ? 0.3 : 0.25);
    x = Math.max(70, Math.min(W - 70, x));
    y = Math.max(40, Math.min(H - 10, y));
    const el = h("div", { class: `bubble bubble-${kind}` }, h("strong", { text }),
      sub ? h("span", { text: sub }) : null);
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    this.fx.append(el);
    if (!reducedMotion()) {
      el.animate([{ transform: "translate(-50%, -100%) scale(.6)", opacity: 0 },
                  { transform: "translate(-50%, -100%) scale(1.06)", opacity: 1, offset: 0.7 },
                  { transform: "translate(-50%, -100%) scale(1)", opacity: 1 }],
                 { duration: 260, easing: "ease-out" });
    }
    setTimeout(async () => {
      await this.hold;  // a test or the screenshot script may hold the bubble up
      const out = el.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 220, fill: "forwards" });
      out.finished.then(() => el.remove(), () => el.remove());
    }, ms);
    return sleep(ms);
  }

  clearBubbles() {
    for (const el of this.fx.querySelectorAll(".bubble")) el.remove();
  }

  arrow(from, to) {
    const a = this.point(from), b = this.point(to === null ? "stock" : to);
    const W = this.el.clientWidth, H = this.el.clientHeight;
    const mx = (a.x + b.x) / 2 + (W / 2 - (a.x + b.x) / 2) * 0.35;
    const my = (a.y + b.y) / 2 + (H / 2 - (a.y + b.y) / 2) * 0.35;
    // Stop short of both pieces.
    const cut = (p, q, d) => {
      const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
      return { x: p.x + ((q.x - p.x) * d) / len, y: p.y + ((q.y - p.y) * d) / len };
    };
    const gap = this.size * 0.32;
    const s = cut(a, { x: mx, y: my }, gap), e = cut(b, { x: mx, y: my }, gap);
    const path = svgEl("path", { d: `M${s.x} ${s.y} Q${mx} ${my} ${e.x} ${e.y}`, class: "ask-arrow",
                                 "marker-end": "url(#arrowhead)" });
    this.arrows.append(path);
    if (!reducedMotion()) {
      const len = path.getTotalLength();
      path.animate([{ strokeDasharray: `${len}`, strokeDashoffset: `${len}` },
                    { strokeDasharray: `${len}`, strokeDashoffset: "0" }], { duration: 280 });
    }
  }

  clearArrows() {
    for (const p of this.arrows.querySelectorAll("path.ask-arrow")) p.remove();
  }

  pulse(name, cls, ms) {
    const i = this.indexOf(name);
    if (i < 0 || ms <= 0) return;
    const el = this.seatEls[i];
    el.classList.add(cls);
    setTimeout(() => el.classList.remove(cls), ms);
  }

  async shake(name, ms) {
    const el = this.pieceEl(name);
    if (!el || ms <= 0 || reducedMotion()) return sleep(ms);
    await el.animate([{ transform: "translateY(0)" }, { transform: "translateY(-14%)" },
                      { transform: "translateY(0)" }, { transform: "translateY(-8%)" },
                      { transform: "translateY(0)" }],
                     { duration: Math.min(ms, 700), easing: "ease-in" }).finished.catch(() => {});
  }

  async flipAll(names, ms) {
    if (ms <= 0 || reducedMotion()) return;
    const step = Math.min(120, (ms * 0.5) / Math.max(1, names.length));
    await Promise.all(names.map((n, k) => {
      const el = this.pieceEl(n);
      if (!el) return null;
      return el.animate([{ transform: "rotateY(90deg)" }, { transform: "rotateY(0)" }],
                        { duration: ms * 0.35, delay: k * step, easing: "ease-out", fill: "backwards" })
        .finished.catch(() => {});
    }));
  }

  async spinAll(names, ms) {
    if (ms <= 0 || reducedMotion()) return;
    await Promise.all(names.map((n) => {
      const el = this.pieceEl(n);
      return el ? el.animate([{ transform: "rotate(0)" }, { transform: "rotate(-360deg)" }],
                             { duration: ms, easing: EASE }).finished.catch(() => {}) : null;
    }));
  }

  flash(target, text, kind, ms) {
    return this.bubble(target, text, { kind, ms });
  }
}

// Angles of ``n`` seats round an ellipse, the first at the bottom, equally far apart
// along its edge (equal angles would bunch seats up at the narrow ends).
function spread(n, rx, ry) {
  const M = 720;
  const len = [0];
  const at = (m) => Math.PI / 2 + (2 * Math.PI * m) / M;
  for (let m = 1; m <= M; m++) {
    const a0 = at(m - 1), a1 = at(m);
    len.push(len[m - 1] + Math.hypot(rx * (Math.cos(a1) - Math.cos(a0)), ry * (Math.sin(a1) - Math.sin(a0))));
  }
  const total = len[M];
  const out = [];
  let m = 0;
  for (let k = 0; k < n; k++) {
    const want = (k * total) / n;
    while (m < M && len[m + 1] < want) m++;
    const f = len[m + 1] > len[m] ? (want - len[m]) / (len[m + 1] - len[m]) : 0;
    out.push(at(m + f));
  }
  return out;
}

function pile(kind) {
  const icon = h("div", { class: "pile-icon" });
  const count = h("span", { class: "pile-count" });
  const faces = h("div", { class: "pile-faces" });
  const label = h("span", { class: "pile-label" });
  const el = h("div", { class: `pile pile-${kind}` }, icon, h("div", { class: "pile-text" }, label, count), faces);
  let drawn = "";
  return {
    el, icon,
    set(n, faceIds, o) {
      el.hidden = n === null || n === undefined;
      const key = `${o.look}:${lang()}:${(faceIds || []).join(",")}`;
      label.textContent = t(`play.${kind}`);
      count.textContent = n === null || n === undefined ? "" : String(n);
      el.setAttribute("aria-label", `${t(`play.${kind}`)}: ${n ?? 0}`);
      if (drawn === key) return;
      drawn = key;
      clear(icon);
      clear(faces);
      if (kind === "pool") {
        for (let k = 0; k < 3; k++) icon.append(h("i", { class: "token token-full" }));
      } else {
        for (let k = 0; k < 3; k++) icon.append(pieceSVG(o.preset, null, { look: o.look }));
      }
      for (const id of faceIds || []) faces.append(pieceSVG(o.preset, id, { look: o.look, lang: lang() }));
    },
  };
}
