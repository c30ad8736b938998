// The winner panel over the board once the match is over (and its last events are
// played): who won, the standings (place, lives, rounds survived, from the match's
// record), the record to download, play again (the host), the replay, a new table.

import { api } from "../api.js";
import { h, clear } from "../dom.js";
import { t, lang } from "../i18n.js";
import { crownSVG } from "../pieces.js";
import { hintsOn, setHints } from "../settings.js";
import { busy, myName, who as whoOf } from "../select.js";
import { standings } from "../standings.js";
import { oddsLink, companionLink } from "../links.js";

export class WinPanel {
  // ``hostCall(method, path, body)``: the host's requests; ``close()``: the reader closed it.
  constructor({ id, hostCall, close }) {
    this.id = id;
    this.hostCall = hostCall;
    this.close = close;
    this.el = h("div", { class: "win-slot" });
    this.records = new Map();  // record path -> the promise of the record
  }

  render(s) {
    const st = s.round;
    const host = Boolean(s.creds.host);
    const show = s.info.phase === "finished" && st.winners && !busy(s) && !s.winClosed;
    const key = show ? JSON.stringify([st.winners, lang(), s.info.games, host]) : "";
    if (this.el.dataset.key === key) return;
    this.el.dataset.key = key;
    clear(this.el);
    if (!show) return;
    const me = myName(s), who = whoOf(s);
    const title = st.winners.length === 1
      ? (st.winners[0] === me ? t("end.you_win") : t("end.wins", { name: who(st.winners[0]) }))
      : t("end.shared", { names: st.winners.map(who).join(", ") });
    const crown = h("div", { class: "win-crown", "aria-hidden": "true" });
    crown.append(crownSVG());
    const game = s.info.games;
    const record = `/api/tables/${encodeURIComponent(this.id)}/record?game=${game}`;
    const table = h("div", { class: "standings-slot" });
    const dlg = h("section", { class: "win-panel", role: "dialog", "aria-modal": "false",
                               "aria-labelledby": "win-title" },
      crown, h("h2", { id: "win-title", text: title }), table,
      h("div", { class: "row" },
        host ? h("button", { class: "btn primary", type: "button",
          onclick: () => this.hostCall("POST", "start", {}) }, t("end.again")) : null,
        h("a", { class: "btn", href: `/replay?table=${encodeURIComponent(this.id)}&game=${game}` },
          t("end.replay")),
        h("a", { class: "btn", id: "download-record", href: record,
                 download: `gnav-${this.id}-${game}.json` }, t("end.download")),
        h("a", { class: "btn ghost", href: "/" }, t("end.new")),
        h("button", { class: "btn ghost", type: "button", onclick: () => this.close() },
          t("end.close"))),
      host ? null : h("p", { class: "muted", text: t("end.wait_again") }),
      h("p", { class: "win-links" }, oddsLink({ preset: s.info.config.preset, seats: s.info.seats.length },
        { away: true }), h("br"), companionLink({ away: true })));
    this.el.append(dlg);
    this.fillStandings(table, record, who, me, key);
    const first = dlg.querySelector("button, a");
    if (first) first.focus({ preventScroll: true });
    if (me && hintsOn()) setHints(false);  // the first game is over: no more hints
  }

  // The standings, once the record is here (the table serves it from the match's end).
  // Without it (offline, refused) the panel goes on without them: the record is still
  // one click away.
  async fillStandings(slot, path, who, me, key) {
    // One fetch a game: a record is a costly read, and the panel is drawn again for a
    // language switch.
    if (!this.records.has(path)) this.records.set(path, api("GET", path));
    let rows;
    try {
      rows = standings(await this.records.get(path));
    } catch {
      this.records.delete(path);
      return;
    }
    if (this.el.dataset.key !== key || !slot.isConnected) return;
    const cell = (tag, text, cls) => h(tag, { class: cls, text: String(text) });
    slot.append(h("table", { class: "standings", id: "standings" },
      h("caption", { class: "sr-only", text: t("end.standings") }),
      h("thead", {}, h("tr", {}, cell("th", t("end.place"), "num"), cell("th", t("end.player")),
        cell("th", t("end.lives"), "num"), cell("th", t("end.survived"), "num"))),
      h("tbody", {}, rows.map((r) => h("tr", { class: [r.winner ? "winner" : "", r.name === me ? "me" : ""].join(" ").trim() || null,
                                              dataset: { seat: r.name } },
        cell("td", t("end.place_n", { n: r.place }), "num"), cell("td", who(r.name)),
        cell("td", r.lives, "num"), cell("td", r.survived, "num"))))));
  }
}
