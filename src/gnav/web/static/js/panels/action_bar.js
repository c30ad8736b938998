// The action bar: the reader's piece and what it does, Stand and Swap, the status line
// (what is true for the reader now) and the turn's clock.

import { h, clear } from "../dom.js";
import { t, lang } from "../i18n.js";
import { pieceSVG } from "../pieces.js";
import { piece, pieceName, pieceCall } from "../presets.js";
import { busy, canAct, game, leftOf, myName, who } from "../select.js";
import { oddsLink } from "../links.js";
import { rulesPreset } from "../rules.js";

export class ActionBar {
  // ``act(action)``: the reader pressed Stand or Swap.
  constructor({ act }) {
    const button = (action, key, label) => h("button", {
      class: `btn act ${action}`, type: "button", "aria-keyshortcuts": key, onclick: () => act(action) },
      h("span", { class: "act-label", text: label }), h("kbd", { text: key }));
    this.standBtn = button("stand", "S", t("play.stand"));
    this.swapBtn = button("swap", "W", t("play.swap"));
    this.handPiece = h("div", { class: "hand-piece" });
    this.handName = h("div", { class: "hand-name" });
    this.handDoes = h("div", { class: "hand-does" });
    // The coach (Settings): beside the piece, at the reader's own decision.
    this.coachEl = h("div", { class: "coach", id: "coach", "aria-live": "polite", hidden: true });
    this.statusLine = h("p", { class: "status-line", id: "turn-status", "aria-live": "polite" });
    this.clockEl = h("span", { class: "clock", "aria-hidden": "true" });
    this.el = h("section", { class: "action-bar", "aria-label": t("play.your_piece") },
      h("div", { class: "hand" }, this.handPiece, h("div", { class: "hand-text" },
        h("div", { class: "hand-title", text: t("play.your_piece") }), this.handName, this.handDoes,
        this.coachEl)),
      h("div", { class: "controls" }, h("div", { class: "status-row" }, this.statusLine, this.clockEl),
        this.buttons = h("div", { class: "buttons" }, this.standBtn, this.swapBtn)));
  }

  render(s) {
    this.renderHand(s);
    this.renderControls(s);
  }

  renderHand(s) {
    const me = myName(s), st = s.round, info = s.info;
    const p = game(s).preset;
    const L = lang();
    const inRound = me && st.order.includes(me) && info.phase !== "lobby";
    this.el.hidden = s.you === null;
    const id = inRound ? st.myPiece : null;
    const key = `${id}:${L}:${info.config.look}`;
    if (this.handPiece.dataset.key !== key) {
      this.handPiece.dataset.key = key;
      clear(this.handPiece);
      if (id) this.handPiece.append(pieceSVG(p, id, { look: info.config.look, lang: L }));
    }
    if (!inRound) {
      this.handName.textContent = info.phase === "lobby" ? ""
        : me && st.out.has(me) ? t("play.you_out") : t("play.no_piece");
      this.handDoes.textContent = "";
      return;
    }
    this.handName.textContent = id ? pieceName(p, id, L) : "";
    const x = id ? piece(p, id) : null;
    // Once the match is over, what the piece does asks nothing of anyone: no caption.
    let does = x && info.phase !== "finished" ? (x.does[L] || x.does.en || "") : "";
    if (x && x.power && does) does = `«${pieceCall(p, id, game(s).tableLang)}» ${does}`;
    this.handDoes.textContent = does;
    this.el.classList.toggle("k-matador", Boolean(x && x.power));
    this.el.classList.toggle("k-fool", Boolean(x && x.fool));
  }

  renderControls(s) {
    const stand = canAct(s, "stand"), swap = canAct(s, "swap");
    this.buttons.hidden = s.info.phase === "finished";  // no more turns: no greyed buttons
    this.standBtn.disabled = !stand;
    this.swapBtn.disabled = !swap;
    const me = myName(s);
    const left = me ? leftOf(s, me) : null;
    this.standBtn.title = t("play.stand_help");
    this.standBtn.setAttribute("aria-label", t("play.stand_help"));
    const swapText = left ? t("play.swap_with", { name: who(s)(left) }) : t("play.swap_stock");
    this.swapBtn.title = swapText;
    this.swapBtn.setAttribute("aria-label", swapText);
    this.el.classList.toggle("my-turn", stand || swap);
    const text = status(s, stand || swap);
    if (this.statusLine.textContent !== text) this.statusLine.textContent = text;
    this.clock(s);
  }

