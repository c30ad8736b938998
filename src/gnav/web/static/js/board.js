// The table drawn: seats round an oval (the reader at the bottom, play going clockwise,
// so each seat's left neighbour is the next one round), the stock, the pieces set aside
// and the pool in the middle; and the animations that let a person follow each event.

import { h, clear, toast } from "./dom.js";
import { pieceSVG, livesEl, svgEl, tokenEl } from "./pieces.js";
import { pieceName } from "./presets.js";
import { t, lang, has } from "./i18n.js";
import { botKind } from "./names.js";
import { hurrying, reducedMotion, sleep } from "./settings.js";

const EASE = "cubic-bezier(.45,.05,.35,1)";
const CROWD = 12;  // more seats than this: a crowded board, whatever its size
const PLATE_H = 21;  // a crowded plate's height and a little (one line at 11 to 13px)
const MIN_PX = 11;  // no text on the board is smaller (a name gives way to a number first)

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
    // On a numbered board: what its numbers are ("Numbers: expert bots").
    this.legend = h("div", { class: "caption-legend", id: "board-legend" });
    this.center = h("div", { class: "center" }, this.caption, this.sub, this.noteEl,
      h("div", { class: "piles" }, this.stockPile.el, this.asidePile.el, this.poolPile.el),
      this.legend, this.centerSlot);
    this.seatBox = h("ol", { class: "seats" });
    // The knock mark's meaning is its tooltip, which a phone never shows: a tap on a
    // knocked seat (its "!" is too small a target on its own) says it. On a numbered
    // board a tap on any seat says whose it is (its whole name, lives and marks).
    this.seatBox.addEventListener("click", (e) => {
      const seat = e.target.closest && e.target.closest(".seat");
      if (!seat) return;
      const chip = seat.querySelector(".knock-chip");
      if (seat.classList.contains("knocked") && chip && chip.title) {
        toast(`${seat.querySelector(".seat-name").title}: ${chip.title}`);
      } else if (this.el.classList.contains("numbered") && seat.title) {
        toast(seat.title);
      }
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
    // An arrow drawn for the old size would point between old places.
    if (this.drawnFor && this.drawnFor !== `${W}x${H}`) this.clearArrows();
    this.drawnFor = `${W}x${H}`;
    const cards = this.opts.look !== "pawns";  // Gnav cards or an ordinary pack
    let S = Math.min(118, Math.min(W, H) / 4.2);
    let rx = 0, ry = 0;
    for (let k = 0; k < 4; k++) {
      rx = W / 2 - S * 0.52;
      ry = H / 2 - S * 0.66;
      const per = Math.PI * (3 * (rx + ry) - Math.sqrt((3 * rx + ry) * (rx + 3 * ry)));
      S = Math.max(24, Math.min(118, Math.min(W, H) / 4.2, (per / n) * 0.8));
    }
    // A crowded board (small seats, or over a dozen of them: a whole pawn there would
    // carry its numeral at 6 to 9px) draws its pieces compact (all figure: pieces.js), a
    // size of their own that keeps a numeral at 11px or more; the side seats' pieces and
    // marks stay inside the board.
    const wasCompact = this.compact;
    this.compact = S < 62 || n > CROWD;
    const pd = Math.max(32, S * 0.62);
    rx = W / 2 - (this.compact ? pd / 2 + 10 : S * 0.52);
    ry = H / 2 - (this.compact ? pd * (cards ? 0.65 : 0.5) + 10 : S * 0.66);
    this.size = S;
    this.el.style.setProperty("--s", S.toFixed(1));
    this.el.style.setProperty("--pd", `${pd.toFixed(1)}px`);
    this.el.classList.toggle("crowded", this.compact);
    this.el.classList.toggle("tiny", S < 40);
    // The seats at the top and bottom stay whole inside the board: their plates have a
    // height of their own (the text's), which the estimate above does not know.
    const tallest = Math.max(0, ...this.seatEls.map((el) => el.offsetHeight));
    if (tallest && !this.compact) ry = Math.max(20, Math.min(ry, H / 2 - tallest / 2 - S * 0.04 - 2));
    const fx = Math.max(rx - S * 0.34, 60), fy = Math.max(ry - S * 0.42, 50);
    Object.assign(this.felt.style, { width: `${2 * fx}px`, height: `${2 * fy}px`,
                                     left: `${W / 2 - fx}px`, top: `${H / 2 - fy}px` });
    Object.assign(this.center.style, { width: `${fx * 1.45}px`, maxHeight: `${fy * 1.5}px`,
                                       left: `${W / 2}px`, top: `${H / 2}px` });
    this.center.classList.toggle("narrow", fx < 130);
    const me = this.me ?? 0;
    const crowded = this.compact;
    // On a crowded board the reader's own seat takes the room of two and a half seats,
    // another person's two: their names are whole (the reader's may wrap), where a
    // bot's may give way to its number.
    const seatsNow = this.model ? this.model.seats : [];
    const weight = (i) => !crowded ? 1 : i === this.me ? 2.5
      : seatsNow[i] && seatsNow[i].kind === "human" ? 2 : 1;
    const places = spread(n, rx, ry, Array.from({ length: n }, (_, k) => weight((k + me) % n)));
    const pts = this.seatEls.map((el, i) => {
      const a = places[(i - me + n) % n];
      return { a, x: W / 2 + rx * Math.cos(a),
               y: H / 2 + ry * Math.sin(a) + (cards || crowded ? 0 : S * 0.04) };
    });
    this.seatEls.forEach((el, i) => {
      const { a, x, y } = pts[i];
      // Where the neighbours sit above and below rather than beside, the seat lies on its
      // side: piece outside, plate inside.
      const before = pts[(i - 1 + n) % n], after = pts[(i + 1) % n];
      // A crowded board turns the seats round its corners on their side too: an upright
      // plate there, under its piece, would drop into the row of the side seat below.
      const lean = crowded ? 0.6 : 1;
      const upright = n < 3 || Math.abs(after.y - before.y) <= lean * Math.abs(after.x - before.x);
      const side = !upright ? (Math.cos(a) > 0 ? "right" : "left") : Math.sin(a) > 0 ? "bottom" : "top";
      el.dataset.side = side;
      // A name plate as wide as the room beside it: up to the neighbours (when they sit
      // level with it) and the board's edges. Crowded side seats put it inwards.
      let room;
      el.dataset.angle = a.toFixed(4);
      if (crowded) {
        // Plates lie inwards of their pieces (placePlates): two meet only where their
        // seats sit level, and then share the gap between them by their seats' room.
        room = Math.min(i === this.me ? 240 : Math.min(rx * 0.5, 150), 2 * Math.min(x, W - x) - 6);
        for (const j of [(i + 1) % n, (i - 1 + n) % n]) {
          const q = pts[j];
          if (j === i || Math.abs(q.y - y) > PLATE_H) continue;
          room = Math.min(room, (2 * weight(i) / (weight(i) + weight(j))) * Math.abs(q.x - x) - 6);
        }
        el.style.setProperty("--pw", `${Math.max(30, room).toFixed(0)}px`);
        el.style.left = `${x}px`;
        el.style.top = `${y}px`;
        return;
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
    this.centerTop = H / 2;
    if (wasCompact !== undefined && wasCompact !== this.compact && this.model) this.render(this.model);
    this.fitNames();
    this.placePlates();
    this.fitCenter();
  }

  // On a crowded board each plate lies inwards of its piece, along the line to the
  // board's middle, just clear of the piece; the marks sit on the piece's outer rim.
  placePlates() {
    const parts = this.seatEls.map((el) => ({
      el, plate: el.querySelector(".seat-plate"), body: el.querySelector(".seat-body"),
      chips: [el.querySelector(".dealer-chip"), el.querySelector(".knock-chip")] }));
    if (!this.compact) {
      for (const { plate, chips } of parts) {
        for (const x of [plate, ...chips]) x.style.left = x.style.top = "";
      }
      return;
    }
    // Every size read first, then every place written: one layout for the whole ring.
    const sizes = parts.map(({ plate, body, chips }) => [body.offsetWidth, body.offsetHeight,
      plate.offsetWidth, plate.offsetHeight,
      Math.max(...chips.map((c) => Math.max(c.offsetWidth, c.offsetHeight)))]);
    parts.forEach(({ el, plate, chips }, i) => {
      const [pw, ph, w, hgt, chip] = sizes[i];
      const a = Number(el.dataset.angle || 0);
      const c = Math.cos(a), s = Math.sin(a), gap = 3;
      const d = Math.min(Math.abs(c) > 1e-3 ? ((pw + w) / 2 + gap) / Math.abs(c) : Infinity,
                         Math.abs(s) > 1e-3 ? ((ph + hgt) / 2 + gap) / Math.abs(s) : Infinity);
      plate.style.left = `${pw / 2 - c * d}px`;
      plate.style.top = `${ph / 2 - s * d}px`;
      // The dealer's mark one way round the outer rim, the knock's the other: 45 degrees,
      // or as far as it takes for the two (a dealer who knocks) to stand clear of each
      // other on a small piece (their centres a chip and 2px apart).
      const half = Math.asin(Math.min(1, (chip + 2) / Math.max(1, Math.min(pw, ph))));
      const spread = Math.max(Math.PI / 4, half);
      chips.forEach((mark, k) => {
        const b = a + (k === 0 ? -1 : 1) * spread;
        mark.style.left = `${pw / 2 + Math.cos(b) * pw / 2}px`;
        mark.style.top = `${ph / 2 + Math.sin(b) * ph / 2}px`;
      });
    });
  }

  // A name may not fit its plate ("B… 10" on a phone at 16 seats): its letters get
  // smaller, a pixel at a time down to 11px, before any is cut. Where a
  // bot's name still does not fit, the board is "numbered": every bot's plate shows its
  // number alone ("17"; its whole name is the seat's tooltip, a tap's note and the
  // caption's when it plays). The plate stays the size the layout gave it, so no
  // neighbour is covered; the reader's own name wraps rather than being cut.
  fitNames() {
    // Measured again only when what the plates say, or their room, has changed: a
    // render that changes neither (most of them) keeps the last fit.
    const key = [this.el.clientWidth, this.el.clientHeight, this.compact, lang(),
                 ...this.seatEls.map((el) => `${el.style.getPropertyValue("--pw")}|${el.className}|` +
                   el.querySelector(".seat-plate").textContent)].join("\n");
    if (key === this.fitKey) return;
    this.fitKey = key;
    const names = this.seatEls.map((el) => el.querySelector(".seat-name"));
    for (const name of names) if (name.style.fontSize) name.style.fontSize = "";
    this.el.classList.remove("numbered");
    const cut = (name) => {
      const word = name.querySelector(".nm-word");
      return name.scrollWidth > name.clientWidth + 0.5 ||
        Boolean(word && getComputedStyle(word).display !== "none" && word.scrollWidth > word.clientWidth + 0.5);
    };
    const shrink = (list) => {
      // One layout for every seat's reading; only the names cut are changed after it.
      for (const name of list.filter(cut)) {
        let px = parseFloat(getComputedStyle(name).fontSize);
        while (cut(name) && px > MIN_PX) {
          px = Math.max(MIN_PX, px - 1);
          name.style.fontSize = `${px}px`;
        }
      }
    };
    shrink(names);
    const bots = names.filter((name) => name.querySelector(".nm-num"));
    this.legend.textContent = "";
    if (!bots.some(cut)) return;
    this.el.classList.add("numbered");
    for (const name of bots) name.style.fontSize = "";
    shrink(names);
    const kinds = new Set(this.model ? this.model.seats.filter((x) => x.kind === "bot")
      .map((x) => botKind(x.name)) : []);
    const [kind] = kinds;
    this.legend.textContent = kinds.size === 1 && kind && has(`kind.${kind}`)
      ? t("board.numbered_kind", { kind: t(`kind.${kind}`) }) : t("board.numbered");
  }

  // On a crowded board the side seats' plates point inwards, into the felt: the centre
  // (the caption and the piles) narrows to the room between the plates level with its
  // piles, so that "Set aside" never runs into a seat's name. The piles wrap instead.
  fitCenter() {
    const full = this.centerWidth;
    if (!full) return;
    this.center.style.width = `${full}px`;
    this.center.style.top = `${this.centerTop}px`;
    this.caption.style.fontSize = "";
    if (!this.el.classList.contains("crowded")) return;
    const mid = this.el.getBoundingClientRect().left + this.el.clientWidth / 2;
    const piles = this.center.querySelector(".piles");
    for (let pass = 0; pass < 2; pass++) {  // narrower is taller: look again once
      // The piles are what is wide; the caption above them is short, and may wrap.
      const c = piles.getBoundingClientRect();
      let half = full / 2;
      for (const el of this.seatEls) {
        const p = el.querySelector(".seat-plate").getBoundingClientRect();
        if (!p.width || p.bottom < c.top || p.top > c.bottom) continue;
        if (p.right < mid) half = Math.min(half, mid - p.right - 6);
        else if (p.left > mid) half = Math.min(half, p.left - mid - 6);
      }
      const width = Math.max(80, 2 * half);
      if (Math.abs(width - this.center.getBoundingClientRect().width) < 1) break;
      this.center.style.width = `${width}px`;
    }
    // The narrower centre is taller, so its caption (one line) rises towards the top
    // seats: a smaller font until it is clear of their plates.
    const plates = this.seatEls.map((el) => el.querySelector(".seat-plate").getBoundingClientRect())
      .filter((p) => p.width);
    const hit = (el) => {
      if (!el.getClientRects().length) return false;
      const c = el.getBoundingClientRect();
      return plates.some((p) => p.left < c.right && c.left < p.right && p.top < c.bottom && c.top < p.bottom);
    };
    for (const size of ["", ".85rem", ".75rem", ".7rem"]) {  // .7rem: 11.2px, the least
      this.caption.style.fontSize = size;
      if (!hit(this.caption)) return;
    }
    // Still under a seat's plate (a note or the set-aside pieces make the centre taller):
    // the centre moves down, or up, to where its caption and piles are clear.
    const parts = [this.caption, this.sub, this.noteEl, piles];
    const step = 6, reach = this.el.clientHeight * 0.2;
    for (let d = step; d <= reach; d += step) {
      for (const off of [d, -d]) {
        this.center.style.top = `${this.centerTop + off}px`;
        if (!parts.some(hit)) return;
      }
    }
    this.center.style.top = `${this.centerTop}px`;
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
    // Who is a person decides a crowded board's room (layout): again when that changes.
    const kinds = m.seats.map((x) => x.kind === "human" ? "h" : "-").join("");
    if (kinds !== this.kinds) {
      this.kinds = kinds;
      this.layout();
    }
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
      const compact = Boolean(this.compact);
      const key = present ? `${o.look}:${face ?? "?"}:${L}:${compact}` : "none";
      const slot = el.querySelector(".seat-piece");
      if (slot.dataset.key !== key) {
        slot.dataset.key = key;
        clear(slot);
        if (present) slot.append(pieceSVG(o.preset, face, { look: o.look, lang: L, compact }));
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
        `${o.score}:${lives}:${m.start}:${Boolean(this.compact)}:${L}`;
      if (livesBox.dataset.key !== lkey) {
        livesBox.dataset.key = lkey;
        clear(livesBox);
        if (lkey) livesBox.append(livesEl(o.score, lives, m.start, { compact: Boolean(this.compact) }));
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
    this.asidePile.set(m.lobby || !m.aside ? null : m.aside, m.asideFaces, { ...o, compact: this.compact });
    this.poolPile.set(m.lobby || !m.pool ? null : m.pool, null, o);
    this.fitNames();
    this.placePlates();
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
    node.append(pieceSVG(this.opts.preset, id, { look: this.opts.look, lang: lang(), label: false,
                                                 compact: Boolean(this.compact) }));
    node.style.width = this.compact ? "var(--pd)" : `${w}px`;
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
// along its edge (equal angles would bunch seats up at the narrow ends), each taking
// room by its weight (``weights[k]``, the k-th from the bottom).
function spread(n, rx, ry, weights) {
  const M = 720;
  const len = [0];
  const at = (m) => Math.PI / 2 + (2 * Math.PI * m) / M;
  for (let m = 1; m <= M; m++) {
    const a0 = at(m - 1), a1 = at(m);
    len.push(len[m - 1] + Math.hypot(rx * (Math.cos(a1) - Math.cos(a0)), ry * (Math.sin(a1) - Math.sin(a0))));
  }
  const total = len[M];
  const unit = total / weights.reduce((a, b) => a + b, 0);
  const out = [];
  let m = 0, at0 = -weights[0] / 2;  // the first seat's middle at the bottom
  for (let k = 0; k < n; k++) {
    const want = (at0 + weights[k] / 2) * unit;
    at0 += weights[k];
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
      const key = `${o.look}:${lang()}:${(faceIds || []).join(",")}:${Boolean(o.compact)}`;
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
      el.classList.toggle("compact", Boolean(o.compact));
      for (const id of faceIds || []) {
        faces.append(pieceSVG(o.preset, id, { look: o.look, lang: lang(), compact: Boolean(o.compact) }));
      }
    },
  };
}
