// The log panel: every event in words (narrate.js), the latest at the bottom. It adds
// the store's new entries as they come and writes them all again for a new log or in
// a new language.

import { h, clear } from "../dom.js";
import { t, lang } from "../i18n.js";
import { narrate } from "../narrate.js";
import { LOG_MAX } from "../state.js";
import { game, who } from "../select.js";

export class LogPanel {
  constructor() {
    this.list = h("ol", { class: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions",
                          "aria-label": t("play.log"), tabindex: "0" });
    this.el = h("section", { class: "log-panel" }, h("h2", { text: t("play.log") }), this.list);
    this.epoch = null;
    this.lang = null;
    this.last = -1;  // the ``n`` of the last entry written
  }

  render(s) {
    const again = this.epoch !== s.logEpoch || this.lang !== lang();
    if (again) {
      clear(this.list);
      this.epoch = s.logEpoch;
      this.lang = lang();
      this.last = -1;
    }
    const fresh = s.log.filter((entry) => entry.n > this.last);
    if (!fresh.length && !again) return;
    const g = game(s), shown = who(s);
    for (const entry of fresh) this.list.append(line(entry, g, shown));
    if (fresh.length) this.last = fresh[fresh.length - 1].n;
    while (this.list.children.length > LOG_MAX) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}

function line({ e, me, dragged }, g, who) {
  const text = narrate(e, { preset: g.preset, tableLang: g.tableLang, me, full: false, who, dragged });
  return h("li", { class: `ev ev-${e.type}`, text });
}