  // The coach's answer for this decision: null (nothing to show), or {state: "asking" |
  // "advice" | "none" | "off_here" | "error", advice, text}. Its figures are the
  // server's, computed from this seat's view alone.
  renderCoach(c) {
    const el = this.coachEl;
    const key = JSON.stringify([c, lang()]);
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    clear(el);
    el.hidden = !c;
    if (!c) return;
    el.dataset.state = c.state;
    const title = h("span", { class: "coach-title", text: `${t("coach.title")}: ` });
    if (c.state === "asking") { el.append(title, t("coach.asking")); return; }
    if (c.state === "none") { el.append(title, t("coach.none")); return; }
    if (c.state === "off_here") { el.append(t("coach.off_here")); return; }
    if (c.state === "error") { el.append(title, c.text || ""); return; }
    const a = c.advice;
    // The headline is what the figures say (the server's verdict); the expert's choice
    // follows, and where it differs, why.
    const why = a.why ? h("span", { class: "coach-why", dataset: { why: a.why },
                                     text: ` ${t("coach.why", { why: whyText(a) })}` }) : "";
    el.append(title,
      h("span", { class: "coach-stand", text: t("coach.stand", { p: chance(a.pay_stand) }) }), " · ",
      h("span", { class: "coach-swap", text: t("coach.swap", { p: chance(a.pay_swap) }) }), ". ",
      h("strong", { class: "coach-verdict", dataset: { verdict: a.verdict }, text: verdictText(a) }), " ",
      h("span", { class: "coach-expert", text: a.expert_swap > 0.02 && a.expert_swap < 0.98
        ? t("coach.expert_mixed", { p: pct(a.expert_swap) })
        : t(a.expert === "swap" ? "coach.expert_swap" : "coach.expert_stand") }), why, " ",
      h("span", { class: "coach-lives", text: t("coach.lives", { s: lives(a.lives_stand), w: lives(a.lives_swap) }) }),
      // The chance to win the match, beside the lives: the match strategy's where one
      // ships, else the lives model's (win_source says which).
      a.win_stand !== undefined && a.win_swap !== undefined
        ? h("span", { class: "coach-win", dataset: { source: a.win_source || "match" },
          text: ` ${t(a.win_source === "model" ? "coach.win_model" : "coach.win", { s: winPct(a.win_stand), w: winPct(a.win_swap) })}` }) : "",
      h("span", { class: "coach-source muted", text: a.source === "exact" ? t("coach.exact")
        : t("coach.sampled", { n: a.samples }) }));
    // What "paying" counts, and every other seat's odds: the /odds page.
    el.append(" ", oddsLink({ preset: rulesPreset() }, { away: true, text: "links.odds_short" }));
  }

  // Seconds left for the decision, counted down between the server's messages from the
  // server's deadline. At the reader's own turn, the turn time from when their buttons
  // came alive: the server, told so, starts its clock then (within a bound: its answer,
  // the table with the new deadline, then has the last word), never sooner.
  clock(s) {
    const left = s.info.timer_left;
    if (left === null || left === undefined || busy(s) || !s.round.toAct || s.info.phase !== "playing") {
      this.clockEl.textContent = "";
      return;
    }
    const now = performance.now();
    let exact = left - (now - s.infoAt) / 1000;
    const total = s.info.config.turn_timer;
    if (total && s.liveFor === s.version && s.round.toAct === myName(s)) {
      const mine = total - (now - s.liveAt) / 1000;
      exact = s.liveTold && s.infoAt <= s.liveAt ? mine : Math.min(exact, mine);
    }
    const secs = Math.max(0, Math.ceil(exact));
    this.clockEl.textContent = t("play.seconds", { s: secs });
    this.clockEl.classList.toggle("urgent", secs <= 5);
  }
}

// The line under the buttons: what is true for the reader now.
function status(s, canActNow) {
  const info = s.info, st = s.round, me = myName(s);
  if (s.you === null) return t("status.watching");
  if (info.phase === "lobby") return t(s.creds.host ? "wait.you_start" : "wait.host");
  if (info.phase === "finished") return t("status.over");
  if (s.pending) return t("play.sent");
  if (canActNow) return t("play.your_turn");
  if (me && st.out.has(me)) return t("status.out");
  if (st.shown.size || st.ended) return t("status.showdown");
  if (me && st.sittingOut.has(me)) return t("status.sitting_out");
  if (me && st.round && !st.order.includes(me)) return t("status.watching");
  if (busy(s)) return t("status.moving");
  if (st.toAct && st.toAct !== me) return t("play.turn_of", { name: who(s)(st.toAct) });
  return t("status.moving");
}

// A percentage, for a share between 0 and 1.
function pct(x) {
  return `${Math.round(x * 100)}%`;
}

// A chance to win the match, to one decimal, in the page's language.
function winPct(x) {
  return `${(100 * x).toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
}

// Expected lives (a loss is negative), to two decimals, in the page's language.
function lives(f) {
  const x = typeof f === "number" ? f : f && f.value;
  if (x === null || x === undefined) return "?";
  return x.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2,
                                    signDisplay: "exceptZero" });
}

// The coach's verdict in words: the better choice and by how much (with its 95% range
// where sampled), too close to call, or equal.
function verdictText(a) {
  const g = a.swap_gain;
  const exact = typeof g === "number";
  const value = exact ? g : g.value;
  if (a.verdict === "close") {
    return exact ? t("coach.verdict_equal") : t("coach.verdict_close", { d: gap(value, g.low, g.high) });
  }
  // The gap as the better choice's gain: swap minus stand, or stand minus swap.
  const sign = a.verdict === "swap" ? 1 : -1;
  const d = exact ? plain(Math.abs(value))
    : gap(sign * value, sign > 0 ? g.low : -g.high, sign > 0 ? g.high : -g.low);
  return t(a.verdict === "swap" ? "coach.verdict_swap" : "coach.verdict_stand", { d });
}

// A difference in lives with its 95% range: "0.05 (0.03 – 0.07)".
function gap(value, low, high) {
  return `${plain(value)} (${plain(low)} – ${plain(high)})`;
}

// Lives to two decimals, a minus sign only where negative.
function plain(x) {
  return x.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function whyText(a) {
  const g = a.swap_gain;
  const d = plain(Math.abs(typeof g === "number" ? g : g.value));
  return t(`why.${a.why}`, { p: pct(a.expert_swap), d });
}

// A chance as the coach gives it: exact (a number) or estimated ({value, low, high}),
// the estimate with its 95% range.
function chance(f) {
  if (typeof f === "number") return pct(f);
  if (!f || f.value === null) return "?";
  return `${pct(f.value)} (${Math.round(f.low * 100)}–${pct(f.high)})`;
}
