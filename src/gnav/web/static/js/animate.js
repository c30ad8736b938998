// One event on the board, animated so that a person can follow it, for the live table
// and the replay alike. ``apply()`` puts the event into the page's state and redraws;
// each case calls it at the moment the change should be seen.

import { t, lang } from "./i18n.js";
import { pieceName, pieceCall, callBeside, word } from "./presets.js";
import { dur, sleep } from "./settings.js";

export async function animateEvent(b, e, { preset: p, tableLang, st, apply, onAnswer, peak }) {
  const L = lang();
  // ``peak`` (tests, screenshots) runs once, at the moment worth a picture.
  let peaked = false;
  const atPeak = async () => {
    if (peak && !peaked) {
      peaked = true;
      await peak();
    }
  };
  switch (e.type) {
    case "round_start": {
      b.clearArrows();
      b.clearBubbles();
      apply();
      const dealing = b.deal(e.order, dur(900));
      await sleep(dur(650));
      await atPeak();
      await dealing;
      await sleep(dur(250));
      break;
    }
    case "knock":
      apply();
      b.bubble(e.seat, t("play.knock"), { kind: "knock", ms: dur(1100) });
      await b.shake(e.seat, dur(1100));
      await sleep(dur(400));
      break;
    case "stand":
      b.clearArrows();
      apply();
      await b.bubble(e.seat, word(p, "stand", tableLang), { ms: dur(850) });
      break;
    case "ask":
      b.clearArrows();
      apply();
      b.arrow(e.seat, e.target);
      await b.bubble(e.seat, word(p, "swap", tableLang), { ms: dur(750) });
      break;
    case "answer": {
      if (e.seat === null) await b.fly("stock", "center", e.piece, dur(500), { scale: 1.4 });
      apply();
      b.pulse(e.seat ?? "stock", "reveal", dur(1800));
      const call = pieceCall(p, e.piece, tableLang) || pieceName(p, e.piece, L);
      const beside = callBeside(p, e.piece, tableLang, L);
      const name = pieceName(p, e.piece, L);
      const same = (a, b) => a.toLowerCase().replace(/[^\p{L}]/gu, "") === b.toLowerCase().replace(/[^\p{L}]/gu, "");
      const sub = [beside, same(name, call) ? "" : name].filter(Boolean).join(" · ");
      if (onAnswer) onAnswer(e);
      const said = b.bubble(e.seat === null ? "stock" : e.seat, call, { sub, kind: "call", ms: dur(1900) });
      await sleep(dur(300));
      await atPeak();
      await said;
      if (e.power === "pass") b.clearArrows();
      break;
    }
    case "swap":
      b.clearArrows();
      b.arrow(e.seat, e.target);
      await b.swap(e.seat, e.target, e.seat_got, e.target_got, dur(850));
      apply();
      b.clearArrows();
      break;
    case "draw":
      b.lift([e.seat], true);
      await b.fly(e.seat, "aside", e.set_aside, dur(550));
      await b.fly("stock", e.seat, e.piece, dur(550));
      b.lift([e.seat], false);
      b.clearArrows();
      apply();
      break;
    case "stock_empty":
      b.clearArrows();
      apply();
      await b.bubble("stock", t("play.empty"), { kind: "knock", ms: dur(1000) });
      break;
    case "pay":
      if (e.paid) {
        b.bubble(e.seat, t("play.pays"), { kind: "pay", ms: dur(900) });
        await b.flyToken(e.seat, e.to === null ? "pool" : e.to, dur(800));
      }
      apply();
      break;
    case "gain":
      b.bubble(e.seat, t("play.gains"), { kind: "gain", ms: dur(900) });
      if (e.reason !== "penalty") await b.flyToken("pool", e.seat, dur(800));
      apply();
      break;
    case "undo": {
      b.clearArrows();
      const pairs = st.swaps.slice().reverse();
      b.bubble("center", t("play.back"), { kind: "call", ms: dur(1400) });
      await Promise.all(pairs.map(([x, y]) => b.swap(y, x, null, null, dur(900))));
      apply();
      await b.spinAll(st.order, dur(600));
      break;
    }
    case "showdown":
      b.clearArrows();
      b.clearBubbles();
      apply();
      await b.flipAll(e.seats, dur(1300));
      await sleep(dur(900));
      break;
    case "round_end":
      apply();
      await sleep(dur(1900));
      break;
    case "eliminated":
      apply();
      for (const s of e.seats) b.pulse(s, "eliminating", dur(1200));
      await sleep(dur(1200));
      break;
    case "match_end":
      apply();
      await sleep(dur(400));
      break;
    default:
      apply();
  }
  await atPeak();
}
