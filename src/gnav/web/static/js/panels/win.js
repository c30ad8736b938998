// The winner panel over the board once the match is over (and its last events are
// played): who won, play again (the host), the replay, a new table.

import { h, clear } from "../dom.js";
import { t, lang } from "../i18n.js";
import { crownSVG } from "../pieces.js";
import { hintsOn, setHints } from "../settings.js";
import { busy, myName, who as whoOf } from "../select.js";

export class WinPanel {
  // ``hostCall(method, path, body)``: the host's requests; ``close()``: the reader closed it.
  constructor({ id, hostCall, close }) {
    this.id = id;
    this.hostCall = hostCall;
    this.close = close;
    this.el = h("div", { class: "win-slot" });
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
    const dlg = h("section", { class: "win-panel", role: "dialog", "aria-modal": "false",
                               "aria-labelledby": "win-title" },
      crown, h("h2", { id: "win-title", text: title }),
      h("div", { class: "row" },
        host ? h("button", { class: "btn primary", type: "button",
          onclick: () => this.hostCall("POST", "start", {}) }, t("end.again")) : null,
        h("a", { class: "btn", href: `/replay?table=${encodeURIComponent(this.id)}&game=${s.info.games}` },
          t("end.replay")),
        h("a", { class: "btn ghost", href: "/" }, t("end.new")),
        h("button", { class: "btn ghost", type: "button", onclick: () => this.close() },
          t("end.close"))),
      host ? null : h("p", { class: "muted", text: t("end.wait_again") }));
    this.el.append(dlg);
    const first = dlg.querySelector("button, a");
    if (first) first.focus({ preventScroll: true });
    if (me && hintsOn()) setHints(false);  // the first game is over: no more hints
  }
}
