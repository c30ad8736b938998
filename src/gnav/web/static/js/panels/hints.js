// Hints for the reader's first game: which hint a moment calls for (each once a
// session), and the panel that shows the store's hint under the board.

import { h, clear } from "../dom.js";
import { t, lang } from "../i18n.js";
import { piece, pieceName, pieceCall } from "../presets.js";
import { hintsOn, setHints } from "../settings.js";
import { game, leftOf, myName, who } from "../select.js";

const SEEN = "gnav.hints.seen";

// The hint for this moment (``e``: the event just played, or null: the page is still),
// or null. A hint is given once a session (the fool on the left: once a round).
// ``text()`` words it, again in a new language if the reader switches.
export function nextHint(s, e) {
  if (!hintsOn() || s.you === null || !s.info || s.info.phase !== "playing") return null;
  const g = game(s), p = g.preset, me = myName(s), st = s.round;
  // Only a player in this round gets hints: not one who is out, or sits it out.
  if (!me || st.out.has(me) || !st.order.includes(me) || st.winners) return null;
  const does = (id) => (piece(p, id).does[lang()] || "");
  let id = null, text = null;
  if (e && e.type === "answer") {
    const got = e.piece;
    id = `answered:${got}`;
    text = () => t("hint.answered", { piece: pieceName(p, got, lang()),
      call: pieceCall(p, got, g.tableLang), does: does(got) });
  } else if (!e && !s.moving && st.toAct === me && s.view && (s.view.legal || []).length) {
    const left = leftOf(s, me);
    const mine = st.myPiece;
    const swappedLeft = st.swaps.some(([a, b]) => a === left || b === left);
    if (left && st.knocked.has(left) && !swappedLeft && !(mine && piece(p, mine).fool)) {
      id = `fool_left:${st.round}`;
      text = () => t("hint.fool_left", { left: who(s)(left) });
    } else if (mine && piece(p, mine).power) {
      id = `matador:${mine}`;
      text = () => t("hint.matador", { piece: pieceName(p, mine, lang()),
        call: pieceCall(p, mine, g.tableLang), does: does(mine) });
    } else if (mine && piece(p, mine).fool) {
      id = "fool_mine";
      text = () => t("hint.fool_mine", { drag: g.options.drag ? t("hint.drag") : "" });
    } else if (!left) {
      id = "dealer";
      text = () => t("hint.dealer");
    } else {
      id = "first_turn";
      text = () => t("hint.first_turn", { left: who(s)(left) });
    }
  }
  if (id === null) return null;
  const seen = new Set(JSON.parse(sessionStorage.getItem(SEEN) || "[]"));
  if (seen.has(id) && !id.startsWith("fool_left")) return null;
  seen.add(id);
  sessionStorage.setItem(SEEN, JSON.stringify([...seen]));
  return { id, text };
}

export class HintPanel {
  // ``dismiss()``: the reader has read it.
  constructor({ dismiss }) {
    this.dismiss = dismiss;
    this.el = h("div", { class: "hint-slot" });
    this.shown = null;  // the hint drawn, and in which language
    this.lang = null;
  }

  render(s) {
    if (this.shown === s.hint && this.lang === lang()) return;
    this.shown = s.hint;
    this.lang = lang();
    clear(this.el);
    if (!s.hint) return;
    const { id, text } = s.hint;
    this.el.append(h("aside", { class: "hint", role: "note", "aria-label": t("hint.title"), dataset: { hint: id } },
      h("strong", { text: `${t("hint.title")}: ` }), h("span", { text: text() }),
      h("div", { class: "row" },
        h("button", { class: "btn small", type: "button", onclick: () => this.dismiss() }, t("hint.ok")),
        h("button", { class: "btn small ghost", type: "button",
                      onclick: () => { setHints(false); this.dismiss(); } }, t("hint.off")))));
  }
}
