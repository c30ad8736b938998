// The lobby panel beside the board: the seats, the invite and watch links, adding bots
// and starting (the host), or joining; once the match is on, at most a note.

import { h, clear } from "../dom.js";
import { learned } from "../learn.js";
import { t, lang } from "../i18n.js";
import { nameLimit, NAME_MAX } from "../errors.js";
import { who as whoOf } from "../select.js";
import { botKind } from "../names.js";

export class LobbyPanel {
  // ``hostCall(method, path, body)``: the host's requests; ``join(name)``: take a seat.
  constructor({ id, hostCall, join }) {
    this.id = id;
    this.hostCall = hostCall;
    this.join = join;
    this.focusJoin = false;  // once: the page was opened to join (an invite, "#join")
    this.el = h("div", { class: "side-main" });
  }

  render(s) {
    const info = s.info;
    const c = s.creds;
    const isHost = Boolean(c.host);
    const side = this.el;
    const key = JSON.stringify([info.phase, info.seats, s.you, isHost, c.invite, lang(),
                                s.joinError, s.joinTries, s.links, info.config.coaching,
                                info.expert_plays, info.length]);
    if (side.dataset.key === key) return;
    side.dataset.key = key;
    clear(side);
    // The host's "no coaching here", for every seat and watcher, in every phase.
    if (info.config.coaching === false) {
      side.append(h("p", { class: "note", id: "no-coaching-note", text: t("coach.off_here") }));
    }
    // Said once, in this panel: where an expert bot here plays as counter.
    if (info.expert_plays) {
      const seats = info.expert_plays.map((x) => x.seats).join(", ");
      side.append(h("p", { class: "note expert-note", text: t("note.expert_counter", { seats }) }));
    }
    if (info.phase !== "lobby") {
      if (s.you === null) side.append(h("p", { class: "note", text: t("join.started") }));
      return;
    }
    const who = whoOf(s);
    const panel = h("section", { class: "panel lobby-panel" }, h("h2", { text: t("wait.heading") }));
    if (info.length) panel.append(lengthNote(info.length));
    const list = h("ol", { class: "seat-list" });
    info.seats.forEach((x, i) => {
      const shown = x.kind === "empty" ? t("seat.empty") : who(x.name);
      const notes = [];
      // The bot's kind as the record names it (expert, counter, threshold, random), where
      // its shown name does not say it already ("Expert bot 4" does).
      if (x.kind === "bot" && !botKind(x.name)) {
        notes.push(x.bot ? t("seat.bot_kind", { kind: x.bot }) : t("seat.bot"));
      }
      if (i === s.you) notes.push(t("seat.you"));
      if (x.kind === "human" && !x.connected && i !== s.you) notes.push(t("seat.away"));
      const li = h("li", { class: `seat-line ${x.kind}` },
        h("span", { class: "seat-no", text: `${i + 1}.` }), h("span", { class: "who", text: shown }),
        notes.length ? h("span", { class: "muted", text: ` (${notes.join(", ")})` }) : null);
      if (isHost && x.kind !== "empty" && i !== s.you) {
        li.append(h("button", { class: "btn small ghost", type: "button",
          onclick: () => this.hostCall("DELETE", `seats/${i}`), text: "×",
          "aria-label": t("wait.free", { n: i + 1 }), title: t("wait.free", { n: i + 1 }) }));
      }
      list.append(li);
    });
    panel.append(h("h3", { text: t("wait.seats") }), list);
    const empty = info.seats.filter((x) => x.kind === "empty").length;
    if (isHost) {
      panel.append(h("div", { class: "row" },
        h("button", { class: "btn", type: "button", disabled: empty === 0,
                      onclick: () => this.hostCall("POST", "bots", {}) }, t("wait.add_bot")),
        h("button", { class: "btn primary", type: "button", id: "start-match",
                      onclick: () => this.hostCall("POST", "start", {}) }, t("wait.start"))));
    } else {
      panel.append(h("p", { class: "muted", text: t("wait.host") }));
    }
    const invite = (s.links && s.links.invite) ||
      (c.invite ? `${location.origin}/t/${this.id}#invite=${c.invite}` : null);
    const code = invite ? invite.split("#invite=")[1] : null;
    if (invite) {
      panel.append(copyField(t("wait.invite"), invite, "invite-link"));
      // The server listens on this computer only (make run's default): say so, or
      // friends are sent a link that cannot open for them.
      if (onThisComputer(invite)) panel.append(h("p", { class: "note", id: "local-only", text: t("wait.local_only") }));
      panel.append(copyField(t("wait.code"), `${this.id}:${code}`, "invite-code"));
    }
    panel.append(copyField(t("wait.watch"), `${location.origin}/t/${this.id}`, "watch-link"));
    if (s.you === null) {
      if (c.invite || info.config.listed) side.append(this.joinForm(s));
      else side.append(h("p", { class: "note", text: t("join.watch_only") }));
    }
    side.append(panel);
  }

