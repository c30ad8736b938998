// The board's panel: what board.js draws, from the store (the seats, the faces the
// reader may see, lives, the pool, whose turn, the timer, the stand-in notes).

import { t } from "../i18n.js";
import { narrate } from "../narrate.js";
import { busy, game, myName, who as whoOf } from "../select.js";

export function boardModel(s) {
  const info = s.info, st = s.round, g = game(s);
  const lobby = info.phase === "lobby" || st.round === 0;
  const who = whoOf(s);
  const seats = info.seats.map((x, i) => ({ name: x.name ?? `Seat ${i + 1}`, kind: x.kind,
                                            connected: x.connected, bot: x.bot,
                                            shown: who(x.name ?? `Seat ${i + 1}`) }));
  const me = myName(s);
  const faces = new Map();
  for (const [seat, p] of st.revealed) faces.set(seat, p);
  for (const [seat, p] of st.shown) faces.set(seat, p);
  if (me && st.myPiece && !st.shown.has(me)) faces.set(me, st.myPiece);
  const start = g.options.lives;
  const lives = {};
  for (const x of seats) {
    if (x.kind === "empty" && lobby) continue;
    lives[x.name] = st.lives[x.name] ?? start;
  }
  let pool = 0;
  if (!lobby) for (const x of seats) pool += Math.max(0, start - (lives[x.name] ?? start));
  const toAct = busy(s) ? null : st.toAct;
  let timer = null;
  if (toAct && info.timer_left !== null && info.timer_left !== undefined) {
    timer = { name: toAct, deadline: s.infoAt + info.timer_left * 1000,
              total: Math.max(info.config.turn_timer || 0, info.timer_left, 1) };
  }
  let caption = "", sub = "";
  if (info.phase === "lobby") {
    caption = t("wait.heading");
    sub = t(s.creds.host ? "wait.you_start" : "wait.host");
  } else if (st.round) {
    caption = t("play.round", { n: st.round });
    sub = toAct === null ? "" : toAct === me ? t("play.your_turn") : t("play.turn_of", { name: who(toAct) });
  }
  // The latest two stand-ins, said on the board until those people play again.
  const note = info.phase !== "playing" ? "" : [...s.notes].slice(-2).map(([seat, how]) =>
    narrate({ type: "standin", seat, how }, { preset: g.preset, tableLang: g.tableLang, me, who }))
    .join(" ");
  return {
    seats, me: s.you, lobby, inRound: new Set(lobby ? [] : st.order), dealer: lobby ? null : st.dealer,
    toAct, lives, start, out: st.out, sittingOut: lobby ? new Set() : st.sittingOut, faces,
    knocked: st.knocked, revealed: st.revealed, shown: st.shown, acted: st.acted, paid: st.paid,
    stockLeft: st.stockLeft, aside: st.aside, asideFaces: st.asideFaces, pool, caption, sub, timer,
    winners: st.winners, replay: false, moved: st.moved, note,
  };
}
