// Events in words, in the reader's language, with the game's own calls.

import { t, lang, list } from "./i18n.js";
import { pieceName, pieceCall, callBeside, word, piece } from "./presets.js";

// The event with every seat name as the reader is shown it (``who``: names.js).
function renamed(e, who) {
  const out = { ...e };
  for (const k of ["seat", "target", "to", "dealer"]) if (typeof e[k] === "string") out[k] = who(e[k]);
  for (const k of ["seats", "winners", "sit_out", "order"]) if (Array.isArray(e[k])) out[k] = e[k].map(who);
  return out;
}

// At a table this big the showdown's pieces are read on the board, not in one long line
// of the log.
export const BIG_SHOWDOWN = 10;

// ctx: {preset, tableLang, me (name or null), full (a replay: every piece known),
//       who (name shown for a seat's name), dragged (this "lowest" payment is the
//       fool's drag: a "fool" payment came before it in the same showdown)}
export function narrate(raw, ctx) {
  const e = ctx.who ? renamed(raw, ctx.who) : raw;
  const me = ctx.me && ctx.who ? ctx.who(ctx.me) : ctx.me;
  ctx = { ...ctx, me };
  const p = ctx.preset;
  const L = lang();
  const name = (id) => pieceName(p, id, L);
  const call = (id) => {
    const main = pieceCall(p, id, ctx.tableLang);
    if (!main) return "";
    const beside = callBeside(p, id, ctx.tableLang, L);
    return beside ? `«${main}» («${beside}»)` : `«${main}»`;
  };
  switch (e.type) {
    case "round_start": {
      let s = t("ev.round_start", { round: e.round, dealer: e.dealer });
      if (e.piece) s += ` ${t("ev.dealt", { piece: name(e.piece) })}`;
      return s;
    }
    case "knock":
      return t("ev.knock", { seat: e.seat });
    case "stand":
      return t("ev.stand", { seat: e.seat, word: word(p, "stand", ctx.tableLang) });
    case "ask":
      return e.target === null ? t("ev.ask_stock", { seat: e.seat })
        : t("ev.ask", { seat: e.seat, target: e.target, word: word(p, "swap", ctx.tableLang) });
    case "answer": {
      const c = call(e.piece);
      if (!c) return t("ev.answer_plain", { seat: e.seat ?? t("ev.stock"), piece: name(e.piece) });
      let s = e.seat === null ? t("ev.answer_stock", { piece: name(e.piece), call: c })
        : t("ev.answer", { seat: e.seat, piece: name(e.piece), call: c });
      if (e.power === "pass") s += ` ${t("ev.pass")}`;
      return s;
    }
    case "swap": {
      let s = t("ev.swap", { seat: e.seat, target: e.target });
      if (e.seat_got && ctx.full) {
        s += ` ${t("ev.swap_full", { seat: e.seat, target: e.target, seat_got: name(e.seat_got),
                                    target_got: name(e.target_got) })}`;
      } else if (e.seat_got && ctx.me === e.seat) {
        s += ` ${t("ev.swap_you", { gave: name(e.target_got), got: name(e.seat_got) })}`;
      } else if (e.seat_got && ctx.me === e.target) {
        s += ` ${t("ev.swap_you", { gave: name(e.seat_got), got: name(e.target_got) })}`;
      }
      return s;
    }
    case "draw": {
      let s = t("ev.draw", { seat: e.seat });
      if (e.piece && ctx.full) {
        s = t("ev.draw_full", { seat: e.seat, piece: name(e.piece), aside: name(e.set_aside) });
      } else if (e.piece) {
        s += ` ${t("ev.draw_you", { piece: name(e.piece), aside: name(e.set_aside) })}`;
      }
      return s;
    }
    case "stock_empty":
      return t("ev.stock_empty");
    case "pay": {
      if (!e.paid) return t("ev.pay_none", { seat: e.seat });
      const why = e.reason === "lowest" && ctx.dragged ? t("why.dragged")
        : e.reason === "lowest" || e.reason === "fool" || e.reason === "two_fools"
        ? t(`why.${e.reason}`) : piece(p, e.reason).power ? t("why.matador", { piece: name(e.reason) }) : "";
      return e.to === null ? t("ev.pay", { seat: e.seat, why, lives: e.lives })
        : t("ev.pay_to", { seat: e.seat, to: e.to, why, lives: e.lives });
    }
    case "gain": {
      const why = e.reason === "two_fools" ? t("why.two_fools") : "";
      return t("ev.gain", { seat: e.seat, why, lives: e.lives });
    }
    case "undo": {
      let s = t("ev.undo");
      if (e.piece && !ctx.full) s += ` ${t("ev.undo_you", { piece: name(e.piece) })}`;
      return s;
    }
    case "showdown": {
      // Who pays, and why, follows line by line.
      if (e.seats.length >= BIG_SHOWDOWN) return t("ev.showdown_big", { n: e.seats.length });
      const shown = e.seats.map((s, i) => `${s} ${name(e.pieces[i])}`).join(", ");
      return t("ev.showdown", { shown });
    }
    case "standin":  // not an engine event: a bot decided for a person (table.js)
      return t(e.how === "timer" ? "ev.timer" : "ev.standin", { seat: e.seat });
    case "round_end": {
      let s = e.ended_by === "turns" ? t("ev.round_end") : t("ev.round_end_by", { piece: name(e.ended_by) });
      if (e.sit_out.length) s += ` ${t("ev.sit_out", { seats: list(e.sit_out) })}`;
      return s;
    }
    case "eliminated":
      return t("ev.eliminated", { seats: list(e.seats) });
    case "match_end":
      return e.winners.length === 1 ? t("ev.match_end", { seat: e.winners[0] })
        : t("ev.match_shared", { seats: list(e.winners) });
    default:
      return "";
  }
}

// A function that says, for each event read in order, whether it is a "lowest" payment
// the fool dragged down (a "fool" payment came before it in the same showdown): the
// events themselves do not say.
export function dragWatch() {
  let fool = false;
  return (e) => {
    if (e.type === "showdown" || e.type === "round_start") fool = false;
    const dragged = e.type === "pay" && e.reason === "lowest" && fool;
    if (e.type === "pay" && e.reason === "fool") fool = true;
    return dragged;
  };
}