  joinForm(s) {
    const name = h("input", { id: "join-name", name: "name", maxlength: String(NAME_MAX),
                              autocomplete: "nickname", "aria-describedby": "join-name-error",
                              value: (localStorage.getItem("gnav.name") || "").slice(0, NAME_MAX) });
    const note = h("p", { class: "error", role: "alert", id: "join-name-error", text: s.joinError });
    nameLimit(name, note);
    const form = h("form", { class: "join-form", novalidate: true,
                             onsubmit: (e) => { e.preventDefault(); this.join(name.value); } },
      h("label", { for: "join-name", text: t("create.name") }),
      h("div", { class: "row" }, name, h("button", { class: "btn primary", type: "submit", text: t("join.sit") })),
      note);
    if (this.focusJoin) { setTimeout(() => name.focus(), 0); this.focusJoin = false; }
    // Someone who has never played is offered the lesson first, and brought back here.
    if (learned() || localStorage.getItem("gnav.learn.declined") === "1") return form;
    const offer = h("div", { class: "note learn-offer", id: "learn-offer" },
      h("p", { text: t("learn.ui.offer") }),
      h("div", { class: "row" },
        h("a", { class: "btn primary small", id: "learn-offer-go", href: `/learn?back=${encodeURIComponent(`/t/${this.id}`)}`,
                 text: t("learn.ui.offer_go") }),
        h("button", { class: "btn small ghost", type: "button", id: "learn-offer-no", text: t("learn.ui.offer_no"),
                      onclick: () => { localStorage.setItem("gnav.learn.declined", "1"); offer.remove(); } })));
    return h("div", {}, offer, form);
  }
}

// How long a match here lasts, and the option a table of this size sets so that it
// ends (docs/rules.md, large tables): said before the host starts.
export function lengthNote(x) {
  const note = h("div", { class: "note length-note", id: "length-note" });
  // A figure at the cap is no length: a match that had not ended is said as such below.
  const capped = (v) => x.cap !== null && v >= x.cap;
  const figures = { seats: x.seats, median: Math.round(x.median), p95: Math.round(x.p95) };
  if (!capped(x.median)) {
    note.append(h("p", { text: t(capped(x.p95) ? "length.median" : "length.expected", figures) }));
  }
  if (x.scaled) note.append(h("p", { class: "muted", text: t("length.scaled") }));
  else if (!x.measured) note.append(h("p", { class: "muted", text: t("length.unmeasured") }));
  if (x.ends < 1) note.append(h("p", { text: t("length.never", { ends: Math.round(x.ends * 100), cap: x.cap }) }));
  const set = x.table_options || {};
  if (Object.keys(set).length && x.remedy) {
    const rounds = set.max_rounds;
    note.append(h("p", { text: rounds !== undefined
      ? t("length.remedy_rounds", { from: x.remedy.from, rounds })
      : t("length.remedy_pay", { from: x.remedy.from }) }));
    if (!x.plays_table_options) note.append(h("p", { class: "muted", text: t("length.remedy_off") }));
  }
  return note;
}

// Whether a link names this computer alone (localhost, 127.x.x.x, ::1).
export function onThisComputer(link) {
  let host;
  try { host = new URL(link).hostname; } catch { return false; }
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
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
